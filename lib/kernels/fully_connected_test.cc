#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

using namespace conv_test;  // NOLINT

struct FcCase {
  std::vector<int> input_shape{1, 4};  // last dim = input size unless reshaped
  int units = 1;
  bool keep_num_dims = false;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE;
  int bias_mode = 2;  // 0: two inputs, 1: optional input -1, 2: bias tensor
  int threads = 1;

  int InputSize() const { return input_shape.back(); }
  int Batches() const {
    int n = 1;
    for (int d : input_shape) n *= d;
    return n / InputSize();
  }
  std::vector<int> OutShape() const {
    if (!keep_num_dims) return {Batches(), units};
    std::vector<int> s = input_shape;
    s.back() = units;
    return s;
  }
  int Version(bool int8) const {
    if (bias_mode == 0) return 6;
    if (keep_num_dims) return 5;
    return int8 ? 4 : 1;
  }
};

tflite::FullyConnectedOptionsT Opts(const FcCase& c) {
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = c.act;
  o.keep_num_dims = c.keep_num_dims;
  return o;
}

std::vector<int32_t> Inputs(const FcCase& c, int in, int w, int bias) {
  std::vector<int32_t> ins = {in, w};
  if (c.bias_mode == 1) ins.push_back(-1);
  if (c.bias_mode == 2) ins.push_back(bias);
  return ins;
}

FcCase RandomCase(std::mt19937& rng) {
  FcCase c;
  const int size = RandInt(rng, 1, 70);
  switch (RandInt(rng, 0, 2)) {
    case 0:
      c.input_shape = {RandInt(rng, 1, 9), size};
      break;
    case 1:
      c.input_shape = {RandInt(rng, 1, 3), RandInt(rng, 1, 4), size};
      break;
    default:
      c.input_shape = {size};
      break;
  }
  c.units = RandInt(rng, 1, 50);
  c.keep_num_dims = RandInt(rng, 0, 1) == 1;
  c.act = RandomActivation(rng);
  c.bias_mode = RandInt(rng, 0, 2);
  c.threads = RandInt(rng, 1, 2);
  return c;
}

void RunFloat(const FcCase& c, uint32_t seed) {
  CAPTURE(seed, c.input_shape, c.units, c.keep_num_dims, static_cast<int>(c.act), c.bias_mode,
          c.threads);
  std::mt19937 rng(seed);
  const int k = c.InputSize(), n = c.units, batches = c.Batches();
  const auto in_v = RandomFloats(rng, static_cast<size_t>(batches) * k);
  const auto w_v = RandomFloats(rng, static_cast<size_t>(n) * k);
  const auto b_v = RandomFloats(rng, n);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, c.input_shape, "in");
  const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {n, k}, w_v, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {n}, b_v, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, c.OutShape(), "out");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, Inputs(c, in, w, bias), {out},
                Options(Opts(c)), c.Version(false));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  CHECK(m.OutputShape(0) == c.OutShape());
  m.SetInput<float>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<float>(0);
  REQUIRE(got.size() == static_cast<size_t>(batches) * n);
  for (int bi = 0; bi < batches; ++bi) {
    for (int u = 0; u < n; ++u) {
      double acc = 0, mag = 0;
      for (int i = 0; i < k; ++i) {
        const double p = static_cast<double>(in_v[bi * k + i]) * w_v[u * k + i];
        acc += p;
        mag += std::abs(p);
      }
      if (c.bias_mode == 2) acc += b_v[u];
      RefFloatActivation(c.act, &acc);
      if (!CloseTo(got[bi * n + u], acc, mag + std::abs(b_v[u]))) {
        CAPTURE(bi, u, got[bi * n + u], acc);
        FAIL("float mismatch");
      }
    }
  }
}

