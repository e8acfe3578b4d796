// SEGMENT_SUM and UNSORTED_SEGMENT_*: ids fed at run time (the output sized at Invoke), and
// crafted values refused with a message, never a crash: a huge or negative num_segments,
// ids past it, unsorted ids for SEGMENT_SUM (the goldens in testdata/kernels cover the
// arithmetic against TFLite).
#include <cstdint>
#include <limits>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT

OpRun Unsorted(tflite::BuiltinOperator op, const std::vector<int32_t>& ids, int32_t num_segments,
               bool ids_const = false) {
  const std::vector<float> data = {1, 2, 3, 4, 5, 6, 7, 8};
  const auto n = static_cast<int32_t>(ids.size());
  return Run(op,
             {Input<float>(tflite::TensorType_FLOAT32, {n, 8 / n}, data),
              ids_const ? Const<int32_t>(tflite::TensorType_INT32, {n}, ids)
                        : Input<int32_t>(tflite::TensorType_INT32, {n}, ids),
              Const<int32_t>(tflite::TensorType_INT32, {}, {num_segments})},
             {tflite::TensorType_FLOAT32, {1, 8 / n}});  // (sized by the kernel)
}

TEST_CASE("UNSORTED_SEGMENT ops with ids fed at run time") {
  OpRun r = Unsorted(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, {2, -1, 0, 2}, 3);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.shape == std::vector<int>{3, 2});
  CHECK(r.As<float>() == std::vector<float>{5, 6, 0, 0, 8, 10});
  r = Unsorted(tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN, {1, 1, 1, 1}, 2);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>()[2] == 1.0f);
  CHECK(r.As<float>()[0] == std::numeric_limits<float>::max());
  r = Unsorted(tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD, {0, 0}, 1);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{5, 12, 21, 32});
}

TEST_CASE("UNSORTED_SEGMENT ops refuse crafted num_segments and ids") {
  for (bool ids_const : {false, true}) {
    CAPTURE(ids_const);
    // An id past num_segments.
    OpRun r = Unsorted(tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX, {0, 5, 1, 1}, 4, ids_const);
    CHECK(r.invoke == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("max_index < num_segments_ was not true"));
    // Negative.
    r = Unsorted(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, {0, 1, 1, 1}, -3, ids_const);
    CHECK(r.invoke == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("num_segments_ >= 0 was not true"));
    // 2^31 - 1 segments of 2 floats: more elements than an int counts.
    r = Unsorted(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, {0, 1, 1, 1}, INT32_MAX, ids_const);
    CHECK(r.invoke == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("Output element count overflows int."));
  }
}

TEST_CASE("SEGMENT_SUM refuses ids that skip a segment or do not start at 0") {
  for (const std::vector<int32_t>& ids :
       {std::vector<int32_t>{0, 2, 2, 3}, std::vector<int32_t>{1, 1, 2, 2},
        std::vector<int32_t>{0, 1, 0, 1}}) {
    const OpRun r = Run(tflite::BuiltinOperator_SEGMENT_SUM,
                        {Input<float>(tflite::TensorType_FLOAT32, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                         Input<int32_t>(tflite::TensorType_INT32, {4}, ids)},
                        {tflite::TensorType_FLOAT32, {4, 2}});
    CHECK(r.invoke == kTfLiteError);
    CHECK_FALSE(r.errors.empty());
  }
  const OpRun ok = Run(tflite::BuiltinOperator_SEGMENT_SUM,
                       {Input<float>(tflite::TensorType_FLOAT32, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                        Input<int32_t>(tflite::TensorType_INT32, {4}, {0, 0, 0, 1})},
                       {tflite::TensorType_FLOAT32, {2, 2}});
  REQUIRE(ok.invoke == kTfLiteOk);
  CHECK(ok.As<float>() == std::vector<float>{9, 12, 7, 8});
}

}  // namespace
}  // namespace tflite_inspect
