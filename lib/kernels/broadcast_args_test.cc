// BROADCAST_ARGS: broadcast shapes of int32 and int64 vectors of different lengths, fed at
// run time, and the refusal of shapes that do not broadcast. SCATTER_ND's bounds and shape
// checks (the goldens in testdata/kernels cover its sums).
#include <algorithm>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

template <typename T>
OpRun Broadcast(tflite::TensorType type, const std::vector<T>& a, const std::vector<T>& b) {
  const int n = static_cast<int>(std::max(a.size(), b.size()));
  return Run(tflite::BuiltinOperator_BROADCAST_ARGS,
             {Input<T>(type, {static_cast<int32_t>(a.size())}, a),
              Input<T>(type, {static_cast<int32_t>(b.size())}, b)},
             {type, {n}});
}

TEST_CASE("BROADCAST_ARGS: broadcast shapes and the refusal of shapes that do not broadcast") {
  auto r = Broadcast<int32_t>(tflite::TensorType_INT32, {5, 1, 3}, {4, 1});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int32_t>() == std::vector<int32_t>{5, 4, 3});
  r = Broadcast<int64_t>(tflite::TensorType_INT64, {2}, {7, 1, 1, 1});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int64_t>() == std::vector<int64_t>{7, 1, 1, 2});
  r = Broadcast<int32_t>(tflite::TensorType_INT32, {}, {3, 0});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int32_t>() == std::vector<int32_t>{3, 0});
  r = Broadcast<int32_t>(tflite::TensorType_INT32, {2, 3}, {4, 3});
  CHECK(r.invoke == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("shapes [2, 3] and [4, 3] do not broadcast"));
}

TEST_CASE("SCATTER_ND refuses an index whose slice falls outside the output") {
  for (int32_t row : {8, -1}) {
    const OpRun r = Run(tflite::BuiltinOperator_SCATTER_ND,
                        {Const<int32_t>(tflite::TensorType_INT32, {1, 1}, {row}),
                         Input<float>(tflite::TensorType_FLOAT32, {1, 2}, {1.0f, 2.0f}),
                         Const<int32_t>(tflite::TensorType_INT32, {2}, {8, 2})},
                        {tflite::TensorType_FLOAT32, {8, 2}});
    CHECK(r.invoke == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("scatter_nd index out of bounds"));
  }
}

// Updates with fewer dimensions than the indices' outer ones: refused at prepare with the
// counts, where the shape check read past the updates' dimensions (the invoke fuzzer's
// find, lib/fuzz/regressions/scatter_nd_updates_fewer_dims.tflite).
TEST_CASE("SCATTER_ND refuses updates with fewer dimensions than the indices' outer ones") {
  const OpRun r = Run(tflite::BuiltinOperator_SCATTER_ND,
                      {Const<int32_t>(tflite::TensorType_INT32, {2, 2, 1}, {0, 1, 2, 0}),
                       Input<float>(tflite::TensorType_FLOAT32, {4}, {1.0f, 2.0f, 3.0f, 4.0f}),
                       Const<int32_t>(tflite::TensorType_INT32, {1}, {3})},
                      {tflite::TensorType_FLOAT32, {3}});
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("SCATTER_ND: the updates have 1 dimensions, fewer than "
                                       "the indices' 2 outer dimensions."));
}

}  // namespace
}  // namespace tflite_inspect
