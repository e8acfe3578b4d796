#include "kernels/internal/gemm.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <pthreadpool.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/internal/gemm_blocks.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/vector_math.h"
#include "kernels/testing/conv_test_util.h"

namespace tflite_inspect {
namespace {

using namespace conv_test;  // NOLINT
using tflite::gemm::GemmKernel;

const GemmKernel kKernels[] = {GemmKernel::kAuto, GemmKernel::kPortable, GemmKernel::kAvx2};

// The bit-exactness tests' operands: seeded A [m][k], weights [n][k] packed, a bias, a
// clamp to [-1.5, 2].
struct BitsCase {
  std::vector<float> a, w, bias, packed;
  tflite::gemm::FloatOutputStage stage;
  BitsCase(int m, int n, int k, uint32_t seed) {
    std::mt19937 rng(seed);
    a = RandomFloats(rng, static_cast<size_t>(m) * k);
    w = RandomFloats(rng, static_cast<size_t>(n) * k);
    bias = RandomFloats(rng, n);
    packed.resize(tflite::gemm::PackedWeightsSize(n, k));
    tflite::gemm::PackFloatWeights(w.data(), n, k, packed.data());
    stage.bias = bias.data();
    stage.min = -1.5f;
    stage.max = 2.0f;
  }
  BitsCase(const BitsCase&) = delete;  // stage points into bias
};

// Packing [k][n] weights directly gives the bytes of packing their transpose.
TEST_CASE("PackFloatWeightsTransposed equals PackFloatWeights of the transpose") {
  const uint32_t seed = 77;
  std::mt19937 rng(seed);
  for (int n : {1, 3, 4, 5, 15, 16, 17, 33, 64}) {
    for (int k : {1, 2, 7, 64}) {
      const auto kn = RandomFloats(rng, static_cast<size_t>(k) * n);
      std::vector<float> nk(kn.size());
      for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < n; ++j) nk[static_cast<size_t>(j) * k + kk] = kn[static_cast<size_t>(kk) * n + j];
      std::vector<float> want(tflite::gemm::PackedWeightsSize(n, k), 7.f), got(want.size(), -7.f);
      tflite::gemm::PackFloatWeights(nk.data(), n, k, want.data());
      tflite::gemm::PackFloatWeightsTransposed(kn.data(), n, k, got.data());
      CAPTURE(seed, n, k);
      if (n <= 4) {  // narrow layout: n x k values, the rest unused
        want.resize(static_cast<size_t>(n) * k);
        got.resize(want.size());
      }
      REQUIRE(got == want);
    }
  }
}

TEST_CASE("RunBlocks visits every row and panel once, in blocks the threads can share") {
  // Random shapes (replayable: seeded), 1-4 threads, the row units and panel alignments
  // the GEMMs pass. With threads, at least as many tasks as threads where the rows allow.
  std::mt19937 rng(77);
  pthreadpool_t pools[4] = {nullptr, pthreadpool_create(2), pthreadpool_create(3),
                            pthreadpool_create(4)};
  for (int trial = 0; trial < 400; ++trial) {
    const int m = 1 + static_cast<int>(rng() % (trial % 3 == 0 ? 5000 : 200));
    const int panels = 1 + static_cast<int>(rng() % 70);
    const int k = 1 + static_cast<int>(rng() % 600);
    const int mc = 16 * (1 + static_cast<int>(rng() % 12));
    const int align = 1 + static_cast<int>(rng() % 2);
    const int unit = rng() % 4 == 0 ? 16 : 1;
    pthreadpool_t pool = pools[trial % 4];
    CAPTURE(trial, m, panels, k, mc, align, unit, trial % 4 + 1);
    std::vector<std::atomic<int>> seen(static_cast<size_t>(m) * panels);
    std::atomic<int> tasks{0}, misaligned{0};
    tflite::gemm::RunBlocks(
        pool, m, panels, k, mc,
        [&](int m0, int m1, int p0, int p1) {
          ++tasks;
          if (p0 % align != 0 || (m0 % unit != 0) || m1 <= m0 || p1 <= p0) ++misaligned;
          for (int i = m0; i < m1; ++i) {
            for (int p = p0; p < p1; ++p) ++seen[static_cast<size_t>(i) * panels + p];
          }
        },
        align, /*min_parallel_macs=*/0, unit);
    CHECK(misaligned == 0);
    CHECK(std::all_of(seen.begin(), seen.end(), [](const std::atomic<int>& v) { return v == 1; }));
    const int threads = trial % 4 + 1;
    if (threads > 1 && m >= 2 * threads * std::max(unit, 16)) CHECK(tasks >= threads);
  }
  for (pthreadpool_t pool : pools) {
    if (pool != nullptr) pthreadpool_destroy(pool);
  }
}

TEST_CASE("FloatGemm's SIMD tiles (AVX-512, AVX2, NEON) give the bits of one fma per k") {
  if (std::string(tflite::gemm::FloatKernelName()).rfind("generic", 0) == 0) {
    WARN("skipped: this CPU runs the portable tile (no FMA kernel to check)");
    return;
  }
  // The rule every FMA tile follows, on x86 and ARM alike: per k block (one block up to
  // k = 320, else blocks of at most 256), acc = fma(a, b, acc) from 0 in k order; the
  // blocks' sums added to C in order; then the bias and the clamp.
  const int shapes[][3] = {{7, 17, 5},
                           {13, 32, 300},
                           {6, 48, 321},
                           {19, 20, 700},
                           {1, 16, 1},
                           {9, 16, 40},
                           {130, 64, 700},
                           {8, 24, 1},
                           {25, 80, 130},
                           {12, 33, 64},
                           {37, 112, 9},
                           {30, 24, 700},
                           // One row (the row kernels: 8 / 4 panels at a time, k blocks).
                           {1, 200, 700},
                           {1, 40, 321},
                           {1, 130, 64},
                           {1, 7, 5},
                           {1, 280, 33},
                           {1, 16, 256}};
  uint32_t seed = 300;
  for (const auto& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    const BitsCase operands(m, n, k, ++seed);
    const auto& [a, w, bias, packed, stage] = operands;
    const int blocks = k <= 320 ? 1 : (k + 255) / 256;
    const int kc = (k + blocks - 1) / blocks;
    std::vector<float> want(static_cast<size_t>(m) * n);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        float c = 0.0f;
        for (int p0 = 0; p0 < k; p0 += kc) {
          float acc = 0.0f;
          for (int p = p0; p < std::min(k, p0 + kc); ++p) {
            acc = std::fma(a[static_cast<size_t>(i) * k + p], w[static_cast<size_t>(j) * k + p], acc);
          }
          c = p0 == 0 ? acc : c + acc;
        }
        c += bias[j];
        want[static_cast<size_t>(i) * n + j] = std::min(std::max(c, stage.min), stage.max);
      }
    }
    // kAuto (AVX-512 where there is, AVX2, NEON) and kAvx2 (the AVX2 tile even on an
    // AVX-512 CPU; kAuto elsewhere): the same bits as the reference, so as each other.
    for (GemmKernel kernel : {GemmKernel::kAuto, GemmKernel::kAvx2}) {
      std::vector<float> got(static_cast<size_t>(m) * n);
      tflite::gemm::FloatGemm(m, n, k, a.data(), k, packed.data(), got.data(), n, stage, nullptr,
                              kernel);
      CAPTURE(m, n, k, tflite::gemm::FloatKernelName(), static_cast<int>(kernel));
      CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    }
  }
}

