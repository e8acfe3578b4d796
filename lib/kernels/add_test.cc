// ADD: goldens, broadcasting up to rank 6, fused activations, int32/int64,
// int8/uint8/int16 (general and pot_scale_int16) bit-exact against an
// independent integer model and TFLite Micro's seanet reference goldens, errors.
#include <cmath>
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

OpOptions AddOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::AddOptionsT o;
  o.fused_activation_function = act;
  return Options(o);
}

TEST_CASE("ADD float golden with broadcast and RELU6") {
  const auto r = RunOp<float>(
      tflite::BuiltinOperator_ADD, {{TensorType_FLOAT32, {2, 3}}, {TensorType_FLOAT32, {3}}},
      {{-2.0f, 0.5f, 3.0f, 4.0f, 5.0f, 6.0f}, {1.0f, 2.0f, 3.0f}}, {TensorType_FLOAT32, {2, 3}},
      AddOptions(tflite::ActivationFunctionType_RELU6));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.0f, 2.5f, 6.0f, 5.0f, 6.0f, 6.0f});
  CHECK(r.shape == std::vector<int>{2, 3});
}

TEST_CASE("ADD float: column vector plus row vector gives a matrix") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_ADD,
                              {{TensorType_FLOAT32, {2, 1}}, {TensorType_FLOAT32, {1, 3}}},
                              {{10, 20}, {1, 2, 3}}, {TensorType_FLOAT32, {2, 3}}, AddOptions());
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{11, 12, 13, 21, 22, 23});
}

TEST_CASE("ADD float random broadcasts against double") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU,
                   tflite::ActivationFunctionType_RELU_N1_TO_1}) {
    CAPTURE(static_cast<int>(act));
    CheckFloatBinaryRandom(
        tflite::BuiltinOperator_ADD, [act] { return AddOptions(act); },
        [act](double a, double b) { return RefActivation(a + b, act); }, 1234u + act, 40);
  }
}

TEST_CASE("ADD int32 and int64 with activation") {
  const auto r = RunOp<int32_t>(tflite::BuiltinOperator_ADD,
                                {{tflite::TensorType_INT32, {4}}, {tflite::TensorType_INT32, {1}}},
                                {{-5, 1, 3, 100}, {2}}, {tflite::TensorType_INT32, {4}},
                                AddOptions(tflite::ActivationFunctionType_RELU6));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<int32_t>{0, 3, 5, 6});
  const auto r64 = RunOp<int64_t>(
      tflite::BuiltinOperator_ADD,
      {{tflite::TensorType_INT64, {2}}, {tflite::TensorType_INT64, {2}}},
      {{int64_t{1} << 40, -7}, {1, 7}}, {tflite::TensorType_INT64, {2}}, AddOptions());
  REQUIRE(r64.invoke == kTfLiteOk);
  CHECK(r64.output == std::vector<int64_t>{(int64_t{1} << 40) + 1, 0});
}

TEST_CASE("ADD int8 golden") {
  // Scales 0.5 / 0.25 -> out 0.5: (4 - 0) * 0.5 + (8 - 0) * 0.25 = 4 -> q 8 + zp 1.
  const auto r = RunOp<int8_t>(
      tflite::BuiltinOperator_ADD,
      {{tflite::TensorType_INT8, {3}, 0.5f, 0}, {tflite::TensorType_INT8, {3}, 0.25f, 0}},
      {{4, -10, 127}, {8, 3, 127}}, {tflite::TensorType_INT8, {3}, 0.5f, 1}, AddOptions());
  REQUIRE(r.invoke == kTfLiteOk);
  // -10*0.5 + 3*0.25 = -4.25 -> -8.5 rounds away from zero to -9, + 1 = -8.
  CHECK(r.output == std::vector<int8_t>{9, -8, 127});
}

TEST_CASE("ADD int8 and uint8 random bit-exact") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU,
                   tflite::ActivationFunctionType_RELU6}) {
    CAPTURE(static_cast<int>(act));
    auto make_ref8 = [act](QParams a, QParams b, QParams o) {
      return RefQuantizedAddSub<int8_t>(a, b, o, act, false);
    };
    CheckQuantizedBinaryRandom<int8_t>(
        tflite::BuiltinOperator_ADD, tflite::TensorType_INT8, [act] { return AddOptions(act); },
        make_ref8, 77u + act, 25);
    auto make_refu8 = [act](QParams a, QParams b, QParams o) {
      return RefQuantizedAddSub<uint8_t>(a, b, o, act, false);
    };
    CheckQuantizedBinaryRandom<uint8_t>(
        tflite::BuiltinOperator_ADD, tflite::TensorType_UINT8, [act] { return AddOptions(act); },
        make_refu8, 99u + act, 25);
  }
}

