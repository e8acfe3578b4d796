#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;

std::vector<float> Unary(tflite::BuiltinOperator op, const std::vector<float>& v) {
  auto r = Run(op, {Input(TensorType_FLOAT32, {static_cast<int32_t>(v.size())}, v)},
               {Output(TensorType_FLOAT32, {static_cast<int32_t>(v.size())})});
  REQUIRE(r.ok());
  return r.As<float>();
}

TEST_CASE("unary float ops vs double reference (random)") {
  struct Op {
    tflite::BuiltinOperator op;
    std::function<double(double)> ref;
    float lo, hi;
  };
  const std::vector<Op> ops = {
      {tflite::BuiltinOperator_EXP, [](double x) { return std::exp(x); }, -20, 20},
      {tflite::BuiltinOperator_LOG, [](double x) { return std::log(x); }, 1e-3f, 1e3f},
      {tflite::BuiltinOperator_SQRT, [](double x) { return std::sqrt(x); }, 0, 1e4f},
      {tflite::BuiltinOperator_RSQRT, [](double x) { return 1 / std::sqrt(x); }, 1e-3f, 1e4f},
      {tflite::BuiltinOperator_SQUARE, [](double x) { return x * x; }, -100, 100},
      {tflite::BuiltinOperator_SIN, [](double x) { return std::sin(x); }, -10, 10},
      {tflite::BuiltinOperator_COS, [](double x) { return std::cos(x); }, -10, 10},
      {tflite::BuiltinOperator_ABS, [](double x) { return std::fabs(x); }, -10, 10},
      {tflite::BuiltinOperator_NEG, [](double x) { return -x; }, -10, 10},
      {tflite::BuiltinOperator_FLOOR, [](double x) { return std::floor(x); }, -10, 10},
      {tflite::BuiltinOperator_CEIL, [](double x) { return std::ceil(x); }, -10, 10},
  };
  std::mt19937 rng(11);
  CAPTURE(11);
  for (const Op& op : ops) {
    CAPTURE(static_cast<int>(op.op));
    std::uniform_real_distribution<float> dist(op.lo, op.hi);
    std::vector<float> v(64);
    for (auto& x : v) x = dist(rng);
    const auto got = Unary(op.op, v);
    for (size_t i = 0; i < v.size(); ++i) {
      const double want = op.ref(v[i]);
      CAPTURE(v[i], got[i], want);
      // sin/cos near a zero: relative error is meaningless, bound the absolute error.
      CHECK(std::fabs(got[i] - want) <= 1e-5 * std::max(std::fabs(want), 1e-2));
    }
  }
}

TEST_CASE("ROUND is half to even, FLOOR/CEIL goldens") {
  CHECK(Unary(tflite::BuiltinOperator_ROUND, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f}) ==
        std::vector<float>{0, 2, 2, -0.f, -2, 2, -3});
  CHECK(Unary(tflite::BuiltinOperator_FLOOR, {-1.5f, 1.5f}) == std::vector<float>{-2, 1});
  CHECK(Unary(tflite::BuiltinOperator_CEIL, {-1.5f, 1.5f}) == std::vector<float>{-1, 2});
}

TEST_CASE("ABS int32 (v5), NEG int32/int64, type errors") {
  auto r = Run(tflite::BuiltinOperator_ABS, {Input<int32_t>(TensorType_INT32, {3}, {-3, 0, 4})},
               {Output(TensorType_INT32, {3})}, {}, 5);
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{3, 0, 4});
  r = Run(tflite::BuiltinOperator_NEG, {Input<int64_t>(TensorType_INT64, {2}, {-3, 5})},
          {Output(TensorType_INT64, {2})});
  REQUIRE(r.ok());
  CHECK(r.As<int64_t>() == std::vector<int64_t>{3, -5});
  r = Run(tflite::BuiltinOperator_EXP, {Input<int32_t>(TensorType_INT32, {1}, {1})},
          {Output(TensorType_INT32, {1})});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT32 (2) not supported.") != std::string::npos);
  r = Run(tflite::BuiltinOperator_SQRT, {Input<float>(TensorType_FLOAT32, {1}, {1})},
          {Output(TensorType_INT32, {1})});
  CHECK(r.prepare == kTfLiteError);
}

// Independent model of TFLite's quantized ABS: |q - zp_in| * (s_in / s_out) with the
// multiplier's double rounding (one rounding high multiply, one rounding shift), computed
// with 64-bit integers from a frexp-derived multiplier.
int32_t RescaleAbs(int32_t value, float in_scale, float out_scale) {
  int exponent = 0;
  const double frac = std::frexp(static_cast<double>(in_scale / out_scale), &exponent);
  int64_t m = static_cast<int64_t>(std::round(frac * (1ll << 31)));
  if (m == (1ll << 31)) {
    m /= 2;
    ++exponent;
  }
  const int left = exponent > 0 ? exponent : 0, right = exponent > 0 ? 0 : -exponent;
  const int64_t prod = static_cast<int64_t>(value * (1 << left)) * m;
  const int64_t nudge = prod >= 0 ? (1ll << 30) : (1 - (1ll << 30));
  const int32_t high = static_cast<int32_t>((prod + nudge) / (1ll << 31));
  if (right == 0) return high;
  const int32_t mask = (1 << right) - 1;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + ((high & mask) > threshold ? 1 : 0);
}

