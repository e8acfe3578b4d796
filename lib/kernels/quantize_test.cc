// QUANTIZE: float -> uint8/int8/int16 goldens (round half away from zero, clamp),
// random float inputs against the definition, per-channel outputs (version 3),
// int8/uint8/int16/int32 requantization bit-exact against an independent integer model,
// and errors.
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

TEST_CASE("QUANTIZE float: NaN, infinities and huge values saturate, in the vector loop and its tail") {
  // 19 values: two 8-value vector blocks and a scalar tail, each holding every case.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {nan, inf, -inf, 3e9f,  -3e9f, 2.5f, -2.5f, 1e30f, 0.f, nan,
                                 inf, -inf, 3e9f, -3e9f, 2.5f, -2.5f, nan,   inf,  -2.5f};
  const auto r = Run(tflite::BuiltinOperator_QUANTIZE, {Input(TensorType_FLOAT32, {19}, in)},
                     {TensorType_INT8, {19}, 1.0f, 2});
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-128, 127, -128, 127, -128, 5, -1, 127, 2, -128,
                                              127, -128, 127, -128, 5, -1, -128, 127, -1});
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
                 : static_cast<int>(rng() % 256) - 128;  // an int8 zero point
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
  RandomRequantize<uint8_t, uint8_t>(TensorType_UINT8, TensorType_UINT8, 89);
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

// Float input, per-channel output along `dim` (version 3).
template <typename Out>
OpRun RunPerChannel(tflite::TensorType type, const std::vector<int32_t>& shape,
                    const std::vector<float>& in, const QuantSpec& q,
                    tflite::TensorType in_type = TensorType_FLOAT32) {
  ModelBuilder b;
  QuantSpec in_q{{0.5f}, {0}, 0};
  const int x =
      b.AddTensor(in_type, shape, "in", in_type == TensorType_FLOAT32 ? nullptr : &in_q);
  const int y = b.AddTensor(type, shape, "out", &q);
  b.AddOperator(tflite::BuiltinOperator_QUANTIZE, {x}, {y}, {}, 3);
  b.SetInputs({x});
  b.SetOutputs({y});
  OpTestModel m(b);
  OpRun r;
  r.prepare = m.Prepare();
  r.errors = m.errors();
  if (r.prepare != kTfLiteOk) return r;
  if (in_type == TensorType_FLOAT32) m.SetInput<float>(0, in);
  r.invoke = m.Invoke();
  if (r.invoke == kTfLiteOk) r.bytes = m.Output<uint8_t>(0);
  return r;
}

TEST_CASE("QUANTIZE per-channel (version 3) golden") {
  // [2, 3] quantized along dimension 1: scales 0.5, 1, 2 and zero points 0, 10, -10.
  const QuantSpec q{{0.5f, 1.f, 2.f}, {0, 10, -10}, 1};
  const auto r =
      RunPerChannel<int8_t>(TensorType_INT8, {2, 3}, {1.25f, 1.5f, 3.f, -100.f, 200.f, -3.f}, q);
  REQUIRE(r.invoke == kTfLiteOk);
  // 1.25 / 0.5 = 2.5 -> 3 (half away from zero); 1.5 + 10 -> 12 (rounded 2); 3 / 2 = 1.5 -> 2,
  // -10 + 2 = -8; -200 clamps to -128; 200 + 10 clamps to 127; -1.5 -> -2, -12.
  CHECK(r.As<int8_t>() == std::vector<int8_t>{3, 12, -8, -128, 127, -12});
  // Along dimension 0.
  const QuantSpec q0{{0.1f, 10.f}, {5, 5}, 0};
  const auto r0 = RunPerChannel<uint8_t>(TensorType_UINT8, {2, 2}, {1.f, 2.f, 100.f, 26.f}, q0);
  REQUIRE(r0.invoke == kTfLiteOk);
  CHECK(r0.As<uint8_t>() == std::vector<uint8_t>{15, 25, 15, 8});
}

TEST_CASE("QUANTIZE per-channel random against the definition (uint8, int8, int16)") {
  std::mt19937 rng(171);
  for (int iter = 0; iter < 30; ++iter) {
    const int rank = 1 + static_cast<int>(rng() % 4);
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 5);
    const int dim = static_cast<int>(rng() % rank);
    QuantSpec q;
    q.quantized_dimension = dim;
    const int type = iter % 3;
    // Zero points near the middle of the type's range (uint8: 118..138).
    for (int c = 0; c < shape[dim]; ++c) {
      q.scale.push_back(std::exp(std::uniform_real_distribution<float>(-6, 1)(rng)));
      q.zero_point.push_back(static_cast<int>(rng() % 21) - 10 + (type == 0 ? 128 : 0));
    }
    std::vector<float> in(Count(shape));
    for (auto& v : in) v = std::uniform_real_distribution<float>(-30, 30)(rng);
    CAPTURE(iter, shape, dim, type);
    OpRun r = type == 0   ? RunPerChannel<uint8_t>(TensorType_UINT8, shape, in, q)
              : type == 1 ? RunPerChannel<int8_t>(TensorType_INT8, shape, in, q)
                          : RunPerChannel<int16_t>(tflite::TensorType_INT16, shape, in, q);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto strides = Strides(shape);
    for (size_t i = 0; i < in.size(); ++i) {
      const int c = static_cast<int>(i / strides[dim]) % shape[dim];
      const double lo = type == 0 ? 0 : type == 1 ? -128 : -32768;
      const double hi = type == 0 ? 255 : type == 1 ? 127 : 32767;
      const double want = std::min(
          std::max(std::round(in[i] / q.scale[c]) + static_cast<double>(q.zero_point[c]), lo), hi);
      const double got = type == 0   ? r.As<uint8_t>()[i]
                         : type == 1 ? r.As<int8_t>()[i]
                                     : r.As<int16_t>()[i];
      REQUIRE(got == want);
    }
  }
}

TEST_CASE("QUANTIZE per-channel errors") {
  SECTION("scales do not fit the quantized dimension (the loader refuses the model)") {
    const auto r = RunPerChannel<int8_t>(TensorType_INT8, {2, 3}, {0, 0, 0, 0, 0, 0},
                                         QuantSpec{{1.f, 2.f}, {0, 0}, 1});
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("num_scales must be 1 for per-layer quantization, or 3"));
  }
  SECTION("requantizing to a per-channel output") {
    const auto r = RunPerChannel<int8_t>(TensorType_INT8, {2}, {},
                                         QuantSpec{{1.f, 2.f}, {0, 0}, 0}, TensorType_INT8);
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("QUANTIZE: a per-channel quantized output needs a "
                                         "float32 input (got INT8)."));
  }
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
