#include "kernels/internal/depthwise_float.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>


namespace tflite_inspect {
namespace {

using tflite::dwconv::Geometry;

// The sums as the header states them: the bias (bias_first) or 0, then each in-image tap's
// product rounded and added in (fy, fx) order, the bias last otherwise, then the clamp.
__attribute__((optimize("fp-contract=off"))) std::vector<float> Reference(
    const Geometry& g, const std::vector<float>& in, const std::vector<float>& f,
    const std::vector<float>& bias, bool bias_first, float lo, float hi) {
  std::vector<float> out(static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.out_c);
  std::vector<float> acc(g.out_c);
  for (int b = 0; b < g.batches; ++b) {
    for (int oy = 0; oy < g.out_h; ++oy) {
      for (int ox = 0; ox < g.out_w; ++ox) {
        for (int c = 0; c < g.out_c; ++c) acc[c] = bias_first ? bias[c] : 0.0f;
        tflite::dwconv::ForEachTap(g, in.data(), f.data(), b, oy, ox,
                                   [&](const float* x, const float* w) {
                                     for (int c = 0; c < g.out_c; ++c) {
                                       const float p = x[c / g.depth_multiplier] * w[c];
                                       acc[c] = acc[c] + p;
                                     }
                                   });
        float* o = out.data() + ((static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox) * g.out_c;
        for (int c = 0; c < g.out_c; ++c) {
          const float v = bias_first ? acc[c] : acc[c] + bias[c];
          o[c] = std::min(std::max(v, lo), hi);
        }
      }
    }
  }
  return out;
}

// Bit for bit (memcmp): the vector rows (16 lanes on AVX-512, 8 on AVX2, then one by one)
// must round each product as the scalar order does; a multiply-add fused into FMA fails
// here (dynamic-range graphs need these bits: depthwise_float.h).
TEST_CASE("FloatDepthwise: the bits of products rounded and added in tap order (random, seeds)") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed + 4400);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Geometry g{};
    g.batches = pick(1, 2);
    g.in_c = pick(1, 70);
    g.depth_multiplier = seed % 4 == 0 ? pick(2, 3) : 1;
    g.out_c = g.in_c * g.depth_multiplier;
    g.f_h = pick(1, 5);
    g.f_w = pick(1, 5);
    g.stride_h = pick(1, 2);
    g.stride_w = pick(1, 2);
    g.dil_h = pick(1, 2);
    g.dil_w = pick(1, 2);
    g.in_h = pick(1, 12);
    g.in_w = pick(1, 14);
    g.pad_h = pick(0, (g.f_h - 1) * g.dil_h);
    g.pad_w = pick(0, (g.f_w - 1) * g.dil_w);
    g.out_h = (g.in_h + 2 * g.pad_h - (g.f_h - 1) * g.dil_h - 1) / g.stride_h + 1;
    g.out_w = (g.in_w + 2 * g.pad_w - (g.f_w - 1) * g.dil_w - 1) / g.stride_w + 1;
    if (g.out_h <= 0 || g.out_w <= 0) continue;
    const bool bias_first = seed % 2 == 0;
    const int threads = seed % 3 == 0 ? 2 : 1;
    CAPTURE(seed, g.batches, g.in_h, g.in_w, g.in_c, g.depth_multiplier, g.f_h, g.f_w, g.stride_h,
            g.stride_w, g.dil_h, g.dil_w, g.pad_h, g.pad_w, bias_first, threads);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> in(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c);
    std::vector<float> f(static_cast<size_t>(g.f_h) * g.f_w * g.out_c), bias(g.out_c);
    for (float& v : in) v = u(rng);
    for (float& v : f) v = u(rng);
    for (float& v : bias) v = u(rng);
    const float lo = seed % 5 == 0 ? 0.0f : -3.4e38f, hi = seed % 5 == 0 ? 1.0f : 3.4e38f;
    const auto want = Reference(g, in, f, bias, bias_first, lo, hi);
    std::vector<float> got(want.size());
    pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
    tflite::dwconv::FloatDepthwise(g, in.data(), f.data(), bias.data(), bias_first, lo, hi,
                                   got.data(), pool);
    if (pool != nullptr) pthreadpool_destroy(pool);
    REQUIRE(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);
  }
}

// A Conv1D's one row split into pixel ranges over pools of 2-4 threads: the bits of one
// thread, with and without the swish (whose scalar tail is the tensor's last n % 4).
TEST_CASE("FloatDepthwise: one row split into pixel ranges over the pool has one thread's bits") {
  int split = 0;
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    std::mt19937 rng(seed + 20261207);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Geometry g{};
    g.batches = 1;
    g.in_h = g.out_h = g.f_h = g.stride_h = g.dil_h = 1;
    g.in_c = pick(100, 200);
    g.depth_multiplier = 1;
    g.out_c = g.in_c;
    g.f_w = pick(3, 7);
    g.stride_w = pick(1, 2);
    g.dil_w = pick(1, 2);
    g.in_w = pick(300, 1000);
    g.pad_w = pick(0, (g.f_w - 1) * g.dil_w);
    g.out_w = (g.in_w + 2 * g.pad_w - (g.f_w - 1) * g.dil_w - 1) / g.stride_w + 1;
    const bool swish = seed % 2 == 0;
    CAPTURE(seed, g.in_w, g.in_c, g.f_w, g.stride_w, g.dil_w, g.pad_w, swish);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> in(static_cast<size_t>(g.in_w) * g.in_c);
    std::vector<float> f(static_cast<size_t>(g.f_w) * g.out_c), bias(g.out_c);
    for (float& v : in) v = u(rng);
    for (float& v : f) v = u(rng);
    for (float& v : bias) v = u(rng);
    std::vector<float> one(static_cast<size_t>(g.out_w) * g.out_c);
    tflite::dwconv::FloatDepthwise(g, in.data(), f.data(), bias.data(), false, -3.4e38f, 3.4e38f,
                                   one.data(), nullptr, swish);
    if (!swish) {
      const auto want = Reference(g, in, f, bias, false, -3.4e38f, 3.4e38f);
      REQUIRE(std::memcmp(one.data(), want.data(), want.size() * sizeof(float)) == 0);
    }
    for (int threads = 2; threads <= 4; ++threads) {
      pthreadpool_t pool = pthreadpool_create(threads);
      std::vector<float> got(one.size(), 7.0f);
      tflite::dwconv::FloatDepthwise(g, in.data(), f.data(), bias.data(), false, -3.4e38f, 3.4e38f,
                                     got.data(), pool, swish);
      pthreadpool_destroy(pool);
      CAPTURE(threads);
      REQUIRE(std::memcmp(got.data(), one.data(), one.size() * sizeof(float)) == 0);
    }
    // (ParallelFor's threshold: below it the row runs on the calling thread.)
    if (static_cast<double>(g.out_w) * g.out_c * g.f_w >= 1 << 18) ++split;
  }
  CHECK(split >= 8);
}

}  // namespace
}  // namespace tflite_inspect
