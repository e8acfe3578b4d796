// DotGemm against the reference's arithmetic: sum (a - zero_point) * w + bias in int32,
// MultiplyByQuantizedMultiplier, output offset, clamp. Every tile the CPU has (the others
// run as kAuto, so the test holds anywhere), odd depths and column counts, one thread and
// a pool.
#include <pthreadpool.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/testing/conv_test_util.h"

namespace tflite_inspect {
namespace {

using namespace conv_test;  // NOLINT
using tflite::gemm::DotKernel;

const DotKernel kDotKernels[] = {DotKernel::kAuto,       DotKernel::kPortable, DotKernel::kAvxVnni,
                                 DotKernel::kAvx512Vnni, DotKernel::kAmx,      DotKernel::kNeonDot,
                                 DotKernel::kAvx2};

enum class Stage { kDoubleRounding, kSingleRounding, kFloat };

void CheckDot(uint32_t seed, int m, int n, int k, DotKernel kernel, pthreadpool_t pool,
              int32_t act_min, int32_t act_max, Stage mode = Stage::kDoubleRounding) {
  const bool single_rounding = mode == Stage::kSingleRounding;
  CAPTURE(seed, m, n, k, static_cast<int>(kernel), tflite::gemm::DotKernelName(kernel),
          static_cast<int>(mode));
  std::mt19937 rng(seed);
  const int depth = tflite::gemm::DotDepth(k);
  const int lda = depth + (seed % 3 == 0 ? 8 : 0);
  const auto a = RandomInts<int8_t>(rng, static_cast<size_t>(m) * lda, -128, 127);
  const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
  const auto bias = RandomInts<int32_t>(rng, n, -2000000, 2000000);
  const int32_t zero_point = RandomInts<int32_t>(rng, 1, -128, 127)[0];
  std::uniform_real_distribution<double> log_scale(-14.0, 2.0);
  std::vector<int32_t> mult(n), shift(n);
  std::vector<float> scale(n);
  for (int j = 0; j < n; ++j) {
    const double real = std::exp2(log_scale(rng)) * (j % 5 == 4 ? -1.0 : 1.0);
    int e = 0;
    RefQuantizeMultiplier(real, &mult[j], &e);
    shift[j] = e;
    scale[j] = static_cast<float>(real);
  }
  std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
  std::vector<int32_t> sums(n), dot_bias(n);
  tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), sums.data());
  tflite::gemm::DotBias(bias.data(), sums.data(), n, zero_point + 128, dot_bias.data());
  std::vector<uint8_t> au(a.size());
  tflite::gemm::DotInput(a.data(), a.size(), au.data());
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = dot_bias.data();
  stage.multiplier = mult.data();
  stage.shift = shift.data();
  stage.output_offset = -3;
  stage.act_min = act_min;
  stage.act_max = act_max;
  stage.single_rounding = single_rounding;
  if (mode == Stage::kFloat) {
    stage.float_scale = scale.data();
    stage.multiplier = stage.shift = nullptr;  // not read
  }
  const int ldc = n + 2;
  std::vector<int8_t> c(static_cast<size_t>(m) * ldc, 77);
  tflite::gemm::DotGemm(m, n, k, au.data(), lda, packed.data(), c.data(), ldc, stage, pool, kernel);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      uint32_t acc = static_cast<uint32_t>(bias[j]);
      for (int kk = 0; kk < k; ++kk) {
        acc += static_cast<uint32_t>((a[i * lda + kk] - zero_point) * w[j * k + kk]);
      }
      int32_t v;
      if (mode == Stage::kFloat) {  // XNNPACK's fp32 requantization, round half to even
        float f = static_cast<float>(static_cast<int32_t>(acc)) * scale[j];
        f = std::min(std::max(f, static_cast<float>(act_min + 3)), static_cast<float>(act_max + 3));
        v = static_cast<int32_t>(std::nearbyint(f));
      } else if (single_rounding) {  // FULLY_CONNECTED's: one rounding of the 64-bit product
        const int64_t r = tflite::gemm::SingleRoundingMultiplyPortable(static_cast<int32_t>(acc),
                                                                       mult[j], shift[j]);
        v = static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX));
      } else {
        v = RefMultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), mult[j], shift[j]);
      }
      v = std::min(std::max(v - 3, act_min), act_max);
      if (c[i * ldc + j] != v) {
        CAPTURE(i, j, static_cast<int>(c[i * ldc + j]), v, mult[j], shift[j]);
        FAIL("mismatch");
      }
    }
    for (int j = n; j < ldc; ++j) REQUIRE(c[i * ldc + j] == 77);  // nothing past n
  }
}

