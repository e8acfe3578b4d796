// TFLite string tensors, as the tensor-family kernels (reshape, squeeze, expand_dims,
// strided_slice) read and write them. The buffer is: int32 count N, int32 offsets
// [N + 1] from the start of the buffer, then the bytes of the strings back to back.
// Offsets are relative, so a whole buffer can be copied as is. String tensors are
// heap-allocated (kTfLiteDynamic); writers size them with TfLiteTensorRealloc.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_STRING_TENSOR_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_STRING_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace string_tensor {

struct StringRef {
  const char* data;
  int32_t len;
};

// Checks the header and offsets against t->bytes and the element count of its
// shape; logs and returns kTfLiteError for a malformed buffer.
inline TfLiteStatus Validate(TfLiteContext* context, const TfLiteTensor* t) {
  const int64_t n = NumElements(t);
  const size_t header = sizeof(int32_t) * (static_cast<size_t>(n) + 2);
  if (t->data.raw == nullptr || t->bytes < header) {
    TF_LITE_KERNEL_LOG(context, "String tensor '%s' is too small for %lld strings.",
                       t->name ? t->name : "", static_cast<long long>(n));
    return kTfLiteError;
  }
  const int32_t* p = reinterpret_cast<const int32_t*>(t->data.raw);
  if (p[0] != n) {
    TF_LITE_KERNEL_LOG(context, "String tensor '%s' holds %d strings, its shape %lld.",
                       t->name ? t->name : "", p[0], static_cast<long long>(n));
    return kTfLiteError;
  }
  for (int64_t i = 0; i <= n; ++i) {
    const int64_t lo = i == 0 ? static_cast<int64_t>(header) : p[i];
    if (p[i + 1] < lo || static_cast<size_t>(p[i + 1]) > t->bytes) {
      TF_LITE_KERNEL_LOG(context, "String tensor '%s' has a bad offset at %lld.",
                         t->name ? t->name : "", static_cast<long long>(i));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// String i of a validated tensor.
inline StringRef Get(const TfLiteTensor* t, int64_t i) {
  const int32_t* p = reinterpret_cast<const int32_t*>(t->data.raw);
  return {t->data.raw + p[i + 1], p[i + 2] - p[i + 1]};
}

// Replaces out's buffer with `strings` (its dims must already hold that many).
inline TfLiteStatus Write(TfLiteContext* context, const std::vector<StringRef>& strings,
                          TfLiteTensor* out) {
  const size_t n = strings.size();
  size_t total = sizeof(int32_t) * (n + 2);
  for (const StringRef& s : strings) total += s.len;
  TF_LITE_ENSURE_MSG(context, total <= static_cast<size_t>(std::numeric_limits<int32_t>::max()),
                     "String tensor larger than 2 GiB.");
  TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(total, out));
  out->bytes = total;
  int32_t* header = reinterpret_cast<int32_t*>(out->data.raw);
  header[0] = static_cast<int32_t>(n);
  int32_t offset = static_cast<int32_t>(sizeof(int32_t) * (n + 2));
  for (size_t i = 0; i < n; ++i) {
    header[i + 1] = offset;
    if (strings[i].len > 0) std::memcpy(out->data.raw + offset, strings[i].data, strings[i].len);
    offset += strings[i].len;
  }
  header[n + 1] = offset;
  return kTfLiteOk;
}

// out = a byte copy of in (same strings; out's dims set by the caller).
inline TfLiteStatus Copy(TfLiteContext* context, const TfLiteTensor* in, TfLiteTensor* out) {
  TF_LITE_ENSURE_OK(context, Validate(context, in));
  TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(in->bytes, out));
  out->bytes = in->bytes;
  std::memcpy(out->data.raw, in->data.raw, in->bytes);
  return kTfLiteOk;
}

}  // namespace string_tensor
}  // namespace builtin
}  // namespace ops
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_STRING_TENSOR_H_