// kTfliteMatMulOrder: TFLite's builtin BATCH_MATMUL sums on x86: k ascending from 0, each
// product rounded, then added; one k block; then the bias and the clamp.
TEST_CASE("FloatGemm's kTfliteMatMulOrder gives the bits of a product rounded, then added") {
  const int shapes[][3] = {{7, 17, 5},    {13, 32, 300}, {6, 48, 700},  {64, 128, 128},
                           {25, 80, 130}, {1, 16, 9},    {37, 112, 64}, {9, 3, 11},
                           {20, 24, 9},   {13, 8, 16}};  // (panels of 8 columns: the half store)
  uint32_t seed = 400;
  for (const auto& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    const BitsCase operands(m, n, k, ++seed);
    const auto& [a, w, bias, packed, stage] = operands;
    std::vector<float> want(static_cast<size_t>(m) * n), got(want.size());
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        volatile float acc = 0.0f;  // no contraction: each product rounded, then added
        for (int p = 0; p < k; ++p) {
          volatile float product = a[static_cast<size_t>(i) * k + p] * w[static_cast<size_t>(j) * k + p];
          acc = acc + product;
        }
        const float c = acc + bias[j];
        want[static_cast<size_t>(i) * n + j] = std::min(std::max(c, stage.min), stage.max);
      }
    }
    tflite::gemm::FloatGemm(m, n, k, a.data(), k, packed.data(), got.data(), n, stage, nullptr,
                            GemmKernel::kTfliteMatMulOrder);
    CAPTURE(m, n, k);
    CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
  }
}

// kTfliteGemmOrder: TFLite's builtin CONV_2D / FULLY_CONNECTED sums on x86, Eigen's GEMM for
// 4-float packets without FMA (dst[n][m] = w[n][k] x a[k][m]), written out per output from
// Eigen's kernel structure: channels below n & ~7 sum k ascending; the next 4 (below n & ~3)
// sum even and odd k below k & ~7 apart; the last n % 4 sum four chains k = l mod 4 below
// k & ~3, (c0 + c1) + (c2 + c3); rows from m & ~3 on sum k ascending there; m or n of 1 is
// a matrix-vector product (four lanes, (l0 + l2) + (l1 + l3)); the rest of k one by one.
// TFLite's own bits are checked on testdata/kernels/float_*_in_hybrid_graph*.
float EigenOrderSum(const float* x, const float* wj, int m, int n, int k, int i, int j) {
  auto product = [&](int p) {
    volatile float v = x[p] * wj[p];
    return static_cast<float>(v);
  };
  volatile float sum = 0.0f;
  int p = 0;
  if (m == 1 || n == 1) {
    volatile float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (; p + 4 <= k; p += 4) {
      for (int l = 0; l < 4; ++l) lane[l] = lane[l] + product(p + l);
    }
    volatile float even = lane[0] + lane[2];
    volatile float odd = lane[1] + lane[3];
    sum = even + odd;
  } else if (j >= (n & ~7) && i < (m & ~3)) {
    if (j < (n & ~3)) {
      volatile float even = 0.0f, odd = 0.0f;
      for (; p < (k & ~7); p += 2) {
        even = even + product(p);
        odd = odd + product(p + 1);
      }
      sum = even + odd;
    } else {
      volatile float chain[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (; p + 4 <= k; p += 4) {
        for (int l = 0; l < 4; ++l) chain[l] = chain[l] + product(p + l);
      }
      volatile float left = chain[0] + chain[1];
      volatile float right = chain[2] + chain[3];
      sum = left + right;
    }
  }
  for (; p < k; ++p) sum = sum + product(p);
  return sum;
}

TEST_CASE("FloatGemm's kTfliteGemmOrder sums as Eigen's GEMM does, output by output") {
  const int shapes[][3] = {{7, 17, 5},  {13, 32, 300}, {9, 11, 27},  {30, 22, 22}, {1, 13, 37},
                           {30, 1, 18}, {5, 12, 45},   {1, 1, 7},    {6, 4, 9},    {63, 3, 23},
                           {12, 6, 8},  {64, 128, 64}, {2, 40, 700}, {1, 30, 3},   {11, 2, 1},
                           {1, 80, 12}, {1, 37, 45},   // (m = 1: 16 channels a step on AVX-512)
                           {24, 40, 8}, {17, 8, 16}};  // (a last panel of 8 columns)
  uint32_t seed = 900;
  for (const auto& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    const BitsCase operands(m, n, k, ++seed);
    const auto& [a, w, bias, packed, stage] = operands;
    std::vector<float> want(static_cast<size_t>(m) * n), got(want.size());
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        const float sum = EigenOrderSum(a.data() + static_cast<size_t>(i) * k,
                                        w.data() + static_cast<size_t>(j) * k, m, n, k, i, j);
        volatile float c = sum + bias[j];
        want[static_cast<size_t>(i) * n + j] = std::min(std::max(static_cast<float>(c), stage.min), stage.max);
      }
    }
    for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), pthreadpool_create(2)}) {
      std::fill(got.begin(), got.end(), -1.0f);
      tflite::gemm::FloatGemm(m, n, k, a.data(), k, packed.data(), got.data(), n, stage, pool,
                              GemmKernel::kTfliteGemmOrder);
      CAPTURE(m, n, k, pool != nullptr);
      CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
      if (pool != nullptr) pthreadpool_destroy(pool);
    }
  }
}

