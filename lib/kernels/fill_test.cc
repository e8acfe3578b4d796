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

TEST_CASE("FILL constant and run-time dims") {
  for (bool const_dims : {true, false}) {
    CAPTURE(const_dims);
    const T dims = const_dims ? Const<int32_t>(TensorType_INT32, {2}, {2, 3})
                              : Input<int32_t>(TensorType_INT32, {2}, {2, 3});
    auto r = Run(tflite::BuiltinOperator_FILL, {dims, Input<float>(TensorType_FLOAT32, {}, {1.5f})},
                 {Output(TensorType_FLOAT32, {2, 3})});
    REQUIRE(r.ok());
    CHECK(r.shape() == std::vector<int>{2, 3});
    CHECK(r.As<float>() == std::vector<float>(6, 1.5f));
  }
  auto r = Run(tflite::BuiltinOperator_FILL,
               {Const<int64_t>(TensorType_INT64, {1}, {3}),
                Input<int8_t>(tflite::TensorType_INT8, {}, {-7}, 0.5f, 1)},
               {Output(tflite::TensorType_INT8, {3}, 0.5f, 1)}, {}, 3);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-7, -7, -7});
  r = Run(tflite::BuiltinOperator_FILL,
          {Input<int32_t>(TensorType_INT32, {1}, {-1}), Input<float>(TensorType_FLOAT32, {}, {1})},
          {Output(TensorType_FLOAT32, {1})});
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke == kTfLiteError);
  r = Run(tflite::BuiltinOperator_FILL,
          {Const<int32_t>(TensorType_INT32, {1}, {2}), Input<float>(TensorType_FLOAT32, {1}, {1})},
          {Output(TensorType_FLOAT32, {2})});
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("FILL with run-time dims resizes its dynamic output on every Invoke") {
  ModelBuilder b;
  const int dims = b.AddTensor(TensorType_INT32, {2}, "dims");
  const int value = b.AddConstTensor<float>(TensorType_FLOAT32, {}, {2.5f}, "value");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, 1}, "out");
  b.AddOperator(tflite::BuiltinOperator_FILL, {dims, value}, {out});
  b.SetInputs({dims});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int32_t>(0, {2, 3});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{2, 3});
  CHECK(m.Output<float>(0) == std::vector<float>(6, 2.5f));
  m.SetInput<int32_t>(0, {1, 4});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{1, 4});
  CHECK(m.Output<float>(0) == std::vector<float>(4, 2.5f));
}

}  // namespace
}  // namespace tflite_inspect
