#include "kernels/internal/im2col.h"

#include <pthreadpool.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace tflite_inspect {
namespace {

// The blocks ChunkedIm2ColGemm hands out: every row once, in blocks of at most kChunkRows;
// with threads, a multiple of the thread count of them, bounds on the GEMM tile's unit and
// heights within a unit of each other (the threads' shares equal: DenseNet's 14 x 14
// layers were 64, 64, 64 and 4 rows).
TEST_CASE("PlanChunks: every row once, bounded blocks, equal shares over threads") {
  using tflite::conv_util::kChunkRows;
  for (size_t threads : {1, 2, 3, 4}) {
    pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
    for (size_t rows : {1, 7, 8, 49, 95, 96, 97, 196, 289, 784, 1225, 3136, 21609}) {
      CAPTURE(threads, rows);
      const tflite::conv_util::ChunkPlan p = tflite::conv_util::PlanChunks(rows, pool);
      REQUIRE(p.Bound(0) == 0);
      REQUIRE(p.Bound(p.chunks) == rows);
      REQUIRE(p.tasks >= 1);
      REQUIRE(p.tasks <= p.chunks);
      if (threads > 1) REQUIRE(p.chunks % threads == 0);
      size_t lo = rows, hi = 0;
      for (size_t c = 0; c < p.chunks; ++c) {
        const size_t r0 = p.Bound(c), r1 = p.Bound(c + 1);
        REQUIRE(r0 <= r1);
        REQUIRE(r1 - r0 <= kChunkRows);
        if (threads > 1) REQUIRE((r1 % p.unit == 0 || r1 == rows));
        lo = std::min(lo, r1 - r0);
        hi = std::max(hi, r1 - r0);
      }
      if (threads > 1 && rows >= p.chunks * p.unit) REQUIRE(hi - lo <= p.unit + 1);
      // ChunkedIm2ColGemm: each row filled and multiplied once, by the task's slice.
      std::vector<std::atomic<int>> seen(rows);
      std::vector<int> scratch;
      tflite::conv_util::ChunkedIm2ColGemm(
          rows, 3, 1, &scratch, pool,
          [&](size_t r0, size_t r1, int* buf) {
            REQUIRE(r1 - r0 <= kChunkRows);
            for (size_t r = r0; r < r1; ++r) buf[(r - r0) * 3] = static_cast<int>(r);
          },
          [&](size_t r0, size_t r1, const int* buf, size_t t) {
            REQUIRE(t < p.tasks);
            for (size_t r = r0; r < r1; ++r) {
              REQUIRE(buf[(r - r0) * 3] == static_cast<int>(r));
              seen[r]++;
            }
          });
      for (size_t r = 0; r < rows; ++r) REQUIRE(seen[r] == 1);
    }
    if (pool != nullptr) pthreadpool_destroy(pool);
  }
}

// A random filter over g's image (one group, 4 output channels): 1-4 x 1-5 taps, strides
// 1-3, dilation 1-2 along the height (none along the row), padding 0-2. False where the
// filter does not fit the padded image.
template <typename Pick>
bool RandomFilter(Pick& pick, tflite::conv_util::ConvGeometry* g) {
  g->groups = 1;
  g->f_h = pick(1, 4);
  g->f_w = pick(1, 5);
  g->stride_h = pick(1, 3);
  g->stride_w = pick(1, 3);
  g->dil_h = pick(1, 2);
  g->dil_w = 1;
  g->pad_h = pick(0, 2);
  g->pad_w = pick(0, 2);
  g->out_h = (g->in_h + 2 * g->pad_h - (g->f_h - 1) * g->dil_h - 1) / g->stride_h + 1;
  g->out_w = (g->in_w + 2 * g->pad_w - g->f_w) / g->stride_w + 1;
  g->out_c = g->group_out_c = 4;
  return g->out_h >= 1 && g->out_w >= 1;
}

// Im2ColDotRows' inline loops (AVX-512 and AVX2, where the CPU has them) against the
// generic Im2ColRows with DotConvert: random geometries (padding, strides, dilation along
// the height, spans shorter and longer than a vector), partial row ranges, a row stride
// past the depth; replayable (seeded).
TEST_CASE("Im2ColDotRows equals the generic im2col rows in the dot GEMM's domain") {
  std::mt19937 rng(2026);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    tflite::conv_util::ConvGeometry g{};
    g.batches = pick(1, 2);
    g.in_h = pick(1, 9);
    g.in_w = pick(1, 12);
    g.in_c = g.f_c = pick(1, 70);
    if (!RandomFilter(pick, &g)) continue;
    const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
    const size_t depth = static_cast<size_t>(g.f_h) * g.f_w * g.f_c;
    const size_t stride = depth + static_cast<size_t>(pick(0, 5));
    std::vector<int8_t> input(static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c);
    for (auto& v : input) v = static_cast<int8_t>(pick(-128, 127));
    const size_t r0 = static_cast<size_t>(pick(0, static_cast<int>(rows) - 1));
    const size_t r1 = static_cast<size_t>(pick(static_cast<int>(r0) + 1, static_cast<int>(rows)));
    const uint8_t pad = static_cast<uint8_t>(pick(0, 255));
    std::vector<uint8_t> want((r1 - r0) * stride, 0xA5), got(want.size(), 0xA5);
    tflite::conv_util::Im2ColRows(g, input.data(), 0, r0, r1, pad, tflite::conv_util::DotConvert{},
                                  want.data(), stride);
    tflite::conv_util::Im2ColDotRows(g, input.data(), 0, r0, r1, pad, got.data(), stride);
    CAPTURE(trial, g.in_h, g.in_w, g.in_c, g.f_h, g.f_w, g.stride_h, g.stride_w, g.dil_h, g.pad_h,
            g.pad_w, r0, r1);
    REQUIRE(got == want);
  }
}