// The residual ADD in the output stage gives the bits of FloatGemm without it followed by
// clamp(c + r) as a separate ADD (and RELU) computes it, on every path of FloatGemm (row
// kernel, small n, Eigen's order's tails, k = 0, threads), with the residual a strided view
// or narrower than C (a zero channel PAD), and -0 sums against a bound of +0.
TEST_CASE("FloatGemm's residual ADD is a separate ADD's bits, on every path") {
  const int shapes[][3] = {{1, 40, 9},   {7, 17, 5},  {13, 32, 30}, {30, 22, 22}, {200, 24, 24},
                           {100, 5, 3},  {5, 3, 0},   {64, 96, 96}, {37, 1, 7},   {450, 28, 16}};
  const GemmKernel kernels[] = {GemmKernel::kAuto, GemmKernel::kPortable, GemmKernel::kAvx2,
                                GemmKernel::kTfliteGemmOrder, GemmKernel::kTfliteMatMulOrder};
  uint32_t seed = 4000;
  pthreadpool_t two = pthreadpool_create(2);
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kernels) {
      for (int narrower : {0, 1}) {
        ++seed;
        const int m = s[0], n = s[1], k = s[2];
        const int channels = narrower != 0 ? std::max(1, n - 1 - static_cast<int>(seed % 5)) : n;
        const int ld = channels + static_cast<int>(seed % 3);
        CAPTURE(seed, m, n, k, static_cast<int>(kernel), channels, ld);
        BitsCase operands(m, n, k, seed);
        std::mt19937 rng(seed);
        std::vector<float> residual = RandomFloats(rng, static_cast<size_t>(m) * ld);
        // Zeros in the residual: c + 0 is c but for -0, which becomes +0.
        for (size_t i = 0; i < residual.size(); i += 7) residual[i] = 0.0f;
        tflite::gemm::FloatOutputStage plain = operands.stage;
        plain.min = -3.0f;  // the layer's own clamp, then the ADD's
        tflite::gemm::FloatOutputStage fused = plain;
        fused.residual = residual.data();
        fused.residual_ld = ld;
        fused.residual_n = channels;
        fused.residual_min = seed % 2 == 0 ? 0.0f : -1.0f;
        fused.residual_max = 2.5f;
        // A PRELU after the sum on every third case (slopes of both signs).
        const std::vector<float> slopes = RandomFloats(rng, n);
        if (seed % 3 == 0) fused.residual_prelu = slopes.data();
        std::vector<float> want(static_cast<size_t>(m) * n), got(want.size());
        tflite::gemm::FloatGemm(m, n, k, operands.a.data(), k, operands.packed.data(), want.data(), n,
                                plain, nullptr, kernel);
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) {
            float& c = want[static_cast<size_t>(i) * n + j];
            const float r = j < channels ? residual[static_cast<size_t>(i) * ld + j] : 0.0f;
            c = std::min(std::max(c + r, fused.residual_min), fused.residual_max);
            if (fused.residual_prelu != nullptr) c = c >= 0.0f ? c : c * slopes[j];
          }
        }
        for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two}) {
          std::fill(got.begin(), got.end(), -7.0f);
          tflite::gemm::FloatGemm(m, n, k, operands.a.data(), k, operands.packed.data(), got.data(),
                                  n, fused, pool, kernel);
          CAPTURE(pool != nullptr);
          CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
        }
        // FromRow: the rows from r0 on, as a call on part of the rows sees them (Eigen's
        // order depends on the row count: the reference is the same call without residual).
        if (m > 3) {
          const int r0 = m / 2;
          std::vector<float> part_want(static_cast<size_t>(m - r0) * n), part(part_want.size());
          const float* a_r0 = operands.a.data() + static_cast<size_t>(r0) * k;
          tflite::gemm::FloatGemm(m - r0, n, k, a_r0, k, operands.packed.data(), part_want.data(), n,
                                  plain, nullptr, kernel);
          for (int i = 0; i < m - r0; ++i) {
            for (int j = 0; j < n; ++j) {
              float& c = part_want[static_cast<size_t>(i) * n + j];
              const float r = j < channels ? residual[static_cast<size_t>(i + r0) * ld + j] : 0.0f;
              c = std::min(std::max(c + r, fused.residual_min), fused.residual_max);
              if (fused.residual_prelu != nullptr) c = c >= 0.0f ? c : c * slopes[j];
            }
          }
          tflite::gemm::FloatGemm(m - r0, n, k, a_r0, k, operands.packed.data(), part.data(), n,
                                  fused.FromRow(r0), nullptr, kernel);
          CHECK(std::memcmp(part.data(), part_want.data(), part.size() * sizeof(float)) == 0);
        }
      }
    }
  }
  pthreadpool_destroy(two);
}

TEST_CASE(
    "FinishBlock's residual ADD: every width, both tails, whole rows, -0 against a bound of +0, "
    "PRELU") {
  std::mt19937 rng(77);
  for (int width = 1; width <= 70; ++width) {
    for (int channels : {width, width / 2, 0, -1, -2}) {
      // -2: the full width with a PRELU (the builtin's input >= 0 ? input : input * alpha).
      const bool prelu = channels == -2;
      if (prelu) channels = width;
      // -1: rows of C and of the residual both `width` long (taken as one long row).
      const bool whole_rows = channels < 0;
      if (whole_rows) channels = width;
      CAPTURE(width, channels, whole_rows);
      const int rows = 3, ldc = whole_rows ? width : width + 2;
      std::vector<float> c = RandomFloats(rng, static_cast<size_t>(rows) * ldc);
      std::vector<float> r = RandomFloats(rng, static_cast<size_t>(rows) * std::max(1, channels));
      c[0] = -0.0f;
      if (channels > 0) r[0] = -0.0f;
      tflite::gemm::FloatOutputStage stage;
      stage.residual = r.data();
      stage.residual_ld = std::max(1, channels);
      stage.residual_n = channels;
      stage.residual_min = prelu ? -0.5f : 0.0f;
      stage.residual_max = 0.75f;
      const std::vector<float> slopes = RandomFloats(rng, width);
      if (prelu) stage.residual_prelu = slopes.data();
      std::vector<float> want = c;
      for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < width; ++j) {
          float& v = want[static_cast<size_t>(i) * ldc + j];
          v = std::min(std::max(v + (j < channels ? r[static_cast<size_t>(i) * stage.residual_ld + j] : 0.0f),
                                stage.residual_min),
                       0.75f);
          if (prelu) v = v >= 0.0f ? v : v * slopes[j];
        }
      }
      tflite::gemm::FinishBlock(stage, c.data(), ldc, 0, rows, 0, width);
      CHECK(std::memcmp(c.data(), want.data(), c.size() * sizeof(float)) == 0);
    }
  }
}

