// CEIL: out = std::ceil(x), float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace ceil {
namespace {

float Apply(float x) { return std::ceil(x); }

}  // namespace
}  // namespace ceil

TfLiteRegistration* Register_CEIL() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<ceil::Apply>,
                                 unary::EvalFloat<ceil::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
