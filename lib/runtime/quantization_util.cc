// Prepare-time quantization math; see
// tensorflow/lite/kernels/internal/quantization_util.h. The arithmetic follows
// upstream TFLite step by step (same rounding calls in the same order), since
// the resulting multipliers decide the bits of every quantized kernel output.
#include "tensorflow/lite/kernels/internal/quantization_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tensorflow/lite/kernels/internal/compatibility.h"
#include "tensorflow/lite/kernels/internal/cppmath.h"

namespace tflite {

namespace {
// Fields of an IEEE binary64 value, for IntegerFrExp and its inverse.
constexpr uint64_t kSignMask = 0x8000000000000000ULL;
constexpr uint64_t kExponentMask = 0x7ff0000000000000ULL;
constexpr int32_t kExponentShift = 52;
constexpr int32_t kExponentBias = 1023;
constexpr uint32_t kExponentIsBadNum = 0x7ff;
// The top 30 fraction bits are kept; the 22 below them only round.
constexpr uint64_t kFractionMask = 0x000fffffffc00000ULL;
constexpr uint32_t kFractionShift = 22;
constexpr uint32_t kFractionRoundingMask = 0x003fffff;
constexpr uint32_t kFractionRoundingThreshold = 0x00200000;

uint64_t DoubleBits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof(u));
  return u;
}

double DoubleFromBits(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof(d));
  return d;
}
thread_local MultiplierRangeError g_range_error;
}  // namespace

MultiplierRangeError TakeMultiplierRangeError() {
  MultiplierRangeError e = g_range_error;
  g_range_error = MultiplierRangeError{};
  return e;
}

void NoteMultiplierRangeError(double multiplier, const char* why) {
  if (g_range_error.set) return;
  g_range_error = MultiplierRangeError{true, multiplier, why};
}

void QuantizeMultiplier(double double_multiplier, int32_t* quantized_multiplier,
                        int* shift) {
  if (double_multiplier == 0. || !std::isfinite(double_multiplier)) {
    // Upstream has no defined result for non-finite input; use "multiply by 0" and let
    // PrepareNode fail the node. (Negative multipliers are fine: LEAKY_RELU's alpha.)
    if (double_multiplier != 0.) NoteMultiplierRangeError(double_multiplier, "is not finite");
    *quantized_multiplier = 0;
    *shift = 0;
    return;
  }
#ifdef TFLITE_EMULATE_FLOAT
  int64_t q_fixed = IntegerFrExp(double_multiplier, shift);
#else
  const double q = std::frexp(double_multiplier, shift);
  auto q_fixed = static_cast<int64_t>(TfLiteRound(q * (1LL << 31)));
#endif
  // |q| is in [0.5, 1), so rounding can only reach 2^31 exactly: renormalize.
  TFLITE_DCHECK(q_fixed <= (1LL << 31));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++*shift;
  }
  TFLITE_DCHECK_LE(q_fixed, std::numeric_limits<int32_t>::max());
  // Below 2^-31 every product would shift out to 0: flush to an exact 0
  // rather than emit right shifts over 31 bits.
  if (*shift < -31) {
    *shift = 0;
    q_fixed = 0;
  }
#if defined(TFLITE_SINGLE_ROUNDING) && TFLITE_SINGLE_ROUNDING
  // Single rounding supports left shifts up to 30 only; saturate.
  if (*shift > 30) {
    *shift = 30;
    q_fixed = (1LL << 31) - 1;
  }
#else
  // x * (1 << shift) overflows beyond 30 (no real model comes near: ~2^30 is a
  // rescale by a billion); saturate so the kernels stay defined, and fail the node.
  if (*shift > 30) {
    NoteMultiplierRangeError(double_multiplier, "needs a left shift over 30 bits");
    *shift = 30;
    q_fixed = (1LL << 31) - 1;
  }
#endif
  *quantized_multiplier = static_cast<int32_t>(q_fixed);
}

void QuantizeMultiplierGreaterThanOne(double double_multiplier,
                                      int32_t* quantized_multiplier,
                                      int* left_shift) {
  // Upstream DCHECKs multiplier > 1; what its kernels rely on is a left shift >= 0
  // (multipliers in [0.5, 1] occur in real int8 classifiers' SOFTMAX and are fine).
  QuantizeMultiplier(double_multiplier, quantized_multiplier, left_shift);
  if (*left_shift < 0) {
    NoteMultiplierRangeError(double_multiplier, "must be at least 0.5 here");
    *left_shift = 0;
  }
}

void QuantizeMultiplierSmallerThanOneExp(double double_multiplier,
                                         int32_t* quantized_multiplier,
                                         int* left_shift) {
  int shift;
  QuantizeMultiplier(double_multiplier, quantized_multiplier, &shift);
  if (shift > 0) {  // upstream DCHECKs multiplier < 1
    NoteMultiplierRangeError(double_multiplier, "must be below 1 here");
    shift = 0;
  }
  *left_shift = shift;
}

