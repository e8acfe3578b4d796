#include "kernels/internal/vector_math.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
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

// Softmax (the ctest ISA caps run the portable lanes too) against double precision: rows
// of every length up to 40 (the tails) and long ones, values spread over small and large
// ranges (exponentials that underflow to 0), a large negative mask value and -inf as
// attention masks add them, beta 1 and 0.5, in place; a NaN makes its row NaN. Seeded.
TEST_CASE("vector_math softmax against double precision") {
  std::mt19937 rng(77);
  std::vector<int> depths;
  for (int d = 1; d <= 40; ++d) depths.push_back(d);
  for (int d : {100, 127, 1000, 3001}) depths.push_back(d);
  for (int depth : depths) {
    for (float spread : {1.0f, 20.0f, 200.0f}) {
      for (float beta : {1.0f, 0.5f}) {
        const int rows = 3;
        std::uniform_real_distribution<float> dist(-spread, spread);
        std::vector<float> x(static_cast<size_t>(rows) * depth);
        for (auto& v : x) v = dist(rng);
        x[0] = -1e9f;
        if (depth > 2) x[depth + 1] = -std::numeric_limits<float>::infinity();
        std::vector<float> got(x.size()), in_place = x;
        Softmax(x.data(), rows, depth, beta, got.data());
        Softmax(in_place.data(), rows, depth, beta, in_place.data());
        REQUIRE(in_place == got);
        for (int r = 0; r < rows; ++r) {
          const float* xr = x.data() + static_cast<size_t>(r) * depth;
          float max = xr[0];
          for (int c = 1; c < depth; ++c) max = std::max(max, xr[c]);
          // The argument as float arithmetic rounds it (as TFLite's kernels do): exact from
          // there on.
          auto exact = [&](int c) {
            const float t = (xr[c] - max) * beta;
            return std::exp(static_cast<double>(t));
          };
          double sum = 0;
          for (int c = 0; c < depth; ++c) sum += exact(c);
          for (int c = 0; c < depth; ++c) {
            const double want = exact(c) / sum;
            const float g = got[static_cast<size_t>(r) * depth + c];
            CAPTURE(depth, spread, beta, r, c, xr[c], g, want);
            REQUIRE(std::isfinite(g));
            // Relative (the row sum in float lanes: 1e-5 over 3,001 values) where the value
            // is a normal float's size; below that, absolute.
            CHECK(std::fabs(g - want) <= 1e-5 * want + 1e-37);
          }
        }
      }
    }
  }
  std::vector<float> row = {1.0f, std::nanf(""), 2.0f, 3.0f, 0.5f, 0.25f, 4.0f, 1.0f, 2.0f};
  Softmax(row.data(), 1, static_cast<int>(row.size()), 1.0f, row.data());
  for (float v : row) CHECK(std::isnan(v));
}

// The GELU forms (the ctest ISA caps run the portable lanes too) against double precision:
// the erf form within 1e-6 |x| + 1e-7 of x Phi(x) (the fitted erf's 6e-7), the tanh form
// within a few ulp relative of x sigmoid(2u) (down to where it is a normal float's size);
// every length (tails), NaN stays NaN.
TEST_CASE("vector_math GELU forms against double precision") {
  std::vector<float> xs;
  for (float x = -12.0f; x <= 12.0f; x += 0.00173f) xs.push_back(x);
  for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 5.5437f, -5.5437f, 30.0f, -30.0f}) {
    xs.push_back(x);
  }
  std::vector<float> out(xs.size());
  Apply(Function::kGelu, xs.data(), static_cast<int64_t>(xs.size()), out.data());
  for (size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const double want = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    CAPTURE(x, out[i], want);
    REQUIRE(std::fabs(out[i] - want) <= 1e-6 * std::fabs(x) + 1e-7);
  }
  Apply(Function::kGeluTanh, xs.data(), static_cast<int64_t>(xs.size()), out.data());
  for (size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const double u = std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
    const double want = x * ExactSigmoid(2.0 * u);
    CAPTURE(x, out[i], want);
    // Relative where the value is a normal float's size (below, absolute): the sigmoid's
    // few ulp, and the float argument 2u's rounding, which exp turns into a relative error
    // of |2u| ulp.
    const double bound = 5e-7 + 1.5e-7 * std::fabs(2.0 * u);
    REQUIRE(std::fabs(out[i] - want) <= bound * std::fabs(want) + 1e-30);
  }
  for (Function f : {Function::kGelu, Function::kGeluTanh}) {
    for (int n = 1; n <= 20; ++n) {
      std::vector<float> v(n), w(n);
      for (int i = 0; i < n; ++i) v[i] = 0.41f * i - 3.0f;
      Apply(f, v.data(), n, w.data());
      for (int i = 0; i < n; ++i) {
        float one;
        Apply(f, &v[i], 1, &one);
        CHECK(one == w[i]);
      }
    }
    const float nan = std::nanf("");
    float got;
    Apply(f, &nan, 1, &got);
    CHECK(std::isnan(got));
  }
}