template <typename T, typename OutT = T>
void RunQuantized(const FcCase& c, bool per_channel, uint32_t seed) {
  constexpr bool kInt8 = std::is_same_v<T, int8_t>;
  constexpr bool kInt16Out = std::is_same_v<OutT, int16_t>;
  const auto type = kInt8 ? tflite::TensorType_INT8 : tflite::TensorType_UINT8;
  const auto out_type = kInt16Out ? tflite::TensorType_INT16 : type;
  const int qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
  CAPTURE(seed, kInt8, kInt16Out, per_channel, c.input_shape, c.units, c.keep_num_dims,
          static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const int k = c.InputSize(), n = c.units, batches = c.Batches();
  const float in_scale = 0.01f + RandomFloats(rng, 1, 0.f, 0.05f)[0];
  const int32_t in_zp = RandInt(rng, qmin, qmax);
  const float out_scale = kInt16Out ? 0.0002f + RandomFloats(rng, 1, 0.f, 0.002f)[0]
                                    : 0.02f + RandomFloats(rng, 1, 0.f, 0.2f)[0];
  const int32_t out_zp = kInt16Out ? 0 : RandInt(rng, qmin, qmax);
  std::vector<float> f_scales(per_channel ? n : 1);
  for (auto& s : f_scales) s = 0.002f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  // TFLite's per-tensor kernels apply the weights zero point; per-channel ones ignore it.
  const int32_t f_zp = per_channel ? 0 : (kInt8 ? RandInt(rng, -5, 5) : RandInt(rng, 100, 150));
  const auto in_v = RandomInts<T>(rng, static_cast<size_t>(batches) * k, qmin, qmax);
  const auto w_v =
      RandomInts<T>(rng, static_cast<size_t>(n) * k, kInt8 ? -127 : 0, kInt8 ? 127 : 255);
  const auto b_v = RandomInts<int32_t>(rng, n, -3000, 3000);

  QuantSpec in_q{{in_scale}, {in_zp}, 0}, out_q{{out_scale}, {out_zp}, 0};
  QuantSpec w_q;
  w_q.scale = f_scales;
  w_q.zero_point.assign(f_scales.size(), f_zp);
  QuantSpec b_q;
  for (float s : f_scales) b_q.scale.push_back(in_scale * s);
  b_q.zero_point.assign(f_scales.size(), 0);

  ModelBuilder b;
  const int in = b.AddTensor(type, c.input_shape, "in", &in_q);
  const int w = b.AddConstTensor<T>(type, {n, k}, w_v, "w", &w_q);
  const int bias = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {n}, b_v, "b", &b_q);
  const int out = b.AddTensor(out_type, c.OutShape(), "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, Inputs(c, in, w, bias), {out},
                Options(Opts(c)), c.Version(kInt8));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<T>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<OutT>(0);

  // reference_integer_ops::FullyConnected(PerChannel) / reference_ops::FullyConnected, as
  // ai-edge-litert 2.3.0 computes them (one rounding; tflite_goldens_test).
  std::vector<int32_t> mult(n);
  std::vector<int> shift(n);
  for (int u = 0; u < n; ++u) {
    const double real =
        per_channel ? static_cast<double>(in_scale) * static_cast<double>(f_scales[u]) /
                          static_cast<double>(out_scale)
                    : static_cast<double>(in_scale * f_scales[0]) / static_cast<double>(out_scale);
    RefQuantizeMultiplier(real, &mult[u], &shift[u]);
  }
  int32_t act_min, act_max;
  RefActivationRange<OutT>(c.act, out_scale, out_zp, &act_min, &act_max);
  REQUIRE(got.size() == static_cast<size_t>(batches) * n);
  for (int bi = 0; bi < batches; ++bi) {
    for (int u = 0; u < n; ++u) {
      int64_t acc = 0;  // int64: no overflow in the reference
      for (int i = 0; i < k; ++i) {
        acc += (static_cast<int32_t>(w_v[u * k + i]) - f_zp) *
               (static_cast<int32_t>(in_v[bi * k + i]) - in_zp);
      }
      if (c.bias_mode == 2) acc += b_v[u];
      REQUIRE(acc == static_cast<int32_t>(acc));  // the kernels accumulate in int32
      const int64_t scaled = RefSingleRoundingMultiply(acc, mult[u], shift[u]) + out_zp;
      const int32_t v = static_cast<int32_t>(
          std::min<int64_t>(std::max<int64_t>(scaled, act_min), act_max));
      if (static_cast<int32_t>(got[bi * n + u]) != v) {
        CAPTURE(bi, u, static_cast<int>(got[bi * n + u]), v);
        FAIL("quantized mismatch");
      }
    }
  }
}

