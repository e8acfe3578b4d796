// Shared arithmetic of TFLite's reference kernels: fixed-point requantization
// (MultiplyByQuantizedMultiplier*), activation clamps, broadcasting
// descriptors and lookup tables. Source-compatible with the scalar parts of
// upstream tensorflow/lite/kernels/internal/common.h.
//
// Rounding: by default (TFLITE_SINGLE_ROUNDING undefined or 0) requantization
// uses upstream's "double rounding" — gemmlowp's
// SaturatingRoundingDoublingHighMul followed by RoundingDivideByPOT — which is
// what stock TFLite reference kernels produce. Define TFLITE_SINGLE_ROUNDING=1
// for the single-rounding variant (as TFLite built with
// --define=tflite_single_rounding=true). Both are bit-exact with upstream.
//
// Not provided (need gemmlowp::FixedPoint): log_x_for_x_greater_than_or_equal_to_1,
// GetReciprocal, GetInvSqrtQuantizedMultiplierExp, the FixedPoint overloads
// of SaturatingAddNonGemmlowp / SaturatingSub, and the sigmoid LUT; nor the
// NEON paths.
#ifndef TENSORFLOW_LITE_KERNELS_INTERNAL_COMMON_H_
#define TENSORFLOW_LITE_KERNELS_INTERNAL_COMMON_H_

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

#include "tensorflow/lite/core/macros.h"
#include "tensorflow/lite/kernels/internal/compatibility.h"
#include "tensorflow/lite/kernels/internal/cppmath.h"
#include "tensorflow/lite/kernels/internal/fixedpoint.h"
#include "tensorflow/lite/kernels/internal/runtime_shape.h"
#include "tensorflow/lite/kernels/internal/types.h"

namespace tflite {

constexpr int kReverseShift = -1;

// a + b and a * b that wrap (two's complement) instead of being undefined
// behaviour for signed integers; plain arithmetic for floating point.
template <typename T>
inline T WrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    using P = std::common_type_t<U, unsigned int>;  // avoid promotion to int
    return static_cast<T>(static_cast<U>(static_cast<P>(static_cast<U>(a)) +
                                         static_cast<P>(static_cast<U>(b))));
  } else {
    return a + b;
  }
}

template <typename T>
inline T WrappingMul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    using P = std::common_type_t<U, unsigned int>;
    return static_cast<T>(static_cast<U>(static_cast<P>(static_cast<U>(a)) *
                                         static_cast<P>(static_cast<U>(b))));
  } else {
    return a * b;
  }
}

inline void GetActivationMinMax(FusedActivationFunctionType ac,
                                float* output_activation_min,
                                float* output_activation_max) {
  switch (ac) {
    case FusedActivationFunctionType::kNone:
      *output_activation_min = std::numeric_limits<float>::lowest();
      *output_activation_max = std::numeric_limits<float>::max();
      break;
    case FusedActivationFunctionType::kRelu:
      *output_activation_min = 0.f;
      *output_activation_max = std::numeric_limits<float>::max();
      break;
    case FusedActivationFunctionType::kRelu1:
      *output_activation_min = -1.f;
      *output_activation_max = 1.f;
      break;
    case FusedActivationFunctionType::kRelu6:
      *output_activation_min = 0.f;
      *output_activation_max = 6.f;
      break;
  }
}

// Clamps x to [output_activation_min, output_activation_max].
template <typename T>
inline T ActivationFunctionWithMinMax(T x, T output_activation_min,
                                      T output_activation_max) {
  using std::max;
  using std::min;
  return min(max(x, output_activation_min), output_activation_max);
}

// Legacy: clamp for a compile-time activation.
template <FusedActivationFunctionType Ac>
float ActivationFunction(float x) {
  float output_activation_min, output_activation_max;
  GetActivationMinMax(Ac, &output_activation_min, &output_activation_max);
  return ActivationFunctionWithMinMax(x, output_activation_min,
                                      output_activation_max);
}

