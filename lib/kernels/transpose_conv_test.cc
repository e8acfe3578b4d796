// TRANSPOSE_CONV (float32, int8 per-channel): TFLite's golden, random shapes / strides / SAME and
// VALID / bias / fused activations against a double-precision scatter reference (constant and
// run-time output_shape, thread pool), and errors.
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
using tflite::TensorType_INT32;

OpOptions Params(tflite::Padding padding, int sh, int sw,
                 tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::TransposeConvOptionsT o;
  o.padding = padding;
  o.stride_h = sh;
  o.stride_w = sw;
  o.fused_activation_function = act;
  return Options(o);
}

TEST_CASE("TRANSPOSE_CONV golden") {
  std::vector<float> w(9), x(16);
  for (int i = 0; i < 9; ++i) w[i] = i + 1;
  for (int i = 0; i < 16; ++i) x[i] = i + 1;
  const auto r = Run(tflite::BuiltinOperator_TRANSPOSE_CONV,
                     {Const<int32_t>(TensorType_INT32, {4}, {1, 4, 4, 1}),
                      Const<float>(TensorType_FLOAT32, {1, 3, 3, 1}, w),
                      Input<float>(TensorType_FLOAT32, {1, 4, 4, 1}, x)},
                     {TensorType_FLOAT32, {1, 4, 4, 1}}, Params(tflite::Padding_SAME, 1, 1));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<float>() == std::vector<float>{29, 62, 83, 75, 99, 192, 237, 198, 207, 372, 417, 330,
                                            263, 446, 485, 365});
}

int RefPad(bool same, int stride, int out, int k) {
  const int conv_out = same ? (out + stride - 1) / stride : (out - k + stride) / stride;
  const int total = std::max(0, (conv_out - 1) * stride + k - out);
  return total / 2;
}

TEST_CASE("TRANSPOSE_CONV random shapes match a double reference") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool same = rng() % 2, with_bias = rng() % 2;
    const int act = rng() % 3;  // NONE, RELU, RELU6
    const int b = 1 + rng() % 2, h = 1 + rng() % 5, w = 1 + rng() % 5, ic = 1 + rng() % 6;
    const int oc = 1 + rng() % 20, kh = 1 + rng() % 4, kw = 1 + rng() % 4;
    const int sh = 1 + rng() % 3, sw = 1 + rng() % 3;
    // An output size whose forward conv gives back h x w.
    const int oh = same ? h * sh - static_cast<int>(rng() % sh)
                        : (h - 1) * sh + kh + static_cast<int>(rng() % sh);
    const int ow = same ? w * sw - static_cast<int>(rng() % sw)
                        : (w - 1) * sw + kw + static_cast<int>(rng() % sw);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> x(b * h * w * ic), wt(oc * kh * kw * ic), bias(oc);
    for (auto& v : x) v = dist(rng);
    for (auto& v : wt) v = dist(rng);
    for (auto& v : bias) v = dist(rng);
    std::vector<double> want(static_cast<size_t>(b) * oh * ow * oc, 0.0);
    const int ph = RefPad(same, sh, oh, kh), pw = RefPad(same, sw, ow, kw);
    for (int n = 0; n < b; ++n)
      for (int y = 0; y < h; ++y)
        for (int xx = 0; xx < w; ++xx)
          for (int c = 0; c < ic; ++c)
            for (int fy = 0; fy < kh; ++fy)
              for (int fx = 0; fx < kw; ++fx)
                for (int o = 0; o < oc; ++o) {
                  const int oy = y * sh - ph + fy, ox = xx * sw - pw + fx;
                  if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                  want[((static_cast<size_t>(n) * oh + oy) * ow + ox) * oc + o] +=
                      static_cast<double>(x[((n * h + y) * w + xx) * ic + c]) *
                      wt[((o * kh + fy) * kw + fx) * ic + c];
                }
    for (size_t i = 0; i < want.size(); ++i) {
      if (with_bias) want[i] += bias[i % oc];
      if (act >= 1) want[i] = std::max(0.0, want[i]);
      if (act == 2) want[i] = std::min(6.0, want[i]);
    }
    std::vector<In> inputs{seed % 3 ? Const<int32_t>(TensorType_INT32, {4}, {b, oh, ow, oc})
                                    : Input<int32_t>(TensorType_INT32, {4}, {b, oh, ow, oc}),
                           seed % 2 ? Const<float>(TensorType_FLOAT32, {oc, kh, kw, ic}, wt)
                                    : Input<float>(TensorType_FLOAT32, {oc, kh, kw, ic}, wt),
                           Input<float>(TensorType_FLOAT32, {b, h, w, ic}, x)};
    if (with_bias) inputs.push_back(Const<float>(TensorType_FLOAT32, {oc}, bias));
    const tflite::ActivationFunctionType acts[] = {tflite::ActivationFunctionType_NONE,
                                                   tflite::ActivationFunctionType_RELU,
                                                   tflite::ActivationFunctionType_RELU6};
    const auto r =
        Run(tflite::BuiltinOperator_TRANSPOSE_CONV, inputs, {TensorType_FLOAT32, {b, oh, ow, oc}},
            Params(same ? tflite::Padding_SAME : tflite::Padding_VALID, sh, sw, acts[act]), 4,
            1 + seed % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    CHECK(r.shape == std::vector<int>{b, oh, ow, oc});
    const auto got = r.As<float>();
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      REQUIRE(std::abs(got[i] - want[i]) <=
              1e-5 * std::max(1.0, static_cast<double>(ic * kh * kw)));
    }
  }
}

