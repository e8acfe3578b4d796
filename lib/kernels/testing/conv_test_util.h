// Test-only helpers of the conv family tests (CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED): seeded random data, an independently written copy of TFLite's
// requantization arithmetic (int64 based, following upstream's reference code, not the
// runtime's headers), quantized activation ranges, and float tolerance checks.
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_CONV_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_CONV_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
namespace conv_test {

inline std::vector<float> RandomFloats(std::mt19937& rng, size_t n, float lo = -1.f,
                                       float hi = 1.f) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

template <typename T>
std::vector<T> RandomInts(std::mt19937& rng, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

inline int RandInt(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// --- Requantization, as upstream's reference code computes it -----------------------
inline int32_t RefDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::max();
  }
  const int64_t ab = static_cast<int64_t>(a) * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

inline int32_t RefRoundingDivideByPOT(int32_t x, int exponent) {
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t remainder = static_cast<int64_t>(x) & mask;
  const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((static_cast<int64_t>(x) >> exponent) +
                              (remainder > threshold ? 1 : 0));
}

inline int32_t RefMultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const int32_t shifted = static_cast<int32_t>(static_cast<int64_t>(x) * (int64_t{1} << left));
  return RefRoundingDivideByPOT(RefDoublingHighMul(shifted, multiplier), right);
}

// Upstream's int64 overload (16x8 kernels with int64 accumulators): the Q0.31 multiplier
// rounded to 15 bits (0x7FFF when that would overflow), then a single rounding shift that
// rounds halves up (towards +infinity), unlike the int32 overload's away-from-zero.
inline int32_t RefMultiplyByQuantizedMultiplier64(int64_t x, int32_t multiplier, int shift) {
  const int64_t reduced =
      multiplier < 0x7FFF0000 ? (static_cast<int64_t>(multiplier) + (1 << 15)) / (1 << 16) : 0x7FFF;
  const int64_t divisor = int64_t{1} << (15 - shift);
  const int64_t num = x * reduced + divisor / 2;
  // floor(num / divisor) for either sign.
  const int64_t q = num / divisor;
  return static_cast<int32_t>(num % divisor != 0 && num < 0 ? q - 1 : q);
}

// TFLite's FullyConnected references (checked on testdata/kernels): one rounding of
// x * multiplier / 2^(31 - shift), halves towards +infinity, exact in 128 bits.
inline int64_t RefSingleRoundingMultiply(int64_t x, int32_t multiplier, int shift) {
  const int total_shift = 31 - shift;
  const __int128 p = static_cast<__int128>(x) * multiplier;
  const __int128 d = static_cast<__int128>(1) << total_shift;
  const __int128 num = p + d / 2;
  __int128 q = num / d;  // floor(num / d) for either sign
  if (num % d != 0 && num < 0) q -= 1;
  return static_cast<int64_t>(q);
}

// Upstream QuantizeMultiplier: Q0.31 significand and exponent of `m`.
inline void RefQuantizeMultiplier(double m, int32_t* q, int* shift) {
  if (m == 0.0) {
    *q = 0;
    *shift = 0;
    return;
  }
  const double frac = std::frexp(m, shift);
  int64_t fixed = static_cast<int64_t>(std::round(frac * (int64_t{1} << 31)));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    fixed = 0;
  }
  *q = static_cast<int32_t>(fixed);
}

// CalculateActivationRangeQuantized for a clamping activation.
template <typename T>
void RefActivationRange(tflite::ActivationFunctionType act, float scale, int32_t zp, int32_t* lo,
                        int32_t* hi) {
  const int32_t qmin = std::numeric_limits<T>::min();
  const int32_t qmax = std::numeric_limits<T>::max();
  auto q = [&](float f) { return zp + static_cast<int32_t>(std::round(f / scale)); };
  *lo = qmin;
  *hi = qmax;
  if (act == tflite::ActivationFunctionType_RELU) {
    *lo = std::max(qmin, q(0.f));
  } else if (act == tflite::ActivationFunctionType_RELU6) {
    *lo = std::max(qmin, q(0.f));
    *hi = std::min(qmax, q(6.f));
  } else if (act == tflite::ActivationFunctionType_RELU_N1_TO_1) {
    *lo = std::max(qmin, q(-1.f));
    *hi = std::min(qmax, q(1.f));
  }
}

inline void RefFloatActivation(tflite::ActivationFunctionType act, double* v) {
  if (act == tflite::ActivationFunctionType_RELU) *v = std::max(*v, 0.0);
  if (act == tflite::ActivationFunctionType_RELU6) *v = std::min(std::max(*v, 0.0), 6.0);
  if (act == tflite::ActivationFunctionType_RELU_N1_TO_1) {
    *v = std::min(std::max(*v, -1.0), 1.0);
  }
}

inline tflite::ActivationFunctionType RandomActivation(std::mt19937& rng) {
  static const tflite::ActivationFunctionType kActs[] = {
      tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU,
      tflite::ActivationFunctionType_RELU6, tflite::ActivationFunctionType_RELU_N1_TO_1};
  return kActs[RandInt(rng, 0, 3)];
}

// Float results must match the double evaluation to 1e-5 of the magnitude of the summed
// terms (sum |a*b| + |bias|): relative to the result itself when nothing cancels.
inline bool CloseTo(float got, double want, double magnitude) {
  return std::abs(static_cast<double>(got) - want) <= 1e-5 * std::max(1e-6, magnitude);
}

}  // namespace conv_test
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_CONV_TEST_UTIL_H_