// array_data[i] = clamp(array_data[i] + bias_data[i % bias_size]).
inline void BiasAndClamp(float clamp_min, float clamp_max, int bias_size,
                         const float* bias_data, int array_size,
                         float* array_data) {
  if (bias_size == 0) return;
  TFLITE_DCHECK_EQ((array_size % bias_size), 0);
  for (int array_offset = 0; array_offset < array_size;
       array_offset += bias_size) {
    for (int i = 0; i < bias_size; i++) {
      array_data[array_offset + i] = ActivationFunctionWithMinMax(
          array_data[array_offset + i] + bias_data[i], clamp_min, clamp_max);
    }
  }
}

// --- Requantization ------------------------------------------------------------
// x * quantized_multiplier * 2^shift, where quantized_multiplier is a Q0.31
// value (as produced by QuantizeMultiplier) and shift > 0 is a left shift.
#if defined(TFLITE_SINGLE_ROUNDING) && TFLITE_SINGLE_ROUNDING
inline int32_t MultiplyByQuantizedMultiplier(int32_t x,
                                             int32_t quantized_multiplier,
                                             int shift) {
  TFLITE_DCHECK(quantized_multiplier >= 0);
  TFLITE_DCHECK(shift >= -31 && shift <= 30);
  const int64_t total_shift = 31 - shift;
  const int64_t round = static_cast<int64_t>(1) << (total_shift - 1);
  int64_t result = x * static_cast<int64_t>(quantized_multiplier) + round;
  result = result >> total_shift;
  TFLITE_DCHECK(result >= std::numeric_limits<int32_t>::min() &&
                result <= std::numeric_limits<int32_t>::max());
  return static_cast<int32_t>(result);
}

inline int32_t MultiplyByQuantizedMultiplierSmallerThanOneExp(
    int32_t x, int32_t quantized_multiplier, int shift) {
  TFLITE_DCHECK_LE(shift, 0);
  return MultiplyByQuantizedMultiplier(x, quantized_multiplier, shift);
}

inline int32_t MultiplyByQuantizedMultiplierGreaterThanOne(
    int32_t x, int32_t quantized_multiplier, int shift) {
  TFLITE_DCHECK_GE(shift, 0);
  return MultiplyByQuantizedMultiplier(x, quantized_multiplier, shift);
}
#else
// Double rounding: round once in the doubling high multiply, once in the
// right shift. The left shift happens before the multiply and may overflow
// for large x * 2^shift, exactly as upstream.
inline int32_t MultiplyByQuantizedMultiplier(int32_t x,
                                             int32_t quantized_multiplier,
                                             int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(WrappingMul(x, int32_t{1} << left_shift),
                                                  quantized_multiplier),
      right_shift);
}

inline int32_t MultiplyByQuantizedMultiplierSmallerThanOneExp(
    int32_t x, int32_t quantized_multiplier, int left_shift) {
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(x, quantized_multiplier),
      -left_shift);
}

// x * 2^left_shift wrapping, as upstream's int multiply does in practice: -1 with the 31
// bits of headroom CountLeadingSignBits gives it (DIV) is -2^31, a value that fits, but
// 1 << 31 is INT32_MIN and -1 * INT32_MIN overflows.
inline int32_t MultiplyByQuantizedMultiplierGreaterThanOne(
    int32_t x, int32_t quantized_multiplier, int left_shift) {
  return gemmlowp::SaturatingRoundingDoublingHighMul(WrappingMul(x, int32_t{1} << left_shift),
                                                     quantized_multiplier);
}
#endif

