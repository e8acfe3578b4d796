// Kernel goldens from the real TFLite runtime. Each case is a small single-op model built
// here with the ModelBuilder; scripts/gen_kernel_goldens.py writes the models (through the
// hidden [.write_kernel_models] test below), runs them with ai-edge-litert's reference
// kernels (BUILTIN_REF) on seeded inputs and commits testdata/kernels/<case>/{model.tflite,
// input_<i>.bin, output_<i>.bin, report.json}. Our kernels must reproduce every output:
// integer outputs exactly, float outputs bit for bit unless a case names a tolerance.
// A case TFLite refuses at AllocateTensors (report.json "refused") must fail here too.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/op_test_util.h"
#include "nlohmann/json.hpp"

namespace tflite_inspect {
namespace {

namespace fs = std::filesystem;
using conv_test::RandomFloats;
using conv_test::RandomInts;

// Per-channel int8 weights: values in [-127, 127], scales spread over a decade.
QuantSpec ChannelScales(int channels, int dim, float base) {
  QuantSpec q;
  for (int c = 0; c < channels; ++c) q.scale.push_back(base * (1.0f + 0.37f * c));
  q.zero_point.assign(channels, 0);
  q.quantized_dimension = dim;
  return q;
}

void SingleIo(ModelBuilder& b, int in, int out) {
  b.SetInputs({in});
  b.SetOutputs({out});
}

// --- DEPTHWISE_CONV_2D hybrid (float input, int8 per-channel filter) -------------------

struct DwHybrid {
  int batch, h, w, ic, dm, k, stride, dilation;
  bool same, bias, per_channel;
  tflite::ActivationFunctionType act;
};

ModelBuilder DepthwiseHybrid(const DwHybrid& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const int oc = c.ic * c.dm;
  const int eff = (c.k - 1) * c.dilation + 1;
  const int oh = c.same ? (c.h + c.stride - 1) / c.stride : (c.h - eff + c.stride) / c.stride;
  const int ow = c.same ? (c.w + c.stride - 1) / c.stride : (c.w - eff + c.stride) / c.stride;
  QuantSpec wq = c.per_channel ? ChannelScales(oc, 3, 0.004f) : QuantSpec{{0.004f}, {0}, 3};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.h, c.w, c.ic}, "in");
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, c.k, c.k, oc},
                                         RandomInts<int8_t>(rng, c.k * c.k * oc, -127, 127), "w",
                                         &wq);
  std::vector<int32_t> inputs = {in, w};
  if (c.bias) {
    inputs.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc},
                                             RandomFloats(rng, oc), "bias"));
  }
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, oh, ow, oc}, "out");
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = c.stride;
  o.dilation_h_factor = o.dilation_w_factor = c.dilation;
  o.depth_multiplier = c.dm;
  o.fused_activation_function = c.act;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, inputs, {out}, Options(o),
                c.per_channel ? 6 : 4);
  SingleIo(b, in, out);
  return b;
}

// --- CONV_2D hybrid (v2 per-tensor, v5 per-channel) --------------------------------------

ModelBuilder ConvHybrid(bool per_channel, int batch, bool same, uint32_t seed) {
  std::mt19937 rng(seed);
  const int h = 6, w = 5, ic = 3, oc = 4, k = 3;
  const int oh = same ? h : h - k + 1, ow = same ? w : w - k + 1;
  QuantSpec wq = per_channel ? ChannelScales(oc, 0, 0.003f) : QuantSpec{{0.003f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, ic}, "in");
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, k, k, ic},
                                         RandomInts<int8_t>(rng, oc * k * k * ic, -127, 127), "w",
                                         &wq);
  const int bias =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc), "bias");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batch, oh, ow, oc}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {out}, Options(o),
                per_channel ? 5 : 2);
  SingleIo(b, in, out);
  return b;
}

// --- FULLY_CONNECTED hybrid ---------------------------------------------------------------

struct FcHybrid {
  int batch, input, units;
  bool bias, asymmetric, keep_num_dims, per_channel;
  int version;
};

