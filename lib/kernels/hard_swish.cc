// HARD_SWISH: x * relu6(x + 3) / 6. float32 with the reference formula;
// int8 / uint8 bit-exact with TFLite's reference_ops::HardSwish (16-bit
// fixed point: input on a 2^7 finer "hires" scale, a saturating "reluish"
// multiplier in [0, 1], SaturatingDoublingHighMul, final rounding shift), with
// the multipliers of activations.cc HardSwishPrepare.
#include <algorithm>
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace hard_swish {

float HardSwish(float x) { return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f; }

void* Init(TfLiteContext*, const char*, size_t) { return new HardSwishParams{}; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<HardSwishParams*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<HardSwishParams*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, elementwise::PrepareUnary(context, node, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8: {
      TF_LITE_ENSURE(context, input->params.scale > 0 && output->params.scale > 0);
      params->input_zero_point = input->params.zero_point;
      params->output_zero_point = output->params.zero_point;
      // Float arithmetic exactly as upstream.
      const float hires_input_scale = (1.0f / 128.0f) * input->params.scale;
      const float reluish_scale = 3.0f / 32768.0f;
      const float output_multiplier = hires_input_scale / output->params.scale;
      int32_t multiplier32 = 0;
      QuantizeMultiplier(output_multiplier, &multiplier32, &params->output_multiplier_exponent);
      DownScaleInt32ToInt16Multiplier(multiplier32, &params->output_multiplier_fixedpoint_int16);
      TF_LITE_ENSURE(context, params->output_multiplier_exponent <= 0);
      const float reluish_multiplier = hires_input_scale / reluish_scale;
      QuantizeMultiplier(reluish_multiplier, &multiplier32, &params->reluish_multiplier_exponent);
      DownScaleInt32ToInt16Multiplier(multiplier32, &params->reluish_multiplier_fixedpoint_int16);
      return kTfLiteOk;
    }
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

int16_t SaturatingLeftShift(int16_t value, int amount) {
  const int64_t result = static_cast<int64_t>(value) * (int64_t{1} << amount);
  return static_cast<int16_t>(
      std::min<int64_t>(std::numeric_limits<int16_t>::max(),
                        std::max<int64_t>(std::numeric_limits<int16_t>::min(), result)));
}

// Like SaturatingRoundingDoublingHighMul but rounding toward zero (SQDMULH).
int16_t SaturatingDoublingHighMul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((static_cast<int32_t>(a) * b) / (1 << 15));
}

template <typename T>
T QuantizedHardSwish(const HardSwishParams& p, T x) {
  const int16_t input_value = static_cast<int16_t>(x - p.input_zero_point);
  const int16_t hires = static_cast<int16_t>(input_value * (1 << 7));
  const int16_t preshift_output =
      gemmlowp::SaturatingRoundingDoublingHighMul(hires, p.output_multiplier_fixedpoint_int16);
  // Rescale to the scale where 3.0 is 32768 (saturating), i.e. [-3, 3] ->
  // [-1, 1]; the last bit of a left shift is applied after the multiply so
  // that only it can saturate.
  int16_t reluish = hires;
  if (p.reluish_multiplier_exponent > 0) {
    reluish = SaturatingLeftShift(reluish, p.reluish_multiplier_exponent - 1);
  }
  reluish =
      gemmlowp::SaturatingRoundingDoublingHighMul(reluish, p.reluish_multiplier_fixedpoint_int16);
  if (p.reluish_multiplier_exponent > 0) {
    reluish = SaturatingLeftShift(reluish, 1);
  }
  if (p.reluish_multiplier_exponent < 0) {
    reluish = gemmlowp::RoundingDivideByPOT(reluish, -p.reluish_multiplier_exponent);
  }
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
  const int16_t preshift = SaturatingDoublingHighMul(reluish, preshift_output);
  int16_t out = gemmlowp::RoundingDivideByPOT(preshift, -p.output_multiplier_exponent);
  out = static_cast<int16_t>(out + p.output_zero_point);
  out = std::min<int16_t>(out, std::numeric_limits<T>::max());
  out = std::max<int16_t>(out, std::numeric_limits<T>::min());
  return static_cast<T>(out);
}

template <typename T>
void EvalQuantized(const HardSwishParams& p, const TfLiteTensor* input, TfLiteTensor* output) {
  elementwise::UnaryMap(GetTensorData<T>(input), GetTensorData<T>(output), NumElements(input),
                        [&p](T x) { return QuantizedHardSwish<T>(p, x); });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const HardSwishParams*>(node->user_data);
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
      EvalQuantized<int8_t>(params, input, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(params, input, output);
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