// The padded images the GEMMs read windows from in place (PadDotImage in the dot GEMM's
// uint8 domain, PadInt16Image as input - offset per image, from int8 and uint8): each
// output pixel's window gathered through PaddedWindows is its im2col row. Random
// geometries as above, some large enough to be written in parts over a pool; seeded.
TEST_CASE("PadDotImage / PadInt16Image: every window read in place is the im2col row") {
  std::mt19937 rng(4242);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  pthreadpool_t pool = pthreadpool_create(2);
  for (int trial = 0; trial < 120; ++trial) {
    tflite::conv_util::ConvGeometry g{};
    const bool large = trial % 10 == 0;
    g.batches = pick(1, 3);
    g.in_h = large ? pick(30, 60) : pick(1, 9);
    g.in_w = large ? pick(30, 60) : pick(1, 12);
    g.in_c = g.f_c = pick(1, 40);
    if (!RandomFilter(pick, &g)) continue;
    CAPTURE(trial, g.batches, g.in_h, g.in_w, g.in_c, g.f_h, g.f_w, g.stride_h, g.stride_w, g.dil_h,
            g.pad_h, g.pad_w);
    const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
    const size_t depth = static_cast<size_t>(g.f_h) * g.f_w * g.f_c;
    const size_t span = static_cast<size_t>(g.f_w) * g.in_c;
    const size_t values = static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c;
    std::vector<int8_t> input(values);
    for (auto& v : input) v = static_cast<int8_t>(pick(-128, 127));
    std::vector<uint8_t> input_u8(values);
    for (auto& v : input_u8) v = static_cast<uint8_t>(pick(0, 255));
    std::vector<int32_t> offset(g.batches);
    for (auto& o : offset) o = pick(-128, 127);
    const tflite::conv_util::PaddedDotImage p = tflite::conv_util::PadDotGeometry(g);
    // Every window through the image's row pointers and spans, one row after another.
    auto gather = [&](const auto& windows, auto* out) {
      using T = std::remove_const_t<std::remove_pointer_t<decltype(windows.base)>>;
      std::vector<const T*> starts(rows);
      windows.Rows(0, rows, starts.data());
      for (size_t r = 0; r < rows; ++r) {
        for (int t = 0; t < windows.spans.count; ++t) {
          std::copy(starts[r] + t * windows.spans.stride,
                    starts[r] + t * windows.spans.stride + span, out + r * depth + t * span);
        }
      }
    };
    for (pthreadpool_t tp : {static_cast<pthreadpool_t>(nullptr), pool}) {
      const uint8_t pad = static_cast<uint8_t>(pick(0, 255));
      std::vector<uint8_t> dot_image(p.bytes(g), 0xA5), want(rows * depth), got(rows * depth);
      tflite::conv_util::PadDotImage(g, p, input.data(), pad, dot_image.data(), tp);
      tflite::conv_util::Im2ColRows(g, input.data(), 0, 0, rows, pad,
                                    tflite::conv_util::DotConvert{}, want.data());
      gather(tflite::conv_util::PaddedWindows(g, p, dot_image.data()), got.data());
      REQUIRE(got == want);

      std::vector<int16_t> image(p.bytes(g), 777), want16(rows * depth), got16(rows * depth);
      tflite::conv_util::PadInt16Image(g, p, input.data(), offset.data(), 1, image.data(), tp);
      tflite::conv_util::Im2ColRows(
          g, input.data(), 0, 0, rows, int16_t{0},
          [&](int8_t v, size_t b) { return static_cast<int16_t>(v - offset[b]); }, want16.data());
      gather(tflite::conv_util::PaddedWindows(g, p, image.data()), got16.data());
      REQUIRE(got16 == want16);

      // uint8 with one offset for every image (the 8-bit convolution's stride 0).
      tflite::conv_util::PadInt16Image(g, p, input_u8.data(), offset.data(), 0, image.data(), tp);
      tflite::conv_util::Im2ColRows(
          g, input_u8.data(), 0, 0, rows, int16_t{0},
          [&](uint8_t v, size_t) { return static_cast<int16_t>(v - offset[0]); }, want16.data());
      gather(tflite::conv_util::PaddedWindows(g, p, image.data()), got16.data());
      REQUIRE(got16 == want16);
    }
  }
  pthreadpool_destroy(pool);
}

}  // namespace
}  // namespace tflite_inspect
