#include "kernels/internal/logistic_f32.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/testing/float_bits_test_util.h"

namespace tflite {
namespace logistic_f32 {
namespace {

// Eigen's packet logistic on one float, written out with plain float operations (this
// file is built without FMA or contraction) and a true division: what each SSE lane of
// TFLite's builtin kernel computes.
__attribute__((optimize("fp-contract=off"))) float PacketLane(float x0) {
  float x = 16.6355324f < x0 ? 16.6355324f : x0;
  x = x * 0.5f;
  const float t = x * 1.44269504088896341f + 0.5f;
  const float m = std::floor(t);
  float r = m * -0.693359375f;
  r = r + x;
  r = m * 2.12194440e-4f + r;
  const float r2 = r * r;
  const float p_even = r2 * 4.1898667812347412109375e-2f + 0.49999141693115234375f;
  const float p_odd = r2 * 8.33471305668354034423828125e-3f + 0.16666877269744873046875f;
  const float p_low = r + 1.0f;
  float p = r * p_odd + p_even;
  p = r2 * p + p_low;
  float e = std::ldexp(p, static_cast<int>(m));
  e = e * e;
  const float y = e / (e + 1.0f);
  return x0 < -104.0f ? 0.0f : y;
}

// Eigen's scalar path (the tensor's last n % 4 values).
float ScalarLane(float x) {
  const float e = std::exp(std::min(x, 16.6355324f));
  return e / (1.0f + e);
}

using tflite_inspect::testing::SameBits;

std::vector<float> Arguments() {
  std::vector<float> xs;
  for (float x = -120.0f; x <= 30.0f; x += 0.00731f) xs.push_back(x);
  tflite_inspect::testing::AppendRandomBitFloats(5, 100000, &xs);
  for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, -9.0f, -87.3f, -103.99f, -104.0f, -104.01f,
                  16.6355324f, 16.64f, 88.8f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::max()}) {
    xs.push_back(x);
  }
  while (xs.size() % 4 != 0) xs.push_back(1.0f);
  return xs;
}

// On every kernel (the ctest ISA caps run the AVX2 and portable lanes too).
TEST_CASE("logistic_f32 is Eigen's float logistic bit for bit, packets and scalar tail") {
  const std::vector<float> xs = Arguments();
  std::vector<float> y(xs.size()), s(xs.size());
  Logistic(xs.data(), y.data(), static_cast<int64_t>(xs.size()));
  Swish(xs.data(), s.data(), static_cast<int64_t>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) {
    CAPTURE(i, xs[i], y[i], PacketLane(xs[i]));
    REQUIRE(SameBits(y[i], PacketLane(xs[i])));
    REQUIRE(SameBits(s[i], xs[i] * PacketLane(xs[i])));
  }
  // Every length: the last n % 4 values take the scalar path; in place.
  for (int n = 1; n <= 41; ++n) {
    CAPTURE(n);
    std::vector<float> v(xs.begin() + 1000, xs.begin() + 1000 + n);
    Logistic(v.data(), v.data(), n);
    for (int i = 0; i < n; ++i) {
      const float x = xs[1000 + i];
      CAPTURE(i, x);
      REQUIRE(SameBits(v[i], i >= (n & ~3) ? ScalarLane(x) : PacketLane(x)));
    }
  }
  // A part of a tensor: its own scalar tail.
  std::vector<float> part(xs.begin() + 2000, xs.begin() + 2013);
  SwishPart(part.data(), part.data(), 13, 2);
  for (int i = 0; i < 13; ++i) {
    const float x = xs[2000 + i];
    REQUIRE(SameBits(part[i], x * (i >= 11 ? ScalarLane(x) : PacketLane(x))));
  }
}

// Every float through the vector lanes of this CPU (about a minute).
TEST_CASE("logistic_f32 over every float", "[.exhaustive]") {
  CHECK(tflite_inspect::testing::DifferencesOverEveryFloat(Logistic, PacketLane) == 0);
}

}  // namespace
}  // namespace logistic_f32
}  // namespace tflite
