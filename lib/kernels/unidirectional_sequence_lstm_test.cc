#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/op_test_util.h"
#include "testing/random.h"

namespace tflite_inspect {
namespace {

using namespace conv_test;  // NOLINT

struct LstmCase {
  int batch = 1, time = 2, input = 2, cell = 2, output = 2;
  bool cifg = false, peephole = false, projection = false, layer_norm = false;
  bool time_major = false;
  float cell_clip = 0, proj_clip = 0;
  bool legacy_20_inputs = false;  // no layer-norm inputs at all (older converters)
  float ln_scale = 0.0001f;       // the int8 model's layer-norm weights' scale
};

// Weights of a float LSTM, by gate (input, forget, cell, output).
struct LstmWeights {
  std::vector<float> wx[4], wh[4], bias[4], peep[4], ln[4], proj, proj_bias;
};

LstmWeights RandomWeights(std::mt19937& rng, const LstmCase& c) {
  LstmWeights w;
  for (int g = 0; g < 4; ++g) {
    w.wx[g] = RandomFloats(rng, c.cell * c.input, -0.5f, 0.5f);
    w.wh[g] = RandomFloats(rng, c.cell * c.output, -0.5f, 0.5f);
    w.bias[g] = RandomFloats(rng, c.cell, -0.5f, 0.5f);
    w.peep[g] = RandomFloats(rng, c.cell, -0.5f, 0.5f);
    w.ln[g] = RandomFloats(rng, c.cell, 0.5f, 1.5f);
  }
  w.proj = RandomFloats(rng, c.output * c.cell, -0.5f, 0.5f);
  w.proj_bias = RandomFloats(rng, c.output, -0.2f, 0.2f);
  return w;
}

ModelBuilder FloatModel(const LstmCase& c, const LstmWeights& w) {
  ModelBuilder b;
  const auto F = tflite::TensorType_FLOAT32;
  std::vector<int32_t> ins(24, -1);
  ins[0] = b.AddTensor(F,
                       c.time_major ? std::vector<int>{c.time, c.batch, c.input}
                                    : std::vector<int>{c.batch, c.time, c.input},
                       "in");
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && c.cifg) continue;
    ins[1 + g] = b.AddConstTensor<float>(F, {c.cell, c.input}, w.wx[g]);
    ins[5 + g] = b.AddConstTensor<float>(F, {c.cell, c.output}, w.wh[g]);
    ins[12 + g] = b.AddConstTensor<float>(F, {c.cell}, w.bias[g]);
    if (c.layer_norm) ins[20 + g] = b.AddConstTensor<float>(F, {c.cell}, w.ln[g]);
  }
  if (c.peephole) {
    if (!c.cifg) ins[9] = b.AddConstTensor<float>(F, {c.cell}, w.peep[0]);
    ins[10] = b.AddConstTensor<float>(F, {c.cell}, w.peep[1]);
    ins[11] = b.AddConstTensor<float>(F, {c.cell}, w.peep[3]);
  }
  if (c.projection) {
    ins[16] = b.AddConstTensor<float>(F, {c.output, c.cell}, w.proj);
    ins[17] = b.AddConstTensor<float>(F, {c.output}, w.proj_bias);
  }
  ins[18] = b.AddVariableTensor(F, {c.batch, c.output}, "h");
  ins[19] = b.AddVariableTensor(F, {c.batch, c.cell}, "c");
  int out = b.AddTensor(F,
                        c.time_major ? std::vector<int>{c.time, c.batch, c.output}
                                     : std::vector<int>{c.batch, c.time, c.output},
                        "out");
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = c.cell_clip;
  o.proj_clip = c.proj_clip;
  o.time_major = c.time_major;
  if (c.legacy_20_inputs) ins.resize(20);
  b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out}, Options(o), 1);
  b.SetInputs({ins[0]});
  b.SetOutputs({out});
  return b;
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Double-precision LSTM; h and c persist across calls.
struct LstmRef {
  LstmCase c;
  LstmWeights w;
  std::vector<double> h, cs;

