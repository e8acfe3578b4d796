#include "inspect/inspect_report.h"

#include "builder/model_builder.h"
#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace {

// Two subgraphs; ADD used in both, WHILE in the first, a custom op in the second.
std::vector<uint8_t> TwoSubgraphModel() {
  ModelBuilder b;
  int x = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "x");
  int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2, 3}, {1, 2, 3, 4, 5, 6}, "w");
  int y = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "y");
  int z = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "z");
  tflite::AddOptionsT add;
  add.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {y}, Options(add));
  b.AddOperator(tflite::BuiltinOperator_ADD, {y, w}, {z}, Options(add));
  b.SetInputs({x});
  b.SetOutputs({z});
  b.AddSignature("serving_default", 0, {{"x", x}}, {{"z", z}});
  b.SetMinRuntimeVersion("2.3.0");

  b.AddSubgraph("second");
  b.UseSubgraph(1);
  QuantSpec q{{0.5f, 0.25f}, {0, 0}, 0};
  int a = b.AddTensor(tflite::TensorType_INT8, {2, 4}, "a", &q);
  int c = b.AddTensor(tflite::TensorType_INT8, {2, 4}, "c");
  b.AddOperator(tflite::BuiltinOperator_ADD, {a, a}, {c});
  b.AddCustomOperator("ethos-u", {c}, {a}, {}, 1);
  b.SetInputs({a});
  b.SetOutputs({a});
  return b.Build();
}

TEST_CASE("report counts uses per opcode and subgraph") {
  auto bytes = TwoSubgraphModel();
  auto m = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(m.ok());
  ModelReport r = BuildReport(*m.value());
  CHECK(r.schema_version == 3);
  CHECK(r.file_size == bytes.size());
  REQUIRE(r.subgraphs.size() == 2);
  REQUIRE(r.op_codes.size() == 2);
  CHECK(r.op_codes[0].code.name() == "ADD");
  CHECK(r.op_codes[0].total_uses == 3);
  CHECK(r.op_codes[0].uses_per_subgraph == std::vector<int>{2, 1});
  CHECK(r.op_codes[1].code.name() == "ethos-u");
  CHECK(r.op_codes[1].total_uses == 1);
  REQUIRE(r.op_codes[1].nodes.size() == 1);
  CHECK(r.op_codes[1].nodes[0].subgraph == 1);
  CHECK(r.op_codes[1].nodes[0].node == 1);
  CHECK(r.min_runtime_version == std::optional<std::string>("2.3.0"));
  REQUIRE(r.signatures.size() == 1);
  CHECK(r.signatures[0].key == "serving_default");
  CHECK(r.subgraphs[0].tensors[1].buffer_bytes == 24);
  CHECK(r.subgraphs[1].tensors[0].quant_kind == "per-channel");
}

TEST_CASE("text and JSON carry the same content") {
  auto bytes = TwoSubgraphModel();
  auto m = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(m.ok());
  ModelReport r = BuildReport(*m.value());
  std::string text = FormatReportText(r, {true});
  CHECK_THAT(text, Catch::Contains("ethos-u (custom)"));
  CHECK_THAT(text, Catch::Contains("[2,1] sg0: 0-1; sg1: 0"));
  CHECK_THAT(text, Catch::Contains("2 scales on dim 0"));
  CHECK_THAT(text, Catch::Contains("2.3.0 (metadata)"));
  nlohmann::json j = ReportToJson(r, {true});
  CHECK(j["operator_codes"][0]["uses"] == 3);
  CHECK(j["operator_codes"][1]["custom"] == true);
  CHECK(j["subgraphs"][1]["tensors"][0]["quantization"]["kind"] == "per-channel");
  CHECK(j["model"]["signature_defs"][0]["inputs"]["x"] == 0);
  CHECK(j["model"]["min_runtime_version"] == "2.3.0");
}

TEST_CASE("emitted resolver registers exactly the model's ops") {
  auto bytes = TwoSubgraphModel();
  auto m = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(m.ok());
  std::string src = EmitResolverSource(*m.value());
  CHECK_THAT(src, Catch::Contains("resolver->AddBuiltin(tflite::BuiltinOperator_ADD, "
                                  "tflite::ops::builtin::Register_ADD(),"));
  CHECK_THAT(src, Catch::Contains("/*min_version=*/1, /*max_version=*/1"));
  CHECK_THAT(src, Catch::Contains("resolver->AddCustom(\"ethos-u\", Register_ethos_u(), "
                                  "/*version=*/1);"));
}

TEST_CASE("node id lists collapse runs") {
  CHECK(CompressIds({}) == "");
  CHECK(CompressIds({5}) == "5");
  CHECK(CompressIds({3, 0, 1, 2, 5, 7, 8}) == "0-3, 5, 7-8");
}

}  // namespace
}  // namespace tflite_inspect

