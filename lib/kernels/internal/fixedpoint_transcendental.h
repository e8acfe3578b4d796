// gemmlowp's fixed-point transcendental functions (logistic, tanh, exp on negative
// values) and TFLite's GetInvSqrtQuantizedMultiplierExp, as scalar code over raw
// integers. TFLite's integer LSTM (tensor_utils ApplySigmoid / ApplyTanh /
// ApplyLayerNorm) is defined by them, so every step reproduces gemmlowp's
// FixedPoint<tRawType, tIntegerBits> arithmetic bit for bit: wrapping + and -,
// SaturatingRoundingDoublingHighMul for *, Rescale via SaturatingRoundingMultiplyByPOT,
// and constants given as Q0.31 int32 values rounded down to the raw type's width.
//
// Header-only, pure functions; thread-safe.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FIXEDPOINT_TRANSCENDENTAL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FIXEDPOINT_TRANSCENDENTAL_H_

#include <cstdint>
#include <limits>

#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/fixedpoint.h"

namespace tflite {
namespace fixedpoint_fn {

// A fixed-point value: `raw` read with kFractionalBits fractional bits.
template <typename Raw, int IntBits>
struct Fx {
  static constexpr int kIntegerBits = IntBits;
  static constexpr int kFractionalBits = 8 * static_cast<int>(sizeof(Raw)) - 1 - IntBits;
  Raw raw;