  std::vector<double> Gate(int g, const float* x, const double* hb, const double* cb) {
    std::vector<double> a(c.cell);
    for (int i = 0; i < c.cell; ++i) {
      double s = c.layer_norm ? 0.0 : w.bias[g][i];
      for (int k = 0; k < c.input; ++k) s += double(w.wx[g][i * c.input + k]) * x[k];
      for (int k = 0; k < c.output; ++k) s += double(w.wh[g][i * c.output + k]) * hb[k];
      if (c.peephole && g != 2) s += double(w.peep[g][i]) * cb[i];
      a[i] = s;
    }
    if (c.layer_norm) {
      double mean = 0, var = 0;
      for (double v : a) mean += v;
      mean /= c.cell;
      for (double v : a) var += (v - mean) * (v - mean);
      var /= c.cell;
      for (int i = 0; i < c.cell; ++i) {
        a[i] = (a[i] - mean) / std::sqrt(var + 1e-8) * w.ln[g][i] + w.bias[g][i];
      }
    }
    for (double& v : a) v = g == 2 ? std::tanh(v) : Sigmoid(v);
    return a;
  }

  // x: one step for one batch row; returns h.
  void Step(const float* x, int b) {
    double* hb = &h[b * c.output];
    double* cb = &cs[b * c.cell];
    std::vector<double> ig = c.cifg ? std::vector<double>() : Gate(0, x, hb, cb);
    std::vector<double> fg = Gate(1, x, hb, cb);
    std::vector<double> gg = Gate(2, x, hb, cb);
    for (int i = 0; i < c.cell; ++i) {
      const double in_gate = c.cifg ? 1.0 - fg[i] : ig[i];
      double v = fg[i] * cb[i] + in_gate * gg[i];
      if (c.cell_clip > 0) v = std::min<double>(c.cell_clip, std::max<double>(-c.cell_clip, v));
      cb[i] = v;
    }
    std::vector<double> og = Gate(3, x, hb, cb);
    std::vector<double> hidden(c.cell);
    for (int i = 0; i < c.cell; ++i) hidden[i] = og[i] * std::tanh(cb[i]);
    for (int o = 0; o < c.output; ++o) {
      if (!c.projection) {
        hb[o] = hidden[o];
        continue;
      }
      double s = w.proj_bias[o];
      for (int i = 0; i < c.cell; ++i) s += double(w.proj[o * c.cell + i]) * hidden[i];
      if (c.proj_clip > 0) s = std::min<double>(c.proj_clip, std::max<double>(-c.proj_clip, s));
      hb[o] = s;
    }
  }

