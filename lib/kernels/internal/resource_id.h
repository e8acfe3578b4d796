// The resource id a READ_VARIABLE / ASSIGN_VARIABLE input carries (a VAR_HANDLE's output,
// or an int32 scalar), checked as TFLite's kernels check it at Prepare, and read at Eval
// without trusting the tensor to hold the bytes (a RESOURCE graph input has none).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_RESOURCE_ID_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_RESOURCE_ID_H_

#include <cstring>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace resource_id {

inline TfLiteStatus Check(TfLiteContext* context, const TfLiteTensor* id) {
  TF_LITE_ENSURE(context, id->type == kTfLiteResource || id->type == kTfLiteInt32);
  TF_LITE_ENSURE_EQ(context, NumElements(id), 1);
  return kTfLiteOk;
}

inline TfLiteStatus Read(TfLiteContext* context, const TfLiteTensor* id, int* out) {
  TF_LITE_ENSURE_MSG(context, id->data.raw_const != nullptr && id->bytes >= sizeof(int32_t),
                     "the resource tensor holds no id (not the output of a VAR_HANDLE)");
  int32_t value;
  std::memcpy(&value, id->data.raw_const, sizeof(value));
  *out = value;
  return kTfLiteOk;
}

}  // namespace resource_id
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_RESOURCE_ID_H_
