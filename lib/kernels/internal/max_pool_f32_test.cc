#include "kernels/internal/max_pool_f32.h"

#include <catch2/catch.hpp>
#include <pthreadpool.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <random>
#include <vector>

namespace tflite_inspect {
namespace {

using tflite::max_pool_f32::Geometry;

// The window's in-image values one by one, then the clamp (the builtin kernel's loop).
std::vector<float> Reference(const Geometry& g, const std::vector<float>& in, float lo, float hi) {
  std::vector<float> out(static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.channels);
  for (int b = 0; b < g.batches; ++b)
    for (int oy = 0; oy < g.out_h; ++oy)
      for (int ox = 0; ox < g.out_w; ++ox)
        for (int c = 0; c < g.channels; ++c) {
          float m = std::numeric_limits<float>::lowest();
          for (int fy = 0; fy < g.f_h; ++fy)
            for (int fx = 0; fx < g.f_w; ++fx) {
              const int iy = oy * g.stride_h - g.pad_h + fy, ix = ox * g.stride_w - g.pad_w + fx;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              m = std::max(
                  m, in[((static_cast<size_t>(b) * g.in_h + iy) * g.in_w + ix) * g.channels + c]);
            }
          out[((static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox) * g.channels + c] =
              std::min(std::max(m, lo), hi);
        }
  return out;
}

// Random geometries (SAME and VALID as TensorFlow computes them, filters 1-7 with strides
// up to the filter, 1-40 channels, images up to 1 x 1000), with and without a clamp, on no
// pool and on pools of 2 and 3 threads: the reference's values exactly (the inputs hold
// no zeros, so no zero's sign is in question).
TEST_CASE("max_pool_f32::MaxPool: the windows' maxima on random geometries and pools") {
  std::mt19937 rng(20261207);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> two(pthreadpool_create(2),
                                                                   pthreadpool_destroy);
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> three(pthreadpool_create(3),
                                                                     pthreadpool_destroy);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Geometry g;
    g.batches = pick(1, 2);
    const bool one_row = trial % 5 == 0;  // a Conv1D-style 1 x W image: rows split in ranges
    g.in_h = one_row ? 1 : pick(1, 20);
    g.in_w = one_row ? pick(300, 1000) : pick(1, 20);
    g.channels = one_row ? pick(40, 80) : pick(1, 40);
    g.f_h = one_row ? 1 : pick(1, 7);
    g.f_w = pick(1, 7);
    g.stride_h = pick(1, g.f_h);
    g.stride_w = pick(1, g.f_w);
    if (pick(0, 1) == 1) {  // SAME
      g.out_h = (g.in_h + g.stride_h - 1) / g.stride_h;
      g.out_w = (g.in_w + g.stride_w - 1) / g.stride_w;
      g.pad_h = std::max((g.out_h - 1) * g.stride_h + g.f_h - g.in_h, 0) / 2;
      g.pad_w = std::max((g.out_w - 1) * g.stride_w + g.f_w - g.in_w, 0) / 2;
    } else {
      if (g.in_h < g.f_h || g.in_w < g.f_w) continue;
      g.out_h = (g.in_h - g.f_h) / g.stride_h + 1;
      g.out_w = (g.in_w - g.f_w) / g.stride_w + 1;
    }
    CAPTURE(trial, g.batches, g.in_h, g.in_w, g.channels, g.f_h, g.f_w, g.stride_h, g.stride_w,
            g.pad_h, g.pad_w, g.out_h, g.out_w);
    std::uniform_real_distribution<float> value(-4.0f, 4.0f);
    std::vector<float> in(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.channels);
    for (float& v : in) {
      v = value(rng);
      if (v == 0.0f) v = 1.0f;
    }
    const float lo = trial % 3 == 0 ? -1.0f : std::numeric_limits<float>::lowest();
    const float hi = trial % 3 == 0 ? 2.5f : std::numeric_limits<float>::max();
    const std::vector<float> want = Reference(g, in, lo, hi);
    for (pthreadpool* pool : {static_cast<pthreadpool*>(nullptr), two.get(), three.get()}) {
      std::vector<float> got(want.size(), 99.0f);
      tflite::max_pool_f32::MaxPool(g, in.data(), got.data(), lo, hi, pool);
      REQUIRE(got == want);
    }
    ++checked;
  }
  CHECK(checked > 200);
}

}  // namespace
}  // namespace tflite_inspect