  std::vector<double> Run(const std::vector<float>& x) {
    if (h.empty()) {
      h.assign(c.batch * c.output, 0.0);
      cs.assign(c.batch * c.cell, 0.0);
    }
    std::vector<double> out(c.batch * c.time * c.output);
    for (int t = 0; t < c.time; ++t) {
      for (int b = 0; b < c.batch; ++b) {
        const int row = c.time_major ? t * c.batch + b : b * c.time + t;
        Step(&x[row * c.input], b);
        for (int o = 0; o < c.output; ++o) out[row * c.output + o] = h[b * c.output + o];
      }
    }
    return out;
  }
};

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM float: hand-checked single cell", "[lstm]") {
  // One cell, one input, zero recurrent weights and biases, weights 1:
  // i = f = o = sigmoid(x), g = tanh(x), c1 = i*g, h1 = o * tanh(c1).
  LstmCase c;
  c.input = c.cell = c.output = 1;
  c.time = 1;
  LstmWeights w;
  for (int g = 0; g < 4; ++g) {
    w.wx[g] = {1.0f};
    w.wh[g] = {0.0f};
    w.bias[g] = {0.0f};
  }
  OpTestModel m(FloatModel(c, w));
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1.0f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  const double s = 1.0 / (1.0 + std::exp(-1.0));
  const double c1 = s * std::tanh(1.0);
  CHECK(m.Output<float>(0)[0] == Approx(s * std::tanh(c1)).epsilon(1e-6));
  CHECK(m.OutputShape(0) == std::vector<int>{1, 1, 1});
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM float: randomized against double precision", "[lstm]") {
  const uint32_t seed = tflite_inspect::testing::TestSeed(0x157);
  CAPTURE(seed, Catch::rngSeed());  // replay: --rng-seed <rngSeed> (testing/random.h)
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 40; ++iter) {
    LstmCase c;
    c.batch = RandInt(rng, 1, 3);
    c.time = RandInt(rng, 1, 5);
    c.input = RandInt(rng, 1, 6);
    c.cell = RandInt(rng, 1, 6);
    c.cifg = RandInt(rng, 0, 1) == 1;
    c.peephole = RandInt(rng, 0, 1) == 1;
    c.projection = RandInt(rng, 0, 1) == 1;
    c.layer_norm = RandInt(rng, 0, 1) == 1;
    c.time_major = RandInt(rng, 0, 1) == 1;
    c.legacy_20_inputs = !c.layer_norm && RandInt(rng, 0, 1) == 1;
    c.output = c.projection ? RandInt(rng, 1, 6) : c.cell;
    c.cell_clip = RandInt(rng, 0, 1) ? 0.0f : 0.8f;
    c.proj_clip = c.projection && RandInt(rng, 0, 1) ? 0.3f : 0.0f;
    CAPTURE(iter, c.batch, c.time, c.input, c.cell, c.output, c.cifg, c.peephole, c.projection,
            c.layer_norm, c.time_major, c.cell_clip, c.proj_clip, c.legacy_20_inputs);
    LstmRef ref{c, RandomWeights(rng, c), {}, {}};
    OpTestModel m(FloatModel(c, ref.w));
    REQUIRE(m.Prepare() == kTfLiteOk);
    for (int call = 0; call < 2; ++call) {  // state carries over between invocations
      std::vector<float> x = RandomFloats(rng, c.batch * c.time * c.input, -2.f, 2.f);
      m.SetInput<float>(0, x);
      REQUIRE(m.Invoke() == kTfLiteOk);
      const std::vector<double> want = ref.Run(x);
      const std::vector<float> got = m.Output<float>(0);
      REQUIRE(got.size() == want.size());
      // Layer norm over a few nearly equal cells divides by a tiny spread, which
      // magnifies float rounding (seen: 4e-4 relative with 2 cells); elsewhere float
      // stays within a few ulps of the double evaluation.
      const double rel = c.layer_norm ? 1e-3 : 1.2e-5;
      for (size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i] == Approx(want[i]).epsilon(rel).margin(2e-6));
      }
    }
  }
}

// --- int8 (8x8_16) ----------------------------------------------------------------------

// Deterministic pseudo-random values (an LCG), so the goldens below stay valid.
struct Lcg {
  uint32_t s;
  int Next(int lo, int hi) {
    s = s * 1664525u + 1013904223u;
    return lo + static_cast<int>((s >> 8) % static_cast<uint32_t>(hi - lo + 1));
  }
  template <typename T>
  std::vector<T> Vec(size_t n, int lo, int hi) {
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(Next(lo, hi));
    return v;
  }
};

