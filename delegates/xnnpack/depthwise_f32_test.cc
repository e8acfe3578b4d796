#include "xnnpack/depthwise_f32.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace xnnpack {
namespace {

// TFLite's SAME / VALID geometry for a square filter.
DepthwiseF32Params Geometry(int batches, int h, int w, int c, int k, int s, bool same) {
  DepthwiseF32Params p;
  p.batches = batches;
  p.in_h = h;
  p.in_w = w;
  p.channels = c;
  p.kernel = k;
  p.stride = s;
  if (same) {
    p.out_h = (h + s - 1) / s;
    p.out_w = (w + s - 1) / s;
    p.pad_top = std::max((p.out_h - 1) * s + k - h, 0) / 2;
    p.pad_left = std::max((p.out_w - 1) * s + k - w, 0) / 2;
  } else {
    p.out_h = (h - k) / s + 1;
    p.out_w = (w - k) / s + 1;
  }
  return p;
}

// Plain loops in double.
std::vector<float> Reference(const DepthwiseF32Params& p, const std::vector<float>& in,
                             const std::vector<float>& f, const float* bias) {
  std::vector<float> out(static_cast<size_t>(p.batches) * p.out_h * p.out_w * p.channels);
  for (int b = 0; b < p.batches; ++b)
    for (int oy = 0; oy < p.out_h; ++oy)
      for (int ox = 0; ox < p.out_w; ++ox)
        for (int c = 0; c < p.channels; ++c) {
          double acc = bias != nullptr ? bias[c] : 0.0;
          for (int ky = 0; ky < p.kernel; ++ky)
            for (int kx = 0; kx < p.kernel; ++kx) {
              const int iy = oy * p.stride + ky - p.pad_top, ix = ox * p.stride + kx - p.pad_left;
              if (iy < 0 || iy >= p.in_h || ix < 0 || ix >= p.in_w) continue;
              acc += static_cast<double>(in[((static_cast<size_t>(b) * p.in_h + iy) * p.in_w + ix) * p.channels + c]) *
                     f[(static_cast<size_t>(ky) * p.kernel + kx) * p.channels + c];
            }
          out[((static_cast<size_t>(b) * p.out_h + oy) * p.out_w + ox) * p.channels + c] =
              static_cast<float>(std::min<double>(std::max<double>(acc, p.min), p.max));
        }
  return out;
}

void Check(const DepthwiseF32Params& p, bool with_bias, pthreadpool_t pool) {
  std::mt19937 rng(p.in_h * 131 + p.in_w * 17 + p.channels * 7 + p.kernel + p.stride);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> in(static_cast<size_t>(p.batches) * p.in_h * p.in_w * p.channels);
  std::vector<float> f(static_cast<size_t>(p.kernel) * p.kernel * p.channels), bias(p.channels);
  for (float& x : in) x = d(rng);
  for (float& x : f) x = d(rng);
  for (float& x : bias) x = d(rng);
  const float* b = with_bias ? bias.data() : nullptr;
  const std::vector<float> want = Reference(p, in, f, b);
  // A guard element past the end catches writes beyond the output.
  std::vector<float> got(want.size() + 1, 12345.0f);
  RunDepthwiseF32(p, in.data(), f.data(), b, got.data(), pool);
  // The narrower instruction set too, where this CPU has it (same results up to rounding).
  std::vector<float> avx2(want.size() + 1, 12345.0f);
  const bool has_avx2 = RunDepthwiseF32With("avx2_fma", p, in.data(), f.data(), b, avx2.data(), pool);
  INFO("in " << p.batches << "x" << p.in_h << "x" << p.in_w << "x" << p.channels << " k" << p.kernel
             << " s" << p.stride << " pad " << p.pad_top << "," << p.pad_left << " out " << p.out_h
             << "x" << p.out_w << " bias " << with_bias << " isa " << DepthwiseF32Isa());
  REQUIRE(got.back() == 12345.0f);
  float worst = 0.0f;
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
  CHECK(worst <= 1e-5f);
  if (!has_avx2) return;
  REQUIRE(avx2.back() == 12345.0f);
  worst = 0.0f;
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(avx2[i] - want[i]));
  CHECK(worst <= 1e-5f);
}

bool Available() {
  std::string why;
  DepthwiseF32Params p = Geometry(1, 4, 4, 4, 3, 1, true);
  if (DepthwiseF32Supported(p, &why)) return true;
  WARN("skipped: the delegate's depthwise kernel is not available here: " << why);
  return false;
}

