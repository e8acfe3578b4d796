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
using tflite::TensorType_INT64;
using tflite::TensorType_INT8;

OpOptions SplitOpts(int n) {
  tflite::SplitOptionsT o;
  o.num_splits = n;
  return Options(o);
}
OpOptions SplitVOpts(int n) {
  tflite::SplitVOptionsT o;
  o.num_splits = n;
  return Options(o);
}

TEST_CASE("SPLIT goldens with constant and run-time axis") {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8};
  for (bool const_axis : {true, false}) {
    CAPTURE(const_axis);
    const T axis = const_axis ? Const<int32_t>(TensorType_INT32, {}, {1})
                              : Input<int32_t>(TensorType_INT32, {}, {1});
    auto r =
        Run(tflite::BuiltinOperator_SPLIT, {axis, Input(TensorType_FLOAT32, {2, 4}, v)},
            {Output(TensorType_FLOAT32, {2, 2}), Output(TensorType_FLOAT32, {2, 2})}, SplitOpts(2));
    REQUIRE(r.ok());
    CHECK(r.As<float>(0) == std::vector<float>{1, 2, 5, 6});
    CHECK(r.As<float>(1) == std::vector<float>{3, 4, 7, 8});
    CHECK(r.shape(1) == std::vector<int>{2, 2});
  }
  // Negative axis, int8 (v2).
  auto r = Run(tflite::BuiltinOperator_SPLIT,
               {Const<int32_t>(TensorType_INT32, {1}, {-2}),
                Input<int8_t>(TensorType_INT8, {2, 2}, {1, 2, 3, 4})},
               {Output(TensorType_INT8, {1, 2}), Output(TensorType_INT8, {1, 2})}, SplitOpts(2), 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>(0) == std::vector<int8_t>{1, 2});
  CHECK(r.As<int8_t>(1) == std::vector<int8_t>{3, 4});
}

TEST_CASE("SPLIT errors") {
  auto r =
      Run(tflite::BuiltinOperator_SPLIT,
          {Const<int32_t>(TensorType_INT32, {}, {1}),
           Input<float>(TensorType_FLOAT32, {2, 3}, {1, 2, 3, 4, 5, 6})},
          {Output(TensorType_FLOAT32, {2, 1}), Output(TensorType_FLOAT32, {2, 1})}, SplitOpts(2));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Not an even split") != std::string::npos);
  r = Run(tflite::BuiltinOperator_SPLIT,
          {Const<int32_t>(TensorType_INT32, {}, {2}),
           Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4})},
          {Output(TensorType_FLOAT32, {2, 1}), Output(TensorType_FLOAT32, {2, 1})}, SplitOpts(2));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("out of range") != std::string::npos);
  r = Run(
      tflite::BuiltinOperator_SPLIT,
      {Const<int32_t>(TensorType_INT32, {}, {0}), Input<int64_t>(TensorType_INT64, {2}, {1, 2})},
      {Output(TensorType_INT64, {1}), Output(TensorType_INT64, {1})}, SplitOpts(2));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT64 (4) not supported.") != std::string::npos);
}

TEST_CASE("SPLIT_V goldens, -1 entry, run-time sizes") {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (bool const_sizes : {true, false}) {
    CAPTURE(const_sizes);
    const T sizes = const_sizes ? Const<int32_t>(TensorType_INT32, {3}, {1, -1, 2})
                                : Input<int32_t>(TensorType_INT32, {3}, {1, -1, 2});
    auto r = Run(
        tflite::BuiltinOperator_SPLIT_V,
        {Input(TensorType_FLOAT32, {2, 5}, v), sizes, Const<int32_t>(TensorType_INT32, {}, {1})},
        {Output(TensorType_FLOAT32, {2, 1}), Output(TensorType_FLOAT32, {2, 2}),
         Output(TensorType_FLOAT32, {2, 2})},
        SplitVOpts(3));
    REQUIRE(r.ok());
    CHECK(r.As<float>(0) == std::vector<float>{1, 6});
    CHECK(r.As<float>(1) == std::vector<float>{2, 3, 7, 8});
    CHECK(r.As<float>(2) == std::vector<float>{4, 5, 9, 10});
    CHECK(r.shape(1) == std::vector<int>{2, 2});
  }
  auto r = Run(
      tflite::BuiltinOperator_SPLIT_V,
      {Input<int64_t>(TensorType_INT64, {3}, {7, 8, 9}),
       Const<int64_t>(TensorType_INT64, {2}, {2, 1}), Const<int32_t>(TensorType_INT32, {}, {0})},
      {Output(TensorType_INT64, {2}), Output(TensorType_INT64, {1})}, SplitVOpts(2));
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>(0) == std::vector<int64_t>{7, 8});
  CHECK(r.As<int64_t>(1) == std::vector<int64_t>{9});
}

TEST_CASE("SPLIT_V errors") {
  auto r = Run(
      tflite::BuiltinOperator_SPLIT_V,
      {Input<float>(TensorType_FLOAT32, {3}, {1, 2, 3}),
       Const<int32_t>(TensorType_INT32, {2}, {1, 1}), Const<int32_t>(TensorType_INT32, {}, {0})},
      {Output(TensorType_FLOAT32, {1}), Output(TensorType_FLOAT32, {1})}, SplitVOpts(2));
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("sum of size_splits") != std::string::npos);
  // Run-time sizes are checked in Eval.
  r = Run(
      tflite::BuiltinOperator_SPLIT_V,
      {Input<float>(TensorType_FLOAT32, {3}, {1, 2, 3}),
       Input<int32_t>(TensorType_INT32, {2}, {-1, -1}), Const<int32_t>(TensorType_INT32, {}, {0})},
      {Output(TensorType_FLOAT32, {1}), Output(TensorType_FLOAT32, {1})}, SplitVOpts(2));
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke == kTfLiteError);
  CHECK(r.errors.find("more than one -1") != std::string::npos);
}

TEST_CASE("SPLIT / SPLIT_V random: concatenating the pieces gives the input back") {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = 1 + static_cast<int>(rng() % 4);
    const int axis = static_cast<int>(rng() % rank);
    const int n = 1 + static_cast<int>(rng() % 3);
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 3);
    shape[axis] = n * (1 + static_cast<int>(rng() % 2));
    int64_t count = 1;
    for (int d : shape) count *= d;
    std::vector<int32_t> v(count);
    for (auto& x : v) x = static_cast<int32_t>(rng());
    std::vector<int32_t> piece = shape;
    piece[axis] /= n;
    std::vector<T> outs(n, Output(TensorType_INT32, piece));
    auto r = Run(tflite::BuiltinOperator_SPLIT,
                 {Const<int32_t>(TensorType_INT32, {}, {axis}), Input(TensorType_INT32, shape, v)},
                 outs, SplitOpts(n), 3);
    REQUIRE(r.ok());
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    for (int d = axis + 1; d < rank; ++d) inner *= shape[d];
    const int64_t chunk = piece[axis] * inner;
    for (int64_t o = 0; o < outer; ++o) {
      for (int i = 0; i < n; ++i) {
        const auto got = r.As<int32_t>(i);
        for (int64_t k = 0; k < chunk; ++k) {
          REQUIRE(got[o * chunk + k] == v[(o * n + i) * chunk + k]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
