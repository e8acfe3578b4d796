// MAXIMUM / MINIMUM: goldens, random broadcasts (float and every integer
// type) against a direct evaluation, errors.
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

TEST_CASE("MAXIMUM / MINIMUM float golden with broadcast") {
  const std::vector<std::vector<float>> in = {{1.0f, -2.0f, 3.0f, -4.0f}, {0.0f, -3.0f}};
  const auto mx = RunOp<float>(tflite::BuiltinOperator_MAXIMUM,
                               {{TensorType_FLOAT32, {2, 2}}, {TensorType_FLOAT32, {2}}}, in,
                               {TensorType_FLOAT32, {2, 2}});
  REQUIRE(mx.invoke == kTfLiteOk);
  CHECK(mx.output == std::vector<float>{1.0f, -2.0f, 3.0f, -3.0f});
  const auto mn = RunOp<float>(tflite::BuiltinOperator_MINIMUM,
                               {{TensorType_FLOAT32, {2, 2}}, {TensorType_FLOAT32, {2}}}, in,
                               {TensorType_FLOAT32, {2, 2}});
  REQUIRE(mn.invoke == kTfLiteOk);
  CHECK(mn.output == std::vector<float>{0.0f, -3.0f, 0.0f, -4.0f});
}

template <typename T>
void CheckRandomTyped(tflite::TensorType type, uint32_t seed) {
  CAPTURE(seed, static_cast<int>(type));
  std::mt19937 rng(seed);
  for (int c = 0; c < 10; ++c) {
    const BroadcastCase bc = RandomBroadcastCase(rng);
    const T lo = std::is_floating_point_v<T> ? T(-100) : std::numeric_limits<T>::lowest();
    const T hi = std::is_floating_point_v<T> ? T(100) : std::numeric_limits<T>::max();
    auto a = RandomValues<T>(rng, NumElements(bc.a), lo, hi);
    auto b = RandomValues<T>(rng, NumElements(bc.b), lo, hi);
    for (bool is_max : {true, false}) {
      const auto r =
          RunOp<T>(is_max ? tflite::BuiltinOperator_MAXIMUM : tflite::BuiltinOperator_MINIMUM,
                   {{type, bc.a, 0.5f, 3}, {type, bc.b, 0.5f, 3}}, {a, b}, {type, bc.out, 0.5f, 3},
                   {}, type == tflite::TensorType_INT16 ? 4 : 1);
      REQUIRE(r.invoke == kTfLiteOk);
      for (int64_t i = 0; i < NumElements(bc.out); ++i) {
        const T x = a[BroadcastIndex(bc.a, bc.out, i)];
        const T y = b[BroadcastIndex(bc.b, bc.out, i)];
        REQUIRE(r.output[i] == (is_max ? std::max(x, y) : std::min(x, y)));
      }
    }
  }
}

TEST_CASE("MAXIMUM / MINIMUM random broadcasts, all types") {
  CheckRandomTyped<float>(TensorType_FLOAT32, 1);
  CheckRandomTyped<int8_t>(tflite::TensorType_INT8, 2);
  CheckRandomTyped<uint8_t>(tflite::TensorType_UINT8, 3);
  CheckRandomTyped<int16_t>(tflite::TensorType_INT16, 4);
  CheckRandomTyped<int32_t>(tflite::TensorType_INT32, 5);
  CheckRandomTyped<int64_t>(tflite::TensorType_INT64, 6);
}

TEST_CASE("MAXIMUM errors") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_MAXIMUM,
                              {{TensorType_FLOAT32, {3}}, {TensorType_FLOAT32, {2}}}, {},
                              {TensorType_FLOAT32, {3}});
  CHECK(r.prepare == kTfLiteError);
  const auto rb = RunOp<uint8_t>(tflite::BuiltinOperator_MINIMUM,
                                 {{tflite::TensorType_BOOL, {1}}, {tflite::TensorType_BOOL, {1}}},
                                 {}, {tflite::TensorType_BOOL, {1}});
  CHECK(rb.prepare == kTfLiteError);
  CHECK_THAT(rb.errors, Catch::Contains("not supported"));
}

}  // namespace
}  // namespace tflite_inspect
