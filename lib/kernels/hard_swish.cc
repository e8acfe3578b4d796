// HARD_SWISH: x * relu6(x + 3) / 6. float32 with the reference formula; int8 / uint8
// bit-exact with TFLite's reference_ops::HardSwish, through a table of its fixed-point
// arithmetic evaluated once per input byte (kernels/internal/byte_table.h).
#include <algorithm>

#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace hard_swish {

float HardSwish(float x) { return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f; }

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
    case kTfLiteUInt8: {
      TF_LITE_ENSURE(context, input->params.scale > 0 && output->params.scale > 0);
      return byte_table::Prepare(context, node, kTfLiteBuiltinHardSwish, *input, *output,
                                 static_cast<elementwise::ByteLut*>(node->user_data));
    }
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
                            NumElements(input), HardSwish);
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

}  // namespace hard_swish

TfLiteRegistration* Register_HARD_SWISH() {
  static TfLiteRegistration r = {hard_swish::Init, hard_swish::Free, hard_swish::Prepare,
                                 hard_swish::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
