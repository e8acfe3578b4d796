#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "kernels/internal/im2col.h"
#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/elementwise_test_util.h"
#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

using namespace conv_test;  // NOLINT

struct ConvCase {
  int batch = 1, ih = 1, iw = 1, ic = 1, fh = 1, fw = 1, oc = 1;
  int sh = 1, sw = 1, dh = 1, dw = 1;
  bool same = false;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE;
  int bias_mode = 2;  // 0: two inputs, 1: optional input -1, 2: bias tensor
  int threads = 1;
  int groups = 1;  // ic and oc are multiples; the filter depth is ic / groups

  int FC() const { return ic / groups; }
  int EffH() const { return (fh - 1) * dh + 1; }
  int EffW() const { return (fw - 1) * dw + 1; }
  int OutH() const { return same ? (ih + sh - 1) / sh : (ih - EffH()) / sh + 1; }
  int OutW() const { return same ? (iw + sw - 1) / sw : (iw - EffW()) / sw + 1; }
  int PadH() const { return same ? std::max((OutH() - 1) * sh + EffH() - ih, 0) / 2 : 0; }
  int PadW() const { return same ? std::max((OutW() - 1) * sw + EffW() - iw, 0) / 2 : 0; }
};

tflite::Conv2DOptionsT Opts(const ConvCase& c) {
  tflite::Conv2DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = c.sh;
  o.stride_w = c.sw;
  o.dilation_h_factor = c.dh;
  o.dilation_w_factor = c.dw;
  o.fused_activation_function = c.act;
  return o;
}

// Calls fn(out_index, oc, input_index, filter_index) for each in-image tap.
template <typename Fn>
void ForEachTap(const ConvCase& c, Fn fn) {
  const int oh = c.OutH(), ow = c.OutW();
  for (int b = 0; b < c.batch; ++b)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int o = 0; o < c.oc; ++o) {
          const size_t out_index = ((static_cast<size_t>(b) * oh + oy) * ow + ox) * c.oc + o;
          for (int fy = 0; fy < c.fh; ++fy)
            for (int fx = 0; fx < c.fw; ++fx) {
              const int iy = oy * c.sh - c.PadH() + fy * c.dh;
              const int ix = ox * c.sw - c.PadW() + fx * c.dw;
              if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
              const int c0 = o / (c.oc / c.groups) * c.FC();  // the group's first channel
              for (int i = 0; i < c.FC(); ++i) {
                fn(out_index, o,
                   ((static_cast<size_t>(b) * c.ih + iy) * c.iw + ix) * c.ic + c0 + i,
                   ((static_cast<size_t>(o) * c.fh + fy) * c.fw + fx) * c.FC() + i);
              }
            }
        }
}

size_t OutSize(const ConvCase& c) {
  return static_cast<size_t>(c.batch) * c.OutH() * c.OutW() * c.oc;
}

std::vector<int32_t> Inputs(ModelBuilder& b, const ConvCase& c, int in, int w, int bias) {
  std::vector<int32_t> ins = {in, w};
  if (c.bias_mode == 1) ins.push_back(-1);
  if (c.bias_mode == 2) ins.push_back(bias);
  return ins;
}

void RunFloat(const ConvCase& c, uint32_t seed) {
  CAPTURE(seed, c.batch, c.ih, c.iw, c.ic, c.fh, c.fw, c.oc, c.sh, c.sw, c.dh, c.dw, c.same,
          static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const auto in_v = RandomFloats(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic);
  const auto w_v = RandomFloats(rng, static_cast<size_t>(c.oc) * c.fh * c.fw * c.FC());
  const auto b_v = RandomFloats(rng, c.oc);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.ih, c.iw, c.ic}, "in");
  const int w =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.oc, c.fh, c.fw, c.FC()}, w_v, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.oc}, b_v, "b");
  const int out =
      b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.OutH(), c.OutW(), c.oc}, "out");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, Inputs(b, c, in, w, bias), {out}, Options(Opts(c)),
                c.groups > 1 ? 6 : 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{c.batch, c.OutH(), c.OutW(), c.oc});
  m.SetInput<float>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<float>(0);

  std::vector<double> acc(OutSize(c), 0.0), mag(OutSize(c), 0.0);
  ForEachTap(c, [&](size_t oi, int, size_t ii, size_t fi) {
    acc[oi] += static_cast<double>(in_v[ii]) * w_v[fi];
    mag[oi] += std::abs(static_cast<double>(in_v[ii]) * w_v[fi]);
  });
  REQUIRE(got.size() == acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.oc);
    double v = acc[i] + (c.bias_mode == 2 ? b_v[o] : 0.0);
    RefFloatActivation(c.act, &v);
    if (!CloseTo(got[i], v, mag[i] + std::abs(b_v[o]))) {
      CAPTURE(i, got[i], v);
      FAIL("float mismatch");
    }
  }
}

