#include "kernels/internal/hybrid.h"

#include <catch2/catch.hpp>
#include <pthreadpool.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace tflite_inspect {
namespace {

// The vectorizable rounding must be std::round exactly: halves, their neighbours one ulp
// away, integers and random values over the quantizers' range.
TEST_CASE("hybrid::RoundHalfAway equals std::round") {
  std::vector<float> xs;
  for (int i = -300; i <= 300; ++i) {
    const float half = i + 0.5f;
    xs.insert(xs.end(), {static_cast<float>(i), half, std::nextafter(half, 1e9f),
                         std::nextafter(half, -1e9f)});
  }
  xs.insert(xs.end(), {0.49999997f, -0.49999997f, 8388607.5f, -8388607.5f, 16777216.0f,
                       -2147483520.0f});
  const uint32_t seed = 11;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-260.f, 260.f);
  for (int i = 0; i < 100000; ++i) xs.push_back(d(rng));
  for (float x : xs) {
    CAPTURE(seed, x);
    REQUIRE(tflite::hybrid::RoundHalfAway(x) == static_cast<int32_t>(std::round(x)));
  }
}

TEST_CASE("hybrid::MinMax equals std::minmax_element") {
  const uint32_t seed = 12;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-5.f, 5.f);
  for (int size = 1; size <= 300; size += size < 70 ? 1 : 23) {
    std::vector<float> v(size);
    for (float& x : v) x = d(rng);
    float lo, hi;
    tflite::hybrid::MinMax(v.data(), size, &lo, &hi);
    const auto mm = std::minmax_element(v.begin(), v.end());
    CAPTURE(seed, size);
    REQUIRE(lo == *mm.first);
    REQUIRE(hi == *mm.second);
  }
}

// The vector rescale against the scalar formula, bit for bit: lengths around the vector
// width, with and without bias and offset term, NaN and clamped values.
TEST_CASE("hybrid::ScaleRow equals its scalar formula") {
  const uint32_t seed = 13;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> di(-3000000, 3000000);
  std::uniform_real_distribution<float> df(1e-4f, 2e-2f), db(-3.f, 3.f);
  for (int n : {1, 7, 8, 9, 16, 31, 64, 100}) {
    std::vector<int32_t> dot(n), col(n);
    std::vector<float> unit(n), bias(n);
    for (int u = 0; u < n; ++u) {
      dot[u] = di(rng);
      col[u] = di(rng) / 100;
      unit[u] = df(rng);
      bias[u] = db(rng);
    }
    if (n > 3) bias[3] = std::nanf("");
    for (bool with_bias : {false, true}) {
      const float row_scale = 0.0173f, lo = -6.0f, hi = 6.0f;
      std::vector<float> got(n);
      tflite::hybrid::ScaleRow(dot.data(), row_scale, unit.data(), with_bias ? bias.data() : nullptr, lo, hi,
                               got.data(), n);
      for (int u = 0; u < n; ++u) {
        const float v = (with_bias ? bias[u] : 0.0f) + static_cast<float>(dot[u]) * (row_scale * unit[u]);
        const float want = std::min(std::max(v, lo), hi);
        CAPTURE(seed, n, u, with_bias);
        if (std::isnan(want)) {
          CHECK(std::isnan(got[u]));
        } else {
          CHECK(got[u] == want);
        }
      }
    }
    // The offset term: ScaleRow with the column sums and an offset equals ScaleRow of the
    // sums less offset * column sums (wrapping as uint32).
    std::vector<int32_t> want = dot;
    const uint32_t offset = 117;
    for (int u = 0; u < n; ++u) {
      want[u] = static_cast<int32_t>(static_cast<uint32_t>(want[u]) - offset * static_cast<uint32_t>(col[u]));
    }
    for (bool with_bias : {false, true}) {
      std::vector<float> fused(n), split(n);
      const float* b = with_bias ? bias.data() : nullptr;
      tflite::hybrid::ScaleRow(dot.data(), 0.0173f, unit.data(), b, -6.0f, 6.0f, fused.data(), n,
                               col.data(), offset);
      tflite::hybrid::ScaleRow(want.data(), 0.0173f, unit.data(), b, -6.0f, 6.0f, split.data(), n);
      for (int u = 0; u < n; ++u) {
        CAPTURE(seed, n, u, with_bias);
        CHECK((fused[u] == split[u] || (std::isnan(fused[u]) && std::isnan(split[u]))));
      }
    }
  }
}