// ctest runs this binary again under TFI_KERNEL_ISA=avx2 and =portable (lib/CMakeLists.txt):
// there the cap must hold, or those runs would test this CPU's tiles twice.
TEST_CASE("TFI_KERNEL_ISA caps the kernels chosen") {
  const char* isa = std::getenv("TFI_KERNEL_ISA");
  const std::string cap = isa != nullptr ? isa : "";
  CAPTURE(cap);
  if (cap == "avx2" || cap == "portable") {
    CHECK_FALSE(tflite::gemm::CpuHasAvx512F());
    CHECK_FALSE(tflite::gemm::CpuHasAvx512Vnni());
    CHECK_FALSE(tflite::gemm::CpuHasAvxVnni());
    CHECK_FALSE(tflite::gemm::CpuHasAmxInt8());
  }
  // The x86 names leave ARM's features alone; "portable" takes SDOT away too.
#if defined(__aarch64__)
  const bool no_dot = cap == "portable";
#else
  const bool no_dot = cap == "avx2" || cap == "portable";
#endif
  if (no_dot) {
    CHECK_FALSE(tflite::gemm::CpuHasNeonDot());
    // Without dot products x86 still has the AVX2 tile (DotGemmWanted stays false).
    CHECK(std::string(tflite::gemm::DotKernelName()) ==
          (tflite::gemm::CpuHasAvx2() ? "avx2_4x16" : "portable_1x16"));
    CHECK_FALSE(tflite::gemm::DotGemmWanted());
  }
  if (cap == "portable") {
    CHECK_FALSE(tflite::gemm::CpuHasAvx2());
    CHECK_FALSE(tflite::gemm::CpuHasAvx2Fma());
  }
  // The float tile in use follows (a CPU without AVX-512 takes the AVX2 tile, or the
  // portable one; on ARM, NEON).
  const std::string tile = tflite::gemm::FloatKernelName();
  if (cap == "avx2" || cap == "portable") CHECK(tile.rfind("avx512", 0) != 0);
  if (cap == "portable") CHECK(tile.rfind("avx2", 0) != 0);
}

TEST_CASE("DotGemm (every tile) is bit-exact with the reference's int8 arithmetic") {
  const int shapes[][3] = {{1, 16, 4},  {1, 10, 27},  {9, 17, 5},   {8, 32, 64},  {17, 33, 3},
                           {3, 48, 100}, {25, 40, 1}, {64, 96, 16}, {7, 1, 300}, {11, 64, 576}, {40, 50, 4608}, {33, 17, 130}, {33, 20, 11520}};
  uint32_t seed = 9100;
  for (const auto& sh : shapes) {
    for (DotKernel kernel : kDotKernels) {
      CheckDot(++seed, sh[0], sh[1], sh[2], kernel, nullptr, -128, 127);
      CheckDot(++seed, sh[0], sh[1], sh[2], kernel, nullptr, -20, 90);
    }
  }
}

TEST_CASE("DotGemm's single-rounding stage (FULLY_CONNECTED's) in every tile") {
  const int shapes[][3] = {{1, 16, 4}, {9, 17, 5}, {17, 33, 64}, {40, 50, 300}, {3, 1000, 256}};
  uint32_t seed = 9500;
  for (const auto& sh : shapes) {
    for (DotKernel kernel : kDotKernels) {
      CheckDot(++seed, sh[0], sh[1], sh[2], kernel, nullptr, -128, 127, Stage::kSingleRounding);
      CheckDot(++seed, sh[0], sh[1], sh[2], kernel, nullptr, -7, 60, Stage::kSingleRounding);
    }
  }
}