template <typename T>
void RunQuantized(const ConvCase& c, bool per_channel, uint32_t seed) {
  constexpr bool kInt8 = std::is_same_v<T, int8_t>;
  const auto type = kInt8 ? tflite::TensorType_INT8 : tflite::TensorType_UINT8;
  const int qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
  CAPTURE(seed, kInt8, per_channel, c.batch, c.ih, c.iw, c.ic, c.fh, c.fw, c.oc, c.sh, c.sw, c.dh,
          c.dw, c.same, static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const float in_scale = 0.01f + RandomFloats(rng, 1, 0.f, 0.05f)[0];
  const int32_t in_zp = RandInt(rng, qmin, qmax);
  const float out_scale = 0.05f + RandomFloats(rng, 1, 0.f, 0.5f)[0];
  const int32_t out_zp = RandInt(rng, qmin, qmax);
  std::vector<float> f_scales(per_channel ? c.oc : 1);
  for (auto& s : f_scales) s = 0.002f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  const int32_t f_zp = kInt8 ? 0 : RandInt(rng, 100, 150);

  const auto in_v =
      RandomInts<T>(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic, qmin, qmax);
  const auto w_v = RandomInts<T>(rng, static_cast<size_t>(c.oc) * c.fh * c.fw * c.FC(),
                                 kInt8 ? -127 : 0, kInt8 ? 127 : 255);
  const auto b_v = RandomInts<int32_t>(rng, c.oc, -3000, 3000);

  QuantSpec in_q{{in_scale}, {in_zp}, 0}, out_q{{out_scale}, {out_zp}, 0};
  QuantSpec w_q;
  w_q.scale = f_scales;
  w_q.zero_point.assign(f_scales.size(), f_zp);
  w_q.quantized_dimension = 0;
  QuantSpec b_q;
  for (float s : f_scales) b_q.scale.push_back(in_scale * s);
  b_q.zero_point.assign(f_scales.size(), 0);

  ModelBuilder b;
  const int in = b.AddTensor(type, {c.batch, c.ih, c.iw, c.ic}, "in", &in_q);
  const int w = b.AddConstTensor<T>(type, {c.oc, c.fh, c.fw, c.FC()}, w_v, "w", &w_q);
  const int bias = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c.oc}, b_v, "b", &b_q);
  const int out = b.AddTensor(type, {c.batch, c.OutH(), c.OutW(), c.oc}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, Inputs(b, c, in, w, bias), {out}, Options(Opts(c)),
                c.groups > 1 ? 6 : kInt8 ? 3 : 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<T>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<T>(0);

  // reference_integer_ops::ConvPerChannel (int8) / reference_ops::Conv (uint8).
  std::vector<int32_t> mult(c.oc);
  std::vector<int> shift(c.oc);
  for (int o = 0; o < c.oc; ++o) {
    const double real =
        kInt8 ? static_cast<double>(in_scale) * static_cast<double>(f_scales[per_channel ? o : 0]) /
                    static_cast<double>(out_scale)
              : static_cast<double>(in_scale * f_scales[0]) / static_cast<double>(out_scale);
    RefQuantizeMultiplier(real, &mult[o], &shift[o]);
  }
  int32_t act_min, act_max;
  RefActivationRange<T>(c.act, out_scale, out_zp, &act_min, &act_max);
  std::vector<int64_t> acc(OutSize(c), 0);  // int64: no overflow in the reference
  ForEachTap(c, [&](size_t oi, int, size_t ii, size_t fi) {
    acc[oi] += (static_cast<int32_t>(w_v[fi]) - f_zp) * (static_cast<int32_t>(in_v[ii]) - in_zp);
  });
  REQUIRE(got.size() == acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.oc);
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

// 16x8: int16 input and output (zero points 0), int8 filter, an int64 or int32 bias (or
// none). reference_integer_ops::ConvPerChannel<int64_t> / <int32_t>: the int64 template
// requantizes with the 64-bit MultiplyByQuantizedMultiplier, the int32 one (int32 bias or
// none) with the 32-bit one. `extreme`: inputs -32768 or 32767 and weights -128 or 127
// of one sign per filter, so long filters overflow an int32 sum.
void RunInt16(const ConvCase& case_in, bool per_channel, bool int64_bias, uint32_t seed,
              int version = 4, bool extreme = false) {
  ConvCase c = case_in;
  c.bias_mode = 2;  // TFLite's 16x8 CONV_2D requires a bias
  CAPTURE(seed, per_channel, int64_bias, version, extreme, c.batch, c.ih, c.iw, c.ic, c.fh, c.fw,
          c.oc, c.sh, c.sw, c.dh, c.dw, c.same, static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const float in_scale = 0.0001f + RandomFloats(rng, 1, 0.f, 0.001f)[0];
  const float out_scale = 0.004f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  std::vector<float> f_scales(per_channel ? c.oc : 1);
  for (auto& sc : f_scales) sc = 0.002f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  auto in_v = RandomInts<int16_t>(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic, -32768,
                                  32767);
  auto w_v = RandomInts<int8_t>(rng, static_cast<size_t>(c.oc) * c.fh * c.fw * c.FC(), -127, 127);
  if (extreme) {  // mostly -32768; filter o all -128 (even o) or all 127 (odd o)
    for (auto& v : in_v) v = v < 24000 ? int16_t{-32768} : int16_t{32767};
    const size_t per_filter = static_cast<size_t>(c.fh) * c.fw * c.FC();
    for (size_t i = 0; i < w_v.size(); ++i) {
      w_v[i] = (i / per_filter) % 2 == 0 ? int8_t{-128} : int8_t{127};
    }
  }
  const auto b64 = RandomInts<int64_t>(rng, c.oc, -2000000, 2000000);
  const std::vector<int32_t> b32(b64.begin(), b64.end());

  QuantSpec in_q{{in_scale}, {0}, 0}, out_q{{out_scale}, {0}, 0};
  QuantSpec w_q;
  w_q.scale = f_scales;
  w_q.zero_point.assign(f_scales.size(), 0);
  QuantSpec b_q;
  for (float sc : f_scales) b_q.scale.push_back(in_scale * sc);
  b_q.zero_point.assign(f_scales.size(), 0);

  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT16, {c.batch, c.ih, c.iw, c.ic}, "in", &in_q);
  const int w =
      b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.oc, c.fh, c.fw, c.FC()}, w_v, "w", &w_q);
  const int bias =
      int64_bias ? b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {c.oc}, b64, "b", &b_q)
                 : b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c.oc}, b32, "b", &b_q);
  const int out =
      b.AddTensor(tflite::TensorType_INT16, {c.batch, c.OutH(), c.OutW(), c.oc}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, Inputs(b, c, in, w, bias), {out}, Options(Opts(c)),
                version);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int16_t>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<int16_t>(0);

  std::vector<int32_t> mult(c.oc);
  std::vector<int> shift(c.oc);
  for (int o = 0; o < c.oc; ++o) {
    const double real = static_cast<double>(in_scale) *
                        static_cast<double>(f_scales[per_channel ? o : 0]) /
                        static_cast<double>(out_scale);
    RefQuantizeMultiplier(real, &mult[o], &shift[o]);
  }
  int32_t act_min, act_max;
  RefActivationRange<int16_t>(c.act, out_scale, 0, &act_min, &act_max);
  std::vector<int64_t> acc(OutSize(c), 0);
  ForEachTap(c, [&](size_t oi, int, size_t ii, size_t fi) {
    acc[oi] += static_cast<int64_t>(w_v[fi]) * in_v[ii];
  });
  const bool has_bias = c.bias_mode == 2;
  const bool wide = has_bias && int64_bias;
  REQUIRE(got.size() == acc.size());
  bool beyond_int32 = false;
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.oc);
    const int64_t sum = acc[i] + (has_bias ? b64[o] : 0);
    beyond_int32 |= sum != static_cast<int32_t>(sum);
    int32_t v;
    if (wide) {
      v = RefMultiplyByQuantizedMultiplier64(sum, mult[o], shift[o]);
    } else {
      REQUIRE(sum == static_cast<int32_t>(sum));  // the int32 template's sum
      v = RefMultiplyByQuantizedMultiplier(static_cast<int32_t>(sum), mult[o], shift[o]);
    }
    v = std::min(std::max(v, act_min), act_max);
    if (static_cast<int32_t>(got[i]) != v) {
      CAPTURE(i, got[i], v, sum);
      FAIL("int16 mismatch");
    }
  }
  if (extreme && c.ic * c.fh * c.fw > 600) CHECK(beyond_int32);
}

