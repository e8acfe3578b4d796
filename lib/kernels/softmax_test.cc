// SOFTMAX: float goldens and random rows against double (with beta); quantized
// uint8/int8 (and int8 -> int16) bit-exact against an independent model of TFLite's
// reference fixed-point path, within one step of the real softmax; int16 -> int16
// against a model of TFLite's table-based path; errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "catch2/catch.hpp"
#include "kernels/internal/eigen_sum.h"
#include "kernels/internal/softmax_f32.h"
#include "kernels/testing/tensor_test_util.h"

namespace tflite_inspect {
namespace {

using namespace tensor_test;  // NOLINT
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

OpOptions SoftmaxOptions(float beta) {
  tflite::SoftmaxOptionsT o;
  o.beta = beta;
  return Options(o);
}

TEST_CASE("SOFTMAX float golden") {
  const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                     {Input<float>(TensorType_FLOAT32, {2, 2}, {0, std::log(3.f), 5, 5})},
                     {TensorType_FLOAT32, {2, 2}}, SoftmaxOptions(1.f));
  REQUIRE(r.invoke == kTfLiteOk);
  const auto out = r.As<float>();
  CHECK(out[0] == Approx(0.25f));
  CHECK(out[1] == Approx(0.75f));
  CHECK(out[2] == Approx(0.5f));
  CHECK(out[3] == Approx(0.5f));
}

// The vectorized rows (4, 8 or 16 lanes, whichever this CPU runs) give the bits of the
// value-by-value model: the scalar max, Eigen's exp per value (std::exp for the tensor's
// last size % 4), Eigen's sum, each value times 1 / sum. Depths around every vector width.
TEST_CASE("SOFTMAX float rows equal the value-by-value model bit for bit") {
  const uint32_t seed = 132;
  std::mt19937 rng(seed);
  for (int depth = 1; depth <= 260; depth += depth < 72 ? 1 : 37) {
    for (float beta : {1.0f, 0.37f}) {
      const int rows = 3;
      std::vector<float> in(static_cast<size_t>(rows) * depth), got(in.size());
      for (auto& x : in) x = std::uniform_real_distribution<float>(-12, 12)(rng);
      if (depth > 3) in[2] = in[1];  // a tie for the max lane or not
      tflite::softmax_f32::Softmax(in.data(), rows, depth, beta, got.data(), nullptr);
      const int64_t exact_from = static_cast<int64_t>(in.size()) & ~int64_t{3};
      for (int r = 0; r < rows; ++r) {
        const float* row = in.data() + static_cast<size_t>(r) * depth;
        float max = row[0];
        for (int c = 1; c < depth; ++c) max = row[c] > max ? row[c] : max;
        std::vector<float> e(depth);
        for (int c = 0; c < depth; ++c) {
          const int64_t at = static_cast<int64_t>(r) * depth + c;
          float t = row[c] - max;
          t = t * beta;
          e[c] = at < exact_from ? tflite::softmax_f32::EigenExp(t) : std::exp(t);
        }
        const float scale = 1.0f / tflite::EigenSum(e.data(), depth, static_cast<int64_t>(r) * depth);
        for (int c = 0; c < depth; ++c) {
          CAPTURE(seed, depth, beta, r, c);
          REQUIRE(got[static_cast<size_t>(r) * depth + c] == e[c] * scale);
        }
      }
    }
  }
}

TEST_CASE("SOFTMAX float random rows and beta against double") {
  std::mt19937 rng(131);
  for (int iter = 0; iter < 40; ++iter) {
    const int rank = 1 + static_cast<int>(rng() % 4);
    std::vector<int32_t> shape(rank);
    for (auto& d : shape) d = 1 + static_cast<int>(rng() % 6);
    const float beta = std::uniform_real_distribution<float>(0.1f, 3.f)(rng);
    std::vector<float> in(Count(shape));
    for (auto& x : in) x = std::uniform_real_distribution<float>(-10, 10)(rng);
    CAPTURE(iter, shape, beta);
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX, {Input(TensorType_FLOAT32, shape, in)},
                       {TensorType_FLOAT32, shape}, SoftmaxOptions(beta));
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<float>();
    const int depth = shape.back();
    for (size_t row = 0; row < in.size() / depth; ++row) {
      double max = -1e300, sum = 0;
      for (int c = 0; c < depth; ++c) max = std::max<double>(max, in[row * depth + c]);
      for (int c = 0; c < depth; ++c) sum += std::exp((in[row * depth + c] - max) * beta);
      for (int c = 0; c < depth; ++c) {
        const double e = std::exp((in[row * depth + c] - max) * beta) / sum;
        REQUIRE(out[row * depth + c] == Approx(e).epsilon(1e-5).margin(1e-7));
      }
    }
  }
}

