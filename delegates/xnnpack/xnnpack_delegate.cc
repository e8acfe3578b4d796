#include "xnnpack/xnnpack_delegate.h"

#include <xnnpack.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "delegate/partition_helper.h"
#include "kernels/internal/fp16.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/subgraph.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace {

constexpr char kName[] = "TfLiteXNNPackDelegate";

// One partition: an XNNPACK runtime over the partition's nodes.
class XnnpackKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  // fp16_sources: float tensor -> the FLOAT16 constant a DEQUANTIZE makes it from.
  XnnpackKernel(bool force_fp16, std::map<int, int> fp16_sources)
      : force_fp16_(force_fp16), fp16_sources_(std::move(fp16_sources)) {}
  ~XnnpackKernel() override {
    if (runtime_ != nullptr) xnn_delete_runtime(runtime_);
  }

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override {
    const std::vector<int> nodes(params->nodes_to_replace->data,
                                 params->nodes_to_replace->data + params->nodes_to_replace->size);
    const std::set<int> inputs(params->input_tensors->data,
                               params->input_tensors->data + params->input_tensors->size);
    const std::set<int> outputs(params->output_tensors->data,
                                params->output_tensors->data + params->output_tensors->size);
    static_data_.assign(context->tensors_size, nullptr);
    // fp16 weights, whether their DEQUANTIZE is in this partition or not: dequantized
    // once, here, so XNNPACK packs them as static weights.
    for (int n : nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      for (int i = 0; i < node->inputs->size; ++i) {
        const int t = node->inputs->data[i];
        auto it = fp16_sources_.find(t);
        if (t < 0 || static_data_[t] != nullptr || it == fp16_sources_.end()) continue;
        DequantizeWeights(context->tensors[it->second], t);
      }
      if (reg->builtin_code == kTfLiteBuiltinDequantize) {
        const int out = node->outputs->data[0];
        auto it = fp16_sources_.find(out);
        if (it == fp16_sources_.end()) continue;
        if (static_data_[out] == nullptr) DequantizeWeights(context->tensors[it->second], out);
        if (outputs.count(out)) {
          folded_outputs_.push_back({out, static_data_[out], context->tensors[out].bytes});
        }
      }
    }
    xnn_subgraph_t subgraph = nullptr;
    if (xnn_create_subgraph(static_cast<uint32_t>(context->tensors_size), 0, &subgraph) !=
        xnn_status_success) {
      TF_LITE_KERNEL_LOG(context, "%s: xnn_create_subgraph failed", kName);
      return kTfLiteError;
    }
    std::unique_ptr<xnn_subgraph, decltype(&xnn_delete_subgraph)> owner(subgraph, xnn_delete_subgraph);
    ids_.assign(context->tensors_size, XNN_INVALID_VALUE_ID);
    xnnpack::VisitContext v;
    v.context = context;
    v.ids = &ids_;
    v.static_data = &static_data_;
    // Values: every tensor the nodes touch (the fp16 sources stay outside XNNPACK).
    for (int n : nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      if (reg->builtin_code == kTfLiteBuiltinDequantize || reg->builtin_code == kTfLiteBuiltinDensify) continue;
      for (const TfLiteIntArray* list : {node->inputs, node->outputs}) {
        for (int i = 0; i < list->size; ++i) {
          const int t = list->data[i];
          if (t < 0 || ids_[t] != XNN_INVALID_VALUE_ID) continue;
          // The output-shape input of TRANSPOSE_CONV is read at definition, not by XNNPACK.
          if (reg->builtin_code == kTfLiteBuiltinTransposeConv && list == node->inputs && i == 0) continue;
          if ((reg->builtin_code == kTfLiteBuiltinPad || reg->builtin_code == kTfLiteBuiltinPadv2) &&
              list == node->inputs && i >= 1) continue;
          if ((reg->builtin_code == kTfLiteBuiltinReshape || reg->builtin_code == kTfLiteBuiltinMean) &&
              list == node->inputs && i >= 1) continue;
          TF_LITE_ENSURE_STATUS(DefineValue(context, subgraph, t, inputs, outputs, v));
        }
      }
    }
    v.subgraph = subgraph;
    for (int n : nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      if (reg->builtin_code == kTfLiteBuiltinDequantize || reg->builtin_code == kTfLiteBuiltinDensify) continue;
      if (!xnnpack::VisitNode(v, n, *node, *reg)) {
        TF_LITE_KERNEL_LOG(context, "%s: failed to define node %d (%s): %s", kName, n,
                           OpNameOf(*reg).c_str(), v.reason.c_str());
        return kTfLiteError;
      }
    }
    for (int t : inputs) {
      if (ids_[t] != XNN_INVALID_VALUE_ID && static_data_[t] == nullptr && !xnnpack::IsStatic(v, t)) {
        externals_.push_back(t);
      }
    }
    for (int t : outputs) {
      if (ids_[t] != XNN_INVALID_VALUE_ID && static_data_[t] == nullptr) externals_.push_back(t);
    }
    tflite::Subgraph* sg = tflite::Subgraph::FromContext(context);
    pthreadpool_t pool = sg != nullptr ? sg->thread_pool() : nullptr;
    const xnn_status st = xnn_create_runtime_v2(subgraph, pool,
                                                force_fp16_ ? XNN_FLAG_FORCE_FP16_INFERENCE : 0,
                                                &runtime_);
    if (st != xnn_status_success) {
      TF_LITE_KERNEL_LOG(context, "%s: xnn_create_runtime_v2 failed (xnn_status %d)%s", kName,
                         static_cast<int>(st),
                         force_fp16_ && st == xnn_status_unsupported_hardware
                             ? ": this XNNPACK cannot run fp16 inference on this CPU"
                             : "");
      return kTfLiteError;
    }
    return kTfLiteOk;
  }

  TfLiteStatus Prepare(TfLiteContext*, TfLiteNode*) override {
    setup_pointers_.clear();  // buffers may move when tensors are allocated again
    return kTfLiteOk;
  }

  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode*) override {
    std::vector<void*> pointers;
    for (int t : externals_) pointers.push_back(context->tensors[t].data.raw);
    if (pointers != setup_pointers_) {
      std::vector<xnn_external_value> values;
      for (size_t i = 0; i < externals_.size(); ++i) {
        if (pointers[i] == nullptr) {
          TF_LITE_KERNEL_LOG(context, "%s: tensor %d has no buffer", kName, externals_[i]);
          return kTfLiteError;
        }
        values.push_back({ids_[externals_[i]], pointers[i]});
      }
      if (xnn_setup_runtime(runtime_, values.size(), values.data()) != xnn_status_success) {
        TF_LITE_KERNEL_LOG(context, "%s: xnn_setup_runtime failed", kName);
        return kTfLiteError;
      }
      setup_pointers_ = pointers;
    }
    if (xnn_invoke_runtime(runtime_) != xnn_status_success) {
      TF_LITE_KERNEL_LOG(context, "%s: xnn_invoke_runtime failed", kName);
      return kTfLiteError;
    }
    // Dequantized weights that nodes outside the partition also read.
    for (const auto& f : folded_outputs_) {
      TfLiteTensor& t = context->tensors[f.tensor];
      if (t.allocation_type != kTfLitePersistentRo) std::memcpy(t.data.raw, f.data, f.bytes);
    }
    return kTfLiteOk;
  }

 private:
  // Float32 copy of the FLOAT16 constant `half`, kept as the static data of tensor `t`.
  void DequantizeWeights(const TfLiteTensor& half, int t) {
    const size_t count = half.bytes / sizeof(uint16_t);
    auto buf = std::make_unique<float[]>(count);
    const auto* h = reinterpret_cast<const uint16_t*>(half.data.raw);
    for (size_t k = 0; k < count; ++k) buf[k] = tflite::fp16::HalfToFloat(h[k]);
    static_data_[t] = buf.get();
    weights_.push_back(std::move(buf));
  }

  TfLiteStatus DefineValue(TfLiteContext* context, xnn_subgraph_t subgraph, int t,
                           const std::set<int>& inputs, const std::set<int>& outputs,
                           const xnnpack::VisitContext& v) {
    const TfLiteTensor& tensor = context->tensors[t];
    size_t dims[XNN_MAX_TENSOR_DIMS];
    if (tensor.dims == nullptr || tensor.dims->size > XNN_MAX_TENSOR_DIMS) {
      TF_LITE_KERNEL_LOG(context, "%s: tensor %d has an unsupported rank", kName, t);
      return kTfLiteError;
    }
    for (int i = 0; i < tensor.dims->size; ++i) dims[i] = static_cast<size_t>(tensor.dims->data[i]);
    const bool is_static = xnnpack::IsStatic(v, t);
    uint32_t flags = 0, external = XNN_INVALID_VALUE_ID;
    if (!is_static && inputs.count(t)) {
      flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
      external = static_cast<uint32_t>(t);
    } else if (!is_static && outputs.count(t)) {
      flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
      external = static_cast<uint32_t>(t);
    }
    const void* data = is_static ? xnnpack::StaticData(v, t) : nullptr;
    const auto* q = tensor.quantization.type == kTfLiteAffineQuantization
                        ? static_cast<const TfLiteAffineQuantization*>(tensor.quantization.params)
                        : nullptr;
    xnn_status st;
    if (static_data_[t] == nullptr && q != nullptr && q->scale != nullptr &&
        (tensor.type == kTfLiteInt8 || tensor.type == kTfLiteUInt8 || tensor.type == kTfLiteInt32)) {
      if (q->scale->size > 1) {
        st = xnn_define_channelwise_quantized_tensor_value(
            subgraph, tensor.type == kTfLiteInt32 ? xnn_datatype_qcint32 : xnn_datatype_qcint8,
            q->scale->data, tensor.dims->size, static_cast<size_t>(q->quantized_dimension), dims,
            data, external, flags, &ids_[t]);
      } else {
        const xnn_datatype type = tensor.type == kTfLiteInt8    ? xnn_datatype_qint8
                                  : tensor.type == kTfLiteUInt8 ? xnn_datatype_quint8
                                                                : xnn_datatype_qint32;
        st = xnn_define_quantized_tensor_value(subgraph, type, xnnpack::ZeroPointOf(tensor),
                                               xnnpack::ScaleOf(tensor), tensor.dims->size, dims,
                                               data, external, flags, &ids_[t]);
      }
    } else {
      st = xnn_define_tensor_value(subgraph, xnn_datatype_fp32, tensor.dims->size, dims, data,
                                   external, flags, &ids_[t]);
    }
    if (st != xnn_status_success) {
      TF_LITE_KERNEL_LOG(context, "%s: cannot define tensor %d (xnn_status %d)", kName, t,
                         static_cast<int>(st));
      return kTfLiteError;
    }
    return kTfLiteOk;
  }

  struct Folded {
    int tensor;
    const float* data;
    size_t bytes;
  };
  bool force_fp16_;
  std::map<int, int> fp16_sources_;
  xnn_runtime_t runtime_ = nullptr;
  std::vector<uint32_t> ids_;
  std::vector<const float*> static_data_;
  std::vector<std::unique_ptr<float[]>> weights_;
  std::vector<Folded> folded_outputs_;
  std::vector<int> externals_;
  std::vector<void*> setup_pointers_;
};

