// TRANSPOSE_CONV: float32 TFLite golden, random shapes / strides / SAME and VALID / bias /
// fused activations against a double-precision scatter reference (constant and run-time
// output_shape, thread pool); uint8, int8 per-channel and int16 (16x8, int64 bias) bit for bit
// against an integer scatter reference, a 16x8 rounding golden; errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/testing/conv_test_util.h"
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

// Quantized random cases against an integer scatter reference (bit for bit):
//   int8: per-channel int8 weights, int32 bias, random zero points;
//   uint8: per-tensor uint8 weights with a zero point, int32 bias, legacy float-product
//          multiplier;
//   int16 (16x8): per-channel int8 weights, int64 bias, zero points 0, int64 sums and
//          upstream's int64 requantization.
// A fixed geometry instead of the random one (b, h, w, ic, oc, kh, kw, sh, sw).
struct QuantShape {
  int b, h, w, ic, oc, kh, kw, sh, sw;
};

template <typename T>
void RandomQuantized(tflite::TensorType type, uint32_t first_seed, const QuantShape* fixed = nullptr,
                     int cases = 16) {
  constexpr bool kU8 = std::is_same<T, uint8_t>::value;
  constexpr bool k16 = std::is_same<T, int16_t>::value;
  using W = typename std::conditional<kU8, uint8_t, int8_t>::type;
  for (uint32_t seed = first_seed; seed < first_seed + cases; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bool same = rng() % 2, with_bias = rng() % 2;
    const int act = rng() % 3;
    int b = 1 + rng() % 2, h = 1 + rng() % 4, w = 1 + rng() % 4, ic = 1 + rng() % 5;
    int oc = 1 + rng() % 6, kh = 1 + rng() % 3, kw = 1 + rng() % 3;
    int sh = 1 + rng() % 2, sw = 1 + rng() % 3;
    if (fixed != nullptr) {
      b = fixed->b, h = fixed->h, w = fixed->w, ic = fixed->ic, oc = fixed->oc;
      kh = fixed->kh, kw = fixed->kw, sh = fixed->sh, sw = fixed->sw;
    }
    const int oh = same ? h * sh : (h - 1) * sh + kh, ow = same ? w * sw : (w - 1) * sw + kw;
    float si = 0.02f + (rng() % 50) / 1000.0f, so = 0.05f + (rng() % 50) / 100.0f;
    if (k16) {
      si /= 256;
      so /= 256;
    }
    int zi = static_cast<int>(rng() % 30) - 15, zo = static_cast<int>(rng() % 30) - 15;
    int zw = 0;
    if (kU8) {
      zi += 128;
      zo += 128;
      zw = 100 + static_cast<int>(rng() % 56);
    }
    if (k16) zi = zo = 0;
    std::vector<float> sf(kU8 ? 1 : oc);
    for (auto& v : sf) v = 0.005f + (rng() % 100) / 2000.0f;
    std::vector<T> x(b * h * w * ic);
    std::vector<W> wt(oc * kh * kw * ic);
    std::vector<int64_t> bias(oc);
    for (auto& v : x) {
      v = static_cast<T>(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(),
                                                           std::numeric_limits<T>::max())(rng));
    }
    for (auto& v : wt) {
      v = static_cast<W>(kU8 ? rng() % 256 : static_cast<int>(rng() % 255) - 127);
    }
    for (auto& v : bias) v = static_cast<int64_t>(rng() % 20001) - 10000;
    if (k16) {
      for (auto& v : bias) v *= 300;
    }
    ModelBuilder mb;
    QuantSpec qi{{si}, {zi}, 0}, qo{{so}, {zo}, 0}, qw, qb;
    qw.scale = sf;
    qw.zero_point.assign(sf.size(), zw);
    for (float f : sf) qb.scale.push_back(si * f);
    qb.zero_point.assign(sf.size(), 0);
    const int t_shape = mb.AddConstTensor<int32_t>(TensorType_INT32, {4}, {b, oh, ow, oc}, "shape");
    const int t_w = mb.AddConstTensor<W>(kU8 ? tflite::TensorType_UINT8 : tflite::TensorType_INT8,
                                         {oc, kh, kw, ic}, wt, "w", &qw);
    const int t_x = mb.AddTensor(type, {b, h, w, ic}, "x", &qi);
    std::vector<int32_t> ins{t_shape, t_w, t_x};
    if (with_bias) {
      if (k16) {
        ins.push_back(mb.AddConstTensor<int64_t>(tflite::TensorType_INT64, {oc}, bias, "b", &qb));
      } else {
        std::vector<int32_t> b32(bias.begin(), bias.end());
        ins.push_back(mb.AddConstTensor<int32_t>(TensorType_INT32, {oc}, b32, "b", &qb));
      }
    }
    const int t_o = mb.AddTensor(type, {b, oh, ow, oc}, "out", &qo);
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
    m.SetInput<T>(0, x);
    REQUIRE(m.Invoke() == kTfLiteOk);
    const auto got = m.Output<T>(0);
    std::vector<int64_t> acc(static_cast<size_t>(b) * oh * ow * oc, 0);
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
                      (static_cast<int64_t>(x[((n * h + y) * w + xx) * ic + c]) - zi) *
                      (static_cast<int64_t>(wt[((o * kh + fy) * kw + fx) * ic + c]) - zw);
                }
    int32_t lo, hi;
    conv_test::RefActivationRange<T>(acts[act], so, zo, &lo, &hi);
    for (size_t i = 0; i < acc.size(); ++i) {
      const int o = static_cast<int>(i % oc);
      int32_t q;
      int shift;
      const double real = kU8 ? static_cast<double>(si * sf[0]) / so
                              : static_cast<double>(si) * static_cast<double>(sf[o]) / so;
      conv_test::RefQuantizeMultiplier(real, &q, &shift);
      const int64_t a = acc[i] + (with_bias ? bias[o] : 0);
      int32_t v;
      if (k16) {
        v = conv_test::RefMultiplyByQuantizedMultiplier64(a, q, shift);
      } else {
        REQUIRE(a == static_cast<int32_t>(a));
        v = conv_test::RefMultiplyByQuantizedMultiplier(static_cast<int32_t>(a), q, shift);
      }
      const int32_t want = std::min(hi, std::max(lo, v + zo));
      CAPTURE(i, a);
      REQUIRE(static_cast<int32_t>(got[i]) == want);
    }
  }
}

