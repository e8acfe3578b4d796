// LOGISTIC: 1 / (1 + exp(-x)). float32 is evaluated so that the relative
// error stays small for large |x|: vector_math's sigmoid (1 / (1 + exp(-x)) within
// 2.5e-7; 8 AVX2 lanes where the CPU has them), results below 2^-126 and NaN through
// 1 / (1 + exp(-x)) or e / (1 + e) with std::exp; int8 / uint8 use TFLite's 256-entry lookup
// table (activations.cc SigmoidPrepare: output scale must be 1/256), which is
// what both its reference and default kernels run.
// int16 (version 3): kernels/internal/sigmoid_int16.h, bit-exact with the reference.
#include <cmath>
#include <cstdint>

#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "kernels/internal/sigmoid_int16.h"
#include "kernels/internal/vector_math.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace logistic {

float Sigmoid(float x) {
  if (x >= 0) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

// vector_math's sigmoid, then the inputs whose results are below 2^-126, and NaN,
// through std::exp again.
void SigmoidFloat(const float* in, float* out, int64_t n) {
  vector_math::Apply(vector_math::Function::kSigmoid, in, n, out);
  for (int64_t i = 0; i < n; ++i) {
    if (!(in[i] >= -87.0f)) out[i] = Sigmoid(in[i]);
  }
}

struct OpData {
  elementwise::ByteLut lut;     // int8 / uint8
  sigmoid_int16::Params int16;  // int16
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, elementwise::PrepareUnary(context, node, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      TF_LITE_ENSURE(context, output->params.scale == 1. / 256);
      return byte_table::Prepare(context, node, kTfLiteBuiltinLogistic, *input, *output,
                                 &static_cast<OpData*>(node->user_data)->lut);
    case kTfLiteInt16:
      TF_LITE_ENSURE(context, output->params.scale == 1. / 32768);
      return sigmoid_int16::Prepare(context, "LOGISTIC", /*tanh=*/false, input, output,
                                    &static_cast<OpData*>(node->user_data)->int16);
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      SigmoidFloat(GetTensorData<float>(input), GetTensorData<float>(output), NumElements(input));
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      elementwise::EvalByteLut(static_cast<const OpData*>(node->user_data)->lut, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      sigmoid_int16::Logistic(static_cast<const OpData*>(node->user_data)->int16,
                              NumElements(input), GetTensorData<int16_t>(input),
                              GetTensorData<int16_t>(output));
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace logistic

TfLiteRegistration* Register_LOGISTIC() {
  static TfLiteRegistration r = {logistic::Init, logistic::Free, logistic::Prepare, logistic::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