ConvCase RandomCase(std::mt19937& rng) {
  ConvCase c;
  c.batch = RandInt(rng, 1, 2);
  c.ih = RandInt(rng, 1, 11);
  c.iw = RandInt(rng, 1, 11);
  c.ic = RandInt(rng, 1, 19);
  c.oc = RandInt(rng, 1, 37);
  c.fh = RandInt(rng, 1, 4);
  c.fw = RandInt(rng, 1, 4);
  c.sh = RandInt(rng, 1, 3);
  c.sw = RandInt(rng, 1, 3);
  c.dh = RandInt(rng, 1, 2);
  c.dw = RandInt(rng, 1, 2);
  c.same = RandInt(rng, 0, 1) == 1 || c.ih < c.EffH() || c.iw < c.EffW();
  c.act = RandomActivation(rng);
  c.bias_mode = RandInt(rng, 0, 2);
  c.threads = RandInt(rng, 1, 2);
  return c;
}

// Hand-checked 16x8 golden. Input scale 0.5, filter scales 0.25 / 0.5, output scale 1:
// multipliers 1/8 and 1/4. Channel 0 = 2 * x + 100, channel 1 = -3 * x - 200.
TEST_CASE("CONV_2D int16 (16x8) golden: int64 bias rounds halves up, int32 bias away from 0") {
  for (const bool int64_bias : {true, false}) {
    CAPTURE(int64_bias);
    ModelBuilder b;
    QuantSpec in_q{{0.5f}, {0}, 0}, out_q{{1.0f}, {0}, 0};
    QuantSpec w_q{{0.25f, 0.5f}, {0, 0}, 0};
    QuantSpec b_q{{0.125f, 0.25f}, {0, 0}, 0};
    const int in = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "in", &in_q);
    const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {2, 1, 1, 1}, {2, -3}, "w",
                                           &w_q);
    const int bias =
        int64_bias
            ? b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {100, -200}, "b", &b_q)
            : b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {2}, {100, -200}, "b", &b_q);
    const int out = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 2}, "out", &out_q);
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_h = o.stride_w = 1;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w, bias}, {out}, Options(o), 4);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    REQUIRE(m.Prepare() == kTfLiteOk);
    m.SetInput<int16_t>(0, {1000, -2000, 3000, 4000});
    REQUIRE(m.Invoke() == kTfLiteOk);
    // Channel 0: 2100, -3900, 6100, 8100 / 8 = 262.5, -487.5, 762.5, 1012.5; channel 1:
    // -3200, 5800, -9200, -12200 / 4 (exact). -487.5 is -487 with the 64-bit
    // requantization (halves up) and -488 with the 32-bit one (halves away from zero).
    const int16_t half = int64_bias ? -487 : -488;
    CHECK(m.Output<int16_t>(0) ==
          std::vector<int16_t>{263, -800, half, 1450, 763, -2300, 1013, -3050});
  }
}

TEST_CASE("CONV_2D int16 is bit-exact with the reference (random shapes, int64 / int32 bias)") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 4000);
    // The kernel dispatches on types: the version the model declares does not matter.
    RunInt16(RandomCase(rng), seed % 4 != 0, seed % 3 != 0, seed, seed % 5 == 0 ? 3 : 4);
  }
}

TEST_CASE("CONV_2D int16: long filters past int32, GEMM blocks and threads") {
  ConvCase c;
  c.ih = c.iw = 12;
  c.ic = 80;
  c.oc = 40;
  c.fh = c.fw = 3;  // depth 720: three int32 partial-sum blocks
  c.same = true;
  c.threads = 2;
  RunInt16(c, true, true, 501, 4, /*extreme=*/true);
  c.act = tflite::ActivationFunctionType_RELU;
  RunInt16(c, true, true, 502);
  RunInt16(c, false, false, 503);
  c.ih = c.iw = 40;  // im2col split over the threads
  c.ic = 8;
  c.oc = 20;
  RunInt16(c, true, true, 504);
}

TEST_CASE("CONV_2D int16 refuses non-zero zero points and wrong bias types") {
  const auto run = [](int32_t in_zp, int32_t out_zp, tflite::TensorType bias_type,
                      tflite::TensorType option = tflite::TensorType_FLOAT32) {
    ModelBuilder b;
    QuantSpec in_q{{0.5f}, {in_zp}, 0}, out_q{{1.0f}, {out_zp}, 0};
    QuantSpec w_q{{0.25f}, {0}, 0};
    const int in = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "in", &in_q);
    const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 1, 1, 1}, {2}, "w", &w_q);
    // (bias_type BOOL: no bias, an absent optional input)
    const int bias = bias_type == tflite::TensorType_BOOL ? -1
                     : bias_type == tflite::TensorType_INT64
                         ? b.AddConstTensor<int64_t>(bias_type, {1}, {0}, "b")
                         : b.AddConstTensor<int16_t>(bias_type, {1}, {0}, "b");
    const int out = b.AddTensor(tflite::TensorType_INT16, {1, 2, 2, 1}, "out", &out_q);
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_h = o.stride_w = 1;
    o.quantized_bias_type = option;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w, bias}, {out}, Options(o), 4);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    return m.errors();
  };
  CHECK_THAT(run(3, 0, tflite::TensorType_INT64),
             Catch::Contains("CONV_2D with int16 activations needs zero point 0 on input and "
                             "output (symmetric 16x8 quantization; got input zero_point 3, "
                             "output zero_point 0)."));
  CHECK_THAT(run(0, -1, tflite::TensorType_INT64), Catch::Contains("output zero_point -1"));
  CHECK_THAT(run(0, 0, tflite::TensorType_INT16),
             Catch::Contains("CONV_2D with int16 activations needs an int64 or int32 bias (got "
                             "INT16)."));
  CHECK_THAT(run(0, 0, tflite::TensorType_INT64, tflite::TensorType_INT32),
             Catch::Contains("CONV_2D quantized_bias_type INT32 does not fit the bias (INT64)."));
  CHECK_THAT(run(0, 0, tflite::TensorType_BOOL),
             Catch::Contains("int16 activations need a bias tensor"));
}