TEST_CASE("TRANSPOSE_CONV 8-bit over several column chunks and partial GEMM panels") {
  // n = 20 * 4 * 4 = 320 columns per input pixel, 90 * 40 pixels: past the kernel's
  // 2^20-value col budget, so the image is summed in row chunks; odd depth 7.
  const QuantShape big{1, 90, 40, 7, 20, 4, 4, 2, 2};
  SECTION("int8") { RandomQuantized<int8_t>(tflite::TensorType_INT8, 501, &big, 2); }
  SECTION("uint8") { RandomQuantized<uint8_t>(tflite::TensorType_UINT8, 601, &big, 2); }
}

TEST_CASE("TRANSPOSE_CONV quantized matches an integer reference bit for bit") {
  SECTION("int8 per-channel") { RandomQuantized<int8_t>(tflite::TensorType_INT8, 1); }
  SECTION("uint8 per-tensor") { RandomQuantized<uint8_t>(tflite::TensorType_UINT8, 101); }
  SECTION("int16 activations, int8 weights, int64 bias") {
    RandomQuantized<int16_t>(tflite::TensorType_INT16, 201);
  }
}

TEST_CASE("TRANSPOSE_CONV 16x8 golden: halves round up in the int64 requantization") {
  // One input pixel (value 3) through a 1x1 filter of weight 1, scales 1 * 0.5 / 1:
  // acc = 3 (+ bias 0 or 1): 3 * 0.5 = 1.5 -> 2; (3 - 4) * 0.5 = -0.5 -> 0 (up, not -1).
  for (const int64_t bias : {int64_t{0}, int64_t{-4}}) {
    ModelBuilder mb;
    QuantSpec qi{{1.0f}, {0}, 0}, qo{{2.0f}, {0}, 0}, qw{{1.0f}, {0}, 0}, qb{{1.0f}, {0}, 0};
    const int t_shape = mb.AddConstTensor<int32_t>(TensorType_INT32, {4}, {1, 1, 1, 1}, "shape");
    const int t_w = mb.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 1, 1, 1}, {1}, "w", &qw);
    const int t_x = mb.AddTensor(tflite::TensorType_INT16, {1, 1, 1, 1}, "x", &qi);
    const int t_b = mb.AddConstTensor<int64_t>(tflite::TensorType_INT64, {1}, {bias}, "b", &qb);
    const int t_o = mb.AddTensor(tflite::TensorType_INT16, {1, 1, 1, 1}, "out", &qo);
    mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {t_shape, t_w, t_x, t_b}, {t_o},
                   Params(tflite::Padding_VALID, 1, 1), 3);
    mb.SetInputs({t_x});
    mb.SetOutputs({t_o});
    OpTestModel m(mb);
    REQUIRE(m.Prepare() == kTfLiteOk);
    m.SetInput<int16_t>(0, {3});
    REQUIRE(m.Invoke() == kTfLiteOk);
    CHECK(m.Output<int16_t>(0) == std::vector<int16_t>{static_cast<int16_t>(bias == 0 ? 2 : 0)});
  }
}