TEST_CASE("depthwise f32 matches plain loops over kernels, strides, padding, channels, sizes") {
  if (!Available()) return;
  int cases = 0;
  for (int k : {3, 5, 7})
    for (int s : {1, 2})
      for (bool same : {true, false})
        for (int c : {1, 5, 16, 19, 40})
          for (auto hw : {std::pair<int, int>{1, 1}, {2, 3}, {7, 9}, {13, 12}, {24, 24}}) {
            DepthwiseF32Params p = Geometry(1, hw.first, hw.second, c, k, s, same);
            if (p.out_h < 1 || p.out_w < 1) continue;
            REQUIRE(DepthwiseF32Supported(p, nullptr));
            Check(p, (c + hw.first) % 2 == 0, nullptr);
            ++cases;
          }
  CHECK(cases > 150);
}

// XNNPACK's own depthwise convolution on the same data: the kernel sums in XNNPACK's
// order, so the results must be the same bits. (7x7: this XNNPACK sums 49 taps in several
// passes, another order; the plain loops above check those within the float tolerance.)
TEST_CASE("depthwise f32 is bit-identical to this XNNPACK's depthwise convolution") {
  if (!Available()) return;
  REQUIRE(xnn_initialize(nullptr) == xnn_status_success);
  int compared = 0;
  for (int k : {3, 5})
    for (int s : {1, 2})
      for (int c : {7, 16, 40})
        for (auto hw : {std::pair<int, int>{5, 6}, {13, 12}, {24, 26}}) {
          DepthwiseF32Params p = Geometry(2, hw.first, hw.second, c, k, s, true);
          p.min = -0.5f;
          p.max = 2.0f;
          std::mt19937 rng(c * 100 + k * 10 + s);
          std::uniform_real_distribution<float> d(-1.0f, 1.0f);
          std::vector<float> in(static_cast<size_t>(p.batches) * p.in_h * p.in_w * c), f(k * k * c), bias(c);
          for (float& x : in) x = d(rng);
          for (float& x : f) x = d(rng);
          for (float& x : bias) x = d(rng);
          const int pad_h = (p.out_h - 1) * s + k - p.in_h, pad_w = (p.out_w - 1) * s + k - p.in_w;
          xnn_operator_t op = nullptr;
          REQUIRE(xnn_create_convolution2d_nhwc_f32(
                      p.pad_top, std::max(pad_w, 0) - p.pad_left, std::max(pad_h, 0) - p.pad_top, p.pad_left,
                      k, k, s, s, 1, 1, c, 1, 1, c, c, f.data(), bias.data(), p.min, p.max,
                      XNN_FLAG_DEPTHWISE_CONVOLUTION, &op) == xnn_status_success);
          const size_t n = static_cast<size_t>(p.batches) * p.out_h * p.out_w * c;
          std::vector<float> want(n), got(n);
          REQUIRE(xnn_setup_convolution2d_nhwc_f32(op, p.batches, p.in_h, p.in_w, in.data(), want.data(),
                                                   nullptr) == xnn_status_success);
          REQUIRE(xnn_run_operator(op, nullptr) == xnn_status_success);
          xnn_delete_operator(op);
          RunDepthwiseF32(p, in.data(), f.data(), bias.data(), got.data(), nullptr);
          INFO("k" << k << " s" << s << " c" << c << " " << hw.first << "x" << hw.second);
          size_t differ = 0;
          for (size_t i = 0; i < n; ++i) differ += std::memcmp(&want[i], &got[i], sizeof(float)) != 0;
          CHECK(differ == 0);
          ++compared;
        }
  CHECK(compared == 36);
}

TEST_CASE("depthwise f32 fused activation, batches and a 2-thread pool") {
  if (!Available()) return;
  DepthwiseF32Params p = Geometry(2, 48, 40, 35, 5, 1, true);
  p.min = 0.0f;
  p.max = 6.0f;
  pthreadpool_t pool = pthreadpool_create(2);
  Check(p, true, pool);
  p = Geometry(3, 31, 29, 64, 3, 2, true);
  p.min = -1.0f;
  p.max = 1.0f;
  Check(p, false, pool);
  pthreadpool_destroy(pool);
}

TEST_CASE("depthwise f32 refuses what it does not compute, with the reason") {
  if (!Available()) return;
  std::string why;
  DepthwiseF32Params p = Geometry(1, 10, 10, 4, 9, 1, true);
  CHECK_FALSE(DepthwiseF32Supported(p, &why));
  CHECK(why == "9x9 filter (3x3, 5x5 or 7x7 only)");
  p = Geometry(1, 8, 8, 4, 3, 3, true);
  CHECK_FALSE(DepthwiseF32Supported(p, &why));
  CHECK(why == "stride 3 (1 or 2 only)");
  p = Geometry(1, 8, 8, 4, 3, 1, true);
  p.pad_left = 3;
  CHECK_FALSE(DepthwiseF32Supported(p, &why));
  CHECK(why == "padding outside [0, kernel)");
}

}  // namespace
}  // namespace xnnpack
}  // namespace tflite_inspect
