// GELU. float32: exact 0.5 * x * erfc(-x / sqrt(2)), or with `approximate`
// the tanh form 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))),
// evaluated as x * sigmoid(2u) to avoid cancellation for x << 0. int8 / uint8
// through TFLite's 256-entry lookup table built from upstream's exact float
// expressions (reference_ops::GeluTransform / GeluTransformApproximate).
#include <cmath>

#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace gelu {

float GeluExact(float x) { return 0.5f * x * std::erfc(x * static_cast<float>(-M_SQRT1_2)); }

float GeluApproximate(float x) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  const float two_u = 2.0f * kSqrt2OverPi * (x + 0.044715f * x * x * x);
  if (two_u >= 0) return x / (1.0f + std::exp(-two_u));
  const float e = std::exp(two_u);
  return x * e / (1.0f + e);
}

bool Approximate(const TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteGeluParams*>(node->builtin_data);
  return params != nullptr && params->approximate;
}

void* Init(TfLiteContext*, const char*, size_t) { return new elementwise::ByteLut; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<elementwise::ByteLut*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, elementwise::PrepareUnary(context, node, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      TF_LITE_ENSURE(context, output->params.scale > 0);
      return byte_table::Prepare(context, node, kTfLiteBuiltinGelu, *input, *output,
                                 static_cast<elementwise::ByteLut*>(node->user_data));
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
      elementwise::UnaryMap(GetTensorData<float>(input), GetTensorData<float>(output),
                            NumElements(input), Approximate(node) ? GeluApproximate : GeluExact);
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      elementwise::EvalByteLut(*static_cast<const elementwise::ByteLut*>(node->user_data), input,
                               output);
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace gelu

TfLiteRegistration* Register_GELU() {
  static TfLiteRegistration r = {gelu::Init, gelu::Free, gelu::Prepare, gelu::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
