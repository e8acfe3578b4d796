// IMAG (v1): the imaginary part of each element of a complex64 (-> float32) or complex128 (-> float64)
// tensor, as TFLite's complex_support.cc (kernels/internal/complex_parts.h).
#include <complex>

#include "kernels/internal/complex_parts.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace imag {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return complex_parts::Prepare(context, node, "IMAG");
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return complex_parts::Eval(context, node, [](auto z) { return z.imag(); });
}

}  // namespace
}  // namespace imag

TfLiteRegistration* Register_IMAG() {
  static TfLiteRegistration r = {nullptr, nullptr, imag::Prepare, imag::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
