#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT8;

OpOptions PackOpts(int n, int axis) {
  tflite::PackOptionsT o;
  o.values_count = n;
  o.axis = axis;
  return Options(o);
}
OpOptions UnpackOpts(int n, int axis) {
  tflite::UnpackOptionsT o;
  o.num = n;
  o.axis = axis;
  return Options(o);
}

TEST_CASE("PACK goldens") {
  const T a = Input<float>(TensorType_FLOAT32, {2}, {1, 2});
  const T b = Input<float>(TensorType_FLOAT32, {2}, {3, 4});
  const T c = Const<float>(TensorType_FLOAT32, {2}, {5, 6});
  auto r = Run(tflite::BuiltinOperator_PACK, {a, b, c}, {Output(TensorType_FLOAT32, {3, 2})},
               PackOpts(3, 0));
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{1, 2, 3, 4, 5, 6});
  r = Run(tflite::BuiltinOperator_PACK, {a, b, c}, {Output(TensorType_FLOAT32, {2, 3})},
          PackOpts(3, -1));
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 3});
  CHECK(r.As<float>() == std::vector<float>{1, 3, 5, 2, 4, 6});
  // int8 with matching quantization (v2).
  r = Run(tflite::BuiltinOperator_PACK,
          {Input<int8_t>(TensorType_INT8, {1}, {-1}, 0.5f, 3),
           Input<int8_t>(TensorType_INT8, {1}, {7}, 0.5f, 3)},
          {Output(TensorType_INT8, {1, 2}, 0.5f, 3)}, PackOpts(2, 1), 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-1, 7});
}

TEST_CASE("PACK errors") {
  auto r = Run(tflite::BuiltinOperator_PACK,
               {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
                Input<float>(TensorType_FLOAT32, {3}, {3, 4, 5})},
               {Output(TensorType_FLOAT32, {2, 2})}, PackOpts(2, 0));
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_PACK,
          {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
           Input<float>(TensorType_FLOAT32, {2}, {3, 4})},
          {Output(TensorType_FLOAT32, {2, 2})}, PackOpts(2, 2));
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_PACK,
          {Input<int8_t>(TensorType_INT8, {1}, {1}, 0.5f, 0),
           Input<int8_t>(TensorType_INT8, {1}, {2}, 0.25f, 0)},
          {Output(TensorType_INT8, {2, 1}, 0.5f, 0)}, PackOpts(2, 0), 2);
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("UNPACK goldens and errors") {
  auto r = Run(tflite::BuiltinOperator_UNPACK,
               {Input<int32_t>(TensorType_INT32, {3, 2}, {1, 2, 3, 4, 5, 6})},
               {Output(TensorType_INT32, {3}), Output(TensorType_INT32, {3})}, UnpackOpts(2, 1));
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>(0) == std::vector<int32_t>{1, 3, 5});
  CHECK(r.As<int32_t>(1) == std::vector<int32_t>{2, 4, 6});
  CHECK(r.shape(0) == std::vector<int>{3});
  r = Run(tflite::BuiltinOperator_UNPACK, {T{tflite::TensorType_BOOL, {2}, Bools({1, 0}), false}},
          {Output(tflite::TensorType_BOOL, {}), Output(tflite::TensorType_BOOL, {})},
          UnpackOpts(2, 0), 3);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>(0) == std::vector<uint8_t>{1});
  CHECK(r.As<uint8_t>(1) == std::vector<uint8_t>{0});
  r = Run(tflite::BuiltinOperator_UNPACK,
          {Input<int32_t>(TensorType_INT32, {3, 2}, {1, 2, 3, 4, 5, 6})},
          {Output(TensorType_INT32, {3}), Output(TensorType_INT32, {3})}, UnpackOpts(2, 0));
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("PACK then UNPACK random round trip") {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = static_cast<int>(rng() % 4);
    const int n = 1 + static_cast<int>(rng() % 4);
    const int axis = static_cast<int>(rng() % (rank + 1));
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 3);
    int64_t count = 1;
    for (int d : shape) count *= d;
    std::vector<T> ins;
    std::vector<std::vector<float>> values(n);
    for (int i = 0; i < n; ++i) {
      values[i].resize(count);
      for (auto& x : values[i]) x = static_cast<float>(rng() % 1000);
      ins.push_back(Input(TensorType_FLOAT32, shape, values[i]));
    }
    std::vector<int32_t> packed = shape;
    packed.insert(packed.begin() + axis, n);
    auto r = Run(tflite::BuiltinOperator_PACK, ins, {Output(TensorType_FLOAT32, packed)},
                 PackOpts(n, axis));
    REQUIRE(r.ok());
    // Independent check: element (outer, i, inner) of the output is values[i][outer, inner].
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    const int64_t inner = count / outer;
    const auto got = r.As<float>();
    for (int64_t o = 0; o < outer; ++o)
      for (int i = 0; i < n; ++i)
        for (int64_t k = 0; k < inner; ++k)
          REQUIRE(got[(o * n + i) * inner + k] == values[i][o * inner + k]);
    std::vector<T> outs(n, Output(TensorType_FLOAT32, shape));
    auto u = Run(tflite::BuiltinOperator_UNPACK, {Input(TensorType_FLOAT32, packed, got)}, outs,
                 UnpackOpts(n, axis));
    REQUIRE(u.ok());
    for (int i = 0; i < n; ++i) CHECK(u.As<float>(i) == values[i]);
  }
}

}  // namespace
}  // namespace tflite_inspect