// 64-bit accumulator version (int16 activations). The multiplier is reduced
// to 15 bits, then a single rounding shift is applied; this arithmetic is the
// same in both rounding modes. Requires shift in [-31, 7] and
// |x| < 2^47 (DCHECKed).
inline int32_t MultiplyByQuantizedMultiplier(int64_t x,
                                             int32_t quantized_multiplier,
                                             int shift) {
  TFLITE_DCHECK(quantized_multiplier >= 0);
  // Upstream DCHECKs these ranges; crafted parameters (a huge int64 bias) leave them,
  // so saturate instead of overflowing. Results inside the ranges are unchanged.
  shift = std::min(std::max(shift, -31), 7);
  x = std::min(std::max(x, -(static_cast<int64_t>(1) << 47)),
               (static_cast<int64_t>(1) << 47) - 1);
  const int32_t reduced_multiplier =
      (quantized_multiplier < 0x7FFF0000)
          ? ((quantized_multiplier + (1 << 15)) >> 16)
          : 0x7FFF;
  const int total_shift = 15 - shift;
  const int64_t result =
      (x * static_cast<int64_t>(reduced_multiplier) +
       (static_cast<int64_t>(1) << (total_shift - 1))) >>
      total_shift;
  return static_cast<int32_t>(result);
}

// --- Bit counting ------------------------------------------------------------------
template <typename T>
int CountLeadingZeros(T integer_input) {
  static_assert(std::is_unsigned<T>::value,
                "Only unsigned integer types handled.");
  if (integer_input == 0) return std::numeric_limits<T>::digits;
#if defined(__GNUC__)
  if (std::is_same<T, uint32_t>::value) {
    return __builtin_clz(static_cast<uint32_t>(integer_input));
  } else if (std::is_same<T, uint64_t>::value) {
    return __builtin_clzll(static_cast<uint64_t>(integer_input));
  }
#endif
  const T one_in_leading_positive = static_cast<T>(1)
                                    << (std::numeric_limits<T>::digits - 1);
  int leading_zeros = 0;
  while (integer_input < one_in_leading_positive) {
    integer_input <<= 1;
    ++leading_zeros;
  }
  return leading_zeros;
}

// Number of bits after the sign bit that equal it.
template <typename T>
inline int CountLeadingSignBits(T integer_input) {
  static_assert(std::is_signed<T>::value, "Only signed integer types handled.");
  using U = typename std::make_unsigned<T>::type;
  return integer_input >= 0
             ? CountLeadingZeros(static_cast<U>(integer_input)) - 1
         : integer_input != std::numeric_limits<T>::min()
             ? CountLeadingZeros(2 * static_cast<U>(-integer_input) - 1)
             : 0;
}

// floor(log2(n)) for n > 0.
template <typename Integer>
inline Integer FloorLog2(Integer n) {
  static_assert(std::is_integral<Integer>::value, "");
  static_assert(std::is_signed<Integer>::value, "");
  static_assert(sizeof(Integer) == 4 || sizeof(Integer) == 8, "");
  TFLITE_DCHECK_GT(n, 0);
  return sizeof(Integer) == 4 ? 30 - CountLeadingSignBits(n)
                              : 62 - CountLeadingSignBits(n);
}

// --- Saturating helpers ------------------------------------------------------------
inline std::int32_t SaturatingAddNonGemmlowp(std::int32_t a, std::int32_t b) {
  const std::int64_t sum = static_cast<std::int64_t>(a) + b;
  return static_cast<std::int32_t>(std::min<std::int64_t>(
      std::numeric_limits<std::int32_t>::max(),
      std::max<std::int64_t>(std::numeric_limits<std::int32_t>::min(), sum)));
}

inline std::int16_t SaturatingSub(std::int16_t a, std::int16_t b) {
  const std::int32_t diff = static_cast<std::int32_t>(a) - b;
  return static_cast<std::int16_t>(
      std::min<std::int32_t>(32767, std::max<std::int32_t>(-32768, diff)));
}

inline std::int32_t SaturatingSub(std::int32_t a, std::int32_t b) {
  const std::int64_t diff = static_cast<std::int64_t>(a) - b;
  return static_cast<std::int32_t>(std::min<std::int64_t>(
      std::numeric_limits<std::int32_t>::max(),
      std::max<std::int64_t>(std::numeric_limits<std::int32_t>::min(), diff)));
}

