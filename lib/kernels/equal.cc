// EQUAL: elementwise std::equal_to with broadcasting to a bool output, as TFLite's
// comparisons.cc; uint8/int8 compare after TFLite's rescaling (see
// kernels/internal/comparison.h). v1 bool/float32/int32/int64/uint8, v2 int8, v3 string, v4 int16
// (raw).
#include <functional>

#include "kernels/internal/comparison.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace equal {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return comparison::Prepare(context, node,
                             {kTfLiteBool, kTfLiteFloat32, kTfLiteInt16, kTfLiteInt32, kTfLiteInt64,
                              kTfLiteUInt8, kTfLiteInt8, kTfLiteString});
}

}  // namespace
}  // namespace equal

TfLiteRegistration* Register_EQUAL() {
  static TfLiteRegistration r = {nullptr, nullptr, equal::Prepare,
                                 comparison::Eval<std::equal_to, /*kStrings=*/true>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
