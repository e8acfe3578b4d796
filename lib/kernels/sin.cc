// SIN: out = std::sin(x), float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sin {
namespace {

float Apply(float x) { return std::sin(x); }

}  // namespace
}  // namespace sin

TfLiteRegistration* Register_SIN() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<sin::Apply>,
                                 unary::EvalFloat<sin::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
