// TANH. float32 with the bits of TFLite's builtin kernel (kernels/internal/tanh_f32.h:
// Eigen's tanh); int8 / uint8 through TFLite's 256-entry lookup table of std::tanh
// (activations.cc TanhPrepare), which is what both its reference and default kernels run.
// int16 (version 3): kernels/internal/sigmoid_int16.h, bit-exact with the reference.
#include <cstdint>

#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "kernels/internal/sigmoid_int16.h"
#include "kernels/internal/tanh_f32.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace tanh_kernel {

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
      TF_LITE_ENSURE(context, output->params.scale > 0);
      return byte_table::Prepare(context, node, kTfLiteBuiltinTanh, *input, *output,
                                 &static_cast<OpData*>(node->user_data)->lut);
    case kTfLiteInt16:
      return sigmoid_int16::Prepare(context, "TANH", /*tanh=*/true, input, output,
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
      tanh_f32::Tanh(GetTensorData<float>(input), GetTensorData<float>(output), NumElements(input));
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      elementwise::EvalByteLut(static_cast<const OpData*>(node->user_data)->lut, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      sigmoid_int16::Tanh(static_cast<const OpData*>(node->user_data)->int16,
                          NumElements(input), GetTensorData<int16_t>(input),
                          GetTensorData<int16_t>(output));
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