// x * 2^exponent for a run-time exponent >= 0, saturating.
template <typename IntegerType>
IntegerType SaturatingRoundingMultiplyByPOTParam(IntegerType x, int exponent) {
  if (exponent == 0) return x;
  using Scalar =
      typename gemmlowp::FixedPointRawTypeTraits<IntegerType>::ScalarRawType;
  const IntegerType min =
      gemmlowp::Dup<IntegerType>(std::numeric_limits<Scalar>::min());
  const IntegerType max =
      gemmlowp::Dup<IntegerType>(std::numeric_limits<Scalar>::max());
  const int kBits = 8 * sizeof(Scalar);
  const std::int32_t threshold = ((1 << (kBits - 1 - exponent)) - 1);
  const IntegerType positive_mask =
      gemmlowp::MaskIfGreaterThan(x, gemmlowp::Dup<IntegerType>(threshold));
  const IntegerType negative_mask =
      gemmlowp::MaskIfLessThan(x, gemmlowp::Dup<IntegerType>(-threshold));
  IntegerType result = gemmlowp::ShiftLeft(x, exponent);
  result = gemmlowp::SelectUsingMask(positive_mask, max, result);
  result = gemmlowp::SelectUsingMask(negative_mask, min, result);
  return result;
}

// Rounds a non-negative Q0.31 multiplier to Q0.15.
inline void DownScaleInt32ToInt16Multiplier(int32_t multiplier_int32_t,
                                            int16_t* multiplier_int16_t) {
  TFLITE_DCHECK_GE(multiplier_int32_t, 0);
  static constexpr int32_t kRoundingOffset = 1 << 15;
  if (multiplier_int32_t >=
      std::numeric_limits<int32_t>::max() - kRoundingOffset) {
    *multiplier_int16_t = std::numeric_limits<int16_t>::max();
    return;
  }
  const int32_t result = (multiplier_int32_t + kRoundingOffset) >> 16;
  *multiplier_int16_t = static_cast<int16_t>(result);
}

// Minimum integer bits of a fixed-point log of an input with `input_bits`
// integer bits.
constexpr int min_log_x_output_bits(int input_bits) {
  return input_bits > 90   ? 7
         : input_bits > 44 ? 6
         : input_bits > 21 ? 5
         : input_bits > 10 ? 4
         : input_bits > 4  ? 3
         : input_bits > 1  ? 2
                           : 1;
}