class XnnpackDelegate : public tflite::SimpleDelegateInterface {
 public:
  explicit XnnpackDelegate(const XnnpackDelegateOptions& options) : options_(options) {}

  bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration, const TfLiteNode* node,
                                 TfLiteContext* context) const override {
    return IsNodeSupportedWithReason(registration, node, context, nullptr);
  }

  bool IsNodeSupportedWithReason(const TfLiteRegistration*, const TfLiteNode* node,
                                 TfLiteContext*, std::string* reason) const override {
    auto it = decisions_.find(node);
    if (it == decisions_.end()) {
      if (reason != nullptr) *reason = "not in the execution plan the delegate saw";
      return false;
    }
    if (!it->second.empty() && reason != nullptr) *reason = it->second;
    return it->second.empty();
  }

  // Decides every node up front: a DEQUANTIZE of fp16 weights is worth taking only when
  // every node reading its output is taken too (otherwise the CPU folds it once).
  TfLiteStatus Initialize(TfLiteContext* context) override {
    decisions_.clear();
    fp16_sources_.clear();
    TfLiteIntArray* plan = nullptr;
    TF_LITE_ENSURE_STATUS(context->GetExecutionPlan(context, &plan));
    const std::vector<int> nodes(plan->data, plan->data + plan->size);
    std::map<int, std::vector<const TfLiteNode*>> readers;
    std::vector<std::pair<const TfLiteNode*, const TfLiteRegistration*>> all;
    // Outputs of fp16-weight DEQUANTIZE nodes count as static weights (marked only:
    // their float values are made when a partition is created).
    static const float kMarker = 0.0f;
    std::vector<const float*> folded(context->tensors_size, nullptr);
    for (int n : nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      xnnpack::VisitContext v;
      v.context = context;
      if (reg->builtin_code == kTfLiteBuiltinDequantize && xnnpack::VisitDequantize(v, *node, *reg)) {
        folded[node->outputs->data[0]] = &kMarker;
        fp16_sources_[node->outputs->data[0]] = node->inputs->data[0];
      }
    }
    for (int n : nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      all.push_back({node, reg});
      for (int i = 0; i < node->inputs->size; ++i) readers[node->inputs->data[i]].push_back(node);
      xnnpack::VisitContext v;
      v.context = context;
      v.static_data = &folded;
      decisions_[node] = node->delegate != nullptr ? "already delegated"
                         : xnnpack::VisitNode(v, n, *node, *reg) ? ""
                         : (v.reason.empty() ? std::string("not supported") : v.reason);
    }
    for (const auto& [node, reg] : all) {
      if (reg->builtin_code != kTfLiteBuiltinDequantize || !decisions_[node].empty()) continue;
      for (const TfLiteNode* reader : readers[node->outputs->data[0]]) {
        if (!decisions_[reader].empty()) {
          decisions_[node] = "its output is read by a node XNNPACK does not run; the CPU folds it once";
          break;
        }
      }
    }
    return kTfLiteOk;
  }

  const char* Name() const override { return kName; }
  std::unique_ptr<tflite::SimpleDelegateKernelInterface> CreateDelegateKernelInterface() override {
    return std::make_unique<XnnpackKernel>(options_.force_fp16, fp16_sources_);
  }
  Options DelegateOptions() const override {
    Options o;
    o.max_delegated_partitions = options_.max_delegated_partitions;
    o.min_nodes_per_partition = options_.min_nodes_per_partition;
    return o;
  }

 private:
  XnnpackDelegateOptions options_;
  std::map<const TfLiteNode*, std::string> decisions_;
  std::map<int, int> fp16_sources_;
};

}  // namespace

Result<tflite::TfLiteDelegateUniquePtr> CreateXnnpackDelegate(const XnnpackDelegateOptions& options) {
  const xnn_status st = xnn_initialize(nullptr);
  if (st != xnn_status_success) {
    return Status(StatusCode::kUnsupported,
                  fmt::format("XNNPACK cannot initialize on this CPU (xnn_status {})",
                              static_cast<int>(st)));
  }
  return tflite::TfLiteDelegateFactory::Create(std::make_unique<XnnpackDelegate>(options));
}

}  // namespace tflite_inspect
