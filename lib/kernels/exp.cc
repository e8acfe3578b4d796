// EXP: out = std::exp(x), float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace exp {
namespace {

float Apply(float x) { return std::exp(x); }

}  // namespace
}  // namespace exp

TfLiteRegistration* Register_EXP() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<exp::Apply>,
                                 unary::EvalFloat<exp::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
