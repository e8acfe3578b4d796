#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/testing/shape2_test_util.h"

namespace tflite_inspect {
namespace {

using namespace shape2_test;  // NOLINT
using tflite::BuiltinOperator;
using tflite::TensorType_BOOL;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

std::vector<uint8_t> Compare(BuiltinOperator op, const T& a, const T& b,
                             std::vector<int32_t> out_shape, int version = 1) {
  auto r = Run(op, {a, b}, {Output(TensorType_BOOL, out_shape)}, {}, version);
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>(out_shape.begin(), out_shape.end()));
  return r.As<uint8_t>();
}

TEST_CASE("comparisons float32 / int32 / int64 with broadcasting") {
  const T a = Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4});
  const T b = Input<float>(TensorType_FLOAT32, {2}, {2, 3});
  using V = std::vector<uint8_t>;
  CHECK(Compare(tflite::BuiltinOperator_LESS, a, b, {2, 2}) == V{1, 1, 0, 0});
  CHECK(Compare(tflite::BuiltinOperator_LESS_EQUAL, a, b, {2, 2}) == V{1, 1, 0, 0});
  CHECK(Compare(tflite::BuiltinOperator_GREATER, a, b, {2, 2}) == V{0, 0, 1, 1});
  CHECK(Compare(tflite::BuiltinOperator_GREATER_EQUAL, a, b, {2, 2}) == V{0, 0, 1, 1});
  CHECK(Compare(tflite::BuiltinOperator_EQUAL, a, b, {2, 2}) == V{0, 0, 0, 0});
  CHECK(Compare(tflite::BuiltinOperator_NOT_EQUAL, a, b, {2, 2}) == V{1, 1, 1, 1});
  const T c = Input<int32_t>(TensorType_INT32, {3, 1}, {1, 2, 3});
  const T d = Const<int32_t>(TensorType_INT32, {1, 2}, {2, 3});
  CHECK(Compare(tflite::BuiltinOperator_LESS_EQUAL, c, d, {3, 2}) == V{1, 1, 1, 1, 0, 1});
  CHECK(Compare(tflite::BuiltinOperator_EQUAL, c, d, {3, 2}) == V{0, 0, 1, 0, 0, 1});
  const T e = Input<int64_t>(TensorType_INT64, {}, {5});
  const T f = Input<int64_t>(TensorType_INT64, {3}, {4, 5, 6});
  CHECK(Compare(tflite::BuiltinOperator_GREATER_EQUAL, e, f, {3}) == V{1, 1, 0});
  const T g = T{TensorType_BOOL, {2}, Bools({1, 0}), false};
  const T h = T{TensorType_BOOL, {2}, Bools({1, 1}), false};
  CHECK(Compare(tflite::BuiltinOperator_EQUAL, g, h, {2}) == V{1, 0});
  // NaN compares unequal to everything.
  const T n = Input<float>(TensorType_FLOAT32, {1}, {std::nanf("")});
  CHECK(Compare(tflite::BuiltinOperator_NOT_EQUAL, n, n, {1}) == V{1});
  CHECK(Compare(tflite::BuiltinOperator_LESS_EQUAL, n, n, {1}) == V{0});
}

// Independent model of TFLite's ComparisonWithScaling: it compares the integers
// ((q - zp) << 8) * scale, the scale applied as a fixed-point multiplier with TFLite's
// rounding (close to, but not exactly, comparing real values). This reference derives the
// multiplier with frexp and does the high multiply and rounding shift in 64-bit math.
int32_t Rescale(int32_t q, int32_t zp, float scale) {
  int shift = 0;
  const double frac = std::frexp(static_cast<double>(scale), &shift);
  int64_t m = static_cast<int64_t>(std::round(frac * (1ll << 31)));
  if (m == (1ll << 31)) {
    m /= 2;
    ++shift;
  }
  const int64_t x = static_cast<int64_t>(q - zp) * 256;
  // SaturatingRoundingDoublingHighMul (no saturation case here), then RoundingDivideByPOT.
  const int64_t prod = x * m;
  const int64_t nudge = prod >= 0 ? (1ll << 30) : (1 - (1ll << 30));
  const int32_t high = static_cast<int32_t>((prod + nudge) / (1ll << 31));
  const int exponent = -shift;
  if (exponent == 0) return high;
  const int32_t mask = (1 << exponent) - 1;
  const int32_t remainder = high & mask;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> exponent) + (remainder > threshold ? 1 : 0);
}

