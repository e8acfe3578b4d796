#include "runtime/graph_partition.h"

#include <algorithm>

namespace tflite_inspect {
namespace {

// Tensor and node epochs: the subset index, or one of these.
constexpr int kEpochNotReady = -1;
constexpr int kEpochAlwaysReady = -2;  // graph inputs and constants

class Partitioner {
 public:
  Partitioner(const GraphView& graph, const std::vector<int>& chosen, bool greedily,
              std::vector<NodeSubset>* subsets)
      : graph_(graph),
        subsets_(subsets),
        node_type_(graph.num_total_nodes, NodeSubset::kTfNonPartition),
        greedily_(greedily) {
    for (int n : chosen) node_type_[n] = NodeSubset::kTfPartition;
  }

  void Run() {
    subsets_->clear();
    tensor_epochs_.assign(graph_.num_tensors, kEpochAlwaysReady);
    node_epochs_.assign(graph_.plan_nodes.size(), kEpochNotReady);
    for (const TfLiteNode* node : graph_.plan_nodes) {
      for (int i = 0; i < node->outputs->size; ++i) {
        const int t = node->outputs->data[i];
        if (t != kTfLiteOptionalTensor) tensor_epochs_[t] = kEpochNotReady;
      }
    }
    while (true) {
      BuildSubset();
      if (subsets_->back().nodes.empty()) {
        subsets_->pop_back();
        break;
      }
    }
    for (int t : graph_.outputs) {
      if (t < 0) continue;
      const int epoch = tensor_epochs_[t];
      if (epoch >= 0) (*subsets_)[epoch].output_tensors.push_back(t);
    }
    for (NodeSubset& s : *subsets_) {
      for (std::vector<int>* v : {&s.input_tensors, &s.output_tensors}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
      }
    }
  }

 private:
  // Assigns plan entry `step` to the current subset when it is ready and of its kind.
  bool UpdateNode(int step) {
    if (node_epochs_[step] != kEpochNotReady) return false;
    const TfLiteNode& node = *graph_.plan_nodes[step];
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (t != kTfLiteOptionalTensor && tensor_epochs_[t] == kEpochNotReady) return false;
    }
    NodeSubset& current = subsets_->back();
    const int epoch = static_cast<int>(subsets_->size()) - 1;
    const int node_index = graph_.execution_plan[step];
    if (current.type == NodeSubset::kTfUnexplored) current.type = node_type_[node_index];
    if (current.type != node_type_[node_index]) return false;
    node_epochs_[step] = epoch;
    current.nodes.push_back(node_index);
    for (int i = 0; i < node.outputs->size; ++i) {
      const int t = node.outputs->data[i];
      if (t != kTfLiteOptionalTensor) tensor_epochs_[t] = epoch;
    }
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (t == kTfLiteOptionalTensor) continue;
      const int input_epoch = tensor_epochs_[t];
      if (input_epoch != epoch) {
        current.input_tensors.push_back(t);
        if (input_epoch >= 0) (*subsets_)[input_epoch].output_tensors.push_back(t);
      }
    }
    return true;
  }

  void BuildSubset() {
    subsets_->emplace_back();
    while (true) {
      bool did_something = false;
      for (size_t step = 0; step < graph_.plan_nodes.size(); ++step) {
        if (UpdateNode(static_cast<int>(step))) {
          did_something = true;
        } else if (did_something && !greedily_) {
          return;
        }
      }
      if (!did_something) return;
    }
  }

  const GraphView& graph_;
  std::vector<NodeSubset>* subsets_;
  std::vector<NodeSubset::Type> node_type_;
  bool greedily_;
  std::vector<int> tensor_epochs_;
  std::vector<int> node_epochs_;
};

}  // namespace

void PartitionGraphIntoIndependentNodeSubsets(const GraphView& graph,
                                              const std::vector<int>& nodes_to_partition,
                                              bool greedily, std::vector<NodeSubset>* subsets) {
  Partitioner(graph, nodes_to_partition, greedily, subsets).Run();
}

}  // namespace tflite_inspect
