// InterpreterOptions (TFLite's experimental interpreter options), applied with
// Interpreter::ApplyOptions or given to InterpreterBuilder. The options this runtime
// implements:
//   - SetEnsureDynamicTensorsAreReleased: a dynamic (heap) tensor's memory is freed right
//     after the last node of the execution plan that reads or writes it, in every Invoke
//     (benchmark_model --release_dynamic_tensors). Subgraph inputs and outputs and
//     tensors computed once from constants keep theirs.
//   - SetDisableDelegateClustering: ReplaceNodeSubsetsWithDelegateKernels partitions in
//     plan order without moving independent nodes to merge partitions (TFLite's
//     non-greedy partitioning; benchmark_model --disable_delegate_clustering).
//   - SetCacheConstantCastOp: accepted; this runtime computes every node whose inputs
//     are all constant once, a CAST of a constant included, whatever it says.
// TFLite's OptimizeMemoryForLargeTensors is not offered (see docs/runtime.md).
#ifndef TENSORFLOW_LITE_INTERPRETER_OPTIONS_H_
#define TENSORFLOW_LITE_INTERPRETER_OPTIONS_H_

namespace tflite {

class InterpreterOptions {
 public:
  void SetEnsureDynamicTensorsAreReleased(bool value = true) {
    ensure_dynamic_tensors_are_released_ = value;
  }
  bool GetEnsureDynamicTensorsAreReleased() const { return ensure_dynamic_tensors_are_released_; }
  void SetDisableDelegateClustering(bool value = true) { disable_delegate_clustering_ = value; }
  bool GetDisableDelegateClustering() const { return disable_delegate_clustering_; }
  void SetCacheConstantCastOp(bool value = true) { cache_constant_cast_op_ = value; }
  bool GetCacheConstantCastOp() const { return cache_constant_cast_op_; }

 private:
  bool ensure_dynamic_tensors_are_released_ = false;
  bool disable_delegate_clustering_ = false;
  bool cache_constant_cast_op_ = false;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_INTERPRETER_OPTIONS_H_
