// HARD_SWISH: float golden and random inputs against double; int8 / uint8
// bit-exact over every input value against an independent fixed-point model,
// and within 2 steps of the float function.
#include <algorithm>
#include <cmath>
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT

TEST_CASE("HARD_SWISH float golden and random") {
  const auto r =
      RunOp<float>(tflite::BuiltinOperator_HARD_SWISH, {{tflite::TensorType_FLOAT32, {5}}},
                   {{-4.0f, -3.0f, 0.0f, 1.5f, 4.0f}}, {tflite::TensorType_FLOAT32, {5}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.0f, 0.0f, 0.0f, 1.125f, 4.0f});
  CheckFloatUnaryRandom(
      tflite::BuiltinOperator_HARD_SWISH, {},
      [](double x) { return x * std::min(6.0, std::max(0.0, x + 3)) / 6; }, 51u, -8.0f, 8.0f);
}

// Independent model of TFLite's 16-bit fixed-point quantized hard-swish.
int16_t RefSrdhm16(int16_t a, int16_t b) {  // rounding doubling high mul
  if (a == b && a == -32768) return 32767;
  const int32_t p = int32_t{a} * b;
  return static_cast<int16_t>((p + (p >= 0 ? (1 << 14) : 1 - (1 << 14))) / (1 << 15));
}
int16_t RefSdhm16(int16_t a, int16_t b) {  // truncating doubling high mul
  if (a == b && a == -32768) return 32767;
  return static_cast<int16_t>(int32_t{a} * b / (1 << 15));
}
int16_t RefSatShift16(int32_t v, int amount) {
  return static_cast<int16_t>(std::min(32767L, std::max(-32768L, long{v} * (1L << amount))));
}
int16_t RefDownScale(int32_t m) {
  return m >= 2147483647 - (1 << 15) ? 32767 : static_cast<int16_t>((m + (1 << 15)) >> 16);
}

template <typename T>
std::vector<T> RefQuantizedHardSwish(const std::vector<T>& x, QParams in, QParams out) {
  const float hires_scale = (1.0f / 128.0f) * in.scale;
  int32_t m;
  int out_exp, relu_exp;
  RefQuantizeMultiplier(hires_scale / out.scale, &m, &out_exp);
  const int16_t out_mul = RefDownScale(m);
  RefQuantizeMultiplier(hires_scale / (3.0f / 32768.0f), &m, &relu_exp);
  const int16_t relu_mul = RefDownScale(m);
  std::vector<T> y;
  for (T v : x) {
    const int16_t hires = static_cast<int16_t>((v - in.zero_point) * 128);
    const int16_t pre_out = RefSrdhm16(hires, out_mul);
    int16_t r = hires;
    if (relu_exp > 0) r = RefSatShift16(r, relu_exp - 1);
    r = RefSrdhm16(r, relu_mul);
    if (relu_exp > 0) r = RefSatShift16(r, 1);
    if (relu_exp < 0) r = static_cast<int16_t>(RefRoundingDivideByPOT(r, -relu_exp));
    r = static_cast<int16_t>((r + 32768) >> 1);
    const int32_t o = RefRoundingDivideByPOT(RefSdhm16(r, pre_out), -out_exp) + out.zero_point;
    y.push_back(static_cast<T>(std::min<int32_t>(
        std::numeric_limits<T>::max(), std::max<int32_t>(std::numeric_limits<T>::min(), o))));
  }
  return y;
}

template <typename T>
void CheckQuantizedHardSwish(tflite::TensorType type, QParams in, QParams out) {
  CAPTURE(in.scale, in.zero_point, out.scale, out.zero_point);
  std::vector<T> x;
  for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    x.push_back(static_cast<T>(v));
  }
  const int n = static_cast<int>(x.size());
  const auto r =
      RunOp<T>(tflite::BuiltinOperator_HARD_SWISH, {{type, {n}, in.scale, in.zero_point}}, {x},
               {type, {n}, out.scale, out.zero_point});
  CAPTURE(r.errors);
  REQUIRE(r.invoke == kTfLiteOk);
  const auto want = RefQuantizedHardSwish(x, in, out);
  for (int i = 0; i < n; ++i) {
    CAPTURE(i, int(x[i]));
    REQUIRE(int(r.output[i]) == int(want[i]));
    // And it is a hard-swish: within 2 steps of the rounded float result.
    const double f = in.scale * (x[i] - in.zero_point);
    const double q =
        std::round(f * std::min(6.0, std::max(0.0, f + 3)) / 6 / out.scale) + out.zero_point;
    const double clamped = std::min<double>(std::numeric_limits<T>::max(),
                                            std::max<double>(std::numeric_limits<T>::min(), q));
    CHECK(std::abs(r.output[i] - clamped) <= 2);
  }
}

TEST_CASE("HARD_SWISH int8 / uint8 bit-exact over every input value") {
  CheckQuantizedHardSwish<int8_t>(tflite::TensorType_INT8, {0.05f, -10}, {0.04f, -60});
  CheckQuantizedHardSwish<int8_t>(tflite::TensorType_INT8, {0.1f, 0}, {0.06f, -100});
  CheckQuantizedHardSwish<int8_t>(tflite::TensorType_INT8, {0.01f, 20}, {0.02f, 0});
  CheckQuantizedHardSwish<uint8_t>(tflite::TensorType_UINT8, {0.08f, 128}, {0.05f, 30});
  CheckQuantizedHardSwish<uint8_t>(tflite::TensorType_UINT8, {0.3f, 100}, {0.25f, 10});
}

TEST_CASE("HARD_SWISH rejects int16") {
  const auto r =
      RunOp<int16_t>(tflite::BuiltinOperator_HARD_SWISH, {{tflite::TensorType_INT16, {2}, 0.1f, 0}},
                     {}, {tflite::TensorType_INT16, {2}, 0.1f, 0});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
