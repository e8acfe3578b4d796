// COS: out = std::cos(x), float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace cos {
namespace {

float Apply(float x) { return std::cos(x); }

}  // namespace
}  // namespace cos

TfLiteRegistration* Register_COS() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<cos::Apply>,
                                 unary::EvalFloat<cos::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