TEST_CASE("DotGemm's fp32 stage (XNNPACK's requantization) in every tile") {
  const int shapes[][3] = {{1, 16, 4}, {9, 17, 5}, {17, 33, 64}, {40, 50, 300}, {3, 100, 256}};
  uint32_t seed = 9700;
  for (const auto& sh : shapes) {
    for (DotKernel kernel : kDotKernels) {
      CheckDot(++seed, sh[0], sh[1], sh[2], kernel, nullptr, -128, 127, Stage::kFloat);
      CheckDot(++seed, sh[0], sh[1], sh[2], kernel, nullptr, 0, 90, Stage::kFloat);
    }
  }
}

TEST_CASE("DotGemmRaw (every tile) gives the exact int32 sums of (a - zero point) * w") {
  const int shapes[][3] = {{1, 16, 4}, {9, 17, 5}, {17, 33, 64}, {40, 50, 300}, {3, 100, 256},
                           {64, 96, 1000}};
  uint32_t seed = 9900;
  for (const auto& sh : shapes) {
    for (DotKernel kernel : kDotKernels) {
      const int m = sh[0], n = sh[1], k = sh[2];
      CAPTURE(m, n, k, tflite::gemm::DotKernelName(kernel));
      std::mt19937 rng(++seed);
      const int lda = tflite::gemm::DotDepth(k);
      const auto a = RandomInts<int8_t>(rng, static_cast<size_t>(m) * lda, -128, 127);
      const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
      const int32_t zero_point = RandomInts<int32_t>(rng, 1, -128, 127)[0];
      std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
      std::vector<int32_t> sums(n), bias(n);
      tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), sums.data());
      tflite::gemm::DotBias(nullptr, sums.data(), n, zero_point + 128, bias.data());
      std::vector<uint8_t> au(a.size());
      tflite::gemm::DotInput(a.data(), a.size(), au.data());
      std::vector<int32_t> c(static_cast<size_t>(m) * n);
      tflite::gemm::DotGemmRaw(m, n, k, au.data(), lda, packed.data(), bias.data(), c.data(), n,
                               nullptr, kernel);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          int32_t want = 0;
          for (int kk = 0; kk < k; ++kk) want += (a[i * lda + kk] - zero_point) * w[j * k + kk];
          if (c[i * n + j] != want) {
            CAPTURE(i, j, c[i * n + j], want);
            FAIL("mismatch");
          }
        }
      }
    }
  }
}