// --- Independent model of the quantized reference ----------------------------------
// Fixed-point values are int32 raw numbers with `ib` integer bits.
int32_t Srdhm(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}
int32_t DivPot(int32_t x, int e) {  // rounding, ties away from zero
  if (e == 0) return x;
  const int64_t mag = std::llabs(static_cast<int64_t>(x)) + (int64_t{1} << (e - 1));
  return static_cast<int32_t>((x < 0 ? -1 : 1) * (mag >> e));
}
int32_t MulPotSat(int32_t x, int e) {  // saturating x * 2^e, e > 0
  const int64_t v = static_cast<int64_t>(x) * (int64_t{1} << e);
  return static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX));
}

// exp(x) for x <= 0 given in Q5.26; result Q0.31.
int32_t ModelExp(int32_t x) {
  if (x == 0) return INT32_MAX;
  const int32_t quarter = 1 << 24;                  // 1/4 in Q5.26
  const int32_t r = (x & (quarter - 1)) - quarter;  // in [-1/4, 0)
  // exp on [-1/4, 0) by the Taylor polynomial around -1/8, in Q0.31.
  const int32_t a = MulPotSat(r, 5);
  const int32_t t = a + (1 << 28);
  const int32_t t2 = Srdhm(t, t), t3 = Srdhm(t2, t), t4 = Srdhm(t2, t2);
  const int32_t poly = DivPot(Srdhm(DivPot(t4, 2) + t3, 715827883) + t2, 1);
  int32_t result = 1895147668 + Srdhm(1895147668, t + poly);
  const int32_t rest = r - x;  // multiple of 1/4, >= 0
  const int32_t mult[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = 0; k < 7; ++k) {  // bit for 2^(k-2)
    if (rest & (1 << (24 + k))) result = Srdhm(result, mult[k]);
  }
  return result;
}

// 1 / (1 + x) for x in [0, 1), Q0.31 in and out.
int32_t ModelReciprocal(int32_t x) {
  const int32_t half = static_cast<int32_t>((static_cast<int64_t>(x) + INT32_MAX + 1) / 2);
  int32_t v = 1515870810 + Srdhm(half, -1010580540);  // Q2.29
  for (int i = 0; i < 3; ++i) v = v + MulPotSat(Srdhm(v, (1 << 29) - Srdhm(half, v)), 2);
  return MulPotSat(v, 1);
}

