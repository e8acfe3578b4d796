// Typed access to TfLiteTensor data and shape for C++ kernels
// (source-compatible with upstream
// tensorflow/lite/kernels/internal/tensor_ctypes.h).
//
// GetTensorData<T> does not check the tensor's type: the kernel must have
// checked `tensor->type` in Prepare. Both functions accept nullptr (optional
// tensors) and then return nullptr / an empty shape.
#ifndef TENSORFLOW_LITE_KERNELS_INTERNAL_TENSOR_CTYPES_H_
#define TENSORFLOW_LITE_KERNELS_INTERNAL_TENSOR_CTYPES_H_

#include <cstdint>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/runtime_shape.h"
#include "tensorflow/lite/kernels/internal/types.h"

namespace tflite {

template <typename T>
inline T* GetTensorData(TfLiteTensor* tensor) {
  return tensor != nullptr ? reinterpret_cast<T*>(tensor->data.raw) : nullptr;
}

template <typename T>
inline const T* GetTensorData(const TfLiteTensor* tensor) {
  return tensor != nullptr ? reinterpret_cast<const T*>(tensor->data.raw)
                           : nullptr;
}

inline RuntimeShape GetTensorShape(const TfLiteTensor* tensor) {
  if (tensor == nullptr || tensor->dims == nullptr) return RuntimeShape();
  const TfLiteIntArray* dims = tensor->dims;
  return RuntimeShape(dims->size, reinterpret_cast<const int32_t*>(dims->data));
}

inline RuntimeShape GetTensorShape(std::vector<int32_t> data) {
  return RuntimeShape(static_cast<int>(data.size()), data.data());
}

}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_INTERNAL_TENSOR_CTYPES_H_
