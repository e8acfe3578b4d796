// ELU: float golden and random inputs against double; int8 lookup table
// bit-exact over every input value.
#include <cmath>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

TEST_CASE("ELU float golden and random") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_ELU, {{tflite::TensorType_FLOAT32, {3}}},
                              {{0.0f, 2.5f, -100.0f}}, {tflite::TensorType_FLOAT32, {3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.0f, 2.5f, -1.0f});
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_ELU, {}, [](double x) { return x < 0 ? std::expm1(x) : x; }, 61u,
      -10.0f, 10.0f);
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_ELU, {}, [](double x) { return x < 0 ? std::expm1(x) : x; }, 62u,
      -1e-4f, 1e-4f);
}

float EluFloat(float x) { return x < 0.0f ? std::expm1(x) : x; }

TEST_CASE("ELU int8 lookup table bit-exact, uint8 rejected") {
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_ELU, tflite::TensorType_INT8, EluFloat,
                         {0.05f, 10}, {0.04f, -30}, 1);
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_ELU, tflite::TensorType_INT8, EluFloat,
                         {0.1f, -128}, {0.1f, -100}, 1);
  const auto r =
      RunOp<uint8_t>(tflite::BuiltinOperator_ELU, {{tflite::TensorType_UINT8, {2}, 0.1f, 0}}, {},
                     {tflite::TensorType_UINT8, {2}, 0.1f, 0});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