// An int8 LSTM as TFLite's converter writes it: int8 weights, int32 biases, int16 peephole
// and layer-norm weights, int8 output state, int16 cell state (scale 2^-12) and five
// intermediates (gate scales for layer norm, then the hidden state's scale).
ModelBuilder Int8Model(const LstmCase& c, int input_zp, int state_zp, uint32_t seed) {
  Lcg rng{seed};
  ModelBuilder b;
  const float in_scale = 0.02f, state_scale = 0.0078f;
  QuantSpec in_q{{in_scale}, {input_zp}}, st_q{{state_scale}, {state_zp}},
      cell_q{{1.0f / 4096}, {0}};
  std::vector<int32_t> ins(24, -1);
  ins[0] = b.AddTensor(tflite::TensorType_INT8,
                       c.time_major ? std::vector<int>{c.time, c.batch, c.input}
                                    : std::vector<int>{c.batch, c.time, c.input},
                       "in", &in_q);
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && c.cifg) continue;
    QuantSpec wx_q{{0.004f + 0.001f * g}, {0}}, wh_q{{0.005f + 0.001f * g}, {0}};
    ins[1 + g] = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.cell, c.input},
                                          rng.Vec<int8_t>(c.cell * c.input, -127, 127), "", &wx_q);
    ins[5 + g] = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.cell, c.output},
                                          rng.Vec<int8_t>(c.cell * c.output, -127, 127), "", &wh_q);
    QuantSpec bias_q{{c.layer_norm ? 1e-6f : 0.0001f}, {0}};
    ins[12 + g] = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c.cell},
                                            rng.Vec<int32_t>(c.cell, -3000, 3000), "", &bias_q);
    if (c.layer_norm) {
      QuantSpec ln_q{{c.ln_scale}, {0}};
      ins[20 + g] = b.AddConstTensor<int16_t>(tflite::TensorType_INT16, {c.cell},
                                              rng.Vec<int16_t>(c.cell, 5000, 15000), "", &ln_q);
    }
  }
  if (c.peephole) {
    for (int k = c.cifg ? 1 : 0; k < 3; ++k) {
      QuantSpec p_q{{0.0003f}, {0}};
      ins[9 + k] = b.AddConstTensor<int16_t>(tflite::TensorType_INT16, {c.cell},
                                             rng.Vec<int16_t>(c.cell, -2000, 2000), "", &p_q);
    }
  }
  if (c.projection) {
    QuantSpec pw_q{{0.006f}, {0}}, pb_q{{0.0001f}, {0}};
    ins[16] = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.output, c.cell},
                                       rng.Vec<int8_t>(c.output * c.cell, -127, 127), "", &pw_q);
    ins[17] = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c.output},
                                        rng.Vec<int32_t>(c.output, -500, 500), "", &pb_q);
  }
  ins[18] = b.AddTensor(tflite::TensorType_INT8, {c.batch, c.output}, "h", &st_q);
  ins[19] = b.AddTensor(tflite::TensorType_INT16, {c.batch, c.cell}, "c", &cell_q);
  b.subgraph(0).tensors[ins[18]]->is_variable = true;
  b.subgraph(0).tensors[ins[19]]->is_variable = true;
  std::vector<int32_t> inter;
  for (int k = 0; k < 4; ++k) {
    QuantSpec q{{0.0004f + 0.0001f * k}, {0}};
    inter.push_back(b.AddTensor(tflite::TensorType_INT16, {0}, "", &q));
  }
  QuantSpec hidden_q{{0.007f}, {0}};
  inter.push_back(b.AddTensor(tflite::TensorType_INT8, {0}, "", &hidden_q));
  int out = b.AddTensor(tflite::TensorType_INT8,
                        c.time_major ? std::vector<int>{c.time, c.batch, c.output}
                                     : std::vector<int>{c.batch, c.time, c.output},
                        "out", &st_q);
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = c.cell_clip;
  o.proj_clip = c.proj_clip;
  o.time_major = c.time_major;
  b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out}, Options(o), 1);
  b.model().subgraphs[0]->operators.back()->intermediates = inter;
  b.SetInputs({ins[0]});
  b.SetOutputs({out});
  return b;
}

LstmCase FullInt8Case() {
  LstmCase c;
  c.batch = 2, c.time = 3, c.input = 5, c.cell = 4, c.output = 3;
  c.peephole = c.projection = c.layer_norm = true;
  c.cell_clip = 1.5f, c.proj_clip = 0.5f;
  return c;
}

LstmCase CifgInt8Case() {
  LstmCase c;
  c.batch = 2, c.time = 4, c.input = 3, c.cell = 5, c.output = 5;
  c.cifg = c.time_major = true;
  return c;
}