// The vector quantization loops (8 and 16 lanes, and the rows written XOR 0x80 for the
// dot GEMM) against the scalar formula: offset + round(x * inv), the first size & ~7
// values rounded as truncate(y +/- 0.5), the rest half away from zero; sizes around both
// vector widths, values exactly on halves among them.
TEST_CASE("hybrid::RescaleRow and RescaleConvRow equal their scalar formulas, bit for bit") {
  const uint32_t seed = 23;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> acc_d(-3000000, 3000000);
  std::uniform_real_distribution<float> f(-2.0f, 2.0f);
  for (int n = 1; n <= 70; ++n) {
    for (bool with_bias : {false, true}) {
      std::vector<int32_t> acc(n);
      std::vector<float> multiplier(n), bias(n);
      for (int j = 0; j < n; ++j) {
        acc[j] = j % 13 == 0 ? 0 : acc_d(rng);
        multiplier[j] = f(rng) * 1e-5f;
        bias[j] = j % 7 == 0 ? -0.0f : f(rng);
      }
      const float lo = -6.0f, hi = 6.0f;  // RELU6-like bounds both ways
      std::vector<float> got(n + 1, 1234.0f);
      tflite::hybrid::RescaleRow(acc.data(), n, multiplier.data(), with_bias ? bias.data() : nullptr, lo, hi,
                         got.data());
      for (int j = 0; j < n; ++j) {
        volatile float product = static_cast<float>(acc[j]) * multiplier[j];  // rounded alone
        const float v = with_bias ? product + bias[j] : product;
        const float want = std::min(std::max(v, lo), hi);
        CAPTURE(seed, n, with_bias, j, acc[j], multiplier[j]);
        CHECK(std::memcmp(&got[j], &want, sizeof want) == 0);
      }
      CHECK(got[n] == 1234.0f);  // nothing written past the row
      for (bool with_scale : {false, true}) {
        // Products mostly inside the clamp range both ways.
        const float row_scale = with_scale ? 0.37f : 3.7e-6f;
        std::fill(got.begin(), got.end(), 1234.0f);
        tflite::hybrid::RescaleConvRow(acc.data(), n, with_scale ? multiplier.data() : nullptr, row_scale,
                                       with_bias ? bias.data() : nullptr, lo, hi, got.data());
        for (int j = 0; j < n; ++j) {
          volatile float product = static_cast<float>(acc[j]);
          if (with_scale) product = product * multiplier[j];
          product = product * row_scale;
          const float v = with_bias ? product + bias[j] : product;
          const float want = std::min(std::max(v, lo), hi);
          CAPTURE(seed, n, with_bias, with_scale, j, acc[j]);
          CHECK(std::memcmp(&got[j], &want, sizeof want) == 0);
        }
        CHECK(got[n] == 1234.0f);
      }
    }
  }
}

