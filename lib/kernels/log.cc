// LOG: out = std::log(x), float32 (v1), as TFLite's reference kernel (kernels/internal/unary.h).
#include <cmath>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace log {
namespace {

float Apply(float x) { return std::log(x); }

}  // namespace
}  // namespace log

TfLiteRegistration* Register_LOG() {
  static TfLiteRegistration r = {nullptr, nullptr, unary::PrepareFloat<log::Apply>,
                                 unary::EvalFloat<log::Apply>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
