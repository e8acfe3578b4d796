// gemmlowp's fixed-point exp and reciprocal, on raw int32 values, as TFLite's
// quantized reference softmax uses them (gemmlowp::exp_on_negative_values,
// one_over_one_plus_x_for_x_in_0_1, tflite::GetReciprocal and
// log_x_for_x_greater_than_or_equal_to_1). A value with N
// integer bits is raw * 2^-(31 - N). Bit-exact with gemmlowp's scalar path.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SOFTMAX_FIXEDPOINT_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SOFTMAX_FIXEDPOINT_H_

#include <algorithm>
#include <cstdint>
#include <limits>

#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/fixedpoint.h"

namespace tflite {
namespace fixed_point {

// FixedPoint<a> * FixedPoint<b> -> FixedPoint<a + b>.
inline int32_t Mul(int32_t a, int32_t b) {
  return gemmlowp::SaturatingRoundingDoublingHighMul(a, b);
}
// Rescale by 2^Exponent (saturating left shift, or rounding right shift).
template <int Exponent>
int32_t Pot(int32_t x) {
  return gemmlowp::SaturatingRoundingMultiplyByPOT<Exponent>(x);
}
inline int32_t Add(int32_t a, int32_t b) { return WrappingAdd(a, b); }
inline int32_t Sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

// exp(a) for a in [-1/4, 0), Q0.31 in and out.
inline int32_t ExpOnIntervalBetweenNegativeOneQuarterAnd0Excl(int32_t a) {
  const int32_t constant_term = 1895147668;     // exp(-1/8)
  const int32_t constant_1_over_3 = 715827883;  // 1/3
  // Taylor expansion around -1/8: x = a + 1/8.
  const int32_t x = Add(a, 1 << 28);
  const int32_t x2 = Mul(x, x);
  const int32_t x3 = Mul(x2, x);
  const int32_t x4 = Mul(x2, x2);
  const int32_t x4_over_4 = Pot<-2>(x4);
  const int32_t x4_over_24_plus_x3_over_6_plus_x2_over_2 =
      Pot<-1>(Add(Mul(Add(x4_over_4, x3), constant_1_over_3), x2));
  return Add(constant_term, Mul(constant_term, Add(x, x4_over_24_plus_x3_over_6_plus_x2_over_2)));
}

// exp(a) for a <= 0 with kIntegerBits integer bits; result Q0.31.
template <int kIntegerBits>
int32_t ExpOnNegativeValues(int32_t a) {
  constexpr int kFractionalBits = 31 - kIntegerBits;
  const int32_t kOneQuarter = 1 << (kFractionalBits - 2);
  const int32_t mask = kOneQuarter - 1;
  const int32_t a_mod_quarter_minus_one_quarter = Sub(a & mask, kOneQuarter);
  int32_t result = ExpOnIntervalBetweenNegativeOneQuarterAnd0Excl(
      Pot<kIntegerBits>(a_mod_quarter_minus_one_quarter));
  const int32_t remainder = Sub(a_mod_quarter_minus_one_quarter, a);
  // Barrel shifter: multiply by exp(-2^k) for each bit k of the remainder.
  struct Step {
    int exponent;
    int32_t multiplier;
  };
  constexpr Step kSteps[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
                             {2, 39332535},    {3, 720401},      {4, 242}};
  for (const Step& step : kSteps) {
    if (kIntegerBits > step.exponent) {
      const int shift = kFractionalBits + step.exponent;
      if (shift >= 0 && shift < 31 && (remainder & (1 << shift)) != 0) {
        result = Mul(result, step.multiplier);
      }
    }
  }
  if (kIntegerBits > 5) {
    const int32_t clamp = -(1 << (kFractionalBits + 5));  // -32
    if (a < clamp) result = 0;
  }
  if (a == 0) result = std::numeric_limits<int32_t>::max();
  return result;
}

// 1 / (1 + a) for a in [0, 1), Q0.31 in and out (Newton-Raphson in Q2.29).
inline int32_t OneOverOnePlusXForXIn01(int32_t a) {
  const int32_t half_denominator =
      gemmlowp::RoundingHalfSum(a, std::numeric_limits<int32_t>::max());
  const int32_t constant_48_over_17 = 1515870810;
  const int32_t constant_neg_32_over_17 = -1010580540;
  int32_t x = Add(constant_48_over_17, Mul(half_denominator, constant_neg_32_over_17));
  for (int i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = Mul(half_denominator, x);
    const int32_t one_minus_half_denominator_times_x = Sub(1 << 29, half_denominator_times_x);
    x = Add(x, Pot<2>(Mul(x, one_minus_half_denominator_times_x)));
  }
  // Rescale<0>(ExactMulByPot<-1>(x)): Q2.29 halved, read as Q1.30, to Q0.31.
  return Pot<1>(x);
}

// tflite::GetReciprocal: 1 / x for x > 0 with x_integer_digits integer bits, as a
// Q0.31 value scaled by 2^-num_bits_over_unit.
inline int32_t GetReciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit) {
  const int headroom_plus_one = CountLeadingZeros(static_cast<uint32_t>(x));
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  const int32_t shifted_sum_minus_one = static_cast<int32_t>(
      (static_cast<uint32_t>(x) << headroom_plus_one) - (static_cast<uint32_t>(1) << 31));
  return OneOverOnePlusXForXIn01(shifted_sum_minus_one);
}

// log(x) for x >= 1 given with InputIntegerBits integer bits (in practice down to
// 1/x_max), result with OutputIntegerBits: tflite::log_x_for_x_greater_than_or_equal_to_1
// (a Pade-style approximation after range reduction by powers of sqrt(2)), raw int32
// in and out. Sums carry one more integer bit than the output, as upstream's.
template <int OutputIntegerBits, int InputIntegerBits>
int32_t LogXForXGreaterThanOrEqualTo1(int32_t input_raw) {
  constexpr int kAccumIntegerBits = OutputIntegerBits + 1;
  constexpr int32_t kLog2 = 1488522236;            // log(2), Q0.31
  constexpr int32_t kSqrtSqrtHalf = 1805811301;    // 0.5^(1/4)
  constexpr int32_t kSqrtHalf = 1518500250;        // 0.5^(1/2)
  constexpr int32_t kOneQuarter = 536870912;       // 1/4
  constexpr int32_t kAlphaN = 117049297;           // 11/240 * 2^(1/4)
  constexpr int32_t kAlphaD = 127690142;           // 1/20 * 2^(1/4)
  constexpr int32_t kAlphaI = 1057819769;          // 2 / 2^(1/4) - 2^(1/4)
  constexpr int32_t kAlphaF = 638450708;           // 1/4 * 2^(1/4)
  const int32_t shifted_quarter = Pot<-kAccumIntegerBits>(kOneQuarter);

  // The input read as Q0.31; the power of two is tracked separately.
  const int32_t z_a = input_raw;
  const int z_a_headroom_plus_1 = CountLeadingZeros(static_cast<uint32_t>(z_a));
  const int32_t r_a_tmp = SaturatingRoundingMultiplyByPOTParam(z_a, z_a_headroom_plus_1 - 1);
  const int32_t r_a_raw = SaturatingRoundingMultiplyByPOTParam(Mul(r_a_tmp, kSqrtHalf), 1);
  const int32_t z_a_pow_2_adj = SaturatingAddNonGemmlowp(
      SaturatingRoundingMultiplyByPOTParam(InputIntegerBits - z_a_headroom_plus_1,
                                           31 - kAccumIntegerBits),
      shifted_quarter);
  // z_b: as z_a, premultiplied by sqrt(1/2).
  const int32_t z_b = Mul(z_a, kSqrtHalf);
  const int z_b_headroom = CountLeadingZeros(static_cast<uint32_t>(z_b)) - 1;
  const int32_t r_b_raw = SaturatingRoundingMultiplyByPOTParam(z_a, z_b_headroom);
  const int32_t z_b_pow_2_adj =
      SaturatingSub(SaturatingRoundingMultiplyByPOTParam(InputIntegerBits - z_b_headroom,
                                                         31 - kAccumIntegerBits),
                    shifted_quarter);

  const int32_t r = std::min(r_a_raw, r_b_raw);
  const int32_t z_pow_2_adj = std::max(z_a_pow_2_adj, z_b_pow_2_adj);
  const int32_t p = gemmlowp::RoundingHalfSum(r, kSqrtSqrtHalf);
  int32_t q = Sub(r, kSqrtSqrtHalf);
  q = Add(q, q);
  const int32_t common_sq = Mul(q, q);
  const int32_t num = Add(Mul(q, r), Mul(Mul(q, common_sq), kAlphaN));
  const int32_t denom_minus_one_0 =
      Add(Mul(p, Add(Add(kAlphaI, q), Mul(kAlphaD, common_sq))), Mul(kAlphaF, q));
  const int32_t recip_denom = OneOverOnePlusXForXIn01(denom_minus_one_0);
  const int32_t num_scaled = Pot<-kAccumIntegerBits>(num);
  return Pot<kAccumIntegerBits - OutputIntegerBits>(
      Add(Mul(z_pow_2_adj, kLog2), Mul(num_scaled, recip_denom)));
}

}  // namespace fixed_point
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SOFTMAX_FIXEDPOINT_H_