// The fused hybrid rescale on AMX blocks and on the AVX-512 VNNI tiles gives the bits of
// DotGemmRaw + hybrid::ScaleRows: row counts around the 8-row tile and the 32 x 32 block,
// depths below and from AMX's minimum, with and without the offset term and the bias, one
// thread and a pool. Where the CPU has neither, DotGemmHybrid declines and the test
// checks that.
TEST_CASE("DotGemmHybrid equals DotGemmRaw and ScaleRows bit for bit") {
  pthreadpool_t pool = pthreadpool_create(2);
  uint32_t seed = 300;
  for (int m : {1, 7, 16, 31, 33, 64, 97}) {
    for (int n : {1, 17, 32, 45, 128}) {
      for (int k : {5, 12, 64, 100, 257}) {
        ++seed;
        CAPTURE(seed, m, n, k);
        std::mt19937 rng(seed);
        const int lda = tflite::gemm::DotDepth(k) + (seed % 2 == 0 ? 12 : 0);
        const auto a = RandomInts<int8_t>(rng, static_cast<size_t>(m) * lda, -128, 127);
        const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
        const auto offsets = RandomInts<int32_t>(rng, m, -128, 127);
        std::vector<uint8_t> au(a.size());
        tflite::gemm::DotInput(a.data(), a.size(), au.data());
        std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
        std::vector<int32_t> col(n), dot_bias(n);
        tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), col.data());
        tflite::gemm::DotBias(nullptr, col.data(), n, 128, dot_bias.data());
        std::uniform_real_distribution<float> df(1e-4f, 3e-2f), db(-2.f, 2.f);
        std::vector<float> row_scale(m), unit(n), bias(n);
        for (auto& v : row_scale) v = df(rng);
        for (auto& v : unit) v = df(rng);
        for (auto& v : bias) v = db(rng);
        for (bool with_offset : {false, true}) {
          for (bool with_bias : {false, true}) {
            tflite::gemm::HybridOutputStage st;
            st.dot_bias = dot_bias.data();
            st.col_sums = with_offset ? col.data() : nullptr;
            st.row_offset = offsets.data();
            st.row_scale = row_scale.data();
            st.unit_scale = unit.data();
            st.bias = with_bias ? bias.data() : nullptr;
            st.act_min = -40.f;
            st.act_max = 35.f;
            std::vector<int32_t> sums(static_cast<size_t>(m) * n);
            tflite::gemm::DotGemmRaw(m, n, k, au.data(), lda, packed.data(), dot_bias.data(),
                                     sums.data(), n, nullptr);
            std::vector<float> want(sums.size()), got(sums.size(), -99.f), rows(sums.size());
            tflite::hybrid::ScaleRows(sums.data(), n, m, n, row_scale.data(), st.col_sums,
                                      offsets.data(), unit.data(), st.bias, st.act_min, st.act_max,
                                      rows.data(), n);
            for (int i = 0; i < m; ++i) {  // the formula, value by value
              for (int j = 0; j < n; ++j) {
                const uint32_t off = with_offset ? static_cast<uint32_t>(offsets[i]) * static_cast<uint32_t>(col[j]) : 0u;
                const auto d = static_cast<int32_t>(static_cast<uint32_t>(sums[i * n + j]) - off);
                const float product = static_cast<float>(d) * (row_scale[i] * unit[j]);
                const float v = (with_bias ? bias[j] : 0.0f) + product;
                want[i * n + j] = std::min(std::max(v, st.act_min), st.act_max);
              }
            }
            REQUIRE(rows == want);
            for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
              const bool fused = tflite::gemm::DotGemmHybrid(m, n, k, au.data(), lda, packed.data(),
                                                             st, got.data(), n, p);
              CAPTURE(with_offset, with_bias, p != nullptr);
              REQUIRE(fused == tflite::gemm::DotGemmHybridRuns(m, n, k));
              REQUIRE(fused == (tflite::gemm::CpuHasAmxInt8() || tflite::gemm::CpuHasAvx512Vnni()));
              if (fused) REQUIRE(got == want);
            }
          }
        }
      }
    }
  }
  pthreadpool_destroy(pool);
}

// int8 rows converted on the AMX copy give DotGemm's bytes on the converted rows: row
// counts around the 32-row block, depths from AMX's minimum (odd ones: masked row ends),
// one thread and a pool. Where the CPU has no AMX it declines.
TEST_CASE("DotGemmSigned equals DotGemm on DotInput's rows") {
  pthreadpool_t pool = pthreadpool_create(2);
  uint32_t seed = 400;
  for (int m : {16, 33, 100}) {
    for (int n : {5, 32, 70}) {
      for (int k : {64, 97, 300}) {
        ++seed;
        CAPTURE(seed, m, n, k);
        std::mt19937 rng(seed);
        const int lda = k + (seed % 2 == 0 ? 0 : 9);
        const auto a = RandomInts<int8_t>(rng, static_cast<size_t>(m) * lda, -128, 127);
        const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
        const auto bias = RandomInts<int32_t>(rng, n, -200000, 200000);
        std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
        std::vector<int32_t> col(n), dot_bias(n), mult(n, 1 << 30), shift(n, -9);
        tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), col.data());
        tflite::gemm::DotBias(bias.data(), col.data(), n, 5 + 128, dot_bias.data());
        tflite::gemm::QuantizedOutputStage st;
        st.bias = dot_bias.data();
        st.multiplier = mult.data();
        st.shift = shift.data();
        st.output_offset = 3;
        // DotGemm's rows: DotDepth(k) apart, converted.
        const int depth = tflite::gemm::DotDepth(k);
        std::vector<uint8_t> au(static_cast<size_t>(m) * depth, 0);
        for (int i = 0; i < m; ++i) tflite::gemm::DotInput(a.data() + i * lda, k, au.data() + i * depth);
        std::vector<int8_t> want(static_cast<size_t>(m) * n), got(want.size(), 77);
        tflite::gemm::DotGemm(m, n, k, au.data(), depth, packed.data(), want.data(), n, st, nullptr);
        for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
          const bool done = tflite::gemm::DotGemmSigned(m, n, k, a.data(), lda, packed.data(),
                                                        got.data(), n, st, p);
          REQUIRE(done == tflite::gemm::CpuHasAmxInt8());
          if (done) REQUIRE(got == want);
        }
      }
    }
  }
  pthreadpool_destroy(pool);
}