TEST_CASE("ABS int8 / int16 quantized (v2, v3) and int16 raw (v4)") {
  // Same scale: |q - zp_in| + zp_out, clamped.
  auto r = Run(tflite::BuiltinOperator_ABS,
               {Input<int8_t>(tflite::TensorType_INT8, {4}, {-128, -3, 5, 127}, 0.5f, 1)},
               {Output(tflite::TensorType_INT8, {4}, 0.5f, -2)}, {}, 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{127, 2, 2, 124});
  std::mt19937 rng(3);
  CAPTURE(3);
  for (int trial = 0; trial < 5; ++trial) {
    const float in_scale = std::uniform_real_distribution<float>(0.01f, 1.f)(rng);
    const float out_scale = std::uniform_real_distribution<float>(0.01f, 1.f)(rng);
    const int in_zp = static_cast<int>(rng() % 51) - 25, out_zp = static_cast<int>(rng() % 51) - 25;
    std::vector<int8_t> v(50);
    for (auto& x : v) x = static_cast<int8_t>(rng());
    r = Run(tflite::BuiltinOperator_ABS, {Input(tflite::TensorType_INT8, {50}, v, in_scale, in_zp)},
            {Output(tflite::TensorType_INT8, {50}, out_scale, out_zp)}, {}, 2);
    REQUIRE(r.ok());
    for (int i = 0; i < 50; ++i) {
      const int32_t want = std::min(
          127, std::max(-128, RescaleAbs(std::abs(v[i] - in_zp), in_scale, out_scale) + out_zp));
      CHECK(r.As<int8_t>()[i] == want);
    }
  }
  r = Run(tflite::BuiltinOperator_ABS,
          {Input<int16_t>(tflite::TensorType_INT16, {3}, {-1000, 0, 32767}, 0.25f, 0)},
          {Output(tflite::TensorType_INT16, {3}, 0.5f, 0)}, {}, 3);
  REQUIRE(r.ok());
  CHECK(r.As<int16_t>() == std::vector<int16_t>{500, 0, 16384});
  r = Run(tflite::BuiltinOperator_ABS,
          {Input<int16_t>(tflite::TensorType_INT16, {3}, {-1000, -32768, 7})},
          {Output(tflite::TensorType_INT16, {3})}, {}, 4);
  REQUIRE(r.ok());
  CHECK(r.As<int16_t>() == std::vector<int16_t>{1000, -32768, 7});
  r = Run(tflite::BuiltinOperator_ABS,
          {Input<int16_t>(tflite::TensorType_INT16, {1}, {1}, 0.5f, 3)},
          {Output(tflite::TensorType_INT16, {1}, 0.5f, 3)}, {}, 3);
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_ABS,
          {Input<uint8_t>(tflite::TensorType_UINT8, {1}, {1}, 0.5f, 3)},
          {Output(tflite::TensorType_UINT8, {1}, 0.5f, 3)}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("RSQRT int8 (v2): close to the real value, 0 -> 127, negative -> error") {
  // in: scale 0.01, zp -128 -> values 0 .. 2.55; out: scale 0.1, zp -100.
  std::vector<int8_t> v;
  for (int q = -127; q <= 127; q += 6) v.push_back(static_cast<int8_t>(q));
  const int32_t n = static_cast<int32_t>(v.size());
  auto r = Run(tflite::BuiltinOperator_RSQRT, {Input(tflite::TensorType_INT8, {n}, v, 0.01f, -128)},
               {Output(tflite::TensorType_INT8, {n}, 0.1f, -100)}, {}, 2);
  REQUIRE(r.ok());
  const auto got = r.As<int8_t>();
  for (int32_t i = 0; i < n; ++i) {
    const double x = 0.01 * (v[i] + 128);
    const double want = std::min(127.0, std::max(-128.0, std::round(1 / std::sqrt(x) / 0.1) - 100));
    CAPTURE(v[i], got[i], want);
    CHECK(std::fabs(got[i] - want) <= 1);
  }
  r = Run(tflite::BuiltinOperator_RSQRT,
          {Input<int8_t>(tflite::TensorType_INT8, {2}, {5, 4}, 0.5f, 5)},
          {Output(tflite::TensorType_INT8, {2}, 0.5f, 0)}, {}, 2);
  CHECK(r.invoke == kTfLiteError);
  CHECK(r.errors.find("only defined for positive") != std::string::npos);
  r = Run(tflite::BuiltinOperator_RSQRT,
          {Input<int8_t>(tflite::TensorType_INT8, {1}, {5}, 0.5f, 5)},
          {Output(tflite::TensorType_INT8, {1}, 0.5f, 0)}, {}, 2);
  REQUIRE(r.ok());
  CHECK(r.As<int8_t>() == std::vector<int8_t>{127});
}

TEST_CASE("FLOOR_DIV / FLOOR_MOD / POW") {
  auto r = Run(tflite::BuiltinOperator_FLOOR_DIV,
               {Input<int32_t>(TensorType_INT32, {4}, {7, -7, 7, -7}),
                Input<int32_t>(TensorType_INT32, {4}, {2, 2, -2, -2})},
               {Output(TensorType_INT32, {4})});
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{3, -4, -4, 3});
  r = Run(tflite::BuiltinOperator_FLOOR_DIV,
          {Input<float>(TensorType_FLOAT32, {2, 2}, {7, -7, 1, 0.5f}),
           Input<float>(TensorType_FLOAT32, {2}, {2, -0.5f})},
          {Output(TensorType_FLOAT32, {2, 2})}, {}, 2);
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{3, 14, 0, -1});
  r = Run(tflite::BuiltinOperator_FLOOR_DIV,
          {Input<int32_t>(TensorType_INT32, {1}, {1}), Input<int32_t>(TensorType_INT32, {1}, {0})},
          {Output(TensorType_INT32, {1})});
  CHECK(r.invoke == kTfLiteError);
  CHECK(r.errors.find("Division by 0") != std::string::npos);
  r = Run(tflite::BuiltinOperator_FLOOR_DIV,
          {Input<float>(TensorType_FLOAT32, {1}, {1}), Input<float>(TensorType_FLOAT32, {1}, {0})},
          {Output(TensorType_FLOAT32, {1})}, {}, 2);
  CHECK(r.invoke == kTfLiteError);

  r = Run(tflite::BuiltinOperator_FLOOR_MOD,
          {Input<int32_t>(TensorType_INT32, {4}, {7, -7, 7, -7}),
           Input<int32_t>(TensorType_INT32, {4}, {3, 3, -3, -3})},
          {Output(TensorType_INT32, {4})});
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, 2, -2, -1});
  r = Run(tflite::BuiltinOperator_FLOOR_MOD,
          {Input<float>(TensorType_FLOAT32, {3}, {7.5f, -7.5f, 7.5f}),
           Input<float>(TensorType_FLOAT32, {}, {-2})},
          {Output(TensorType_FLOAT32, {3})});
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{-0.5f, -1.5f, -0.5f});
  r = Run(tflite::BuiltinOperator_FLOOR_MOD,
          {Input<int64_t>(TensorType_INT64, {1}, {1}), Input<int64_t>(TensorType_INT64, {1}, {0})},
          {Output(TensorType_INT64, {1})});
  CHECK(r.invoke == kTfLiteError);

  r = Run(tflite::BuiltinOperator_POW,
          {Input<int32_t>(TensorType_INT32, {3}, {2, -3, 5}),
           Input<int32_t>(TensorType_INT32, {3}, {10, 3, 0})},
          {Output(TensorType_INT32, {3})});
  REQUIRE(r.ok());
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1024, -27, 1});
  r = Run(tflite::BuiltinOperator_POW,
          {Input<float>(TensorType_FLOAT32, {2, 2}, {2, 4, 9, 0.5f}),
           Input<float>(TensorType_FLOAT32, {2}, {0.5f, 2})},
          {Output(TensorType_FLOAT32, {2, 2})});
  REQUIRE(r.ok());
  const auto p = r.As<float>();
  CHECK(p[0] == std::pow(2.f, 0.5f));
  CHECK(p[1] == 16.f);
  CHECK(p[2] == 3.f);
  CHECK(p[3] == 0.25f);
  r = Run(tflite::BuiltinOperator_POW,
          {Input<int32_t>(TensorType_INT32, {1}, {2}), Input<int32_t>(TensorType_INT32, {1}, {-1})},
          {Output(TensorType_INT32, {1})});
  CHECK(r.invoke == kTfLiteError);
}

