// TFLite's graph partitioning (graph_info.cc, PartitionGraphIntoIndependentNodeSubsets):
// splits an execution plan into the fewest subsets whose nodes are either all chosen
// (to be delegated) or all not, such that the subsets can run one after another.
//
// The walk goes in epochs. Each epoch takes, in plan order, every node whose inputs
// are ready and whose kind (chosen or not) matches the epoch's kind, which the first
// ready node of the epoch decides; in greedy mode (TFLite's default) it keeps sweeping
// the plan until nothing more can join, so independent nodes are reordered to merge
// subsets. Inputs of a subset are the tensors it reads from outside (including
// constants and graph inputs); outputs are the tensors later subsets or the graph read.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_GRAPH_PARTITION_H_
#define TFLITE_INSPECT_LIB_RUNTIME_GRAPH_PARTITION_H_

#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_inspect {

struct NodeSubset {
  enum Type { kTfUnexplored = 0, kTfPartition, kTfNonPartition };
  Type type = kTfUnexplored;
  std::vector<int> nodes;           // node indices, in the order they run
  std::vector<int> input_tensors;   // sorted, unique
  std::vector<int> output_tensors;  // sorted, unique
};

// What the partitioner needs to know about a subgraph.
struct GraphView {
  size_t num_tensors = 0;
  size_t num_total_nodes = 0;                 // all nodes, including replaced ones
  std::vector<int> execution_plan;            // node indices in run order
  std::vector<const TfLiteNode*> plan_nodes;  // the node of each plan entry
  std::vector<int> outputs;                   // the subgraph's outputs
};

// `nodes_to_partition` must hold valid node indices (duplicates are fine).
void PartitionGraphIntoIndependentNodeSubsets(const GraphView& graph,
                                              const std::vector<int>& nodes_to_partition,
                                              bool greedily, std::vector<NodeSubset>* subsets);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_GRAPH_PARTITION_H_
