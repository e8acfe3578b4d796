// TANH. float32; int8 / uint8 through TFLite's 256-entry lookup table of
// std::tanh (activations.cc TanhPrepare), which is what both its reference
// and default kernels run.
// Not implemented: int16 (version 3).
#include <cmath>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace tanh_kernel {

float Tanh(float x) { return std::tanh(x); }

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
      elementwise::PopulateByteLut(input, output, Tanh,
                                   static_cast<elementwise::ByteLut*>(node->user_data));
      return kTfLiteOk;
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
                            NumElements(input), Tanh);
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

}  // namespace tanh_kernel

TfLiteRegistration* Register_TANH() {
  static TfLiteRegistration r = {tanh_kernel::Init, tanh_kernel::Free, tanh_kernel::Prepare,
                                 tanh_kernel::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
