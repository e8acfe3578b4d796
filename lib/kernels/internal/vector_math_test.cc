#include "kernels/internal/vector_math.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace tflite {
namespace vector_math {
namespace {

double ExactSigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// How far got is from want: relative where want is a normal float's magnitude, absolute
// (in units of the smallest normal) below, where the functions may flush to zero.
double Error(float got, double want) {
  const double tiny = std::numeric_limits<float>::min();
  return std::fabs(got - want) / std::max(std::fabs(want), tiny);
}

std::vector<float> Arguments() {
  std::vector<float> xs;
  for (float x = -110.0f; x <= 110.0f; x += 0.0173f) xs.push_back(x);
  for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-8f, -1e-8f, 0.5f, -0.5f, 0.3465736f,
                  -0.3465736f, 87.0f, -87.0f, 88.7f, -88.7f, 103.9f, -103.9f, 104.5f, -104.5f,
                  1e30f, -1e30f, std::numeric_limits<float>::max(),
                  -std::numeric_limits<float>::max()}) {
    xs.push_back(x);
  }
  return xs;
}

// On every kernel (the ctest ISA caps run this on AVX2 and the portable lanes too): within a
// few ulp of the exact sigmoid and swish, relative, down to -80 (a sigmoid of 1.8e-35), and
// within a few smallest normal floats below; infinities give 0 and 1 (swish: -0 times 0 is
// 0); NaN stays NaN; every length (the tails), in place.
TEST_CASE("vector_math sigmoid and swish against double precision") {
  const std::vector<float> xs = Arguments();
  for (Function f : {Function::kSigmoid, Function::kSwish}) {
    CAPTURE(static_cast<int>(f));
    std::vector<float> out(xs.size());
    Apply(f, xs.data(), static_cast<int64_t>(xs.size()), out.data());
    double worst = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double x = xs[i];
      const double s = ExactSigmoid(x);
      const double want = f == Function::kSwish ? x * s : s;
      CAPTURE(x, out[i], want);
      REQUIRE(std::isfinite(out[i]));
      if (x >= -80.0) {
        worst = std::max(worst, Error(out[i], want));
      } else {
        // Below -80 (values under 2e-35): within 10 smallest normals, times |x| for swish.
        const double bound = 10.0 * std::numeric_limits<float>::min();
        CHECK(std::fabs(out[i] - want) <= (f == Function::kSwish ? -x : 1.0) * bound);
      }
    }
    CHECK(worst <= 5e-7);
    const float inf = std::numeric_limits<float>::infinity();
    const float special[] = {inf, -inf, std::nanf("")};
    float got[3];
    Apply(f, special, 3, got);
    if (f == Function::kSigmoid) {
      CHECK(got[0] == 1.0f);
      CHECK(got[1] >= 0.0f);  // 0, or the clamped exp's 4e-39 (vector_math.h)
      CHECK(got[1] <= 1e-38f);
    } else {
      CHECK(got[0] == inf);
    }
    CHECK(std::isnan(got[2]));
  }
  // Every length from 1 to 40 (whole vectors and tails), in place.
  for (int n = 1; n <= 40; ++n) {
    CAPTURE(n);
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = 0.37f * i - 6.0f;
    const std::vector<float> x = v;
    Apply(Function::kSwish, v.data(), n, v.data());
    for (int i = 0; i < n; ++i) CHECK(Error(v[i], x[i] * ExactSigmoid(x[i])) <= 5e-7);
  }
}

}  // namespace
}  // namespace vector_math
}  // namespace tflite