// --- Lookup tables -----------------------------------------------------------------
namespace detail {

template <typename FloatT, typename Func>
inline typename std::enable_if<std::is_same<Func, FloatT (*)(FloatT)>::value,
                               FloatT>::type
LUTTransform(Func transform, const void* /*transform_params*/, FloatT value) {
  return transform(value);
}

template <typename FloatT, typename Func>
inline typename std::enable_if<
    std::is_same<Func, FloatT (*)(FloatT, const void*)>::value, FloatT>::type
LUTTransform(Func transform, const void* transform_params, FloatT value) {
  return transform(value, transform_params);
}

// 256-entry table indexed by the input reinterpreted as uint8_t (so an int8
// table is ordered 0..127, -128..-1).
template <typename T, typename Func>
inline void LUTPopulateInt8(float input_scale, int32_t input_zero_point,
                            float output_scale, int32_t output_zero_point,
                            Func transform, const void* transform_params,
                            T* lut) {
  static_assert(
      std::is_same<T, uint8_t>::value || std::is_same<T, int8_t>::value,
      "T must be an uint8 or int8 type.");
  uint8_t* lut_uint8 = reinterpret_cast<uint8_t*>(lut);
  const float inverse_scale = 1 / output_scale;
  const int32_t maxval = std::numeric_limits<T>::max();
  const int32_t minval = std::numeric_limits<T>::min();
  for (int32_t val = minval; val <= maxval; ++val) {
    const float dequantized = input_scale * (val - input_zero_point);
    const float transformed =
        LUTTransform(transform, transform_params, dequantized);
    const float rescaled = TfLiteRound(transformed * inverse_scale);
    // Clamped as a float first: a crafted scale may put it beyond int32.
    const int32_t quantized = static_cast<int32_t>(std::max(
        static_cast<float>(minval),
        std::min(static_cast<float>(maxval), rescaled + output_zero_point)));
    lut_uint8[static_cast<uint8_t>(static_cast<T>(val))] = static_cast<uint8_t>(
        static_cast<T>(std::max(std::min(maxval, quantized), minval)));
  }
}

// 513-entry int16 table: 512 segments plus the end point, with each sample
// biased by half the interpolation error at the segment midpoint.
template <typename FloatT, typename Func>
inline void LUTPopulateInt16(FloatT input_scale, int32_t input_zero_point,
                             FloatT output_scale, int32_t output_zero_point,
                             Func transform, const void* transform_params,
                             int16_t* lut) {
  static_assert(std::is_floating_point<FloatT>::value,
                "FloatT must be a floating-point type.");
  const FloatT input_min =
      input_scale * (std::numeric_limits<int16_t>::min() - input_zero_point);
  const FloatT input_max =
      input_scale * (std::numeric_limits<int16_t>::max() - input_zero_point);
  const FloatT output_min =
      output_scale * (std::numeric_limits<int16_t>::min() - output_zero_point);
  const FloatT output_max =
      output_scale * (std::numeric_limits<int16_t>::max() - output_zero_point);

  const int nb_steps = 512;
  const FloatT step = (input_max - input_min) / nb_steps;
  const FloatT half_step = step / 2;
  const FloatT output_scaling_inv =
      static_cast<FloatT>(std::numeric_limits<int16_t>::max() -
                          std::numeric_limits<int16_t>::min() + 1) /
      (output_max - output_min);
  const FloatT table_min =
      static_cast<FloatT>(std::numeric_limits<int16_t>::min());
  const FloatT table_max =
      static_cast<FloatT>(std::numeric_limits<int16_t>::max());

  for (int i = 0; i < nb_steps; i++) {
    const FloatT val =
        LUTTransform<FloatT>(transform, transform_params, input_min + i * step);
    const FloatT val_midpoint = LUTTransform<FloatT>(
        transform, transform_params, input_min + i * step + half_step);
    const FloatT val_next = LUTTransform<FloatT>(transform, transform_params,
                                                 input_min + (i + 1) * step);

    const FloatT sample_val = TfLiteRound(val * output_scaling_inv);
    const FloatT midpoint_interp_val =
        TfLiteRound((val_next * output_scaling_inv +
                     TfLiteRound(val * output_scaling_inv)) /
                    2);
    const FloatT midpoint_val = TfLiteRound(val_midpoint * output_scaling_inv);
    const FloatT midpoint_err = midpoint_interp_val - midpoint_val;
    const FloatT bias = TfLiteRound(midpoint_err / 2);

    lut[i] = static_cast<int16_t>(std::min<FloatT>(
        std::max<FloatT>(sample_val - bias, table_min), table_max));
  }

  lut[nb_steps] = static_cast<int16_t>(std::min<FloatT>(
      std::max<FloatT>(TfLiteRound(LUTTransform<FloatT>(
                                       transform, transform_params, input_max) *
                                   output_scaling_inv),
                       table_min),
      table_max));
}

}  // namespace detail

template <typename T>
inline typename std::enable_if<std::is_same<T, uint8_t>::value ||
                                   std::is_same<T, int8_t>::value,
                               void>::type
LUTPopulate(float input_scale, int32_t input_zero_point, float output_scale,
            int32_t output_zero_point, float (*transform)(float), T* lut) {
  detail::LUTPopulateInt8(input_scale, input_zero_point, output_scale,
                          output_zero_point, transform, nullptr, lut);
}