// The swish in the output stage: the bits of FloatGemm without it and vector_math's swish
// over C afterwards, on every path (m = 1 rows, few columns, tiles, two threads' blocks).
TEST_CASE("FloatGemm's swish stage equals the swish after it") {
  const int shapes[][3] = {{1, 40, 9},    {1, 1000, 37}, {7, 3, 5},    {13, 33, 31},
                           {200, 96, 16}, {37, 1, 72},   {250, 24, 40}};
  pthreadpool_t two = pthreadpool_create(2);
  uint32_t seed = 500;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two}) {
        const int m = s[0], n = s[1], k = s[2];
        CAPTURE(m, n, k, static_cast<int>(kernel), pool != nullptr);
        std::mt19937 rng(++seed);
        const auto a = RandomFloats(rng, static_cast<size_t>(m) * k);
        const auto w = RandomFloats(rng, static_cast<size_t>(n) * k);
        const auto bias = RandomFloats(rng, n);
        std::vector<float> packed(tflite::gemm::PackedWeightsSize(n, k));
        tflite::gemm::PackFloatWeights(w.data(), n, k, packed.data());
        tflite::gemm::FloatOutputStage stage;
        stage.bias = bias.data();
        std::vector<float> want(static_cast<size_t>(m) * n), got(want.size());
        tflite::gemm::FloatGemm(m, n, k, a.data(), k, packed.data(), want.data(), n, stage, pool,
                                kernel);
        tflite::vector_math::Apply(tflite::vector_math::Function::kSwish, want.data(),
                                   static_cast<int64_t>(want.size()), want.data());
        stage.swish = true;
        tflite::gemm::FloatGemm(m, n, k, a.data(), k, packed.data(), got.data(), n, stage, pool,
                                kernel);
        CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
      }
    }
  }
  pthreadpool_destroy(two);
}

TEST_CASE("FloatGemm (every micro-kernel) matches a double reference") {
  const int shapes[][3] = {{1, 1, 1},    {1, 1000, 37}, {7, 16, 5},    {13, 33, 321},
                           {6, 17, 700}, {100, 5, 3},   {97, 64, 288}, {5, 3, 0},
                           {37, 1, 72},  {9, 4, 13},    {2, 2, 8},     {70, 3, 500},
                           {50, 4, 4},   {9, 3, 7},     {11, 1, 2}};  // (n <= 4, k < 8: lanes)
  uint32_t seed = 0;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      for (int with_bias = 0; with_bias < 2; ++with_bias) {
        ++seed;
        const int m = s[0], n = s[1], k = s[2];
        CAPTURE(seed, m, n, k, static_cast<int>(kernel), with_bias);
        std::mt19937 rng(seed);
        const int lda = k + (seed % 3);  // A may be a strided view
        const auto a = RandomFloats(rng, static_cast<size_t>(m) * lda);
        const auto w = RandomFloats(rng, static_cast<size_t>(n) * k);
        const auto bias = RandomFloats(rng, n);
        std::vector<float> packed(tflite::gemm::PackedWeightsSize(n, k));
        tflite::gemm::PackFloatWeights(w.data(), n, k, packed.data());
        tflite::gemm::FloatOutputStage stage;
        stage.bias = with_bias ? bias.data() : nullptr;
        stage.min = -2.5f;
        stage.max = 3.0f;
        std::vector<float> c(static_cast<size_t>(m) * n, 99.f);
        tflite::gemm::FloatGemm(m, n, k, a.data(), lda, packed.data(), c.data(), n, stage, nullptr,
                                kernel);
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) {
            double acc = with_bias ? bias[j] : 0.0, mag = std::abs(acc);
            for (int kk = 0; kk < k; ++kk) {
              const double p = static_cast<double>(a[i * lda + kk]) * w[j * k + kk];
              acc += p;
              mag += std::abs(p);
            }
            acc = std::min(std::max(acc, -2.5), 3.0);
            if (!CloseTo(c[i * n + j], acc, mag)) {
              CAPTURE(i, j, c[i * n + j], acc);
              FAIL("mismatch");
            }
          }
        }
      }
    }
  }
}

TEST_CASE("QuantizedGemm (both micro-kernels) is exact, odd and even depths") {
  const int shapes[][3] = {{1, 1, 1}, {3, 20, 7}, {9, 33, 64}, {5, 16, 301}, {4, 3, 0}};
  uint32_t seed = 100;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      ++seed;
      const int m = s[0], n = s[1], k = s[2];
      CAPTURE(seed, m, n, k, static_cast<int>(kernel));
      std::mt19937 rng(seed);
      // int8 input with input_offset folded in: values in [-255, 255].
      const auto a = RandomInts<int16_t>(rng, static_cast<size_t>(m) * k, -255, 255);
      const auto w = RandomInts<uint8_t>(rng, static_cast<size_t>(n) * k, 0, 255);
      const int32_t w_zp = 128;
      const auto bias = RandomInts<int32_t>(rng, n, -50000, 50000);
      std::vector<int32_t> mult(n);
      std::vector<int32_t> shift(n);
      for (int j = 0; j < n; ++j) {
        int sh = 0;
        RefQuantizeMultiplier(0.0001 * (j + 1), &mult[j], &sh);
        shift[j] = sh;
      }
      std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
      tflite::gemm::PackUint8Weights(w.data(), n, k, w_zp, packed.data());
      tflite::gemm::QuantizedOutputStage stage;
      stage.bias = bias.data();
      stage.multiplier = mult.data();
      stage.shift = shift.data();
      stage.output_offset = -3;
      stage.act_min = -100;
      stage.act_max = 120;
      std::vector<int8_t> c(static_cast<size_t>(m) * n);
      tflite::gemm::QuantizedGemm(m, n, k, a.data(), k, packed.data(), c.data(), n, stage, nullptr,
                                  kernel);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          int32_t acc = bias[j];
          for (int kk = 0; kk < k; ++kk) acc += a[i * k + kk] * (w[j * k + kk] - w_zp);
          int32_t v = RefMultiplyByQuantizedMultiplier(acc, mult[j], shift[j]) - 3;
          v = std::min(std::max(v, -100), 120);
          if (c[i * n + j] != v) {
            CAPTURE(i, j, static_cast<int>(c[i * n + j]), v);
            FAIL("mismatch");
          }
        }
      }
    }
  }
}

