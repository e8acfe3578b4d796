#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;

template <typename V>
OpResult Range(tflite::TensorType type, V start, V limit, V delta, bool constant, int version = 1) {
  auto make = [&](V v) { return constant ? Const<V>(type, {}, {v}) : Input<V>(type, {}, {v}); };
  return Run(tflite::BuiltinOperator_RANGE, {make(start), make(limit), make(delta)},
             {Output(type, {1})}, {}, version);
}

TEST_CASE("RANGE goldens") {
  for (bool constant : {true, false}) {
    CAPTURE(constant);
    auto r = Range<int32_t>(TensorType_INT32, 0, 10, 3, constant);
    REQUIRE(r.ok());
    CHECK(r.As<int32_t>() == std::vector<int32_t>{0, 3, 6, 9});
    r = Range<int32_t>(TensorType_INT32, 5, 1, -2, constant);
    REQUIRE(r.ok());
    CHECK(r.As<int32_t>() == std::vector<int32_t>{5, 3});
    r = Range<float>(TensorType_FLOAT32, 0.f, 1.f, 0.25f, constant);
    REQUIRE(r.ok());
    CHECK(r.As<float>() == std::vector<float>{0.f, 0.25f, 0.5f, 0.75f});
    r = Range<int64_t>(TensorType_INT64, -3, -3, 1, constant, 2);
    REQUIRE(r.ok());
    CHECK(r.shape() == std::vector<int>{0});
  }
  // Values accumulate in float as upstream does: 0.1 added 3 times.
  auto r = Range<float>(TensorType_FLOAT32, 0.f, 0.35f, 0.1f, true);
  REQUIRE(r.ok());
  const float a = 0.1f, b = a + 0.1f, c = b + 0.1f;
  CHECK(r.As<float>() == std::vector<float>{0.f, a, b, c});
}

TEST_CASE("RANGE errors") {
  auto r = Range<int32_t>(TensorType_INT32, 0, 10, 0, true);
  CHECK(r.prepare == kTfLiteError);
  r = Range<int32_t>(TensorType_INT32, 0, 10, -1, false);
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke == kTfLiteError);
  CHECK(r.errors.find("wrong sign") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
