// The direct few-channel convolution against the im2col GEMM (the same sums: the same bits)
// and a double-precision loop, on random geometries (seeded: replayable).
#include "kernels/internal/direct_conv_f32.h"

#include <pthreadpool.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/internal/im2col.h"

namespace tflite_inspect {
namespace {

using tflite::conv_util::ConvGeometry;

// TensorFlow's SAME (the smaller half of the padding first) or VALID; false when VALID
// leaves no output.
bool MakeGeometry(std::mt19937& rng, ConvGeometry* g) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  *g = {};
  g->batches = pick(1, 2);
  g->in_h = pick(1, 12);
  g->in_w = pick(1, 40);
  g->in_c = pick(0, 2) > 0 ? pick(1, 4) : pick(5, 40);  // wider: the AVX2 kernel's
  g->f_h = pick(1, 7);
  g->f_w = pick(1, 7);
  g->out_c = pick(0, 1) == 1 ? 8 * pick(3, 8) : pick(1, 70);  // half in TFLite's 8-blocks
  g->f_c = g->in_c;
  g->groups = 1;
  g->group_out_c = g->out_c;
  g->stride_h = pick(1, 4);
  g->stride_w = pick(1, 4);
  g->dil_h = pick(1, 2);
  g->dil_w = 1;
  const int eff_h = (g->f_h - 1) * g->dil_h + 1;
  if (pick(0, 1) == 1) {  // SAME
    g->out_h = (g->in_h + g->stride_h - 1) / g->stride_h;
    g->out_w = (g->in_w + g->stride_w - 1) / g->stride_w;
    g->pad_h = std::max((g->out_h - 1) * g->stride_h + eff_h - g->in_h, 0) / 2;
    g->pad_w = std::max((g->out_w - 1) * g->stride_w + g->f_w - g->in_w, 0) / 2;
  } else {
    if (g->in_h < eff_h || g->in_w < g->f_w) return false;
    g->out_h = (g->in_h - eff_h) / g->stride_h + 1;
    g->out_w = (g->in_w - g->f_w) / g->stride_w + 1;
  }
  return true;
}

// Whether DirectFloatConvApplies(g, kAuto) on this CPU, given that g is neither 1x1
// stride 1 nor at most kGemmSmallN channels wide: at most 4 input channels with AVX-512,
// any with one k block (320) of depth on AVX2 alone.
bool Wide(const ConvGeometry& g) {
  return g.in_c <= 4 || (!tflite::gemm::CpuHasAvx512F() && g.f_h * g.f_w * g.in_c <= 320);
}

// Double-precision convolution with the padding skipped, bias, clamp.
std::vector<double> Reference(const ConvGeometry& g, const std::vector<float>& in,
                              const std::vector<float>& filter, const std::vector<float>& bias,
                              float lo, float hi) {
  std::vector<double> out(static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.out_c);
  for (int b = 0; b < g.batches; ++b)
    for (int oy = 0; oy < g.out_h; ++oy)
      for (int ox = 0; ox < g.out_w; ++ox)
        for (int o = 0; o < g.out_c; ++o) {
          double sum = bias[o];
          for (int ky = 0; ky < g.f_h; ++ky)
            for (int kx = 0; kx < g.f_w; ++kx) {
              const int iy = oy * g.stride_h - g.pad_h + ky * g.dil_h;
              const int ix = ox * g.stride_w - g.pad_w + kx;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              for (int c = 0; c < g.in_c; ++c) {
                sum += static_cast<double>(in[((b * g.in_h + iy) * g.in_w + ix) * g.in_c + c]) *
                       filter[((o * g.f_h + ky) * g.f_w + kx) * g.in_c + c];
              }
            }
          out[((static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox) * g.out_c + o] =
              std::min<double>(std::max<double>(sum, lo), hi);
        }
  return out;
}

// Random input, filter and bias in [-1, 1) for g (drawn in that order from rng), the filter
// packed, and a stage: no bias every fifth trial, a clamp every third.
struct Operands {
  std::vector<float> in, filter, bias, packed;
  tflite::gemm::FloatOutputStage stage;
  Operands(const ConvGeometry& g, std::mt19937& rng, int trial) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    const int depth = g.f_h * g.f_w * g.in_c;
    in.resize(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c);
    filter.resize(static_cast<size_t>(g.out_c) * depth);
    bias.resize(g.out_c);
    for (float& v : in) v = value(rng);
    for (float& v : filter) v = value(rng);
    for (float& v : bias) v = value(rng);
    packed.resize(tflite::gemm::PackedWeightsSize(g.out_c, depth));
    tflite::gemm::PackFloatWeights(filter.data(), g.out_c, depth, packed.data());
    stage.bias = trial % 5 == 0 ? nullptr : bias.data();
    if (trial % 3 == 0) {
      stage.min = -0.5f;
      stage.max = 0.75f;
    }
  }
};

// Whether the direct kernel runs `probe` with `kernel` on this CPU; a visible skip where it
// does not.
bool DirectKernelRuns(const ConvGeometry& probe,
                      tflite::gemm::GemmKernel kernel = tflite::gemm::GemmKernel::kAuto) {
  if (tflite::conv_util::DirectFloatConvApplies(probe, kernel)) return true;
  WARN(
      "SKIPPED: this CPU (or TFI_KERNEL_ISA) has neither AVX-512F nor AVX2 with FMA; the "
      "direct kernel does not run");
  return false;
}

// Every output of `got` has the bits of `want`'s; the first that does not is named.
void RequireSameBits(const std::vector<float>& got, const std::vector<float>& want, int out_c,
                     const char* what) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) {
      FAIL("output " << i << " (pixel " << i / out_c << ", channel " << i % out_c << "): direct "
                     << got[i] << ", " << what << " " << want[i]);
    }
  }
}

