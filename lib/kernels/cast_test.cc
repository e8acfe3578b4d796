#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_BOOL;
using tflite::TensorType_FLOAT16;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_FLOAT64;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

OpResult Cast(const T& in, tflite::TensorType out, int version = 1) {
  return Run(tflite::BuiltinOperator_CAST, {in}, {Output(out, in.shape)}, {}, version);
}

TEST_CASE("CAST goldens") {
  auto r =
      Cast(Input<float>(TensorType_FLOAT32, {4}, {1.9f, -1.9f, 0.f, 100.5f}), TensorType_INT32);
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, -1, 0, 100});
  r = Cast(Input<int32_t>(TensorType_INT32, {3}, {0, 5, -2}), TensorType_BOOL);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{0, 1, 1});
  r = Cast(T{TensorType_BOOL, {3}, Bools({1, 0, 1})}, TensorType_FLOAT32);
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{1, 0, 1});
  r = Cast(Input<int32_t>(TensorType_INT32, {3}, {300, -1, 128}), TensorType_UINT8);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{44, 255, 128});
  r = Cast(Input<int64_t>(TensorType_INT64, {2}, {-129, 127}), TensorType_INT8, 3);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{127, 127});
  r = Cast(Input<double>(TensorType_FLOAT64, {2}, {0.1, -2.5}), TensorType_FLOAT32, 5);
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{0.1f, -2.5f});
}

TEST_CASE("CAST of floats out of an integer type's range gives x86's bits, defined") {
  // TFLite's static_cast is undefined there; its x86-64 build truncates through a 32-bit
  // int (narrow types, int32: INT32_MIN out of range) or a 64-bit int (uint32, int64).
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  const std::vector<float> v = {-2.03f, 300.7f, nan, inf, -inf, 3e9f, -3e9f, 1e20f};
  auto r = Cast(Input<float>(TensorType_FLOAT32, {8}, v), TensorType_UINT8);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{254, 44, 0, 0, 0, 0, 0, 0});
  r = Cast(Input<float>(TensorType_FLOAT32, {8}, v), TensorType_INT8);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-2, 44, 0, 0, 0, 0, 0, 0});
  r = Cast(Input<float>(TensorType_FLOAT32, {8}, v), TensorType_INT32);
  REQUIRE(r.ok());
  const int32_t lo = std::numeric_limits<int32_t>::min();
  CHECK(r.As<int32_t>() == std::vector<int32_t>{-2, 300, lo, lo, lo, lo, lo, lo});
  r = Cast(Input<float>(TensorType_FLOAT32, {8}, v), TensorType_INT64, 3);
  REQUIRE(r.ok());
  const int64_t lo64 = std::numeric_limits<int64_t>::min();
  CHECK(r.As<int64_t>() ==
        std::vector<int64_t>{-2, 300, lo64, lo64, lo64, 3000000000, -3000000000, lo64});
  r = Cast(Input<double>(TensorType_FLOAT64, {3}, {-1e300, 7e9, -0.5}), TensorType_UINT8, 5);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{0, 0, 0});
}

TEST_CASE("CAST float16 both ways (round to nearest even)") {
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: rounds to even (1.0). 65520 overflows.
  const std::vector<float> in = {1.0f,
                                 1.0f + std::ldexp(1.0f, -11),
                                 1.0f + 3 * std::ldexp(1.0f, -11),
                                 -2.5f,
                                 65504.f,
                                 65520.f,
                                 std::ldexp(1.0f, -24),
                                 std::ldexp(1.0f, -26),
                                 0.f};
  auto r = Cast(Input(TensorType_FLOAT32, {9}, in), TensorType_FLOAT16, 5);
  REQUIRE(r.ok());
  CHECK(r.As<uint16_t>() == std::vector<uint16_t>{0x3C00, 0x3C00, 0x3C02, 0xC100, 0x7BFF, 0x7C00,
                                                  0x0001, 0x0000, 0x0000});
  r = Cast(Input<uint16_t>(TensorType_FLOAT16, {3}, {0x3C00, 0xC100, 0x0001}), TensorType_INT32, 5);
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, -2, 0});
  r = Cast(Input<uint16_t>(TensorType_FLOAT16, {2}, {0x0001, 0x8000}), TensorType_BOOL, 5);
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{1, 0});
}

TEST_CASE("CAST float32 -> float16 -> float32 random: nearest half value") {
  std::mt19937 rng(7);
  CAPTURE(7);
  std::uniform_real_distribution<float> dist(-70000.f, 70000.f);
  std::vector<float> v(200);
  for (auto& x : v) x = dist(rng) * std::pow(2.0f, -static_cast<int>(rng() % 30));
  auto half = Cast(Input(TensorType_FLOAT32, {200}, v), TensorType_FLOAT16, 5);
  REQUIRE(half.ok());
  auto back = Cast(Input(TensorType_FLOAT16, {200}, half.As<uint16_t>()), TensorType_FLOAT32, 5);
  REQUIRE(back.ok());
  const auto got = back.As<float>();
  for (size_t i = 0; i < v.size(); ++i) {
    CAPTURE(v[i], got[i]);
    if (std::fabs(v[i]) >= 65520.f) {
      CHECK(std::isinf(got[i]));
      continue;
    }
    // Spacing of halves around |v|: 2^(e - 10), and 2^-24 in the subnormal range.
    const int e = std::max(std::ilogb(std::fabs(v[i]) > 0 ? v[i] : 1.f), -14);
    const double ulp = std::ldexp(1.0, e - 10);
    CHECK(std::fabs(static_cast<double>(got[i]) - v[i]) <= ulp / 2);
  }
}

TEST_CASE("CAST rejects unsupported types") {
  auto r = Cast(Input<float>(TensorType_FLOAT32, {1}, {1.f}), tflite::TensorType_COMPLEX64);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("not supported") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
