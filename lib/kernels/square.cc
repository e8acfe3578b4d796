// SQUARE: out = x * x, float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace square {
namespace {

float Apply(float x) { return x * x; }

}  // namespace
}  // namespace square

TfLiteRegistration* Register_SQUARE() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<square::Apply>,
                                 unary::EvalFloat<square::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
