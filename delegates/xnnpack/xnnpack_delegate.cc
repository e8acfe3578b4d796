#include "xnnpack/xnnpack_delegate.h"

#include <cpuinfo.h>
#include <xnnpack.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "tensorflow/lite/builtin_ops.h"
#include "xnnpack/node_visitor.h"
#include "kernels/internal/hybrid_graph.h"
#include "runtime/delegation_record.h"
#include "runtime/runtime_context.h"
#include "xnnpack/xnnpack_kernel.h"

namespace tflite_inspect {
namespace {

constexpr char kName[] = "TfLiteXNNPackDelegate";

// A node whose inputs were all constant has already run (Subgraph::FoldNode) and its
// outputs are constants: XNNPACK cannot write them (it asserted in xnn_setup_runtime).
// Weight DEQUANTIZE / DENSIFY are the exception: the delegate takes their outputs as
// static weights on purpose.
bool FoldedAtPrepare(TfLiteContext* context, const TfLiteNode& node,
                     const TfLiteRegistration& reg) {
  xnnpack::VisitContext v;
  v.context = context;
  if (xnnpack::IsWeightNode(v, node, reg)) return false;
  for (int i = 0; i < node.outputs->size; ++i) {
    const int t = node.outputs->data[i];
    if (t < 0) continue;
    const TfLiteAllocationType a = context->tensors[t].allocation_type;
    if (a == kTfLiteMmapRo || a == kTfLitePersistentRo) return true;
  }
  return false;
}

// The first output of the node that its kernel sizes when it runs (a dynamic tensor:
// a RESHAPE to a shape computed at run time, a READ_VARIABLE), or -1.
int DynamicOutput(TfLiteContext* context, const TfLiteNode& node) {
  for (int i = 0; i < node.outputs->size; ++i) {
    const int t = node.outputs->data[i];
    if (t >= 0 && context->tensors[t].allocation_type == kTfLiteDynamic) return t;
  }
  return -1;
}

// The kernel of one partition. A partition whose tensors get their shapes only at Invoke
// (it reads a dynamic tensor, or values computed from one) is planned in its Prepare, where
// the runtime has prepared its nodes for this run's shapes, and planned again whenever
// they change: what TFLite 2.21's XNNPACK does by reshaping its runtime, this XNNPACK
// (which cannot reshape) does by making a new one. Where this XNNPACK cannot run the shapes
// met, the partition's nodes run on their CPU kernels. Other partitions are planned once,
// when the delegate is applied.
class PartitionKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  using Make = std::function<std::unique_ptr<xnnpack::XnnpackKernel>()>;
  explicit PartitionKernel(Make make) : make_(std::move(make)) {}
  ~PartitionKernel() override {
    TfLiteIntArrayFree(params_.nodes_to_replace);
    TfLiteIntArrayFree(params_.input_tensors);
    TfLiteIntArrayFree(params_.output_tensors);
  }

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override {
    params_ = *params;
    params_.nodes_to_replace = TfLiteIntArrayCopy(params->nodes_to_replace);
    params_.input_tensors = TfLiteIntArrayCopy(params->input_tensors);
    params_.output_tensors = TfLiteIntArrayCopy(params->output_tensors);
    std::set<int> tensors;
    for (int i = 0; i < params->nodes_to_replace->size; ++i) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(
          context->GetNodeAndRegistration(context, params->nodes_to_replace->data[i], &node, &reg));
      for (const TfLiteIntArray* list : {node->inputs, node->outputs}) {
        for (int k = 0; k < list->size; ++k) {
          if (list->data[k] < 0) continue;
          tensors.insert(list->data[k]);
          at_invoke_ = at_invoke_ || ShapeKnownOnlyAtInvoke(context, list->data[k]);
        }
      }
    }
    tensors_.assign(tensors.begin(), tensors.end());
    if (at_invoke_) {
      if (DelegationRecord* record = CurrentDelegationRecord(context)) {
        record->log.push_back(fmt::format(
            "partition of {} nodes: planned when the graph runs, and again whenever its shapes "
            "change (it reads tensors shaped at Invoke; TFLite's XNNPACK reshapes its runtime)",
            params->nodes_to_replace->size));
      }
      return kTfLiteOk;
    }
    kernel_ = make_();
    return kernel_->Init(context, params);
  }

  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) override {
    if (at_invoke_) TF_LITE_ENSURE_STATUS(Plan(context));
    return kernel_ != nullptr ? kernel_->Prepare(context, node) : kTfLiteOk;
  }

  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) override {
    if (kernel_ != nullptr) return kernel_->Eval(context, node);
    for (int i = 0; i < params_.nodes_to_replace->size; ++i) {
      const int n = params_.nodes_to_replace->data[i];
      TfLiteNode* replaced;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &replaced, &reg));
      if (reg->invoke != nullptr && reg->invoke(context, replaced) != kTfLiteOk) {
        TF_LITE_KERNEL_LOG(context, "%s: node %d of the partition failed on its CPU kernel", kName,
                           n);
        return kTfLiteError;
      }
    }
    return kTfLiteOk;
  }

 private:
  // A new plan when this run's shapes differ from the planned ones.
  TfLiteStatus Plan(TfLiteContext* context) {
    std::vector<std::vector<int>> shapes;
    shapes.reserve(tensors_.size());
    for (int t : tensors_) {
      const TfLiteIntArray* dims = context->tensors[t].dims;
      shapes.emplace_back(dims != nullptr ? dims->data : nullptr,
                          dims != nullptr ? dims->data + dims->size : nullptr);
    }
    if (planned_ && shapes == shapes_) return kTfLiteOk;
    shapes_ = std::move(shapes);
    planned_ = true;
    kernel_ = make_();
    if (kernel_->Init(context, &params_) == kTfLiteOk) return kTfLiteOk;
    kernel_.reset();
    TF_LITE_KERNEL_LOG(context,
                       "%s: a partition of %d nodes runs on the CPU kernels this time: this "
                       "XNNPACK cannot run the shapes met at Invoke",
                       kName, params_.nodes_to_replace->size);
    // Tensors inside the partition had no memory of the interpreter's: they get it now.
    for (int t : tensors_) {
      TfLiteTensor& tensor = context->tensors[t];
      if (tensor.data.raw != nullptr || tensor.dims == nullptr ||
          (tensor.allocation_type != kTfLiteArenaRw && tensor.allocation_type != kTfLiteDynamic)) {
        continue;
      }
      TF_LITE_ENSURE_STATUS(
          context->ResizeTensor(context, &tensor, TfLiteIntArrayCopy(tensor.dims)));
    }
    return kTfLiteOk;
  }

  Make make_;
  TfLiteDelegateParams params_{};
  std::vector<int> tensors_;  // every tensor the partition's nodes read or write
  bool at_invoke_ = false;
  bool planned_ = false;
  std::vector<std::vector<int>> shapes_;  // of tensors_, when kernel_ was planned
  std::unique_ptr<xnnpack::XnnpackKernel> kernel_;
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
    // With dynamic-range nodes, float nodes only where the delegate computes TFLite's
    // builtin bits (unless the user asked for XNNPACK's fp16 arithmetic everywhere).
    builtin_bits_ = !options_.force_fp16 && tflite::hybrid::GraphHasHybridNodes(context);
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
      if (reg->builtin_code == kTfLiteBuiltinDequantize && xnnpack::IsWeightNode(v, *node, *reg) &&
          xnnpack::VisitDequantize(v, *node, *reg)) {
        folded[node->outputs->data[0]] = &kMarker;
        fp16_sources_[node->outputs->data[0]] = node->inputs->data[0];
      }
    }
    // The runtime says which tensors are shaped at Invoke: partitions reading them are
    // planned then (PartitionKernel), so their dynamic inputs are no reason to refuse.
    const DelegationRecord* record = CurrentDelegationRecord(context);
    const bool shapes_marked = record != nullptr && !record->shaped_at_invoke.empty();
    for (int n : nodes) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      all.push_back({node, reg});
      for (int i = 0; i < node->inputs->size; ++i) readers[node->inputs->data[i]].push_back(node);
      xnnpack::VisitContext v;
      v.context = context;
      v.static_data = &folded;
      v.float_only = options_.float_only;
      v.builtin_bits = builtin_bits_;
      v.dynamic_ok = shapes_marked;
      const int dynamic = DynamicOutput(context, *node);
      decisions_[node] = node->delegate != nullptr ? "already delegated"
                         : FoldedAtPrepare(context, *node, *reg)
                             ? "its outputs are constants (the runtime folded it at prepare)"
                         : !xnnpack::VisitNode(v, n, *node, *reg)
                             ? (v.reason.empty() ? std::string("not supported") : v.reason)
                         : dynamic >= 0
                             ? fmt::format(
                                   "its output tensor#{} is dynamic (sized by its kernel "
                                   "when it runs)",
                                   dynamic)
                             : "";
    }
    for (const auto& [node, reg] : all) {
      if (reg->builtin_code != kTfLiteBuiltinDequantize || !decisions_[node].empty() ||
          fp16_sources_.count(node->outputs->data[0]) == 0) {
        continue;
      }
      for (const TfLiteNode* reader : readers[node->outputs->data[0]]) {
        if (!decisions_[reader].empty()) {
          decisions_[node] = "its output is read by a node XNNPACK does not run; the CPU folds it once";
          break;
        }
      }
    }
    // An 8-bit table node (the delegate's own step, the builtin kernel's table) helps only
    // next to XNNPACK work: alone it would cost a partition's copies in and out.
    std::map<int, const TfLiteNode*> writer;
    for (const auto& [node, reg] : all) {
      for (int i = 0; i < node->outputs->size; ++i) writer[node->outputs->data[i]] = node;
    }
    auto is_table = [&](const TfLiteNode* node, const TfLiteRegistration* reg) {
      xnnpack::VisitContext v;
      v.context = context;
      return xnnpack::IsByteTableNode(v, *node, *reg);
    };
    std::map<const TfLiteNode*, const TfLiteRegistration*> reg_of(all.begin(), all.end());
    auto xnnpack_work = [&](const TfLiteNode* node) {
      return node != nullptr && decisions_[node].empty() && !is_table(node, reg_of[node]);
    };
    for (const auto& [node, reg] : all) {
      if (!decisions_[node].empty() || !is_table(node, reg)) continue;
      const int in = node->inputs->data[0], out = node->outputs->data[0];
      bool beside = xnnpack_work(writer.count(in) ? writer[in] : nullptr);
      for (const TfLiteNode* reader : readers[out]) beside = beside || xnnpack_work(reader);
      if (!beside) {
        decisions_[node] = "an 8-bit table with no XNNPACK node beside it: the builtin kernel "
                           "runs the same table without a partition's copies";
      }
    }
    compute_nodes_taken_ = 0;
    for (const auto& [node, reg] : all) {
      xnnpack::VisitContext v;
      v.context = context;
      compute_nodes_taken_ += decisions_[node].empty() && !xnnpack::IsWeightNode(v, *node, *reg);
    }
    return kTfLiteOk;
  }
  // After Initialize: nodes taken other than weight DEQUANTIZE / DENSIFY.
  int compute_nodes_taken() const { return compute_nodes_taken_; }

  const char* Name() const override { return kName; }
  std::unique_ptr<tflite::SimpleDelegateKernelInterface> CreateDelegateKernelInterface() override {
    return std::make_unique<PartitionKernel>(
        [force_fp16 = options_.force_fp16, builtin_bits = builtin_bits_,
         fp16_sources = fp16_sources_, flags = options_.runtime_flags] {
          return std::make_unique<xnnpack::XnnpackKernel>(force_fp16, builtin_bits, fp16_sources,
                                                          flags);
        });
  }
  Options DelegateOptions() const override {
    Options o;
    o.max_delegated_partitions = options_.max_delegated_partitions;
    o.min_nodes_per_partition = options_.min_nodes_per_partition;
    o.first_delegate_node_index = options_.first_delegate_node_index;
    o.last_delegate_node_index = options_.last_delegate_node_index;
    return o;
  }

 private:
  XnnpackDelegateOptions options_;
  std::map<const TfLiteNode*, std::string> decisions_;
  std::map<int, int> fp16_sources_;
  int compute_nodes_taken_ = 0;
  bool builtin_bits_ = false;
};

}  // namespace

