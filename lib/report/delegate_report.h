// delegate_report: who runs what after the delegates are applied, computed without
// running inference. For every subgraph it lists each delegate's partitions and claimed
// nodes, every node a delegate left on the CPU with the reason (the delegate's own
// reason, an earlier delegate that took the node, a partition dropped by the limits, or
// a delegate that gives no reasons), and the tensors that cross a CPU<->delegate
// boundary on every inference, with their bytes.
//
// The report is built from the runtime's DelegationRecords (runtime/delegation_record.h)
// and the graph as it stands after AllocateTensors; it holds no pointers into the
// interpreter. Formatters are in report/delegate_report_format.h; the JSON schema and
// the counting rules are in docs/delegate_report.md.
#ifndef TFLITE_INSPECT_LIB_REPORT_DELEGATE_REPORT_H_
#define TFLITE_INSPECT_LIB_REPORT_DELEGATE_REPORT_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/interpreter.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"
#include "util/status.h"

namespace tflite_inspect {

// Why a delegate did not take a node.
enum class LeftReason {
  kUnsupported,      // the delegate's own reason (DelegationRecord::unsupported)
  kEarlierDelegate,  // an earlier delegate had already taken it
  kDropped,          // supported, but its partition was dropped by the partition limits
  kNoReasons,        // the delegate did not use the shared helper, so gives no reasons
  kNotApplied,       // the delegate failed or did not apply to this subgraph
};
const char* LeftReasonName(LeftReason kind);  // "unsupported", "earlier_delegate", ...

struct NodeLeft {
  int node = -1;
  int delegate = -1;  // the delegate that left it (index into DelegateReport::delegates)
  LeftReason kind = LeftReason::kUnsupported;
  std::string reason;  // full sentence, e.g. "taken by earlier delegate SampleDelegate"
};

// One node of the subgraph as the model has it (before delegation).
struct NodeEntry {
  int node = -1;
  std::string op;  // "CONV_2D", a custom op's name
  int version = 1;
  int partition = -1;                // index into SubgraphReport::partitions; -1: runs on the CPU
  bool folded = false;               // CPU node with constant inputs: runs once in AllocateTensors
  // Every input is model data or another constant-only node's output (fp16 DEQUANTIZE,
  // DENSIFY of weights), on the CPU or in a partition; the graphs draw it on its readers.
  bool constant_only = false;
  std::vector<int> inputs, outputs;  // tensor ids (-1 for an omitted optional input)
  std::vector<NodeLeft> reasons;     // CPU nodes: one per delegate that saw the subgraph
};

struct PartitionEntry {
  int delegate = -1;               // index into DelegateReport::delegates
  int ordinal = 0;                 // this delegate's partitions in this subgraph, counted from 0
  int kernel_node = -1;            // the DELEGATE node that runs the partition
  std::vector<int> nodes;          // the nodes it replaced, in run order
  std::vector<int> input_tensors;  // as recorded (constants included)
  std::vector<int> output_tensors;
  size_t bytes_in = 0, bytes_out = 0;  // boundary bytes copied per inference
};

// One side of a boundary crossing.
struct Endpoint {
  enum Kind { kGraphInput, kGraphOutput, kCpuNode, kPartition } kind = kCpuNode;
  int id = -1;  // the node (kCpuNode) or the partition index (kPartition)
};

// A tensor copied into or out of a partition on every inference. Into: a non-constant
// input written by the CPU, a graph input, or another delegate's partition. Out: an
// output read by the CPU or a graph output (once, however many read it). Tensors between
// partitions of the same delegate stay in the delegate and are not counted.
struct BoundaryTensor {
  int tensor = -1;
  std::string name;
  TfLiteType type = kTfLiteNoType;
  std::vector<int> shape;
  size_t bytes = 0;
  bool dynamic = false;  // size known only while running: counted as 0 bytes
  bool into = true;      // into `partition` (read by it) or out of it (written by it)
  int partition = -1;    // index into SubgraphReport::partitions
  // into: the writer (the CPU, a graph input, another delegate's partition); out: the
  // CPU nodes and graph outputs that read it.
  std::vector<Endpoint> peers;
};

// A delegate as it went in one subgraph.
struct DelegateInSubgraph {
  int delegate = -1;
  TfLiteStatus status = kTfLiteOk;
  bool live = true;   // its partitions are in the final plan
  std::string error;  // when status is not kTfLiteOk
  bool has_reasons = false;
  std::string limits;           // the helper's limits in words ("" without the helper)
  std::vector<int> partitions;  // indices into SubgraphReport::partitions
  std::vector<int> claimed;     // nodes, in run order
  std::vector<NodeLeft> left;   // every other node of the subgraph, with its reason
  struct Dropped {
    std::vector<int> nodes;
    std::string reason;
  };
  std::vector<Dropped> dropped;
  std::vector<std::string> log;  // TFLite's "Replacing N out of M node(s) ..." lines
};

struct SubgraphReport {
  int index = 0;
  std::string name;
  std::vector<int> inputs, outputs;
  std::vector<NodeEntry> nodes;               // in the model's run order
  std::vector<int> execution_plan;            // after delegation: DELEGATE and CPU nodes
  std::vector<PartitionEntry> partitions;     // in the final run order
  std::vector<DelegateInSubgraph> delegates;  // in the order they were applied
  std::vector<BoundaryTensor> boundary;
  size_t boundary_bytes = 0;
  int cpu_nodes = 0;
  // "29 of 31 nodes in 1 partition on TestDelegate; 2 nodes on CPU; 4096 bytes cross
  // boundaries per inference"
  std::string summary;

