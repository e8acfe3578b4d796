// ROUND: out = x rounded half to even (TFLite's RoundToNearest), float32 (v1), as
// TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace round {
namespace {

float Apply(float x) { return unary::RoundHalfToEven(x); }

}  // namespace
}  // namespace round

TfLiteRegistration* Register_ROUND() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<round::Apply>,
                                 unary::EvalFloat<round::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
