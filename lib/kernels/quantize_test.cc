// QUANTIZE: float -> uint8/int8/int16 goldens (round half away from zero, clamp),
// random float inputs against the definition, int8/uint8/int16/int32 requantization
// bit-exact against an independent integer model, and errors.
#include <algorithm>
#include <cmath>
#include <limits>
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

TEST_CASE("QUANTIZE float to int8 golden: ties away from zero, clamping") {
  const auto r =
      Run(tflite::BuiltinOperator_QUANTIZE,
          {Input<float>(TensorType_FLOAT32, {6}, {0.25f, -0.25f, 0.75f, 100.f, -100.f, 0.f})},
          {TensorType_INT8, {6}, 0.5f, 1});
  REQUIRE(r.invoke == kTfLiteOk);
  // 0.5 -> 1 (+1 = 2), -0.5 -> -1 (+1 = 0), 1.5 -> 2 (+1 = 3), clamps, 0 -> zp.
  CHECK(r.As<int8_t>() == std::vector<int8_t>{2, 0, 3, 127, -128, 1});
}

template <typename T>
void RandomFloatQuantize(tflite::TensorType type, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 20; ++iter) {
    const float scale = std::exp(std::uniform_real_distribution<float>(-6, 2)(rng));
    const int zp = std::is_same<T, int16_t>::value
                       ? 0
                       : std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                            std::numeric_limits<T>::max())(rng);
    std::vector<float> in(64);
    for (auto& x : in) x = std::uniform_real_distribution<float>(-300 * scale, 300 * scale)(rng);
    in[0] = 0.5f * scale;  // an exact tie
    in[1] = -2.5f * scale;
    CAPTURE(seed, iter, scale, zp);
    const auto r = Run(tflite::BuiltinOperator_QUANTIZE, {Input(TensorType_FLOAT32, {64}, in)},
                       {type, {64}, scale, zp});
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.template As<T>();
    for (size_t i = 0; i < in.size(); ++i) {
      const long q = std::lround(in[i] / scale) + zp;
      const long expected = std::min<long>(std::max<long>(q, std::numeric_limits<T>::min()),
                                           std::numeric_limits<T>::max());
      REQUIRE(static_cast<long>(out[i]) == expected);
    }
  }
}

TEST_CASE("QUANTIZE float random to uint8, int8, int16") {
  RandomFloatQuantize<uint8_t>(TensorType_UINT8, 71);
  RandomFloatQuantize<int8_t>(TensorType_INT8, 72);
  RandomFloatQuantize<int16_t>(tflite::TensorType_INT16, 73);
}

template <typename In, typename Out>
void RandomRequantize(tflite::TensorType in_type, tflite::TensorType out_type, uint32_t seed) {
  std::mt19937 rng(seed);
  const bool sym = std::is_same<In, int16_t>::value && std::is_same<Out, int16_t>::value;
  for (int iter = 0; iter < 30; ++iter) {
    const float in_scale = std::exp(std::uniform_real_distribution<float>(-5, 1)(rng));
    const float out_scale = in_scale * std::exp(std::uniform_real_distribution<float>(-3, 3)(rng));
    auto zp_for = [&](bool wide) {
      return wide || sym
                 ? 0
                 : static_cast<int>(rng() % 256) - (std::is_same<In, uint8_t>::value ? 0 : 128);
    };
    const int in_zp =
        std::is_same<In, uint8_t>::value ? static_cast<int>(rng() % 256) : zp_for(sizeof(In) > 1);
    const int out_zp =
        std::is_same<Out, uint8_t>::value ? static_cast<int>(rng() % 256) : zp_for(sizeof(Out) > 1);
    std::vector<In> in(64);
    // int32 inputs stay within +-2^20 so that the reference needs no wrap-around.
    const int lo = std::max<int64_t>(std::numeric_limits<In>::min(), -(1 << 20));
    const int hi = std::min<int64_t>(std::numeric_limits<In>::max(), 1 << 20);
    for (auto& x : in) x = static_cast<In>(std::uniform_int_distribution<int>(lo, hi)(rng));
    CAPTURE(seed, iter, in_scale, out_scale, in_zp, out_zp);
    const auto r =
        Run(tflite::BuiltinOperator_QUANTIZE, {Input(in_type, {64}, in, in_scale, in_zp)},
            {out_type, {64}, out_scale, out_zp});
    REQUIRE(r.invoke == kTfLiteOk);
    int32_t q;
    int shift;
    RefQuantizeMultiplier(static_cast<double>(in_scale) / static_cast<double>(out_scale), &q,
                          &shift);
    const auto out = r.template As<Out>();
    for (size_t i = 0; i < in.size(); ++i) {
      int32_t v = RefMultiply(static_cast<int32_t>(in[i]) - in_zp, q, shift) + out_zp;
      v = std::min<int32_t>(std::max<int32_t>(v, std::numeric_limits<Out>::min()),
                            std::numeric_limits<Out>::max());
      REQUIRE(static_cast<int32_t>(out[i]) == v);
    }
  }
}

TEST_CASE("QUANTIZE requantization bit-exact") {
  RandomRequantize<int8_t, int8_t>(TensorType_INT8, TensorType_INT8, 81);
  RandomRequantize<uint8_t, int8_t>(TensorType_UINT8, TensorType_INT8, 82);
  RandomRequantize<int8_t, uint8_t>(TensorType_INT8, TensorType_UINT8, 83);
  RandomRequantize<int16_t, int16_t>(tflite::TensorType_INT16, tflite::TensorType_INT16, 84);
  RandomRequantize<int16_t, int8_t>(tflite::TensorType_INT16, TensorType_INT8, 85);
  RandomRequantize<int16_t, int32_t>(tflite::TensorType_INT16, tflite::TensorType_INT32, 86);
  RandomRequantize<int32_t, int8_t>(tflite::TensorType_INT32, TensorType_INT8, 87);
  RandomRequantize<int32_t, int16_t>(tflite::TensorType_INT32, tflite::TensorType_INT16, 88);
}

TEST_CASE("QUANTIZE uint8 <-> int8 with zero points 128 apart is a sign flip") {
  const auto r = Run(tflite::BuiltinOperator_QUANTIZE,
                     {Input<uint8_t>(TensorType_UINT8, {4}, {0, 127, 128, 255}, 0.1f, 128)},
                     {TensorType_INT8, {4}, 0.1f, 0});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-128, -1, 0, 127});
}

TEST_CASE("QUANTIZE errors") {
  SECTION("float output") {
    const auto r =
        Run(tflite::BuiltinOperator_QUANTIZE, {Input<float>(TensorType_FLOAT32, {1}, {1})},
            {TensorType_FLOAT32, {1}, 0.5f, 0});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("QUANTIZE"));
  }
  SECTION("output without quantization") {
    const auto r = Run(tflite::BuiltinOperator_QUANTIZE,
                       {Input<float>(TensorType_FLOAT32, {1}, {1})}, {TensorType_INT8, {1}});
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("int64 input") {
    const auto r = Run(tflite::BuiltinOperator_QUANTIZE,
                       {Input<int64_t>(tflite::TensorType_INT64, {1}, {1}, 0.5f, 0)},
                       {TensorType_INT8, {1}, 0.5f, 0});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