ModelBuilder FullyConnectedHybrid(const FcHybrid& c, uint32_t seed) {
  std::mt19937 rng(seed);
  QuantSpec wq = c.per_channel ? ChannelScales(c.units, 0, 0.002f) : QuantSpec{{0.002f}, {0}, 0};
  ModelBuilder b;
  const std::vector<int32_t> in_shape =
      c.keep_num_dims ? std::vector<int32_t>{c.batch, 1, c.input} : std::vector<int32_t>{c.batch, c.input};
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, in_shape, "in");
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.units, c.input},
                                         RandomInts<int8_t>(rng, c.units * c.input, -127, 127),
                                         "w", &wq);
  std::vector<int32_t> inputs = {in, f};
  if (c.bias) {
    inputs.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.units},
                                             RandomFloats(rng, c.units), "bias"));
  }
  const std::vector<int32_t> out_shape =
      c.keep_num_dims ? std::vector<int32_t>{c.batch, 1, c.units} : std::vector<int32_t>{c.batch, c.units};
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "out");
  tflite::FullyConnectedOptionsT o;
  o.keep_num_dims = c.keep_num_dims;
  o.asymmetric_quantize_inputs = c.asymmetric;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, inputs, {out}, Options(o), c.version);
  SingleIo(b, in, out);
  return b;
}

struct GoldenCase {
  const char* name;
  ModelBuilder (*build)();
  double float_tolerance;  // max |ours - TFLite| / max(1, max|TFLite|); 0: bit-exact
};

const GoldenCase kCases[] = {
    {"depthwise_hybrid_per_channel_same",
     [] {
       return DepthwiseHybrid({1, 5, 6, 3, 2, 3, 1, 1, true, true, true,
                               tflite::ActivationFunctionType_NONE},
                              101);
     },
     0},
    {"depthwise_hybrid_per_channel_dilated",
     [] {
       return DepthwiseHybrid({4, 9, 8, 4, 1, 3, 2, 2, false, false, true,
                               tflite::ActivationFunctionType_RELU6},
                              102);
     },
     0},
    {"depthwise_hybrid_per_tensor",  // v4: TFLite needs a scale per channel
     [] {
       return DepthwiseHybrid({1, 4, 4, 3, 1, 3, 1, 1, true, true, false,
                               tflite::ActivationFunctionType_NONE},
                              103);
     },
     0},
    {"conv_hybrid_per_tensor", [] { return ConvHybrid(false, 2, true, 201); }, 0},
    {"conv_hybrid_per_channel", [] { return ConvHybrid(true, 4, false, 202); }, 0},
    {"fully_connected_hybrid",
     [] { return FullyConnectedHybrid({3, 40, 7, true, false, false, false, 3}, 301); }, 0},
    {"fully_connected_hybrid_asymmetric",
     [] { return FullyConnectedHybrid({6, 40, 7, true, true, false, false, 9}, 302); }, 0},
    {"fully_connected_hybrid_no_bias_keep_dims",  // v6 (no bias) with keep_num_dims (v5)
     [] { return FullyConnectedHybrid({2, 33, 5, false, false, true, false, 6}, 303); }, 0},
    {"fully_connected_hybrid_per_channel",
     [] { return FullyConnectedHybrid({3, 40, 7, true, true, false, true, 12}, 304); }, 0},
    {"fully_connected_hybrid_per_channel_symmetric",
     [] { return FullyConnectedHybrid({4, 24, 9, true, false, false, true, 12}, 305); }, 0},
};

fs::path GoldenDir(const std::string& name) {
  return fs::path(TFI_SOURCE_DIR) / "testdata" / "kernels" / name;
}

std::vector<uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

template <typename T>
double MaxAbsDiff(const uint8_t* a, const uint8_t* b, size_t bytes) {
  double m = 0;
  for (size_t i = 0; i < bytes / sizeof(T); ++i) {
    T x, y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    m = std::max(m, std::fabs(static_cast<double>(x) - static_cast<double>(y)));
  }
  return m;
}

