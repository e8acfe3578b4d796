// ADD: out = in1 + in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32, int32, int64 and unquantized int16 (wrapping, then
// clamped, as upstream); int8, uint8 and quantized int16 bit-exact with
// TFLite's reference kernels: the general path (add.cc Prepare's multipliers,
// left shift 20 for 8-bit and 15 for int16, int16 zero points 0) and the
// pot_scale_int16 path (power-of-two scales, one input right-shifted).
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace add {

using OpData = elementwise::AddSubData;

using elementwise::IsQuantized;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteAddParams*>(node->builtin_data);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE(context, params != nullptr);
  // Unquantized int16 is a plain integer add; quantized int16 is symmetric.
  static constexpr elementwise::AddSubRules kRules = {"ADD", /*plain_int16=*/true,
                                                      /*symmetric_int16=*/true,
                                                      /*zero_points_in_type=*/false};
  return elementwise::PrepareAddSub(context, node, kRules, params->activation,
                                    params->pot_scale_int16, &data->params, &data->int16_pot);
}

template <typename T>
void EvalPlain(TfLiteFusedActivation activation, const TfLiteTensor* input1,
               const TfLiteTensor* input2, TfLiteTensor* output) {
  elementwise::BroadcastClamped<T>(activation, input1, input2, output,
                                   [](T a, T b) { return WrappingAdd(a, b); });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteAddParams*>(node->builtin_data);
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const ArithmeticParams& p = data.params;
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (output->type) {
    case kTfLiteFloat32:
      EvalPlain<float>(params->activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      EvalPlain<int32_t>(params->activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt64:
      EvalPlain<int64_t>(params->activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      elementwise::BroadcastTensors<int8_t>(input1, input2, output, [&p](int8_t a, int8_t b) {
        return elementwise::QuantizedAddSub(p, a, b, false);
      });
      return kTfLiteOk;
    case kTfLiteUInt8:
      elementwise::BroadcastTensors<uint8_t>(input1, input2, output, [&p](uint8_t a, uint8_t b) {
        return elementwise::QuantizedAddSub(p, a, b, false);
      });
      return kTfLiteOk;
    case kTfLiteInt16:
      if (!IsQuantized(output)) {
        EvalPlain<int16_t>(params->activation, input1, input2, output);
      } else if (data.int16_pot) {
        elementwise::BroadcastTensors<int16_t>(input1, input2, output, [&p](int16_t a, int16_t b) {
          return elementwise::Int16PotAddSub(p, a, b, false);
        });
      } else {
        elementwise::BroadcastTensors<int16_t>(input1, input2, output, [&p](int16_t a, int16_t b) {
          return elementwise::QuantizedAddSub(p, a, b, false);
        });
      }
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace add

TfLiteRegistration* Register_ADD() {
  static TfLiteRegistration r = {elementwise::InitAddSub, elementwise::FreeAddSub, add::Prepare,
                                 add::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
