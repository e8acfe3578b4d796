// SQRT: out = std::sqrt(x), float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sqrt {
namespace {

float Apply(float x) { return std::sqrt(x); }

}  // namespace
}  // namespace sqrt

TfLiteRegistration* Register_SQRT() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<sqrt::Apply>,
                                 unary::EvalFloat<sqrt::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
