// COMPLEX_ABS (v1): |z|, as std::abs of each element of a complex64 (-> float32) or complex128 (-> float64)
// tensor, as TFLite's complex_support.cc (kernels/internal/complex_parts.h).
#include <complex>

#include "kernels/internal/complex_parts.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace complex_abs {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return complex_parts::Prepare(context, node, "COMPLEX_ABS");
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return complex_parts::Eval(context, node, [](auto z) { return std::abs(z); });
}

}  // namespace
}  // namespace complex_abs

TfLiteRegistration* Register_COMPLEX_ABS() {
  static TfLiteRegistration r = {nullptr, nullptr, complex_abs::Prepare, complex_abs::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