// A's rows as windows in an image (a convolution's filter rows read in place) give
// DotGemm's and DotGemmHybrid's outputs on the same values gathered into rows: 1-2 images
// of 1-9 x 1-19 pixels (rows across output rows and images inside a tile), 1-4 spans of
// 4-40 bytes, overlapping windows, one thread and a pool. Where the CPU lacks the VNNI
// tiles (or has AMX) it declines.
TEST_CASE("DotGemmImage / DotGemmHybridImage equal DotGemm / DotGemmHybrid on gathered rows") {
  pthreadpool_t pool = pthreadpool_create(2);
  const bool runs = tflite::gemm::CpuHasAvx512Vnni() && !tflite::gemm::CpuHasAmxInt8();
  for (uint32_t seed = 450; seed < 510; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return RandomInts<int>(rng, 1, lo, hi)[0]; };
    tflite::gemm::DotImage img;
    const int batches = pick(1, 2);
    img.out_h = pick(1, 9);
    img.out_w = pick(1, 19);
    img.spans.count = pick(1, 4);
    const int span = 4 * pick(1, 10);
    img.pixel = pick(1, 2 * span);
    img.line = img.out_w * img.pixel + pick(0, 2 * span);
    img.spans.stride = pick(1, 3) * img.line / 2 + pick(0, 5);
    img.image = img.out_h * img.line + img.spans.count * img.spans.stride + span;
    const int n = pick(1, 70);
    const int k = img.spans.count * span;
    const int m = batches * img.out_h * img.out_w;
    CAPTURE(seed, batches, img.out_h, img.out_w, img.spans.count, span, img.pixel, img.line,
            img.spans.stride, n);
    const auto a = RandomInts<uint8_t>(rng, batches * img.image + img.spans.count * img.spans.stride, 0, 255);
    img.base = a.data();
    const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
    const auto bias = RandomInts<int32_t>(rng, n, -200000, 200000);
    std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
    std::vector<int32_t> col(n), dot_bias(n), mult(n, 1 << 30), shift(n, -7);
    tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), col.data());
    tflite::gemm::DotBias(bias.data(), col.data(), n, 7 + 128, dot_bias.data());
    tflite::gemm::QuantizedOutputStage st;
    st.bias = dot_bias.data();
    st.multiplier = mult.data();
    st.shift = shift.data();
    st.output_offset = -3;
    // The rows gathered: row r's span t at its window's start + t * stride.
    std::vector<const uint8_t*> starts(m);
    img.Rows(0, m, starts.data());
    std::vector<uint8_t> rows(static_cast<size_t>(m) * k);
    for (int r = 0; r < m; ++r) {
      const int ox = r % img.out_w, oy = r / img.out_w % img.out_h, b = r / img.out_w / img.out_h;
      REQUIRE(starts[r] == a.data() + b * img.image + oy * img.line + ox * img.pixel);
      for (int t = 0; t < img.spans.count; ++t) {
        std::memcpy(rows.data() + static_cast<size_t>(r) * k + t * span,
                    starts[r] + t * img.spans.stride, span);
      }
    }
    std::vector<int8_t> want(static_cast<size_t>(m) * n), got(want.size(), 77);
    tflite::gemm::DotGemm(m, n, k, rows.data(), k, packed.data(), want.data(), n, st, nullptr);
    const std::vector<float> row_scale = RandomFloats(rng, m, 0.01f, 0.1f);
    const std::vector<float> unit = RandomFloats(rng, n, 0.5f, 1.5f);
    tflite::gemm::HybridOutputStage h;
    h.dot_bias = dot_bias.data();
    h.row_scale = row_scale.data();
    h.unit_scale = unit.data();
    h.act_min = -1e30f;
    h.act_max = 1e30f;
    std::vector<float> want_f(want.size()), got_f(want.size(), 5.f);
    const bool hybrid = tflite::gemm::DotGemmHybrid(m, n, k, rows.data(), k, packed.data(), h,
                                                    want_f.data(), n, nullptr);
    for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
      const bool done =
          tflite::gemm::DotGemmImage(m, n, k, img, packed.data(), got.data(), n, st, p);
      REQUIRE(done == runs);
      if (!done) continue;
      REQUIRE(got == want);
      REQUIRE(hybrid);
      REQUIRE(tflite::gemm::DotGemmHybridImage(m, n, k, img, packed.data(), h, got_f.data(), n, p));
      REQUIRE(std::memcmp(got_f.data(), want_f.data(), got_f.size() * sizeof(float)) == 0);
    }
  }
  if (!runs) WARN("DotGemmImage declines on this CPU (no AVX-512 VNNI, or AMX): nothing compared");
  pthreadpool_destroy(pool);
}

