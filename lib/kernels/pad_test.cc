// PAD and PADV2: goldens, random ranks 1-5 against an index reference (float,
// int8 with the zero point, int32/int64 paddings, run-time paddings), PADV2's
// constant value, and errors.
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;
using tflite::TensorType_INT8;

TEST_CASE("PAD float golden") {
  const auto r = Run(tflite::BuiltinOperator_PAD,
                     {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                      Const<int32_t>(TensorType_INT32, {2, 2}, {1, 0, 0, 2})},
                     {TensorType_FLOAT32, {3, 4}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{3, 4});
  CHECK(r.As<float>() == std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0});
}

TEST_CASE("PAD int8 pads with the zero point, PADV2 with its constant") {
  auto r = Run(tflite::BuiltinOperator_PAD,
               {Input<int8_t>(TensorType_INT8, {1, 2}, {5, 6}, 0.5f, -3),
                Const<int32_t>(TensorType_INT32, {2, 2}, {0, 0, 1, 1})},
               {TensorType_INT8, {1, 4}, 0.5f, -3});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-3, 5, 6, -3});
  r = Run(tflite::BuiltinOperator_PADV2,
          {Input<int8_t>(TensorType_INT8, {1, 2}, {5, 6}, 0.5f, -3),
           Const<int32_t>(TensorType_INT32, {2, 2}, {0, 0, 1, 1}),
           Const<int8_t>(TensorType_INT8, {}, {42}, 0.5f, -3)},
          {TensorType_INT8, {1, 4}, 0.5f, -3});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{42, 5, 6, 42});
  r = Run(tflite::BuiltinOperator_PADV2,
          {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
           Const<int64_t>(TensorType_INT64, {1, 2}, {2, 1}),
           Input<float>(TensorType_FLOAT32, {1}, {-7.5f})},
          {TensorType_FLOAT32, {5}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{-7.5f, -7.5f, 1, 2, -7.5f});
}

template <typename T>
void RandomPad(tflite::TensorType type, float scale, int zp, bool runtime_paddings, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 15; ++iter) {
    const int rank = 1 + static_cast<int>(rng() % 5);
    std::vector<int32_t> in_shape(rank), out_shape(rank), pads(2 * rank);
    for (int d = 0; d < rank; ++d) {
      in_shape[d] = static_cast<int>(rng() % 4);  // 0 allowed
      pads[2 * d] = static_cast<int>(rng() % 3);
      pads[2 * d + 1] = static_cast<int>(rng() % 3);
      out_shape[d] = in_shape[d] + pads[2 * d] + pads[2 * d + 1];
    }
    std::vector<T> in(Count(in_shape));
    for (auto& x : in) x = static_cast<T>(static_cast<int>(rng() % 100) - 50);
    CAPTURE(seed, iter, rank);
    const In paddings = runtime_paddings ? Input(TensorType_INT32, {rank, 2}, pads)
                                         : Const(TensorType_INT32, {rank, 2}, pads);
    const auto r =
        Run(tflite::BuiltinOperator_PAD, {Input(type, in_shape, in, scale, zp), paddings},
            {type, out_shape, scale, zp});
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(out_shape.begin(), out_shape.end()));
    const auto out = r.template As<T>();
    const auto st = Strides(in_shape);
    for (int64_t k = 0; k < Count(out_shape); ++k) {
      const auto c = Unravel(k, out_shape);
      bool inside = true;
      int64_t off = 0;
      for (int d = 0; d < rank; ++d) {
        const int p = c[d] - pads[2 * d];
        if (p < 0 || p >= in_shape[d]) inside = false;
        off += p * st[d];
      }
      REQUIRE(out[k] == (inside ? in[off] : static_cast<T>(zp)));
    }
  }
}

TEST_CASE("PAD random ranks 1-5") {
  RandomPad<float>(TensorType_FLOAT32, 0, 0, false, 21);
  RandomPad<float>(TensorType_FLOAT32, 0, 0, true, 22);
  RandomPad<int8_t>(TensorType_INT8, 0.25f, 7, false, 23);
  RandomPad<uint8_t>(tflite::TensorType_UINT8, 0.25f, 130, true, 24);
  RandomPad<int32_t>(TensorType_INT32, 0, 0, false, 25);
  RandomPad<int16_t>(tflite::TensorType_INT16, 0.5f, 0, false, 26);
}

TEST_CASE("PAD errors") {
  SECTION("negative padding") {
    const auto r = Run(tflite::BuiltinOperator_PAD,
                       {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
                        Const<int32_t>(TensorType_INT32, {1, 2}, {-1, 0})},
                       {TensorType_FLOAT32, {1}});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("PAD"));
  }
  SECTION("paddings of the wrong shape") {
    const auto r = Run(tflite::BuiltinOperator_PAD,
                       {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
                        Const<int32_t>(TensorType_INT32, {2, 2}, {0, 0, 0, 0})},
                       {TensorType_FLOAT32, {2}});
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("rank 6") {
    const auto r = Run(tflite::BuiltinOperator_PAD,
                       {Input<float>(TensorType_FLOAT32, {1, 1, 1, 1, 1, 1}, {1}),
                        Const<int32_t>(TensorType_INT32, {6, 2}, std::vector<int32_t>(12, 0))},
                       {TensorType_FLOAT32, {1, 1, 1, 1, 1, 1}});
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("PADV2 constant with another type, non-scalar constant") {
    auto r = Run(tflite::BuiltinOperator_PADV2,
                 {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
                  Const<int32_t>(TensorType_INT32, {1, 2}, {0, 1}),
                  Const<int32_t>(TensorType_INT32, {}, {1})},
                 {TensorType_FLOAT32, {3}});
    CHECK(r.prepare == kTfLiteError);
    r = Run(tflite::BuiltinOperator_PADV2,
            {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
             Const<int32_t>(TensorType_INT32, {1, 2}, {0, 1}),
             Const<float>(TensorType_FLOAT32, {2}, {1, 2})},
            {TensorType_FLOAT32, {3}});
    CHECK(r.invoke == kTfLiteError);
  }
  SECTION("unsupported type") {
    const auto r = Run(tflite::BuiltinOperator_PAD,
                       {Input<uint8_t>(tflite::TensorType_BOOL, {2}, {1, 0}),
                        Const<int32_t>(TensorType_INT32, {1, 2}, {0, 1})},
                       {tflite::TensorType_BOOL, {3}});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