TEST_CASE("TRANSPOSE_CONV int8 per-channel matches an integer reference bit for bit") {
  for (uint32_t seed = 1; seed <= 16; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool same = rng() % 2, with_bias = rng() % 2;
    const int act = rng() % 3;
    const int b = 1 + rng() % 2, h = 1 + rng() % 4, w = 1 + rng() % 4, ic = 1 + rng() % 5;
    const int oc = 1 + rng() % 6, kh = 1 + rng() % 3, kw = 1 + rng() % 3;
    const int sh = 1 + rng() % 2, sw = 1 + rng() % 3;
    const int oh = same ? h * sh : (h - 1) * sh + kh, ow = same ? w * sw : (w - 1) * sw + kw;
    const float si = 0.02f + (rng() % 50) / 1000.0f, so = 0.05f + (rng() % 50) / 100.0f;
    const int zi = static_cast<int>(rng() % 30) - 15, zo = static_cast<int>(rng() % 30) - 15;
    std::vector<float> sf(oc);
    for (auto& v : sf) v = 0.005f + (rng() % 100) / 2000.0f;
    std::vector<int8_t> x(b * h * w * ic), wt(oc * kh * kw * ic);
    std::vector<int32_t> bias(oc);
    for (auto& v : x) v = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
    for (auto& v : wt) v = static_cast<int8_t>(static_cast<int>(rng() % 255) - 127);
    for (auto& v : bias) v = static_cast<int32_t>(rng() % 20001) - 10000;
    ModelBuilder mb;
    QuantSpec qi{{si}, {zi}, 0}, qo{{so}, {zo}, 0}, qw, qb;
    qw.scale = sf;
    qw.zero_point.assign(oc, 0);
    for (int c = 0; c < oc; ++c) qb.scale.push_back(si * sf[c]);
    qb.zero_point.assign(oc, 0);
    const int t_shape = mb.AddConstTensor<int32_t>(TensorType_INT32, {4}, {b, oh, ow, oc}, "shape");
    const int t_w =
        mb.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, kh, kw, ic}, wt, "w", &qw);
    const int t_x = mb.AddTensor(tflite::TensorType_INT8, {b, h, w, ic}, "x", &qi);
    std::vector<int32_t> ins{t_shape, t_w, t_x};
    if (with_bias)
      ins.push_back(mb.AddConstTensor<int32_t>(TensorType_INT32, {oc}, bias, "b", &qb));
    const int t_o = mb.AddTensor(tflite::TensorType_INT8, {b, oh, ow, oc}, "out", &qo);
    const tflite::ActivationFunctionType acts[] = {tflite::ActivationFunctionType_NONE,
                                                   tflite::ActivationFunctionType_RELU,
                                                   tflite::ActivationFunctionType_RELU6};
    mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, ins, {t_o},
                   Params(same ? tflite::Padding_SAME : tflite::Padding_VALID, sh, sw, acts[act]),
                   4);
    mb.SetInputs({t_x});
    mb.SetOutputs({t_o});
    OpTestModel m(mb);
    REQUIRE(m.Prepare() == kTfLiteOk);
    m.SetInput<int8_t>(0, x);
    REQUIRE(m.Invoke() == kTfLiteOk);
    const auto got = m.Output<int8_t>(0);
    std::vector<int32_t> acc(static_cast<size_t>(b) * oh * ow * oc, 0);
    const int ph = RefPad(same, sh, oh, kh), pw = RefPad(same, sw, ow, kw);
    for (int n = 0; n < b; ++n)
      for (int y = 0; y < h; ++y)
        for (int xx = 0; xx < w; ++xx)
          for (int c = 0; c < ic; ++c)
            for (int fy = 0; fy < kh; ++fy)
              for (int fx = 0; fx < kw; ++fx)
                for (int o = 0; o < oc; ++o) {
                  const int oy = y * sh - ph + fy, ox = xx * sw - pw + fx;
                  if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                  acc[((static_cast<size_t>(n) * oh + oy) * ow + ox) * oc + o] +=
                      (x[((n * h + y) * w + xx) * ic + c] - zi) *
                      wt[((o * kh + fy) * kw + fx) * ic + c];
                }
    int lo = -128, hi = 127;
    if (act >= 1) lo = std::max(lo, zo);
    if (act == 2) hi = std::min(hi, zo + static_cast<int>(std::round(6.0f / so)));
    for (size_t i = 0; i < acc.size(); ++i) {
      const int o = static_cast<int>(i % oc);
      int32_t q;
      int shift;
      RefQuantizeMultiplier(static_cast<double>(si) * static_cast<double>(sf[o]) / so, &q, &shift);
      const int32_t a = acc[i] + (with_bias ? bias[o] : 0);
      const int32_t want = std::min(hi, std::max(lo, RefMultiply(a, q, shift) + zo));
      CAPTURE(i);
      REQUIRE(got[i] == want);
    }
  }
}

