#include "kernels/internal/depthwise_dot.h"

#include <pthreadpool.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/internal/requantize.h"

namespace tflite_inspect {
namespace {

using tflite::dwconv::DotDepthwise;
using tflite::dwconv::Geometry;

int Rand(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

struct Case {
  Geometry g{};
  std::vector<int8_t> input, filter;
  std::vector<int32_t> bias, multiplier, shift;
  std::vector<float> scale;
  int32_t input_zp = 0;
  tflite::gemm::QuantizedOutputStage stage;
};

// The reference kernels' arithmetic, written out: taps outside the image skipped, int32
// sums of (x - zp) * w + bias, then the stage's scalar requantization.
std::vector<int8_t> Naive(const Case& k) {
  const Geometry& g = k.g;
  std::vector<int8_t> out(static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.in_c);
  for (int b = 0; b < g.batches; ++b)
    for (int oy = 0; oy < g.out_h; ++oy)
      for (int ox = 0; ox < g.out_w; ++ox)
        for (int c = 0; c < g.in_c; ++c) {
          int32_t acc = 0;
          for (int fy = 0; fy < g.f_h; ++fy)
            for (int fx = 0; fx < g.f_w; ++fx) {
              const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
              const int ix = ox * g.stride_w - g.pad_w + fx * g.dil_w;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              const int32_t x = k.input[((static_cast<size_t>(b) * g.in_h + iy) * g.in_w + ix) * g.in_c + c];
              acc += (x - k.input_zp) * k.filter[(fy * g.f_w + fx) * g.in_c + c];
            }
          out[((static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox) * g.in_c + c] =
              static_cast<int8_t>(tflite::requant::StageValue(acc, c, k.stage));
        }
  return out;
}

// A random case, from `seed` (replayable: the seed is in the failure's INFO).
Case Random(uint32_t seed, bool fp32) {
  std::mt19937 rng(seed);
  Case k;
  Geometry& g = k.g;
  const int shapes[][2] = {{3, 3}, {5, 5}, {3, 3}, {5, 5}, {1, 1}, {3, 5}, {7, 7}, {2, 4}, {1, 3}};
  const auto& f = shapes[Rand(rng, 0, 8)];
  g.f_h = f[0];
  g.f_w = f[1];
  g.batches = Rand(rng, 1, 2);
  g.in_h = Rand(rng, 1, 14);
  g.in_w = Rand(rng, 1, 17);
  g.in_c = g.out_c = Rand(rng, 1, 70);
  g.depth_multiplier = 1;
  g.stride_h = Rand(rng, 1, 3);
  g.stride_w = Rand(rng, 1, 3);
  g.dil_h = Rand(rng, 1, 2);
  g.dil_w = Rand(rng, 1, 3);
  g.pad_h = Rand(rng, 0, (g.f_h - 1) * g.dil_h);
  g.pad_w = Rand(rng, 0, (g.f_w - 1) * g.dil_w);
  const int span_h = (g.f_h - 1) * g.dil_h + 1, span_w = (g.f_w - 1) * g.dil_w + 1;
  g.out_h = std::max(1, (g.in_h + 2 * g.pad_h - span_h) / g.stride_h + 1);
  g.out_w = std::max(1, (g.in_w + 2 * g.pad_w - span_w) / g.stride_w + 1);
  k.input.resize(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c);
  for (int8_t& x : k.input) x = static_cast<int8_t>(Rand(rng, -128, 127));
  k.filter.resize(static_cast<size_t>(g.f_h) * g.f_w * g.in_c);
  for (int8_t& x : k.filter) x = static_cast<int8_t>(Rand(rng, -128, 127));
  k.input_zp = Rand(rng, -128, 127);
  k.bias.resize(g.in_c);
  for (int32_t& b : k.bias) b = Rand(rng, -200000, 200000);
  k.stage.bias = k.bias.data();
  k.stage.output_offset = Rand(rng, -128, 127);
  k.stage.act_min = Rand(rng, 0, 3) == 0 ? Rand(rng, -128, 0) : -128;
  k.stage.act_max = Rand(rng, 0, 3) == 0 ? Rand(rng, 0, 127) : 127;
  if (fp32) {
    for (int c = 0; c < g.in_c; ++c) k.scale.push_back(std::ldexp(Rand(rng, 1, 1 << 20), -Rand(rng, 24, 36)));
    k.stage.float_scale = k.scale.data();
  } else {
    for (int c = 0; c < g.in_c; ++c) {
      k.multiplier.push_back(Rand(rng, 1 << 30, INT32_MAX));
      k.shift.push_back(-Rand(rng, 4, 16));
    }
    k.stage.multiplier = k.multiplier.data();
    k.stage.shift = k.shift.data();
  }
  return k;
}

TEST_CASE("dot depthwise gives the reference arithmetic's bytes: random geometries, both stages") {
  if (!DotDepthwise::Available()) {
    WARN("SKIPPED: no AVX-512 VNNI or AVX2 here; only the portable loop is checked");
  }
  pthreadpool_t pool = pthreadpool_create(2);
  int checked = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    const bool fp32 = seed % 2 == 0;
    Case k = Random(seed, fp32);
    std::string why;
    INFO("seed " << seed << (fp32 ? " fp32" : " double rounding") << ": " << k.g.f_h << "x" << k.g.f_w
                 << " stride " << k.g.stride_h << "," << k.g.stride_w << " dil " << k.g.dil_h << ","
                 << k.g.dil_w << " pad " << k.g.pad_h << "," << k.g.pad_w << " in " << k.g.in_h << "x"
                 << k.g.in_w << "x" << k.g.in_c << " out " << k.g.out_h << "x" << k.g.out_w);
    REQUIRE(DotDepthwise::Supports(k.g, &why));
    DotDepthwise dw(k.g, k.filter.data(), k.input_zp, k.stage);
    const std::vector<int8_t> want = Naive(k);
    std::vector<int8_t> got(want.size(), 0x55);
    dw.RunPortable(k.input.data(), got.data());
    REQUIRE(got == want);
    std::fill(got.begin(), got.end(), 0x55);
    dw.Run(k.input.data(), got.data(), seed % 3 == 0 ? pool : nullptr);
    REQUIRE(got == want);
    // A second run reuses the scratch (stale pair rows must not leak in).
    std::fill(got.begin(), got.end(), 0x55);
    dw.Run(k.input.data(), got.data(), pool);
    REQUIRE(got == want);
    ++checked;
  }
  pthreadpool_destroy(pool);
  CHECK(checked == 400);
}

TEST_CASE("dot depthwise: a MobileNet-sized layer over threads, extreme values") {
  Case k = Random(7, true);
  Geometry& g = k.g;
  g = Geometry{1, 56, 56, 144, 3, 3, 28, 28, 144, 1, 2, 2, 1, 1, 0, 0};
  k.input.assign(static_cast<size_t>(56) * 56 * 144, -128);
  k.filter.assign(9 * 144, -128);
  k.bias.assign(144, INT32_MAX - 5);  // wraps, as the reference's int32 sums do
  k.scale.assign(144, 1.0f / 1024);
  k.input_zp = 127;
  k.stage = tflite::gemm::QuantizedOutputStage{};
  k.stage.bias = k.bias.data();
  k.stage.float_scale = k.scale.data();
  DotDepthwise dw(g, k.filter.data(), k.input_zp, k.stage);
  const std::vector<int8_t> want = Naive(k);
  std::vector<int8_t> got(want.size());
  pthreadpool_t pool = pthreadpool_create(3);
  dw.Run(k.input.data(), got.data(), pool);
  pthreadpool_destroy(pool);
  CHECK(got == want);
}

TEST_CASE("dot depthwise refuses what it does not compute, with the reason") {
  Geometry g{1, 8, 8, 4, 3, 3, 8, 8, 8, 2, 1, 1, 1, 1, 1, 1};
  std::string why;
  CHECK_FALSE(DotDepthwise::Supports(g, &why));
  CHECK(why == "depth multiplier other than 1");
  g = Geometry{1, 8, 8, 4, 3, 3, 8, 8, 4, 1, 0, 1, 1, 1, 1, 1};
  CHECK_FALSE(DotDepthwise::Supports(g, &why));
  CHECK(why == "stride or dilation below 1");
  // A crafted tall dilated filter over a wide image: its ring of pair rows would be
  // gigabytes.
  g = Geometry{1, 4000, 4000, 512, 9, 3, 4000, 4000, 512, 1, 1, 1, 400, 1, 1600, 1};
  CHECK_FALSE(DotDepthwise::Supports(g, &why));
  CHECK(why == "too large for the pair rows");
}

}  // namespace
}  // namespace tflite_inspect
