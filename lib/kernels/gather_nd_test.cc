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

TEST_CASE("GATHER_ND goldens") {
  // Full-rank indices pick elements.
  auto r = Run(tflite::BuiltinOperator_GATHER_ND,
               {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                Const<int32_t>(TensorType_INT32, {2, 2}, {0, 0, 1, 1})},
               {Output(TensorType_FLOAT32, {2})});
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{1, 4});
  // Partial indices pick slices.
  r = Run(tflite::BuiltinOperator_GATHER_ND,
          {Input<float>(TensorType_FLOAT32, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
           Input<int64_t>(TensorType_INT64, {2, 1}, {1, 0})},
          {Output(TensorType_FLOAT32, {2, 2, 2})});
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 2, 2});
  CHECK(r.As<float>() == std::vector<float>{5, 6, 7, 8, 1, 2, 3, 4});
  r = Run(tflite::BuiltinOperator_GATHER_ND,
          {Input<int32_t>(TensorType_INT32, {2, 3}, {1, 2, 3, 4, 5, 6}),
           Input<int32_t>(TensorType_INT32, {2}, {1, 2})},
          {Output(TensorType_INT32, {})});
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{6});
}

TEST_CASE("GATHER_ND errors") {
  auto r = Run(tflite::BuiltinOperator_GATHER_ND,
               {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                Input<int32_t>(TensorType_INT32, {1, 2}, {0, 2})},
               {Output(TensorType_FLOAT32, {1})});
  CHECK(r.prepare == kTfLiteOk);
  CHECK(r.invoke == kTfLiteError);
  CHECK(r.errors.find("out of bounds") != std::string::npos);
  r = Run(tflite::BuiltinOperator_GATHER_ND,
          {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
           Input<int32_t>(TensorType_INT32, {1, 2}, {0, 0})},
          {Output(TensorType_FLOAT32, {1})});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("innermost dimension") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