// Writes the models of the golden tests (run by hand: [.write] LSTM_MODEL_DIR=...).
TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM int8: write golden models", "[.write]") {
  const char* dir = std::getenv("LSTM_MODEL_DIR");
  REQUIRE(dir != nullptr);
  REQUIRE(Int8Model(FullInt8Case(), -3, 2, 7).WriteFile(std::string(dir) + "/full.tflite").ok());
  REQUIRE(Int8Model(CifgInt8Case(), 5, -4, 9).WriteFile(std::string(dir) + "/cifg.tflite").ok());
}

// Goldens from TFLite's reference kernels (ai-edge-litert 2.3.0, BUILTIN_REF) on the
// models above, two invocations each (the state carries over), inputs from Lcg{11}.
void CheckInt8Golden(const ModelBuilder& b, const std::vector<std::vector<int8_t>>& golden) {
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  Lcg rng{11};
  const size_t n = m.interpreter().input_tensor(0)->bytes;
  for (size_t call = 0; call < golden.size(); ++call) {
    CAPTURE(call);
    m.SetInput<int8_t>(0, rng.Vec<int8_t>(n, -128, 127));
    REQUIRE(m.Invoke() == kTfLiteOk);
    CHECK(m.Output<int8_t>(0) == golden[call]);
  }
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM int8: peephole, layer norm, projection, clips", "[lstm]") {
  CheckInt8Golden(Int8Model(FullInt8Case(), -3, 2, 7),
                  {{5, -4, 19, 6, 1, -19, 30, 3, 5, -23, -1, -35, -4, 11, -24, 31, 5, -39},
                   {33, 1, 49, 6, 8, 7, 27, 14, 15, 16, 5, -25, 5, 2, -13, -5, 1, -24}});
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM int8: CIFG, time major, zero points", "[lstm]") {
  CheckInt8Golden(
      Int8Model(CifgInt8Case(), 5, -4, 9),
      {{-10, 52, 5,  8,  -1, -11, -9, -30, -15, 10, -19, 59, 3,  22, 31, -21, 74, -3, 7,   19,
        -39, 40, -8, 24, 68, 25,  15, 63,  -9,  -8, -16, 69, 31, 16, 7,  14,  20, 7,  -50, 2},
       {-28, 29, -3,  25, 79, 1,   37, -3, -18, 52, -35, 11, -38, 18, 23, -13, 78, 4,  12,  19,
        -41, 5,  -28, 5,  43, -11, 44, 15, -35, 1,  24,  4,  -2,  4,  18, 17,  4,  26, -60, 4}});
}

// Layer-norm scales at the edges (invoke_fuzzer findings). 240,000: the variance guard,
// 10000 x scale, is past int32 (TFLite's unchecked cast, undefined; 1 here, what the cast
// gives on x86) while the rescale by scale x 2^12 still fits a 30-bit left shift: the model
// prepares and runs. 1e6: that rescale needs a 32-bit left shift (TFLite's
// `1 << 32`, undefined): refused at prepare with the multiplier's reason. The first is also
// lib/fuzz/regressions/lstm_layer_norm_scale_240000.tflite, for the sanitizer build
// (written by the [.write] case below).
TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM int8: layer-norm scales at the int32 edges", "[lstm]") {
  LstmCase c = FullInt8Case();
  c.ln_scale = 240000.0f;
  OpTestModel m(Int8Model(c, -3, 2, 7));
  const TfLiteStatus prepared = m.Prepare();
  INFO(m.errors());
  REQUIRE(prepared == kTfLiteOk);
  m.SetInput<int8_t>(0, std::vector<int8_t>(m.interpreter().input_tensor(0)->bytes, 7));
  CHECK(m.Invoke() == kTfLiteOk);

  c.ln_scale = 1e6f;
  OpTestModel refused(Int8Model(c, -3, 2, 7));
  CHECK(refused.Prepare() != kTfLiteOk);
  CHECK_THAT(refused.errors(),
             Catch::Contains("UNIDIRECTIONAL_SEQUENCE_LSTM: its quantization parameters give a "
                             "rescaling multiplier of 4.096e+09, which needs a left shift over "
                             "30 bits"));
}