TEST_CASE("CONV_2D int16 seanet models match TFLite's reference goldens exactly", "[real]") {
  ew_test::CheckSeanetModels("conv", "conv", 1);
}

TEST_CASE("CONV_2D float golden: VALID 2x2 and SAME with bias and RELU") {
  // 1x3x3x1 input, one 2x2 filter.
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3, 3, 1}, "in");
  const int w =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, {1, 2, 3, 4}, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1}, {-40}, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w, bias}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  REQUIRE(m.Invoke() == kTfLiteOk);
  // Windows: 1*1+2*2+4*3+5*4=37, 47, 67, 77; minus 40, RELU.
  CHECK(m.Output<float>(0) == std::vector<float>{0, 7, 27, 37});
}

TEST_CASE("CONV_2D grouped (v6) golden: each group sees its own channels") {
  // Input 1x1x1x4 = {1, 2, 3, 4}, 2 groups of 2 channels, 2 output channels (one per group):
  // out0 = 1*1 + 2*2 = 5 (channels 0-1), out1 = 3*3 + 4*4 = 25 (channels 2-3), + bias.
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 1, 4}, "in");
  const int w =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2, 1, 1, 2}, {1, 2, 3, 4}, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2}, {0.5f, -1}, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 1, 2}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w, bias}, {out}, Options(o), 6);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 3, 4});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{5.5f, 24});
}

ConvCase RandomGroupedCase(std::mt19937& rng) {
  ConvCase c;
  c.groups = RandInt(rng, 2, 4);
  c.batch = RandInt(rng, 1, 2);
  c.ih = RandInt(rng, 1, 7);
  c.iw = RandInt(rng, 1, 7);
  c.ic = c.groups * RandInt(rng, 1, 5);
  c.oc = c.groups * RandInt(rng, 1, 4);
  c.fh = RandInt(rng, 1, 3);
  c.fw = RandInt(rng, 1, 3);
  c.sh = RandInt(rng, 1, 2);
  c.sw = RandInt(rng, 1, 2);
  c.dh = RandInt(rng, 1, 2);
  c.same = RandInt(rng, 0, 1) == 1 || c.EffH() > c.ih || c.EffW() > c.iw;
  c.act = RandomActivation(rng);
  c.bias_mode = RandInt(rng, 0, 2);
  c.threads = RandInt(rng, 1, 2);
  return c;
}

TEST_CASE("CONV_2D grouped float / int8 / uint8 / int16 match the references (random, seeds)") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed + 7000);
    const ConvCase c = RandomGroupedCase(rng);
    RunFloat(c, seed);
    RunQuantized<int8_t>(c, seed % 2 == 0, seed);
    RunQuantized<uint8_t>(c, false, seed);
    RunInt16(c, seed % 2 == 0, seed % 3 != 0, seed, 6, false);
  }
}

// As many groups as channels, one output channel each (Keras' Conv2D(groups=C), ConvNeXt):
// the 8-bit ones on the depthwise sums (conv_2d.cc: EvalQuantizedDepthwiseGroups), bit for
// bit with the reference; windows up to 7x7, channels across the 16-lane blocks.
ConvCase RandomDepthwiseGroupsCase(std::mt19937& rng) {
  ConvCase c = RandomGroupedCase(rng);
  c.groups = c.ic = c.oc = RandInt(rng, 2, 40);
  c.ih = RandInt(rng, 1, 12);
  c.iw = RandInt(rng, 1, 12);
  c.fh = RandInt(rng, 1, 7);
  c.fw = RandInt(rng, 1, 7);
  c.same = RandInt(rng, 0, 1) == 1 || c.EffH() > c.ih || c.EffW() > c.iw;
  return c;
}

TEST_CASE("CONV_2D one channel per group: float / int8 / uint8 match the references (random, seeds)") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed + 7100);
    const ConvCase c = RandomDepthwiseGroupsCase(rng);
    RunFloat(c, seed);
    RunQuantized<int8_t>(c, seed % 2 == 0, seed);
    RunQuantized<uint8_t>(c, false, seed);
  }
}

// Depths from AMX's minimum and 16 pixels or more: on an AMX CPU each block's im2col rows
// are made straight into the tiles' row copy (gemm::DotGemmGathered): padding, strides,
// dilations, groups (a group's channels start mid-pixel), batches, odd depths, two threads.
TEST_CASE("CONV_2D int8 with im2col rows gathered into the GEMM's tiles (random shapes)") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed + 7300);
    ConvCase c;
    c.groups = RandInt(rng, 1, 3);
    c.batch = RandInt(rng, 1, 2);
    c.ih = RandInt(rng, 4, 17);
    c.iw = RandInt(rng, 4, 17);
    c.ic = c.groups * RandInt(rng, 7, 40);
    c.oc = c.groups * RandInt(rng, 1, 40);
    c.fh = RandInt(rng, 1, 5);
    c.fw = RandInt(rng, 2, 5);
    c.sh = RandInt(rng, 1, 2);
    c.sw = RandInt(rng, 1, 2);
    c.dh = RandInt(rng, 1, 2);
    c.dw = RandInt(rng, 1, 2);
    c.same = RandInt(rng, 0, 1) == 1 || c.EffH() > c.ih || c.EffW() > c.iw;
    c.act = RandomActivation(rng);
    c.bias_mode = RandInt(rng, 0, 2);
    c.threads = RandInt(rng, 1, 2);
    RunQuantized<int8_t>(c, seed % 3 != 0, seed + 7300);
  }
}

TEST_CASE("CONV_2D float SAME stride 2, no bias") {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3, 3, 1}, "in");
  const int w =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2, 3, 3, 1},
                              {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "w");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 2;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{1, 2, 2, 2});
  m.SetInput<float>(0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  REQUIRE(m.Invoke() == kTfLiteOk);
  // SAME, stride 2 on 3x3: out 2x2, total padding 2 -> 1 before. Centers at (0,0),(0,2),
  // (2,0),(2,2); filter 0 picks the center, filter 1 sums the in-image window.
  CHECK(m.Output<float>(0) == std::vector<float>{1, 12, 3, 16, 7, 24, 9, 28});
}

TEST_CASE("CONV_2D float matches a double reference (random shapes)") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    RunFloat(RandomCase(rng), seed);
  }
}

TEST_CASE("CONV_2D float: 1x1 direct path and large GEMM blocks") {
  ConvCase c;
  c.ih = 9;
  c.iw = 13;
  c.ic = 40;
  c.oc = 70;
  c.threads = 2;
  RunFloat(c, 101);  // 1x1 stride 1: the input is the GEMM's A
  c.fh = c.fw = 3;
  c.ic = 50;  // depth 450 > one k block
  c.same = true;
  c.act = tflite::ActivationFunctionType_RELU6;
  RunFloat(c, 102);
}

