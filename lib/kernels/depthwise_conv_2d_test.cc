#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

using namespace conv_test;  // NOLINT

struct DwCase {
  int batch = 1, ih = 1, iw = 1, ic = 1, dm = 1, fh = 1, fw = 1;
  int sh = 1, sw = 1, dh = 1, dw = 1;
  bool same = false;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE;
  int bias_mode = 2;  // 0: two inputs, 1: optional input -1, 2: bias tensor
  int threads = 1;

  int Oc() const { return ic * dm; }
  int EffH() const { return (fh - 1) * dh + 1; }
  int EffW() const { return (fw - 1) * dw + 1; }
  int OutH() const { return same ? (ih + sh - 1) / sh : (ih - EffH()) / sh + 1; }
  int OutW() const { return same ? (iw + sw - 1) / sw : (iw - EffW()) / sw + 1; }
  int PadH() const { return same ? std::max((OutH() - 1) * sh + EffH() - ih, 0) / 2 : 0; }
  int PadW() const { return same ? std::max((OutW() - 1) * sw + EffW() - iw, 0) / 2 : 0; }
  size_t OutSize() const { return static_cast<size_t>(batch) * OutH() * OutW() * Oc(); }
  int Version() const { return dh != 1 || dw != 1 ? 2 : 1; }
};

tflite::DepthwiseConv2DOptionsT Opts(const DwCase& c) {
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = c.sh;
  o.stride_w = c.sw;
  o.dilation_h_factor = c.dh;
  o.dilation_w_factor = c.dw;
  o.depth_multiplier = c.dm;
  o.fused_activation_function = c.act;
  return o;
}

// reference_ops::DepthwiseConv's loop nest: fn(out_index, oc, input_index, filter_index)
// for each in-image tap.
template <typename Fn>
void ForEachTap(const DwCase& c, Fn fn) {
  const int oh = c.OutH(), ow = c.OutW();
  for (int b = 0; b < c.batch; ++b)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int ic = 0; ic < c.ic; ++ic)
          for (int m = 0; m < c.dm; ++m) {
            const int oc = m + ic * c.dm;
            const size_t oi = ((static_cast<size_t>(b) * oh + oy) * ow + ox) * c.Oc() + oc;
            for (int fy = 0; fy < c.fh; ++fy)
              for (int fx = 0; fx < c.fw; ++fx) {
                const int iy = oy * c.sh - c.PadH() + fy * c.dh;
                const int ix = ox * c.sw - c.PadW() + fx * c.dw;
                if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                fn(oi, oc, ((static_cast<size_t>(b) * c.ih + iy) * c.iw + ix) * c.ic + ic,
                   (static_cast<size_t>(fy) * c.fw + fx) * c.Oc() + oc);
              }
          }
}

std::vector<int32_t> Inputs(const DwCase& c, int in, int w, int bias) {
  std::vector<int32_t> ins = {in, w};
  if (c.bias_mode == 1) ins.push_back(-1);
  if (c.bias_mode == 2) ins.push_back(bias);
  return ins;
}

void RunFloat(const DwCase& c, uint32_t seed) {
  CAPTURE(seed, c.batch, c.ih, c.iw, c.ic, c.dm, c.fh, c.fw, c.sh, c.sw, c.dh, c.dw, c.same,
          static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const auto in_v = RandomFloats(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic);
  const auto w_v = RandomFloats(rng, static_cast<size_t>(c.fh) * c.fw * c.Oc());
  const auto b_v = RandomFloats(rng, c.Oc());
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.ih, c.iw, c.ic}, "in");
  const int w =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, c.fh, c.fw, c.Oc()}, w_v, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.Oc()}, b_v, "b");
  const int out =
      b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.OutH(), c.OutW(), c.Oc()}, "out");
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Inputs(c, in, w, bias), {out},
                Options(Opts(c)), c.Version());
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{c.batch, c.OutH(), c.OutW(), c.Oc()});
  m.SetInput<float>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<float>(0);
  std::vector<double> acc(c.OutSize(), 0.0), mag(c.OutSize(), 0.0);
  ForEachTap(c, [&](size_t oi, int, size_t ii, size_t fi) {
    acc[oi] += static_cast<double>(in_v[ii]) * w_v[fi];
    mag[oi] += std::abs(static_cast<double>(in_v[ii]) * w_v[fi]);
  });
  REQUIRE(got.size() == acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.Oc());
    double v = acc[i] + (c.bias_mode == 2 ? b_v[o] : 0.0);
    RefFloatActivation(c.act, &v);
    if (!CloseTo(got[i], v, mag[i] + std::abs(b_v[o]))) {
      CAPTURE(i, got[i], v);
      FAIL("float mismatch");
    }
  }
}