TEST_CASE("DirectFloatConv: the im2col GEMM's bits and a double reference on random geometries") {
  ConvGeometry probe{1, 8, 8, 3, 3, 3, 4, 4, 8, 3, 1, 8, 2, 2, 1, 1, 0, 0};
  if (!DirectKernelRuns(probe)) return;
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(2),
                                                                    pthreadpool_destroy);
  std::mt19937 rng(20261205);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    ConvGeometry g;
    if (!MakeGeometry(rng, &g)) continue;
    CAPTURE(trial, g.batches, g.in_h, g.in_w, g.in_c, g.f_h, g.f_w, g.out_c, g.stride_h,
            g.stride_w, g.dil_h, g.pad_h, g.pad_w, g.out_h, g.out_w);
    const bool pointwise = g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1;
    const bool narrow = g.out_c <= tflite::gemm::kGemmSmallN;  // weights not in panels
    REQUIRE(tflite::conv_util::DirectFloatConvApplies(g, tflite::gemm::GemmKernel::kAuto) ==
            (!(pointwise || narrow) && Wide(g)));
    if (pointwise || narrow || !Wide(g)) continue;
    const int depth = g.f_h * g.f_w * g.in_c;
    Operands op(g, rng, trial);
    auto& [in, filter, bias, packed, stage] = op;
    if (stage.bias == nullptr) std::fill(bias.begin(), bias.end(), 0.0f);
    const size_t n_out = static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.out_c;
    std::vector<float> direct(n_out, -7.0f), gemm(n_out, 7.0f);
    tflite::conv_util::DirectFloatConv(g, in.data(), packed.data(), stage, direct.data(),
                                       trial % 2 == 0 ? pool.get() : nullptr);
    std::vector<float> scratch;
    tflite::conv_util::FloatConv(g, in.data(), packed.data(), stage, gemm.data(), &scratch,
                                 nullptr, tflite::gemm::GemmKernel::kAvx2);
    const std::vector<double> ref = Reference(g, in, filter, bias, stage.min, stage.max);
    for (size_t i = 0; i < n_out; ++i) REQUIRE(std::abs(direct[i] - ref[i]) <= 1e-5 * depth);
    RequireSameBits(direct, gemm, g.out_c, "GEMM");
    // Over the zero-padded copy of the input (the overload with scratch): zero taps in
    // place of the skipped ones, the same bits.
    std::vector<float> padded(n_out, 9.0f);
    tflite::conv_util::DirectFloatConv(g, in.data(), packed.data(), stage, padded.data(), &scratch,
                                       trial % 2 == 0 ? pool.get() : nullptr);
    RequireSameBits(padded, gemm, g.out_c, "GEMM");
    ++checked;
  }
  CHECK(checked > 150);
}

