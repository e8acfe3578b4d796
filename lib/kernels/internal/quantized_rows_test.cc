#include "kernels/internal/quantized_rows.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"

namespace tflite_inspect {
namespace {

// Parameters as ADD's Prepare derives them (left shift 20), from random scales and zero
// points; SQUARED_DIFFERENCE's (left shift 7, the square of the rescale); MUL's from the
// product of the scales.
template <typename T>
tflite::ArithmeticParams RandomParams(std::mt19937& rng, bool mul, bool squared = false) {
  std::uniform_real_distribution<double> log_scale(-9.0, -2.0);
  const double s1 = std::exp2(log_scale(rng)), s2 = std::exp2(log_scale(rng));
  const double so = std::exp2(log_scale(rng) + (mul ? -4.0 : 1.5));
  const int lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  std::uniform_int_distribution<int> zp(lo, hi);
  tflite::ArithmeticParams p{};
  p.input1_offset = -zp(rng);
  p.input2_offset = -zp(rng);
  p.output_offset = zp(rng);
  p.quantized_activation_min = rng() % 3 == 0 ? std::max(lo, p.output_offset) : lo;
  p.quantized_activation_max = hi;
  if (mul) {
    tflite::QuantizeMultiplier(s1 * s2 / so, &p.output_multiplier, &p.output_shift);
  } else {
    p.left_shift = squared ? 7 : 20;
    const double twice_max = 2 * std::max(s1, s2);
    tflite::QuantizeMultiplierSmallerThanOneExp(s1 / twice_max, &p.input1_multiplier,
                                                &p.input1_shift);
    tflite::QuantizeMultiplierSmallerThanOneExp(s2 / twice_max, &p.input2_multiplier,
                                                &p.input2_shift);
    const double out = squared ? twice_max * twice_max / ((1 << 14) * so * so * 1e3)
                               : twice_max / ((1 << 20) * so);
    tflite::QuantizeMultiplierSmallerThanOneExp(std::min(0.99, out), &p.output_multiplier,
                                                &p.output_shift);
  }
  return p;
}

template <typename T>
void CheckRows(uint32_t seed) {
  std::mt19937 rng(seed);
  const int lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  std::uniform_int_distribution<int> value(lo, hi);
  const int strides[][2] = {{1, 1}, {0, 1}, {1, 0}};
  for (int op = 0; op < 4; ++op) {  // add, sub, mul, squared difference (int8)
    if (op == 3 && !std::is_same_v<T, int8_t>) continue;
    const tflite::ArithmeticParams p = RandomParams<T>(rng, op == 2, op == 3);
    for (const auto& s : strides) {
      const int64_t n = std::uniform_int_distribution<int>(0, 70)(rng);
      std::vector<T> a(std::max<int64_t>(n, 1)), b(std::max<int64_t>(n, 1)), got(n), want(n);
      for (auto& v : a) v = static_cast<T>(value(rng));
      for (auto& v : b) v = static_cast<T>(value(rng));
      for (int64_t i = 0; i < n; ++i) {
        const T x = a[i * s[0]], y = b[i * s[1]];
        if constexpr (std::is_same_v<T, int8_t>) {
          if (op == 3) {
            want[i] = tflite::elementwise::QuantizedSquaredDifference(p, x, y);
            continue;
          }
        }
        want[i] = op == 2 ? tflite::elementwise::QuantizedMul(p, x, y)
                          : tflite::elementwise::QuantizedAddSub(p, x, y, op == 1);
      }
      if constexpr (std::is_same_v<T, int8_t>) {
        if (op == 3) {
          tflite::elementwise::QuantizedSquaredDifferenceRow(p, a.data(), s[0], b.data(), s[1],
                                                             got.data(), n);
        }
      }
      if (op == 3) {
      } else if (op == 2) {
        tflite::elementwise::QuantizedMulRow(p, a.data(), s[0], b.data(), s[1], got.data(), n);
      } else {
        tflite::elementwise::QuantizedAddSubRow(p, op == 1, a.data(), s[0], b.data(), s[1],
                                                got.data(), n);
      }
      CAPTURE(seed, op, s[0], s[1], n);
      REQUIRE(got == want);
    }
  }
}

TEST_CASE("Quantized ADD / SUB / MUL rows (vector and scalar) give the reference's bytes") {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    CheckRows<int8_t>(seed);
    CheckRows<uint8_t>(seed + 10000);
  }
}

}  // namespace
}  // namespace tflite_inspect