TEST_CASE("hybrid::QuantizedRows equals the scalar quantization formula") {
  const uint32_t seed = 14;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-3.f, 5.f);
  for (int size : {1, 7, 8, 9, 15, 16, 17, 24, 31, 63, 64, 65, 128, 200, 512}) {
    for (bool asymmetric : {false, true}) {
      const int rows = 3;
      std::vector<float> x(static_cast<size_t>(rows) * size);
      for (float& v : x) v = d(rng);
      if (size > 4) x[3] = 0.0f;
      std::fill(x.begin() + size, x.begin() + 2 * size, 0.0f);  // an all-zero row
      // The last row: max 127 (symmetric factor 1), so values k / 2 are exact halves.
      for (int i = 0; i < size; ++i) x[2 * size + i] = i == 0 ? 127.0f : (i % 41 - 20) * 0.5f;
      tflite::hybrid::QuantizedRows q;
      q.Quantize(x.data(), rows, size, asymmetric);
      const int stride = size + 5;
      std::vector<int8_t> flipped(static_cast<size_t>(rows) * stride);
      tflite::hybrid::QuantizedRows f;
      f.QuantizeTo(x.data(), rows, size, asymmetric, flipped.data(), stride, 0x80);
      for (int r = 0; r < rows; ++r) {
        const float* row = x.data() + r * size;
        const auto mm = std::minmax_element(row, row + size);
        const tflite::hybrid::RowParams p = asymmetric
                                                ? tflite::hybrid::AsymmetricParams(*mm.first, *mm.second)
                                                : tflite::hybrid::SymmetricParams(*mm.first, *mm.second);
        CHECK(q.scale[r] == p.scale);
        CHECK(q.offset[r] == p.offset);
        CHECK(f.scale[r] == p.scale);
        CHECK(f.offset[r] == p.offset);
        for (int i = 0; i < size; ++i) {
          int32_t want = 0;
          if (!p.zero) {
            const float y = row[i] * p.inv;
            const int32_t rounded = i < (size & ~7) ? tflite::hybrid::NeonRound(y)
                                                    : tflite::hybrid::RoundHalfAway(y);
            want = std::min(p.hi, std::max(p.lo, p.offset + rounded));
          }
          CAPTURE(seed, size, asymmetric, r, i);
          REQUIRE(q.row(r, size)[i] == want);
          REQUIRE(static_cast<uint8_t>(flipped[r * stride + i]) ==
                  tflite::gemm::DotByte(static_cast<int8_t>(want)));
        }
      }
    }
  }
}

// The vector loops' edges against the scalar formula: a NaN among the values (the lower
// bound), infinities, a range so small that 127 / range overflows to infinity (y = +/-inf
// or NaN for 0), -0.
TEST_CASE("hybrid::QuantizedRows edge values equal the scalar formula") {
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  std::vector<std::vector<float>> rows = {
      {0.5f, -1.f, nan, 2.f, -0.0f, 3.f, 1.f, -2.f, 0.25f, nan, 1.5f, -0.5f, 0.f, 2.5f, -3.f, 1.f, 0.75f, -0.75f},
      {1.f, inf, -2.f, 3.f, -inf, 0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f, 10.f},
      {1e-39f, -5e-40f, 0.f, 3e-39f, -0.0f, 2e-39f, 1e-40f, -1e-39f, 1e-39f, 0.f, 4e-39f, -4e-39f, 1e-45f, 0.f, 2e-39f, 1e-39f}};
  for (bool asymmetric : {false, true}) {
    for (const auto& row : rows) {
      const int size = static_cast<int>(row.size());
      tflite::hybrid::QuantizedRows q;
      std::vector<int8_t> flipped(row.size());
      q.QuantizeTo(row.data(), 1, row.size(), asymmetric, flipped.data(), row.size(), 0x80);
      tflite::hybrid::QuantizedRows plain;
      plain.Quantize(row.data(), 1, row.size(), asymmetric);
      // The range a linear scan finds (NaN compares false, so it is skipped).
      float lo = row[0], hi = row[0];
      for (float v : row) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      const tflite::hybrid::RowParams p = asymmetric ? tflite::hybrid::AsymmetricParams(lo, hi)
                                                     : tflite::hybrid::SymmetricParams(lo, hi);
      for (int i = 0; i < size; ++i) {
        int32_t want = 0;
        if (!p.zero) {
          const float y = row[i] * p.inv;
          const int32_t rounded = i < (size & ~7) ? tflite::hybrid::NeonRound(y) : tflite::hybrid::RoundHalfAway(y);
          want = static_cast<int32_t>(std::min<int64_t>(p.hi, std::max<int64_t>(p.lo, int64_t{p.offset} + rounded)));
        }
        CAPTURE(asymmetric, size, i, row[i], p.inv);
        REQUIRE(plain.row(0, row.size())[i] == want);
        REQUIRE(static_cast<uint8_t>(flipped[i]) == tflite::gemm::DotByte(static_cast<int8_t>(want)));
      }
    }
  }
}

