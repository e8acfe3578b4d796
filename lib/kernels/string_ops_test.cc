#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_INT32;
using tflite::TensorType_STRING;
using Strings = std::vector<std::string>;

TEST_CASE("string tensors: GATHER, GATHER_ND, SLICE, TILE, FILL") {
  const T abcd = StringInput({2, 2}, {"a", "bb", "", "dddd"});
  tflite::GatherOptionsT g;
  g.axis = 1;
  auto r =
      Run(tflite::BuiltinOperator_GATHER, {abcd, Const<int32_t>(TensorType_INT32, {3}, {1, 0, 1})},
          {Output(TensorType_STRING, {2, 3})}, Options(g));
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 3});
  CHECK(ParseStrings(r.bytes[0]) == Strings{"bb", "a", "bb", "dddd", "", "dddd"});
  r = Run(tflite::BuiltinOperator_GATHER, {abcd, Input<int32_t>(TensorType_INT32, {1}, {2})},
          {Output(TensorType_STRING, {2, 1})}, Options(g));
  CHECK(r.invoke == kTfLiteError);

  r = Run(tflite::BuiltinOperator_GATHER_ND,
          {abcd, Const<int32_t>(TensorType_INT32, {2, 1}, {1, 0})},
          {Output(TensorType_STRING, {2, 2})}, {}, 2);
  REQUIRE(r.ok());
  CHECK(ParseStrings(r.bytes[0]) == Strings{"", "dddd", "a", "bb"});

  r = Run(tflite::BuiltinOperator_SLICE,
          {abcd, Const<int32_t>(TensorType_INT32, {2}, {0, 1}),
           Const<int32_t>(TensorType_INT32, {2}, {2, 1})},
          {Output(TensorType_STRING, {2, 1})}, {}, 3);
  REQUIRE(r.ok());
  CHECK(ParseStrings(r.bytes[0]) == Strings{"bb", "dddd"});

  r = Run(tflite::BuiltinOperator_TILE, {abcd, Input<int32_t>(TensorType_INT32, {2}, {1, 2})},
          {Output(TensorType_STRING, {2, 4})}, {}, 2);
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 4});
  CHECK(ParseStrings(r.bytes[0]) == Strings{"a", "bb", "a", "bb", "", "dddd", "", "dddd"});

  r = Run(tflite::BuiltinOperator_FILL,
          {Const<int32_t>(TensorType_INT32, {1}, {3}), StringInput({}, {"xy"})},
          {Output(TensorType_STRING, {3})}, {}, 2);
  REQUIRE(r.ok());
  CHECK(ParseStrings(r.bytes[0]) == Strings{"xy", "xy", "xy"});
}

TEST_CASE("string tensors: EQUAL / NOT_EQUAL with broadcasting") {
  const T a = StringInput({2, 2}, {"a", "bb", "", "bb"});
  const T b = StringInput({2}, {"", "bb"});
  auto r =
      Run(tflite::BuiltinOperator_EQUAL, {a, b}, {Output(tflite::TensorType_BOOL, {2, 2})}, {}, 3);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{0, 1, 1, 1});
  r = Run(tflite::BuiltinOperator_NOT_EQUAL, {a, b}, {Output(tflite::TensorType_BOOL, {2, 2})}, {},
          3);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{1, 0, 0, 0});
  r = Run(tflite::BuiltinOperator_LESS, {a, b}, {Output(tflite::TensorType_BOOL, {2, 2})});
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("string tensors: malformed buffer is an error, not a crash") {
  T bad = StringInput({2}, {"a", "b"});
  bad.data[4] = 0x7f;  // first offset far past the end
  auto r = Run(
      tflite::BuiltinOperator_SLICE,
      {bad, Const<int32_t>(TensorType_INT32, {1}, {0}), Const<int32_t>(TensorType_INT32, {1}, {1})},
      {Output(TensorType_STRING, {1})}, {}, 3);
  CHECK(r.invoke == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