template <typename In, typename Out>
std::vector<Out> ModelSoftmax(const std::vector<In>& in, int depth, float input_scale, float beta) {
  // Input multiplier for beta * scale in Q5.26 (PreprocessSoftmaxScaling).
  const double real = std::min<double>(static_cast<double>(beta) * input_scale * (1 << 26),
                                       (int64_t{1} << 31) - 1.0);
  int32_t q;
  int shift;
  RefQuantizeMultiplier(real, &q, &shift);
  // CalculateInputRadius(5, shift): largest diff that is not negligible.
  const double max_input = 31.0 * (int64_t{1} << 26) / (int64_t{1} << shift);
  const int diff_min = -static_cast<int>(std::floor(max_input));
  std::vector<Out> out(in.size());
  for (size_t row = 0; row < in.size() / depth; ++row) {
    const In* x = &in[row * depth];
    const int32_t max = *std::max_element(x, x + depth);
    auto exp_of = [&](int c) { return ModelExp(Srdhm(MulPotSat(x[c] - max, shift), q)); };
    int32_t sum = 0;  // Q12.19
    for (int c = 0; c < depth; ++c) {
      if (x[c] - max >= diff_min) sum += DivPot(exp_of(c), 12);
    }
    int lz = 0;
    while (lz < 32 && !(static_cast<uint32_t>(sum) & (0x80000000u >> lz))) ++lz;
    const int bits_over_unit = 12 - lz;
    const int32_t recip =
        ModelReciprocal(static_cast<int32_t>((static_cast<uint32_t>(sum) << lz) - 0x80000000u));
    const int e = bits_over_unit + 31 - static_cast<int>(8 * sizeof(Out));
    for (int c = 0; c < depth; ++c) {
      int32_t v = std::numeric_limits<Out>::min();
      if (x[c] - max >= diff_min) {
        v = DivPot(Srdhm(recip, exp_of(c)), e) + std::numeric_limits<Out>::min();
        v = std::min<int32_t>(v, std::numeric_limits<Out>::max());
      }
      out[row * depth + c] = static_cast<Out>(v);
    }
  }
  return out;
}

template <typename In, typename Out>
void RandomQuantizedSoftmax(tflite::TensorType in_type, tflite::TensorType out_type,
                            uint32_t seed) {
  std::mt19937 rng(seed);
  const bool out16 = sizeof(Out) == 2;
  for (int iter = 0; iter < 60; ++iter) {
    const int rows = 1 + static_cast<int>(rng() % 3);
    const int depth = 1 + static_cast<int>(rng() % 40);
    const float scale = std::exp(std::uniform_real_distribution<float>(-5, 0)(rng));
    const int zp = static_cast<int>(rng() % 256) + std::numeric_limits<In>::min();
    const float beta = iter % 3 == 0 ? 1.f : std::uniform_real_distribution<float>(0.2f, 2.f)(rng);
    std::vector<In> in(rows * depth);
    for (auto& v : in) {
      v = static_cast<In>(std::uniform_int_distribution<int>(std::numeric_limits<In>::min(),
                                                             std::numeric_limits<In>::max())(rng));
    }
    const float out_scale = out16 ? 1.f / 65536 : 1.f / 256;
    const int out_zp = std::numeric_limits<Out>::min();
    CAPTURE(seed, iter, rows, depth, scale, zp, beta);
    const auto r =
        Run(tflite::BuiltinOperator_SOFTMAX, {Input(in_type, {rows, depth}, in, scale, zp)},
            {out_type, {rows, depth}, out_scale, out_zp}, SoftmaxOptions(beta));
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.template As<Out>();
    REQUIRE(out == ModelSoftmax<In, Out>(in, depth, scale, beta));
    for (int row = 0; row < rows; ++row) {
      double max = -1e300, sum = 0;
      for (int c = 0; c < depth; ++c) max = std::max<double>(max, in[row * depth + c]);
      for (int c = 0; c < depth; ++c) sum += std::exp((in[row * depth + c] - max) * scale * beta);
      for (int c = 0; c < depth; ++c) {
        const double p = std::exp((in[row * depth + c] - max) * scale * beta) / sum;
        const double q = std::min<double>(p / out_scale + out_zp, std::numeric_limits<Out>::max());
        // int16 keeps more bits than the Q12.19 sum of rounded exps carries.
        REQUIRE(std::abs(out[row * depth + c] - q) <= (out16 ? 1.0 + depth / 8.0 : 1.0));
      }
    }
  }
}

TEST_CASE("SOFTMAX quantized random bit-exact") {
  RandomQuantizedSoftmax<int8_t, int8_t>(TensorType_INT8, TensorType_INT8, 141);
  RandomQuantizedSoftmax<uint8_t, uint8_t>(TensorType_UINT8, TensorType_UINT8, 142);
  RandomQuantizedSoftmax<int8_t, int16_t>(TensorType_INT8, tflite::TensorType_INT16, 143);
}

