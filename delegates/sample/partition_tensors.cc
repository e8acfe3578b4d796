#include "sample/partition_tensors.h"

#include <algorithm>

namespace tflite_inspect {

PartitionTensors::PartitionTensors(const TfLiteDelegateParams* params) {
  for (const TfLiteIntArray* list : {params->input_tensors, params->output_tensors}) {
    boundary_.insert(boundary_.end(), list->data, list->data + list->size);
  }
}

TfLiteStatus PartitionTensors::AllocateFor(TfLiteContext* context, const TfLiteNode& node) {
  for (const TfLiteIntArray* list : {node.outputs, node.intermediates, node.temporaries}) {
    for (int i = 0; list != nullptr && i < list->size; ++i) {
      TF_LITE_ENSURE_STATUS(AllocateTensor(context, list->data[i]));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus PartitionTensors::AllocateTensor(TfLiteContext* context, int t) {
  if (t < 0 || std::find(boundary_.begin(), boundary_.end(), t) != boundary_.end()) return kTfLiteOk;
  TfLiteTensor& tensor = context->tensors[t];
  if (tensor.allocation_type != kTfLiteArenaRw) return kTfLiteOk;  // dynamic, constant, ...
  auto it = std::find_if(buffers_.begin(), buffers_.end(),
                         [t](const Buffer& b) { return b.tensor == t; });
  if (it == buffers_.end()) {
    buffers_.push_back({t, 0, nullptr});
    it = buffers_.end() - 1;
  }
  if (it->bytes < tensor.bytes || it->data == nullptr) {
    // +16: kernels may read a few bytes past the end with vector loads, as the arena allows.
    it->data.reset(new (std::nothrow) char[tensor.bytes + 16]);
    if (it->data == nullptr) {
      TF_LITE_KERNEL_LOG(context, "out of memory for tensor %d (%zu bytes)", t, tensor.bytes);
      return kTfLiteError;
    }
    it->bytes = tensor.bytes;
  }
  tensor.data.raw = it->data.get();
  return kTfLiteOk;
}

}  // namespace tflite_inspect
