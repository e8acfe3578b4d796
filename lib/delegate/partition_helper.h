// The one partition helper every delegate here uses: it asks the delegate about each
// node of the execution plan, previews the runtime's partitions, applies the partition
// limits, and records each decision (and its reason) for delegate_report.
#ifndef TFLITE_INSPECT_LIB_DELEGATE_PARTITION_HELPER_H_
#define TFLITE_INSPECT_LIB_DELEGATE_PARTITION_HELPER_H_

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/delegates/utils.h"

namespace tflite_inspect {

struct PartitionLimits {
  // Keep the N largest partitions; <= 0 keeps all (TFLite's SimpleDelegate meaning; the
  // GPU delegate maps <= 0 to 1 itself, as TFLite's does).
  int max_delegated_partitions = 0;
  // Leave partitions with fewer nodes on the CPU; <= 0 keeps all.
  int min_nodes_per_partition = 0;
  // Only nodes with an index in [first, last] may be delegated (TFLite's debug flags
  // --first_delegate_node_index / --last_delegate_node_index, for bisecting a delegate).
  int first_delegate_node_index = 0;
  int last_delegate_node_index = std::numeric_limits<int>::max();
  // "max_delegated_partitions=0 (no limit), min_nodes_per_partition=0 (no minimum)".
  std::string Describe() const;
};

struct NodeSelection {
  std::vector<int> nodes;  // pass to ReplaceNodeSubsetsWithDelegateKernels
  int num_total_nodes = 0;
  int num_supported_nodes = 0;
  int num_partitions = 0;  // partitions of the supported nodes, before the limits
  int num_kept_partitions = 0;
  std::set<std::string> unsupported_info;  // "OP: reason", one per distinct cause
};

// Nodes owned by an earlier delegate are refused ("already delegated to X") without
// asking `is_supported`, so a later delegate can never take them.
TfLiteStatus SelectNodesToDelegate(TfLiteContext* context,
                                   const tflite::delegates::IsNodeSupportedFn& is_supported,
                                   const PartitionLimits& limits, NodeSelection* selection);

// "CONV_2D", a custom op's name, or a delegate kernel's name; for reasons and logs.
std::string OpNameOf(const TfLiteRegistration& registration);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_DELEGATE_PARTITION_HELPER_H_
