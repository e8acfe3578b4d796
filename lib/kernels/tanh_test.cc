// TANH: float golden and random inputs against a double-precision
// evaluation; uint8 / int8 lookup tables bit-exact over every input value.
#include <cmath>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

TEST_CASE("TANH float golden and random") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_TANH, {{tflite::TensorType_FLOAT32, {3}}},
                              {{0.0f, 50.0f, -50.0f}}, {tflite::TensorType_FLOAT32, {3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.0f, 1.0f, -1.0f});
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_TANH, {}, [](double x) { return std::tanh(x); }, 41u, -8.0f, 8.0f);
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_TANH, {}, [](double x) { return std::tanh(x); }, 42u, -1e-3f, 1e-3f);
}

float TanhFloat(float x) { return std::tanh(x); }

TEST_CASE("TANH uint8 (version 1) and int8 (version 2) lookup table bit-exact") {
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_TANH, tflite::TensorType_UINT8, TanhFloat,
                          {0.03f, 128}, {1.0f / 128, 128}, 1);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_TANH, tflite::TensorType_INT8, TanhFloat,
                         {0.05f, 3}, {1.0f / 128, 0}, 2);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_TANH, tflite::TensorType_INT8, TanhFloat,
                         {0.01f, -20}, {0.02f, 7}, 2);
}

TEST_CASE("TANH rejects int16 (version 3, not implemented)") {
  const auto r = RunOp<int16_t>(tflite::BuiltinOperator_TANH,
                                {{tflite::TensorType_INT16, {2}, 1.0f / 4096, 0}}, {},
                                {tflite::TensorType_INT16, {2}, 1.0f / 32768, 0}, {}, 3);
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
