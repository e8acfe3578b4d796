// FLOOR: out = std::floor(x), float32 (v1), as TFLite's reference kernel
// (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace floor {
namespace {

float Apply(float x) { return std::floor(x); }

}  // namespace
}  // namespace floor

TfLiteRegistration* Register_FLOOR() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<floor::Apply>,
                                 unary::EvalFloat<floor::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
