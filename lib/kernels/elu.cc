// ELU: x < 0 ? exp(x) - 1 : x. float32 (expm1, accurate near 0); int8 through
// TFLite's 256-entry lookup table of the same function (activations.cc
// EluPrepare, which uses std::expm1 in current LiteRT).
#include <cmath>

#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace elu {

float Elu(float x) { return x < 0.0f ? std::expm1(x) : x; }

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
      TF_LITE_ENSURE(context, output->params.scale > 0);
      return byte_table::Prepare(context, node, kTfLiteBuiltinElu, *input, *output,
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
                            NumElements(input), Elu);
      return kTfLiteOk;
    case kTfLiteInt8:
      elementwise::EvalByteLut(*static_cast<const elementwise::ByteLut*>(node->user_data), input,
                               output);
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace elu

TfLiteRegistration* Register_ELU() {
  static TfLiteRegistration r = {elu::Init, elu::Free, elu::Prepare, elu::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