TEST_CASE("DirectRowWindows: the output pixels whose one-pixel-high window is in the image") {
  auto geometry = [](int in_w, int f_w, int stride, int pad, int out_w) {
    tflite::conv_util::ConvGeometry g{};
    g.batches = 1;
    g.in_h = g.out_h = g.f_h = 1;
    g.in_w = in_w;
    g.in_c = g.f_c = 3;
    g.f_w = f_w;
    g.out_w = out_w;
    g.out_c = g.group_out_c = 8;
    g.groups = 1;
    g.stride_h = 1;
    g.stride_w = stride;
    g.dil_h = g.dil_w = 1;
    g.pad_w = pad;
    return g;
  };
  // The audio model's first layer: 1 x 80, stride 4, VALID over 16,000 samples.
  auto w = tflite::conv_util::DirectRowWindows(geometry(16000, 80, 4, 0, 3981));
  CHECK((w.lo == 0 && w.hi == 3981));
  // SAME, 1 x 5 over 50: two pixels each side cross the padding.
  w = tflite::conv_util::DirectRowWindows(geometry(50, 5, 1, 2, 50));
  CHECK((w.lo == 2 && w.hi == 48));
  // SAME, stride 2, 1 x 4 over 40 (padding 1 before, 1 after): pixels 0 and 19 cross it.
  w = tflite::conv_util::DirectRowWindows(geometry(40, 4, 2, 1, 20));
  CHECK((w.lo == 1 && w.hi == 19));
  // 18 pixels are enough; 15 (fewer than 16), a dilated row, a window two pixels high: none.
  CHECK(tflite::conv_util::DirectRowWindows(geometry(20, 3, 1, 0, 18)).any());
  CHECK(!tflite::conv_util::DirectRowWindows(geometry(17, 3, 1, 0, 15)).any());
  auto dilated = geometry(50, 5, 1, 0, 46);
  dilated.dil_w = 2;
  CHECK(!tflite::conv_util::DirectRowWindows(dilated).any());
  auto tall = geometry(50, 5, 1, 0, 46);
  tall.f_h = 2;
  tall.in_h = 2;
  CHECK(!tflite::conv_util::DirectRowWindows(tall).any());
}

// Windows one pixel high (Conv1D as converted) over rows of at least 16 output pixels read
// the input in place (im2col.h: DirectRowWindows), with im2col only for the pixels whose
// window crosses the padding; dilated rows and short rows take im2col throughout.
// A one-pixel-high window case: rows of 16-90 pixels, filter widths 1-9, strides 1-4,
// SAME or VALID, sometimes a dilated row (which takes im2col); ic up to max_ic.
ConvCase RandomRowCase(std::mt19937& rng, int max_ic) {
  ConvCase c;
  c.batch = RandInt(rng, 1, 2);
  c.ih = RandInt(rng, 1, 3);
  c.iw = RandInt(rng, 16, 90);
  c.ic = RandInt(rng, 1, max_ic);
  c.oc = RandInt(rng, 1, 40);
  c.fw = RandInt(rng, 1, 9);
  c.sh = RandInt(rng, 1, 2);
  c.sw = RandInt(rng, 1, 4);
  c.dw = RandInt(rng, 1, 6) == 1 ? 2 : 1;
  c.same = RandInt(rng, 0, 1) == 1;
  c.act = RandomActivation(rng);
  c.bias_mode = RandInt(rng, 0, 2);
  c.threads = RandInt(rng, 1, 2);
  return c;
}

TEST_CASE("CONV_2D float: one-pixel-high windows read the input in place (random shapes)") {
  for (uint32_t seed = 1; seed <= 50; ++seed) {
    std::mt19937 rng(seed + 7000);
    RunFloat(RandomRowCase(rng, 19), seed + 7000);
  }
}

// On AMX the int8 rows are read in place too (depth from 61 and a multiple of 4: im2col.h,
// Int8DotConv); elsewhere, and for other depths, im2col as before. Bit-exact either way.
TEST_CASE("CONV_2D int8: one-pixel-high windows are bit-exact with the reference (random shapes)") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 7100);
    ConvCase c = RandomRowCase(rng, 48);
    c.ic = c.ic / 4 * 4 + 4;  // depth f_w * ic a multiple of 4
    RunQuantized<int8_t>(c, seed % 3 != 0, seed + 7100);
  }
}

// On the AVX-512 VNNI tiles (without AMX) windows that cover the image at least twice
// are read in place in a padded copy of the image (im2col.h: PaddedDotImageApplies):
// filter rows of a multiple of 4 bytes as the tiles' spans, narrower ones (3 channels)
// copied from it. Images up to 40 x 40 (output rows split over the threads), both
// strides, dilated columns, SAME and VALID, 1-2 images. Bit-exact.
// A case for the padded-image paths: images of 6-40 x 6-40 pixels, filters up to 5 x 5,
// both strides, sometimes dilated rows, SAME (mostly) or VALID, 1-2 images, 1-3 threads.
ConvCase RandomImageCase(std::mt19937& rng) {
  ConvCase c;
  c.batch = RandInt(rng, 1, 2);
  c.ih = RandInt(rng, 6, 40);
  c.iw = RandInt(rng, 6, 40);
  const int channels[] = {1, 2, 3, 4, 6, 8, 12, 16, 20, 32};
  c.ic = channels[RandInt(rng, 0, 9)];
  c.oc = RandInt(rng, 1, 40);
  c.fh = RandInt(rng, 1, 5);
  c.fw = RandInt(rng, 1, 5);
  c.sh = RandInt(rng, 1, 2);
  c.sw = RandInt(rng, 1, 2);
  c.dh = RandInt(rng, 1, 4) == 1 ? 2 : 1;
  c.same = RandInt(rng, 0, 2) != 0 || c.ih < c.EffH() || c.iw < c.EffW();
  c.act = RandomActivation(rng);
  c.bias_mode = RandInt(rng, 0, 2);
  c.threads = RandInt(rng, 1, 3);
  return c;
}

// A 10 x 10 x 64 image, 3 x 3 SAME to 400 channels (weights over several of the GEMM's
// column blocks), on `threads`.
ConvCase WideLayerCase(int threads) {
  ConvCase c;
  c.ih = c.iw = 10;
  c.ic = 64;
  c.oc = 400;
  c.fh = c.fw = 3;
  c.same = true;
  c.threads = threads;
  return c;
}

