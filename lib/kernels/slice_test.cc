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

TEST_CASE("SLICE goldens, -1 size, run-time begin, errors") {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  for (bool const_begin : {true, false}) {
    CAPTURE(const_begin);
    const T begin = const_begin ? Const<int32_t>(TensorType_INT32, {2}, {1, 1})
                                : Input<int32_t>(TensorType_INT32, {2}, {1, 1});
    auto r = Run(tflite::BuiltinOperator_SLICE,
                 {Input(TensorType_FLOAT32, {3, 4}, v), begin,
                  Const<int32_t>(TensorType_INT32, {2}, {2, -1})},
                 {Output(TensorType_FLOAT32, {2, 3})});
    REQUIRE(r.ok());
    CHECK(r.shape() == std::vector<int>{2, 3});
    CHECK(r.As<float>() == std::vector<float>{6, 7, 8, 10, 11, 12});
  }
  auto r = Run(tflite::BuiltinOperator_SLICE,
               {Input(TensorType_FLOAT32, {3, 4}, v), Const<int64_t>(TensorType_INT64, {2}, {2, 0}),
                Const<int64_t>(TensorType_INT64, {2}, {2, 1})},
               {Output(TensorType_FLOAT32, {2, 1})});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("out of range") != std::string::npos);
  r = Run(tflite::BuiltinOperator_SLICE,
          {Input(TensorType_FLOAT32, {3, 4}, v), Input<int32_t>(TensorType_INT32, {2}, {0, -1}),
           Const<int32_t>(TensorType_INT32, {2}, {1, 1})},
          {Output(TensorType_FLOAT32, {1, 1})});
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke == kTfLiteError);
}

TEST_CASE("SLICE random matches direct indexing") {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int rank = 1 + static_cast<int>(rng() % 5);
    std::vector<int32_t> shape(rank), begin(rank), size(rank);
    int64_t count = 1, out_count = 1;
    for (int d = 0; d < rank; ++d) {
      shape[d] = 1 + static_cast<int>(rng() % 4);
      begin[d] = static_cast<int>(rng() % shape[d]);
      size[d] = 1 + static_cast<int>(rng() % (shape[d] - begin[d]));
      count *= shape[d];
      out_count *= size[d];
    }
    std::vector<int16_t> v(count);
    for (auto& x : v) x = static_cast<int16_t>(rng());
    auto r = Run(tflite::BuiltinOperator_SLICE,
                 {Input(tflite::TensorType_INT16, shape, v), Const(TensorType_INT32, {rank}, begin),
                  Const(TensorType_INT32, {rank}, size)},
                 {Output(tflite::TensorType_INT16, size)}, {}, 4);
    REQUIRE(r.ok());
    const auto got = r.As<int16_t>();
    for (int64_t i = 0; i < out_count; ++i) {
      int64_t rem = i, src = 0, stride = 1;
      for (int d = rank - 1; d >= 0; --d) {
        src += (begin[d] + rem % size[d]) * stride;
        rem /= size[d];
        stride *= shape[d];
      }
      REQUIRE(got[i] == v[src]);
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
