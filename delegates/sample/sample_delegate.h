// The sample delegate: TFLite's SimpleDelegate tutorial example, an ADD/SUB float32
// delegate. It shows the whole contract in one file: IsNodeSupported with reasons, a
// kernel per partition that computes its nodes in order, internal tensors given memory
// of their own. Tools enable it with --use_sample_delegate.
#ifndef TFLITE_INSPECT_DELEGATES_SAMPLE_SAMPLE_DELEGATE_H_
#define TFLITE_INSPECT_DELEGATES_SAMPLE_SAMPLE_DELEGATE_H_

#include <limits>

#include "tensorflow/lite/delegates/utils/simple_delegate.h"

namespace tflite_inspect {

struct SampleDelegateOptions {
  int max_delegated_partitions = 0;
  int min_nodes_per_partition = 0;
  int first_delegate_node_index = 0;  // nodes outside [first, last] stay on the CPU
  int last_delegate_node_index = std::numeric_limits<int>::max();
};

tflite::TfLiteDelegateUniquePtr CreateSampleDelegate(const SampleDelegateOptions& options);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_SAMPLE_SAMPLE_DELEGATE_H_