TEST_CASE("TRANSPOSE_CONV rejects bad models") {
  auto run = [](std::vector<int32_t> shape, tflite::TensorType type, int stride,
                std::vector<int32_t> wshape) {
    return Run(tflite::BuiltinOperator_TRANSPOSE_CONV,
               {Const<int32_t>(TensorType_INT32, {4}, shape),
                Const<float>(TensorType_FLOAT32, wshape, std::vector<float>(Count(wshape))),
                In{type, {1, 2, 2, 1}, std::vector<uint8_t>(4 * 4), false, 0, 0}},
               {TensorType_FLOAT32, shape}, Params(tflite::Padding_SAME, stride, stride));
  };
  auto r = run({1, 4, 4, 2}, TensorType_FLOAT32, 2, {1, 3, 3, 1});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("does not fit") != std::string::npos);
  r = run({1, 4, 4, 1}, TensorType_FLOAT32, 0, {1, 3, 3, 1});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("strides must be positive") != std::string::npos);
  r = run({1, 4, 4, 1}, TensorType_FLOAT32, 2, {1, 3, 3, 2});
  CHECK(r.prepare == kTfLiteError);
  r = run({1, 4, 4, 1}, tflite::TensorType_INT16, 2, {1, 3, 3, 1});
  CHECK(r.prepare == kTfLiteError);
  r = run({1, 4, 4, 1}, TensorType_INT32, 2, {1, 3, 3, 1});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT32 (2) not supported.") != std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