// The SIMD tiles' vector output stage against the reference arithmetic for every output
// type, with multipliers above and below one, negative ones (crafted negative scales) and
// partial panels.
template <typename OutT>
void CheckOutputStage(uint32_t seed, int32_t act_min, int32_t act_max) {
  const int shapes[][3] = {{7, 37, 9}, {4, 16, 64}, {13, 5, 3}};
  for (const auto& sh : shapes) {
    for (GemmKernel kernel : kKernels) {
      ++seed;
      const int m = sh[0], n = sh[1], k = sh[2];
      CAPTURE(seed, m, n, k, static_cast<int>(kernel), sizeof(OutT));
      std::mt19937 rng(seed);
      const auto a = RandomInts<int16_t>(rng, static_cast<size_t>(m) * k, -255, 255);
      const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -127, 127);
      const auto bias = RandomInts<int32_t>(rng, n, -2000000, 2000000);
      std::uniform_real_distribution<double> log_scale(-14.0, 8.0);
      std::vector<int32_t> mult(n), shift(n);
      for (int j = 0; j < n; ++j) {
        const double real = std::exp2(log_scale(rng)) * (j % 5 == 4 ? -1.0 : 1.0);
        int e = 0;
        RefQuantizeMultiplier(real, &mult[j], &e);
        shift[j] = e;
      }
      std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
      tflite::gemm::PackInt8Weights(w.data(), n, k, 0, packed.data());
      tflite::gemm::QuantizedOutputStage stage;
      stage.bias = bias.data();
      stage.multiplier = mult.data();
      stage.shift = shift.data();
      stage.output_offset = 5;
      stage.act_min = act_min;
      stage.act_max = act_max;
      std::vector<OutT> c(static_cast<size_t>(m) * n);
      tflite::gemm::QuantizedGemm(m, n, k, a.data(), k, packed.data(), c.data(), n, stage, nullptr,
                                  kernel);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          int32_t acc = bias[j];
          for (int kk = 0; kk < k; ++kk) acc += a[i * k + kk] * w[j * k + kk];
          int32_t v = RefMultiplyByQuantizedMultiplier(acc, mult[j], shift[j]);
          v = static_cast<int32_t>(static_cast<uint32_t>(v) + 5u);
          v = std::min(std::max(v, act_min), act_max);
          if (c[i * n + j] != v) {
            CAPTURE(i, j, static_cast<int>(c[i * n + j]), v, mult[j], shift[j]);
            FAIL("mismatch");
          }
        }
      }
    }
  }
}

TEST_CASE("QuantizedGemm's output stage: int8, uint8 and int16 outputs, any multiplier") {
  CheckOutputStage<int8_t>(700, -128, 127);
  CheckOutputStage<int8_t>(710, -20, 90);
  CheckOutputStage<uint8_t>(720, 0, 255);
  CheckOutputStage<int16_t>(730, -32768, 32767);
}

// 16x8: int16 activations times 8-bit weights, summed exactly in int64. Extreme values
// (every product -32768 * 255 or 32767 * 255) over long depths would overflow an int32
// sum; the reference's int64 sum and its 64-bit requantization must come out.
TEST_CASE("SingleRoundingMultiply without __int128 gives the 128-bit result, bit for bit") {
  // 32-bit ARM builds take the portable path; here both run, against the exact reference.
  std::vector<int64_t> accs = {0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1, 0xFFFFFFFFll,
                               0x100000000ll, -0x100000000ll, -0xFFFFFFFFll, 0x7FFFFFFFll,
                               -0x80000000ll, (int64_t{1} << 62) + 12345, -(int64_t{1} << 62)};
  std::vector<int32_t> multipliers = {0, 1, -1, INT32_MAX, INT32_MIN, 1 << 30, 1518500250,
                                      -1073741824};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    accs.push_back(static_cast<int64_t>(rng()) >> (rng() % 64));
    multipliers.push_back(static_cast<int32_t>(rng()));
  }
  int checked = 0;
  for (int64_t acc : accs) {
    for (int32_t multiplier : multipliers) {
      for (int shift = -31; shift <= 30; ++shift) {
        const int64_t expected = RefSingleRoundingMultiply(acc, multiplier, shift);
        const int64_t portable =
            tflite::gemm::SingleRoundingMultiplyPortable(acc, multiplier, shift);
        if (portable != expected) {
          CAPTURE(acc, multiplier, shift, expected, portable);
          FAIL("portable SingleRoundingMultiply differs");
        }
        if (tflite::gemm::SingleRoundingMultiply(acc, multiplier, shift) != expected) {
          CAPTURE(acc, multiplier, shift);
          FAIL("SingleRoundingMultiply differs from the reference");
        }
        ++checked;
      }
    }
  }
  CHECK(checked == static_cast<int>(accs.size() * multipliers.size() * 62));
}