// 16x8: int16 input and output (zero points 0), int8 weights (per-tensor with a zero
// point, which TFLite's int16 FullyConnected applies, or per-channel), an int64 or int32
// bias or none: the int64 template for an int64 bias, the int32 one otherwise.
void RunInt16(const FcCase& c, bool per_channel, bool int64_bias, uint32_t seed) {
  CAPTURE(seed, per_channel, int64_bias, c.input_shape, c.units, c.keep_num_dims,
          static_cast<int>(c.act), c.bias_mode, c.threads);
  std::mt19937 rng(seed);
  const int k = c.InputSize(), n = c.units, batches = c.Batches();
  const float in_scale = 0.0001f + RandomFloats(rng, 1, 0.f, 0.001f)[0];
  const float out_scale = 0.002f + RandomFloats(rng, 1, 0.f, 0.01f)[0];
  std::vector<float> f_scales(per_channel ? n : 1);
  for (auto& s : f_scales) s = 0.002f + RandomFloats(rng, 1, 0.f, 0.02f)[0];
  const int32_t f_zp = per_channel ? 0 : RandInt(rng, -5, 5);
  const auto in_v = RandomInts<int16_t>(rng, static_cast<size_t>(batches) * k, -32768, 32767);
  const auto w_v = RandomInts<int8_t>(rng, static_cast<size_t>(n) * k, -127, 127);
  const auto b64 = RandomInts<int64_t>(rng, n, -2000000, 2000000);
  const std::vector<int32_t> b32(b64.begin(), b64.end());

  QuantSpec in_q{{in_scale}, {0}, 0}, out_q{{out_scale}, {0}, 0};
  QuantSpec w_q;
  w_q.scale = f_scales;
  w_q.zero_point.assign(f_scales.size(), f_zp);
  QuantSpec b_q;
  for (float s : f_scales) b_q.scale.push_back(in_scale * s);
  b_q.zero_point.assign(f_scales.size(), 0);

  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT16, c.input_shape, "in", &in_q);
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {n, k}, w_v, "w", &w_q);
  const int bias =
      int64_bias ? b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {n}, b64, "b", &b_q)
                 : b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {n}, b32, "b", &b_q);
  const int out = b.AddTensor(tflite::TensorType_INT16, c.OutShape(), "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, Inputs(c, in, w, bias), {out},
                Options(Opts(c)), 7);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, c.threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  CHECK(m.OutputShape(0) == c.OutShape());
  m.SetInput<int16_t>(0, in_v);
  REQUIRE(m.Invoke() == kTfLiteOk);
  const auto got = m.Output<int16_t>(0);

  std::vector<int32_t> mult(n);
  std::vector<int> shift(n);
  for (int u = 0; u < n; ++u) {
    const double real =
        per_channel ? static_cast<double>(in_scale) * static_cast<double>(f_scales[u]) /
                          static_cast<double>(out_scale)
                    : static_cast<double>(in_scale * f_scales[0]) / static_cast<double>(out_scale);
    RefQuantizeMultiplier(real, &mult[u], &shift[u]);
  }
  int32_t act_min, act_max;
  RefActivationRange<int16_t>(c.act, out_scale, 0, &act_min, &act_max);
  const bool has_bias = c.bias_mode == 2;
  REQUIRE(got.size() == static_cast<size_t>(batches) * n);
  for (int bi = 0; bi < batches; ++bi) {
    for (int u = 0; u < n; ++u) {
      int64_t acc = has_bias ? b64[u] : 0;
      for (int i = 0; i < k; ++i) {
        acc += (static_cast<int64_t>(w_v[u * k + i]) - f_zp) * in_v[bi * k + i];
      }
      // One rounding whatever the bias type, as TFLite (see RefSingleRoundingMultiply).
      const int64_t scaled = RefSingleRoundingMultiply(acc, mult[u], shift[u]);
      const int32_t v = static_cast<int32_t>(
          std::min<int64_t>(std::max<int64_t>(scaled, act_min), act_max));
      if (static_cast<int32_t>(got[bi * n + u]) != v) {
        CAPTURE(bi, u, got[bi * n + u], v, acc);
        FAIL("int16 mismatch");
      }
    }
  }
}