// 16x8 with quantized_bias_type int32 (v5) sums in int32, as the reference: 600 channels of
// 32767 x 127 pass 2^31, and the sum wraps (-1798121896) instead of being undefined (an
// invoke_fuzzer finding under UBSan); then x 2^-20, rounded: -1715.
TEST_CASE("TRANSPOSE_CONV 16x8 with an int32 bias wraps its sums as the reference's int32") {
  constexpr int kChannels = 600;
  ModelBuilder mb;
  QuantSpec qi{{1.0f}, {0}, 0}, qo{{1048576.0f}, {0}, 0}, qw{{1.0f}, {0}, 0}, qb{{1.0f}, {0}, 0};
  const int t_shape = mb.AddConstTensor<int32_t>(TensorType_INT32, {4}, {1, 1, 1, 1}, "shape");
  const int t_w = mb.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 1, 1, kChannels},
                                            std::vector<int8_t>(kChannels, 127), "w", &qw);
  const int t_x = mb.AddTensor(tflite::TensorType_INT16, {1, 1, 1, kChannels}, "x", &qi);
  const int t_b = mb.AddConstTensor<int32_t>(TensorType_INT32, {1}, {0}, "b", &qb);
  const int t_o = mb.AddTensor(tflite::TensorType_INT16, {1, 1, 1, 1}, "out", &qo);
  tflite::TransposeConvOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.quantized_bias_type = TensorType_INT32;
  mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {t_shape, t_w, t_x, t_b}, {t_o}, Options(o), 5);
  mb.SetInputs({t_x});
  mb.SetOutputs({t_o});
  OpTestModel m(mb);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int16_t>(0, std::vector<int16_t>(kChannels, 32767));
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<int16_t>(0) == std::vector<int16_t>{-1715});
}

