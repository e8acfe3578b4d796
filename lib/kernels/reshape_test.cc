// RESHAPE, SQUEEZE and EXPAND_DIMS (the shape-only ops): shapes from tensors and
// options, -1 inference, run-time shape/axis tensors, and errors.
#include <string>
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

const std::vector<float> kSix = {1, 2, 3, 4, 5, 6};

TEST_CASE("RESHAPE from a constant shape tensor with -1") {
  const auto r =
      Run(tflite::BuiltinOperator_RESHAPE,
          {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int32_t>(TensorType_INT32, {2}, {-1, 2})},
          {TensorType_FLOAT32, {3, 2}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{3, 2});
  CHECK(r.As<float>() == kSix);
}

TEST_CASE("RESHAPE from a run-time shape tensor") {
  const auto r = Run(tflite::BuiltinOperator_RESHAPE,
                     {Input(TensorType_INT8, {6}, std::vector<int8_t>{1, 2, 3, 4, 5, 6}, 0.5f, 0),
                      Input<int32_t>(TensorType_INT32, {3}, {1, -1, 3})},
                     {TensorType_INT8, {1, 2, 3}, 0.5f, 0});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 2, 3});
  CHECK(r.As<int8_t>() == std::vector<int8_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("RESHAPE from ReshapeOptions.new_shape, and to a scalar") {
  tflite::ReshapeOptionsT o;
  o.new_shape = {6, 1};
  auto r = Run(tflite::BuiltinOperator_RESHAPE, {Input(TensorType_FLOAT32, {2, 3}, kSix)},
               {TensorType_FLOAT32, {6, 1}}, Options(o));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{6, 1});
  CHECK(r.As<float>() == kSix);
  r = Run(
      tflite::BuiltinOperator_RESHAPE,
      {Input<float>(TensorType_FLOAT32, {1, 1}, {7}), Const<int32_t>(TensorType_INT32, {0}, {})},
      {TensorType_FLOAT32, {}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape.empty());
  CHECK(r.As<float>() == std::vector<float>{7});
}

TEST_CASE("RESHAPE errors") {
  SECTION("element count mismatch") {
    const auto r = Run(
        tflite::BuiltinOperator_RESHAPE,
        {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int32_t>(TensorType_INT32, {2}, {4, 2})},
        {TensorType_FLOAT32, {4, 2}});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("RESHAPE"));
  }
  SECTION("two -1") {
    const auto r = Run(
        tflite::BuiltinOperator_RESHAPE,
        {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int32_t>(TensorType_INT32, {2}, {-1, -1})},
        {TensorType_FLOAT32, {3, 2}});
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("run-time shape mismatch fails Invoke") {
    const auto r = Run(
        tflite::BuiltinOperator_RESHAPE,
        {Input(TensorType_FLOAT32, {2, 3}, kSix), Input<int32_t>(TensorType_INT32, {2}, {5, 5})},
        {TensorType_FLOAT32, {5, 5}});
    REQUIRE(r.prepare == kTfLiteOk);
    CHECK(r.invoke == kTfLiteError);
  }
  SECTION("three inputs") {
    const auto r =
        Run(tflite::BuiltinOperator_RESHAPE,
            {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int32_t>(TensorType_INT32, {2}, {3, 2}),
             Const<int32_t>(TensorType_INT32, {2}, {3, 2})},
            {TensorType_FLOAT32, {3, 2}});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("RESHAPE"));
  }
}