TEST_CASE("FULLY_CONNECTED float golden") {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "in");
  const int w =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2, 3}, {1, 2, 3, -1, -1, -1}, "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2}, {1, 2}, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2, 2}, "out");
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w, bias}, {out}, Options(o));
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 1, 1, 0, 1, -1});
  REQUIRE(m.Invoke() == kTfLiteOk);
  // Row 0: 6+1, -3+2 -> RELU 0. Row 1: 2-3+1 = 0, 0+2 = 2.
  CHECK(m.Output<float>(0) == std::vector<float>{7, 0, 0, 2});
}

TEST_CASE("FULLY_CONNECTED float matches a double reference (random shapes)") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    RunFloat(RandomCase(rng), seed);
  }
}

TEST_CASE("FULLY_CONNECTED float: large layer over several GEMM blocks and threads") {
  FcCase c;
  c.input_shape = {13, 700};
  c.units = 150;
  c.threads = 2;
  RunFloat(c, 7);
  c.input_shape = {1, 1024};
  c.units = 1000;
  RunFloat(c, 8);
}

TEST_CASE("FULLY_CONNECTED int8 is bit-exact with the reference") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 1000);
    RunQuantized<int8_t>(RandomCase(rng), seed % 2 == 0, seed);
  }
}

TEST_CASE("FULLY_CONNECTED uint8 is bit-exact with the reference") {
  for (uint32_t seed = 1; seed <= 25; ++seed) {
    std::mt19937 rng(seed + 2000);
    RunQuantized<uint8_t>(RandomCase(rng), false, seed);
  }
}

TEST_CASE("FULLY_CONNECTED uint8 input with int16 output is bit-exact") {
  for (uint32_t seed = 1; seed <= 15; ++seed) {
    std::mt19937 rng(seed + 3000);
    RunQuantized<uint8_t, int16_t>(RandomCase(rng), false, seed);
  }
}

// Hand-checked 16x8 golden: input scale 0.5, weights scale 0.25, output scale 1, so the
// multiplier is 1/8; int64 bias {4, -4}.
TEST_CASE("FULLY_CONNECTED int16 (16x8) golden, int64 bias") {
  ModelBuilder b;
  QuantSpec in_q{{0.5f}, {0}, 0}, w_q{{0.25f}, {0}, 0}, b_q{{0.125f}, {0}, 0},
      out_q{{1.0f}, {0}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT16, {2, 3}, "in", &in_q);
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {2, 3}, {1, 2, 3, -1, 0, 1},
                                         "w", &w_q);
  const int bias = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {4, -4}, "b", &b_q);
  const int out = b.AddTensor(tflite::TensorType_INT16, {2, 2}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w, bias}, {out},
                Options(tflite::FullyConnectedOptionsT{}), 7);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int16_t>(0, {1000, -2000, 3000, -16, 0, 0});
  REQUIRE(m.Invoke() == kTfLiteOk);
  // Row 0: 1000 - 4000 + 9000 + 4 = 6004 / 8 = 750.5 -> 751; -1000 + 3000 - 4 = 1996 / 8 =
  // 249.5 -> 250. Row 1: -16 + 4 = -12 / 8 = -1.5 -> -1 (halves up); 16 - 4 = 12 -> 2.
  CHECK(m.Output<int16_t>(0) == std::vector<int16_t>{751, 250, -1, 2});
}

