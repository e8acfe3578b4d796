// RESIZE_BILINEAR: goldens (plain, align_corners, half_pixel_centers), random sizes
// against a double reference (float) and independent models of the uint8 float path
// and the int8/int16 10-bit fixed-point path (bit-exact), run-time size, and errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;

OpOptions ResizeOptions(bool align_corners, bool half_pixel_centers) {
  tflite::ResizeBilinearOptionsT o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel_centers;
  return Options(o);
}

OpRun Resize(tflite::TensorType type, const std::vector<int32_t>& shape,
             const std::vector<uint8_t>& bytes, int oh, int ow, bool ac, bool hp,
             bool runtime_size = false) {
  In input{type, shape, bytes, false, 0, 0};
  if (type != TensorType_FLOAT32 && type != TensorType_INT32) {
    input.scale = 0.5f;
    input.zero_point = 0;
  }
  const std::vector<int32_t> size = {oh, ow};
  return Run(tflite::BuiltinOperator_RESIZE_BILINEAR,
             {input, runtime_size ? Input(TensorType_INT32, {2}, size)
                                  : Const(TensorType_INT32, {2}, size)},
             {type, {shape[0], oh, ow, shape[3]}, input.scale, 0}, ResizeOptions(ac, hp));
}

TEST_CASE("RESIZE_BILINEAR float goldens") {
  auto r =
      Resize(TensorType_FLOAT32, {1, 2, 2, 1}, Bytes<float>({3, 6, 9, 12}), 3, 3, false, false);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 3, 3, 1});
  const auto plain = r.As<float>();
  const std::vector<float> expected = {3, 5, 6, 7, 9, 10, 9, 11, 12};
  for (size_t i = 0; i < expected.size(); ++i) CHECK(plain[i] == Approx(expected[i]));

  r = Resize(TensorType_FLOAT32, {1, 2, 2, 1}, Bytes<float>({1, 2, 3, 4}), 3, 3, false, true);
  REQUIRE(r.invoke == kTfLiteOk);
  const auto half = r.As<float>();
  const std::vector<float> expected_half = {1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4};
  for (size_t i = 0; i < expected_half.size(); ++i) CHECK(half[i] == Approx(expected_half[i]));

  r = Resize(TensorType_FLOAT32, {1, 2, 2, 1}, Bytes<float>({1, 2, 3, 4}), 3, 3, true, false);
  REQUIRE(r.invoke == kTfLiteOk);
  const auto corners = r.As<float>();
  const std::vector<float> expected_corners = {1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4};
  for (size_t i = 0; i < expected_corners.size(); ++i) {
    CHECK(corners[i] == Approx(expected_corners[i]));
  }
}

// Source coordinate as TFLite defines it (computed in float, as the kernel does).
void Coord(int v, float scale, bool hp, int size, float* s, int* lo, int* hi) {
  *s = hp ? (v + 0.5f) * scale - 0.5f : v * scale;
  *lo = std::max(static_cast<int>(std::floor(*s)), 0);
  *hi = std::min(static_cast<int>(std::ceil(*s)), size - 1);
}

float Scale(int in, int out, bool ac) {
  return ac && out > 1 ? static_cast<float>(in - 1) / (out - 1) : static_cast<float>(in) / out;
}

struct RandomCase {
  std::vector<int32_t> shape;
  int oh, ow;
  bool ac, hp;
};

// wide: up to 40 channels and 24 output pixels a side (the vector loops and their tails,
// and downsampling by more than 2).
RandomCase MakeCase(std::mt19937& rng, bool wide = false) {
  RandomCase c;
  c.shape = {1 + static_cast<int>(rng() % 2), 1 + static_cast<int>(rng() % (wide ? 12 : 5)),
             1 + static_cast<int>(rng() % (wide ? 12 : 5)),
             1 + static_cast<int>(rng() % (wide ? 40 : 3))};
  c.oh = 1 + static_cast<int>(rng() % (wide ? 24 : 9));
  c.ow = 1 + static_cast<int>(rng() % (wide ? 24 : 9));
  const int mode = rng() % 3;
  c.ac = mode == 1;
  c.hp = mode == 2;
  return c;
}

