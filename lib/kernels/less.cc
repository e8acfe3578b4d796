// LESS: elementwise std::less with broadcasting to a bool output, as TFLite's
// comparisons.cc; uint8/int8 compare after TFLite's rescaling (see
// kernels/internal/comparison.h). v1 float32/int32/int64/uint8, v2 int8, v3 int16 (raw). Not
// supported: float16.
#include <functional>

#include "kernels/internal/comparison.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace less {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return comparison::Prepare(
      context, node,
      {kTfLiteFloat32, kTfLiteInt16, kTfLiteInt32, kTfLiteInt64, kTfLiteUInt8, kTfLiteInt8});
}

}  // namespace
}  // namespace less

TfLiteRegistration* Register_LESS() {
  static TfLiteRegistration r = {nullptr, nullptr, less::Prepare, comparison::Eval<std::less>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