// Rows made block by block into the AMX copy give DotGemm's bytes on the same rows; the
// fill is asked for blocks of at most 32 rows inside the matrix, at a stride that holds k.
TEST_CASE("DotGemmGathered equals DotGemm on the rows its fill makes") {
  pthreadpool_t pool = pthreadpool_create(2);
  uint32_t seed = 500;
  for (int m : {16, 33, 100}) {
    for (int n : {5, 32, 70}) {
      for (int k : {64, 97, 300}) {
        ++seed;
        CAPTURE(seed, m, n, k);
        std::mt19937 rng(seed);
        const int depth = tflite::gemm::DotDepth(k);
        const auto a = RandomInts<uint8_t>(rng, static_cast<size_t>(m) * depth, 0, 255);
        const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -128, 127);
        const auto bias = RandomInts<int32_t>(rng, n, -200000, 200000);
        std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
        std::vector<int32_t> col(n), dot_bias(n);
        std::vector<float> scale(n);
        for (float& v : scale) v = std::uniform_real_distribution<float>(1e-5f, 1e-3f)(rng);
        tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), col.data());
        tflite::gemm::DotBias(bias.data(), col.data(), n, 7 + 128, dot_bias.data());
        tflite::gemm::QuantizedOutputStage st;
        st.bias = dot_bias.data();
        st.float_scale = scale.data();
        st.output_offset = -4;
        std::vector<int8_t> want(static_cast<size_t>(m) * n), got(want.size(), 77);
        tflite::gemm::DotGemm(m, n, k, a.data(), depth, packed.data(), want.data(), n, st, nullptr);
        struct Source {
          const uint8_t* a;
          int depth, k, m;
        } source{a.data(), depth, k, m};
        for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
          std::fill(got.begin(), got.end(), 77);
          std::atomic<bool> bad{false};
          struct Ctx {
            Source* s;
            std::atomic<bool>* bad;
          } ctx{&source, &bad};
          const tflite::gemm::DotRows rows{
              [](const void* p, size_t r0, int count, uint8_t* dst, size_t stride) {
                const Ctx& c = *static_cast<const Ctx*>(p);
                if (count < 1 || count > 32 || r0 + count > static_cast<size_t>(c.s->m) ||
                    stride < static_cast<size_t>(c.s->k)) {
                  *c.bad = true;
                  return;
                }
                for (int r = 0; r < count; ++r) {
                  std::memcpy(dst + r * stride, c.s->a + (r0 + r) * c.s->depth, c.s->k);
                }
              },
              &ctx};
          const bool done = tflite::gemm::DotGemmGathered(m, n, k, rows, packed.data(), got.data(),
                                                          n, st, p);
          REQUIRE(done == tflite::gemm::CpuHasAmxInt8());
          if (!done) continue;
          REQUIRE_FALSE(bad.load());
          CHECK(got == want);
        }
      }
    }
  }
  pthreadpool_destroy(pool);
}

