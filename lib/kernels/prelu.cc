// PRELU: x >= 0 ? x : alpha * x, with alpha broadcast against the input
// (NumPy rules, rank <= 6; the output takes the broadcast shape). float32,
// and int8 / uint8 bit-exact with TFLite (prelu.cc Prepare's two
// multipliers, reference BroadcastPrelu4DSlow).
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace prelu {

struct OpData {
  int32_t output_multiplier_1 = 0;  // input scale / output scale
  int output_shift_1 = 0;
  int32_t output_multiplier_2 = 0;  // input * alpha scale / output scale
  int output_shift_2 = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  const TfLiteTensor* alpha;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(
      context, elementwise::PrepareBinary(context, node, elementwise::kMaxBroadcastRank, &input,
                                          &alpha, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8: {
      TF_LITE_ENSURE_MSG(
          context, input->params.scale > 0 && alpha->params.scale > 0 && output->params.scale > 0,
          "quantized input, alpha and output need a positive scale");
      // Float arithmetic, then widened: as upstream.
      const double real_multiplier_1 = input->params.scale / output->params.scale;
      const double real_multiplier_2 =
          input->params.scale * alpha->params.scale / output->params.scale;
      QuantizeMultiplier(real_multiplier_1, &data->output_multiplier_1, &data->output_shift_1);
      QuantizeMultiplier(real_multiplier_2, &data->output_multiplier_2, &data->output_shift_2);
      return kTfLiteOk;
    }
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

template <typename T>
void EvalQuantized(const OpData& data, const TfLiteTensor* input, const TfLiteTensor* alpha,
                   TfLiteTensor* output) {
  const int32_t input_offset = -input->params.zero_point;
  const int32_t alpha_offset = -alpha->params.zero_point;
  const int32_t output_offset = output->params.zero_point;
  elementwise::BroadcastBinary(
      GetTensorShape(input), GetTensorData<T>(input), GetTensorShape(alpha),
      GetTensorData<T>(alpha), GetTensorShape(output), GetTensorData<T>(output), [&](T x, T a) {
        const int32_t input_value = input_offset + x;
        int32_t out;
        if (input_value >= 0) {
          out = MultiplyByQuantizedMultiplier(input_value, data.output_multiplier_1,
                                              data.output_shift_1);
        } else {
          const int32_t alpha_value = alpha_offset + a;
          out = MultiplyByQuantizedMultiplier(input_value * alpha_value, data.output_multiplier_2,
                                              data.output_shift_2);
        }
        out += output_offset;
        return static_cast<T>(std::min<int32_t>(
            std::numeric_limits<T>::max(), std::max<int32_t>(std::numeric_limits<T>::min(), out)));
      });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input;
  const TfLiteTensor* alpha;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &alpha));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      elementwise::BroadcastBinary(GetTensorShape(input), GetTensorData<float>(input),
                                   GetTensorShape(alpha), GetTensorData<float>(alpha),
                                   GetTensorShape(output), GetTensorData<float>(output),
                                   [](float x, float a) { return x >= 0.0f ? x : x * a; });
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantized<int8_t>(data, input, alpha, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(data, input, alpha, output);
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace prelu

TfLiteRegistration* Register_PRELU() {
  static TfLiteRegistration r = {prelu::Init, prelu::Free, prelu::Prepare, prelu::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