// The case's geometry, as the kernel computes it (TensorFlow's SAME: the smaller half of
// the padding first).
tflite::conv_util::ConvGeometry GeometryOf(const ConvCase& c) {
  tflite::conv_util::ConvGeometry g{};
  g.batches = c.batch;
  g.in_h = c.ih;
  g.in_w = c.iw;
  g.in_c = c.ic;
  g.f_c = c.FC();
  g.f_h = c.fh;
  g.f_w = c.fw;
  g.out_h = c.OutH();
  g.out_w = c.OutW();
  g.out_c = c.oc;
  g.groups = c.groups;
  g.group_out_c = c.oc / c.groups;
  g.stride_h = c.sh;
  g.stride_w = c.sw;
  g.dil_h = c.dh;
  g.dil_w = c.dw;
  g.pad_h = c.PadH();
  g.pad_w = c.PadW();
  return g;
}

// On the AVX-512 VNNI tiles (without AMX) windows that cover the image at least twice
// are read in place in a padded copy of the image (im2col.h: PaddedDotImageApplies):
// filter rows of a multiple of 4 bytes as the tiles' spans, narrower ones (3 channels)
// copied from it. Bit-exact.
TEST_CASE("CONV_2D int8: windows read in a padded image are bit-exact (random shapes)") {
  size_t padded = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 7300);
    const ConvCase c = RandomImageCase(rng);
    padded += tflite::conv_util::PaddedDotImageApplies(GeometryOf(c));
    RunQuantized<int8_t>(c, seed % 3 != 0, seed + 7300);
  }
  // Weights of more columns than the GEMM's blocks (3 x 3 x 64 -> 400); one thread and two.
  for (int threads : {1, 2}) {
    ConvCase c = WideLayerCase(threads);
    c.act = tflite::ActivationFunctionType_RELU;
    RunQuantized<int8_t>(c, true, 7390 + threads);
  }
  if (tflite::gemm::CpuHasAvx512Vnni() && !tflite::gemm::CpuHasAmxInt8()) {
    CHECK(padded >= 15);
  } else {
    WARN("no AVX-512 VNNI tiles without AMX here: the padded-image path was not taken");
  }
}

TEST_CASE("CONV_2D int8 per-channel is bit-exact with the reference (random shapes)") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 1000);
    RunQuantized<int8_t>(RandomCase(rng), seed % 4 != 0, seed);
  }
}

TEST_CASE("CONV_2D uint8 is bit-exact with the reference (random shapes)") {
  for (uint32_t seed = 1; seed <= 25; ++seed) {
    std::mt19937 rng(seed + 2000);
    RunQuantized<uint8_t>(RandomCase(rng), false, seed);
  }
}

TEST_CASE("CONV_2D int8 / uint8 on two threads (GEMM split into several blocks)") {
  ConvCase c;
  c.ih = 16;
  c.iw = 16;
  c.ic = 32;
  c.oc = 48;
  c.fh = c.fw = 3;
  c.same = true;
  c.threads = 2;
  c.act = tflite::ActivationFunctionType_RELU;
  RunQuantized<int8_t>(c, true, 301);
  RunQuantized<uint8_t>(c, false, 302);
  // Large enough for im2col to be split over the threads too.
  c.ih = c.iw = 48;
  c.ic = 16;
  c.oc = 20;
  c.sh = 1;
  RunQuantized<int8_t>(c, true, 303);
  RunFloat(c, 304);
}

// The MediaPipe pattern: float16 constant weights -> DEQUANTIZE -> CONV_2D. The runtime
// folds the DEQUANTIZE nodes, so the convolution sees persistent weights and keeps them
// packed across invokes.
TEST_CASE("CONV_2D with float16 weights through DEQUANTIZE") {
  // float16 bits of 1, 2, 0.5, -1 (filter [1,2,2,1]) and 0.25 (bias).
  const std::vector<uint16_t> w16 = {0x3C00, 0x4000, 0x3800, 0xBC00};
  const std::vector<uint16_t> b16 = {0x3400};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 3, 1}, "in");
  const int wh = b.AddConstTensor<uint16_t>(tflite::TensorType_FLOAT16, {1, 2, 2, 1}, w16, "wh");
  const int bh = b.AddConstTensor<uint16_t>(tflite::TensorType_FLOAT16, {1}, b16, "bh");
  const int w = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "w");
  const int bias = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 2, 1}, "out");
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {wh}, {w}, {}, 2);
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {bh}, {bias}, {}, 2);
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w, bias}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  for (int run = 0; run < 2; ++run) {
    const float s = run == 0 ? 1.f : 2.f;
    m.SetInput<float>(0, {1 * s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s});
    REQUIRE(m.Invoke() == kTfLiteOk);
    // Window (0,0): 1*1 + 2*2 + 4*0.5 - 5 = 2; window (0,1): 2 + 6 + 2.5 - 6 = 4.5.
    CHECK(m.Output<float>(0) == std::vector<float>{2 * s + 0.25f, 4.5f * s + 0.25f});
  }
}

TEST_CASE("CONV_2D float with a non-constant filter repacks it each invoke") {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 2, 2}, "in");
  const int w = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 1, 2}, "w");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 2, 1}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o));
  b.SetInputs({in, w});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 2, 3, 4});
  m.SetInput<float>(1, {1, 1});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{3, 7});
  m.SetInput<float>(1, {10, 0});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{10, 30});
}

