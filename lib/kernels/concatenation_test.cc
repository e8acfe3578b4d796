// CONCATENATION: goldens, random shapes/axes (incl. negative) against an index
// reference for every supported type, uint8 requantization against an independent
// model of ConcatenationWithScaling, and errors.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

OpOptions ConcatOptions(int axis,
                        tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::ConcatenationOptionsT o;
  o.axis = axis;
  o.fused_activation_function = act;
  return Options(o);
}

TEST_CASE("CONCATENATION float golden on axis 1 and -1") {
  for (int axis : {1, -1}) {
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Const<float>(TensorType_FLOAT32, {2, 1}, {9, 8})},
                       {TensorType_FLOAT32, {2, 3}}, ConcatOptions(axis));
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.shape == std::vector<int>{2, 3});
    CHECK(r.As<float>() == std::vector<float>{1, 2, 9, 3, 4, 8});
  }
}

// Index reference: output element at coordinate c comes from the input whose
// range on `axis` holds c[axis].
template <typename T>
void RandomConcat(tflite::TensorType type, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 20; ++iter) {
    const int rank = 1 + static_cast<int>(rng() % 5);
    const int axis = static_cast<int>(rng() % rank);
    const int n = 1 + static_cast<int>(rng() % 4);
    std::vector<int32_t> base(rank);
    for (auto& d : base) d = 1 + static_cast<int>(rng() % 3);
    std::vector<In> ins;
    std::vector<std::vector<T>> vals;
    std::vector<int32_t> out_shape = base;
    out_shape[axis] = 0;
    for (int i = 0; i < n; ++i) {
      auto s = base;
      s[axis] = static_cast<int>(rng() % 3);  // 0 allowed
      out_shape[axis] += s[axis];
      std::vector<T> v(Count(s));
      for (auto& x : v) x = static_cast<T>(static_cast<int>(rng() % 200) - 100);
      vals.push_back(v);
      ins.push_back(i % 2 ? Const(type, s, v) : Input(type, s, v));
    }
    const int option_axis = (rng() % 2) ? axis - rank : axis;
    CAPTURE(seed, iter, rank, axis, option_axis, n);
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION, ins, {type, out_shape},
                       ConcatOptions(option_axis));
    REQUIRE(r.invoke == kTfLiteOk);
    REQUIRE(r.shape == std::vector<int>(out_shape.begin(), out_shape.end()));
    const auto out = r.template As<T>();
    for (int64_t k = 0; k < Count(out_shape); ++k) {
      auto c = Unravel(k, out_shape);
      int which = 0;
      int pos = c[axis];
      while (pos >= ins[which].shape[axis]) pos -= ins[which++].shape[axis];
      c[axis] = pos;
      const auto st = Strides(ins[which].shape);
      int64_t off = 0;
      for (int d = 0; d < rank; ++d) off += c[d] * st[d];
      REQUIRE(out[k] == vals[which][off]);
    }
  }
}

TEST_CASE("CONCATENATION random shapes and axes, all types") {
  RandomConcat<float>(TensorType_FLOAT32, 11);
  RandomConcat<int32_t>(tflite::TensorType_INT32, 12);
  RandomConcat<int64_t>(tflite::TensorType_INT64, 13);
  RandomConcat<int16_t>(tflite::TensorType_INT16, 14);
  RandomConcat<uint8_t>(TensorType_UINT8, 15);
}

TEST_CASE("CONCATENATION int8 with equal quantization copies") {
  const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                     {Input<int8_t>(TensorType_INT8, {1, 2}, {-128, 5}, 0.1f, 3),
                      Input<int8_t>(TensorType_INT8, {1, 1}, {127}, 0.1f, 3)},
                     {TensorType_INT8, {1, 3}, 0.1f, 3}, ConcatOptions(1));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-128, 5, 127});
}

TEST_CASE("CONCATENATION uint8 requantizes inputs with other scales") {
  // Independent model: q_out = clamp(round((q - zp_in) * s_in / s_out) + zp_out).
  auto model = [](uint8_t q, float s_in, int zp_in, float s_out, int zp_out) {
    const float scale = s_in * (1.f / s_out);
    const float bias = -zp_in * scale;
    const long v = std::lround(q * scale + bias) + zp_out;
    return static_cast<uint8_t>(std::min(255L, std::max(0L, v)));
  };
  std::mt19937 rng(77);
  for (int iter = 0; iter < 30; ++iter) {
    const float s0 = 0.01f + (rng() % 1000) / 500.f, s1 = 0.01f + (rng() % 1000) / 500.f;
    const float so = 0.01f + (rng() % 1000) / 500.f;
    const int z0 = rng() % 256, z1 = rng() % 256, zo = rng() % 256;
    std::vector<uint8_t> a(6), b(3);
    for (auto& x : a) x = rng() % 256;
    for (auto& x : b) x = rng() % 256;
    CAPTURE(iter, s0, s1, so, z0, z1, zo);
    const auto r = Run(
        tflite::BuiltinOperator_CONCATENATION,
        {Input(TensorType_UINT8, {3, 2}, a, s0, z0), Input(TensorType_UINT8, {3, 1}, b, s1, z1)},
        {TensorType_UINT8, {3, 3}, so, zo}, ConcatOptions(1));
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<uint8_t>();
    for (int row = 0; row < 3; ++row) {
      CHECK(out[row * 3 + 0] == model(a[row * 2 + 0], s0, z0, so, zo));
      CHECK(out[row * 3 + 1] == model(a[row * 2 + 1], s0, z0, so, zo));
      CHECK(out[row * 3 + 2] == model(b[row], s1, z1, so, zo));
    }
  }
}

TEST_CASE("CONCATENATION errors") {
  SECTION("int8 inputs with different scales are rejected, as upstream") {
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                       {Input<int8_t>(TensorType_INT8, {1, 1}, {1}, 0.1f, 0),
                        Input<int8_t>(TensorType_INT8, {1, 1}, {1}, 0.2f, 0)},
                       {TensorType_INT8, {1, 2}, 0.1f, 0}, ConcatOptions(1));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("mismatched non-axis dimension") {
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4}),
                        Input<float>(TensorType_FLOAT32, {3, 1}, {1, 2, 3})},
                       {TensorType_FLOAT32, {2, 3}}, ConcatOptions(1));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("CONCATENATION"));
  }
  SECTION("axis out of range") {
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                       {Input<float>(TensorType_FLOAT32, {2, 2}, {1, 2, 3, 4})},
                       {TensorType_FLOAT32, {2, 2}}, ConcatOptions(2));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("mixed input types") {
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                       {Input<float>(TensorType_FLOAT32, {1, 1}, {1}),
                        Input<int32_t>(tflite::TensorType_INT32, {1, 1}, {1})},
                       {TensorType_FLOAT32, {1, 2}}, ConcatOptions(1));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("fused activation") {
    const auto r =
        Run(tflite::BuiltinOperator_CONCATENATION, {Input<float>(TensorType_FLOAT32, {1, 1}, {1})},
            {TensorType_FLOAT32, {1, 1}}, ConcatOptions(0, tflite::ActivationFunctionType_RELU));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("unsupported type") {
    const auto r = Run(tflite::BuiltinOperator_CONCATENATION,
                       {Input<uint16_t>(tflite::TensorType_FLOAT16, {1, 1}, {1})},
                       {tflite::TensorType_FLOAT16, {1, 1}}, ConcatOptions(0));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