  const NodeEntry* FindNode(int node) const;
};

struct DelegateEntry {
  std::string label;                // as the provider names it ("TestDelegate")
  std::string name;                 // its kernels' name in the graph (label when it made none)
  TfLiteStatus status = kTfLiteOk;  // from ApplyDelegates
  std::string error;                // why it is not in the graph; "" when applied
};

struct DelegateReport {
  std::string model;
  std::vector<DelegateEntry> delegates;  // in the order applied
  std::vector<SubgraphReport> subgraphs;
  int total_nodes = 0, cpu_nodes = 0;
  size_t boundary_bytes = 0;
  std::string summary;  // over all subgraphs, same shape as SubgraphReport::summary
};

// A delegate handed to BuildDelegateReport: what it is and how applying it went.
struct ReportedDelegate {
  std::string label;
  const TfLiteDelegate* delegate = nullptr;
  TfLiteStatus status = kTfLiteOk;
  std::string error;
};

// Builds the report from an interpreter whose delegates have been applied (in the order
// of `delegates`) and whose tensors are allocated. Fails (kInternal) only when the
// runtime's records disagree with the graph.
Result<DelegateReport> BuildDelegateReport(tflite::Interpreter& interpreter,
                                           const std::vector<ReportedDelegate>& delegates);

struct DelegateReportOptions {
  std::string graph;
  int num_threads = 1;
  // Made and applied in order (tools/session.h).
  DelegatePlan delegates;
  // --target_runtime: `warn` gets the line when the model needs a newer release.
  std::string target_runtime;
  std::function<void(const std::string&)> warn;
  ResourceLimits limits;  // --max_arena_mb, --max_while_iterations
};

// Loads the model, builds an interpreter with `resolver`, applies the delegates,
// allocates tensors (no Invoke) and builds the report. Errors: kInvalidModel (load,
// build, allocate, with the runtime's messages), kInvalidArgument (delegate flags that
// cannot be served, an unknown --target_runtime) or the strict delegate failure.
Result<DelegateReport> ReportDelegation(const DelegateReportOptions& options,
                                        const tflite::OpResolver& resolver);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_REPORT_DELEGATE_REPORT_H_