TEST_CASE("FULLY_CONNECTED int16 is bit-exact with the reference") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed + 4000);
    RunInt16(RandomCase(rng), seed % 2 == 0, seed % 3 != 0, seed);
  }
  FcCase c;  // several GEMM blocks, threads, depth past one int32 block
  c.input_shape = {9, 1100};
  c.units = 70;
  c.threads = 2;
  RunInt16(c, true, true, 4101);
  RunInt16(c, false, true, 4102);
}

TEST_CASE("FULLY_CONNECTED int16 refuses non-zero zero points") {
  ModelBuilder b;
  QuantSpec in_q{{0.5f}, {0}, 0}, w_q{{0.25f}, {0}, 0}, out_q{{1.0f}, {5}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT16, {1, 2}, "in", &in_q);
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, 2}, {1, 2}, "w", &w_q);
  const int out = b.AddTensor(tflite::TensorType_INT16, {1, 1}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out},
                Options(tflite::FullyConnectedOptionsT{}), 7);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b);
  CHECK(m.Prepare() == kTfLiteError);
  CHECK_THAT(m.errors(), Catch::Contains("FULLY_CONNECTED with int16 activations needs zero point "
                                         "0 on input and output (symmetric 16x8 quantization; "
                                         "got input zero_point 0, output zero_point 5)."));
}

TEST_CASE("FULLY_CONNECTED rejects bad models in Prepare") {
  tflite::FullyConnectedOptionsT o;
  SECTION("input size does not divide the input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 5}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2}, {1, 2}, "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out}, Options(o), 6);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("failed to prepare") != std::string::npos);
  }
  SECTION("hybrid float input with uint8 weights") {
    ModelBuilder b;
    QuantSpec q{{0.1f}, {0}, 0};
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2}, "in");
    const int w = b.AddConstTensor<uint8_t>(tflite::TensorType_UINT8, {1, 2}, {1, 2}, "w", &q);
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out}, Options(o), 6);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("Hybrid FULLY_CONNECTED (float input, UINT8 weights) not supported.") !=
          std::string::npos);
  }
  SECTION("hybrid with a scale count that is neither 1 nor units") {
    ModelBuilder b;
    QuantSpec q{{0.1f, 0.2f}, {0, 0}, 0};
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2}, "in");
    const int w =
        b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {3, 2}, {1, 2, 3, 4, 5, 6}, "w", &q);
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3}, "out");
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out}, Options(o), 3);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    // The interpreter rejects the scale count before the kernel's own check runs.
    CHECK(m.errors().find("num_scales must be 1 for per-layer quantization, or 3") !=
          std::string::npos);
  }
  SECTION("shuffled weights") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2}, {1, 2}, "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1}, "out");
    const int workspace = b.AddTensor(tflite::TensorType_UINT8, {1, 2}, "workspace");
    o.weights_format = tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8;
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out, workspace}, Options(o),
                  6);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("shuffled weights: they need uint8 input and weights and int16 "
                          "output (got FLOAT32, FLOAT32, FLOAT32)") != std::string::npos);
  }
  SECTION("bool input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_BOOL, {1, 2}, "in");
    const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2}, {1, 2}, "w");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 1}, "out");
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out}, Options(o), 6);
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("Type BOOL (6) not supported.") != std::string::npos);
  }
}