// --- Independent model of TFLite's int16 softmax (reference_ops::SoftmaxInt16) --------
// 513-entry table of f on [lo, hi] to [-1, 1] in Q0.15 steps of 2/65535: 512 samples,
// each lowered by half the interpolation error at its segment's midpoint, plus the end.
std::vector<int16_t> ModelLut(double (*f)(double), double in_scale, int in_zp) {
  const double lo = in_scale * (-32768 - in_zp), hi = in_scale * (32767 - in_zp);
  const double out_scale = 2.0 / 65535;
  const double step = (hi - lo) / 512;
  const double inv = 65536.0 / (out_scale * 32767 - out_scale * -32768);
  std::vector<int16_t> lut(513);
  auto clamp = [](double v) {
    return static_cast<int16_t>(std::min(std::max(v, -32768.0), 32767.0));
  };
  for (int i = 0; i < 512; ++i) {
    const double v = f(lo + i * step), mid = f(lo + i * step + step / 2);
    const double next = f(lo + (i + 1) * step);
    const double interp = std::round((next * inv + std::round(v * inv)) / 2);
    const double bias = std::round((interp - std::round(mid * inv)) / 2);
    lut[i] = clamp(std::round(v * inv) - bias);
  }
  lut[512] = clamp(std::round(f(hi) * inv));
  return lut;
}
int16_t ModelLookup(int v, const std::vector<int16_t>& lut) {
  const int index = 256 + (v >> 7), frac = v & 127;
  const int slope = lut[index + 1] - lut[index];
  return static_cast<int16_t>(lut[index] + ((slope * frac + 64) >> 7));
}
std::vector<int16_t> ModelSoftmaxInt16(const std::vector<int16_t>& in, int depth, float scale,
                                       float beta) {
  static const auto exp_lut = ModelLut([](double x) { return std::exp(x); }, 10.0 / 65535, 32767);
  static const auto recip_lut =
      ModelLut([](double x) { return 1.0 / (1.0 + x); }, 1.0 / 65535, -32768);
  int32_t q;
  int shift;
  RefQuantizeMultiplier(static_cast<double>(scale * beta) / (10.0 / 65535), &q, &shift);
  std::vector<int16_t> out(in.size());
  for (size_t row = 0; row < in.size() / depth; ++row) {
    const int16_t* x = &in[row * depth];
    const int max = *std::max_element(x, x + depth);
    std::vector<int> e(depth);
    int64_t sum = 0;
    for (int c = 0; c < depth; ++c) {
      const int scaled = RefMultiply(x[c] - max, q, shift) + 32767;
      e[c] = ModelLookup(std::min(std::max(scaled, -32768), 32767), exp_lut);
      sum += e[c];
    }
    int lz = 0;  // leading zeros of the 32-bit sum
    while (!(static_cast<uint32_t>(sum) & (0x80000000u >> lz))) ++lz;
    const int64_t normalized = ((sum << (lz - 1)) + (1 << 13)) >> 14;  // [1, 2) in Q1.14
    const int x1 = static_cast<int>(std::min<int64_t>(
        std::max<int64_t>(normalized - (1 << 15) - (1 << 16), -32768), 32767));
    const int recip = ModelLookup(x1, recip_lut);
    const int rs = 31 - lz;
    for (int c = 0; c < depth; ++c) {
      const int64_t v = (static_cast<int64_t>(e[c]) * recip + (int64_t{1} << (rs - 1))) >> rs;
      out[row * depth + c] =
          static_cast<int16_t>(std::min<int64_t>(std::max<int64_t>(v, 0), 32767));
    }
  }
  return out;
}

OpRun RunSoftmaxInt16(const std::vector<int32_t>& shape, const std::vector<int16_t>& in,
                      float scale, float beta, int threads = 1) {
  return Run(tflite::BuiltinOperator_SOFTMAX,
             {Input(tflite::TensorType_INT16, shape, in, scale, 0)},
             {tflite::TensorType_INT16, shape, 1.f / 32768, 0}, SoftmaxOptions(beta), 3, threads);
}