template <typename T>
void RunQuantized(const DwCase& c, bool per_channel, uint32_t seed) {
  constexpr bool kInt8 = std::is_same_v<T, int8_t>;
  const auto type = kInt8 ? tflite::TensorType_INT8 : tflite::TensorType_UINT8;
  const int qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
  CAPTURE(seed, kInt8, per_channel, c.batch, c.ih, c.iw, c.ic, c.dm, c.fh, c.fw, c.sh, c.sw, c.dh,
          c.dw, c.same, static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const float in_scale = 0.01f + RandomFloats(rng, 1, 0.f, 0.05f)[0];
  const int32_t in_zp = RandInt(rng, qmin, qmax);
  const float out_scale = 0.01f + RandomFloats(rng, 1, 0.f, 0.1f)[0];
  const int32_t out_zp = RandInt(rng, qmin, qmax);
  std::vector<float> f_scales(per_channel ? c.Oc() : 1);
  for (auto& s : f_scales) s = 0.002f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  const int32_t f_zp = kInt8 ? 0 : RandInt(rng, 100, 150);
  const auto in_v =
      RandomInts<T>(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic, qmin, qmax);
  const auto w_v = RandomInts<T>(rng, static_cast<size_t>(c.fh) * c.fw * c.Oc(), kInt8 ? -127 : 0,
                                 kInt8 ? 127 : 255);
  const auto b_v = RandomInts<int32_t>(rng, c.Oc(), -3000, 3000);

  QuantSpec in_q{{in_scale}, {in_zp}, 0}, out_q{{out_scale}, {out_zp}, 0};
  QuantSpec w_q;
  w_q.scale = f_scales;
  w_q.zero_point.assign(f_scales.size(), f_zp);
  w_q.quantized_dimension = 3;
  QuantSpec b_q;
  for (float s : f_scales) b_q.scale.push_back(in_scale * s);
  b_q.zero_point.assign(f_scales.size(), 0);

  ModelBuilder b;
  const int in = b.AddTensor(type, {c.batch, c.ih, c.iw, c.ic}, "in", &in_q);
  const int w = b.AddConstTensor<T>(type, {1, c.fh, c.fw, c.Oc()}, w_v, "w", &w_q);
  const int bias = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c.Oc()}, b_v, "b", &b_q);
  const int out = b.AddTensor(type, {c.batch, c.OutH(), c.OutW(), c.Oc()}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Inputs(c, in, w, bias), {out},
                Options(Opts(c)), kInt8 ? 3 : c.Version());
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<T>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<T>(0);

  // reference_integer_ops::DepthwiseConvPerChannel (int8) / reference_ops::DepthwiseConv
  // (uint8, legacy per-tensor multiplier from the float product of the scales).
  std::vector<int32_t> mult(c.Oc());
  std::vector<int> shift(c.Oc());
  for (int o = 0; o < c.Oc(); ++o) {
    const double real =
        kInt8 ? static_cast<double>(in_scale) * static_cast<double>(f_scales[per_channel ? o : 0]) /
                    static_cast<double>(out_scale)
              : static_cast<double>(in_scale * f_scales[0]) / static_cast<double>(out_scale);
    RefQuantizeMultiplier(real, &mult[o], &shift[o]);
  }
  int32_t act_min, act_max;
  RefActivationRange<T>(c.act, out_scale, out_zp, &act_min, &act_max);
  std::vector<int64_t> acc(c.OutSize(), 0);  // int64: no overflow in the reference
  ForEachTap(c, [&](size_t oi, int, size_t ii, size_t fi) {
    acc[oi] += (static_cast<int32_t>(w_v[fi]) - f_zp) * (static_cast<int32_t>(in_v[ii]) - in_zp);
  });
  REQUIRE(got.size() == acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.Oc());
    const int64_t sum = acc[i] + (c.bias_mode == 2 ? b_v[o] : 0);
    REQUIRE(sum == static_cast<int32_t>(sum));  // the kernels accumulate in int32
    int32_t v = static_cast<int32_t>(sum);
    v = RefMultiplyByQuantizedMultiplier(v, mult[o], shift[o]) + out_zp;
    v = std::min(std::max(v, act_min), act_max);
    if (static_cast<int32_t>(got[i]) != v) {
      CAPTURE(i, static_cast<int>(got[i]), v);
      FAIL("quantized mismatch");
    }
  }
}