// --- Hybrid (float input, int8 filter) ----------------------------------------------
// An independent model of TFLite's hybrid conv: per-image quantization (symmetric for one
// scale, asymmetric with an offset for differing per-channel scales or groups), exact
// integer sums over in-image taps, float rescale. Compared in double within 1e-5 of the
// magnitude, and against the float convolution within the input quantization error.
void RunHybrid(const ConvCase& c, bool per_channel, uint32_t seed) {
  CAPTURE(seed, per_channel, c.groups, c.batch, c.ih, c.iw, c.ic, c.fh, c.fw, c.oc, c.sh, c.sw,
          c.dh, c.same, static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  auto in_v = RandomFloats(rng, static_cast<size_t>(c.batch) * c.ih * c.iw * c.ic, -2.f, 2.f);
  if (seed % 5 == 0) {
    for (auto& v : in_v) v = std::abs(v);  // one-signed images
  }
  const auto w_v = RandomInts<int8_t>(rng, static_cast<size_t>(c.oc) * c.fh * c.fw * c.FC(), -127,
                                      127);
  const auto b_v = RandomFloats(rng, c.oc);
  std::vector<float> scales = RandomFloats(rng, per_channel ? c.oc : 1, 0.001f, 0.03f);
  QuantSpec w_q;
  w_q.scale = scales;
  w_q.zero_point.assign(scales.size(), 0);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.ih, c.iw, c.ic}, "in");
  const int w =
      b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.oc, c.fh, c.fw, c.FC()}, w_v, "w", &w_q);
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.oc}, b_v, "b");
  const int out =
      b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.OutH(), c.OutW(), c.oc}, "out");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, Inputs(b, c, in, w, bias), {out}, Options(Opts(c)),
                c.groups > 1 ? 6 : per_channel ? 5 : 2);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<float>(0);

  bool differ = false;
  for (float sc : scales) differ = differ || sc != scales[0];
  const bool asymmetric = differ || c.groups > 1;
  const size_t image = static_cast<size_t>(c.ih) * c.iw * c.ic;
  std::vector<int> q(in_v.size());
  std::vector<double> sf(c.batch);
  std::vector<int> zp(c.batch, 0);
  for (int bi = 0; bi < c.batch; ++bi) {
    const float* x = in_v.data() + bi * image;
    float mn = 0, mx = 0;
    for (size_t i = 0; i < image; ++i) {
      mn = std::min(mn, x[i]);
      mx = std::max(mx, x[i]);
    }
    if (!asymmetric) {
      const float range = std::max(std::abs(mn), std::abs(mx));
      sf[bi] = static_cast<double>(range / 127);
      for (size_t i = 0; i < image; ++i) {
        q[bi * image + i] = static_cast<int>(std::round(x[i] * (127.f / range)));
      }
    } else {
      const double scale = (static_cast<double>(mx) - mn) / 255.0;
      const double zmin = -128 - mn / scale, zmax = 127 - mx / scale;
      const double zd = (128 + std::abs(mn / scale)) < (127 + std::abs(mx / scale)) ? zmin : zmax;
      zp[bi] = zd <= -128 ? -128 : zd >= 127 ? 127 : static_cast<int>(std::round(zd));
      sf[bi] = static_cast<float>(scale);
      const float inv = 1.0f / static_cast<float>(scale);
      // The product rounded alone and the offset added as an integer, as TFLite's x86
      // build quantizes (hybrid.h: QuantizeLoop; rounding zp + product moves values near a
      // half by a step).
      for (size_t i = 0; i < image; ++i) {
        q[bi * image + i] =
            std::min(127, std::max(-128, zp[bi] + static_cast<int>(std::round(x[i] * inv))));
      }
    }
  }
  const size_t per_batch_out = static_cast<size_t>(c.OutH()) * c.OutW() * c.oc;
  std::vector<int64_t> acc(OutSize(c), 0);
  std::vector<double> exact(OutSize(c), 0.0), mag(OutSize(c), 0.0), werr(OutSize(c), 0.0);
  ForEachTap(c, [&](size_t oi, int o, size_t ii, size_t fi) {
    const size_t bi = oi / per_batch_out;
    const double fs = scales[per_channel ? o : 0];
    acc[oi] += static_cast<int64_t>(w_v[fi]) * (q[ii] - zp[bi]);
    exact[oi] += static_cast<double>(w_v[fi]) * fs * in_v[ii];
    mag[oi] += std::abs(w_v[fi] * fs * in_v[ii]);
    werr[oi] += std::abs(w_v[fi] * fs) * sf[bi] * 0.5001;
  });
  for (size_t i = 0; i < acc.size(); ++i) {
    const int o = static_cast<int>(i % c.oc);
    const size_t bi = i / per_batch_out;
    const double fs = scales[per_channel ? o : 0];
    const double bias_v = c.bias_mode == 2 ? b_v[o] : 0.0;
    double want = static_cast<double>(acc[i]) * fs * sf[bi] + bias_v;
    double ex = exact[i] + bias_v;
    RefFloatActivation(c.act, &want);
    RefFloatActivation(c.act, &ex);
    CAPTURE(i, got[i], want, ex);
    REQUIRE(CloseTo(got[i], want, mag[i] + werr[i] + std::abs(bias_v)));
    REQUIRE(std::abs(got[i] - ex) <= werr[i] + 1e-5 * (1 + mag[i]));
  }
}

TEST_CASE("CONV_2D hybrid golden (v2): symmetric image quantization, zero padding") {
  // Image {1, -0.5} (1x1x2x1), 1x2 filter {127, 64} * 0.01, SAME: q = {127, -64}, scale 1/127.
  // Pixel 0: 127*127 + 64*(-64) = 12033 -> 12033 * 0.01 / 127; pixel 1: -64*127 (pad right).
  ModelBuilder b;
  QuantSpec q{{0.01f}, {0}, 0};
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 2, 1}, "in");
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 1, 2, 1}, {127, 64}, "w", &q);
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 2, 1}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o), 2);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1.f, -0.5f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<float>(0);
  CHECK(got[0] == Approx(12033 * 0.01 / 127).epsilon(1e-6));
  CHECK(got[1] == Approx(-64 * 127 * 0.01 / 127).epsilon(1e-6));
}

TEST_CASE("CONV_2D hybrid per-tensor (v2), per-channel (v5), grouped: random, seeds printed") {
  for (uint32_t seed = 1; seed <= 36; ++seed) {
    std::mt19937 rng(seed + 9000);
    ConvCase c = seed % 3 == 0 ? RandomGroupedCase(rng) : RandomCase(rng);
    RunHybrid(c, seed % 2 == 0, seed);
  }
}

// As many groups as channels (RandomDepthwiseGroupsCase): conv_2d.cc's
// EvalHybridDepthwiseGroups, on the depthwise sums.
TEST_CASE("CONV_2D hybrid with one channel per group: random, seeds printed") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed + 9200);
    RunHybrid(RandomDepthwiseGroupsCase(rng), seed % 2 == 0, seed + 9200);
  }
}

