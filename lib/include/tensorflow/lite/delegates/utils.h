// GraphPartitionHelper (TFLite's tensorflow/lite/delegates/utils.h): asks a delegate
// which nodes of the execution plan it supports, previews the partitions the runtime
// would make of them, and picks the largest ones. It is the one partition helper every
// delegate here uses (lib/delegate/partition_helper.cc); on our runtime it also records,
// for delegate_report, why each node was refused and which partitions limits dropped.
#ifndef TENSORFLOW_LITE_DELEGATES_UTILS_H_
#define TENSORFLOW_LITE_DELEGATES_UTILS_H_

#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace delegates {

// Whether the delegate can run `node`; when not, *unsupported_details says why
// ("dtype INT8 not supported", ...).
using IsNodeSupportedFn = std::function<bool(TfLiteContext*, TfLiteNode*, TfLiteRegistration*,
                                             std::string* unsupported_details)>;

class GraphPartitionHelper {
 public:
  GraphPartitionHelper(TfLiteContext* context, IsNodeSupportedFn is_node_supported_fn);
  // Partitions exactly these nodes (no support check).
  GraphPartitionHelper(TfLiteContext* context, const std::vector<int>& supported_node_indices);
  virtual ~GraphPartitionHelper();
  GraphPartitionHelper(const GraphPartitionHelper&) = delete;
  GraphPartitionHelper& operator=(const GraphPartitionHelper&) = delete;

  // Finds supported nodes and previews partitions. unsupported_nodes_info (optional)
  // gets "OP: reason" lines, one per distinct cause, as TFLite's.
  virtual TfLiteStatus Partition(std::set<std::string>* unsupported_nodes_info);
  // TFLite's debug-build form (TFLITE_DEBUG_DELEGATE, --first/last_delegate_node_index):
  // only supported nodes with start <= index <= end are candidates; the scan stops at the
  // first supported node past `end`.
  TfLiteStatus Partition(std::set<std::string>* unsupported_nodes_info, int start_node_index,
                         int end_node_index);

  // Partitions sorted by size, largest first; at most n, none smaller than
  // min_nodes_per_partition (the scan stops at the first one that is).
  std::vector<TfLiteDelegateParams*> GetFirstNLargestPartitions(
      int n = std::numeric_limits<int>::max(), int min_nodes_per_partition = 0) const;
  std::vector<int> GetNodesOfFirstNLargestPartitions(
      int n = std::numeric_limits<int>::max(), int min_nodes_per_partition = 0) const;

  int num_total_nodes() const { return num_total_nodes_; }
  int num_supported_nodes() const { return num_supported_nodes_; }
  int num_partitions() const { return static_cast<int>(partitions_.size()); }
  // Supported nodes, in execution-plan order.
  const std::vector<int>& supported_nodes() const { return supported_nodes_; }

 protected:
  virtual bool IsNodeSupported(TfLiteContext* context, TfLiteNode* node,
                               TfLiteRegistration* registration, int node_id,
                               std::string* unsupported_details);

  TfLiteContext* const context_;
  std::vector<TfLiteDelegateParams*> partitions_;  // owned by the runtime's preview cache
  std::vector<int> supported_nodes_;

 private:
  IsNodeSupportedFn is_node_supported_fn_;
  bool fixed_nodes_ = false;
  int num_total_nodes_ = 0;
  int num_supported_nodes_ = 0;
};

}  // namespace delegates
}  // namespace tflite

#endif  // TENSORFLOW_LITE_DELEGATES_UTILS_H_