// 16x8: int16 input and output (zero points 0), int8 filter, int64 bias (or none):
// reference_integer_ops::DepthwiseConvPerChannel for int16 (int64 sums, the 64-bit
// MultiplyByQuantizedMultiplier).
void RunInt16(const DwCase& c, bool per_channel, uint32_t seed) {
  CAPTURE(seed, per_channel, c.batch, c.ih, c.iw, c.ic, c.dm, c.fh, c.fw, c.sh, c.sw, c.dh, c.dw,
          c.same, static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const float in_scale = 0.0001f + RandomFloats(rng, 1, 0.f, 0.001f)[0];
  const float out_scale = 0.0005f + RandomFloats(rng, 1, 0.f, 0.005f)[0];
  std::vector<float> f_scales(per_channel ? c.Oc() : 1);
  for (auto& s : f_scales) s = 0.002f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  const auto in_v = RandomInts<int16_t>(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic,
                                        -32768, 32767);
  const auto w_v = RandomInts<int8_t>(rng, static_cast<size_t>(c.fh) * c.fw * c.Oc(), -128, 127);
  const auto b_v = RandomInts<int64_t>(rng, c.Oc(), -2000000, 2000000);

  QuantSpec in_q{{in_scale}, {0}, 0}, out_q{{out_scale}, {0}, 0};
  QuantSpec w_q;
  w_q.scale = f_scales;
  w_q.zero_point.assign(f_scales.size(), 0);
  w_q.quantized_dimension = 3;
  QuantSpec b_q;
  for (float s : f_scales) b_q.scale.push_back(in_scale * s);
  b_q.zero_point.assign(f_scales.size(), 0);

  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT16, {c.batch, c.ih, c.iw, c.ic}, "in", &in_q);
  const int w =
      b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, c.fh, c.fw, c.Oc()}, w_v, "w", &w_q);
  const int bias = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {c.Oc()}, b_v, "b", &b_q);
  const int out =
      b.AddTensor(tflite::TensorType_INT16, {c.batch, c.OutH(), c.OutW(), c.Oc()}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Inputs(c, in, w, bias), {out},
                Options(Opts(c)), 5);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int16_t>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<int16_t>(0);

  std::vector<int32_t> mult(c.Oc());
  std::vector<int> shift(c.Oc());
  for (int o = 0; o < c.Oc(); ++o) {
    const double real = static_cast<double>(in_scale) *
                        static_cast<double>(f_scales[per_channel ? o : 0]) /
                        static_cast<double>(out_scale);
    RefQuantizeMultiplier(real, &mult[o], &shift[o]);
  }
  int32_t act_min, act_max;
  RefActivationRange<int16_t>(c.act, out_scale, 0, &act_min, &act_max);
  std::vector<int64_t> acc(c.OutSize(), 0);
  ForEachTap(c, [&](size_t oi, int, size_t ii, size_t fi) {
    acc[oi] += static_cast<int64_t>(w_v[fi]) * in_v[ii];
  });
  REQUIRE(got.size() == acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.Oc());
    const int64_t sum = acc[i] + (c.bias_mode == 2 ? b_v[o] : 0);
    int32_t v = RefMultiplyByQuantizedMultiplier64(sum, mult[o], shift[o]);
    v = std::min(std::max(v, act_min), act_max);
    if (static_cast<int32_t>(got[i]) != v) {
      CAPTURE(i, got[i], v, sum);
      FAIL("int16 mismatch");
    }
  }
}

