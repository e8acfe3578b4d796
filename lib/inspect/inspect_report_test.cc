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