TEST_CASE("RESIZE_BILINEAR float random against double") {
  std::mt19937 rng(111);
  for (int iter = 0; iter < 60; ++iter) {
    const RandomCase c = MakeCase(rng);
    std::vector<float> in(Count(c.shape));
    for (auto& x : in) x = std::uniform_real_distribution<float>(-5, 5)(rng);
    const bool runtime = rng() % 2;
    CAPTURE(iter, c.shape, c.oh, c.ow, c.ac, c.hp, runtime);
    const auto r = Resize(TensorType_FLOAT32, c.shape, Bytes(in), c.oh, c.ow, c.ac, c.hp, runtime);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<float>();
    const int H = c.shape[1], W = c.shape[2], C = c.shape[3];
    const float hs = Scale(H, c.oh, c.ac), ws = Scale(W, c.ow, c.ac);
    size_t k = 0;
    for (int b = 0; b < c.shape[0]; ++b)
      for (int y = 0; y < c.oh; ++y)
        for (int x = 0; x < c.ow; ++x)
          for (int ch = 0; ch < C; ++ch, ++k) {
            float sy, sx;
            int y0, y1, x0, x1;
            Coord(y, hs, c.hp, H, &sy, &y0, &y1);
            Coord(x, ws, c.hp, W, &sx, &x0, &x1);
            auto at = [&](int yy, int xx) {
              return static_cast<double>(in[((b * H + yy) * W + xx) * C + ch]);
            };
            const double dy = static_cast<double>(sy) - y0, dx = static_cast<double>(sx) - x0;
            const double v = at(y0, x0) * (1 - dy) * (1 - dx) + at(y1, x0) * dy * (1 - dx) +
                             at(y0, x1) * (1 - dy) * dx + at(y1, x1) * dy * dx;
            REQUIRE(out[k] == Approx(v).epsilon(1e-5).margin(1e-5));
          }
  }
}

template <typename T>
void RandomIntegerResize(tflite::TensorType type, uint32_t seed, bool wide = false) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 60; ++iter) {
    const RandomCase c = MakeCase(rng, wide);
    std::vector<T> in(Count(c.shape));
    for (auto& x : in) {
      x = static_cast<T>(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                            std::numeric_limits<T>::max())(rng));
    }
    CAPTURE(seed, iter, c.shape, c.oh, c.ow, c.ac, c.hp);
    const auto r = Resize(type, c.shape, Bytes(in), c.oh, c.ow, c.ac, c.hp);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.template As<T>();
    const int H = c.shape[1], W = c.shape[2], C = c.shape[3];
    size_t k = 0;
    for (int b = 0; b < c.shape[0]; ++b)
      for (int y = 0; y < c.oh; ++y)
        for (int x = 0; x < c.ow; ++x)
          for (int ch = 0; ch < C; ++ch, ++k) {
            auto at = [&](int yy, int xx) { return in[((b * H + yy) * W + xx) * C + ch]; };
            T expected;
            if (std::is_same<T, uint8_t>::value) {
              // uint8: float interpolation truncated by the cast.
              float sy, sx;
              int y0, y1, x0, x1;
              Coord(y, Scale(H, c.oh, c.ac), c.hp, H, &sy, &y0, &y1);
              Coord(x, Scale(W, c.ow, c.ac), c.hp, W, &sx, &x0, &x1);
              const float dy = sy - y0, dx = sx - x0;
              expected =
                  static_cast<T>(at(y0, x0) * (1 - dy) * (1 - dx) + at(y1, x0) * dy * (1 - dx) +
                                 at(y0, x1) * (1 - dy) * dx + at(y1, x1) * dy * dx);
            } else {
              // int8/int16: coordinates in units of 1/1024, result rounded half away.
              auto scale10 = [&](int in_size, int out_size) {
                if (c.ac && out_size > 1) {
                  return (1024 * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
                }
                return (1024 * in_size + out_size / 2) / out_size;
              };
              auto coord = [&](int v, int s10, int size, int* lo, int* hi) {
                const int s = c.hp ? v * s10 + s10 / 2 - 512 : v * s10;
                *lo = std::max(s / 1024, 0);
                *hi = std::min((s + 1023) / 1024, size - 1);
                return s;
              };
              int y0, y1, x0, x1;
              const int64_t sy = coord(y, scale10(H, c.oh), H, &y0, &y1);
              const int64_t sx = coord(x, scale10(W, c.ow), W, &x0, &x1);
              const int64_t fy = sy - 1024 * y0, fx = sx - 1024 * x0;
              const int64_t acc = at(y0, x0) * (1024 - fy) * (1024 - fx) +
                                  at(y1, x0) * fy * (1024 - fx) + at(y0, x1) * (1024 - fy) * fx +
                                  at(y1, x1) * fy * fx;
              const int64_t mag = (acc < 0 ? -acc : acc) + (int64_t{1} << 19);
              expected = static_cast<T>((acc < 0 ? -1 : 1) * (mag >> 20));
            }
            REQUIRE(static_cast<int>(out[k]) == static_cast<int>(expected));
          }
  }
}