// Over a thread pool (QuantizeTo's spans, for a hybrid convolution's image): the serial
// bytes, scales and offsets, for one long row and several, sizes around the spans' 64-value
// grain and the NEON-rounded part's end, with NaN (first or later), infinities, -0 and an
// all-zero row among them, both layouts.
TEST_CASE("hybrid::QuantizedRows over a thread pool gives the serial values") {
  pthreadpool_t pool = pthreadpool_create(2);
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> d(-4.f, 3.f);
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  int cases = 0;
  for (int rows : {1, 3}) {
    for (size_t size : {size_t{65536}, size_t{70001}, size_t{100003}, size_t{131072 + 8}, size_t{40000}}) {
      if (static_cast<double>(rows) * size < 65536) continue;
      for (int variant = 0; variant < 5; ++variant) {
        std::vector<float> x(static_cast<size_t>(rows) * size);
        for (float& v : x) v = d(rng);
        if (variant == 1) x[size / 2 + 3] = nan;                // NaN inside: ignored
        if (variant == 2) x[0] = nan;                           // NaN first: the row's range is NaN
        if (variant == 3) x[size - 1] = -inf, x[size / 3] = inf;
        if (variant == 4) {
          std::fill(x.begin(), x.begin() + size, 0.0f);          // an all-zero row with a -0
          x[4097] = -0.0f;
        }
        for (bool asymmetric : {false, true}) {
          for (uint8_t flip : {uint8_t{0}, uint8_t{0x80}}) {
            const size_t stride = size + (flip != 0 ? 7 : 0);
            std::vector<int8_t> serial(static_cast<size_t>(rows) * stride, 5), spans(serial);
            tflite::hybrid::QuantizedRows a, b;
            a.QuantizeTo(x.data(), rows, size, asymmetric, serial.data(), stride, flip);
            b.QuantizeTo(x.data(), rows, size, asymmetric, spans.data(), stride, flip, pool);
            CAPTURE(rows, size, variant, asymmetric, static_cast<int>(flip));
            REQUIRE(std::memcmp(a.scale.data(), b.scale.data(), rows * sizeof(float)) == 0);
            REQUIRE(a.offset == b.offset);
            REQUIRE(serial == spans);
            ++cases;
          }
        }
      }
    }
  }
  CHECK(cases == 5 * 4 * (4 + 5));
  pthreadpool_destroy(pool);
}

