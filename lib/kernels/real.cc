// REAL (v1): the real part of each element of a complex64 (-> float32) or complex128 (-> float64)
// tensor, as TFLite's complex_support.cc (kernels/internal/complex_parts.h).
#include <complex>

#include "kernels/internal/complex_parts.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace real {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return complex_parts::Prepare(context, node, "REAL");
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return complex_parts::Eval(context, node, [](auto z) { return z.real(); });
}

}  // namespace
}  // namespace real

TfLiteRegistration* Register_REAL() {
  static TfLiteRegistration r = {nullptr, nullptr, real::Prepare, real::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