TEST_CASE("SOFTMAX int16 (v3) golden: equal inputs share the mass") {
  // exp(0) is table entry 32767 (1.0); the sums 2 and 4 are powers of two, so the
  // reciprocal is the table's 1/(1+0) and the shares are exact.
  const auto r2 = RunSoftmaxInt16({1, 2}, {1000, 1000}, 0.001f, 1.f);
  REQUIRE(r2.invoke == kTfLiteOk);
  CHECK(r2.As<int16_t>() == std::vector<int16_t>{16384, 16384});
  const auto r4 = RunSoftmaxInt16({2, 4}, {-5, -5, -5, -5, 3, 3, 3, 3}, 0.01f, 1.f);
  REQUIRE(r4.invoke == kTfLiteOk);
  CHECK(r4.As<int16_t>() == std::vector<int16_t>(8, 8192));
}

TEST_CASE("SOFTMAX int16 random bit-exact, close to the real softmax") {
  std::mt19937 rng(151);
  for (int iter = 0; iter < 60; ++iter) {
    const int rows = 1 + static_cast<int>(rng() % 3);
    const int depth = 1 + static_cast<int>(rng() % 50);
    const float scale = std::exp(std::uniform_real_distribution<float>(-9, -4)(rng));
    const float beta = iter % 3 == 0 ? 1.f : std::uniform_real_distribution<float>(0.2f, 2.f)(rng);
    std::vector<int16_t> in(rows * depth);
    for (auto& v : in) {
      v = static_cast<int16_t>(std::uniform_int_distribution<int>(-32768, 32767)(rng));
    }
    CAPTURE(iter, rows, depth, scale, beta);
    const auto r = RunSoftmaxInt16({rows, depth}, in, scale, beta, 1 + iter % 2);
    REQUIRE(r.invoke == kTfLiteOk);
    const auto out = r.As<int16_t>();
    REQUIRE(out == ModelSoftmaxInt16(in, depth, scale, beta));
    for (int row = 0; row < rows; ++row) {
      double max = -1e300, sum = 0;
      for (int c = 0; c < depth; ++c) max = std::max<double>(max, in[row * depth + c]);
      for (int c = 0; c < depth; ++c) sum += std::exp((in[row * depth + c] - max) * scale * beta);
      for (int c = 0; c < depth; ++c) {
        const double p = std::exp((in[row * depth + c] - max) * scale * beta) / sum;
        // Table interpolation and steps, the Q16.15 sum, and the exp table's floor: every
        // element below -10 still adds about exp(-10) (1.5 steps) to the sum.
        CHECK(std::abs(out[row * depth + c] - p * 32768) <=
              8 + p * 32768 * (0.003 + depth * 7e-5));
      }
    }
  }
}

TEST_CASE("SOFTMAX int8 golden: equal inputs share the mass") {
  const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                     {Input<int8_t>(TensorType_INT8, {1, 4}, {7, 7, 7, 7}, 0.1f, 0)},
                     {TensorType_INT8, {1, 4}, 1.f / 256, -128}, SoftmaxOptions(1.f));
  REQUIRE(r.invoke == kTfLiteOk);
  CHECK(r.As<int8_t>() == std::vector<int8_t>{-64, -64, -64, -64});  // 0.25 * 256 - 128
}

TEST_CASE("SOFTMAX on 2 threads gives the single-threaded results") {
  std::mt19937 rng(144);
  std::vector<int8_t> q(2000 * 64);
  for (auto& x : q) x = static_cast<int8_t>(rng());
  std::vector<float> f(q.begin(), q.end());
  OpRun r[2][2];
  for (int t = 0; t < 2; ++t) {
    r[0][t] =
        Run(tflite::BuiltinOperator_SOFTMAX, {Input(TensorType_INT8, {2000, 64}, q, 0.05f, 0)},
            {TensorType_INT8, {2000, 64}, 1.f / 256, -128}, SoftmaxOptions(1.f), 2, t + 1);
    r[1][t] = Run(tflite::BuiltinOperator_SOFTMAX, {Input(TensorType_FLOAT32, {2000, 64}, f)},
                  {TensorType_FLOAT32, {2000, 64}}, SoftmaxOptions(0.1f), 2, t + 1);
    REQUIRE(r[0][t].invoke == kTfLiteOk);
    REQUIRE(r[1][t].invoke == kTfLiteOk);
  }
  CHECK(r[0][0].bytes == r[0][1].bytes);
  CHECK(r[1][0].bytes == r[1][1].bytes);
}

