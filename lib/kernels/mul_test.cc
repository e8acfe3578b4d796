// MUL: goldens, broadcasting up to rank 6, fused activations, int32/int64,
// int8/uint8 bit-exact (including rescale factors >= 1, version 3), int16
// quantized (version 4) and unquantized.
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

OpOptions MulOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::MulOptionsT o;
  o.fused_activation_function = act;
  return Options(o);
}

TEST_CASE("MUL float golden with channel broadcast and RELU_N1_TO_1") {
  const auto r = RunOp<float>(
      tflite::BuiltinOperator_MUL, {{TensorType_FLOAT32, {1, 2, 2}}, {TensorType_FLOAT32, {2}}},
      {{0.5f, 0.5f, -3.0f, 2.0f}, {1.0f, -0.5f}}, {TensorType_FLOAT32, {1, 2, 2}},
      MulOptions(tflite::ActivationFunctionType_RELU_N1_TO_1));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.5f, -0.25f, -1.0f, -1.0f});
}

TEST_CASE("MUL float random broadcasts against double") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU}) {
    CAPTURE(static_cast<int>(act));
    CheckFloatBinaryRandom(
        tflite::BuiltinOperator_MUL, [act] { return MulOptions(act); },
        [act](double a, double b) { return RefActivation(a * b, act); }, 999u + act, 40);
  }
}

TEST_CASE("MUL int32 and int64") {
  const auto r = RunOp<int32_t>(tflite::BuiltinOperator_MUL,
                                {{tflite::TensorType_INT32, {3}}, {tflite::TensorType_INT32, {3}}},
                                {{-4, 7, 1 << 20}, {3, -2, 1 << 11}},
                                {tflite::TensorType_INT32, {3}}, MulOptions());
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<int32_t>{-12, -14, std::numeric_limits<int32_t>::min()});
  const auto r64 =
      RunOp<int64_t>(tflite::BuiltinOperator_MUL,
                     {{tflite::TensorType_INT64, {1}}, {tflite::TensorType_INT64, {1}}},
                     {{int64_t{1} << 40}, {-3}}, {tflite::TensorType_INT64, {1}}, MulOptions());
  REQUIRE(r64.invoke == kTfLiteOk);
  CHECK(r64.output == std::vector<int64_t>{-(int64_t{3} << 40)});
}

TEST_CASE("MUL int8 golden") {
  // 0.5 * 0.5 / 0.25 = 1: out = (a - 1) * (b + 2) + 3.
  const auto r = RunOp<int8_t>(
      tflite::BuiltinOperator_MUL,
      {{tflite::TensorType_INT8, {3}, 0.5f, 1}, {tflite::TensorType_INT8, {3}, 0.5f, -2}},
      {{3, -4, 100}, {2, 3, 100}}, {tflite::TensorType_INT8, {3}, 0.25f, 3}, MulOptions());
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<int8_t>{11, -22, 127});
}

TEST_CASE("MUL int8 and uint8 random bit-exact") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU6}) {
    CAPTURE(static_cast<int>(act));
    CheckQuantizedBinaryRandom<int8_t>(
        tflite::BuiltinOperator_MUL, tflite::TensorType_INT8, [act] { return MulOptions(act); },
        [act](QParams a, QParams b, QParams o) { return RefQuantizedMul<int8_t>(a, b, o, act); },
        31u + act, 30, 0.01f, 0.2f);
    CheckQuantizedBinaryRandom<uint8_t>(
        tflite::BuiltinOperator_MUL, tflite::TensorType_UINT8, [act] { return MulOptions(act); },
        [act](QParams a, QParams b, QParams o) { return RefQuantizedMul<uint8_t>(a, b, o, act); },
        37u + act, 30, 0.01f, 0.2f);
  }
}

TEST_CASE("MUL int16 quantized (version 4) random bit-exact") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU}) {
    CAPTURE(static_cast<int>(act));
    CheckQuantizedBinaryRandom<int16_t>(
        tflite::BuiltinOperator_MUL, tflite::TensorType_INT16, [act] { return MulOptions(act); },
        [act](QParams a, QParams b, QParams o) { return RefQuantizedMul<int16_t>(a, b, o, act); },
        41u + act, 25, 1e-4f, 1e-3f, /*zero_zero_points=*/true, 4);
  }
}

