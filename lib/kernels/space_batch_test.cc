// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND: TFLite's goldens, quantized zero-point
// padding, 3-D inputs, run-time block/paddings, random 4-D shapes against an index
// reference plus the round trip, and errors.
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::BuiltinOperator_BATCH_TO_SPACE_ND;
using tflite::BuiltinOperator_SPACE_TO_BATCH_ND;

template <typename T>
OpRun Op(tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> shape,
         const std::vector<T>& in, const std::vector<int32_t>& block,
         const std::vector<int32_t>& pads, std::vector<int32_t> out_shape, bool constant = true,
         float scale = 0, int zp = 0, int version = 1) {
  const int32_t n = static_cast<int32_t>(block.size());
  return Run(op,
             {Input<T>(type, shape, in, scale, zp),
              constant ? Const<int32_t>(tflite::TensorType_INT32, {n}, block)
                       : Input<int32_t>(tflite::TensorType_INT32, {n}, block),
              constant ? Const<int32_t>(tflite::TensorType_INT32, {n, 2}, pads)
                       : Input<int32_t>(tflite::TensorType_INT32, {n, 2}, pads)},
             {type, out_shape, scale, zp}, {}, version);
}

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i + 1);
  return v;
}

TEST_CASE("SPACE_TO_BATCH_ND goldens") {
  auto r = Op<float>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_FLOAT32, {1, 4, 4, 1},
                     Iota(16), {2, 2}, {0, 0, 0, 0}, {4, 2, 2, 1});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{4, 2, 2, 1});
  CHECK(r.As<float>() == std::vector<float>{1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16});
  r = Op<float>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_FLOAT32, {1, 5, 2, 1},
                Iota(10), {3, 2}, {1, 0, 2, 0}, {6, 2, 2, 1}, false);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{6, 2, 2, 1});
  CHECK(r.As<float>() == std::vector<float>{0, 0, 0, 5, 0, 0, 0, 6, 0, 1, 0, 7,
                                            0, 2, 0, 8, 0, 3, 0, 9, 0, 4, 0, 10});
  // Quantized padding is the zero point.
  auto q = Op<int8_t>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_INT8, {1, 2, 1, 1},
                      {5, 6}, {2, 1}, {1, 1, 0, 0}, {2, 2, 1, 1}, true, 0.5f, -7, 2);
  REQUIRE(q.invoke == kTfLiteOk);
  CHECK(q.As<int8_t>() == std::vector<int8_t>{-7, 6, 5, -7});
  auto u = Op<uint8_t>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_UINT8, {1, 1, 1, 1},
                       {9}, {1, 1}, {0, 0, 0, 1}, {1, 1, 2, 1}, true, 0.5f, 128);
  REQUIRE(u.invoke == kTfLiteOk);
  CHECK(u.As<uint8_t>() == std::vector<uint8_t>{9, 128});
  // 3-D: [b, h, c] with a 1-D block.
  auto t = Op<int64_t>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_INT64, {1, 4, 2},
                       {1, 2, 3, 4, 5, 6, 7, 8}, {2}, {0, 0}, {2, 2, 2}, true, 0, 0, 3);
  REQUIRE(t.invoke == kTfLiteOk);
  CHECK(t.As<int64_t>() == std::vector<int64_t>{1, 2, 5, 6, 3, 4, 7, 8});
}

