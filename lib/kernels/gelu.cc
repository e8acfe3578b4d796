// GELU. float32: kernels/internal/gelu_f32.h (exact, with erf as Eigen's rational
// approximation, or with `approximate` the tanh form). int8 / uint8
// through TFLite's 256-entry lookup table built from upstream's exact float
// expressions (reference_ops::GeluTransform / GeluTransformApproximate).
#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "kernels/internal/gelu_f32.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace gelu {

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
      gelu_f32::Gelu(GetTensorData<float>(input), GetTensorData<float>(output), NumElements(input),
                     Approximate(node));
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