TEST_CASE("FLOOR_DIV / FLOOR_MOD random int32 identities") {
  std::mt19937 rng(5);
  CAPTURE(5);
  std::vector<int32_t> a(100), b(100);
  for (auto& x : a) x = static_cast<int32_t>(rng() % 2001) - 1000;
  for (auto& x : b) {
    do {
      x = static_cast<int32_t>(rng() % 41) - 20;
    } while (x == 0);
  }
  auto d = Run(tflite::BuiltinOperator_FLOOR_DIV,
               {Input(TensorType_INT32, {100}, a), Input(TensorType_INT32, {100}, b)},
               {Output(TensorType_INT32, {100})});
  auto m = Run(tflite::BuiltinOperator_FLOOR_MOD,
               {Input(TensorType_INT32, {100}, a), Input(TensorType_INT32, {100}, b)},
               {Output(TensorType_INT32, {100})});
  REQUIRE((d.ok() && m.ok()));
  for (int i = 0; i < 100; ++i) {
    const int32_t q = d.As<int32_t>()[i], r = m.As<int32_t>()[i];
    CAPTURE(a[i], b[i], q, r);
    CHECK(q * b[i] + r == a[i]);
    CHECK((r == 0 || (r < 0) == (b[i] < 0)));
    CHECK(std::abs(r) < std::abs(b[i]));
  }
}

}  // namespace
}  // namespace tflite_inspect