template <typename T>
inline typename std::enable_if<std::is_same<T, uint8_t>::value ||
                                   std::is_same<T, int8_t>::value,
                               void>::type
LUTPopulate(float input_scale, int32_t input_zero_point, float output_scale,
            int32_t output_zero_point, float (*transform)(float, const void*),
            const void* transform_params, T* lut) {
  detail::LUTPopulateInt8(input_scale, input_zero_point, output_scale,
                          output_zero_point, transform, transform_params, lut);
}

template <typename T>
inline typename std::enable_if<std::is_same<T, int16_t>::value, void>::type
LUTPopulate(float input_scale, int32_t input_zero_point, float output_scale,
            int32_t output_zero_point, float (*transform)(float), T* lut) {
  detail::LUTPopulateInt16<float>(input_scale, input_zero_point, output_scale,
                                  output_zero_point, transform, nullptr, lut);
}

template <typename T>
inline typename std::enable_if<std::is_same<T, int16_t>::value, void>::type
LUTPopulate(float input_scale, int32_t input_zero_point, float output_scale,
            int32_t output_zero_point, float (*transform)(float, const void*),
            const void* transform_params, T* lut) {
  detail::LUTPopulateInt16<float>(input_scale, input_zero_point, output_scale,
                                  output_zero_point, transform,
                                  transform_params, lut);
}

// Deprecated double-precision variant, kept for compatibility.
template <typename T>
inline typename std::enable_if<std::is_same<T, int16_t>::value, void>::type
LUTPopulate(double input_scale, int32_t input_zero_point, double output_scale,
            int32_t output_zero_point, double (*transform)(double), T* lut) {
  detail::LUTPopulateInt16<double>(input_scale, input_zero_point, output_scale,
                                   output_zero_point, transform, nullptr, lut);
}

// 256 entries for 8-bit inputs, 513 for int16.
template <typename T>
constexpr int LUTSize() {
  static_assert(std::is_same<T, uint8_t>::value ||
                    std::is_same<T, int8_t>::value ||
                    std::is_same<T, int16_t>::value,
                "Only LUTs with uint8, int8 or int16 inputs are supported.");
  return (std::is_same<T, uint8_t>::value || std::is_same<T, int8_t>::value)
             ? 256
             : 513;
}

// int16: the top 9 bits pick a segment, the low 7 bits interpolate in it.
inline int16_t LUTLookup(int16_t value, const int16_t* lut) {
  const uint16_t index = static_cast<uint16_t>(256 + (value >> 7));
  assert(index < 512 && "LUT index out of range.");
  const int16_t offset = value & 0x7f;
  const int16_t base = lut[index];
  const int16_t slope = lut[index + 1] - lut[index];
  const int delta = (slope * offset + 64) >> 7;  // round Q0.(x+7) to Q0.x
  return static_cast<int16_t>(base + delta);
}

inline int8_t LUTLookup(int8_t value, const int8_t* lut) {
  return lut[static_cast<uint8_t>(value)];
}

inline uint8_t LUTLookup(uint8_t value, const uint8_t* lut) {
  return lut[value];
}

// --- Broadcasting ------------------------------------------------------------------
// Extents and element strides of an N-d array; a broadcast dimension has
// stride 0. Only for implementing broadcasting.
template <int N>
struct NdArrayDesc {
  int extents[N];
  int strides[N];
};

// Element index of a subscript (no bounds checks beyond DCHECKs).
inline int SubscriptToIndex(const NdArrayDesc<4>& desc, int i0, int i1, int i2,
                            int i3) {
  TFLITE_DCHECK(i0 >= 0 && i0 < desc.extents[0]);
  TFLITE_DCHECK(i1 >= 0 && i1 < desc.extents[1]);
  TFLITE_DCHECK(i2 >= 0 && i2 < desc.extents[2]);
  TFLITE_DCHECK(i3 >= 0 && i3 < desc.extents[3]);
  return i0 * desc.strides[0] + i1 * desc.strides[1] + i2 * desc.strides[2] +
         i3 * desc.strides[3];
}