// --- Hybrid (float input, int8 weights) ----------------------------------------------
// Runs a hybrid FULLY_CONNECTED; per_channel: one weight scale per unit.
std::vector<float> RunHybridFc(const std::vector<float>& x, int batches, int k, int units,
                               const std::vector<int8_t>& w, const std::vector<float>& scales,
                               const std::vector<float>* bias, bool asymmetric,
                               tflite::ActivationFunctionType act, int threads = 1) {
  ModelBuilder b;
  QuantSpec q;
  q.scale = scales;
  q.zero_point.assign(scales.size(), 0);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batches, k}, "in");
  const int wt = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {units, k}, w, "w", &q);
  std::vector<int32_t> ins{in, wt};
  if (bias != nullptr) {
    ins.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {units}, *bias, "b"));
  }
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batches, units}, "out");
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = act;
  o.asymmetric_quantize_inputs = asymmetric;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, ins, {out}, Options(o),
                asymmetric ? 9 : 3);
  b.SetInputs({in});
  b.SetOutputs({out});
  OpTestModel m(b, threads);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, x);
  REQUIRE(m.Invoke() == kTfLiteOk);
  return m.Output<float>(0);
}

TEST_CASE("FULLY_CONNECTED hybrid golden (v3 symmetric, v9 asymmetric)") {
  // x = {1, -0.5}: symmetric scale 1/127, q = {127, -64} (-63.5 rounds away from 0).
  // Unit 0: w = {127, 0} * 0.01 -> 127 * 127 * (1/127 * 0.01) = 1.27.
  // Unit 1: w = {-64, 2} * 0.01 -> (-64 * 127 + 2 * -64) / 12700 = -0.6501..., + bias 1.
  const std::vector<float> bias{0, 1};
  auto got = RunHybridFc({1.f, -0.5f}, 1, 2, 2, {127, 0, -64, 2}, {0.01f}, &bias, false,
                         tflite::ActivationFunctionType_NONE);
  CHECK(got[0] == Approx(1.27).epsilon(1e-6));
  CHECK(got[1] == Approx(1 - 8256.0 / 12700).epsilon(1e-6));
  // Asymmetric: range [-0.5, 1] over 255 steps, zero point round(127 - 1 / (1.5/255)) = -43:
  // q = {127, -128}; sums use (q - zp) = {170, -85}.
  got = RunHybridFc({1.f, -0.5f}, 1, 2, 2, {127, 0, -64, 2}, {0.01f}, &bias, true,
                    tflite::ActivationFunctionType_NONE);
  const double s = 1.5 / 255 * 0.01;
  CHECK(got[0] == Approx(127 * 170 * s).epsilon(1e-6));
  CHECK(got[1] == Approx(1 + (-64 * 170 + 2 * -85) * s).epsilon(1e-6));
  // An all-zero row gives the bias (TFLite skips the product), RELU clamps.
  got = RunHybridFc({0.f, 0.f}, 1, 2, 2, {127, 0, -64, 2}, {0.01f}, &bias, false,
                    tflite::ActivationFunctionType_RELU);
  CHECK(got == std::vector<float>{0, 1});
}

