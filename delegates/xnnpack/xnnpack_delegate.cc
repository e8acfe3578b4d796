#include "xnnpack/xnnpack_delegate.h"

#include <cpuinfo.h>
#include <xnnpack.h>

#include <map>
#include <memory>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "tensorflow/lite/builtin_ops.h"
#include "xnnpack/node_visitor.h"
#include "kernels/internal/hybrid_graph.h"
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
      decisions_[node] = node->delegate != nullptr ? "already delegated"
                         : FoldedAtPrepare(context, *node, *reg)
                             ? "its outputs are constants (the runtime folded it at prepare)"
                         : xnnpack::VisitNode(v, n, *node, *reg) ? ""
                         : (v.reason.empty() ? std::string("not supported") : v.reason);
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
    return std::make_unique<xnnpack::XnnpackKernel>(options_.force_fp16, builtin_bits_,
                                                    fp16_sources_, options_.runtime_flags);
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
  return tflite::TfLiteDelegateFactory::Create(std::make_unique<XnnpackDelegate>(options));
}

}  // namespace tflite_inspect