namespace tflite_inspect {
namespace {

// CONV_2D (stride 2, SAME, RELU6) -> DEPTHWISE_CONV_2D (dilation 2) -> MEAN -> FULLY_CONNECTED:
// the attributes, MACs and parameter bytes a model viewer shows, computed by hand.
std::vector<uint8_t> ConvModel() {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 32, 32, 3}, "image");
  const int f1 = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {8, 3, 3, 3},
                                         std::vector<float>(8 * 27, 0.1f), "f1");
  const int b1 = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {8}, std::vector<float>(8), "b1");
  const int c1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 16, 16, 8}, "c1");
  const int f2 = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 3, 3, 8},
                                         std::vector<float>(72, 0.1f), "f2");
  const int c2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 16, 16, 8}, "c2");
  const int axes = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {2}, {1, 2}, "axes");
  const int m = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "m");
  const int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {10, 8},
                                        std::vector<float>(80, 0.1f), "w");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 10}, "logits");
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 2;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f1, b1}, {c1}, Options(conv));
  tflite::DepthwiseConv2DOptionsT dw;
  dw.padding = tflite::Padding_SAME;
  dw.stride_w = dw.stride_h = 1;
  dw.depth_multiplier = 1;
  dw.dilation_w_factor = dw.dilation_h_factor = 2;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {c1, f2, -1}, {c2}, Options(dw));
  tflite::ReducerOptionsT mean;
  mean.keep_dims = false;
  b.AddOperator(tflite::BuiltinOperator_MEAN, {c2, axes}, {m}, Options(mean));
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {m, w, -1}, {out},
                Options(tflite::FullyConnectedOptionsT{}));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

// A crafted model's shapes multiply past int64 (a fuzzer finding: UBSan's signed overflow
// in NodeMacs): MAC counts saturate at INT64_MAX, per node and summed.
TEST_CASE("MAC counts of crafted shapes saturate instead of overflowing") {
  ModelBuilder b;
  // 2^62 elements fit int64 (the loader checks that); times a 3x3x8 filter they do not.
  constexpr int32_t kBig = 1 << 20;
  const int in = b.AddTensor(tflite::TensorType_INT8, {kBig, kBig, kBig, 4}, "in");
  const int f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {8, 3, 3, 8},
                                        std::vector<float>(8 * 3 * 3 * 8, 0.5f), "f");
  const int c1 = b.AddTensor(tflite::TensorType_INT8, {kBig, kBig, kBig, 4}, "c1");
  const int c2 = b.AddTensor(tflite::TensorType_INT8, {kBig, kBig, kBig, 4}, "c2");
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, -1}, {c1}, Options(conv));
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {c1, f, -1}, {c2}, Options(conv));
  b.SetInputs({in});
  b.SetOutputs({c2});
  const auto bytes = b.Build();
  auto model = Model::LoadBuffer(bytes.data(), bytes.size());
  INFO((model.ok() ? std::string() : model.status().message()));
  REQUIRE(model.ok());
  const ModelReport r = BuildReport(*model.value());
  REQUIRE(r.subgraphs[0].operators.size() == 2);
  CHECK(r.subgraphs[0].operators[0].macs == INT64_MAX);
  CHECK(r.subgraphs[0].operators[1].macs == INT64_MAX);
  CHECK(r.subgraphs[0].macs == INT64_MAX);
}

// Recurrent ops: each of batch x time steps multiplies by every weight matrix once; their
// rank-2 states are not weights (a fuzzer's 1 M-step LSTM was counted as 0 MACs).
TEST_CASE("MACs of a sequence LSTM: steps x weight elements, states not counted") {
  constexpr auto F = tflite::TensorType_FLOAT32;
  constexpr int kTime = 7, kBatch = 2, kInput = 5, kCell = 6, kOutput = 3;
  ModelBuilder b;
  std::vector<int> ins(24, -1);
  ins[0] = b.AddTensor(F, {kTime, kBatch, kInput}, "x");
  for (int g = 0; g < 4; ++g) {
    ins[1 + g] = b.AddConstTensor<float>(F, {kCell, kInput}, std::vector<float>(kCell * kInput, 0.1f));
    ins[5 + g] = b.AddConstTensor<float>(F, {kCell, kOutput}, std::vector<float>(kCell * kOutput, 0.1f));
    ins[12 + g] = b.AddConstTensor<float>(F, {kCell}, std::vector<float>(kCell, 0.0f));
  }
  ins[16] = b.AddConstTensor<float>(F, {kOutput, kCell}, std::vector<float>(kOutput * kCell, 0.1f));
  ins[18] = b.AddVariableTensor(F, {kBatch, kOutput}, "h");
  ins[19] = b.AddVariableTensor(F, {kBatch, kCell}, "c");
  const int out = b.AddTensor(F, {kTime, kBatch, kOutput}, "out");
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.time_major = true;
  b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out}, Options(o));
  b.SetInputs({ins[0]});
  b.SetOutputs({out});
  const auto bytes = b.Build();
  auto model = Model::LoadBuffer(bytes.data(), bytes.size());
  INFO((model.ok() ? std::string() : model.status().message()));
  REQUIRE(model.ok());
  const ModelReport r = BuildReport(*model.value());
  // 14 steps x (4 x 6x5 input + 4 x 6x3 recurrent + 3x6 projection weights).
  CHECK(r.subgraphs[0].operators[0].macs == kTime * kBatch * (4 * 30 + 4 * 18 + 18));
}

