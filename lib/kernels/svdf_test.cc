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

struct SvdfCase {
  int batch = 1, input = 3, units = 2, rank = 1, memory = 3;
  bool bias = true;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE;
  int filters() const { return units * rank; }
};

tflite::SVDFOptionsT Opts(const SvdfCase& c) {
  tflite::SVDFOptionsT o;
  o.rank = c.rank;
  o.fused_activation_function = c.act;
  return o;
}

int MarkVariable(ModelBuilder& b, int t) {
  b.subgraph(0).tensors[t]->is_variable = true;
  return t;
}

// Float model: input, state variable, output.
ModelBuilder FloatModel(const SvdfCase& c, const std::vector<float>& wf,
                        const std::vector<float>& wt, const std::vector<float>& bias) {
  ModelBuilder b;
  const auto F = tflite::TensorType_FLOAT32;
  int in = b.AddTensor(F, {c.batch, c.input}, "in");
  int f = b.AddConstTensor<float>(F, {c.filters(), c.input}, wf, "wf");
  int t = b.AddConstTensor<float>(F, {c.filters(), c.memory}, wt, "wt");
  int bi = c.bias ? b.AddConstTensor<float>(F, {c.units}, bias, "b") : -1;
  int st = b.AddVariableTensor(F, {c.batch, c.filters() * c.memory}, "state");
  int out = b.AddTensor(F, {c.batch, c.units}, "out");
  b.AddOperator(tflite::BuiltinOperator_SVDF, {in, f, t, bi, st}, {out}, Options(Opts(c)), 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// Double-precision SVDF over a sequence of invocations.
struct SvdfRef {
  SvdfCase c;
  std::vector<float> wf, wt, bias;
  std::vector<double> state;  // [batch][filter][memory]
  std::vector<double> Step(const std::vector<float>& x) {
    if (state.empty()) state.assign(c.batch * c.filters() * c.memory, 0.0);
    std::vector<double> out(c.batch * c.units);
    for (int b = 0; b < c.batch; ++b) {
      for (int f = 0; f < c.filters(); ++f) {
        double* s = &state[(b * c.filters() + f) * c.memory];
        for (int m = 0; m + 1 < c.memory; ++m) s[m] = s[m + 1];
        double dot = 0;
        for (int i = 0; i < c.input; ++i) dot += double(wf[f * c.input + i]) * x[b * c.input + i];
        s[c.memory - 1] = dot;
      }
      for (int u = 0; u < c.units; ++u) {
        double sum = c.bias ? bias[u] : 0.0;
        for (int r = 0; r < c.rank; ++r) {
          const int f = u * c.rank + r;
          for (int m = 0; m < c.memory; ++m) {
            sum += double(wt[f * c.memory + m]) * state[(b * c.filters() + f) * c.memory + m];
          }
        }
        if (c.act == tflite::ActivationFunctionType_RELU) sum = std::max(0.0, sum);
        out[b * c.units + u] = sum;
      }
    }
    return out;
  }
};

TEST_CASE("SVDF float: hand-checked memory of two steps", "[svdf]") {
  // One unit, rank 1, memory 2: out_t = wt0 * (wf.x_{t-1}) + wt1 * (wf.x_t) + b.
  SvdfCase c;
  c.input = 2;
  c.units = 1;
  c.memory = 2;
  OpTestModel m(FloatModel(c, {1, 2}, {10, 1}, {0.5f}));
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1, 1});  // wf.x = 3
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{3.5f});  // 10*0 + 1*3 + 0.5
  m.SetInput<float>(0, {2, 0});                           // wf.x = 2
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{32.5f});  // 10*3 + 1*2 + 0.5
  m.SetInput<float>(0, {0, 0});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{20.5f});  // 10*2 + 0 + 0.5
  // ResetVariableTensors clears the memory.
  REQUIRE(m.interpreter().ResetVariableTensors() == kTfLiteOk);
  m.SetInput<float>(0, {1, 1});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{3.5f});
}

TEST_CASE("SVDF float: randomized against double precision", "[svdf]") {
  const uint32_t seed = tflite_inspect::testing::TestSeed(0x5df);
  CAPTURE(seed, Catch::rngSeed());  // replay: --rng-seed <rngSeed> (testing/random.h)
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 20; ++iter) {
    SvdfCase c;
    c.batch = RandInt(rng, 1, 3);
    c.input = RandInt(rng, 1, 9);
    c.units = RandInt(rng, 1, 5);
    c.rank = RandInt(rng, 1, 3);
    c.memory = RandInt(rng, 1, 6);
    c.bias = RandInt(rng, 0, 1) == 1;
    c.act = RandInt(rng, 0, 1) ? tflite::ActivationFunctionType_RELU
                               : tflite::ActivationFunctionType_NONE;
    CAPTURE(iter, c.batch, c.input, c.units, c.rank, c.memory, c.bias);
    SvdfRef ref{c,
                RandomFloats(rng, c.filters() * c.input),
                RandomFloats(rng, c.filters() * c.memory),
                RandomFloats(rng, c.units),
                {}};
    OpTestModel m(FloatModel(c, ref.wf, ref.wt, ref.bias));
    REQUIRE(m.Prepare() == kTfLiteOk);
    for (int step = 0; step < 5; ++step) {
      std::vector<float> x = RandomFloats(rng, c.batch * c.input);
      m.SetInput<float>(0, x);
      REQUIRE(m.Invoke() == kTfLiteOk);
      std::vector<double> want = ref.Step(x);
      std::vector<float> got = m.Output<float>(0);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-5));
    }
  }
}

