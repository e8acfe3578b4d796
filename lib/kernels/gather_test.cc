#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT16;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;

OpOptions GatherOpts(int axis, int batch_dims = 0) {
  tflite::GatherOptionsT o;
  o.axis = axis;
  o.batch_dims = batch_dims;
  return Options(o);
}

TEST_CASE("GATHER goldens") {
  auto r = Run(tflite::BuiltinOperator_GATHER,
               {Input<float>(TensorType_FLOAT32, {3, 2}, {1, 2, 3, 4, 5, 6}),
                Const<int32_t>(TensorType_INT32, {2, 2}, {2, 0, 1, 1})},
               {Output(TensorType_FLOAT32, {2, 2, 2})}, GatherOpts(0));
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 2, 2});
  CHECK(r.As<float>() == std::vector<float>{5, 6, 1, 2, 3, 4, 3, 4});
  // axis -1 with int64 positions.
  r = Run(tflite::BuiltinOperator_GATHER,
          {Input<float>(TensorType_FLOAT32, {2, 3}, {1, 2, 3, 4, 5, 6}),
           Input<int64_t>(TensorType_INT64, {1}, {2})},
          {Output(TensorType_FLOAT32, {2, 1})}, GatherOpts(-1));
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{3, 6});
  // batch_dims = 1 (v5) with int16 positions (v6): row b takes its own indices.
  r = Run(tflite::BuiltinOperator_GATHER,
          {Input<int32_t>(TensorType_INT32, {2, 3}, {1, 2, 3, 4, 5, 6}),
           Input<int16_t>(TensorType_INT16, {2, 2}, {2, 0, 1, 1})},
          {Output(TensorType_INT32, {2, 2})}, GatherOpts(1, 1), 6);
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{3, 1, 5, 5});
  // Scalar position drops the axis.
  r = Run(tflite::BuiltinOperator_GATHER,
          {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
           Const<int32_t>(TensorType_INT32, {}, {1})},
          {Output(TensorType_FLOAT32, {2})}, GatherOpts(0));
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2});
  CHECK(r.As<float>() == std::vector<float>{3, 4});
}

TEST_CASE("GATHER errors: out-of-range index fails Eval, bad axis fails Prepare") {
  for (int32_t bad : {3, -1}) {
    CAPTURE(bad);
    auto r = Run(tflite::BuiltinOperator_GATHER,
                 {Input<float>(TensorType_FLOAT32, {3}, {1, 2, 3}),
                  Input<int32_t>(TensorType_INT32, {1}, {bad})},
                 {Output(TensorType_FLOAT32, {1})}, GatherOpts(0));
    CHECK(r.prepare == kTfLiteOk);
    CHECK(r.invoke == kTfLiteError);
    CHECK(r.errors.find("out of bounds") != std::string::npos);
  }
  auto r = Run(tflite::BuiltinOperator_GATHER,
               {Input<float>(TensorType_FLOAT32, {3}, {1, 2, 3}),
                Input<int32_t>(TensorType_INT32, {1}, {0})},
               {Output(TensorType_FLOAT32, {1})}, GatherOpts(1));
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_GATHER,
          {Input<float>(TensorType_FLOAT32, {3}, {1, 2, 3}),
           Input<float>(TensorType_FLOAT32, {1}, {0})},
          {Output(TensorType_FLOAT32, {1})}, GatherOpts(0));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type FLOAT32 (1) not supported.") != std::string::npos);
}

TEST_CASE("GATHER random matches a direct index computation") {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = 1 + static_cast<int>(rng() % 3);
    const int axis = static_cast<int>(rng() % rank);
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 4);
    int64_t count = 1;
    for (int d : shape) count *= d;
    std::vector<float> v(count);
    for (auto& x : v) x = static_cast<float>(rng() % 1000);
    const int npos = 1 + static_cast<int>(rng() % 5);
    std::vector<int32_t> pos(npos);
    for (auto& p : pos) p = static_cast<int32_t>(rng() % shape[axis]);
    std::vector<int32_t> out_shape = shape;
    out_shape[axis] = npos;
    auto r = Run(tflite::BuiltinOperator_GATHER,
                 {Input(TensorType_FLOAT32, shape, v), Input(TensorType_INT32, {npos}, pos)},
                 {Output(TensorType_FLOAT32, out_shape)}, GatherOpts(axis));
    REQUIRE(r.ok());
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    for (int d = axis + 1; d < rank; ++d) inner *= shape[d];
    const auto got = r.As<float>();
    for (int64_t o = 0; o < outer; ++o)
      for (int i = 0; i < npos; ++i)
        for (int64_t k = 0; k < inner; ++k)
          REQUIRE(got[(o * npos + i) * inner + k] == v[(o * shape[axis] + pos[i]) * inner + k]);
  }
}

}  // namespace
}  // namespace tflite_inspect
