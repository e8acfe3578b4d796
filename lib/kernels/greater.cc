// GREATER: elementwise std::greater with broadcasting to a bool output, as TFLite's
// comparisons.cc; uint8/int8 compare after TFLite's rescaling (see
// kernels/internal/comparison.h). v1 float32/int32/int64/uint8, v2 int8.
#include <functional>

#include "kernels/internal/comparison.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace greater {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return comparison::Prepare(
      context, node, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteUInt8, kTfLiteInt8});
}

}  // namespace
}  // namespace greater

TfLiteRegistration* Register_GREATER() {
  static TfLiteRegistration r = {nullptr, nullptr, greater::Prepare,
                                 comparison::Eval<std::greater>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