double MaxAbs(const float* v, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; ++i) m = std::max(m, std::fabs(static_cast<double>(v[i])));
  return m;
}

void CheckCase(const GoldenCase& c, int num_threads) {
  const fs::path dir = GoldenDir(c.name);
  CAPTURE(c.name, num_threads);
  REQUIRE(fs::exists(dir / "report.json"));
  const auto report = nlohmann::json::parse(std::ifstream(dir / "report.json"));
  const std::vector<uint8_t> model_bytes = ReadBytes(dir / "model.tflite");
  // The committed model is what the builder makes today (else regenerate the goldens).
  CHECK(c.build().Build() == model_bytes);
  CapturingErrorReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(model_bytes.data()), model_bytes.size(), &reporter);
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver, &reporter)(&interpreter, num_threads) == kTfLiteOk);
  const TfLiteStatus allocated = interpreter->AllocateTensors();
  if (report.contains("refused")) {
    CAPTURE(report["refused"].get<std::string>());
    CHECK(allocated != kTfLiteOk);
    CHECK(!reporter.text().empty());
    return;
  }
  REQUIRE(allocated == kTfLiteOk);
  for (size_t i = 0; i < interpreter->inputs().size(); ++i) {
    TfLiteTensor* t = interpreter->input_tensor(i);
    const auto bytes = ReadBytes(dir / ("input_" + std::to_string(i) + ".bin"));
    REQUIRE(bytes.size() == t->bytes);
    std::memcpy(t->data.raw, bytes.data(), bytes.size());
  }
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  for (size_t i = 0; i < interpreter->outputs().size(); ++i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    const auto want = ReadBytes(dir / ("output_" + std::to_string(i) + ".bin"));
    CAPTURE(i, reporter.text());
    REQUIRE(want.size() == t->bytes);
    const auto* got = reinterpret_cast<const uint8_t*>(t->data.raw);
    if (t->type == kTfLiteFloat32 && c.float_tolerance > 0) {
      const double err = MaxAbsDiff<float>(got, want.data(), want.size());
      const double ref = MaxAbs(reinterpret_cast<const float*>(want.data()), want.size() / 4);
      CAPTURE(err, ref);
      CHECK(err <= c.float_tolerance * std::max(1.0, ref));
    } else {
      double err = 0;
      if (t->type == kTfLiteFloat32) err = MaxAbsDiff<float>(got, want.data(), want.size());
      CAPTURE(err);
      CHECK(std::memcmp(got, want.data(), want.size()) == 0);
    }
  }
}

TEST_CASE("kernels match TFLite's reference kernels on the testdata/kernels goldens") {
  for (const GoldenCase& c : kCases) CheckCase(c, 1);
}

TEST_CASE("kernels match the testdata/kernels goldens on two threads") {
  for (const GoldenCase& c : kCases) CheckCase(c, 2);
}

TEST_CASE("hybrid DEPTHWISE_CONV_2D with one filter scale is refused with the reason") {
  OpTestModel m(DepthwiseHybrid({1, 4, 4, 3, 1, 3, 1, 1, true, true, false,
                                 tflite::ActivationFunctionType_NONE},
                                103));
  CHECK(m.Prepare() != kTfLiteOk);
  CHECK_THAT(m.errors(), Catch::Contains("one scale per output channel on dimension 3") &&
                             Catch::Contains("expected 3 scales, got 1"));
}

// Writes each case's model.tflite (run by scripts/gen_kernel_goldens.py).
TEST_CASE("write kernel golden models", "[.write_kernel_models]") {
  const char* root = std::getenv("TFI_KERNEL_GOLDEN_DIR");
  REQUIRE(root != nullptr);
  for (const GoldenCase& c : kCases) {
    const fs::path dir = fs::path(root) / c.name;
    fs::create_directories(dir);
    REQUIRE(c.build().WriteFile((dir / "model.tflite").string()).ok());
  }
}

}  // namespace
}  // namespace tflite_inspect
