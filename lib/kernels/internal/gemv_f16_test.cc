// The matrix-vector product on half weights against a double-precision loop over the same
// (float) weights, and ExactInHalf's edges.
#include "kernels/internal/gemv_f16.h"

#include <pthreadpool.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/internal/fp16.h"

namespace tflite_inspect {
namespace {

TEST_CASE("ExactInHalf: halves, signed zeros and subnormal halves yes, rounding, NaN payloads and float subnormals no") {
  using tflite::gemv_f16::ExactInHalf;
  const float yes[] = {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f /* 2^-14 */,
                       5.9604645e-08f /* 2^-24, the smallest subnormal half */,
                       std::numeric_limits<float>::infinity()};
  for (float v : yes) {
    CAPTURE(v);
    CHECK(ExactInHalf(&v, 1));
  }
  uint32_t payload_bits = 0x7FC00001u;  // a NaN payload a half cannot keep
  float payload;
  std::memcpy(&payload, &payload_bits, sizeof payload);
  const float no[] = {0.1f, 1.0f + 1.0f / 4096, 65520.0f, 1e-30f, 1e-40f, payload};
  for (float v : no) {
    CAPTURE(v);
    CHECK_FALSE(ExactInHalf(&v, 1));
  }
}

// IsHalf reads the bits; the definition is the round trip through FloatToHalf.
TEST_CASE("IsHalf is the round trip through half on every exponent, sign and many mantissas") {
  std::mt19937 rng(11);
  std::vector<uint32_t> mantissas = {0u, 1u, 0x7FFFFFu, 0x400000u, 0x1FFFu, 0x2000u, 0x3FFu << 13};
  for (int k = 0; k < 23; ++k) mantissas.push_back(1u << k);
  for (int k = 0; k < 200; ++k) mantissas.push_back(rng() & 0x7FFFFFu);
  size_t checked = 0;
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t e = 0; e < 256; ++e) {
      for (uint32_t m : mantissas) {
        const uint32_t bits = sign | (e << 23) | m;
        float v;
        std::memcpy(&v, &bits, sizeof v);
        const float back = tflite::fp16::HalfToFloat(tflite::fp16::FloatToHalf(v));
        CAPTURE(bits);
        REQUIRE(tflite::gemv_f16::IsHalf(v) == (std::memcmp(&back, &v, sizeof v) == 0));
        ++checked;
      }
    }
  }
  CHECK(checked == 2 * 256 * mantissas.size());
}

TEST_CASE("HalfWeights: one row times half weights, bias and clamp, one thread and a pool") {
  if (!tflite::gemv_f16::Available()) {
    WARN("skipped: no AVX-512F here, the product on half weights does not run");
    return;
  }
  pthreadpool_t pool = pthreadpool_create(2);
  uint32_t seed = 7;
  for (int n : {1, 15, 16, 17, 100, 1000}) {
    for (int k : {1, 3, 4, 5, 64, 1281}) {
      std::mt19937 rng(++seed);
      std::uniform_real_distribution<float> d(-1.0f, 1.0f);
      std::vector<float> w(static_cast<size_t>(n) * k), x(k), bias(n);
      for (float& v : w) v = tflite::fp16::HalfToFloat(tflite::fp16::FloatToHalf(d(rng)));
      for (float& v : x) v = d(rng);
      for (float& v : bias) v = d(rng);
      REQUIRE(tflite::gemv_f16::ExactInHalf(w.data(), w.size()));
      const tflite::gemv_f16::HalfWeights half(w.data(), n, k);
      for (bool with_bias : {false, true}) {
        for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
          CAPTURE(n, k, with_bias, p != nullptr);
          std::vector<float> y(n + 1, 12345.0f);
          half.Run(x.data(), with_bias ? bias.data() : nullptr, -3.0f, 3.5f, y.data(), p);
          REQUIRE(y[n] == 12345.0f);  // nothing written past n
          double worst = 0;
          for (int j = 0; j < n; ++j) {
            double acc = with_bias ? bias[j] : 0.0;
            for (int kk = 0; kk < k; ++kk) acc += static_cast<double>(w[static_cast<size_t>(j) * k + kk]) * x[kk];
            const double want = std::min(3.5, std::max(-3.0, acc));
            worst = std::max(worst, std::fabs(want - y[j]));
          }
          CHECK(worst <= 1e-5 * std::sqrt(static_cast<double>(k)) + 1e-6);
        }
      }
    }
  }
  pthreadpool_destroy(pool);
}

}  // namespace
}  // namespace tflite_inspect