TEST_CASE("comparisons int8 / uint8 rescale like TFLite (random, exact)") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> sd(0.001f, 0.9f);
    const float sa = sd(rng), sb = sd(rng);
    const int za = static_cast<int>(rng() % 256) - 128, zb = static_cast<int>(rng() % 256) - 128;
    std::vector<int8_t> a(40), b(40);
    for (auto& x : a) x = static_cast<int8_t>(rng());
    for (auto& x : b) x = static_cast<int8_t>(rng());
    const T ta = Input(TensorType_INT8, {40}, a, sa, za);
    const T tb = Input(TensorType_INT8, {40}, b, sb, zb);
    const auto less = Compare(tflite::BuiltinOperator_LESS, ta, tb, {40}, 2);
    const auto eq = Compare(tflite::BuiltinOperator_EQUAL, ta, tb, {40}, 2);
    for (int i = 0; i < 40; ++i) {
      const int32_t x = Rescale(a[i], za, sa), y = Rescale(b[i], zb, sb);
      CHECK(less[i] == (x < y ? 1 : 0));
      CHECK(eq[i] == (x == y ? 1 : 0));
    }
  }
  // Same real value with different scales compares equal: 0.5 * (10 - 2) == 0.25 * (20 - 4).
  const T a = Input<uint8_t>(TensorType_UINT8, {1}, {10}, 0.5f, 2);
  const T b = Input<uint8_t>(TensorType_UINT8, {1}, {20}, 0.25f, 4);
  CHECK(Compare(tflite::BuiltinOperator_EQUAL, a, b, {1}) == std::vector<uint8_t>{1});
}

TEST_CASE("comparisons int16 compare raw values where TFLite allows them") {
  using V = std::vector<uint8_t>;
  const T a = Input<int16_t>(tflite::TensorType_INT16, {3}, {-300, 5, 7});
  const T b = Input<int16_t>(tflite::TensorType_INT16, {}, {5});
  CHECK(Compare(tflite::BuiltinOperator_EQUAL, a, b, {3}, 4) == V{0, 1, 0});
  CHECK(Compare(tflite::BuiltinOperator_LESS, a, b, {3}, 3) == V{1, 0, 0});
  CHECK(Compare(tflite::BuiltinOperator_GREATER_EQUAL, a, b, {3}, 3) == V{0, 1, 1});
  // GREATER, LESS_EQUAL and NOT_EQUAL have no int16 kernel upstream.
  for (auto op : {tflite::BuiltinOperator_GREATER, tflite::BuiltinOperator_LESS_EQUAL,
                  tflite::BuiltinOperator_NOT_EQUAL}) {
    auto r = Run(op, {a, b}, {Output(TensorType_BOOL, {3})});
    CHECK(r.prepare == kTfLiteError);
  }
}

