// GELU: float exact (erf) and approximate (tanh) forms against double;
// int8 / uint8 lookup tables bit-exact over every input value.
#include <cmath>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

OpOptions GeluOptions(bool approximate) {
  tflite::GeluOptionsT o;
  o.approximate = approximate;
  return Options(o);
}

TEST_CASE("GELU float golden, exact and approximate") {
  const auto r =
      RunOp<float>(tflite::BuiltinOperator_GELU, {{tflite::TensorType_FLOAT32, {3}}},
                   {{0.0f, 1.0f, -1.0f}}, {tflite::TensorType_FLOAT32, {3}}, GeluOptions(false));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output[0] == 0.0f);
  CHECK(RelClose(r.output[1], 0.8413447460685429));
  CHECK(RelClose(r.output[2], -0.15865525393145707));
}

TEST_CASE("GELU float random against double") {
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_GELU, GeluOptions(false),
      [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }, 71u, -8.0f, 8.0f);
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_GELU, GeluOptions(true),
      [](double x) {
        const double u = std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
        return x / (1.0 + std::exp(-2.0 * u));
      },
      72u, -8.0f, 8.0f);
}

float GeluExactFloat(float x) { return 0.5f * x * std::erfc(x * static_cast<float>(-M_SQRT1_2)); }
float GeluApproxFloat(float x) {
  const float k = static_cast<float>(M_2_SQRTPI * M_SQRT1_2);
  return 0.5f * x * (1.f + std::tanh(k * (x + 0.044715f * x * x * x)));
}

TEST_CASE("GELU int8 / uint8 lookup table bit-exact, exact and approximate") {
  // CheckByteLutOp passes no options: run the approximate table through RunOp here.
  CheckByteLutOp<int8_t>(tflite::BuiltinOperator_GELU, tflite::TensorType_INT8, GeluExactFloat,
                         {0.05f, 0}, {0.03f, -20}, 1);
  CheckByteLutOp<uint8_t>(tflite::BuiltinOperator_GELU, tflite::TensorType_UINT8, GeluExactFloat,
                          {0.04f, 128}, {0.03f, 10}, 1);
  std::vector<int8_t> x;
  for (int v = -128; v <= 127; ++v) x.push_back(static_cast<int8_t>(v));
  const QParams in{0.05f, 5}, out{0.03f, -20};
  const auto r = RunOp<int8_t>(
      tflite::BuiltinOperator_GELU, {{tflite::TensorType_INT8, {256}, in.scale, in.zero_point}},
      {x}, {tflite::TensorType_INT8, {256}, out.scale, out.zero_point}, GeluOptions(true));
  REQUIRE(r.invoke == kTfLiteOk);
  for (int i = 0; i < 256; ++i) {
    const float y = GeluApproxFloat(in.scale * (x[i] - in.zero_point));
    const int32_t q = static_cast<int32_t>(std::round(y * (1 / out.scale)) + out.zero_point);
    REQUIRE(int(r.output[i]) == std::min(127, std::max(-128, q)));
  }
}

}  // namespace
}  // namespace tflite_inspect
