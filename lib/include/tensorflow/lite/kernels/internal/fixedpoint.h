// Scalar fixed-point primitives of gemmlowp ("fixedpoint/fixedpoint.h"), which
// TFLite's quantized reference kernels are defined by. gemmlowp is not a
// Debian package, so tflite-inspect carries its own implementation of the
// scalar (non-SIMD) primitives, in namespace gemmlowp so that kernel code
// written as gemmlowp::SaturatingRoundingDoublingHighMul(...) compiles as is.
//
// Every function reproduces gemmlowp's integer arithmetic bit for bit; the
// quantized kernels' bit-exactness rests on that. The FixedPoint<> class and
// the transcendental helpers (exp, tanh, logistic) are not provided yet.
#ifndef TENSORFLOW_LITE_KERNELS_INTERNAL_FIXEDPOINT_H_
#define TENSORFLOW_LITE_KERNELS_INTERNAL_FIXEDPOINT_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gemmlowp {

// Scalar "SIMD" traits: one lane.
template <typename tIntegerType>
struct FixedPointRawTypeTraits {};

template <>
struct FixedPointRawTypeTraits<std::int32_t> {
  typedef std::int32_t ScalarRawType;
  static constexpr int kLanes = 1;
};

template <>
struct FixedPointRawTypeTraits<std::int16_t> {
  typedef std::int16_t ScalarRawType;
  static constexpr int kLanes = 1;
};

template <typename tRawType>
tRawType Dup(typename FixedPointRawTypeTraits<tRawType>::ScalarRawType x) {
  return x;
}

template <typename T>
T BitAnd(T a, T b) {
  return a & b;
}
template <typename T>
T BitOr(T a, T b) {
  return a | b;
}
template <typename T>
T BitXor(T a, T b) {
  return a ^ b;
}
template <typename T>
T BitNot(T a) {
  return ~a;
}
// Plain (non-saturating) arithmetic; overflow is the caller's bug.
template <typename T>
T Add(T a, T b) {
  return a + b;
}
template <typename T>
T Sub(T a, T b) {
  return a - b;
}
template <typename T>
T Mul(T a, T b) {
  return a * b;
}
template <typename T>
T Neg(T a) {
  return -a;
}
// Multiplication by 2^offset (defined for negative a, unlike <<).
template <typename T>
T ShiftLeft(T a, int offset) {
  if constexpr (std::is_integral_v<T>) {
    // Wrapping, as on every target upstream runs on: the saturating callers compute the
    // shifted value before selecting the saturated one, so it may overflow.
    using U = std::make_unsigned_t<T>;
    using P = std::common_type_t<U, unsigned int>;
    return static_cast<T>(static_cast<U>(static_cast<P>(static_cast<U>(a)) *
                                         (static_cast<P>(1) << offset)));
  } else {
    return a * (static_cast<T>(1) << offset);
  }
}
// Arithmetic (sign-extending) shift, truncating toward -infinity.
template <typename T>
T ShiftRight(T a, int offset) {
  return a >> offset;
}

// Bitwise select: bits of then_val where if_mask is set, else else_val.
template <typename T>
T SelectUsingMask(T if_mask, T then_val, T else_val) {
  return BitXor(BitAnd(if_mask, then_val), BitAnd(BitNot(if_mask), else_val));
}

// All-ones if the condition holds, else zero.
template <typename T>
T MaskIfNonZero(T a) {
  static constexpr T kZero = 0;
  return a ? BitNot(kZero) : kZero;
}
template <typename T>
T MaskIfZero(T a) {
  return MaskIfNonZero<T>(!a);
}
template <typename T>
T MaskIfEqual(T a, T b) {
  return MaskIfNonZero<T>(a == b);
}
template <typename T>
T MaskIfNotEqual(T a, T b) {
  return MaskIfNonZero<T>(a != b);
}
template <typename T>
T MaskIfGreaterThan(T a, T b) {
  return MaskIfNonZero<T>(a > b);
}
template <typename T>
T MaskIfGreaterThanOrEqual(T a, T b) {
  return MaskIfNonZero<T>(a >= b);
}
template <typename T>
T MaskIfLessThan(T a, T b) {
  return MaskIfNonZero<T>(a < b);
}
template <typename T>
T MaskIfLessThanOrEqual(T a, T b) {
  return MaskIfNonZero<T>(a <= b);
}

template <typename T>
bool All(T a) {
  return a;
}
template <typename T>
bool Any(T a) {
  return a;
}

// (a + b) / 2 rounded to nearest, halves away from zero (ARM VRHADD).
inline std::int32_t RoundingHalfSum(std::int32_t a, std::int32_t b) {
  const std::int64_t sum = static_cast<std::int64_t>(a) + b;
  const std::int64_t sign = sum >= 0 ? 1 : -1;
  return static_cast<std::int32_t>((sum + sign) / 2);
}
inline std::int16_t RoundingHalfSum(std::int16_t a, std::int16_t b) {
  const std::int32_t sum = static_cast<std::int32_t>(a) + b;
  const std::int32_t sign = sum >= 0 ? 1 : -1;
  return static_cast<std::int16_t>((sum + sign) / 2);
}

