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

TEST_CASE("BROADCAST_TO goldens and errors") {
  for (bool const_shape : {true, false}) {
    CAPTURE(const_shape);
    const T s = const_shape ? Const<int32_t>(TensorType_INT32, {3}, {2, 2, 3})
                            : Input<int32_t>(TensorType_INT32, {3}, {2, 2, 3});
    auto r = Run(tflite::BuiltinOperator_BROADCAST_TO,
                 {Input<float>(TensorType_FLOAT32, {2, 1}, {1, 2}), s},
                 {Output(TensorType_FLOAT32, {2, 2, 3})}, {}, 2);
    REQUIRE(r.ok());
    CHECK(r.shape() == std::vector<int>{2, 2, 3});
    CHECK(r.As<float>() == std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
  }
  auto r = Run(tflite::BuiltinOperator_BROADCAST_TO,
               {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
                Const<int32_t>(TensorType_INT32, {2}, {2, 3})},
               {Output(TensorType_FLOAT32, {2, 3})}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("broadcastable") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