  static Fx FromRaw(Raw r) { return Fx{r}; }
  static Fx Zero() { return Fx{0}; }
  static Fx One() {
    return Fx{IntBits == 0 ? std::numeric_limits<Raw>::max()
                           : static_cast<Raw>(Raw(1) << (IntBits == 0 ? 0 : kFractionalBits))};
  }
  template <int Exponent>
  static Fx ConstantPOT() {
    static_assert(kFractionalBits + Exponent >= 0, "constant below resolution");
    static_assert(kFractionalBits + Exponent < 8 * static_cast<int>(sizeof(Raw)) - 1,
                  "constant above range");
    return Fx{static_cast<Raw>(Raw(1) << (kFractionalBits + Exponent))};
  }
  // GEMMLOWP_CHECKED_FIXEDPOINT_CONSTANT: a Q-format int32 literal narrowed to Raw.
  static Fx Constant(std::int32_t int32_value) {
    constexpr int kBits = 8 * static_cast<int>(sizeof(Raw));
    return Fx{
        static_cast<Raw>(gemmlowp::RoundingDivideByPOT<std::int32_t>(int32_value, 32 - kBits))};
  }
};

template <typename Raw, int B>
Fx<Raw, B> operator+(Fx<Raw, B> a, Fx<Raw, B> b) {
  return Fx<Raw, B>{
      static_cast<Raw>(static_cast<std::uint32_t>(a.raw) + static_cast<std::uint32_t>(b.raw))};
}
template <typename Raw, int B>
Fx<Raw, B> operator-(Fx<Raw, B> a, Fx<Raw, B> b) {
  return Fx<Raw, B>{
      static_cast<Raw>(static_cast<std::uint32_t>(a.raw) - static_cast<std::uint32_t>(b.raw))};
}
template <typename Raw, int B>
Fx<Raw, B> operator-(Fx<Raw, B> a) {
  return Fx<Raw, B>{static_cast<Raw>(0u - static_cast<std::uint32_t>(a.raw))};
}
template <typename Raw, int A, int B>
Fx<Raw, A + B> operator*(Fx<Raw, A> a, Fx<Raw, B> b) {
  return Fx<Raw, A + B>{gemmlowp::SaturatingRoundingDoublingHighMul(a.raw, b.raw)};
}
template <typename Raw, int B>
Fx<Raw, B> operator&(Fx<Raw, B> a, Fx<Raw, B> b) {
  return Fx<Raw, B>{static_cast<Raw>(a.raw & b.raw)};
}
template <typename Raw, int B>
Fx<Raw, B> Select(Raw mask, Fx<Raw, B> a, Fx<Raw, B> b) {
  return Fx<Raw, B>{gemmlowp::SelectUsingMask(mask, a.raw, b.raw)};
}
template <int N, typename Raw, int M>
Fx<Raw, N> Rescale(Fx<Raw, M> x) {
  return Fx<Raw, N>{gemmlowp::SaturatingRoundingMultiplyByPOT<M - N>(x.raw)};
}
template <int E, typename Raw, int B>
Fx<Raw, B + E> ExactMulByPot(Fx<Raw, B> a) {
  return Fx<Raw, B + E>{a.raw};
}
template <int E, typename Raw, int B>
Fx<Raw, B> SaturatingRoundingMultiplyByPOT(Fx<Raw, B> a) {
  return Fx<Raw, B>{gemmlowp::SaturatingRoundingMultiplyByPOT<E>(a.raw)};
}

template <typename Raw>
Fx<Raw, 0> ExpOnIntervalBetweenNegativeOneQuarterAnd0Excl(Fx<Raw, 0> a) {
  using F = Fx<Raw, 0>;
  const F constant_term = F::Constant(1895147668);     // exp(-1/8)
  const F constant_1_over_3 = F::Constant(715827883);  // 1/3
  const F x = a + F::template ConstantPOT<-3>();
  const F x2 = x * x;
  const F x3 = x2 * x;
  const F x4 = x2 * x2;
  const F x4_over_4 = SaturatingRoundingMultiplyByPOT<-2>(x4);
  const F poly = SaturatingRoundingMultiplyByPOT<-1>(((x4_over_4 + x3) * constant_1_over_3) + x2);
  return F{gemmlowp::AddSaturatingIf16Bit(constant_term.raw, (constant_term * (x + poly)).raw)};
}

template <typename Raw, int IntBits>
Fx<Raw, 0> ExpOnNegativeValues(Fx<Raw, IntBits> a) {
  using InputF = Fx<Raw, IntBits>;
  using ResultF = Fx<Raw, 0>;
  constexpr int kFractionalBits = InputF::kFractionalBits;
  const InputF one_quarter = InputF::template ConstantPOT<-2>();
  const InputF mask = one_quarter - InputF::FromRaw(1);
  const InputF a_mod_quarter_minus_one_quarter = (a & mask) - one_quarter;
  ResultF result =
      ExpOnIntervalBetweenNegativeOneQuarterAnd0Excl(Rescale<0>(a_mod_quarter_minus_one_quarter));
  const Raw remainder = (a_mod_quarter_minus_one_quarter - a).raw;
  auto barrel = [&](int exponent, std::int32_t multiplier) {
    if (IntBits > exponent) {
      const int shift = kFractionalBits + exponent;
      if ((remainder & static_cast<Raw>(Raw(1) << shift)) != 0) {
        result = result * ResultF::Constant(multiplier);
      }
    }
  };
  barrel(-2, 1672461947);
  barrel(-1, 1302514674);
  barrel(0, 790015084);
  barrel(1, 290630308);
  barrel(2, 39332535);
  barrel(3, 720401);
  barrel(4, 242);
  if constexpr (IntBits > 5) {
    constexpr int kClampB = 36 - IntBits;
    const InputF clamp = InputF::Constant(-(1 << kClampB));  // -32
    if (a.raw < clamp.raw) result = ResultF::Zero();
  }
  if (a.raw == 0) result = ResultF::One();
  return result;
}

// 1 / (1 + x) for x in (0, 1), by Newton-Raphson.
template <typename Raw>
Fx<Raw, 0> OneOverOnePlusXForXIn01(Fx<Raw, 0> a) {
  using F0 = Fx<Raw, 0>;
  using F2 = Fx<Raw, 2>;
  const F0 half_denominator = F0{gemmlowp::RoundingHalfSum(a.raw, F0::One().raw)};
  const F2 constant_48_over_17 = F2::Constant(1515870810);
  const F2 constant_neg_32_over_17 = F2::Constant(-1010580540);
  F2 x = constant_48_over_17 + half_denominator * constant_neg_32_over_17;
  for (int i = 0; i < 3; ++i) {
    const F2 half_denominator_times_x = half_denominator * x;
    const F2 one_minus_half_denominator_times_x = F2::One() - half_denominator_times_x;
    x = x + Rescale<2>(x * one_minus_half_denominator_times_x);
  }
  return Rescale<0>(ExactMulByPot<-1>(x));
}

// (1 - x) / (1 + x) for x in (0, 1).
template <typename Raw>
Fx<Raw, 0> OneMinusXOverOnePlusXForXIn01(Fx<Raw, 0> a) {
  using F0 = Fx<Raw, 0>;
  using F2 = Fx<Raw, 2>;
  const F0 half_denominator = F0{gemmlowp::RoundingHalfSum(a.raw, F0::One().raw)};
  const F2 constant_48_over_17 = F2::Constant(1515870810);
  const F2 constant_neg_32_over_17 = F2::Constant(-1010580540);
  F2 x = constant_48_over_17 + half_denominator * constant_neg_32_over_17;
  for (int i = 0; i < 3; ++i) {
    const F2 half_denominator_times_x = half_denominator * x;
    const F2 one_minus_half_denominator_times_x = F2::One() - half_denominator_times_x;
    x = x + Rescale<2>(x * one_minus_half_denominator_times_x);
  }
  return Rescale<0>(x - F2::One());
}

template <typename Raw, int IntBits>
Fx<Raw, 0> Logistic(Fx<Raw, IntBits> a) {
  using ResultF = Fx<Raw, 0>;
  const bool positive = a.raw > 0;
  const Fx<Raw, IntBits> abs_input = positive ? a : -a;
  const ResultF result_if_positive = OneOverOnePlusXForXIn01(ExpOnNegativeValues(-abs_input));
  const ResultF result_if_negative = ResultF::One() - result_if_positive;
  if (a.raw == 0) return ResultF::Constant(1 << 30);  // 0.5
  return positive ? result_if_positive : result_if_negative;
}

template <typename Raw, int IntBits>
Fx<Raw, 0> Tanh(Fx<Raw, IntBits> a) {
  using ResultF = Fx<Raw, 0>;
  const bool negative = a.raw < 0;
  const Fx<Raw, IntBits> n = negative ? a : -a;
  const ResultF t = OneMinusXOverOnePlusXForXIn01(ExpOnNegativeValues(ExactMulByPot<1>(n)));
  if (a.raw == 0) return ResultF::Zero();
  return negative ? -t : t;
}

// 1/sqrt(input) as a multiplier and shift (TFLite's GetInvSqrtQuantizedMultiplierExp).
inline void GetInvSqrtQuantizedMultiplierExp(std::int32_t input, int reverse_shift,
                                             std::int32_t* output_inv_sqrt, int* output_shift) {
  if (input <= 1) {
    *output_inv_sqrt = std::numeric_limits<std::int32_t>::max();
    *output_shift = 0;
    return;
  }
  *output_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++*output_shift;
  }
  const unsigned max_left_shift_bits = CountLeadingZeros(static_cast<std::uint32_t>(input)) - 1;
  const unsigned max_left_shift_bit_pairs = max_left_shift_bits / 2;
  const unsigned left_shift_bit_pairs = max_left_shift_bit_pairs - 1;
  *output_shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  using F3 = Fx<std::int32_t, 3>;
  using F0 = Fx<std::int32_t, 0>;
  const F3 fixedpoint_input = F3::FromRaw(input >> 1);
  const F3 fixedpoint_half_input = SaturatingRoundingMultiplyByPOT<-1>(fixedpoint_input);
  const F3 fixedpoint_half_three = F3::Constant((1 << 28) + (1 << 27));
  F3 x = F3::One();
  for (int i = 0; i < 5; ++i) {
    const F3 x3 = Rescale<3>(x * x * x);
    x = Rescale<3>(fixedpoint_half_three * x - fixedpoint_half_input * x3);
  }
  const F0 fixedpoint_half_sqrt_2 = F0::Constant(1518500250);
  x = x * fixedpoint_half_sqrt_2;
  *output_inv_sqrt = x.raw;
  if (*output_shift < 0) {
    *output_inv_sqrt <<= -*output_shift;
    *output_shift = 0;
  }
  *output_shift *= reverse_shift;
}

}  // namespace fixedpoint_fn
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FIXEDPOINT_TRANSCENDENTAL_H_