bool XnnpackTakesAnyNode(TfLiteContext* context, const XnnpackDelegateOptions& options) {
  XnnpackDelegate delegate(options);
  return delegate.Initialize(context) == kTfLiteOk && delegate.compute_nodes_taken() > 0;
}

Result<tflite::TfLiteDelegateUniquePtr> CreateXnnpackDelegate(const XnnpackDelegateOptions& options) {
  const xnn_status st = xnn_initialize(nullptr);
  if (st != xnn_status_success) {
    // XNNPACK learns the CPU from cpuinfo, which on ARM reads /proc/cpuinfo and
    // /sys/devices/system/cpu: a restricted shell or container without them is the usual
    // cause, not the CPU.
    if (!cpuinfo_initialize()) {
      return Status(StatusCode::kUnsupported,
                    "XNNPACK cannot initialize: cpuinfo cannot describe this CPU (it reads "
                    "/proc/cpuinfo and /sys/devices/system/cpu, which this process may not see)");
    }
    return Status(StatusCode::kUnsupported,
                  fmt::format("XNNPACK cannot initialize on this CPU (xnn_status {})",
                              static_cast<int>(st)));
  }
  // As TFLite 2.21's, it delegates graphs with dynamic tensors; as this XNNPACK plans
  // fixed shapes, partitions shaped at Invoke are planned there (PartitionKernel).
  return tflite::TfLiteDelegateUniquePtr(
      tflite::TfLiteDelegateFactory::CreateSimpleDelegate(
          std::make_unique<XnnpackDelegate>(options),
          kTfLiteDelegateFlagsAllowDynamicTensors | kDelegateFlagsStaticPartitions),
      &tflite::TfLiteDelegateFactory::DeleteSimpleDelegate);
}

}  // namespace tflite_inspect