// Hybrid convolutions reading one input (an Inception block's branches: the images are
// quantized once per Invoke, kernels/internal/hybrid_inputs.h): per-channel 1x1 and 3x3
// layers, a per-tensor one (symmetric: another quantization of the same tensor), and a 1x1
// on the first one's output. Every output the bits of the layer in a model of its own, on
// two inputs in turn, batch 2, at 1 and 2 threads.
TEST_CASE("CONV_2D hybrid layers sharing an input give each layer's own bits") {
  std::mt19937 rng(91);
  const int batch = 2, h = 9, w = 11, ic = 24;
  struct Layer {
    int f, oc, in_c;
    bool per_channel;
    std::vector<int8_t> w;
    std::vector<float> scales, bias;
  };
  std::vector<Layer> layers;
  for (const auto& [f, oc, per_channel] :
       std::vector<std::tuple<int, int, bool>>{{1, 20, true}, {3, 17, true}, {1, 12, false}, {1, 8, true}}) {
    const int in_c = layers.size() == 3 ? 20 : ic;
    layers.push_back({f, oc, in_c, per_channel,
                      RandomInts<int8_t>(rng, static_cast<size_t>(oc) * f * f * in_c, -127, 127),
                      RandomFloats(rng, per_channel ? oc : 1, 0.001f, 0.03f), RandomFloats(rng, oc)});
  }
  auto add_layer = [](ModelBuilder& b, const Layer& l, int in) {
    QuantSpec q;
    q.scale = l.scales;
    q.zero_point.assign(l.scales.size(), 0);
    const int wt = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {l.oc, l.f, l.f, l.in_c}, l.w, "w", &q);
    const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {l.oc}, l.bias, "b");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, l.oc}, "out");
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_SAME;
    o.stride_h = o.stride_w = 1;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, wt, bias}, {out}, Options(o),
                  l.per_channel ? 5 : 2);
    return out;
  };
  auto alone = [&](const Layer& l, const std::vector<float>& x) {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, l.in_c}, "in");
    b.SetInputs({in});
    b.SetOutputs({add_layer(b, l, in)});
    OpTestModel m(b);
    REQUIRE(m.Prepare() == kTfLiteOk);
    m.SetInput<float>(0, x);
    REQUIRE(m.Invoke() == kTfLiteOk);
    return m.Output<float>(0);
  };
  for (int threads : {1, 2}) {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, ic}, "in");
    std::vector<int32_t> outs;
    for (size_t i = 0; i < layers.size(); ++i) outs.push_back(add_layer(b, layers[i], i == 3 ? outs[0] : in));
    b.SetInputs({in});
    b.SetOutputs(outs);
    OpTestModel m(b, threads);
    REQUIRE(m.Prepare() == kTfLiteOk);
    for (int run = 0; run < 2; ++run) {
      CAPTURE(threads, run);
      const auto x = RandomFloats(rng, static_cast<size_t>(batch) * h * w * ic, -2.f, 2.f);
      m.SetInput<float>(0, x);
      REQUIRE(m.Invoke() == kTfLiteOk);
      const auto first = alone(layers[0], x);
      for (size_t i = 0; i < layers.size(); ++i) {
        CAPTURE(i);
        const auto want = alone(layers[i], i == 3 ? first : x);
        const auto got = m.Output<float>(static_cast<int>(i));
        REQUIRE(got.size() == want.size());
        CHECK(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);
      }
    }
  }
}

// One image of one-pixel-high windows: on AMX, rows read from the quantized image in place
// (conv_2d.cc: HybridRowsInPlace), the padding pixels through im2col.
TEST_CASE("CONV_2D hybrid: one-pixel-high windows (random shapes, seeds printed)") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed + 9100);
    ConvCase c = RandomRowCase(rng, 48);
    c.batch = 1;
    c.ic = c.ic / 4 * 4 + 4;  // depth f_w * ic a multiple of 4
    RunHybrid(c, seed % 2 == 0, seed + 9100);
  }
  // An image of more than 64 KiB on two threads: its quantization and its conversion to the
  // dot GEMM's bytes run in spans over the pool.
  ConvCase c;
  c.ih = 2;
  c.iw = 1500;
  c.ic = 24;
  c.oc = 20;
  c.fw = 5;
  c.same = true;
  c.threads = 2;
  RunHybrid(c, true, 9199);
  RunHybrid(c, false, 9198);
}

// One image on the AVX-512 VNNI tiles (without AMX): the windows read in the padded
// quantized image (conv_2d.cc, im2col.h: DotSpansApply), filter rows of a multiple of 4
// bytes; SAME and VALID, both strides, dilated rows, one thread and two; and a layer of 400
// output channels.
TEST_CASE("CONV_2D hybrid: windows read in a padded image (random shapes, seeds printed)") {
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    std::mt19937 rng(seed + 9300);
    ConvCase c = RandomImageCase(rng);
    c.batch = 1;
    c.ic = 4 * RandInt(rng, 1, 8);
    RunHybrid(c, seed % 2 == 0, seed + 9300);
  }
  RunHybrid(WideLayerCase(2), true, 9399);
}

TEST_CASE("CONV_2D rejects bad models in Prepare") {
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  SECTION("one input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "in");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in}, {out}, Options(o));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("failed to prepare") != std::string::npos);
  }
  SECTION("int32 input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_INT32, {1, 2, 2, 1}, "in");
    const int w = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {1, 1, 1, 1}, {1}, "w");
    const int out = b.AddTensor(tflite::TensorType_INT32, {1, 2, 2, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("Type INT32 (2) not supported.") != std::string::npos);
  }
  SECTION("grouped convolution") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 4}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2, 1, 1, 3},
                                          {1, 2, 3, 4, 5, 6}, "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "out");
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("input depth 4 is not a multiple of the filter depth 3") !=
          std::string::npos);
  }
  SECTION("VALID filter larger than the input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 3, 3, 1},
                                          std::vector<float>(9, 1.f), "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o));
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("output would be empty") != std::string::npos);
  }
  SECTION("hybrid float input with uint8 filter") {
    ModelBuilder b;
    QuantSpec q{{0.1f}, {0}, 0};
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "in");
    const int w = b.AddConstTensor<uint8_t>(tflite::TensorType_UINT8, {1, 1, 1, 1}, {1}, "w", &q);
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o), 2);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("Hybrid CONV_2D (float input, UINT8 filter) not supported.") !=
          std::string::npos);
  }
  SECTION("hybrid with a scale count that is neither 1 nor the output channels") {
    ModelBuilder b;
    QuantSpec q{{0.1f, 0.2f}, {0, 0}, 0};
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "in");
    const int w =
        b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {3, 1, 1, 1}, {1, 2, 3}, "w", &q);
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 3}, "out");
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w}, {out}, Options(o), 5);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    // The interpreter rejects the scale count before the kernel's own check runs.
    CHECK(m.errors().find("num_scales must be 1 for per-layer quantization, or 3") !=
          std::string::npos);
  }
}

}  // namespace
}  // namespace tflite_inspect
