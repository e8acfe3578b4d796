// SUB: goldens, broadcasting up to rank 6, fused activations, int32/int64,
// int8/uint8/int16 (general and pot_scale_int16) bit-exact against an
// independent integer model.
#include <cmath>
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

OpOptions SubOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::SubOptionsT o;
  o.fused_activation_function = act;
  return Options(o);
}

TEST_CASE("SUB float golden, scalar operand, RELU") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_SUB,
                              {{TensorType_FLOAT32, {1}}, {TensorType_FLOAT32, {2, 2}}},
                              {{1.0f}, {-1.0f, 0.5f, 1.0f, 3.0f}}, {TensorType_FLOAT32, {2, 2}},
                              SubOptions(tflite::ActivationFunctionType_RELU));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{2.0f, 0.5f, 0.0f, 0.0f});
}

TEST_CASE("SUB float random broadcasts against double") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU6}) {
    CAPTURE(static_cast<int>(act));
    CheckFloatBinaryRandom(
        tflite::BuiltinOperator_SUB, [act] { return SubOptions(act); },
        [act](double a, double b) { return RefActivation(a - b, act); }, 4321u + act, 40);
  }
}

TEST_CASE("SUB int32 and int64 wrap instead of overflowing") {
  const int32_t min32 = std::numeric_limits<int32_t>::min();
  const auto r =
      RunOp<int32_t>(tflite::BuiltinOperator_SUB,
                     {{tflite::TensorType_INT32, {3}}, {tflite::TensorType_INT32, {3}}},
                     {{5, min32, 0}, {7, 1, -3}}, {tflite::TensorType_INT32, {3}}, SubOptions());
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<int32_t>{-2, std::numeric_limits<int32_t>::max(), 3});
  const auto r64 = RunOp<int64_t>(
      tflite::BuiltinOperator_SUB,
      {{tflite::TensorType_INT64, {2}}, {tflite::TensorType_INT64, {1}}},
      {{int64_t{1} << 40, 0}, {1}}, {tflite::TensorType_INT64, {2}}, SubOptions(), 4);
  REQUIRE(r64.invoke == kTfLiteOk);
  CHECK(r64.output == std::vector<int64_t>{(int64_t{1} << 40) - 1, -1});
}

TEST_CASE("SUB int8 and uint8 random bit-exact") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU,
                   tflite::ActivationFunctionType_RELU_N1_TO_1}) {
    CAPTURE(static_cast<int>(act));
    CheckQuantizedBinaryRandom<int8_t>(
        tflite::BuiltinOperator_SUB, tflite::TensorType_INT8, [act] { return SubOptions(act); },
        [act](QParams a, QParams b, QParams o) {
          return RefQuantizedAddSub<int8_t>(a, b, o, act, true);
        },
        55u + act, 25);
    CheckQuantizedBinaryRandom<uint8_t>(
        tflite::BuiltinOperator_SUB, tflite::TensorType_UINT8, [act] { return SubOptions(act); },
        [act](QParams a, QParams b, QParams o) {
          return RefQuantizedAddSub<uint8_t>(a, b, o, act, true);
        },
        66u + act, 25);
  }
}

TEST_CASE("SUB errors: output type differs, version 6 not registered") {
  auto r = RunOp<float>(tflite::BuiltinOperator_SUB,
                        {{TensorType_FLOAT32, {2}}, {TensorType_FLOAT32, {2}}}, {},
                        {tflite::TensorType_INT32, {2}}, SubOptions());
  CHECK(r.prepare == kTfLiteError);
  auto r5 = RunOp<float>(tflite::BuiltinOperator_SUB,
                         {{TensorType_FLOAT32, {2}}, {TensorType_FLOAT32, {2}}}, {},
                         {TensorType_FLOAT32, {2}}, SubOptions(), 6);
  CHECK(r5.prepare == kTfLiteError);
  CHECK_THAT(r5.errors, Catch::Contains("SUB"));
}

OpOptions SubPotOptions(bool pot,
                        tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::SubOptionsT o;
  o.fused_activation_function = act;
  o.pot_scale_int16 = pot;
  return Options(o);
}

TEST_CASE("SUB int16 general scale (version 5) random bit-exact") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU}) {
    CAPTURE(static_cast<int>(act));
    CheckQuantizedBinaryRandom<int16_t>(
        tflite::BuiltinOperator_SUB, tflite::TensorType_INT16,
        [act] { return SubPotOptions(false, act); },
        [act](QParams a, QParams b, QParams o) {
          return RefQuantizedAddSub<int16_t>(a, b, o, act, true, 15);
        },
        601u + act, 25, 1e-4f, 1e-3f, /*zero_zero_points=*/false, 5);
  }
}

TEST_CASE("SUB int16 pot_scale_int16 path bit-exact") {
  std::mt19937 rng(602u);
  CAPTURE(602u);
  const int n = 64;
  for (int shift : {0, 1, 3, 7}) {
    for (bool shift_first : {false, true}) {
      CAPTURE(shift, shift_first);
      // The shifted input has the finer scale 2^(-10 - shift); output 2^-10.
      const float fine = std::ldexp(1.0f, -10 - shift);
      const float coarse = std::ldexp(1.0f, -10);
      const float s1 = shift_first ? fine : coarse;
      const float s2 = shift_first ? coarse : fine;
      auto a = RandomValues<int16_t>(rng, n, -32768, 32767);
      auto b = RandomValues<int16_t>(rng, n, -32768, 32767);
      const auto r = RunOp<int16_t>(
          tflite::BuiltinOperator_SUB,
          {{tflite::TensorType_INT16, {n}, s1, 0}, {tflite::TensorType_INT16, {n}, s2, 0}}, {a, b},
          {tflite::TensorType_INT16, {n}, coarse, 0},
          SubPotOptions(true, tflite::ActivationFunctionType_RELU), 1);
      CAPTURE(r.errors);
      REQUIRE(r.invoke == kTfLiteOk);
      for (int i = 0; i < n; ++i) {
        const int32_t x = RefRoundingDivideByPOT(a[i], shift_first ? shift : 0);
        const int32_t y = RefRoundingDivideByPOT(b[i], shift_first ? 0 : shift);
        const int32_t want = std::min(32767, std::max(0, x - y));
        REQUIRE(r.output[i] == want);
      }
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
