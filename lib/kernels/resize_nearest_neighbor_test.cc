// RESIZE_NEAREST_NEIGHBOR: goldens (TFLite's test vectors), align_corners /
// half_pixel_centers, all types, run-time size, random shapes against an independent
// double-precision index reference, and errors.
#include <cmath>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

OpOptions Flags(bool align, bool half) {
  tflite::ResizeNearestNeighborOptionsT o;
  o.align_corners = align;
  o.half_pixel_centers = half;
  return Options(o);
}

template <typename T>
std::vector<T> Resize(tflite::TensorType type, std::vector<int32_t> shape,
                      const std::vector<T>& values, int h, int w, bool align = false,
                      bool half = false, bool const_size = true) {
  const std::vector<int32_t> size{h, w};
  const OpRun r =
      Run(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR,
          {Input<T>(type, shape, values, type == tflite::TensorType_FLOAT32 ? 0 : 0.5f, 0),
           const_size ? Const<int32_t>(tflite::TensorType_INT32, {2}, size)
                      : Input<int32_t>(tflite::TensorType_INT32, {2}, size)},
          {type, {shape[0], h, w, shape[3]}, type == tflite::TensorType_FLOAT32 ? 0 : 0.5f, 0},
          Flags(align, half), 4);
  REQUIRE(r.errors == "");
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{shape[0], h, w, shape[3]});
  return r.As<T>();
}

TEST_CASE("RESIZE_NEAREST_NEIGHBOR goldens") {
  // 2x2 -> 3x3 (TFLite's HorizontalResize/TwoDimensionalResize style).
  CHECK(Resize<float>(tflite::TensorType_FLOAT32, {1, 1, 2, 1}, {3, 6}, 1, 3) ==
        std::vector<float>{3, 3, 6});
  CHECK(Resize<float>(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, {3, 6, 9, 12}, 3, 3) ==
        std::vector<float>{3, 3, 6, 3, 3, 6, 9, 9, 12});
  // align_corners rounds: 2 -> 3 gives source 0, 1(0.5 rounds up), 1.
  CHECK(Resize<float>(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, {3, 6, 9, 12}, 3, 3, true) ==
        std::vector<float>{3, 6, 6, 9, 12, 12, 9, 12, 12});
  // half_pixel_centers: floor((x + 0.5) * 2/3) = 0, 1, 1.
  CHECK(Resize<float>(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, {3, 6, 9, 12}, 3, 3, false, true) ==
        std::vector<float>{3, 6, 6, 9, 12, 12, 9, 12, 12});
  CHECK(Resize<int8_t>(tflite::TensorType_INT8, {1, 2, 2, 1}, {-3, 6, 9, -12}, 3, 3) ==
        std::vector<int8_t>{-3, -3, 6, -3, -3, 6, 9, 9, -12});
  CHECK(Resize<uint8_t>(tflite::TensorType_UINT8, {1, 2, 1, 2}, {1, 2, 3, 4}, 1, 2) ==
        std::vector<uint8_t>{1, 2, 1, 2});
  CHECK(Resize<int16_t>(tflite::TensorType_INT16, {1, 2, 2, 1}, {3, 6, 9, -1200}, 3, 3, false,
                        false, /*const_size=*/false) ==
        std::vector<int16_t>{3, 3, 6, 3, 3, 6, 9, 9, -1200});
}

// Independent source index in double precision (exact for these small sizes,
// away from the float rounding boundaries the reference shares with TFLite).
int RefSource(int o, int in, int out, bool align, bool half) {
  const double scale =
      (align && out > 1) ? static_cast<double>(in - 1) / (out - 1) : static_cast<double>(in) / out;
  const double v = (o + (half ? 0.5 : 0.0)) * scale;
  int s = align ? static_cast<int>(std::floor(v + 0.5)) : static_cast<int>(std::floor(v));
  if (s > in - 1) s = in - 1;
  if (s < 0) s = 0;
  return s;
}

TEST_CASE("RESIZE_NEAREST_NEIGHBOR random shapes match the index reference") {
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int n = 1 + rng() % 2, h = 1 + rng() % 5, w = 1 + rng() % 5, c = 1 + rng() % 3;
    const int oh = 1 + rng() % 9, ow = 1 + rng() % 9;
    const bool align = rng() % 2, half = !align && rng() % 2;
    std::vector<float> in(n * h * w * c);
    for (auto& v : in) v = static_cast<float>(rng() % 1000) / 7.0f;
    const auto out =
        Resize<float>(tflite::TensorType_FLOAT32, {n, h, w, c}, in, oh, ow, align, half, seed % 2);
    for (int b = 0; b < n; ++b)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x)
          for (int k = 0; k < c; ++k) {
            const int sy = RefSource(y, h, oh, align, half), sx = RefSource(x, w, ow, align, half);
            REQUIRE(out[((b * oh + y) * ow + x) * c + k] == in[((b * h + sy) * w + sx) * c + k]);
          }
  }
}

TEST_CASE("RESIZE_NEAREST_NEIGHBOR rejects bad models") {
  auto r = Run(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR,
               {Input<int32_t>(tflite::TensorType_INT32, {1, 1, 1, 1}, {1}),
                Const<int32_t>(tflite::TensorType_INT32, {2}, {2, 2})},
               {tflite::TensorType_INT32, {1, 2, 2, 1}}, Flags(false, false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT32 (2) not supported.") != std::string::npos);
  r = Run(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR,
          {Input<float>(tflite::TensorType_FLOAT32, {1, 1, 1}, {1})},
          {tflite::TensorType_FLOAT32, {1, 2, 2, 1}}, Flags(false, false));
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR,
          {Input<float>(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, {1}),
           Const<int32_t>(tflite::TensorType_INT32, {2}, {0, 2})},
          {tflite::TensorType_FLOAT32, {1, 2, 2, 1}}, Flags(false, false));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("must be positive") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