TEST_CASE("MACs of MediaPipe's Convolution2DTransposeBias count as TRANSPOSE_CONV's, other custom ops none") {
  constexpr auto F = tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int x = b.AddTensor(F, {1, 8, 6, 5}, "x");
  const int w = b.AddConstTensor<float>(F, {3, 2, 4, 5}, std::vector<float>(3 * 2 * 4 * 5, 0.5f), "w");
  const int bias = b.AddConstTensor<float>(F, {3}, {0, 0, 0}, "b");
  const int y = b.AddTensor(F, {1, 16, 12, 3}, "y");
  const int z = b.AddTensor(F, {1, 16, 12, 3}, "z");
  b.AddCustomOperator("Convolution2DTransposeBias", {x, w, bias}, {y}, {}, 1);
  b.AddCustomOperator("SomethingElse", {y}, {z}, {}, 1);
  b.SetInputs({x});
  b.SetOutputs({z});
  const auto bytes = b.Build();
  auto model = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(model.ok());
  const ModelReport r = BuildReport(*model.value());
  // Every input element through kh x kw x out_channels products.
  CHECK(r.subgraphs[0].operators[0].macs == 8 * 6 * 5 * 2 * 4 * 3);
  CHECK(r.subgraphs[0].operators[1].macs == 0);
  CHECK(r.subgraphs[0].macs == 8 * 6 * 5 * 2 * 4 * 3);
}

TEST_CASE("operators carry their attributes, MACs and parameter bytes, the model its I/O") {
  auto bytes = ConvModel();
  auto model = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(model.ok());
  const ModelReport r = BuildReport(*model.value());
  const auto& ops = r.subgraphs[0].operators;
  REQUIRE(ops.size() == 4);
  using A = std::vector<std::pair<std::string, std::string>>;
  CHECK(ops[0].attributes == A{{"stride", "2x2"}, {"padding", "SAME"}, {"activation", "RELU6"}});
  CHECK(ops[0].macs == 16 * 16 * 8 * 3 * 3 * 3);
  CHECK(ops[0].param_bytes == (8 * 27 + 8) * 4);
  CHECK(ops[1].attributes == A{{"stride", "1x1"}, {"padding", "SAME"}, {"dilation", "2x2"}});
  CHECK(ops[1].macs == 16 * 16 * 8 * 3 * 3);
  CHECK(ops[1].param_bytes == 72 * 4);
  CHECK(ops[2].attributes.empty());  // keep_dims false: nothing to say
  CHECK(ops[2].macs == 0);
  CHECK(ops[2].param_bytes == 2 * 4);
  CHECK(ops[3].macs == 10 * 8);
  CHECK(r.subgraphs[0].macs == 55296 + 18432 + 80);
  CHECK(r.subgraphs[0].param_bytes == (8 * 27 + 8 + 72 + 2 + 80) * 4);

  const std::string text = FormatReportText(r, {false});
  CHECK_THAT(text, Catch::Contains("\nInputs\n      0  image                            FLOAT32[1,32,32,3]\n"
                                   "Outputs\n      9  logits                           FLOAT32[1,10]\n"));
  CHECK_THAT(text, Catch::Contains("stride 2x2, padding SAME, activation RELU6; 55.3k MACs, 896 B parameters\n"));
  CHECK_THAT(text, Catch::Contains("73.8k MACs, 1.5 kB of parameters"));
  const nlohmann::json j = ReportToJson(r, {false});
  CHECK(j["model"]["inputs"][0]["name"] == "image");
  CHECK(j["model"]["outputs"][0]["shape"] == std::vector<int>{1, 10});
  CHECK(j["subgraphs"][0]["operators"][0]["attributes"]["padding"] == "SAME");
  CHECK(j["subgraphs"][0]["operators"][0]["macs"] == 55296);
  CHECK(j["subgraphs"][0]["operators"][1]["param_bytes"] == 288);
  CHECK(j["subgraphs"][0]["macs"] == 73808);
}

}  // namespace
}  // namespace tflite_inspect
