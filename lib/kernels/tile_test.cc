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

TEST_CASE("TILE goldens, run-time multiples, errors") {
  for (bool const_mult : {true, false}) {
    CAPTURE(const_mult);
    const T m = const_mult ? Const<int32_t>(TensorType_INT32, {2}, {2, 3})
                           : Input<int32_t>(TensorType_INT32, {2}, {2, 3});
    auto r = Run(tflite::BuiltinOperator_TILE,
                 {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}), m},
                 {Output(TensorType_FLOAT32, {4, 6})});
    REQUIRE(r.ok());
    CHECK(r.shape() == std::vector<int>{4, 6});
    CHECK(r.As<float>() == std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
                                              1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
  }
  auto r = Run(tflite::BuiltinOperator_TILE,
               {Input<int8_t>(tflite::TensorType_INT8, {1, 3}, {1, 2, 3}),
                Const<int64_t>(TensorType_INT64, {2}, {2, 1})},
               {Output(tflite::TensorType_INT8, {2, 3})}, {}, 3);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{1, 2, 3, 1, 2, 3});
  r = Run(tflite::BuiltinOperator_TILE,
          {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
           Const<int32_t>(TensorType_INT32, {2}, {1, 1})},
          {Output(TensorType_FLOAT32, {2})});
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("TILE random matches modular indexing") {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = 1 + static_cast<int>(rng() % 3);
    std::vector<int32_t> shape(rank), mult(rank), out_shape(rank);
    for (int d = 0; d < rank; ++d) {
      shape[d] = 1 + static_cast<int>(rng() % 3);
      mult[d] = 1 + static_cast<int>(rng() % 3);
      out_shape[d] = shape[d] * mult[d];
    }
    int64_t count = 1, out_count = 1;
    for (int d = 0; d < rank; ++d) {
      count *= shape[d];
      out_count *= out_shape[d];
    }
    std::vector<int32_t> v(count);
    for (auto& x : v) x = static_cast<int32_t>(rng());
    auto r = Run(tflite::BuiltinOperator_TILE,
                 {Input(TensorType_INT32, shape, v), Const(TensorType_INT32, {rank}, mult)},
                 {Output(TensorType_INT32, out_shape)});
    REQUIRE(r.ok());
    const auto got = r.As<int32_t>();
    for (int64_t i = 0; i < out_count; ++i) {
      int64_t rem = i, src = 0, stride = 1;
      for (int d = rank - 1; d >= 0; --d) {
        const int64_t coord = rem % out_shape[d];
        rem /= out_shape[d];
        src += (coord % shape[d]) * stride;
        stride *= shape[d];
      }
      REQUIRE(got[i] == v[src]);
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