TEST_CASE("ADD errors: type mismatch, unsupported type, bad broadcast, rank 7") {
  auto r = RunOp<float>(tflite::BuiltinOperator_ADD,
                        {{TensorType_FLOAT32, {2}}, {tflite::TensorType_INT32, {2}}}, {},
                        {TensorType_FLOAT32, {2}}, AddOptions());
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("failed to prepare"));

  auto rb = RunOp<uint8_t>(tflite::BuiltinOperator_ADD,
                           {{tflite::TensorType_BOOL, {2}}, {tflite::TensorType_BOOL, {2}}}, {},
                           {tflite::TensorType_BOOL, {2}}, AddOptions());
  CHECK(rb.prepare == kTfLiteError);
  CHECK_THAT(rb.errors, Catch::Contains("Type BOOL (6) not supported."));

  auto rs = RunOp<float>(tflite::BuiltinOperator_ADD,
                         {{TensorType_FLOAT32, {2, 3}}, {TensorType_FLOAT32, {2}}}, {},
                         {TensorType_FLOAT32, {2, 3}}, AddOptions());
  CHECK(rs.prepare == kTfLiteError);

  auto r7 = RunOp<float>(tflite::BuiltinOperator_ADD,
                         {{TensorType_FLOAT32, {1, 1, 1, 1, 1, 1, 2}}, {TensorType_FLOAT32, {2}}},
                         {}, {TensorType_FLOAT32, {1, 1, 1, 1, 1, 1, 2}}, AddOptions());
  CHECK(r7.prepare == kTfLiteError);
  CHECK_THAT(r7.errors, Catch::Contains("at most 6"));

  // One input only.
  ModelBuilder b;
  int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  int y = b.AddTensor(TensorType_FLOAT32, {2}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x}, {y}, AddOptions());
  b.SetInputs({x});
  b.SetOutputs({y});
  OpTestModel m(b);
  CHECK(m.Prepare() == kTfLiteError);
  CHECK_THAT(m.errors(), Catch::Contains("ADD"));
}

OpOptions AddPotOptions(bool pot,
                        tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::AddOptionsT o;
  o.fused_activation_function = act;
  o.pot_scale_int16 = pot;
  return Options(o);
}

TEST_CASE("ADD int16 general scale (version 3) random bit-exact") {
  for (auto act : {tflite::ActivationFunctionType_NONE, tflite::ActivationFunctionType_RELU}) {
    CAPTURE(static_cast<int>(act));
    CheckQuantizedBinaryRandom<int16_t>(
        tflite::BuiltinOperator_ADD, tflite::TensorType_INT16,
        [act] { return AddPotOptions(false, act); },
        [act](QParams a, QParams b, QParams o) {
          return RefQuantizedAddSub<int16_t>(a, b, o, act, false, 15);
        },
        501u + act, 25, 1e-4f, 1e-3f, /*zero_zero_points=*/true, 3);
  }
}

TEST_CASE("ADD int16 pot_scale_int16 path bit-exact") {
  std::mt19937 rng(502u);
  CAPTURE(502u);
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
          tflite::BuiltinOperator_ADD,
          {{tflite::TensorType_INT16, {n}, s1, 0}, {tflite::TensorType_INT16, {n}, s2, 0}}, {a, b},
          {tflite::TensorType_INT16, {n}, coarse, 0},
          AddPotOptions(true, tflite::ActivationFunctionType_RELU), 1);
      CAPTURE(r.errors);
      REQUIRE(r.invoke == kTfLiteOk);
      for (int i = 0; i < n; ++i) {
        const int32_t x = RefRoundingDivideByPOT(a[i], shift_first ? shift : 0);
        const int32_t y = RefRoundingDivideByPOT(b[i], shift_first ? 0 : shift);
        const int32_t want = std::min(32767, std::max(0, x + y));
        REQUIRE(r.output[i] == want);
      }
    }
  }
}

TEST_CASE("ADD unquantized int16 (version 5) wraps, then clamps") {
  const auto r = RunOp<int16_t>(tflite::BuiltinOperator_ADD,
                                {{tflite::TensorType_INT16, {3}}, {tflite::TensorType_INT16, {3}}},
                                {{30000, -5, 7}, {10000, 2, -9}}, {tflite::TensorType_INT16, {3}},
                                AddOptions(tflite::ActivationFunctionType_NONE), 5);
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<int16_t>{static_cast<int16_t>(40000 - 65536), -3, -2});
  const auto r6 = RunOp<int16_t>(tflite::BuiltinOperator_ADD,
                                 {{tflite::TensorType_INT16, {2}}, {tflite::TensorType_INT16, {2}}},
                                 {{3, 9}, {1, 1}}, {tflite::TensorType_INT16, {2}},
                                 AddOptions(tflite::ActivationFunctionType_RELU6), 5);
  REQUIRE(r6.invoke == kTfLiteOk);
  CHECK(r6.output == std::vector<int16_t>{4, 6});
}

TEST_CASE("ADD quantized int16 needs zero points 0") {
  const auto r = RunOp<int16_t>(
      tflite::BuiltinOperator_ADD,
      {{tflite::TensorType_INT16, {2}, 0.001f, 3}, {tflite::TensorType_INT16, {2}, 0.001f, 0}}, {},
      {tflite::TensorType_INT16, {2}, 0.001f, 0}, AddOptions(), 3);
  CHECK(r.prepare == kTfLiteError);
  CHECK_THAT(r.errors, Catch::Contains("zero_point"));
}

TEST_CASE("ADD int16 seanet models match TFLite's reference goldens exactly", "[real]") {
  CheckSeanetModels("add", "add", 2);
}

}  // namespace
}  // namespace tflite_inspect