// Independent model: quantize as TFLite's tensor utils, sum exactly, rescale in double.
void CheckHybridFc(uint32_t seed, bool asymmetric, bool per_channel) {
  std::mt19937 rng(seed);
  const int batches = RandInt(rng, 1, 4), k = RandInt(rng, 1, 70), units = RandInt(rng, 1, 40);
  CAPTURE(seed, asymmetric, per_channel, batches, k, units);
  std::vector<float> x = RandomFloats(rng, static_cast<size_t>(batches) * k, -3.f, 3.f);
  if (RandInt(rng, 0, 3) == 0) {  // sometimes one-signed rows
    for (auto& v : x) v = std::abs(v);
  }
  const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(units) * k, -127, 127);
  std::vector<float> scales = RandomFloats(rng, per_channel ? units : 1, 0.001f, 0.05f);
  const std::vector<float> bias = RandomFloats(rng, units, -1.f, 1.f);
  const auto act = RandomActivation(rng);
  const auto got = RunHybridFc(x, batches, k, units, w, scales, &bias, asymmetric, act,
                               1 + static_cast<int>(seed % 2));
  for (int b = 0; b < batches; ++b) {
    const float* row = x.data() + static_cast<size_t>(b) * k;
    float mn = 0, mx = 0;
    for (int i = 0; i < k; ++i) {
      mn = std::min(mn, row[i]);
      mx = std::max(mx, row[i]);
    }
    std::vector<int> q(k);
    double sf;
    int zp = 0;
    if (!asymmetric) {
      const float range = std::max(std::abs(mn), std::abs(mx));
      const float inv = range == 0 ? 0.f : 127.f / range;
      sf = range == 0 ? 1.0 : static_cast<double>(range / 127);
      for (int i = 0; i < k; ++i) q[i] = static_cast<int>(std::round(row[i] * inv));
    } else {
      const double scale = (static_cast<double>(mx) - mn) / 255.0;
      if (scale == 0) {
        sf = 1;
      } else {
        const double zmin = -128 - mn / scale, zmax = 127 - mx / scale;
        const double zd = (128 + std::abs(mn / scale)) < (127 + std::abs(mx / scale)) ? zmin : zmax;
        zp = zd <= -128 ? -128 : zd >= 127 ? 127 : static_cast<int>(std::round(zd));
        sf = static_cast<float>(scale);
        const float inv = 1.0f / static_cast<float>(scale);
        for (int i = 0; i < k; ++i) {
          q[i] = std::min(127, std::max(-128, static_cast<int>(std::round(zp + row[i] * inv))));
        }
      }
    }
    for (int u = 0; u < units; ++u) {
      int64_t dot = 0;
      double exact = bias[u], mag = std::abs(bias[u]);
      const double fs = scales[per_channel ? u : 0];
      for (int i = 0; i < k; ++i) {
        dot += static_cast<int64_t>(w[u * k + i]) * (q[i] - zp);
        exact += static_cast<double>(w[u * k + i]) * fs * row[i];
        mag += std::abs(w[u * k + i] * fs * row[i]);
      }
      double want = bias[u] + static_cast<double>(dot) * sf * fs;
      RefFloatActivation(act, &want);
      RefFloatActivation(act, &exact);
      const float g = got[static_cast<size_t>(b) * units + u];
      CAPTURE(b, u, g, want, exact);
      // The int32 sum is exact; only the float rescale and bias add round.
      REQUIRE(CloseTo(g, want, mag + std::abs(static_cast<double>(dot) * sf * fs)));
      // And it stays within the input quantization error of the float layer.
      double wsum = 0;
      for (int i = 0; i < k; ++i) wsum += std::abs(w[u * k + i] * fs);
      REQUIRE(std::abs(g - exact) <= wsum * sf * 0.5001 + 1e-5 * (1 + mag));
    }
  }
}

// Enough rows for the threads to take blocks of them whole (quantization, conversion, sums
// and rescale: 32 and more at two threads): the one-thread bits, block edges off the
// 4-row tiles included.
TEST_CASE("FULLY_CONNECTED hybrid: many rows over two threads give the one-thread bits") {
  for (uint32_t seed = 900; seed < 908; ++seed) {
    std::mt19937 rng(seed);
    const int batches = RandInt(rng, 32, 90), k = RandInt(rng, 1, 300), units = RandInt(rng, 1, 70);
    const bool asymmetric = seed % 2 == 1, per_channel = seed % 4 >= 2;
    CAPTURE(seed, batches, k, units, asymmetric, per_channel);
    const std::vector<float> x = RandomFloats(rng, static_cast<size_t>(batches) * k, -3.f, 3.f);
    const auto w = RandomInts<int8_t>(rng, static_cast<size_t>(units) * k, -127, 127);
    const std::vector<float> scales = RandomFloats(rng, per_channel ? units : 1, 0.001f, 0.05f);
    const std::vector<float> bias = RandomFloats(rng, units, -1.f, 1.f);
    const auto act = RandomActivation(rng);
    const auto one = RunHybridFc(x, batches, k, units, w, scales, &bias, asymmetric, act, 1);
    const auto two = RunHybridFc(x, batches, k, units, w, scales, &bias, asymmetric, act, 2);
    REQUIRE(one.size() == two.size());
    REQUIRE(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)) == 0);
  }
}