TEST_CASE("BATCH_TO_SPACE_ND goldens") {
  auto r = Op<float>(BuiltinOperator_BATCH_TO_SPACE_ND, tflite::TensorType_FLOAT32, {4, 2, 2, 1},
                     Iota(16), {2, 2}, {0, 0, 0, 0}, {1, 4, 4, 1});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{1, 5, 2, 6, 9, 13, 10, 14, 3, 7, 4, 8, 11, 15, 12, 16});
  r = Op<float>(BuiltinOperator_BATCH_TO_SPACE_ND, tflite::TensorType_FLOAT32, {4, 2, 2, 1},
                Iota(16), {2, 2}, {1, 0, 0, 1}, {1, 3, 3, 1}, false);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 3, 3, 1});
  CHECK(r.As<float>() == std::vector<float>{9, 13, 10, 3, 7, 4, 11, 15, 12});
  auto t = Op<int16_t>(BuiltinOperator_BATCH_TO_SPACE_ND, tflite::TensorType_INT16, {2, 2, 2},
                       {1, 2, 5, 6, 3, 4, 7, 8}, {2}, {0, 1}, {1, 3, 2}, true, 0, 0, 4);
  REQUIRE(t.invoke == kTfLiteOk);
  CHECK(t.As<int16_t>() == std::vector<int16_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("SPACE_TO_BATCH_ND random shapes match the index reference and invert") {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int b = 1 + rng() % 2, c = 1 + rng() % 3, bh = 1 + rng() % 3, bw = 1 + rng() % 3;
    const int top = rng() % 3, left = rng() % 3;
    const int h = 1 + rng() % 5, w = 1 + rng() % 5;
    const int bottom = (bh - (h + top) % bh) % bh, right = (bw - (w + left) % bw) % bw;
    const int oh = (h + top + bottom) / bh, ow = (w + left + right) / bw;
    std::vector<int32_t> in(b * h * w * c);
    for (auto& v : in) v = 1 + static_cast<int32_t>(rng() % 100000);
    const std::vector<int32_t> pads{top, bottom, left, right};
    const auto r =
        Op<int32_t>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_INT32, {b, h, w, c}, in,
                    {bh, bw}, pads, {b * bh * bw, oh, ow, c}, seed % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<int32_t>();
    for (int ob = 0; ob < b * bh * bw; ++ob)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x)
          for (int k = 0; k < c; ++k) {
            const int blk = ob / b, ib = ob % b;
            const int iy = y * bh + blk / bw - top, ix = x * bw + blk % bw - left;
            const bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
            const int32_t want = inside ? in[((ib * h + iy) * w + ix) * c + k] : 0;
            REQUIRE(out[((ob * oh + y) * ow + x) * c + k] == want);
          }
    const auto back =
        Op<int32_t>(BuiltinOperator_BATCH_TO_SPACE_ND, tflite::TensorType_INT32,
                    {b * bh * bw, oh, ow, c}, out, {bh, bw}, pads, {b, h, w, c}, seed % 3 != 0);
    REQUIRE(back.invoke == kTfLiteOk);
    CHECK(back.As<int32_t>() == in);
  }
}

TEST_CASE("SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND reject bad models") {
  auto r = Op<float>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_FLOAT32, {1, 3, 3, 1},
                     Iota(9), {2, 2}, {0, 0, 0, 0}, {4, 1, 1, 1});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("not multiples of the block") != std::string::npos);
  r = Op<float>(BuiltinOperator_BATCH_TO_SPACE_ND, tflite::TensorType_FLOAT32, {3, 1, 1, 1},
                Iota(3), {2, 1}, {0, 0, 0, 0}, {1, 2, 1, 1}, false);
  CHECK(r.invoke == kTfLiteError);
  CHECK(r.errors.find("not a multiple of the block area") != std::string::npos);
  r = Op<float>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_FLOAT32, {1, 2, 2, 1},
                Iota(4), {0, 1}, {0, 0, 0, 0}, {1, 2, 2, 1});
  CHECK(r.prepare == kTfLiteError);
  r = Op<float>(BuiltinOperator_SPACE_TO_BATCH_ND, tflite::TensorType_FLOAT32, {4, 1}, Iota(4), {1},
                {0, 0}, {4, 1});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("must be 3-D or 4-D") != std::string::npos);
  r = Run(BuiltinOperator_BATCH_TO_SPACE_ND,
          {Input<uint8_t>(tflite::TensorType_BOOL, {1, 1, 1, 1}, {1}),
           Const<int32_t>(tflite::TensorType_INT32, {2}, {1, 1}),
           Const<int32_t>(tflite::TensorType_INT32, {2, 2}, {0, 0, 0, 0})},
          {tflite::TensorType_BOOL, {1, 1, 1, 1}});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type BOOL (6) not supported.") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