DwCase RandomCase(std::mt19937& rng) {
  DwCase c;
  c.batch = RandInt(rng, 1, 2);
  c.ih = RandInt(rng, 1, 12);
  c.iw = RandInt(rng, 1, 12);
  c.ic = RandInt(rng, 1, 40);  // 16-channel blocks, the 8-channel half and the rest
  c.dm = RandInt(rng, 0, 2) == 0 ? RandInt(rng, 2, 8) : 1;  // 8: micro_speech's 1 -> 8
  c.fh = RandInt(rng, 1, 5);
  c.fw = RandInt(rng, 1, 5);
  c.sh = RandInt(rng, 1, 2);
  c.sw = RandInt(rng, 1, 2);
  c.dh = RandInt(rng, 1, 2);
  c.dw = RandInt(rng, 1, 2);
  c.same = RandInt(rng, 0, 1) == 1 || c.ih < c.EffH() || c.iw < c.EffW();
  c.act = RandomActivation(rng);
  c.bias_mode = RandInt(rng, 0, 2);
  c.threads = RandInt(rng, 1, 2);
  return c;
}

TEST_CASE("DEPTHWISE_CONV_2D float golden with depth multiplier 2") {
  // 1x2x2x1 input, 2x2 filter, 2 output channels, VALID -> 1x1x1x2.
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "in");
  const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2, 2, 2},
                                        {1, 10, 2, 20, 3, 30, 4, 40}, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2}, {0.5f, -1}, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 1, 2}, "out");
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 2;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w, bias}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 3, 4});
  REQUIRE(m.Invoke() == kTfLiteOk);
  // 1*1+2*2+3*3+4*4 = 30 (+0.5); 10*(1+4+9+16) = 300 (-1).
  CHECK(m.Output<float>(0) == std::vector<float>{30.5f, 299});
}

TEST_CASE("DEPTHWISE_CONV_2D float matches a double reference (random shapes)") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    RunFloat(RandomCase(rng), seed);
  }
}

TEST_CASE("DEPTHWISE_CONV_2D int8 per-channel is bit-exact with the reference") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 1000);
    RunQuantized<int8_t>(RandomCase(rng), seed % 4 != 0, seed);
  }
}

TEST_CASE("DEPTHWISE_CONV_2D uint8 is bit-exact with the reference") {
  for (uint32_t seed = 1; seed <= 25; ++seed) {
    std::mt19937 rng(seed + 2000);
    RunQuantized<uint8_t>(RandomCase(rng), false, seed);
  }
}

TEST_CASE("DEPTHWISE_CONV_2D on two threads (rows split over the pool)") {
  DwCase c;
  c.ih = c.iw = 34;
  c.ic = 32;
  c.fh = c.fw = 3;
  c.same = true;
  c.threads = 2;
  c.act = tflite::ActivationFunctionType_RELU6;
  RunFloat(c, 401);
  RunQuantized<int8_t>(c, true, 402);
  c.dm = 2;
  c.ic = 16;
  RunQuantized<uint8_t>(c, false, 403);
}

// Hand-checked 16x8 golden: 1x1x2x2 input, 1x2 filter taps {2, -3} and {1, 1}, VALID.
// Input scale 0.5, filter scales 0.25 / 0.5, output scale 1: multipliers 1/8 and 1/4.
TEST_CASE("DEPTHWISE_CONV_2D int16 (16x8) golden, int64 bias") {
  ModelBuilder b;
  QuantSpec in_q{{0.5f}, {0}, 0}, out_q{{1.0f}, {0}, 0};
  QuantSpec w_q{{0.25f, 0.5f}, {0, 0}, 3};
  QuantSpec b_q{{0.125f, 0.25f}, {0, 0}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT16, {1, 1, 2, 2}, "in", &in_q);
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 1, 2, 2}, {2, -3, 1, 1},
                                         "w", &w_q);
  const int bias =
      b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {100, -202}, "b", &b_q);
  const int out = b.AddTensor(tflite::TensorType_INT16, {1, 1, 1, 2}, "out", &out_q);
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w, bias}, {out}, Options(o), 5);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int16_t>(0, {1000, -2000, 3000, 4000});
  REQUIRE(m.Invoke() == kTfLiteOk);
  // Channel 0: 1000*2 + 3000*1 + 100 = 5100 / 8 = 637.5 -> 638; channel 1: -2000*-3 +
  // 4000*1 - 202 = 9798 / 4 = 2449.5 -> 2450 (halves round up).
  CHECK(m.Output<int16_t>(0) == std::vector<int16_t>{638, 2450});
}

