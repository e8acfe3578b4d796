// The Winograd F(2x2, 3x3) convolution against a double-precision direct convolution, on
// random geometries (seeded: replayable): SAME and VALID, odd sizes (partial tiles),
// channel counts off the vector width, bias, clamps, a residual ADD, 1-3 threads. Under
// TFI_KERNEL_ISA=avx2 / portable (ctest's _isa_ variants) the transforms' plain loops.
#include "kernels/internal/winograd_f32.h"

#include <pthreadpool.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

namespace tflite_inspect {
namespace {

using tflite::conv_util::ConvGeometry;

TEST_CASE("Winograd F(2x2, 3x3): within float rounding of the direct sums (random shapes)") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 12000);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    ConvGeometry g{};
    g.batches = pick(1, 2);
    g.in_h = pick(1, 23);
    g.in_w = pick(1, 23);
    g.in_c = pick(16, 70);
    g.out_c = pick(16, 90);
    g.f_h = g.f_w = 3;
    g.f_c = g.in_c;
    g.groups = 1;
    g.group_out_c = g.out_c;
    g.stride_h = g.stride_w = g.dil_h = g.dil_w = 1;
    const bool same = pick(0, 2) != 0 || g.in_h < 3 || g.in_w < 3;
    g.pad_h = g.pad_w = same ? 1 : 0;
    g.out_h = same ? g.in_h : g.in_h - 2;
    g.out_w = same ? g.in_w : g.in_w - 2;
    const int threads = pick(1, 3);
    CAPTURE(seed, g.batches, g.in_h, g.in_w, g.in_c, g.out_c, same, threads);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> in(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c);
    std::vector<float> filter(static_cast<size_t>(g.out_c) * 9 * g.in_c), bias(g.out_c);
    for (auto& x : in) x = d(rng);
    for (auto& x : filter) x = d(rng);
    for (auto& x : bias) x = d(rng);
    const size_t pixels = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
    std::vector<float> residual(pixels * g.out_c);
    for (auto& x : residual) x = d(rng);
    tflite::gemm::FloatOutputStage stage;
    if (seed % 2 == 0) stage.bias = bias.data();
    if (seed % 3 == 0) stage.min = -2.f, stage.max = 3.f;
    if (seed % 5 == 0) {
      stage.residual = residual.data();
      stage.residual_ld = g.out_c;
      stage.residual_n = g.out_c;
      stage.residual_min = 0.f;
    }
    tflite::winograd::Weights w;
    tflite::winograd::PackWeights(filter.data(), g.out_c, g.in_c, &w);
    std::vector<float> out(pixels * g.out_c, 123.f), scratch;
    pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
    tflite::winograd::Conv(g, in.data(), w, stage, out.data(), &scratch, pool);
    if (pool != nullptr) pthreadpool_destroy(pool);
    for (int b = 0; b < g.batches; ++b) {
      for (int oy = 0; oy < g.out_h; ++oy) {
        for (int ox = 0; ox < g.out_w; ++ox) {
          const size_t p = (static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox;
          for (int o = 0; o < g.out_c; ++o) {
            double sum = 0, mag = 0;
            for (int ky = 0; ky < 3; ++ky) {
              for (int kx = 0; kx < 3; ++kx) {
                const int y = oy - g.pad_h + ky, x = ox - g.pad_w + kx;
                if (y < 0 || y >= g.in_h || x < 0 || x >= g.in_w) continue;
                for (int c = 0; c < g.in_c; ++c) {
                  const double v =
                      static_cast<double>(in[((static_cast<size_t>(b) * g.in_h + y) * g.in_w + x) * g.in_c + c]) *
                      filter[((static_cast<size_t>(o) * 3 + ky) * 3 + kx) * g.in_c + c];
                  sum += v;
                  mag += std::abs(v);
                }
              }
            }
            if (stage.bias != nullptr) sum += bias[o];
            double want = std::min<double>(std::max<double>(sum, stage.min), stage.max);
            if (stage.residual != nullptr) {
              want = std::min<double>(std::max<double>(want + residual[p * g.out_c + o], 0.0),
                                      stage.residual_max);
            }
            CAPTURE(b, oy, ox, o, want, mag);
            // A few ulps of the sums' magnitude (the transforms add up to 16 products).
            REQUIRE(std::abs(out[p * g.out_c + o] - want) <= 4e-6 * (mag + 1.0));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