int64_t IntegerFrExp(double input, int* shift) {
  static_assert(sizeof(double) == 8, "IEEE binary64 expected");
  const uint64_t u = DoubleBits(input);
  if ((u & ~kSignMask) == 0) {  // +-0
    *shift = 0;
    return 0;
  }
  const uint32_t exponent_part =
      static_cast<uint32_t>((u & kExponentMask) >> kExponentShift);
  if (exponent_part == kExponentIsBadNum) {
    *shift = std::numeric_limits<int>::max();
    if (u & kFractionMask) return 0;  // NaN
    return (u & kSignMask) ? std::numeric_limits<int64_t>::min()
                           : std::numeric_limits<int64_t>::max();
  }
  // frexp's fraction is in [0.5, 1), one binade below IEEE's [1, 2).
  *shift = static_cast<int>(exponent_part) - kExponentBias + 1;
  // Implicit leading bit, then the top 30 stored fraction bits, rounded.
  int64_t fraction =
      0x40000000 + static_cast<int64_t>((u & kFractionMask) >> kFractionShift);
  if ((u & kFractionRoundingMask) > kFractionRoundingThreshold) fraction += 1;
  if (u & kSignMask) fraction *= -1;
  return fraction;
}

double DoubleFromFractionAndShift(int64_t fraction, int shift) {
  if (shift == std::numeric_limits<int>::max()) {
    if (fraction == 0) return std::numeric_limits<double>::quiet_NaN();
    return fraction > 0 ? std::numeric_limits<double>::infinity()
                        : -std::numeric_limits<double>::infinity();
  }
  if (fraction == 0) return DoubleFromBits(0);
  const bool is_negative = fraction < 0;
  int64_t encoded_fraction = is_negative ? -fraction : fraction;
  int64_t encoded_shift = shift - 1;
  while (encoded_fraction < 0x40000000) {
    encoded_fraction *= 2;
    encoded_shift -= 1;
  }
  while (encoded_fraction > 0x80000000) {
    encoded_fraction /= 2;
    encoded_shift += 1;
  }
  encoded_fraction -= 0x40000000;
  if (encoded_shift < -1022) {
    encoded_shift = -1023;
  } else if (encoded_shift > 1022) {
    encoded_shift = 1023;
  }
  encoded_shift += kExponentBias;
  const uint64_t encoded_sign = is_negative ? kSignMask : 0;
  return DoubleFromBits(
      encoded_sign | (static_cast<uint64_t>(encoded_shift) << kExponentShift) |
      (static_cast<uint64_t>(encoded_fraction) << kFractionShift));
}

