// SUB: out = in1 - in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32, int32, int64; int8, uint8 and int16 bit-exact with
// TFLite's reference kernels: the general path (sub.cc PrepareGeneralSubOp's
// multipliers, left shift 20 for 8-bit and 15 for int16) and the
// pot_scale_int16 path (zero points 0, power-of-two scales).
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sub {

using OpData = elementwise::AddSubData;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteSubParams*>(node->builtin_data);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE(context, params != nullptr);
  // Quantized only for int16; zero points must fit the type (upstream checks the same).
  static constexpr elementwise::AddSubRules kRules = {"SUB", /*plain_int16=*/false,
                                                      /*symmetric_int16=*/false,
                                                      /*zero_points_in_type=*/true};
  return elementwise::PrepareAddSub(context, node, kRules, params->activation,
                                    params->pot_scale_int16, &data->params, &data->int16_pot);
}

template <typename T>
void EvalPlain(TfLiteFusedActivation activation, const TfLiteTensor* input1,
               const TfLiteTensor* input2, TfLiteTensor* output) {
  elementwise::BroadcastClamped<T>(activation, input1, input2, output,
                                   [](T a, T b) { return elementwise::WrappingSub(a, b); });
}

template <typename T>
void EvalQuantized(const ArithmeticParams& p, const TfLiteTensor* input1,
                   const TfLiteTensor* input2, TfLiteTensor* output) {
  elementwise::BroadcastTensors<T>(input1, input2, output, [&p](T a, T b) {
    return elementwise::QuantizedAddSub(p, a, b, true);
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteSubParams*>(node->builtin_data);
  const auto& data = *static_cast<const OpData*>(node->user_data);
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
      EvalQuantized<int8_t>(data.params, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(data.params, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      if (data.int16_pot) {
        const ArithmeticParams& p = data.params;
        elementwise::BroadcastTensors<int16_t>(input1, input2, output, [&p](int16_t a, int16_t b) {
          return elementwise::Int16PotAddSub(p, a, b, true);
        });
      } else {
        EvalQuantized<int16_t>(data.params, input1, input2, output);
      }
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace sub

TfLiteRegistration* Register_SUB() {
  static TfLiteRegistration r = {elementwise::InitAddSub, elementwise::FreeAddSub, sub::Prepare,
                                 sub::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
