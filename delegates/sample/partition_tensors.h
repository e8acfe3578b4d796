// Memory for the tensors inside a delegated partition. The runtime plans arena memory
// only for tensors its execution plan touches, so once nodes are replaced by a delegate
// kernel their internal tensors (outputs consumed only inside the partition, and the
// replaced kernels' temporaries) have no bytes. Delegate kernels that compute the
// replaced nodes on the CPU give them memory of their own with this.
#ifndef TFLITE_INSPECT_DELEGATES_SAMPLE_PARTITION_TENSORS_H_
#define TFLITE_INSPECT_DELEGATES_SAMPLE_PARTITION_TENSORS_H_

#include <memory>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_inspect {

class PartitionTensors {
 public:
  // `boundary` are the partition's input and output tensors (planned by the runtime).
  explicit PartitionTensors(const TfLiteDelegateParams* params);
  // After the node's prepare: gives every arena tensor of `node` (outputs,
  // intermediates, temporaries) that is not on the boundary a buffer of its size.
  TfLiteStatus AllocateFor(TfLiteContext* context, const TfLiteNode& node);
  // The same for one tensor (does nothing for boundary or non-arena tensors).
  TfLiteStatus AllocateTensor(TfLiteContext* context, int tensor);

 private:
  struct Buffer {
    int tensor;
    size_t bytes;
    std::unique_ptr<char[]> data;
  };
  std::vector<int> boundary_;
  std::vector<Buffer> buffers_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_SAMPLE_PARTITION_TENSORS_H_