// EXP and LOG (the ctest ISA caps run the portable lanes too): within 3 ulp of double
// precision wherever the result is a normal float, libm's value for everything the vector
// forms do not take (overflow to inf, underflow to denormals and 0, log of 0, negatives,
// denormals, infinities, NaN) in any lane of a vector; every length, in place.
TEST_CASE("vector_math exp and log against double precision") {
  const float inf = std::numeric_limits<float>::infinity();
  const float denorm = std::numeric_limits<float>::denorm_min();
  std::vector<float> xs = Arguments();
  for (float x : {inf, -inf, std::nanf(""), 89.0f, -90.0f, -100.0f, -87.2f, 88.1f, denorm, -denorm,
                  1e-40f, std::numeric_limits<float>::min()}) {
    xs.push_back(x);
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> wide(-40.0f, 40.0f);
  for (int i = 0; i < 2000; ++i) xs.push_back(std::exp(wide(rng)));  // log's spread of scales
  for (Function f : {Function::kExp, Function::kLog}) {
    CAPTURE(static_cast<int>(f));
    std::vector<float> out(xs.size());
    Apply(f, xs.data(), static_cast<int64_t>(xs.size()), out.data());
    double worst = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const float x = xs[i];
      const float libm = f == Function::kExp ? std::exp(x) : std::log(x);
      CAPTURE(x, out[i], libm);
      if (!std::isfinite(libm) || std::fabs(libm) < std::numeric_limits<float>::min()) {
        // Infinities, NaN, denormals and zero: libm's, bit for bit.
        CHECK((std::isnan(libm) ? std::isnan(out[i]) : out[i] == libm));
        continue;
      }
      const double want = f == Function::kExp ? std::exp(double{x}) : std::log(double{x});
      // Relative, but log's results near 0 (x near 1) in units of float's epsilon.
      const double scale = std::max(std::fabs(want), f == Function::kLog ? 1.0 : 0.0);
      worst = std::max(worst, std::fabs(out[i] - want) / scale);
    }
    CHECK(worst <= 3.6e-7);
  }
  // Every length from 1 to 40, in place, with an out-of-range value in the last lane.
  for (int n = 1; n <= 40; ++n) {
    CAPTURE(n);
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = 0.37f * i + 0.01f;
    v[n - 1] = 100.0f;
    const std::vector<float> x = v;
    Apply(Function::kExp, v.data(), n, v.data());
    for (int i = 0; i + 1 < n; ++i) CHECK(Error(v[i], std::exp(double{x[i]})) <= 3.6e-7);
    CHECK(v[n - 1] == inf);
    std::vector<float> w = x;
    w[n - 1] = -1.0f;
    Apply(Function::kLog, w.data(), n, w.data());
    for (int i = 0; i + 1 < n; ++i)
      CHECK(std::fabs(w[i] - std::log(double{x[i]})) <=
            3.6e-7 * std::max(1.0, std::fabs(std::log(double{x[i]}))));
    CHECK(std::isnan(w[n - 1]));
  }
}

}  // namespace
}  // namespace vector_math
}  // namespace tflite