TEST_CASE("SQUEEZE all size-1 dims, chosen dims, and errors") {
  tflite::SqueezeOptionsT all;
  auto r = Run(tflite::BuiltinOperator_SQUEEZE, {Input(TensorType_FLOAT32, {1, 2, 1, 3}, kSix)},
               {TensorType_FLOAT32, {2, 3}}, Options(all));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 3});
  CHECK(r.As<float>() == kSix);

  tflite::SqueezeOptionsT some;
  some.squeeze_dims = {-2, 2};  // the same dimension twice
  r = Run(tflite::BuiltinOperator_SQUEEZE, {Input(TensorType_FLOAT32, {1, 2, 1, 3}, kSix)},
          {TensorType_FLOAT32, {1, 2, 3}}, Options(some));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 2, 3});

  tflite::SqueezeOptionsT bad;
  bad.squeeze_dims = {1};  // size 2
  r = Run(tflite::BuiltinOperator_SQUEEZE, {Input(TensorType_FLOAT32, {1, 2, 1, 3}, kSix)},
          {TensorType_FLOAT32, {1, 2, 3}}, Options(bad));
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("SQUEEZE"));
}

TEST_CASE("EXPAND_DIMS with int32/int64 axes, negative and run-time") {
  auto r =
      Run(tflite::BuiltinOperator_EXPAND_DIMS,
          {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int32_t>(TensorType_INT32, {1}, {1})},
          {TensorType_FLOAT32, {2, 1, 3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 1, 3});
  CHECK(r.As<float>() == kSix);
  r = Run(tflite::BuiltinOperator_EXPAND_DIMS,
          {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int64_t>(TensorType_INT64, {}, {-1})},
          {TensorType_FLOAT32, {2, 3, 1}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 3, 1});
  r = Run(tflite::BuiltinOperator_EXPAND_DIMS,
          {Input(TensorType_FLOAT32, {2, 3}, kSix), Input<int32_t>(TensorType_INT32, {}, {0})},
          {TensorType_FLOAT32, {1, 2, 3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 2, 3});
  r = Run(tflite::BuiltinOperator_EXPAND_DIMS,
          {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<int32_t>(TensorType_INT32, {}, {3})},
          {TensorType_FLOAT32, {2, 3, 1}});
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("EXPAND_DIMS"));
  r = Run(tflite::BuiltinOperator_EXPAND_DIMS,
          {Input(TensorType_FLOAT32, {2, 3}, kSix), Const<float>(TensorType_FLOAT32, {}, {0.f})},
          {TensorType_FLOAT32, {1, 2, 3}});
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("not supported"));
}

TEST_CASE("RESHAPE, SQUEEZE and EXPAND_DIMS on string tensors") {
  const std::vector<std::string> strs = {"a", "", "hello", "xyz", "12", "!"};
  const In in{tflite::TensorType_STRING, {1, 2, 3}, StringBuffer(strs), false};
  auto r =
      Run(tflite::BuiltinOperator_RESHAPE, {in, Const<int32_t>(TensorType_INT32, {2}, {3, -1})},
          {tflite::TensorType_STRING, {3, 2}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{3, 2});
  CHECK(ParseStrings(r.bytes) == strs);
  tflite::SqueezeOptionsT all;
  r = Run(tflite::BuiltinOperator_SQUEEZE, {in}, {tflite::TensorType_STRING, {2, 3}}, Options(all));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{2, 3});
  CHECK(ParseStrings(r.bytes) == strs);
  r = Run(tflite::BuiltinOperator_EXPAND_DIMS,
          {In{tflite::TensorType_STRING, {1, 2, 3}, StringBuffer(strs), true},
           Const<int32_t>(TensorType_INT32, {}, {3})},
          {tflite::TensorType_STRING, {1, 2, 3, 1}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{1, 2, 3, 1});
  CHECK(ParseStrings(r.bytes) == strs);
}

TEST_CASE("RESHAPE rejects a malformed string buffer") {
  auto bytes = StringBuffer({"ab", "cd"});
  bytes[8] = 0x7f;  // second offset far past the end
  const auto r = Run(tflite::BuiltinOperator_RESHAPE,
                     {In{tflite::TensorType_STRING, {2}, bytes, true},
                      Const<int32_t>(TensorType_INT32, {2}, {1, 2})},
                     {tflite::TensorType_STRING, {1, 2}});
  CHECK(r.invoke == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("offset"));
}

}  // namespace
}  // namespace tflite_inspect
