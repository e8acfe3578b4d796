#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT

TEST_CASE("SHAPE int32 and int64, ZEROS_LIKE") {
  tflite::ShapeOptionsT o;
  o.out_type = tflite::TensorType_INT32;
  auto r = Run(tflite::BuiltinOperator_SHAPE,
               {Input<float>(tflite::TensorType_FLOAT32, {2, 3, 1}, std::vector<float>(6))},
               {Output(tflite::TensorType_INT32, {3})}, Options(o));
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{2, 3, 1});
  o.out_type = tflite::TensorType_INT64;
  r = Run(tflite::BuiltinOperator_SHAPE,
          {Input<int8_t>(tflite::TensorType_INT8, {4}, std::vector<int8_t>(4))},
          {Output(tflite::TensorType_INT64, {1})}, Options(o));
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>() == std::vector<int64_t>{4});
  o.out_type = tflite::TensorType_FLOAT32;
  r = Run(tflite::BuiltinOperator_SHAPE,
          {Input<int8_t>(tflite::TensorType_INT8, {4}, std::vector<int8_t>(4))},
          {Output(tflite::TensorType_FLOAT32, {1})}, Options(o));
  CHECK(r.prepare == kTfLiteError);

  r = Run(tflite::BuiltinOperator_ZEROS_LIKE,
          {Input<int64_t>(tflite::TensorType_INT64, {2, 2}, {1, 2, 3, 4})},
          {Output(tflite::TensorType_INT64, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>() == std::vector<int64_t>(4, 0));
  r = Run(tflite::BuiltinOperator_ZEROS_LIKE, {Input<int8_t>(tflite::TensorType_INT8, {2}, {1, 2})},
          {Output(tflite::TensorType_INT8, {2})});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