// --- int8 -----------------------------------------------------------------------------

struct QSvdf {
  SvdfCase c;
  float in_scale = 0.02f, wf_scale = 0.01f, wt_scale = 0.003f, state_scale = 0.004f,
        out_scale = 0.05f;
  int in_zp = -5, out_zp = 3;
  std::vector<int8_t> wf;
  std::vector<int16_t> wt;
  std::vector<int32_t> bias;
};

ModelBuilder QuantModel(const QSvdf& q) {
  const SvdfCase& c = q.c;
  ModelBuilder b;
  QuantSpec in_q{{q.in_scale}, {q.in_zp}}, wf_q{{q.wf_scale}, {0}}, wt_q{{q.wt_scale}, {0}},
      st_q{{q.state_scale}, {0}}, out_q{{q.out_scale}, {q.out_zp}},
      b_q{{q.state_scale * q.wt_scale}, {0}};
  int in = b.AddTensor(tflite::TensorType_INT8, {c.batch, c.input}, "in", &in_q);
  int f =
      b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.filters(), c.input}, q.wf, "wf", &wf_q);
  int t = b.AddConstTensor<int16_t>(tflite::TensorType_INT16, {c.filters(), c.memory}, q.wt, "wt",
                                    &wt_q);
  int bi = c.bias
               ? b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c.units}, q.bias, "b", &b_q)
               : -1;
  int st = MarkVariable(
      b, b.AddTensor(tflite::TensorType_INT16, {c.batch, c.filters() * c.memory}, "state", &st_q));
  int out = b.AddTensor(tflite::TensorType_INT8, {c.batch, c.units}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_SVDF, {in, f, t, bi, st}, {out}, Options(Opts(c)), 3);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// Integer reference written from the algorithm's definition (not the kernel's code).
struct QSvdfRef {
  QSvdf q;
  std::vector<int16_t> state;
  std::vector<int8_t> Step(const std::vector<int8_t>& x) {
    const SvdfCase& c = q.c;
    const int nf = c.filters();
    if (state.empty()) state.assign(c.batch * nf * c.memory, 0);
    int32_t m1, m2;
    int s1, s2;
    RefQuantizeMultiplier(double(float(q.in_scale * q.wf_scale / q.state_scale)), &m1, &s1);
    RefQuantizeMultiplier(double(float(q.state_scale * q.wt_scale / q.out_scale)), &m2, &s2);
    std::vector<int8_t> out(c.batch * c.units);
    for (int b = 0; b < c.batch; ++b) {
      for (int f = 0; f < nf; ++f) {
        int16_t* s = &state[(b * nf + f) * c.memory];
        for (int m = 0; m + 1 < c.memory; ++m) s[m] = s[m + 1];
        int32_t acc = 0;
        for (int i = 0; i < c.input; ++i)
          acc += q.wf[f * c.input + i] * (x[b * c.input + i] - q.in_zp);
        acc = RefMultiplyByQuantizedMultiplier(acc, m1, s1);
        s[c.memory - 1] = static_cast<int16_t>(std::min(32767, std::max(-32768, acc)));
      }
      for (int u = 0; u < c.units; ++u) {
        int32_t sum = c.bias ? q.bias[u] : 0;
        for (int r = 0; r < c.rank; ++r) {
          const int f = u * c.rank + r;
          for (int m = 0; m < c.memory; ++m) {
            sum += q.wt[f * c.memory + m] * state[(b * nf + f) * c.memory + m];
          }
        }
        const int32_t v = RefMultiplyByQuantizedMultiplier(sum, m2, s2) + q.out_zp;
        out[b * c.units + u] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
      }
    }
    return out;
  }
};