TEST_CASE("comparison errors") {
  auto r = Run(tflite::BuiltinOperator_LESS,
               {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
                Input<int32_t>(TensorType_INT32, {2}, {1, 2})},
               {Output(TensorType_BOOL, {2})});
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_LESS,
          {Input<float>(TensorType_FLOAT32, {2}, {1, 2}),
           Input<float>(TensorType_FLOAT32, {3}, {1, 2, 3})},
          {Output(TensorType_BOOL, {2})});
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_GREATER,
          {T{TensorType_BOOL, {1}, Bools({1}), false}, T{TensorType_BOOL, {1}, Bools({1}), false}},
          {Output(TensorType_BOOL, {1})});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type BOOL (6) not supported.") != std::string::npos);
  // A quantized scale >= 1 would make TFLite's rescaling shift the wrong way.
  r = Run(tflite::BuiltinOperator_LESS,
          {Input<int8_t>(TensorType_INT8, {1}, {1}, 2.0f, 0),
           Input<int8_t>(TensorType_INT8, {1}, {1}, 0.5f, 0)},
          {Output(TensorType_BOOL, {1})}, {}, 2);
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT") {
  const T a = T{TensorType_BOOL, {2, 2}, Bools({1, 0, 1, 0}), false};
  const T b = T{TensorType_BOOL, {2}, Bools({1, 0}), false};
  auto r = Run(tflite::BuiltinOperator_LOGICAL_AND, {a, b}, {Output(TensorType_BOOL, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{1, 0, 1, 0});
  r = Run(tflite::BuiltinOperator_LOGICAL_OR, {a, b}, {Output(TensorType_BOOL, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{1, 0, 1, 0});
  const T c = T{TensorType_BOOL, {2}, Bools({0, 1}), false};
  r = Run(tflite::BuiltinOperator_LOGICAL_OR, {b, c}, {Output(TensorType_BOOL, {2})});
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{1, 1});
  r = Run(tflite::BuiltinOperator_LOGICAL_NOT, {a}, {Output(TensorType_BOOL, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<uint8_t>() == std::vector<uint8_t>{0, 1, 0, 1});
  r = Run(tflite::BuiltinOperator_LOGICAL_NOT, {Input<float>(TensorType_FLOAT32, {1}, {1})},
          {Output(TensorType_FLOAT32, {1})});
  CHECK(r.prepare == kTfLiteError);
}

TEST_CASE("SELECT and SELECT_V2") {
  const T cond = T{TensorType_BOOL, {2, 2}, Bools({1, 0, 0, 1}), false};
  const T x = Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4});
  const T y = Input<float>(TensorType_FLOAT32, {2, 2}, {5, 6, 7, 8});
  auto r = Run(tflite::BuiltinOperator_SELECT, {cond, x, y}, {Output(TensorType_FLOAT32, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{1, 6, 7, 4});
  // Rank-one condition picks rows (v1 semantics).
  const T rows = T{TensorType_BOOL, {2}, Bools({0, 1}), false};
  r = Run(tflite::BuiltinOperator_SELECT, {rows, x, y}, {Output(TensorType_FLOAT32, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{5, 6, 3, 4});
  // SELECT_V2 broadcasts the same 1-D condition over columns instead.
  r = Run(tflite::BuiltinOperator_SELECT_V2, {rows, x, y}, {Output(TensorType_FLOAT32, {2, 2})});
  REQUIRE(r.ok());
  CHECK(r.As<float>() == std::vector<float>{5, 2, 7, 4});
  r = Run(tflite::BuiltinOperator_SELECT_V2,
          {T{TensorType_BOOL, {2, 1}, Bools({1, 0}), false},
           Input<int32_t>(TensorType_INT32, {1, 3}, {1, 2, 3}),
           Input<int32_t>(TensorType_INT32, {}, {0})},
          {Output(TensorType_INT32, {2, 3})});
  REQUIRE(r.ok());
  CHECK(r.shape() == std::vector<int>{2, 3});
  CHECK(r.As<int32_t>() == std::vector<int32_t>{1, 2, 3, 0, 0, 0});
  // An attention mask's shapes (the flat path: each input the output's shape or one value,
  // leading dimensions of 1), every element size, against the element-by-element rule.
  {
    std::mt19937 rng(7);
    std::vector<int> flags(2 * 3 * 5);
    for (int& f : flags) f = static_cast<int>(rng() % 2);
    const T mask = T{TensorType_BOOL, {1, 2, 3, 5}, Bools(flags), false};
    std::vector<float> scores(30);
    for (size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<float>(i) + 0.5f;
    r = Run(tflite::BuiltinOperator_SELECT_V2,
            {mask, Input<float>(TensorType_FLOAT32, {1, 2, 3, 5}, scores),
             Input<float>(TensorType_FLOAT32, {}, {-1e9f})},
            {Output(TensorType_FLOAT32, {1, 2, 3, 5})});
    REQUIRE(r.ok());
    for (size_t i = 0; i < scores.size(); ++i) {
      CHECK(r.As<float>()[i] == (flags[i] ? scores[i] : -1e9f));
    }
    r = Run(tflite::BuiltinOperator_SELECT_V2,
            {mask, Input<int8_t>(TensorType_INT8, {1, 1, 1, 1}, {9}),
             Input<int8_t>(TensorType_INT8, {1, 2, 3, 5}, std::vector<int8_t>(30, -3))},
            {Output(TensorType_INT8, {1, 2, 3, 5})});
    REQUIRE(r.ok());
    for (size_t i = 0; i < flags.size(); ++i) CHECK(r.As<int8_t>()[i] == (flags[i] ? 9 : -3));
    r = Run(tflite::BuiltinOperator_SELECT_V2,
            {T{TensorType_BOOL, {}, Bools({0}), false},
             Input<int64_t>(TensorType_INT64, {2, 1}, {1, 2}),
             Input<int64_t>(TensorType_INT64, {2, 1}, {int64_t{1} << 40, 4})},
            {Output(TensorType_INT64, {2, 1})});
    REQUIRE(r.ok());
    CHECK(r.As<int64_t>() == std::vector<int64_t>{int64_t{1} << 40, 4});
  }
  // SELECT (v1) does not broadcast x against y.
  r = Run(tflite::BuiltinOperator_SELECT, {cond, x, Input<float>(TensorType_FLOAT32, {2}, {5, 6})},
          {Output(TensorType_FLOAT32, {2, 2})});
  CHECK(r.prepare == kTfLiteError);
  r = Run(tflite::BuiltinOperator_SELECT_V2,
          {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 0, 0, 1}), x, y},
          {Output(TensorType_FLOAT32, {2, 2})});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