inline int SubscriptToIndex(const NdArrayDesc<5>& desc, int indexes[5]) {
  return indexes[0] * desc.strides[0] + indexes[1] * desc.strides[1] +
         indexes[2] * desc.strides[2] + indexes[3] * desc.strides[3] +
         indexes[4] * desc.strides[4];
}

inline int SubscriptToIndex(const NdArrayDesc<8>& desc, int indexes[8]) {
  return indexes[0] * desc.strides[0] + indexes[1] * desc.strides[1] +
         indexes[2] * desc.strides[2] + indexes[3] * desc.strides[3] +
         indexes[4] * desc.strides[4] + indexes[5] * desc.strides[5] +
         indexes[6] * desc.strides[6] + indexes[7] * desc.strides[7];
}

// Legacy Dims<N> version: both inputs already have N dimensions. Where the
// extents differ, the size-1 side gets the other's extent and stride 0.
template <int N>
inline void NdArrayDescsForElementwiseBroadcast(const Dims<N>& input0_dims,
                                                const Dims<N>& input1_dims,
                                                NdArrayDesc<N>* desc0_out,
                                                NdArrayDesc<N>* desc1_out) {
  TFLITE_DCHECK(desc0_out != nullptr);
  TFLITE_DCHECK(desc1_out != nullptr);
  for (int i = 0; i < N; ++i) {
    desc0_out->extents[i] = input0_dims.sizes[i];
    desc0_out->strides[i] = input0_dims.strides[i];
    desc1_out->extents[i] = input1_dims.sizes[i];
    desc1_out->strides[i] = input1_dims.strides[i];
  }
  for (int i = 0; i < N; ++i) {
    const int extent0 = ArraySize(input0_dims, i);
    const int extent1 = ArraySize(input1_dims, i);
    if (extent0 != extent1) {
      if (extent0 == 1) {
        desc0_out->strides[i] = 0;
        desc0_out->extents[i] = extent1;
      } else {
        TFLITE_DCHECK_EQ(extent1, 1);
        desc1_out->strides[i] = 0;
        desc1_out->extents[i] = extent0;
      }
    }
  }
}

// Row-major extents and strides of `input_shape` (which has N dimensions).
template <int N>
TFLITE_NOINLINE void CopyDimsToDesc(const RuntimeShape& input_shape,
                                    NdArrayDesc<N>* desc_out) {
  int desc_stride = 1;
  for (int i = N - 1; i >= 0; --i) {
    desc_out->extents[i] = input_shape.Dims(i);
    desc_out->strides[i] = desc_stride;
    desc_stride *= input_shape.Dims(i);
  }
}

// Shapes are right-aligned and padded to N dimensions with leading 1s, then
// broadcast dimensions get stride 0. The shapes must be broadcast-compatible
// (checked in Prepare, DCHECKed here).
template <int N>
inline void NdArrayDescsForElementwiseBroadcast(
    const RuntimeShape& input0_shape, const RuntimeShape& input1_shape,
    NdArrayDesc<N>* desc0_out, NdArrayDesc<N>* desc1_out) {
  TFLITE_DCHECK(desc0_out != nullptr);
  TFLITE_DCHECK(desc1_out != nullptr);
  auto extended_input0_shape = RuntimeShape::ExtendedShape(N, input0_shape);
  auto extended_input1_shape = RuntimeShape::ExtendedShape(N, input1_shape);
  CopyDimsToDesc<N>(extended_input0_shape, desc0_out);
  CopyDimsToDesc<N>(extended_input1_shape, desc1_out);
  for (int i = 0; i < N; ++i) {
    const int extent0 = extended_input0_shape.Dims(i);
    const int extent1 = extended_input1_shape.Dims(i);
    if (extent0 != extent1) {
      if (extent0 == 1) {
        desc0_out->strides[i] = 0;
        desc0_out->extents[i] = extent1;
      } else {
        TFLITE_DCHECK_EQ(extent1, 1);
        desc1_out->strides[i] = 0;
        desc1_out->extents[i] = extent0;
      }
    }
  }
}

