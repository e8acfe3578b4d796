// PRELU: float golden with per-channel alpha (the MediaPipe layout), random
// broadcasts against double, int8 / uint8 bit-exact against an independent
// integer model, errors.
#include <limits>

#include "catch2/catch.hpp"
#include "kernels/testing/elementwise_test_util.h"

namespace tflite_inspect {
namespace {

using namespace ew_test;  // NOLINT
using tflite::TensorType_FLOAT32;

TEST_CASE("PRELU float golden, per-channel alpha [1, 1, C]") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_PRELU,
                              {{TensorType_FLOAT32, {1, 2, 1, 3}}, {TensorType_FLOAT32, {1, 1, 3}}},
                              {{-1.0f, -2.0f, 3.0f, 4.0f, -5.0f, -6.0f}, {0.5f, 0.25f, 2.0f}},
                              {TensorType_FLOAT32, {1, 2, 1, 3}});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.output == std::vector<float>{-0.5f, -0.5f, 3.0f, 4.0f, -1.25f, -12.0f});
}

TEST_CASE("PRELU with a constant alpha tensor") {
  ModelBuilder b;
  const int x = b.AddTensor(TensorType_FLOAT32, {2, 2}, "x");
  const int a = b.AddConstTensor<float>(TensorType_FLOAT32, {2}, {0.1f, 0.2f}, "alpha");
  const int y = b.AddTensor(TensorType_FLOAT32, {2, 2}, "y");
  b.AddOperator(tflite::BuiltinOperator_PRELU, {x, a}, {y});
  b.SetInputs({x});
  b.SetOutputs({y});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {-10.0f, -10.0f, 1.0f, 2.0f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{-1.0f, -2.0f, 1.0f, 2.0f});
}

TEST_CASE("PRELU float random broadcasts against double") {
  CheckFloatBinaryRandom(
      tflite::BuiltinOperator_PRELU, [] { return OpOptions{}; },
      [](double x, double a) { return x >= 0 ? x : x * a; }, 777u, 40);
}

// PRELU as prelu.cc Prepare + reference BroadcastPrelu4DSlow define it.
template <typename T>
class RefPrelu {
 public:
  RefPrelu(QParams in, QParams alpha, QParams out) : in_(in), alpha_(alpha), out_(out) {
    RefQuantizeMultiplier(static_cast<float>(in.scale / out.scale), &m1_, &s1_);
    RefQuantizeMultiplier(static_cast<float>(in.scale * alpha.scale / out.scale), &m2_, &s2_);
  }
  T operator()(T x, T a) const {
    const int32_t v = x - in_.zero_point;
    const int32_t o =
        out_.zero_point +
        (v >= 0 ? RefMultiply(v, m1_, s1_) : RefMultiply(v * (a - alpha_.zero_point), m2_, s2_));
    return static_cast<T>(std::min<int32_t>(std::numeric_limits<T>::max(),
                                            std::max<int32_t>(std::numeric_limits<T>::min(), o)));
  }

 private:
  QParams in_, alpha_, out_;
  int32_t m1_, m2_;
  int s1_, s2_;
};

TEST_CASE("PRELU int8 / uint8 random bit-exact") {
  CheckQuantizedBinaryRandom<int8_t>(
      tflite::BuiltinOperator_PRELU, tflite::TensorType_INT8, [] { return OpOptions{}; },
      [](QParams a, QParams b, QParams o) { return RefPrelu<int8_t>(a, b, o); }, 88u, 30);
  CheckQuantizedBinaryRandom<uint8_t>(
      tflite::BuiltinOperator_PRELU, tflite::TensorType_UINT8, [] { return OpOptions{}; },
      [](QParams a, QParams b, QParams o) { return RefPrelu<uint8_t>(a, b, o); }, 89u, 30);
}

TEST_CASE("PRELU errors: alpha type differs, alpha not broadcastable") {
  const auto r = RunOp<float>(tflite::BuiltinOperator_PRELU,
                              {{TensorType_FLOAT32, {2}}, {tflite::TensorType_INT32, {2}}}, {},
                              {TensorType_FLOAT32, {2}});
  CHECK(r.prepare == kTfLiteError);
  const auto rs = RunOp<float>(tflite::BuiltinOperator_PRELU,
                               {{TensorType_FLOAT32, {2, 3}}, {TensorType_FLOAT32, {2}}}, {},
                               {TensorType_FLOAT32, {2, 3}});
  CHECK(rs.prepare == kTfLiteError);
}

}  // namespace
}  // namespace tflite_inspect
