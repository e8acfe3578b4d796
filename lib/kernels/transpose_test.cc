// TRANSPOSE: golden, random ranks 1-6 and permutations against an index reference
// for 1/2/4/8-byte types, run-time perm, and errors.
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;

TEST_CASE("TRANSPOSE 2-D golden") {
  const auto r = Run(tflite::BuiltinOperator_TRANSPOSE,
                     {Input<float>(TensorType_FLOAT32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                      Const<int32_t>(TensorType_INT32, {2}, {1, 0})},
                     {TensorType_FLOAT32, {3, 2}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{3, 2});
  CHECK(r.As<float>() == std::vector<float>{1, 4, 2, 5, 3, 6});
}

template <typename T>
void RandomTranspose(tflite::TensorType type, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 25; ++iter) {
    const int rank = 1 + static_cast<int>(rng() % 6);
    std::vector<int32_t> shape(rank), perm(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 4);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int32_t> out_shape(rank);
    for (int i = 0; i < rank; ++i) out_shape[i] = shape[perm[i]];
    std::vector<T> in(Count(shape));
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<T>(i * 7 + 3);
    const bool runtime_perm = rng() % 2;
    CAPTURE(seed, iter, shape, perm, runtime_perm);
    const auto r =
        Run(tflite::BuiltinOperator_TRANSPOSE,
            {Input(type, shape, in), runtime_perm ? Input(TensorType_INT32, {rank}, perm)
                                                  : Const(TensorType_INT32, {rank}, perm)},
            {type, out_shape});
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(out_shape.begin(), out_shape.end()));
    const auto out = r.template As<T>();
    const auto st = Strides(shape);
    for (int64_t k = 0; k < Count(out_shape); ++k) {
      const auto c = Unravel(k, out_shape);
      int64_t off = 0;
      for (int i = 0; i < rank; ++i) off += c[i] * st[perm[i]];
      REQUIRE(out[k] == in[off]);
    }
  }
}

TEST_CASE("TRANSPOSE random ranks 1-6") {
  RandomTranspose<float>(TensorType_FLOAT32, 51);
  RandomTranspose<int8_t>(tflite::TensorType_INT8, 52);
  RandomTranspose<int16_t>(tflite::TensorType_INT16, 53);
  RandomTranspose<int64_t>(tflite::TensorType_INT64, 54);
}

TEST_CASE("TRANSPOSE errors") {
  SECTION("repeated axis") {
    const auto r = Run(tflite::BuiltinOperator_TRANSPOSE,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Const<int32_t>(TensorType_INT32, {2}, {0, 0})},
                       {TensorType_FLOAT32, {2, 2}});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("TRANSPOSE"));
  }
  SECTION("perm of the wrong length") {
    const auto r = Run(tflite::BuiltinOperator_TRANSPOSE,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Const<int32_t>(TensorType_INT32, {3}, {0, 1, 2})},
                       {TensorType_FLOAT32, {2, 2}});
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("run-time perm out of range fails Invoke") {
    const auto r = Run(tflite::BuiltinOperator_TRANSPOSE,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Input<int32_t>(TensorType_INT32, {2}, {0, 5})},
                       {TensorType_FLOAT32, {2, 2}});
    REQUIRE(r.prepare == kTfLiteOk);
    CHECK(r.invoke == kTfLiteError);
  }
  SECTION("rank 7") {
    const auto r = Run(tflite::BuiltinOperator_TRANSPOSE,
                       {Input<float>(TensorType_FLOAT32, {1, 1, 1, 1, 1, 1, 1}, {1}),
                        Const<int32_t>(TensorType_INT32, {7}, {0, 1, 2, 3, 4, 5, 6})},
                       {TensorType_FLOAT32, {1, 1, 1, 1, 1, 1, 1}});
    CHECK(r.prepare == kTfLiteError);
  }
}

}  // namespace
}  // namespace tflite_inspect
