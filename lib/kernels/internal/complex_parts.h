// COMPLEX_ABS, REAL and IMAG (TFLite's complex_support.cc): an elementwise function of a
// complex64 (-> float32) or complex128 (-> float64) tensor, the output shaped as the input.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_COMPLEX_PARTS_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_COMPLEX_PARTS_H_

#include <complex>
#include <cstdint>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace complex_parts {

// `op` names the op in TFLite's message for a non-complex input.
inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteComplex64 && input->type != kTfLiteComplex128) {
    TF_LITE_KERNEL_LOG(context,
                       "Unsupported input type, %s op only supports complex input, but got: %s", op,
                       TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  output->type = input->type == kTfLiteComplex64 ? kTfLiteFloat32 : kTfLiteFloat64;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

// out[i] = f(z[i]) for f taking std::complex<float> and std::complex<double>.
template <typename F>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, F f) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int64_t n = NumElements(input);
  if (input->type == kTfLiteComplex64) {
    const auto* z = reinterpret_cast<const std::complex<float>*>(input->data.raw);
    for (int64_t i = 0; i < n; ++i) output->data.f[i] = f(z[i]);
  } else {
    const auto* z = reinterpret_cast<const std::complex<double>*>(input->data.raw);
    for (int64_t i = 0; i < n; ++i) output->data.f64[i] = f(z[i]);
  }
  return kTfLiteOk;
}

}  // namespace complex_parts
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_COMPLEX_PARTS_H_
