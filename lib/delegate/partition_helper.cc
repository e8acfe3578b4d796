#include "delegate/partition_helper.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "runtime/delegation_record.h"
#include "runtime/runtime_context.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
std::string OpNameOf(const TfLiteRegistration& r) {
  if (r.builtin_code == tflite::BuiltinOperator_CUSTOM) {
    return r.custom_name != nullptr ? r.custom_name : "CUSTOM";
  }
  if (r.builtin_code == tflite::BuiltinOperator_DELEGATE) {
    return r.custom_name != nullptr ? r.custom_name : "DELEGATE";
  }
  const char* name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(r.builtin_code));
  return name != nullptr && name[0] != '\0' ? name : fmt::format("BUILTIN_{}", r.builtin_code);
}

std::string PartitionLimits::Describe() const {
  std::string text = fmt::format("max_delegated_partitions={}{}, min_nodes_per_partition={}{}",
                                 max_delegated_partitions,
                                 max_delegated_partitions <= 0 ? " (no limit)" : "",
                                 min_nodes_per_partition,
                                 min_nodes_per_partition <= 0 ? " (no minimum)" : "");
  if (first_delegate_node_index > 0 ||
      last_delegate_node_index < std::numeric_limits<int>::max()) {
    text += fmt::format(", nodes {}..{} only", first_delegate_node_index,
                        last_delegate_node_index);
  }
  return text;
}

TfLiteStatus SelectNodesToDelegate(TfLiteContext* context,
                                   const tflite::delegates::IsNodeSupportedFn& is_supported,
                                   const PartitionLimits& limits, NodeSelection* selection) {
  *selection = NodeSelection{};
  tflite::delegates::GraphPartitionHelper helper(context, is_supported);
  TF_LITE_ENSURE_STATUS(helper.Partition(&selection->unsupported_info,
                                         limits.first_delegate_node_index,
                                         limits.last_delegate_node_index));
  const int max_partitions = limits.max_delegated_partitions <= 0
                                 ? std::numeric_limits<int>::max()
                                 : limits.max_delegated_partitions;
  const int min_nodes = std::max(0, limits.min_nodes_per_partition);
  const auto kept = helper.GetFirstNLargestPartitions(max_partitions, min_nodes);
  for (const TfLiteDelegateParams* p : kept) {
    selection->nodes.insert(selection->nodes.end(), p->nodes_to_replace->data,
                            p->nodes_to_replace->data + p->nodes_to_replace->size);
  }
  selection->num_total_nodes = helper.num_total_nodes();
  selection->num_supported_nodes = helper.num_supported_nodes();
  selection->num_partitions = helper.num_partitions();
  selection->num_kept_partitions = static_cast<int>(kept.size());

  DelegationRecord* record = CurrentDelegationRecord(context);
  if (record == nullptr) return kTfLiteOk;
  record->limits = limits.Describe();
  // Partitions the limits dropped, with the limit that dropped each.
  const auto all = helper.GetFirstNLargestPartitions();
  int rank = 0;
  for (const TfLiteDelegateParams* p : all) {
    ++rank;
    if (std::find(kept.begin(), kept.end(), p) != kept.end()) continue;
    DroppedPartition d;
    d.nodes.assign(p->nodes_to_replace->data, p->nodes_to_replace->data + p->nodes_to_replace->size);
    if (p->nodes_to_replace->size < min_nodes) {
      d.reason = fmt::format("{} node(s), fewer than min_nodes_per_partition={}",
                             p->nodes_to_replace->size, min_nodes);
    } else {
      d.reason = fmt::format("{} node(s), partition #{} by size; max_delegated_partitions={} "
                             "keeps the {} largest",
                             p->nodes_to_replace->size, rank, limits.max_delegated_partitions,
                             limits.max_delegated_partitions);
    }
    record->dropped.push_back(std::move(d));
  }
  return kTfLiteOk;
}

}  // namespace tflite_inspect