TEST_CASE("QuantizedGemm16x8 (both micro-kernels) sums exactly in int64") {
  const int shapes[][3] = {{1, 1, 1}, {3, 20, 7}, {5, 17, 256}, {6, 33, 257}, {2, 16, 1201},
                           {4, 3, 0}};
  uint32_t seed = 200;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      for (int extreme = 0; extreme < 2; ++extreme) {
        ++seed;
        const int m = s[0], n = s[1], k = s[2];
        CAPTURE(seed, m, n, k, static_cast<int>(kernel), extreme);
        std::mt19937 rng(seed);
        std::vector<int16_t> a =
            RandomInts<int16_t>(rng, static_cast<size_t>(m) * k, -32768, 32767);
        std::vector<uint8_t> w = RandomInts<uint8_t>(rng, static_cast<size_t>(n) * k, 0, 255);
        if (extreme) {  // row 0 all -32768, row 1 all 32767; weights all 255
          for (int kk = 0; kk < k; ++kk) {
            a[kk] = -32768;
            if (m > 1) a[k + kk] = 32767;
          }
          std::fill(w.begin(), w.end(), uint8_t{255});
        }
        const auto bias = RandomInts<int64_t>(rng, n, -1000000, 1000000);
        std::vector<int32_t> mult(n), shift(n);
        for (int j = 0; j < n; ++j) {
          int sh = 0;
          RefQuantizeMultiplier(0.00001 * (j + 1) / std::max(1, k / 64), &mult[j], &sh);
          shift[j] = sh;
        }
        std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
        tflite::gemm::PackUint8Weights(w.data(), n, k, 0, packed.data());
        tflite::gemm::Quantized16x8OutputStage stage;
        stage.bias = bias.data();
        stage.multiplier = mult.data();
        stage.shift = shift.data();
        stage.act_min = -30000;
        stage.act_max = 32000;
        std::vector<int16_t> c(static_cast<size_t>(m) * n);
        tflite::gemm::QuantizedGemm16x8(m, n, k, a.data(), k, packed.data(), c.data(), n, stage,
                                        nullptr, kernel);
        bool beyond_int32 = false;
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) {
            int64_t acc = bias[j];
            for (int kk = 0; kk < k; ++kk) {
              acc += static_cast<int64_t>(a[i * k + kk]) * w[j * k + kk];
            }
            beyond_int32 |= acc != static_cast<int32_t>(acc);
            int32_t v = RefMultiplyByQuantizedMultiplier64(acc, mult[j], shift[j]);
            v = std::min(std::max(v, -30000), 32000);
            if (c[i * n + j] != v) {
              CAPTURE(i, j, c[i * n + j], v, acc);
              FAIL("mismatch");
            }
          }
        }
        if (extreme && k > 1000) CHECK(beyond_int32);
      }
    }
  }
}

// Hybrid kernels: int8 values (asymmetric inputs minus their offset: [-255, 255]) times
// int8 weights, raw int32 sums into a strided C, columns beyond n untouched.
TEST_CASE("Int32Gemm (both micro-kernels) gives the exact int32 sums") {
  const int shapes[][3] = {{1, 1, 1}, {1, 1000, 37}, {3, 20, 7}, {9, 33, 64}, {5, 16, 301},
                           {4, 3, 0}};
  uint32_t seed = 300;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      ++seed;
      const int m = s[0], n = s[1], k = s[2];
      CAPTURE(seed, m, n, k, static_cast<int>(kernel));
      std::mt19937 rng(seed);
      const int lda = k + static_cast<int>(seed % 2), ldc = n + 2;
      const auto a = RandomInts<int16_t>(rng, static_cast<size_t>(m) * lda, -255, 255);
      const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
      std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
      tflite::gemm::PackInt8Weights(w.data(), n, k, 0, packed.data());
      std::vector<int32_t> c(static_cast<size_t>(m) * ldc, 77);
      tflite::gemm::Int32Gemm(m, n, k, a.data(), lda, packed.data(), c.data(), ldc, nullptr,
                              kernel);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < ldc; ++j) {
          int32_t acc = 77;
          if (j < n) {
            acc = 0;
            for (int kk = 0; kk < k; ++kk) acc += a[i * lda + kk] * w[j * k + kk];
          }
          if (c[i * ldc + j] != acc) {
            CAPTURE(i, j, c[i * ldc + j], acc);
            FAIL("mismatch");
          }
        }
      }
    }
  }
}

// The hybrid layers' int16 path: the rescale in the tiles gives Int32Gemm's sums through
// hybrid::ScaleRows bit for bit (with and without the offset term, dot bias, bias and a
// pool; partial tiles; ReLU6-style clamps), and leaves C's padding alone.
TEST_CASE("Int16GemmHybrid gives Int32Gemm then ScaleRows bit for bit") {
  const int shapes[][3] = {{1, 1, 1},      {1, 1000, 37}, {3, 20, 7}, {9, 33, 64},
                           {64, 128, 128}, {66, 40, 301}, {4, 3, 0}};
  pthreadpool_t two = pthreadpool_create(2);
  uint32_t seed = 700;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      for (int variant = 0; variant < 4; ++variant) {
        ++seed;
        const int m = s[0], n = s[1], k = s[2];
        CAPTURE(seed, m, n, k, static_cast<int>(kernel), variant);
        std::mt19937 rng(seed);
        const int lda = k + 1, ldc = n + 3;
        const auto a = RandomInts<int16_t>(rng, static_cast<size_t>(m) * lda, -255, 255);
        const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
        std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
        tflite::gemm::PackInt8Weights(w.data(), n, k, 0, packed.data());
        std::uniform_real_distribution<float> unit(0.001f, 0.05f), b(-3.f, 3.f);
        std::vector<float> row_scale(m), unit_scale(n), bias(n);
        for (float& v : row_scale) v = unit(rng);
        for (float& v : unit_scale) v = unit(rng);
        for (float& v : bias) v = b(rng);
        const auto col_sums = RandomInts<int32_t>(rng, n, -40000, 40000);
        const auto dot_bias = RandomInts<int32_t>(rng, n, -70000, 70000);
        const auto row_offset = RandomInts<int32_t>(rng, m, -128, 127);
        tflite::gemm::HybridOutputStage stage;
        stage.row_scale = row_scale.data();
        stage.unit_scale = unit_scale.data();
        stage.bias = variant & 1 ? bias.data() : nullptr;
        stage.col_sums = variant & 2 ? col_sums.data() : nullptr;
        stage.row_offset = row_offset.data();
        stage.dot_bias = variant == 3 ? dot_bias.data() : nullptr;
        stage.act_min = variant == 1 ? 0.0f : -std::numeric_limits<float>::infinity();
        stage.act_max = variant == 1 ? 6.0f : std::numeric_limits<float>::infinity();
        std::vector<int32_t> sums(static_cast<size_t>(m) * n);
        tflite::gemm::Int32Gemm(m, n, k, a.data(), lda, packed.data(), sums.data(), n, nullptr,
                                kernel);
        for (int i = 0; i < m && stage.dot_bias != nullptr; ++i) {
          for (int j = 0; j < n; ++j) {
            sums[i * n + j] = static_cast<int32_t>(static_cast<uint32_t>(sums[i * n + j]) +
                                                   static_cast<uint32_t>(dot_bias[j]));
          }
        }
        std::vector<float> want(static_cast<size_t>(m) * ldc, 9.5f), got(want);
        tflite::hybrid::ScaleRows(sums.data(), n, m, n, row_scale.data(), stage.col_sums,
                                  row_offset.data(), unit_scale.data(), stage.bias, stage.act_min,
                                  stage.act_max, want.data(), ldc);
        for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two}) {
          std::fill(got.begin(), got.end(), 9.5f);
          tflite::gemm::Int16GemmHybrid(m, n, k, a.data(), lda, packed.data(), stage, got.data(),
                                        ldc, pool, kernel);
          REQUIRE(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
        }
      }
    }
  }
  pthreadpool_destroy(two);
}