TEST_CASE(
    "DirectFloatConv in TFLite's order: the bits of the kTfliteGemmOrder GEMM on random "
    "geometries") {
  ConvGeometry probe{1, 8, 8, 3, 3, 3, 4, 4, 16, 3, 1, 16, 2, 2, 1, 1, 0, 0};
  if (!DirectKernelRuns(probe, tflite::gemm::GemmKernel::kTfliteGemmOrder)) return;
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(2),
                                                                    pthreadpool_destroy);
  std::mt19937 rng(20261206);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ConvGeometry g;
    if (!MakeGeometry(rng, &g)) continue;
    const bool pointwise = g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1;
    const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
    const int depth = g.f_h * g.f_w * g.in_c;
    const bool eight = g.out_c % 8 == 0 && g.out_c > tflite::gemm::kGemmSmallN && rows > 1 &&
                       rows + g.out_c + depth >= 20;
    CAPTURE(trial, g.batches, g.in_h, g.in_w, g.in_c, g.f_h, g.f_w, g.out_c, g.stride_h, g.stride_w,
            g.dil_h, g.pad_h, g.pad_w, g.out_h, g.out_w);
    REQUIRE(tflite::conv_util::DirectFloatConvApplies(
                g, tflite::gemm::GemmKernel::kTfliteGemmOrder) == (!pointwise && eight && Wide(g)));
    if (pointwise || !eight || !Wide(g)) continue;
    Operands op(g, rng, trial);
    auto& [in, filter, bias, packed, stage] = op;
    const size_t n_out = rows * g.out_c;
    std::vector<float> direct(n_out, -7.0f), gemm(n_out, 7.0f);
    tflite::conv_util::DirectFloatConv(g, in.data(), packed.data(), stage, direct.data(),
                                       trial % 2 == 0 ? pool.get() : nullptr,
                                       tflite::gemm::GemmKernel::kTfliteGemmOrder);
    // The whole im2col matrix in one product, as TFLite's builtin kernel multiplies it.
    std::vector<float> cols(rows * depth);
    tflite::conv_util::Im2ColRows(
        g, in.data(), 0, 0, rows, 0.0f, [](float v, size_t) { return v; }, cols.data());
    tflite::gemm::FloatGemm(static_cast<int>(rows), g.out_c, depth, cols.data(), depth,
                            packed.data(), gemm.data(), g.out_c, stage, nullptr,
                            tflite::gemm::GemmKernel::kTfliteGemmOrder);
    RequireSameBits(direct, gemm, g.out_c, "GEMM");
    std::vector<float> padded(n_out, 9.0f), scratch;
    tflite::conv_util::DirectFloatConv(g, in.data(), packed.data(), stage, padded.data(), &scratch,
                                       trial % 2 == 0 ? pool.get() : nullptr,
                                       tflite::gemm::GemmKernel::kTfliteGemmOrder);
    RequireSameBits(padded, gemm, g.out_c, "GEMM");
    ++checked;
  }
  CHECK(checked > 20);
}

TEST_CASE("DirectFloatConv: a residual ADD in the stage, as the GEMM adds it") {
  ConvGeometry g{1, 9, 30, 3, 3, 3, 5, 15, 24, 3, 1, 24, 2, 2, 1, 1, 1, 0};  // SAME
  if (!DirectKernelRuns(g)) return;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  const int depth = 27;
  std::vector<float> in(9 * 30 * 3), filter(24 * depth), bias(24), residual(5 * 15 * 20);
  for (auto* v : {&in, &filter, &bias, &residual})
    for (float& x : *v) x = value(rng);
  std::vector<float> packed(tflite::gemm::PackedWeightsSize(24, depth));
  tflite::gemm::PackFloatWeights(filter.data(), 24, depth, packed.data());
  tflite::gemm::FloatOutputStage stage;
  stage.bias = bias.data();
  stage.residual = residual.data();
  stage.residual_ld = 20;
  stage.residual_n = 20;  // channels 20-23 add a zero (a channel PAD of the value added)
  stage.residual_min = 0.0f;
  std::vector<float> direct(5 * 15 * 24), gemm(5 * 15 * 24);
  tflite::conv_util::DirectFloatConv(g, in.data(), packed.data(), stage, direct.data(), nullptr);
  std::vector<float> scratch;
  tflite::conv_util::FloatConv(g, in.data(), packed.data(), stage, gemm.data(), &scratch, nullptr,
                               tflite::gemm::GemmKernel::kAvx2);
  CHECK(std::memcmp(direct.data(), gemm.data(), direct.size() * sizeof(float)) == 0);
  CHECK(*std::min_element(direct.begin(), direct.end()) == 0.0f);
}