namespace tflite {
namespace delegates {

GraphPartitionHelper::GraphPartitionHelper(TfLiteContext* context,
                                           IsNodeSupportedFn is_node_supported_fn)
    : context_(context), is_node_supported_fn_(std::move(is_node_supported_fn)) {}

GraphPartitionHelper::GraphPartitionHelper(TfLiteContext* context,
                                           const std::vector<int>& supported_node_indices)
    : context_(context), supported_nodes_(supported_node_indices), fixed_nodes_(true) {
  num_supported_nodes_ = static_cast<int>(supported_nodes_.size());
}

GraphPartitionHelper::~GraphPartitionHelper() = default;

bool GraphPartitionHelper::IsNodeSupported(TfLiteContext* context, TfLiteNode* node,
                                           TfLiteRegistration* registration, int /*node_id*/,
                                           std::string* unsupported_details) {
  return is_node_supported_fn_ ? is_node_supported_fn_(context, node, registration,
                                                        unsupported_details)
                               : false;
}

TfLiteStatus GraphPartitionHelper::Partition(std::set<std::string>* unsupported_nodes_info) {
  return Partition(unsupported_nodes_info, 0, std::numeric_limits<int>::max());
}

TfLiteStatus GraphPartitionHelper::Partition(std::set<std::string>* unsupported_nodes_info,
                                             int start_node_index, int end_node_index) {
  partitions_.clear();
  TfLiteIntArray* plan = nullptr;
  if (context_->GetExecutionPlan(context_, &plan) != kTfLiteOk) {
    TF_LITE_KERNEL_LOG(context_, "Unable to get graph execution plan.\n");
    return kTfLiteError;
  }
  // Later context calls invalidate `plan`: keep a copy.
  const std::vector<int> nodes(plan->data, plan->data + plan->size);
  num_total_nodes_ = static_cast<int>(nodes.size());
  tflite_inspect::DelegationRecord* record = tflite_inspect::CurrentDelegationRecord(context_);
  if (!fixed_nodes_) {
    supported_nodes_.clear();
    if (record != nullptr) record->has_reasons = true;
    const std::string window =
        fmt::format("outside the node window {}..{} (options.first_delegate_node_index, "
                    "options.last_delegate_node_index)", start_node_index, end_node_index);
    bool past_end = false;
    for (int node_id : nodes) {
      if (past_end) {  // TFLite stops at the first supported node past the window
        if (record != nullptr) record->unsupported[node_id] = window;
        continue;
      }
      TfLiteNode* node = nullptr;
      TfLiteRegistration* registration = nullptr;
      if (context_->GetNodeAndRegistration(context_, node_id, &node, &registration) != kTfLiteOk) {
        TF_LITE_KERNEL_LOG(context_, "Couldn't get node and registration info for op: %d\n",
                           node_id);
        supported_nodes_.clear();
        return kTfLiteError;
      }
      std::string details;
      bool ok;
      if (node->delegate != nullptr) {
        details = "already delegated to " + tflite_inspect::OpNameOf(*registration);
        ok = false;
      } else {
        ok = IsNodeSupported(context_, node, registration, node_id, &details);
      }
      if (ok && (node_id < start_node_index || node_id > end_node_index)) {
        past_end = node_id > end_node_index;
        if (record != nullptr) record->unsupported[node_id] = window;
        continue;
      }
      if (ok) {
        supported_nodes_.push_back(node_id);
        continue;
      }
      if (details.empty()) details = "not supported";
      if (unsupported_nodes_info != nullptr) {
        unsupported_nodes_info->insert(tflite_inspect::OpNameOf(*registration) + ": " + details);
      }
      if (record != nullptr) record->unsupported[node_id] = details;
    }
    num_supported_nodes_ = static_cast<int>(supported_nodes_.size());
  }
  TfLiteIntArray* supported = TfLiteIntArrayCreate(static_cast<int>(supported_nodes_.size()));
  std::copy(supported_nodes_.begin(), supported_nodes_.end(), supported->data);
  TfLiteDelegateParams* params = nullptr;
  int num_partitions = 0;
  const TfLiteStatus status =
      context_->PreviewDelegatePartitioning(context_, supported, &params, &num_partitions);
  TfLiteIntArrayFree(supported);
  if (status != kTfLiteOk) {
    TF_LITE_KERNEL_LOG(context_, "Unable to preview delegate partition.\n");
    return kTfLiteError;
  }
  for (int i = 0; i < num_partitions; ++i) partitions_.push_back(params + i);
  return kTfLiteOk;
}

std::vector<TfLiteDelegateParams*> GraphPartitionHelper::GetFirstNLargestPartitions(
    int n, int min_nodes_per_partition) const {
  // Stable: equal-sized partitions keep execution order, so results are reproducible.
  std::vector<TfLiteDelegateParams*> sorted(partitions_);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const TfLiteDelegateParams* a, const TfLiteDelegateParams* b) {
                     return a->nodes_to_replace->size > b->nodes_to_replace->size;
                   });
  std::vector<TfLiteDelegateParams*> results;
  for (int i = 0; i < std::min(static_cast<int>(sorted.size()), n); ++i) {
    if (sorted[i]->nodes_to_replace->size < min_nodes_per_partition) break;
    results.push_back(sorted[i]);
  }
  return results;
}

std::vector<int> GraphPartitionHelper::GetNodesOfFirstNLargestPartitions(
    int n, int min_nodes_per_partition) const {
  std::vector<int> nodes;
  for (const TfLiteDelegateParams* p : GetFirstNLargestPartitions(n, min_nodes_per_partition)) {
    nodes.insert(nodes.end(), p->nodes_to_replace->data,
                 p->nodes_to_replace->data + p->nodes_to_replace->size);
  }
  return nodes;
}

}  // namespace delegates
}  // namespace tflite