TEST_CASE("SOFTMAX errors") {
  SECTION("int8 output with a wrong zero point") {
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                       {Input<int8_t>(TensorType_INT8, {1, 2}, {1, 2}, 0.1f, 0)},
                       {TensorType_INT8, {1, 2}, 1.f / 256, 0}, SoftmaxOptions(1.f));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("int8 output with a wrong scale") {
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                       {Input<int8_t>(TensorType_INT8, {1, 2}, {1, 2}, 0.1f, 0)},
                       {TensorType_INT8, {1, 2}, 0.1f, -128}, SoftmaxOptions(1.f));
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("int16 with a non-zero input zero point") {
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                       {Input<int16_t>(tflite::TensorType_INT16, {1, 2}, {1, 2}, 0.1f, 4)},
                       {tflite::TensorType_INT16, {1, 2}, 1.f / 32768, 0}, SoftmaxOptions(1.f), 3);
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("SOFTMAX with int16 activations needs zero point 0 on "
                                         "input and output (got input zero_point 4, output "
                                         "zero_point 0)."));
  }
  SECTION("int16 output with a wrong scale") {
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                       {Input<int16_t>(tflite::TensorType_INT16, {1, 2}, {1, 2}, 0.1f, 0)},
                       {tflite::TensorType_INT16, {1, 2}, 1.f / 65536, 0}, SoftmaxOptions(1.f), 3);
    CHECK(r.prepare == kTfLiteError);
  }
  SECTION("int16 of rank 5") {
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX,
                       {Input<int16_t>(tflite::TensorType_INT16, {1, 1, 1, 1, 2}, {1, 2}, 0.1f,
                                       0)},
                       {tflite::TensorType_INT16, {1, 1, 1, 1, 2}, 1.f / 32768, 0},
                       SoftmaxOptions(1.f), 3);
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("got 5D"));
  }
  // A crafted infinite beta (the invoke fuzzer's finding: NaN table entries converted to
  // int), on the int8 and the int16 kernels (an infinite scale the loader refuses first).
  SECTION("quantized input with an infinite beta") {
    const float inf = std::numeric_limits<float>::infinity();
    const auto r =
        Run(tflite::BuiltinOperator_SOFTMAX,
            {Input<int8_t>(TensorType_INT8, {1, 300}, std::vector<int8_t>(300, 1), 0.02f, 0)},
            {TensorType_INT8, {1, 300}, 1.f / 256, -128}, SoftmaxOptions(inf));
    CHECK(r.prepare == kTfLiteError);
    CHECK_THAT(r.errors, Catch::Contains("SOFTMAX: beta (inf) times the input scale (0.02) must "
                                         "be finite for a quantized input."));
    const auto s = Run(tflite::BuiltinOperator_SOFTMAX,
                       {Input<int16_t>(tflite::TensorType_INT16, {1, 2}, {1, 2}, 0.1f, 0)},
                       {tflite::TensorType_INT16, {1, 2}, 1.f / 32768, 0}, SoftmaxOptions(-inf), 3);
    CHECK(s.prepare == kTfLiteError);
    CHECK_THAT(s.errors, Catch::Contains("must be finite for a quantized input"));
  }
  SECTION("scalar input") {
    const auto r = Run(tflite::BuiltinOperator_SOFTMAX, {Input<float>(TensorType_FLOAT32, {}, {1})},
                       {TensorType_FLOAT32, {}}, SoftmaxOptions(1.f));
    CHECK(r.prepare == kTfLiteError);
  }
}

}  // namespace
}  // namespace tflite_inspect