// The output's tanh reads the cell state with 15 + log2(scale) integer bits, 0 to 6 in
// TFLite's kernels; a crafted 2^-131 made the state update's rounding shift negative (an
// assert in RoundingDivideByPOT, found by fuzz.sh --long).
TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM int8: cell state scales 2^-15 to 2^-9", "[lstm]") {
  auto with_cell_scale = [](float scale) {
    ModelBuilder b = Int8Model(FullInt8Case(), -3, 2, 7);
    const int cell = b.model().subgraphs[0]->operators[0]->inputs[19];
    b.subgraph(0).tensors[cell]->quantization->scale = {scale};
    return b;
  };
  for (float scale : {1.0f / 512, 1.0f / 32768}) {
    OpTestModel m(with_cell_scale(scale));
    const TfLiteStatus prepared = m.Prepare();
    INFO(scale << ": " << m.errors());
    REQUIRE(prepared == kTfLiteOk);
    m.SetInput<int8_t>(0, std::vector<int8_t>(m.interpreter().input_tensor(0)->bytes, 7));
    CHECK(m.Invoke() == kTfLiteOk);
  }
  OpTestModel refused(with_cell_scale(1.0f / 65536));
  CHECK(refused.Prepare() != kTfLiteOk);
  CHECK_THAT(refused.errors(),
             Catch::Contains("Integer LSTM: the cell state's scale is 2^-16; the integer kernels "
                             "support 2^-15 to 2^-9"));
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM int8: write the fuzz regression model", "[.write]") {
  const char* dir = std::getenv("TFI_REGRESSION_DIR");
  REQUIRE(dir != nullptr);
  LstmCase c = FullInt8Case();
  c.ln_scale = 240000.0f;
  REQUIRE(Int8Model(c, -3, 2, 7)
              .WriteFile(std::string(dir) + "/lstm_layer_norm_scale_240000.tflite")
              .ok());
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM: bad models fail to prepare with a message", "[lstm]") {
  LstmCase c;
  std::mt19937 rng(1);
  LstmWeights w = RandomWeights(rng, c);
  SECTION("wrong input count") {
    ModelBuilder b = FloatModel(c, w);
    b.model().subgraphs[0]->operators[0]->inputs.resize(21);
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("expects 20 or 24 inputs"));
  }
  SECTION("state not variable") {
    ModelBuilder b = FloatModel(c, w);
    const int h = b.model().subgraphs[0]->operators[0]->inputs[18];
    b.subgraph(0).tensors[h]->is_variable = false;
    b.subgraph(0).inputs.push_back(h);  // else the loader refuses it first (nothing writes it)
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("UNIDIRECTIONAL_SEQUENCE_LSTM"));
  }
  SECTION("state sizes whose products overflow an int") {
    // The fuzz campaign's finding: n_batch * n_output = 2^32 wrapped to 0 in int and matched
    // an empty state (UBSan: signed overflow). Compared in 64 bits, it is refused.
    LstmCase big;
    big.batch = 65536;
    big.time = 1;
    big.input = 1;
    big.cell = 1;
    big.output = 65536;
    big.projection = true;  // else n_output must equal n_cell
    LstmWeights bw = RandomWeights(rng, big);
    ModelBuilder b = FloatModel(big, bw);
    const auto& op = *b.model().subgraphs[0]->operators[0];
    b.subgraph(0).tensors[op.inputs[18]]->shape = {65536, 0};
    b.subgraph(0).tensors[op.outputs[0]]->shape = {1, 1, 1};
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("NumElements(output_state)"));
  }
  SECTION("unsupported input type") {
    ModelBuilder b = FloatModel(c, w);
    b.subgraph(0).tensors[0]->type = tflite::TensorType_INT32;
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