TEST_CASE("RESIZE_BILINEAR quantized random bit-exact") {
  RandomIntegerResize<uint8_t>(tflite::TensorType_UINT8, 121);
  RandomIntegerResize<int8_t>(tflite::TensorType_INT8, 122);
  RandomIntegerResize<int16_t>(tflite::TensorType_INT16, 123);
  RandomIntegerResize<int8_t>(tflite::TensorType_INT8, 124, /*wide=*/true);
  RandomIntegerResize<int16_t>(tflite::TensorType_INT16, 125, /*wide=*/true);
}

TEST_CASE("RESIZE_BILINEAR on 2 threads gives the single-threaded results") {
  std::mt19937 rng(124);
  const std::vector<int32_t> shape = {1, 30, 30, 8};
  std::vector<float> in(Count(shape));
  for (auto& x : in) x = std::uniform_real_distribution<float>(-1, 1)(rng);
  const std::vector<int32_t> size = {120, 130};
  OpRun r[2];
  for (int t = 0; t < 2; ++t) {
    r[t] = Run(tflite::BuiltinOperator_RESIZE_BILINEAR,
               {Input(TensorType_FLOAT32, shape, in), Const(TensorType_INT32, {2}, size)},
               {TensorType_FLOAT32, {1, 120, 130, 8}}, ResizeOptions(false, true), 3, t + 1);
    REQUIRE(r[t].invoke == kTfLiteOk);
  }
  CHECK(r[0].bytes == r[1].bytes);
}

TEST_CASE("RESIZE_BILINEAR errors") {
  const auto in = Bytes<float>({1, 2, 3, 4});
  SECTION("align_corners with half_pixel_centers") {
    const auto r = Resize(TensorType_FLOAT32, {1, 2, 2, 1}, in, 3, 3, true, true);
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("half_pixel_centers"));
  }
  SECTION("non-positive size") {
    const auto r = Resize(TensorType_FLOAT32, {1, 2, 2, 1}, in, 0, 3, false, false);
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("RESIZE_BILINEAR"));
  }
  SECTION("3-D input") {
    const auto r = Run(tflite::BuiltinOperator_RESIZE_BILINEAR,
                       {Input<float>(TensorType_FLOAT32, {2, 2, 1}, {1, 2, 3, 4}),
                        Const<int32_t>(TensorType_INT32, {2}, {3, 3})},
                       {TensorType_FLOAT32, {3, 3, 1}}, ResizeOptions(false, false));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("int32 input") {
    const auto r =
        Resize(TensorType_INT32, {1, 2, 2, 1}, Bytes<int32_t>({1, 2, 3, 4}), 3, 3, false, false);
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
