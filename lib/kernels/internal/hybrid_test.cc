#include "kernels/internal/hybrid.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace tflite_inspect {
namespace {

// The vectorizable rounding must be std::round exactly: halves, their neighbours one ulp
// away, integers and random values over the quantizers' range.
TEST_CASE("hybrid::RoundHalfAway equals std::round") {
  std::vector<float> xs;
  for (int i = -300; i <= 300; ++i) {
    const float half = i + 0.5f;
    xs.insert(xs.end(), {static_cast<float>(i), half, std::nextafter(half, 1e9f),
                         std::nextafter(half, -1e9f)});
  }
  xs.insert(xs.end(), {0.49999997f, -0.49999997f, 8388607.5f, -8388607.5f, 16777216.0f,
                       -2147483520.0f});
  const uint32_t seed = 11;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-260.f, 260.f);
  for (int i = 0; i < 100000; ++i) xs.push_back(d(rng));
  for (float x : xs) {
    CAPTURE(seed, x);
    REQUIRE(tflite::hybrid::RoundHalfAway(x) == static_cast<int32_t>(std::round(x)));
  }
}

TEST_CASE("hybrid::MinMax equals std::minmax_element") {
  const uint32_t seed = 12;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-5.f, 5.f);
  for (int size = 1; size <= 70; ++size) {
    std::vector<float> v(size);
    for (float& x : v) x = d(rng);
    float lo, hi;
    tflite::hybrid::MinMax(v.data(), size, &lo, &hi);
    const auto mm = std::minmax_element(v.begin(), v.end());
    CAPTURE(seed, size);
    REQUIRE(lo == *mm.first);
    REQUIRE(hi == *mm.second);
  }
}

}  // namespace
}  // namespace tflite_inspect