TEST_CASE("DotGemm splits rows and panel pairs over threads with the same results") {
  pthreadpool_t pool = pthreadpool_create(3);
  uint32_t seed = 9300;
  for (DotKernel kernel : kDotKernels) {
    CheckDot(++seed, 200, 80, 96, kernel, pool, -128, 127);   // row blocks
    CheckDot(++seed, 9, 112, 1200, kernel, pool, -128, 127);  // column blocks (odd panels)
  }
  pthreadpool_destroy(pool);
}

TEST_CASE("DotGemm's stage: extreme sums and multipliers") {
  // Every product at its extreme: sums near the int32 range wrap as the reference's.
  const int m = 3, n = 20, k = 40000;
  std::vector<int8_t> a(static_cast<size_t>(m) * k, -128), w(static_cast<size_t>(n) * k, -128);
  std::vector<int32_t> mult(n, INT32_MIN), shift(n, 0), bias(n, INT32_MAX), sums(n), dot_bias(n);
  for (int j = 0; j < n; ++j) shift[j] = j % 2 == 0 ? -31 + j : 30 - j;
  std::vector<int8_t> packed(tflite::gemm::PackedDotWeightsSize(n, k));
  tflite::gemm::PackDotWeights(w.data(), n, k, packed.data(), sums.data());
  tflite::gemm::DotBias(bias.data(), sums.data(), n, 127 + 128, dot_bias.data());
  std::vector<uint8_t> au(a.size());
  tflite::gemm::DotInput(a.data(), a.size(), au.data());
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = dot_bias.data();
  stage.multiplier = mult.data();
  stage.shift = shift.data();
  for (DotKernel kernel : kDotKernels) {
    CAPTURE(tflite::gemm::DotKernelName(kernel));
    std::vector<int8_t> c(static_cast<size_t>(m) * n);
    tflite::gemm::DotGemm(m, n, k, au.data(), k, packed.data(), c.data(), n, stage, nullptr, kernel);
    for (int j = 0; j < n; ++j) {
      uint32_t acc = static_cast<uint32_t>(bias[j]);
      for (int kk = 0; kk < k; ++kk) acc += static_cast<uint32_t>((-128 - 127) * -128);
      int32_t v = RefMultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), mult[j], shift[j]);
      v = std::min(std::max(v, -128), 127);
      CAPTURE(j, shift[j]);
      for (int i = 0; i < m; ++i) REQUIRE(c[i * n + j] == v);
    }
  }
}

// The vector loop's lengths: whole 64-byte steps, masked tails, and both together.
TEST_CASE("DotInput is DotByte on every length, the vector loop's tails included") {
  std::vector<int8_t> src(302);  // the longest span (299) from the offset 3
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<int8_t>(i * 37 + 11);
  for (size_t n : {0, 1, 5, 21, 63, 64, 65, 127, 128, 200, 299}) {
    for (size_t offset : {0, 3}) {
      std::vector<uint8_t> dst(src.size() + 2, 0xA5);
      tflite::gemm::DotInput(src.data() + offset, n, dst.data() + 1);
      CAPTURE(n, offset);
      CHECK(dst[0] == 0xA5);
      CHECK(dst[n + 1] == 0xA5);
      for (size_t i = 0; i < n; ++i) REQUIRE(dst[i + 1] == tflite::gemm::DotByte(src[offset + i]));
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