// Saturating int16 addition.
inline std::int16_t SaturatingAdd(std::int16_t a, std::int16_t b) {
  const std::int32_t sum = static_cast<std::int32_t>(a) + b;
  return static_cast<std::int16_t>(
      std::min<std::int32_t>(32767, std::max<std::int32_t>(-32768, sum)));
}

// a + b, saturating for 16-bit types and plain for wider ones (as gemmlowp).
template <typename T>
T AddSaturatingIf16Bit(T a, T b) {
  if constexpr (sizeof(T) == 2) {
    return SaturatingAdd(a, b);
  } else {
    return Add(a, b);
  }
}

// The fixed-point product of a and b read as Q0.31 values: round(a*b / 2^31)
// with ties rounded toward +infinity, saturating the one overflow case
// (-1 * -1) to INT32_MAX. This is ARM's VQRDMULH.
inline std::int32_t SaturatingRoundingDoublingHighMul(std::int32_t a,
                                                      std::int32_t b) {
  const bool overflow = a == b && a == std::numeric_limits<std::int32_t>::min();
  const std::int64_t ab_64 = static_cast<std::int64_t>(a) * b;
  // Adding the nudge and then truncating toward zero (C++ division) rounds
  // half toward +infinity for both signs.
  const std::int32_t nudge = ab_64 >= 0 ? (1 << 30) : (1 - (1 << 30));
  const std::int32_t ab_x2_high32 =
      static_cast<std::int32_t>((ab_64 + nudge) / (INT64_C(1) << 31));
  return overflow ? std::numeric_limits<std::int32_t>::max() : ab_x2_high32;
}

// Q0.15 version of the above.
inline std::int16_t SaturatingRoundingDoublingHighMul(std::int16_t a,
                                                      std::int16_t b) {
  const bool overflow = a == b && a == std::numeric_limits<std::int16_t>::min();
  const std::int32_t ab_32 = static_cast<std::int32_t>(a) * b;
  const std::int16_t nudge = ab_32 >= 0 ? (1 << 14) : (1 - (1 << 14));
  const std::int16_t ab_x2_high16 =
      static_cast<std::int16_t>((ab_32 + nudge) / (1 << 15));
  return overflow ? std::numeric_limits<std::int16_t>::max() : ab_x2_high16;
}

// x / 2^exponent rounded to nearest, ties away from zero (a rounding
// arithmetic right shift). exponent must be in [0, 31].
template <typename IntegerType>
inline IntegerType RoundingDivideByPOT(IntegerType x, int exponent) {
  assert(exponent >= 0);
  assert(exponent <= 31);
  const IntegerType mask =
      static_cast<IntegerType>((static_cast<long long>(1) << exponent) - 1);
  const IntegerType zero = 0;
  const IntegerType one = 1;
  const IntegerType remainder = BitAnd(x, mask);
  // Negative x: the threshold is one higher, so an exact half rounds down
  // (away from zero) after the arithmetic shift.
  const IntegerType threshold =
      Add(ShiftRight(mask, 1), BitAnd(MaskIfLessThan(x, zero), one));
  return Add(ShiftRight(x, exponent),
             BitAnd(MaskIfGreaterThan(remainder, threshold), one));
}

// x * 2^Exponent for a compile-time Exponent: saturating left shift for
// Exponent > 0, RoundingDivideByPOT for Exponent < 0.
template <int Exponent, typename IntegerType>
IntegerType SaturatingRoundingMultiplyByPOT(IntegerType x) {
  if constexpr (Exponent == 0) {
    return x;
  } else if constexpr (Exponent < 0) {
    return RoundingDivideByPOT<IntegerType>(x, -Exponent);
  } else {
    using Scalar = typename FixedPointRawTypeTraits<IntegerType>::ScalarRawType;
    const IntegerType min = Dup<IntegerType>(std::numeric_limits<Scalar>::min());
    const IntegerType max = Dup<IntegerType>(std::numeric_limits<Scalar>::max());
    constexpr int kBits = 8 * sizeof(Scalar);
    const std::int32_t threshold = ((1 << (kBits - 1 - Exponent)) - 1);
    const IntegerType positive_mask =
        MaskIfGreaterThan(x, Dup<IntegerType>(threshold));
    const IntegerType negative_mask =
        MaskIfLessThan(x, Dup<IntegerType>(-threshold));
    IntegerType result = ShiftLeft(x, Exponent);
    result = SelectUsingMask(positive_mask, max, result);
    result = SelectUsingMask(negative_mask, min, result);
    return result;
  }
}

}  // namespace gemmlowp

#endif  // TENSORFLOW_LITE_KERNELS_INTERNAL_FIXEDPOINT_H_