TEST_CASE("TRANSPOSE_CONV int16 refuses non-symmetric or mistyped tensors") {
  auto run = [](int zp, tflite::TensorType wtype, tflite::TensorType btype) {
    ModelBuilder mb;
    QuantSpec qi{{1.0f}, {zp}, 0}, qo{{1.0f}, {0}, 0}, qw{{1.0f}, {0}, 0}, qb{{1.0f}, {0}, 0};
    const int t_shape = mb.AddConstTensor<int32_t>(TensorType_INT32, {4}, {1, 1, 1, 1}, "shape");
    const int t_w = wtype == tflite::TensorType_INT8
                        ? mb.AddConstTensor<int8_t>(wtype, {1, 1, 1, 1}, {1}, "w", &qw)
                        : mb.AddConstTensor<int16_t>(wtype, {1, 1, 1, 1}, {1}, "w", &qw);
    const int t_x = mb.AddTensor(tflite::TensorType_INT16, {1, 1, 1, 1}, "x", &qi);
    const int t_b = btype == tflite::TensorType_INT64
                        ? mb.AddConstTensor<int64_t>(btype, {1}, {0}, "b", &qb)
                        : mb.AddConstTensor<int32_t>(btype, {1}, {0}, "b", &qb);
    const int t_o = mb.AddTensor(tflite::TensorType_INT16, {1, 1, 1, 1}, "out", &qo);
    mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {t_shape, t_w, t_x, t_b}, {t_o},
                   Params(tflite::Padding_VALID, 1, 1), 3);
    mb.SetInputs({t_x});
    mb.SetOutputs({t_o});
    OpTestModel m(mb);
    const TfLiteStatus s = m.Prepare();
    return std::make_pair(s, m.errors());
  };
  auto r = run(1, tflite::TensorType_INT8, tflite::TensorType_INT64);
  CHECK(r.first == kTfLiteError);
  CHECK_THAT(r.second, Catch::Contains("needs zero point 0 on input and output"));
  r = run(0, tflite::TensorType_INT16, tflite::TensorType_INT64);
  CHECK(r.first == kTfLiteError);
  CHECK_THAT(r.second, Catch::Contains("TRANSPOSE_CONV with int16 activations needs int8 weights"));
  r = run(0, tflite::TensorType_INT8, tflite::TensorType_INT32);
  CHECK(r.first == kTfLiteError);
  CHECK_THAT(r.second, Catch::Contains("needs an int64 bias (got INT32)"));
  r = run(0, tflite::TensorType_INT8, tflite::TensorType_INT64);
  CHECK(r.first == kTfLiteOk);
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
  r = run({1, 4, 4, 1}, tflite::TensorType_INT16, 2, {1, 3, 3, 1});  // int16 with float weights
  CHECK(r.prepare == kTfLiteError);
  r = run({1, 4, 4, 1}, TensorType_INT32, 2, {1, 3, 3, 1});
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("Type INT32 (2) not supported.") != std::string::npos);
  // Hybrid (float input, int8 weights) runs (testdata/kernels/transpose_conv_hybrid_*);
  // asymmetric weights are refused with the reason.
  const auto hybrid = [&](int32_t zero_point) {
    return Run(tflite::BuiltinOperator_TRANSPOSE_CONV,
               {Const<int32_t>(TensorType_INT32, {4}, {1, 4, 4, 1}),
                Const<int8_t>(tflite::TensorType_INT8, {1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9},
                              0.5f, zero_point),
                Input<float>(TensorType_FLOAT32, {1, 2, 2, 1}, {1.0f, -2.0f, 0.5f, 4.0f})},
               {TensorType_FLOAT32, {1, 4, 4, 1}}, Params(tflite::Padding_SAME, 2, 2), 2);
  };
  r = hybrid(3);
  CHECK(r.prepare == kTfLiteError);
  CHECK(r.errors.find("int8 weights must be symmetric (zero point 3 of channel 0)") !=
        std::string::npos);
  r = hybrid(0);
  REQUIRE(r.prepare == kTfLiteOk);
  REQUIRE(r.invoke == kTfLiteOk);
  // Against the float transposed convolution of the same values: each input is off by at
  // most half its quantization step (6 / 255 / 2), each output sums at most 4 of them
  // times weights up to 4.5.
  const float x[2][2] = {{1.0f, -2.0f}, {0.5f, 4.0f}};
  float want[4][4] = {};
  for (int iy = 0; iy < 2; ++iy)
    for (int ix = 0; ix < 2; ++ix)
      for (int fy = 0; fy < 3; ++fy)
        for (int fx = 0; fx < 3; ++fx)
          if (iy * 2 + fy < 4 && ix * 2 + fx < 4)
            want[iy * 2 + fy][ix * 2 + fx] +=
                x[iy][ix] * 0.5f * static_cast<float>(fy * 3 + fx + 1);
  const std::vector<float> got = r.As<float>();
  REQUIRE(got.size() == 16);
  for (int i = 0; i < 16; ++i)
    CHECK(got[i] == Approx(want[i / 4][i % 4]).margin(4 * 4.5 * 3.0 / 255));
}

}  // namespace
}  // namespace tflite_inspect
