// LOGISTIC: float golden and random inputs (including large |x|) against a
// double-precision evaluation; uint8 / int8 lookup tables bit-exact over every
// input value; errors.
#include <cmath>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

TEST_CASE("LOGISTIC float golden and random") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_LOGISTIC, {{tflite::TensorType_FLOAT32, {3}}},
                              {{0.0f, 100.0f, -100.0f}}, {tflite::TensorType_FLOAT32, {3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output[0] == 0.5f);
  CHECK(r.output[1] == 1.0f);
  CHECK(RelClose(r.output[2], 1.0 / (1.0 + std::exp(100.0))));
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_LOGISTIC, {}, [](double x) { return 1.0 / (1.0 + std::exp(-x)); },
      31u, -30.0f, 30.0f);
}

float SigmoidFloat(float x) { return 1.0f / (1.0f + std::exp(-x)); }

TEST_CASE("LOGISTIC uint8 (version 1) and int8 (version 2) lookup table bit-exact") {
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_UINT8, SigmoidFloat,
                          {0.05f, 128}, {1.0f / 256, 0}, 1);
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_UINT8, SigmoidFloat,
                          {0.1f, 30}, {1.0f / 256, 0}, 1);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_INT8, SigmoidFloat,
                         {0.0625f, -5}, {1.0f / 256, -128}, 2);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_LOGISTIC, tflite::TensorType_INT8, SigmoidFloat,
                         {0.02f, 10}, {1.0f / 256, -128}, 2);
}

TEST_CASE("LOGISTIC errors: 8-bit output scale must be 1/256; int16 not implemented") {
  const auto r =
      RunOp<int8_t>(tflite::BuiltinOperator_LOGISTIC, {{tflite::TensorType_INT8, {2}, 0.1f, 0}}, {},
                    {tflite::TensorType_INT8, {2}, 1.0f / 128, -128}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
  const auto r16 = RunOp<int16_t>(tflite::BuiltinOperator_LOGISTIC,
                                  {{tflite::TensorType_INT16, {2}, 1.0f / 4096, 0}}, {},
                                  {tflite::TensorType_INT16, {2}, 1.0f / 32768, 0}, {}, 3);
  CHECK(r16.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