template <int N>
inline void NdArrayDescsForElementwiseBroadcast(
    const RuntimeShape& input0_shape, const RuntimeShape& input1_shape,
    const RuntimeShape& input2_shape, NdArrayDesc<N>* desc0_out,
    NdArrayDesc<N>* desc1_out, NdArrayDesc<N>* desc2_out) {
  TFLITE_DCHECK(desc0_out != nullptr);
  TFLITE_DCHECK(desc1_out != nullptr);
  TFLITE_DCHECK(desc2_out != nullptr);
  auto extended_input0_shape = RuntimeShape::ExtendedShape(N, input0_shape);
  auto extended_input1_shape = RuntimeShape::ExtendedShape(N, input1_shape);
  auto extended_input2_shape = RuntimeShape::ExtendedShape(N, input2_shape);
  CopyDimsToDesc<N>(extended_input0_shape, desc0_out);
  CopyDimsToDesc<N>(extended_input1_shape, desc1_out);
  CopyDimsToDesc<N>(extended_input2_shape, desc2_out);
  for (int i = 0; i < N; ++i) {
    const int extent0 = extended_input0_shape.Dims(i);
    const int extent1 = extended_input1_shape.Dims(i);
    const int extent2 = extended_input2_shape.Dims(i);
    int extent = extent0;
    if (extent1 != 1) extent = extent1;
    if (extent2 != 1) extent = extent2;
    TFLITE_DCHECK(extent0 == 1 || extent0 == extent);
    TFLITE_DCHECK(extent1 == 1 || extent1 == extent);
    TFLITE_DCHECK(extent2 == 1 || extent2 == extent);
    if (!(extent0 == extent1 && extent1 == extent2)) {
      if (extent0 == 1) {
        desc0_out->strides[i] = 0;
        desc0_out->extents[i] = extent;
      }
      if (extent1 == 1) {
        desc1_out->strides[i] = 0;
        desc1_out->extents[i] = extent;
      }
      if (extent2 == 1) {
        desc2_out->strides[i] = 0;
        desc2_out->extents[i] = extent;
      }
    }
  }
}

// Calls calc(indexes) for every index of `output`, in row-major order
// (equivalent to N nested loops).
template <int N, int DIM, typename Calc>
typename std::enable_if<DIM != N - 1, void>::type NDOpsHelperImpl(
    const NdArrayDesc<N>& output, const Calc& calc, int indexes[N]) {
  for (indexes[DIM] = 0; indexes[DIM] < output.extents[DIM]; ++indexes[DIM]) {
    NDOpsHelperImpl<N, DIM + 1, Calc>(output, calc, indexes);
  }
}

template <int N, int DIM, typename Calc>
typename std::enable_if<DIM == N - 1, void>::type NDOpsHelperImpl(
    const NdArrayDesc<N>& output, const Calc& calc, int indexes[N]) {
  for (indexes[DIM] = 0; indexes[DIM] < output.extents[DIM]; ++indexes[DIM]) {
    calc(indexes);
  }
}

template <int N, typename Calc>
inline void NDOpsHelper(const NdArrayDesc<N>& output, const Calc& calc) {
  int indexes[N] = {0};
  NDOpsHelperImpl<N, 0, Calc>(output, calc, indexes);
}

// i rounded down / up to a multiple of Modulus; ceil(a / b).
template <unsigned Modulus, typename Integer>
Integer RoundDown(Integer i) {
  return i - (i % Modulus);
}

template <unsigned Modulus, typename Integer>
Integer RoundUp(Integer i) {
  return RoundDown<Modulus>(i + Modulus - 1);
}

template <typename Integer>
Integer CeilQuotient(Integer a, Integer b) {
  return (a + b - 1) / b;
}

}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_INTERNAL_COMMON_H_
