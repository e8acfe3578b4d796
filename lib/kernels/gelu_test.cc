// GELU: float exact (erf) and approximate (tanh) forms against double;
// int8 / uint8 lookup tables bit-exact over every input value.
#include <cmath>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/internal/gelu_f32.h"
#include "kernels/internal/gemm.h"
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

// Where the CPU has FMA (AVX2 or AVX-512 lanes), exact GELU is the rational erf with fused
// multiply-adds, value by value, on the first n & ~7 values (the last n % 8 take the
// portable loop: each product rounded): every lane width and the masked vector give its
// bits.
TEST_CASE("GELU float exact: the vector lanes equal the scalar formula bit for bit") {
  if (!tflite::gemm::CpuHasAvx2Fma()) {
    WARN("no FMA on this CPU: the portable loop is checked against double above");
    return;
  }
  const float kP[] = {-2.72614225801306e-10f, 2.77068142495902e-08f, -2.10102402082508e-06f,
                      -5.69250639462346e-05f, -7.34990630326855e-04f, -2.95459980854025e-03f,
                      -1.60960333262415e-02f};
  const float kQ[] = {-1.45660718464996e-05f, -2.13374055278905e-04f, -1.68282697438203e-03f,
                      -7.37332916720468e-03f, -1.42647390514189e-02f};
  auto formula = [&](float x, bool fused) {
    if (x < -1.5f) return 0.5f * x * std::erfc(x * static_cast<float>(-M_SQRT1_2));
    float z = x * static_cast<float>(M_SQRT1_2);
    z = std::min(4.0f, std::max(-4.0f, z));
    const float z2 = z * z;
    float p = kP[0], q = kQ[0];
    for (int k = 1; k < 7; ++k) p = fused ? std::fmaf(p, z2, kP[k]) : static_cast<float>(static_cast<double>(p * z2)) + kP[k];
    p = p * z;
    for (int k = 1; k < 5; ++k) q = fused ? std::fmaf(q, z2, kQ[k]) : static_cast<float>(static_cast<double>(q * z2)) + kQ[k];
    return (0.5f * x) * (1.0f + p / q);
  };
  const uint32_t seed = 73;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-7.f, 7.f);
  for (int n : {1, 5, 8, 15, 16, 17, 31, 64, 100}) {
    std::vector<float> x(n), got(n);
    for (float& v : x) v = d(rng);
    tflite::gelu_f32::Gelu(x.data(), got.data(), n, /*approximate=*/false);
    for (int i = 0; i < n; ++i) {
      CAPTURE(seed, n, i, x[i]);
      REQUIRE(got[i] == formula(x[i], i < (n & ~7)));
    }
  }
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