double IntegerDoubleMultiply(double a, double b) {
  int a_shift;
  const int64_t a_fraction = IntegerFrExp(a, &a_shift);
  int b_shift;
  const int64_t b_fraction = IntegerFrExp(b, &b_shift);
  if (a_shift == std::numeric_limits<int>::max() ||
      b_shift == std::numeric_limits<int>::max()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const int result_shift = a_shift + b_shift + 1;
  const int64_t result_fraction = (a_fraction * b_fraction) >> 32;
  return DoubleFromFractionAndShift(result_fraction, result_shift);
}

int IntegerDoubleCompare(double a, double b) {
  int a_shift;
  const int64_t a_fraction = IntegerFrExp(a, &a_shift);
  int b_shift;
  const int64_t b_fraction = IntegerFrExp(b, &b_shift);
  if (a_shift == std::numeric_limits<int>::max() ||
      b_shift == std::numeric_limits<int>::max()) {
    return 1;  // NaN / inf: unordered, reported as "greater" like upstream
  }
  if (a_fraction == 0 && b_fraction < 0) return 1;
  if (a_fraction < 0 && b_fraction == 0) return -1;
  if (a_shift < b_shift) return -1;
  if (a_shift > b_shift) return 1;
  if (a_fraction < b_fraction) return -1;
  if (a_fraction > b_fraction) return 1;
  return 0;
}

void PreprocessSoftmaxScaling(double beta, double input_scale,
                              int input_integer_bits,
                              int32_t* quantized_multiplier, int* left_shift) {
  // A large multiplier can be capped: exp() of any non-maximal input then
  // rounds to 0 anyway. The cap keeps the result a valid Q31 multiplier.
#if defined(TFLITE_SINGLE_ROUNDING) && TFLITE_SINGLE_ROUNDING
  const double max_real_multiplier = (1LL << 30) - 1.0;
#else
  const double max_real_multiplier = (1LL << 31) - 1.0;
#endif
#ifdef TFLITE_EMULATE_FLOAT
  const double input_beta = IntegerDoubleMultiply(beta, input_scale);
  int shift;
  int64_t fraction = IntegerFrExp(input_beta, &shift);
  shift += (31 - input_integer_bits);
  double input_beta_real_multiplier =
      DoubleFromFractionAndShift(fraction, shift);
  if (IntegerDoubleCompare(input_beta_real_multiplier, max_real_multiplier) >
      0) {
    input_beta_real_multiplier = max_real_multiplier;
  }
#else
  const double input_beta_real_multiplier =
      std::min<double>(beta * input_scale * (1 << (31 - input_integer_bits)),
                       max_real_multiplier);
#endif
  // From 2^30 (up to the cap) the left shift is 31, which QuantizeMultiplier refuses
  // elsewhere; here the kernels rescale only a difference of 0 with it (the input radius
  // of a shift of 31 is 0, so every other difference is below diff_min and counts
  // nothing): a row's maxima share the output, as in TFLite (an int8 classifier whose
  // logits have a scale of about 80).
  if (input_beta_real_multiplier >= static_cast<double>(1LL << 30)) {
    const double q = std::frexp(input_beta_real_multiplier, left_shift);
    *quantized_multiplier = static_cast<int32_t>(TfLiteRound(q * (1LL << 31)));
    return;
  }
  QuantizeMultiplierGreaterThanOne(input_beta_real_multiplier,
                                   quantized_multiplier, left_shift);
}

void PreprocessLogSoftmaxScalingExp(double beta, double input_scale,
                                    int input_integer_bits,
                                    int32_t* quantized_multiplier,
                                    int* left_shift,
                                    int32_t* reverse_scaling_divisor,
                                    int* reverse_scaling_left_shift) {
  PreprocessSoftmaxScaling(beta, input_scale, input_integer_bits,
                           quantized_multiplier, left_shift);
  // The inverse of the input scaling factor.
  const double real_reverse_scaling_divisor =
      (1 << (31 - *left_shift)) / static_cast<double>(*quantized_multiplier);
  QuantizeMultiplierSmallerThanOneExp(real_reverse_scaling_divisor,
                                      reverse_scaling_divisor,
                                      reverse_scaling_left_shift);
}

int CalculateInputRadius(int input_integer_bits, int input_left_shift,
                         int total_signed_bits) {
#ifdef TFLITE_EMULATE_FLOAT
  int64_t result = (1 << input_integer_bits) - 1;
  result <<= (total_signed_bits - input_integer_bits);
  result >>= input_left_shift;
  return static_cast<int>(result);
#else
  const double max_input_rescaled =
      1.0 * ((1 << input_integer_bits) - 1) *
      (1LL << (total_signed_bits - input_integer_bits)) /
      (1LL << input_left_shift);
  // floor: the exact bound would already overflow after rescaling.
  return static_cast<int>(std::floor(max_input_rescaled));
#endif
}

void NudgeQuantizationRange(const float min, const float max,
                            const int quant_min, const int quant_max,
                            float* nudged_min, float* nudged_max,
                            float* nudged_scale) {
  // Same steps as TensorFlow's fake_quant_ops_functor.h.
  const float quant_min_float = static_cast<float>(quant_min);
  const float quant_max_float = static_cast<float>(quant_max);
  *nudged_scale = (max - min) / (quant_max_float - quant_min_float);
  const float zero_point_from_min = quant_min_float - min / *nudged_scale;
  uint16_t nudged_zero_point;
  if (zero_point_from_min < quant_min_float) {
    nudged_zero_point = static_cast<uint16_t>(quant_min);
  } else if (zero_point_from_min > quant_max_float) {
    nudged_zero_point = static_cast<uint16_t>(quant_max);
  } else {
    nudged_zero_point = static_cast<uint16_t>(TfLiteRound(zero_point_from_min));
  }
  *nudged_min = (quant_min_float - nudged_zero_point) * (*nudged_scale);
  *nudged_max = (quant_max_float - nudged_zero_point) * (*nudged_scale);
}

void FakeQuantizeArray(const float nudged_scale, const float nudged_min,
                       const float nudged_max, const float* input_data,
                       float* output_data, const float size) {
  const float inv_nudged_scale = 1.0f / nudged_scale;
  for (int i = 0; i < size; i++) {
    const float src_val = input_data[i];
    const float clamped = std::min(nudged_max, std::max(nudged_min, src_val));
    const float clamped_shifted = clamped - nudged_min;
    output_data[i] =
        TfLiteRound(clamped_shifted * inv_nudged_scale) * nudged_scale +
        nudged_min;
  }
}

bool CheckedLog2(const float x, int* log2_result) {
  if (x <= 0.0f) return false;
  // log(x) / log(2) rather than log2(): matches upstream's float results.
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float x_log2_rounded = TfLiteRound(x_log2);
  const float x_log2_fracpart = x_log2 - x_log2_rounded;
  *log2_result = static_cast<int>(x_log2_rounded);
  return std::abs(x_log2_fracpart) < 1e-3f;
}

void QuantizeMultiplierArray(const double* effective_scales, size_t size,
                             int32_t* effective_scale_significand,
                             int* effective_shift) {
  for (size_t i = 0; i < size; ++i) {
    QuantizeMultiplier(effective_scales[i], &effective_scale_significand[i],
                       &effective_shift[i]);
  }
}

}  // namespace tflite