// A hybrid layer's batch over a thread pool (without AVX-512: blocks of whole rows from
// 16,384 values; with it, spans from 65,536): the serial bytes, scales and offsets, rows
// with NaN, infinities and all zeros among them.
TEST_CASE("hybrid::QuantizedRows of a layer's rows over a thread pool gives the serial values") {
  pthreadpool_t pool = pthreadpool_create(2);
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> d(-2.f, 5.f);
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  int cases = 0;
  for (int rows : {4, 9, 64, 65}) {
    for (size_t size : {size_t{256}, size_t{300}, size_t{2049}, size_t{5000}}) {
      std::vector<float> x(static_cast<size_t>(rows) * size);
      for (float& v : x) v = d(rng);
      x[size + 7] = nan;                                            // row 1: NaN inside
      x[2 * size] = nan;                                            // row 2: NaN first
      std::fill(x.begin() + 3 * size, x.begin() + 4 * size, 0.0f);  // row 3: zeros
      x[(rows - 1) * size + size / 2] = -inf;                       // the last row: an infinity
      for (bool asymmetric : {false, true}) {
        for (uint8_t flip : {uint8_t{0}, uint8_t{0x80}}) {
          const size_t stride = size + (flip != 0 ? 5 : 0);
          std::vector<int8_t> serial(static_cast<size_t>(rows) * stride, 3), pooled(serial);
          tflite::hybrid::QuantizedRows a, b;
          a.QuantizeTo(x.data(), rows, size, asymmetric, serial.data(), stride, flip);
          b.QuantizeTo(x.data(), rows, size, asymmetric, pooled.data(), stride, flip, pool);
          CAPTURE(rows, size, asymmetric, static_cast<int>(flip));
          REQUIRE(std::memcmp(a.scale.data(), b.scale.data(), rows * sizeof(float)) == 0);
          REQUIRE(a.offset == b.offset);
          REQUIRE(serial == pooled);
          ++cases;
        }
      }
    }
  }
  CHECK(cases == 4 * 4 * 4);
  pthreadpool_destroy(pool);
}

// Infinite inputs (found by an UBSan fuzz run): an infinite scale, a NaN zero point that
// must not reach the int8 conversion; 0, what TFLite's conversion gives on x86.
TEST_CASE("hybrid::AsymmetricQuantizeFloats on infinite inputs: offset 0, no NaN conversion") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> row = {1.0f, -inf, 2.0f, inf};
  std::vector<int8_t> q(row.size());
  float scale = 0;
  int32_t offset = 7;
  tflite::hybrid::AsymmetricQuantizeFloats(row.data(), static_cast<int>(row.size()), q.data(), &scale, &offset);
  CHECK(offset == 0);
}

}  // namespace
}  // namespace tflite_inspect

// TFLite's x86 build quantizes hybrid inputs with its NEON code (NEON_2_SSE): the product
// rounded alone and the offset added as an integer, the first size & ~7 values rounded as
// truncate(y +/- 0.5) in float, the rest half away from zero. Values from NASNet-Mobile's
// stem where the portable formula, round(offset + y) in float, is a step lower.
TEST_CASE("hybrid quantization rounds as TFLite's x86 build") {
  // max 6.962541 -> scale 0.027304083, offset -128; 0.45051748 * (1 / scale) = 16.500004,
  // so offset + y = -111.499996 rounds in float to -111.5 and then to -112; TFLite gives
  // -128 + round(16.500004) = -111.
  for (int size : {8, 11}) {
    std::vector<float> x(size, 0.0f);
    x[0] = 6.962541f;
    x[1] = 0.45051748f;  // in the first size & ~7 values
    if (size > 8) x[9] = 0.45051748f;  // in the last size % 8
    std::vector<int8_t> q(size);
    float scale;
    int32_t offset;
    tflite::hybrid::AsymmetricQuantizeFloats(x.data(), size, q.data(), &scale, &offset);
    CHECK(offset == -128);
    CHECK(q[1] == -111);
    if (size > 8) CHECK(q[9] == -111);
  }
  // Symmetric: y = 0.49999997 (x * 127 / max) rounds to 1 in the first 8 values (y + 0.5 is
  // 1.0 in float) and to 0 in the rest (halves away from zero: below a half).
  {
    const float max = 127.0f;
    std::vector<float> x(9, 0.0f);
    x[0] = max;
    x[1] = 0.49999997f;
    x[8] = 0.49999997f;
    std::vector<int8_t> q(9);
    float scale;
    tflite::hybrid::SymmetricQuantizeFloats(x.data(), 9, q.data(), &scale);
    CHECK(q[1] == 1);
    CHECK(q[8] == 0);
    x[1] = -0.49999997f;
    tflite::hybrid::SymmetricQuantizeFloats(x.data(), 9, q.data(), &scale);
    CHECK(q[1] == -1);
  }
}