TEST_CASE("DEPTHWISE_CONV_2D int16 is bit-exact with the reference") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 3000);
    RunInt16(RandomCase(rng), seed % 4 != 0, seed);
  }
  DwCase c;  // rows over two threads
  c.ih = c.iw = 30;
  c.ic = 24;
  c.fh = c.fw = 3;
  c.same = true;
  c.threads = 2;
  RunInt16(c, true, 3101);
}

TEST_CASE("DEPTHWISE_CONV_2D int16 refuses non-zero zero points and an int32 bias") {
  const auto run = [](int32_t in_zp, bool int32_bias) {
    ModelBuilder b;
    QuantSpec in_q{{0.5f}, {in_zp}, 0}, out_q{{1.0f}, {0}, 0};
    QuantSpec w_q{{0.25f}, {0}, 3};
    const int in = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "in", &in_q);
    const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 1, 1, 1}, {2}, "w", &w_q);
    const int bias = int32_bias
                         ? b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {1}, {0}, "b")
                         : b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {1}, {0}, "b");
    const int out = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "out", &out_q);
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_h = o.stride_w = 1;
    o.depth_multiplier = 1;
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w, bias}, {out}, Options(o), 5);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    return m.errors();
  };
  CHECK_THAT(run(-7, false),
             Catch::Contains("DEPTHWISE_CONV_2D with int16 activations needs zero point 0 on "
                             "input and output (symmetric 16x8 quantization; got input "
                             "zero_point -7, output zero_point 0)."));
  CHECK_THAT(run(0, true), Catch::Contains("DEPTHWISE_CONV_2D with int16 activations needs an "
                                           "int64 bias (got INT32)."));
}

TEST_CASE("DEPTHWISE_CONV_2D rejects bad models in Prepare") {
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  SECTION("filter channels not a multiple of the input channels") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 1, 1, 3}, {1, 2, 3}, "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 3}, "out");
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w}, {out}, Options(o));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("failed to prepare") != std::string::npos);
  }
  // Campaign 19 of the invoke fuzzer: (3 - 1) x 1,818,321,779 overflowed int in the
  // padding arithmetic (UBSan) before anything refused it.
  SECTION("a dilated filter spanning more than 2^31 pixels") {
    for (const auto padding : {tflite::Padding_VALID, tflite::Padding_SAME}) {
      o.padding = padding;
      o.dilation_h_factor = 1818321779;
      ModelBuilder b;
      const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "in");
      const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 3, 3, 1},
                                            {1, 1, 1, 1, 1, 1, 1, 1, 1}, "w");
      const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "out");
      b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w}, {out}, Options(o));
      b.SetInputs({in});
      b.SetOutputs({out});
      OpTestModel m(b);
      CHECK(m.Prepare() == kTfLiteError);
      CHECK(m.errors().find("DEPTHWISE_CONV_2D: a 3x3 filter dilated by 1818321779x1 spans "
                            "more than 2^31 pixels.") != std::string::npos);
    }
  }
  SECTION("int16 input with int16 weights") {
    ModelBuilder b;
    QuantSpec q{{0.1f}, {0}, 0};
    const int in = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "in", &q);
    const int w = b.AddConstTensor<int16_t>(tflite::TensorType_INT16, {1, 1, 1, 1}, {1}, "w", &q);
    const int out = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "out", &q);
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w}, {out}, Options(o), 3);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("DEPTHWISE_CONV_2D with int16 activations needs int8 weights (got "
                          "INT16).") != std::string::npos);
  }
  SECTION("rank-3 input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2, 2, 1}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, {1}, "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2, 2, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, w}, {out}, Options(o));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
  }
}

}  // namespace
}  // namespace tflite_inspect