// A float convolution's windows read in place (FloatGemmImage) give FloatGemm's bits on the
// same rows gathered (in FloatImageKc's blocks), where FloatGemmImageRuns (k blocks inside
// filter rows: one span of k <= 320, spans that FloatKc's blocks divide: 576 = 3 x 192,
// 768 = 3 x 256, 600 = 3 x 200, or spans in blocks of their own: 432 = 3 x 144, 1152 = 3 x
// 384), with bias, clamp, a residual, partial tiles, pools; declined elsewhere (one block
// across spans: 320 = 2 x 160, 36 = 4 x 9; TFLite's orders). n <= kGemmSmallN: the small-n
// rows, wherever spans are whole vectors (not 4 x 9).
TEST_CASE("FloatGemmImage equals FloatGemm on gathered rows") {
  pthreadpool_t two = pthreadpool_create(2);
  // {spans, span, whether the k blocks lie inside spans}: k <= 320 is one block.
  const int shapes[][3] = {{1, 40, 1},  {1, 320, 1}, {3, 192, 1}, {3, 256, 1}, {3, 200, 1},
                           {2, 160, 0}, {4, 9, 0},   {3, 144, 1}, {3, 384, 1}};
  for (uint32_t seed = 970; seed < 1024; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return RandomInts<int>(rng, 1, lo, hi)[0]; };
    const auto& shape = shapes[seed % 9];
    tflite::gemm::ImageWindows<float> img;
    const int batches = pick(1, 2);
    img.out_h = pick(1, 6);
    img.out_w = pick(1, 11);
    img.spans.count = shape[0];
    const int span = shape[1];
    img.pixel = pick(1, 2 * span);
    img.line = img.out_w * img.pixel + pick(0, span);
    img.spans.stride = pick(1, 3) * img.line / 2 + pick(0, 5);
    img.image = img.out_h * img.line + img.spans.count * img.spans.stride + span;
    const int n = seed % 5 == 0 ? pick(1, tflite::gemm::kGemmSmallN) : pick(5, 40),
              k = img.spans.count * span;
    const int m = batches * img.out_h * img.out_w;
    const GemmKernel kernel = kKernels[seed % 3];
    CAPTURE(seed, batches, img.out_h, img.out_w, img.spans.count, span, n,
            static_cast<int>(kernel));
    const auto a = RandomFloats(rng, batches * img.image + img.spans.count * img.spans.stride);
    img.base = a.data();
    std::vector<const float*> starts(m);
    img.Rows(0, m, starts.data());
    std::vector<float> rows(static_cast<size_t>(m) * k);
    for (int r = 0; r < m; ++r) {
      for (int t = 0; t < img.spans.count; ++t) {
        std::copy(starts[r] + t * img.spans.stride, starts[r] + t * img.spans.stride + span,
                  rows.begin() + static_cast<size_t>(r) * k + t * span);
      }
    }
    const auto w = RandomFloats(rng, static_cast<size_t>(n) * k);
    const auto bias = RandomFloats(rng, n);
    const int ldc = n + 3;
    const auto residual = RandomFloats(rng, static_cast<size_t>(m) * ldc);
    std::vector<float> packed(tflite::gemm::PackedWeightsSize(n, k));
    tflite::gemm::PackFloatWeights(w.data(), n, k, packed.data());
    tflite::gemm::FloatOutputStage stage;
    stage.bias = bias.data();
    stage.min = -1.5f;
    stage.max = 2.0f;
    if (seed % 4 == 1) {
      stage.residual = residual.data();
      stage.residual_ld = ldc;
      stage.residual_n = n;
    }
    const bool runs = tflite::gemm::FloatGemmImageRuns(m, n, k, img.spans.count, kernel);
    const bool small_n = n <= tflite::gemm::kGemmSmallN;
    REQUIRE(runs == (m >= 2 && (small_n ? span % 8 == 0 : shape[2] == 1)));
    REQUIRE_FALSE(
        tflite::gemm::FloatGemmImageRuns(m, n, k, img.spans.count, GemmKernel::kTfliteGemmOrder));
    std::vector<float> want(static_cast<size_t>(m) * ldc, 9.5f), got(want);
    tflite::gemm::FloatGemm(m, n, k, rows.data(), k, packed.data(), want.data(), ldc, stage,
                            nullptr, kernel, tflite::gemm::FloatImageKc(k, img.spans.count));
    for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two}) {
      std::fill(got.begin(), got.end(), 9.5f);
      const bool done = tflite::gemm::FloatGemmImage(m, n, k, img, packed.data(), got.data(), ldc,
                                                     stage, pool, kernel);
      REQUIRE(done == runs);
      if (done) REQUIRE(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    }
  }
  // Filter rows that FloatKc's blocks cross: in blocks of a row (864 = 3 x 288: 288, not
  // 216; 432 = 3 x 144: 144; 1152 = 3 x 384: 192), none under 64 (195 = 3 x 65 is one block:
  // declined; 975 = 3 x 325: 65).
  CHECK(tflite::gemm::FloatImageKc(864, 3) == 288);
  CHECK(tflite::gemm::FloatImageKc(432, 3) == 144);
  CHECK(tflite::gemm::FloatImageKc(1152, 3) == 192);
  CHECK(tflite::gemm::FloatImageKc(975, 3) == 65);
  CHECK(tflite::gemm::FloatImageKc(576, 3) == 192);  // FloatKc's own
  REQUIRE(tflite::gemm::FloatGemmImageRuns(64, 32, 864, 3));
  REQUIRE_FALSE(tflite::gemm::FloatGemmImageRuns(64, 32, 195, 3));
  pthreadpool_destroy(two);
}

