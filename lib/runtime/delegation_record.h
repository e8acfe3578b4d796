// What happened when a delegate was applied to a subgraph: the plan it saw, the nodes
// it asked for, the partitions it got, and (when it used the shared partition helper)
// why every other node stayed on the CPU. Subgraph keeps one record per delegate
// application, failed ones included; delegate_report and benchmark_model print them.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_DELEGATION_RECORD_H_
#define TFLITE_INSPECT_LIB_RUNTIME_DELEGATION_RECORD_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_inspect {

struct DelegatedPartition {
  int kernel_node = -1;             // the DELEGATE node that runs the partition
  std::vector<int> nodes;           // the nodes it replaced, in run order
  std::vector<int> input_tensors;   // read from outside the partition (incl. constants)
  std::vector<int> output_tensors;  // read by later nodes or the graph's outputs
};

struct DroppedPartition {
  std::vector<int> nodes;
  std::string reason;  // e.g. "max_delegated_partitions=1 keeps the 1 largest"
};

struct DelegationRecord {
  const TfLiteDelegate* delegate = nullptr;
  int subgraph = 0;
  std::string name;              // the delegate kernel's custom_name ("unknown" if none)
  std::vector<int> plan_before;  // the execution plan the delegate saw
  std::vector<int> requested;    // nodes it passed to ReplaceNodeSubsetsWithDelegateKernels
  std::vector<DelegatedPartition> partitions;
  // Filled by the shared partition helper (lib/delegate): why a node was not supported,
  // and which supported partitions the limits left on the CPU.
  bool has_reasons = false;
  std::map<int, std::string> unsupported;
  std::vector<DroppedPartition> dropped;
  std::string limits;  // the helper's limits in words, e.g. "max_delegated_partitions=0 (no limit)"
  std::vector<std::string> log;  // TFLite's "Replacing N out of M node(s) ..." lines
  // What the delegate reported through the context (TF_LITE_KERNEL_LOG) while it was
  // applied, one entry per report: TFLite's tools print these at default verbosity
  // (e.g. the GPU delegate's "Following operations are not supported ..." message).
  std::vector<std::string> reported;
  // For a delegate with kDelegateFlagsStaticPartitions: tensor -> 1 where its shape is
  // known only at Invoke (a dynamic tensor, or computed from one), 0 where it is known now.
  std::vector<char> shaped_at_invoke;
  TfLiteStatus status = kTfLiteOk;
  std::string error;  // messages reported while the delegate was applied, if it failed
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_DELEGATION_RECORD_H_
