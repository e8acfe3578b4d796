#include "kernels/internal/depthwise_integer.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/internal/gemm.h"

namespace tflite_inspect {
namespace {

int Rand(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// The reference's sums: taps outside the image skipped, int32 arithmetic (wrapping).
template <typename In, typename F>
std::vector<int32_t> NaiveRow(const tflite::dwconv::Window& w, const In* image, const F* filter,
                              int32_t filter_offset, int32_t input_offset, int oy) {
  std::vector<int32_t> acc(static_cast<size_t>(w.out_w) * w.channels, 0);
  for (int ox = 0; ox < w.out_w; ++ox) {
    for (int c = 0; c < w.channels; ++c) {
      uint32_t s = 0;
      for (int fy = 0; fy < w.f_h; ++fy) {
        const int iy = oy * w.stride_h - w.pad_h + fy * w.dil_h;
        for (int fx = 0; fx < w.f_w; ++fx) {
          const int ix = ox * w.stride_w - w.pad_w + fx * w.dil_w;
          if (iy < 0 || iy >= w.in_h || ix < 0 || ix >= w.in_w) continue;
          const int32_t f = filter[(fy * w.f_w + fx) * w.channels + c] + filter_offset;
          const int32_t x = image[(iy * w.in_w + ix) * w.channels + c] + input_offset;
          s += static_cast<uint32_t>(f * x);
        }
      }
      acc[static_cast<size_t>(ox) * w.channels + c] = static_cast<int32_t>(s);
    }
  }
  return acc;
}

template <typename In>
void CheckRandom(uint32_t seed) {
  std::mt19937 rng(seed);
  tflite::dwconv::Window w{};
  w.in_h = Rand(rng, 1, 9);
  w.in_w = Rand(rng, 1, 9);
  w.channels = Rand(rng, 1, 50);
  w.f_h = Rand(rng, 1, 5);
  w.f_w = Rand(rng, 1, 5);
  w.stride_h = Rand(rng, 1, 3);
  w.stride_w = Rand(rng, 1, 3);
  w.dil_h = Rand(rng, 1, 2);
  w.dil_w = Rand(rng, 1, 2);
  w.pad_h = Rand(rng, 0, 3);
  w.pad_w = Rand(rng, 0, 3);
  const int out_h = Rand(rng, 1, 6);
  w.out_w = Rand(rng, 1, 6);
  const bool is_uint8 = sizeof(In) == 1 && static_cast<In>(-1) > 0;
  const int lo = is_uint8 ? 0 : -128, hi = is_uint8 ? 255 : 127;
  std::vector<In> image(static_cast<size_t>(w.in_h) * w.in_w * w.channels);
  for (auto& v : image) v = static_cast<In>(Rand(rng, lo, hi));
  std::vector<In> filter(static_cast<size_t>(w.f_h) * w.f_w * w.channels);
  for (auto& v : filter) v = static_cast<In>(Rand(rng, lo, hi));
  const int32_t zero_point = Rand(rng, lo, hi);
  const int32_t filter_offset = is_uint8 ? -Rand(rng, 0, 255) : 0;
  std::vector<In> zero_row(w.channels + tflite::dwconv::kZeroRowPad, static_cast<In>(zero_point));
  tflite::dwconv::Int8Sums sums;
  REQUIRE(sums.Pack(filter.data(), w.f_h * w.f_w, w.channels, filter_offset));
  for (int oy = 0; oy < out_h; ++oy) {
    const auto want = NaiveRow(w, image.data(), filter.data(), filter_offset, -zero_point, oy);
    for (bool portable : {false, true}) {
      std::vector<int32_t> got(want.size());
      sums.Row(w, image.data(), oy, 0, w.out_w, -zero_point, zero_row.data(), got.data(),
               portable);
      CAPTURE(seed, oy, portable, w.channels, w.f_h, w.f_w, w.pad_h, w.pad_w);
      REQUIRE(got == want);
    }
  }
  // Through the output stage: the vector rows give the portable loop's bytes, which are
  // the raw sums (checked above) through requant::OutputStageRow's portable loop.
  std::vector<int32_t> bias(w.channels), mult(w.channels), shift(w.channels);
  for (int c = 0; c < w.channels; ++c) {
    bias[c] = Rand(rng, -50000, 50000);
    mult[c] = Rand(rng, 1 << 30, 0x7fffffff);
    shift[c] = Rand(rng, -14, 1);
  }
  tflite::gemm::QuantizedOutputStage stage;
  stage.bias = bias.data();
  stage.multiplier = mult.data();
  stage.shift = shift.data();
  stage.output_offset = Rand(rng, -10, 10);
  stage.act_min = lo;
  stage.act_max = hi;
  tflite::dwconv::RowStage row_stage;
  sums.PrepareStage(-zero_point, stage, &row_stage);
  for (int oy = 0; oy < out_h; ++oy) {
    const auto raw = NaiveRow(w, image.data(), filter.data(), filter_offset, -zero_point, oy);
    std::vector<In> want(raw.size());
    for (int ox = 0; ox < w.out_w; ++ox) {
      tflite::requant::OutputStageRow(raw.data() + static_cast<size_t>(ox) * w.channels, w.channels,
                                      stage, want.data() + static_cast<size_t>(ox) * w.channels,
                                      /*portable=*/true);
    }
    for (bool portable : {false, true}) {
      std::vector<In> got(want.size());
      sums.RowQuantized(w, image.data(), oy, 0, w.out_w, zero_row.data(), row_stage, got.data(),
                        portable);
      CAPTURE(seed, oy, portable, w.channels, w.f_h, w.f_w);
      REQUIRE(got == want);
    }
  }
}

TEST_CASE("dwconv::Int8Sums (vector and portable) gives the reference's sums and outputs") {
  if (!tflite::dwconv::Int8Sums::Vectorized()) {
    WARN("no vector loop here (AVX2 / NEON): only the portable loop is checked");
  }
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    CheckRandom<int8_t>(seed);
    CheckRandom<uint8_t>(seed + 5000);
  }
}

TEST_CASE("dwconv::Int8Sums refuses a filter offset its int16 pairs cannot hold") {
  const uint8_t filter[4] = {1, 2, 3, 4};
  tflite::dwconv::Int8Sums sums;
  CHECK_FALSE(sums.Pack(filter, 2, 2, -40000));
  CHECK_FALSE(sums.packed());
  CHECK(sums.Pack(filter, 2, 2, -255));
  CHECK(sums.packed());
}

}  // namespace
}  // namespace tflite_inspect
