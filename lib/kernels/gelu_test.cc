// GELU: float exact (erf) and approximate (tanh) forms against double;
// int8 / uint8 lookup tables bit-exact over every input value.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/internal/gelu_f32.h"
#include "kernels/internal/softmax_f32.h"
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
  // The tanh form as TFLite computes it, 0.5 x (1 + tanh(u)) in float, loses the relative
  // accuracy where 1 + tanh(u) cancels (x below about -2.5; TFLite's bits there are pinned
  // by testdata/kernels/gelu_float_approximate_*).
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_GELU, GeluOptions(true),
      [](double x) {
        const double u = std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
        return 0.5 * x * (1.0 + std::tanh(u));
      },
      72u, -2.5f, 8.0f);
}

// Exact GELU's lanes (16, 8 or 4 wide, whichever this CPU runs, the last vector partly
// filled) give the value-by-value model's bits: (0.5 x) * Eigen's erfc(x * -sqrt(1/2)), each
// operation rounded alone, Eigen's exp for the tensor's first n & ~3 values and std::exp
// for the rest (TFLite's own bits are pinned by testdata/kernels/gelu_float_*).
// (No contraction into FMA here either: on ARM64 the compiler would fuse these by default.)
__attribute__((optimize("fp-contract=off"))) float ModelPolevl(float v, std::initializer_list<float> c) {
  float p = *c.begin();
  for (auto it = c.begin() + 1; it != c.end(); ++it) {
    p = p * v;
    p = p + *it;
  }
  return p;
}

__attribute__((optimize("fp-contract=off"))) float ModelErfc(float x, bool packet) {
  x = std::min(std::max(x, -11.0f), 11.0f);
  const float x2 = x * x;
  if (!(x2 > 1.0f)) {
    const float t = x * ModelPolevl(x2, {5.61802298761904239654541015625e-04f, -4.91381669417023658752441406250e-03f,
                                   2.67075151205062866210937500000e-02f, -1.12800106406211853027343750000e-01f,
                                   3.76122951507568359375000000000e-01f, -1.12837910652160644531250000000e+00f});
    return t + 1.0f;
  }
  const float g = x * 4097.0f, rho = x - g, hi = rho + g, lo = x - hi;
  float x2_lo = hi * hi;
  x2_lo = x2_lo + -x2;
  float t = hi * lo;
  x2_lo = t + x2_lo;
  t = lo * hi;
  x2_lo = t + x2_lo;
  t = lo * lo;
  x2_lo = t + x2_lo;
  const float e = packet ? tflite::softmax_f32::EigenExp(-x2) : std::exp(-x2);
  t = e * x2_lo;
  const float z = e - t;
  const float q2 = 1.0f / x2;
  const float num = ModelPolevl(q2, {1.0208116471767425537109375e-01f, 4.2920666933059692382812500e-01f,
                                3.2379078865051269531250000e-01f, 5.3971976041793823242187500e-02f});
  const float den = x * ModelPolevl(q2, {1.7251677811145782470703125e-02f, 3.9137163758277893066406250e-01f,
                                    1.0000000000000000000000000e+00f, 6.2173241376876831054687500e-01f,
                                    9.5662862062454223632812500e-02f});
  const float r = num / den;
  t = z * r;
  return t + (x < 0.0f ? 2.0f : 0.0f);
}

TEST_CASE("GELU float exact: the vector lanes equal the value-by-value model bit for bit") {
  const uint32_t seed = 73;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-13.f, 13.f);
  for (int n : {1, 3, 4, 5, 8, 15, 16, 17, 31, 64, 100, 1027}) {
    std::vector<float> x(n), got(n);
    for (float& v : x) v = d(rng);
    tflite::gelu_f32::Gelu(x.data(), got.data(), n, /*approximate=*/false);
    for (int i = 0; i < n; ++i) {
      const float half = x[i] * 0.5f;
      const float want = half * ModelErfc(x[i] * static_cast<float>(-M_SQRT1_2), i < (n & ~3));
      CAPTURE(seed, n, i, x[i]);
      REQUIRE(got[i] == want);
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
