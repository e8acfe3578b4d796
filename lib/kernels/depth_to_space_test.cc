#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

// One DEPTH_TO_SPACE or SPACE_TO_DEPTH node on an input tensor.
template <typename T>
std::vector<T> Run(tflite::BuiltinOperator op, tflite::TensorType type,
                   const std::vector<int32_t>& in_shape, const std::vector<int32_t>& out_shape,
                   int block, const std::vector<T>& values, int version = 1) {
  ModelBuilder b;
  const int in = b.AddTensor(type, in_shape, "in");
  const int out = b.AddTensor(type, out_shape, "out");
  OpOptions options;
  if (op == tflite::BuiltinOperator_DEPTH_TO_SPACE) {
    tflite::DepthToSpaceOptionsT o;
    o.block_size = block;
    options = Options(o);
  } else {
    tflite::SpaceToDepthOptionsT o;
    o.block_size = block;
    options = Options(o);
  }
  b.AddOperator(op, {in}, {out}, std::move(options), version);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<T>(0, values);
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>(out_shape.begin(), out_shape.end()));
  return m.Output<T>(0);
}

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i + 1);
  return v;
}

TEST_CASE("DEPTH_TO_SPACE goldens") {
  CHECK(Run<float>(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_FLOAT32, {1, 1, 1, 4},
                   {1, 2, 2, 1}, 2,
                   {1.4f, 2.3f, 3.2f, 4.1f}) == std::vector<float>{1.4f, 2.3f, 3.2f, 4.1f});
  CHECK(Run<float>(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_FLOAT32, {1, 2, 2, 4},
                   {1, 4, 4, 1}, 2, Iota(16)) ==
        std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16});
  CHECK(Run<int8_t>(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_INT8, {1, 1, 1, 8},
                    {1, 2, 2, 2}, 2, {1, 2, 3, 4, 5, 6, 7, 8},
                    2) == std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(Run<int64_t>(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_INT64, {1, 1, 2, 4},
                     {1, 2, 4, 1}, 2,
                     {1, 2, 3, 4, 5, 6, 7, 8}) == std::vector<int64_t>{1, 2, 5, 6, 3, 4, 7, 8});
}

TEST_CASE("SPACE_TO_DEPTH goldens") {
  CHECK(Run<float>(tflite::BuiltinOperator_SPACE_TO_DEPTH, tflite::TensorType_FLOAT32, {1, 2, 2, 1},
                   {1, 1, 1, 4}, 2,
                   {1.4f, 2.3f, 3.2f, 4.1f}) == std::vector<float>{1.4f, 2.3f, 3.2f, 4.1f});
  CHECK(Run<uint8_t>(tflite::BuiltinOperator_SPACE_TO_DEPTH, tflite::TensorType_UINT8, {1, 4, 4, 1},
                     {1, 2, 2, 4}, 2, {1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16}) ==
        std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
}

TEST_CASE("DEPTH_TO_SPACE random shapes match the index formula and SPACE_TO_DEPTH inverts") {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int bs = 1 + static_cast<int>(rng() % 3);
    const int n = 1 + static_cast<int>(rng() % 2), h = 1 + static_cast<int>(rng() % 3);
    const int w = 1 + static_cast<int>(rng() % 3), d = 1 + static_cast<int>(rng() % 3);
    const int c = d * bs * bs;
    std::vector<int32_t> in(n * h * w * c);
    for (auto& v : in) v = static_cast<int32_t>(rng());
    const auto out = Run<int32_t>(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_INT32,
                                  {n, h, w, c}, {n, h * bs, w * bs, d}, bs, in);
    for (int b = 0; b < n; ++b)
      for (int y = 0; y < h * bs; ++y)
        for (int x = 0; x < w * bs; ++x)
          for (int k = 0; k < d; ++k) {
            const int src = ((b * h + y / bs) * w + x / bs) * c + ((y % bs) * bs + x % bs) * d + k;
            const int dst = ((b * h * bs + y) * w * bs + x) * d + k;
            REQUIRE(out[dst] == in[src]);
          }
    CHECK(Run<int32_t>(tflite::BuiltinOperator_SPACE_TO_DEPTH, tflite::TensorType_INT32,
                       {n, h * bs, w * bs, d}, {n, h, w, c}, bs, out) == in);
  }
}

TEST_CASE("DEPTH_TO_SPACE / SPACE_TO_DEPTH reject bad models") {
  auto prepare = [](tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> shape,
                    int block) {
    ModelBuilder b;
    const int in = b.AddTensor(type, shape, "in");
    const int out = b.AddTensor(type, shape, "out");
    OpOptions options;
    if (op == tflite::BuiltinOperator_DEPTH_TO_SPACE) {
      tflite::DepthToSpaceOptionsT o;
      o.block_size = block;
      options = Options(o);
    } else {
      tflite::SpaceToDepthOptionsT o;
      o.block_size = block;
      options = Options(o);
    }
    b.AddOperator(op, {in}, {out}, std::move(options));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    const TfLiteStatus s = m.Prepare();
    return std::make_pair(s, m.errors());
  };
  auto r =
      prepare(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_FLOAT32, {1, 2, 2, 3}, 2);
  CHECK(r.first == kTfLiteError);
  CHECK(r.second.find("block_size^2") != std::string::npos);
  r = prepare(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_FLOAT32, {2, 4}, 2);
  CHECK(r.first == kTfLiteError);
  r = prepare(tflite::BuiltinOperator_DEPTH_TO_SPACE, tflite::TensorType_FLOAT32, {1, 1, 1, 4}, 0);
  CHECK(r.first == kTfLiteError);
  r = prepare(tflite::BuiltinOperator_SPACE_TO_DEPTH, tflite::TensorType_FLOAT32, {1, 3, 2, 1}, 2);
  CHECK(r.first == kTfLiteError);
  r = prepare(tflite::BuiltinOperator_SPACE_TO_DEPTH, tflite::TensorType_INT16, {1, 2, 2, 1}, 2);
  CHECK(r.first == kTfLiteError);
  CHECK(r.second.find("Type INT16 (7) not supported.") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