// Rows split into pixel ranges over the pool (Conv1D as converted: one row): each range's
// interior and edge pixels, and a residual ADD over its pixels only, give the bits of the
// whole row on one thread; 1-D geometries 48-600 pixels wide on pools of 2, 3 and 4
// threads (2-16 ranges a row).
TEST_CASE("DirectFloatConv: rows split into pixel ranges over the pool have one thread's bits") {
  ConvGeometry probe{1, 1, 64, 8, 1, 3, 1, 64, 32, 8, 1, 32, 1, 1, 1, 1, 0, 1};
  if (!DirectKernelRuns(probe)) return;
  std::mt19937 rng(20261207);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    ConvGeometry g{};
    g.batches = pick(1, 2);
    g.in_h = g.out_h = g.f_h = 1;
    g.in_w = pick(48, 600);
    g.in_c = pick(0, 2) > 0 ? pick(1, 4) : pick(5, 40);
    g.f_c = g.in_c;
    g.f_w = pick(1, 7);
    g.out_c = pick(0, 1) == 1 ? 8 * pick(3, 8) : pick(17, 70);
    g.group_out_c = g.out_c;
    g.groups = 1;
    g.stride_h = g.dil_h = g.dil_w = 1;
    g.stride_w = pick(1, 2);
    g.out_w = (g.in_w + g.stride_w - 1) / g.stride_w;  // SAME
    g.pad_w = std::max((g.out_w - 1) * g.stride_w + g.f_w - g.in_w, 0) / 2;
    if ((g.f_w == 1 && g.stride_w == 1) || !Wide(g)) continue;  // not the direct kernel's
    CAPTURE(trial, g.batches, g.in_w, g.in_c, g.f_w, g.out_c, g.stride_w, g.pad_w, g.out_w);
    REQUIRE(tflite::conv_util::DirectFloatConvApplies(g, tflite::gemm::GemmKernel::kAuto));
    Operands op(g, rng, trial);
    std::vector<float> residual(static_cast<size_t>(g.batches) * g.out_w * g.out_c);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float& v : residual) v = value(rng);
    if (trial % 2 == 1) {
      op.stage.residual = residual.data();
      op.stage.residual_ld = g.out_c;
      op.stage.residual_n = g.out_c;
    }
    const size_t n_out = residual.size();
    std::vector<float> one(n_out, -7.0f);
    tflite::conv_util::DirectFloatConv(g, op.in.data(), op.packed.data(), op.stage, one.data(),
                                       nullptr);
    for (int threads : {2, 3, 4}) {
      std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(threads),
                                                                        pthreadpool_destroy);
      std::vector<float> split(n_out, 7.0f);
      tflite::conv_util::DirectFloatConv(g, op.in.data(), op.packed.data(), op.stage, split.data(),
                                         pool.get());
      CAPTURE(threads);
      REQUIRE(std::memcmp(one.data(), split.data(), n_out * sizeof(float)) == 0);
    }
    ++checked;
  }
  CHECK(checked > 25);
}

