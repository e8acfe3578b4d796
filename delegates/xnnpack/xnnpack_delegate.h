// The XNNPACK delegate: float32 partitions compiled into XNNPACK subgraphs (Debian's
// 2022-02 snapshot; which ops that allows is in docs/xnnpack.md), static weights packed
// once when the partition is created, run on the interpreter's thread pool.
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_

#include <cstdint>
#include <limits>

#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "util/status.h"

namespace tflite_inspect {

struct XnnpackDelegateOptions {
  int max_delegated_partitions = 0;
  int min_nodes_per_partition = 0;
  int first_delegate_node_index = 0;  // nodes outside [first, last] stay on the CPU
  int last_delegate_node_index = std::numeric_limits<int>::max();
  bool force_fp16 = false;  // XNN_FLAG_FORCE_FP16_INFERENCE; refused where unsupported
  uint32_t runtime_flags = 0;  // ORed into xnn_create_runtime_v2's flags (TFLite's runtime_flags)
  // Take float32 nodes only, as TFLite's XNNPACK applied by default (no --use_xnnpack).
  bool float_only = false;
};

// Whether the delegate would take at least one node of the subgraph's current plan
// (nodes already delegated excluded). The tools apply XNNPACK by default only then.
bool XnnpackTakesAnyNode(TfLiteContext* context, const XnnpackDelegateOptions& options);

// Fails when XNNPACK cannot initialize on this CPU.
Result<tflite::TfLiteDelegateUniquePtr> CreateXnnpackDelegate(const XnnpackDelegateOptions& options);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_