template <typename Out>
void CheckInt16To8Bit(tflite::TensorType out_type, QParams qo, tflite::ActivationFunctionType act,
                      uint32_t seed) {
  CAPTURE(seed, qo.scale, qo.zero_point, static_cast<int>(act));
  std::mt19937 rng(seed);
  const int n = 3000;
  auto a = RandomValues<int16_t>(rng, n, -32768, 32767);
  auto b = RandomValues<int16_t>(rng, n, -32768, 32767);
  a[0] = b[0] = -32768;  // the saturating corner
  ModelBuilder bld;
  QuantSpec q16{{1.0f / 32768}, {0}};
  QuantSpec q8{{qo.scale}, {qo.zero_point}};
  const int x = bld.AddTensor(tflite::TensorType_INT16, {3, n / 3}, "x", &q16);
  const int y = bld.AddTensor(tflite::TensorType_INT16, {3, n / 3}, "y", &q16);
  const int z = bld.AddTensor(out_type, {3, n / 3}, "z", &q8);
  bld.AddOperator(tflite::BuiltinOperator_MUL, {x, y}, {z}, MulOptions(act), 4);
  bld.SetInputs({x, y});
  bld.SetOutputs({z});
  OpTestModel m(bld);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int16_t>(0, a);
  m.SetInput<int16_t>(1, b);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<Out>(0);
  int32_t lo, hi;
  RefQuantizedActivationRange<Out>(act, qo.scale, qo.zero_point, &lo, &hi);
  for (int i = 0; i < n; ++i) {
    int32_t p = (a[i] == -32768 && b[i] == -32768)
                    ? 32767
                    : static_cast<int32_t>((int64_t{a[i]} * b[i] +
                                            (int64_t{a[i]} * b[i] >= 0 ? 1 << 14 : 1 - (1 << 14))) /
                                           (1 << 15));
    const int32_t v = RefRoundingDivideByPOT(p, 8);
    const int32_t want =
        qo.zero_point + std::min(hi - qo.zero_point, std::max(lo - qo.zero_point, v));
    if (got[i] != want) {
      CAPTURE(i, a[i], b[i], int(got[i]), want);
      FAIL("int16 -> 8-bit MUL differs");
    }
  }
}

TEST_CASE("MUL int16 inputs with int8 / uint8 output bit-exact") {
  CheckInt16To8Bit<int8_t>(tflite::TensorType_INT8, {1.0f / 128, 0},
                           tflite::ActivationFunctionType_NONE, 61u);
  CheckInt16To8Bit<int8_t>(tflite::TensorType_INT8, {1.0f / 128, -5},
                           tflite::ActivationFunctionType_RELU, 62u);
  CheckInt16To8Bit<uint8_t>(tflite::TensorType_UINT8, {1.0f / 128, 128},
                            tflite::ActivationFunctionType_NONE, 63u);
  // Broadcasting is not supported on this path (as upstream).
  const auto rb =
      RunOp<int8_t>(tflite::BuiltinOperator_MUL,
                    {{tflite::TensorType_INT16, {2, 2}, 1.0f / 32768, 0},
                     {tflite::TensorType_INT16, {2}, 1.0f / 32768, 0}},
                    {}, {tflite::TensorType_INT8, {2, 2}, 1.0f / 128, 0}, MulOptions(), 4);
  CHECK(rb.prepare == kTfLiteError);
}

TEST_CASE("MUL unquantized int16 wraps, then clamps") {
  const auto r =
      RunOp<int16_t>(tflite::BuiltinOperator_MUL,
                     {{tflite::TensorType_INT16, {3}}, {tflite::TensorType_INT16, {3}}},
                     {{300, -7, 5}, {300, 3, 2}}, {tflite::TensorType_INT16, {3}}, MulOptions());
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<int16_t>{static_cast<int16_t>(90000 - 131072), -21, 10});
}

TEST_CASE("MUL errors: int16 zero points, bool type, version 6 not registered") {
  auto r = RunOp<int16_t>(
      tflite::BuiltinOperator_MUL,
      {{tflite::TensorType_INT16, {2}, 1.0f, 1}, {tflite::TensorType_INT16, {2}, 1.0f, 0}}, {},
      {tflite::TensorType_INT16, {2}, 1.0f, 0}, MulOptions(), 4);
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("zero_point"));
  auto rb = RunOp<uint8_t>(tflite::BuiltinOperator_MUL,
                           {{tflite::TensorType_BOOL, {2}}, {tflite::TensorType_BOOL, {2}}}, {},
                           {tflite::TensorType_BOOL, {2}}, MulOptions());
  CHECK(rb.prepare == kTfLiteError);
  CHECK_THAT(rb.errors, Catch::Contains("Type BOOL (6) not supported."));
  auto r6 = RunOp<float>(tflite::BuiltinOperator_MUL,
                         {{TensorType_FLOAT32, {2}}, {TensorType_FLOAT32, {2}}}, {},
                         {TensorType_FLOAT32, {2}}, MulOptions(), 6);
  CHECK(r6.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