// Grouped: each group's sums as its own convolution computes them on the im2col GEMM (its
// channels gathered into an image of their own: the same bits), written into its
// channels of the output, and a double reference; random geometries with 2-8 groups of
// 1-16 input and 5-20 output channels, over a pool and without.
TEST_CASE("GroupedDirectFloatConv: each group's GEMM bits on random grouped geometries") {
  ConvGeometry probe{1, 8, 8, 16, 3, 3, 8, 8, 16, 8, 2, 8, 1, 1, 1, 1, 1, 1};
  if (!tflite::conv_util::GroupedDirectFloatConvApplies(probe, tflite::gemm::GemmKernel::kAuto)) {
    WARN(
        "SKIPPED: the grouped direct convolution does not run on this CPU (AVX-512F takes "
        "at most 4 channels a group; or neither AVX-512F nor AVX2 with FMA)");
    return;
  }
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(2),
                                                                    pthreadpool_destroy);
  std::mt19937 rng(20261206);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int checked = 0;
  for (int trial = 0; trial < 120; ++trial) {
    ConvGeometry g;
    if (!MakeGeometry(rng, &g)) continue;
    const int groups = pick(2, 8), f_c = pick(1, 16);
    const int n = std::vector<int>{5, 8, 12, 16, 20}[pick(0, 4)];
    g.f_c = f_c;
    g.in_c = groups * f_c;
    g.groups = groups;
    g.group_out_c = n;
    g.out_c = groups * n;
    CAPTURE(trial, g.batches, g.in_h, g.in_w, g.f_h, g.f_w, groups, f_c, n, g.stride_h, g.stride_w,
            g.dil_h, g.pad_h, g.pad_w);
    ConvGeometry sub = g;
    sub.in_c = f_c;
    sub.out_c = n;
    sub.groups = 1;
    const bool applies =
        tflite::conv_util::DirectFloatConvApplies(sub, tflite::gemm::GemmKernel::kAuto);
    REQUIRE(tflite::conv_util::GroupedDirectFloatConvApplies(g, tflite::gemm::GemmKernel::kAuto) ==
            applies);
    if (!applies) continue;
    const int depth = g.f_h * g.f_w * f_c;
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    const size_t in_px = static_cast<size_t>(g.batches) * g.in_h * g.in_w;
    const size_t out_px = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
    std::vector<float> in(in_px * g.in_c), filter(static_cast<size_t>(g.out_c) * depth),
        bias(g.out_c);
    for (float& v : in) v = value(rng);
    for (float& v : filter) v = value(rng);
    for (float& v : bias) v = value(rng);
    tflite::gemm::FloatOutputStage stage;
    stage.bias = bias.data();
    if (trial % 3 == 0) {
      stage.min = -0.5f;
      stage.max = 0.75f;
    }
    const size_t panel = tflite::gemm::PackedWeightsSize(n, depth);
    std::vector<float> packed(panel * groups);
    std::vector<const float*> packed_groups(groups);
    for (int j = 0; j < groups; ++j) {
      tflite::gemm::PackFloatWeights(filter.data() + static_cast<size_t>(j) * n * depth, n, depth,
                                     packed.data() + j * panel);
      packed_groups[j] = packed.data() + j * panel;
    }
    std::vector<float> got(out_px * g.out_c, -9.0f), scratch;
    tflite::conv_util::GroupedDirectFloatConv(g, in.data(), packed_groups.data(), stage, got.data(),
                                              &scratch, trial % 2 == 0 ? pool.get() : nullptr);
    for (int j = 0; j < groups; ++j) {
      std::vector<float> image(in_px * f_c), want(out_px * n),
          sub_filter(filter.begin() + static_cast<size_t>(j) * n * depth,
                     filter.begin() + static_cast<size_t>(j + 1) * n * depth);
      for (size_t px = 0; px < in_px; ++px) {
        std::copy_n(in.data() + px * g.in_c + j * f_c, f_c, image.data() + px * f_c);
      }
      tflite::gemm::FloatOutputStage sub_stage = stage;
      sub_stage.bias = bias.data() + j * n;
      std::vector<float> sub_scratch;
      tflite::conv_util::FloatConv(sub, image.data(), packed_groups[j], sub_stage, want.data(),
                                   &sub_scratch, nullptr, tflite::gemm::GemmKernel::kAvx2);
      const std::vector<float> sub_bias(bias.begin() + j * n, bias.begin() + (j + 1) * n);
      const std::vector<double> ref =
          Reference(sub, image, sub_filter, sub_bias, stage.min, stage.max);
      for (size_t px = 0; px < out_px; ++px) {
        for (int c = 0; c < n; ++c) {
          const float v = got[px * g.out_c + j * n + c];
          REQUIRE(std::abs(v - ref[px * n + c]) <= 1e-5 * depth);
          if (std::memcmp(&v, &want[px * n + c], sizeof v) != 0) {
            FAIL("group " << j << ", pixel " << px << ", channel " << c << ": " << v << ", GEMM "
                          << want[px * n + c]);
          }
        }
      }
    }
    ++checked;
  }
  CHECK(checked > 40);
}

}  // namespace
}  // namespace tflite_inspect
