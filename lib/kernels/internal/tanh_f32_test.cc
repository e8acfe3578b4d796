#include "kernels/internal/tanh_f32.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/testing/float_bits_test_util.h"

namespace tflite {
namespace tanh_f32 {
namespace {

// Eigen's ptanh_float on one float, written out with plain float operations (this file
// is built without FMA or contraction): what each SSE lane and the scalar path of TFLite's
// builtin kernel compute.
__attribute__((optimize("fp-contract=off"))) float Lane(float a) {
  const float c = 7.90738964080810547f;
  const float x = std::isnan(a) ? a : std::fmax(std::fmin(a, c), -c);
  const float x2 = x * x;
  const float x3 = x2 * x;
  float p = x2 * 1.394553628e-8f;
  p = p + 2.102733560e-5f;
  p = p * x2 + 3.520756727e-3f;
  p = p * x2 + 1.340216100e-1f;
  float q = x2 * 8.015776984e-7f + 3.326951409e-4f;
  q = q * x2 + 2.597254514e-2f;
  q = q * x2 + 4.673548340e-1f;
  q = q * x2 + 1.0f;
  return (x3 * p + x) / q;
}

using tflite_inspect::testing::SameBits;

// On every kernel (the ctest ISA caps run the AVX2 and portable lanes too).
TEST_CASE("tanh_f32 is Eigen's float tanh bit for bit on every length") {
  std::vector<float> xs;
  for (float x = -12.0f; x <= 12.0f; x += 0.000731f) xs.push_back(x);
  tflite_inspect::testing::AppendRandomBitFloats(9, 100000, &xs);
  for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 4e-4f, 7.9073896f, 7.90738964080810547f, 7.91f,
                  -7.91f, 1e30f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::max()}) {
    xs.push_back(x);
  }
  std::vector<float> y(xs.size());
  Tanh(xs.data(), y.data(), static_cast<int64_t>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) {
    CAPTURE(i, xs[i], y[i], Lane(xs[i]));
    REQUIRE(SameBits(y[i], Lane(xs[i])));
    // And it is tanh: within 3e-7 (Eigen's stated couple of ulps), +-1 from the clamp on.
    if (!std::isnan(xs[i])) REQUIRE(std::fabs(y[i] - std::tanh(double{xs[i]})) <= 3e-7);
  }
  REQUIRE(y[xs.size() - 1 - 3] == -1.0f);  // -inf
  REQUIRE(std::isnan(y[xs.size() - 1 - 2]));
  // Every length, in place (partial vectors).
  for (int n = 1; n <= 41; ++n) {
    CAPTURE(n);
    std::vector<float> v(xs.begin() + 5000, xs.begin() + 5000 + n);
    Tanh(v.data(), v.data(), n);
    for (int i = 0; i < n; ++i) REQUIRE(SameBits(v[i], Lane(xs[5000 + i])));
  }
}

// Every float through the vector lanes of this CPU.
TEST_CASE("tanh_f32 over every float", "[.exhaustive]") {
  CHECK(tflite_inspect::testing::DifferencesOverEveryFloat(Tanh, Lane) == 0);
}

}  // namespace
}  // namespace tanh_f32
}  // namespace tflite
