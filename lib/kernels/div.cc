// DIV: out = in1 / in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32 (as upstream, results go through the activation clamp,
// so +-inf becomes +-FLT_MAX); int32 (truncating); uint8 / int8 bit-exact with
// TFLite's reference DivElementwise (fixed-point reciprocal of the divisor by
// Newton-Raphson, multiplier in1_scale / (in2_scale * out_scale)). A zero
// divisor (int32 0, or a quantized value equal to its zero point) fails Invoke.
// Not implemented: int16 / uint16 (newer LiteRT additions, not in a version
// of their own).
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace div {

using elementwise::ActivationClamp;
using elementwise::BroadcastBinary;

// 1 / (1 + a) for a Q0.31 value a in [0, 1): gemmlowp's
// one_over_one_plus_x_for_x_in_0_1, three Newton-Raphson steps in Q2.29.
int32_t OneOverOnePlusX(int32_t a) {
  using gemmlowp::SaturatingRoundingDoublingHighMul;
  const int32_t half_denominator =
      gemmlowp::RoundingHalfSum(a, std::numeric_limits<int32_t>::max());
  constexpr int32_t k48Over17 = 1515870810;      // 48/17 in Q2.29
  constexpr int32_t kNeg32Over17 = -1010580540;  // -32/17 in Q2.29
  constexpr int32_t kOneQ2 = 1 << 29;
  int32_t x = k48Over17 + SaturatingRoundingDoublingHighMul(half_denominator, kNeg32Over17);
  for (int i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = SaturatingRoundingDoublingHighMul(half_denominator, x);
    const int32_t one_minus = kOneQ2 - half_denominator_times_x;
    // Q4.27 product rescaled to Q2.29: saturating left shift by 2.
    x = x +
        SaturatingRoundingMultiplyByPOTParam(SaturatingRoundingDoublingHighMul(x, one_minus), 2);
  }
  // x / 2 as Q1.30, rescaled to Q0.31: saturating left shift by 1.
  return SaturatingRoundingMultiplyByPOTParam(x, 1);
}

// TFLite's GetReciprocal for x > 0 with 31 integer digits: 1/x as a Q0.31
// multiplier and the number of bits x has over one.
int32_t GetReciprocal(int32_t x, int* num_bits_over_unit) {
  const int headroom_plus_one = CountLeadingZeros(static_cast<uint32_t>(x));
  *num_bits_over_unit = 31 - headroom_plus_one;
  const int32_t shifted_sum_minus_one = static_cast<int32_t>(
      (static_cast<uint32_t>(x) << headroom_plus_one) - (static_cast<uint32_t>(1) << 31));
  return OneOverOnePlusX(shifted_sum_minus_one);
}

template <typename T>
T QuantizedDiv(const ArithmeticParams& p, T a, T b) {
  int32_t input1_val = p.input1_offset + a;
  int32_t input2_val = p.input2_offset + b;  // != 0, checked before the loop
  if (input2_val < 0) {                      // the reciprocal must be positive
    input1_val = -input1_val;
    input2_val = -input2_val;
  }
  int32_t raw = 0;
  if (input1_val != 0) {  // 0 / x: skip the 31-bit headroom shift
    int recip_shift = 0;
    const int32_t input2_inv = GetReciprocal(input2_val, &recip_shift);
    const int headroom = CountLeadingSignBits(input1_val);
    const int32_t unscaled_quotient =
        MultiplyByQuantizedMultiplierGreaterThanOne(input1_val, input2_inv, headroom);
    const int total_shift = p.output_shift - recip_shift - headroom;
    // A right shift by 32 or more leaves |value| / 2^32 < 1/2, which rounds to 0.
    // (Upstream shifts anyway, which is undefined there; 0 is the exact result.)
    if (total_shift >= -31) {
      raw = MultiplyByQuantizedMultiplierSmallerThanOneExp(unscaled_quotient, p.output_multiplier,
                                                           total_shift);
    }
  }
  const int32_t out = p.output_offset + raw;
  return static_cast<T>(
      std::min(p.quantized_activation_max, std::max(p.quantized_activation_min, out)));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(
      context, elementwise::PrepareBinary(context, node, elementwise::kMaxBroadcastRank, &input1,
                                          &input2, &output));
  if (output->type == kTfLiteFloat32 || output->type == kTfLiteInt32) return kTfLiteOk;
  if (output->type != kTfLiteUInt8 && output->type != kTfLiteInt8) {
    return elementwise::UnsupportedType(context, output->type);
  }
  auto* params = static_cast<TfLiteDivParams*>(node->builtin_data);
  auto* data = static_cast<ArithmeticParams*>(node->user_data);
  TF_LITE_ENSURE(context,
                 input1->params.scale > 0 && input2->params.scale > 0 && output->params.scale > 0);
  data->input1_offset = -input1->params.zero_point;
  data->input2_offset = -input2->params.zero_point;
  data->output_offset = output->params.zero_point;
  // Float arithmetic, then widened: as upstream.
  const double real_multiplier =
      input1->params.scale / (input2->params.scale * output->params.scale);
  QuantizeMultiplier(real_multiplier, &data->output_multiplier, &data->output_shift);
  // 8-bit dividends have at least 23 bits of headroom, so the final shift stays a
  // right shift (as the reference requires) while output_shift <= 23.
  TF_LITE_ENSURE_MSG(context, data->output_shift <= 23, "DIV rescale factor %g too large",
                     real_multiplier);
  return CalculateActivationRangeQuantized(
      context, params != nullptr ? params->activation : kTfLiteActNone, output,
      &data->quantized_activation_min, &data->quantized_activation_max);
}

template <typename T>
TfLiteStatus EvalQuantized(TfLiteContext* context, const ArithmeticParams& p,
                           const TfLiteTensor* input1, const TfLiteTensor* input2,
                           TfLiteTensor* output) {
  const T* divisor = GetTensorData<T>(input2);
  const int64_t n2 = NumElements(input2);
  for (int64_t i = 0; i < n2; ++i) {
    TF_LITE_ENSURE_MSG(context, divisor[i] + p.input2_offset != 0,
                       "Division by zero (divisor equals its zero point).");
  }
  BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2), divisor,
                  GetTensorShape(output), GetTensorData<T>(output),
                  [&p](T a, T b) { return QuantizedDiv(p, a, b); });
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteDivParams*>(node->builtin_data);
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteFusedActivation activation = params != nullptr ? params->activation : kTfLiteActNone;
  if (output->type == kTfLiteFloat32) {
    const auto clamp = ActivationClamp<float>(activation);
    BroadcastBinary(GetTensorShape(input1), GetTensorData<float>(input1), GetTensorShape(input2),
                    GetTensorData<float>(input2), GetTensorShape(output),
                    GetTensorData<float>(output),
                    [clamp](float a, float b) { return clamp(a / b); });
    return kTfLiteOk;
  }
  if (output->type == kTfLiteInt32) {
    const int32_t* divisor = GetTensorData<int32_t>(input2);
    const int64_t n2 = NumElements(input2);
    for (int64_t i = 0; i < n2; ++i) {
      TF_LITE_ENSURE_MSG(context, divisor[i] != 0, "Division by zero.");
    }
    const auto clamp = ActivationClamp<int32_t>(activation);
    BroadcastBinary(GetTensorShape(input1), GetTensorData<int32_t>(input1), GetTensorShape(input2),
                    divisor, GetTensorShape(output), GetTensorData<int32_t>(output),
                    [clamp](int32_t a, int32_t b) {
                      // INT32_MIN / -1 overflows; wrap like two's complement.
                      if (b == -1) return clamp(elementwise::WrappingSub(0, a));
                      return clamp(a / b);
                    });
    return kTfLiteOk;
  }
  const auto& data = *static_cast<const ArithmeticParams*>(node->user_data);
  if (output->type == kTfLiteUInt8) {
    return EvalQuantized<uint8_t>(context, data, input1, input2, output);
  }
  if (output->type == kTfLiteInt8) {
    return EvalQuantized<int8_t>(context, data, input1, input2, output);
  }
  return elementwise::UnsupportedType(context, output->type);
}

}  // namespace div

TfLiteRegistration* Register_DIV() {
  static TfLiteRegistration r = {elementwise::InitArithmetic, elementwise::FreeArithmetic,
                                 div::Prepare, div::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