// Three hybrid layers read one input (attention's Q, K and V: quantized once per Invoke,
// kernels/internal/hybrid_inputs.h), a fourth reads the first's output, a fifth the input
// again with symmetric quantization (another layout of the same tensor): every output the
// bits of the layer run alone, on two inputs in turn (the second Invoke must not reuse the
// first's quantized rows), at 1 and 2 threads.
TEST_CASE("FULLY_CONNECTED hybrid layers sharing an input give each layer's own bits") {
  std::mt19937 rng(77);
  const int batches = 5, k = 48, units = 24;
  struct Layer {
    std::vector<int8_t> w;
    std::vector<float> scales, bias;
    bool asymmetric;
  };
  std::vector<Layer> layers;
  for (int i = 0; i < 5; ++i) {
    const int in_k = i == 3 ? units : k;
    layers.push_back({RandomInts<int8_t>(rng, static_cast<size_t>(units) * in_k, -127, 127),
                      RandomFloats(rng, units, 0.001f, 0.05f), RandomFloats(rng, units, -1.f, 1.f),
                      i != 4});
  }
  for (int threads : {1, 2}) {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batches, k}, "in");
    std::vector<int32_t> outs;
    for (int i = 0; i < 5; ++i) {
      const Layer& l = layers[i];
      QuantSpec q;
      q.scale = l.scales;
      q.zero_point.assign(l.scales.size(), 0);
      const int in_k = i == 3 ? units : k;
      const int wt = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {units, in_k}, l.w, "w", &q);
      const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {units}, l.bias, "b");
      const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batches, units}, "out");
      tflite::FullyConnectedOptionsT o;
      o.asymmetric_quantize_inputs = l.asymmetric;
      b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {i == 3 ? outs[0] : in, wt, bias},
                    {out}, Options(o), l.asymmetric ? 9 : 3);
      outs.push_back(out);
    }
    b.SetInputs({in});
    b.SetOutputs(outs);
    OpTestModel m(b, threads);
    REQUIRE(m.Prepare() == kTfLiteOk);
    for (int run = 0; run < 2; ++run) {
      CAPTURE(threads, run);
      const auto x = RandomFloats(rng, static_cast<size_t>(batches) * k, -2.f, 2.f);
      m.SetInput<float>(0, x);
      REQUIRE(m.Invoke() == kTfLiteOk);
      const auto first = RunHybridFc(x, batches, k, units, layers[0].w, layers[0].scales,
                                     &layers[0].bias, true, tflite::ActivationFunctionType_NONE);
      for (int i = 0; i < 5; ++i) {
        CAPTURE(i);
        const Layer& l = layers[i];
        const auto want = RunHybridFc(i == 3 ? first : x, batches, i == 3 ? units : k, units, l.w,
                                      l.scales, &l.bias, l.asymmetric,
                                      tflite::ActivationFunctionType_NONE);
        const auto got = m.Output<float>(i);
        REQUIRE(got.size() == want.size());
        CHECK(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("FULLY_CONNECTED hybrid matches an integer model (random shapes, seeds printed)") {
  for (uint32_t seed = 500; seed < 540; ++seed) {
    CheckHybridFc(seed, seed % 2 == 1, seed % 4 >= 2);
  }
}

}  // namespace
}  // namespace tflite_inspect