// A hybrid convolution's windows read in place (Int16GemmHybridImage) give Int16GemmHybrid's
// bits on the same rows gathered: several images, spans of odd and even lengths (odd only
// as one span), pixel / line / span strides that overlap, partial tiles, pools.
TEST_CASE("Int16GemmHybridImage equals Int16GemmHybrid on gathered rows") {
  pthreadpool_t two = pthreadpool_create(2);
  for (uint32_t seed = 900; seed < 960; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return RandomInts<int>(rng, 1, lo, hi)[0]; };
    tflite::gemm::Int16Image img;
    const int batches = pick(1, 3);
    img.out_h = pick(1, 7);
    img.out_w = pick(1, 13);
    img.spans.count = pick(1, 4);
    const int span = img.spans.count == 1 ? pick(1, 41) : 2 * pick(1, 20);
    img.pixel = pick(1, 2 * span);
    img.line = img.out_w * img.pixel + pick(0, 2 * span);
    img.spans.stride = pick(1, 3) * img.line / 2 + pick(0, 5);
    img.image = img.out_h * img.line + img.spans.count * img.spans.stride + span;
    const int n = pick(1, 50), k = img.spans.count * span;
    const int m = batches * img.out_h * img.out_w;
    const GemmKernel kernel = kKernels[seed % 3];
    CAPTURE(seed, batches, img.out_h, img.out_w, img.spans.count, span, img.pixel, img.line,
            img.spans.stride, n, static_cast<int>(kernel));
    const auto a = RandomInts<int16_t>(
        rng, batches * img.image + img.spans.count * img.spans.stride, -255, 255);
    img.base = a.data();
    const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
    std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(n, k));
    tflite::gemm::PackInt8Weights(w.data(), n, k, 0, packed.data());
    std::vector<const int16_t*> starts(m);
    img.Rows(0, m, starts.data());
    std::vector<int16_t> rows(static_cast<size_t>(m) * k);
    for (int r = 0; r < m; ++r) {
      const int ox = r % img.out_w, oy = r / img.out_w % img.out_h, b = r / img.out_w / img.out_h;
      REQUIRE(starts[r] == a.data() + b * img.image + oy * img.line + ox * img.pixel);
      for (int t = 0; t < img.spans.count; ++t) {
        std::memcpy(rows.data() + static_cast<size_t>(r) * k + t * span,
                    starts[r] + t * img.spans.stride, span * sizeof(int16_t));
      }
    }
    std::uniform_real_distribution<float> unit(0.001f, 0.05f), b(-3.f, 3.f);
    std::vector<float> row_scale(m), unit_scale(n), bias(n);
    for (float& v : row_scale) v = unit(rng);
    for (float& v : unit_scale) v = unit(rng);
    for (float& v : bias) v = b(rng);
    tflite::gemm::HybridOutputStage stage;
    stage.row_scale = row_scale.data();
    stage.unit_scale = unit_scale.data();
    stage.bias = seed % 2 ? bias.data() : nullptr;
    stage.act_min = seed % 4 == 1 ? 0.0f : -std::numeric_limits<float>::infinity();
    stage.act_max = seed % 4 == 1 ? 6.0f : std::numeric_limits<float>::infinity();
    const int ldc = n + 2;
    std::vector<float> want(static_cast<size_t>(m) * ldc, 9.5f), got(want);
    tflite::gemm::Int16GemmHybrid(m, n, k, rows.data(), k, packed.data(), stage, want.data(), ldc,
                                  nullptr, kernel);
    for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two}) {
      std::fill(got.begin(), got.end(), 9.5f);
      tflite::gemm::Int16GemmHybridImage(m, n, k, img, packed.data(), stage, got.data(), ldc, pool,
                                         kernel);
      REQUIRE(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    }
  }
  pthreadpool_destroy(two);
}

// int16 x int16 as BATCH_MATMUL runs it: each weight split into its signed high byte and
// unsigned low byte (two packed columns), sum = 256 * hi + lo, exact in int64 even where
// every product is (-32768)^2 over long depths.
TEST_CASE("Int64Gemm (both micro-kernels) sums int16 x int16 exactly via byte splits") {
  const int shapes[][3] = {{1, 1, 1}, {3, 20, 7}, {5, 17, 256}, {6, 9, 257}, {2, 16, 1201},
                           {4, 3, 0}};
  uint32_t seed = 400;
  for (const auto& s : shapes) {
    for (GemmKernel kernel : kKernels) {
      for (int extreme = 0; extreme < 2; ++extreme) {
        ++seed;
        const int m = s[0], n = s[1], k = s[2];
        CAPTURE(seed, m, n, k, static_cast<int>(kernel), extreme);
        std::mt19937 rng(seed);
        auto a = RandomInts<int16_t>(rng, static_cast<size_t>(m) * k, -32768, 32767);
        auto w = RandomInts<int16_t>(rng, static_cast<size_t>(n) * k, -32768, 32767);
        if (extreme) {
          std::fill(a.begin(), a.end(), int16_t{-32768});
          std::fill(w.begin(), w.end(), int16_t{-32768});
        }
        std::vector<int16_t> split(static_cast<size_t>(2) * n * k);
        for (size_t i = 0; i < w.size(); ++i) {
          split[i] = static_cast<int16_t>(w[i] >> 8);
          split[w.size() + i] = static_cast<int16_t>(w[i] & 0xff);
        }
        std::vector<int16_t> packed(tflite::gemm::PackedQuantizedWeightsSize(2 * n, k));
        tflite::gemm::PackInt16Weights(split.data(), 2 * n, k, packed.data());
        std::vector<int64_t> c(static_cast<size_t>(m) * 2 * n);
        tflite::gemm::Int64Gemm(m, 2 * n, k, a.data(), k, packed.data(), c.data(), 2 * n,
                                nullptr, kernel);
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) {
            int64_t acc = 0;
            for (int kk = 0; kk < k; ++kk) {
              acc += static_cast<int64_t>(a[i * k + kk]) * w[j * k + kk];
            }
            const int64_t got = 256 * c[i * 2 * n + j] + c[i * 2 * n + n + j];
            if (got != acc) {
              CAPTURE(i, j, got, acc);
              FAIL("mismatch");
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
