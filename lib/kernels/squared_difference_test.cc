// SQUARED_DIFFERENCE: golden, random float broadcasts, int32, and int8
// random broadcasts bit-exact against an independent integer model.
#include <algorithm>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

TEST_CASE("SQUARED_DIFFERENCE float golden and int32") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_SQUARED_DIFFERENCE,
                              {{TensorType_FLOAT32, {3}}, {TensorType_FLOAT32, {1}}},
                              {{1.0f, -2.0f, 0.5f}, {1.0f}}, {TensorType_FLOAT32, {3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{0.0f, 9.0f, 0.25f});
  const auto ri = RunOp<int32_t>(tflite::BuiltinOperator_SQUARED_DIFFERENCE,
                                 {{tflite::TensorType_INT32, {2}}, {tflite::TensorType_INT32, {2}}},
                                 {{5, -3}, {-2, 4}}, {tflite::TensorType_INT32, {2}});
  REQUIRE(ri.invoke == kTfLiteOk);
  CHECK(ri.output == std::vector<int32_t>{49, 49});
}

TEST_CASE("SQUARED_DIFFERENCE float random broadcasts against double") {
  CheckFloatBinaryRandom(
      tflite::BuiltinOperator_SQUARED_DIFFERENCE, [] { return OpOptions{}; },
      [](double a, double b) { return (a - b) * (a - b); }, 5150u, 40);
}

// int8 as squared_difference.cc Prepare + its SquaredDifference define it.
class RefQuantizedSquaredDifference {
 public:
  RefQuantizedSquaredDifference(QParams in1, QParams in2, QParams out)
      : in1_(in1), in2_(in2), out_(out) {
    const double twice = 2 * std::max(in1.scale, in2.scale);
    RefQuantizeMultiplier(in1.scale / twice, &m1_, &s1_);
    RefQuantizeMultiplier(in2.scale / twice, &m2_, &s2_);
    RefQuantizeMultiplier(twice * twice / ((1 << 14) * out.scale), &mo_, &so_);
  }
  int8_t operator()(int8_t a, int8_t b) const {
    const int32_t d = RefMultiply((a - in1_.zero_point) * 128, m1_, s1_) -
                      RefMultiply((b - in2_.zero_point) * 128, m2_, s2_);
    const int32_t o = RefMultiply(d * d, mo_, so_) + out_.zero_point;
    return static_cast<int8_t>(std::min(127, std::max(-128, o)));
  }

 private:
  QParams in1_, in2_, out_;
  int32_t m1_, m2_, mo_;
  int s1_, s2_, so_;
};

TEST_CASE("SQUARED_DIFFERENCE int8 (version 2) random bit-exact") {
  // Output scales large enough for squares of input differences.
  std::mt19937 rng(5152u);
  CAPTURE(5152u);
  for (int c = 0; c < 20; ++c) {
    const BroadcastCase bc = RandomBroadcastCase(rng);
    const QParams q1{0.02f + 0.001f * c, c - 10}, q2{0.03f, 5 - c}, qo{0.5f + 0.1f * c, -100 + c};
    auto a = RandomValues<int8_t>(rng, NumElements(bc.a), -128, 127);
    auto b = RandomValues<int8_t>(rng, NumElements(bc.b), -128, 127);
    const auto r =
        RunOp<int8_t>(tflite::BuiltinOperator_SQUARED_DIFFERENCE,
                      {{tflite::TensorType_INT8, bc.a, q1.scale, q1.zero_point},
                       {tflite::TensorType_INT8, bc.b, q2.scale, q2.zero_point}},
                      {a, b}, {tflite::TensorType_INT8, bc.out, qo.scale, qo.zero_point}, {}, 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const RefQuantizedSquaredDifference ref(q1, q2, qo);
    for (int64_t i = 0; i < NumElements(bc.out); ++i) {
      const int8_t x = a[BroadcastIndex(bc.a, bc.out, i)];
      const int8_t y = b[BroadcastIndex(bc.b, bc.out, i)];
      REQUIRE(int(r.output[i]) == int(ref(x, y)));
    }
  }
}

TEST_CASE("SQUARED_DIFFERENCE rejects uint8") {
  const auto r = RunOp<uint8_t>(
      tflite::BuiltinOperator_SQUARED_DIFFERENCE,
      {{tflite::TensorType_UINT8, {2}, 1.0f, 0}, {tflite::TensorType_UINT8, {2}, 1.0f, 0}}, {},
      {tflite::TensorType_UINT8, {2}, 1.0f, 0});
  CHECK(r.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