TEST_CASE("SVDF int8: randomized, bit-exact with an integer reference", "[svdf]") {
  const uint32_t seed = tflite_inspect::testing::TestSeed(0x5d8);
  CAPTURE(seed, Catch::rngSeed());  // replay: --rng-seed <rngSeed> (testing/random.h)
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 30; ++iter) {
    QSvdf q;
    SvdfCase& c = q.c;
    c.batch = RandInt(rng, 1, 3);
    // Inputs and memories past the vector loops' 16 values (and their tails), filters and
    // units past the blocks of 8 (and theirs); time weights small enough that the
    // reference's int32 sums cannot overflow.
    c.input = RandInt(rng, 1, 100);
    c.units = RandInt(rng, 1, 20);
    c.rank = RandInt(rng, 1, 3);
    c.memory = RandInt(rng, 1, 40);
    c.bias = RandInt(rng, 0, 1) == 1;
    q.in_zp = RandInt(rng, -128, 127);
    q.out_zp = RandInt(rng, -20, 20);
    q.state_scale = 0.001f * RandInt(rng, 1, 20);
    CAPTURE(iter, c.batch, c.input, c.units, c.rank, c.memory, c.bias, q.state_scale);
    q.wf = RandomInts<int8_t>(rng, c.filters() * c.input, -127, 127);
    q.wt = RandomInts<int16_t>(rng, c.filters() * c.memory, -500, 500);
    q.bias = RandomInts<int32_t>(rng, c.units, -5000, 5000);
    QSvdfRef ref{q, {}};
    OpTestModel m(QuantModel(q));
    REQUIRE(m.Prepare() == kTfLiteOk);
    for (int step = 0; step < 6; ++step) {
      std::vector<int8_t> x = RandomInts<int8_t>(rng, c.batch * c.input, -128, 127);
      m.SetInput<int8_t>(0, x);
      REQUIRE(m.Invoke() == kTfLiteOk);
      CHECK(m.Output<int8_t>(0) == ref.Step(x));
    }
  }
}

// Deterministic values (an LCG) for the golden test below.
struct Lcg {
  uint32_t s;
  template <typename T>
  std::vector<T> Vec(size_t n, int lo, int hi) {
    std::vector<T> v(n);
    for (auto& x : v) {
      s = s * 1664525u + 1013904223u;
      x = static_cast<T>(lo + static_cast<int>((s >> 8) % static_cast<uint32_t>(hi - lo + 1)));
    }
    return v;
  }
};

QSvdf GoldenCase() {
  QSvdf q;
  q.c.batch = 2, q.c.input = 5, q.c.units = 3, q.c.rank = 2, q.c.memory = 4;
  q.c.act = tflite::ActivationFunctionType_RELU;
  Lcg rng{5};
  q.wf = rng.Vec<int8_t>(q.c.filters() * q.c.input, -127, 127);
  q.wt = rng.Vec<int16_t>(q.c.filters() * q.c.memory, -3000, 3000);
  q.bias = rng.Vec<int32_t>(q.c.units, -3000, 3000);
  return q;
}

// Writes the golden test's model (run by hand: [.write] SVDF_MODEL_DIR=...).
TEST_CASE("SVDF int8: write golden model", "[.write]") {
  const char* dir = std::getenv("SVDF_MODEL_DIR");
  REQUIRE(dir != nullptr);
  REQUIRE(QuantModel(GoldenCase()).WriteFile(std::string(dir) + "/svdf.tflite").ok());
}

// Golden from TFLite's reference kernels (ai-edge-litert 2.3.0, BUILTIN_REF): three
// invocations (the state carries over), inputs from Lcg{11}. The RELU option is not
// applied on the integer path, as upstream: negative outputs stay.
TEST_CASE("SVDF int8: matches TFLite over three invocations", "[svdf]") {
  const std::vector<std::vector<int8_t>> golden = {{127, -97, 127, 49, -128, 127},
                                                   {127, -128, 127, 9, 127, 127},
                                                   {19, 127, -128, -128, -128, 127}};
  OpTestModel m(QuantModel(GoldenCase()));
  REQUIRE(m.Prepare() == kTfLiteOk);
  Lcg rng{11};
  for (size_t call = 0; call < golden.size(); ++call) {
    CAPTURE(call);
    m.SetInput<int8_t>(0, rng.Vec<int8_t>(10, -128, 127));
    REQUIRE(m.Invoke() == kTfLiteOk);
    CHECK(m.Output<int8_t>(0) == golden[call]);
  }
}

TEST_CASE("SVDF: bad models fail to prepare with a message", "[svdf]") {
  SvdfCase c;
  SECTION("rank does not divide the filters") {
    ModelBuilder b = FloatModel(c, std::vector<float>(6), std::vector<float>(6), {0, 0});
    b.model().subgraphs[0]->operators[0]->builtin_options.AsSVDFOptions()->rank = 4;
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("SVDF"));
  }
  SECTION("state is not a variable tensor") {
    // (An input of the subgraph: a tensor that is neither, nor written, the loader refuses.)
    ModelBuilder b = FloatModel(c, std::vector<float>(6), std::vector<float>(6), {0, 0});
    b.subgraph(0).tensors[4]->is_variable = false;
    b.subgraph(0).inputs.push_back(4);
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("variable tensor"));
  }
  SECTION("wrong input count") {
    ModelBuilder b = FloatModel(c, std::vector<float>(6), std::vector<float>(6), {0, 0});
    b.model().subgraphs[0]->operators[0]->inputs.pop_back();
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("failed to prepare"));
  }
  SECTION("unsupported input type") {
    ModelBuilder b = FloatModel(c, std::vector<float>(6), std::vector<float>(6), {0, 0});
    b.subgraph(0).tensors[0]->type = tflite::TensorType_INT32;
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("not supported"));
  }
}

}  // namespace
}  // namespace tflite_inspect
