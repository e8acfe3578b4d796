#include "resolver/runtime_check.h"

#include "builder/model_builder.h"
#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace {

struct Loaded {
  std::vector<uint8_t> bytes;
  std::unique_ptr<Model> model;
};

Loaded Load(const ModelBuilder& b) {
  Loaded l{b.Build(), nullptr};
  auto m = Model::LoadBuffer(l.bytes.data(), l.bytes.size());
  REQUIRE(m.ok());
  l.model = std::move(m).value();
  return l;
}

// in -> op(version) -> ... one float tensor chain; each entry is (op, version).
ModelBuilder Chain(const std::vector<std::pair<tflite::BuiltinOperator, int>>& ops,
                   const std::string& min_runtime = "") {
  ModelBuilder b;
  int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t0");
  const int in = t;
  for (size_t i = 0; i < ops.size(); ++i) {
    int next = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t" + std::to_string(i + 1));
    b.AddOperator(ops[i].first, {t}, {next}, {}, ops[i].second);
    t = next;
  }
  b.SetInputs({in});
  b.SetOutputs({t});
  if (!min_runtime.empty()) b.SetMinRuntimeVersion(min_runtime);
  return b;
}

TEST_CASE("FULLY_CONNECTED v9 needs 2.3, on 2.2 it is the one miss") {
  auto m = Load(Chain({{tflite::BuiltinOperator_ADD, 1},
                       {tflite::BuiltinOperator_FULLY_CONNECTED, 9},
                       {tflite::BuiltinOperator_FULLY_CONNECTED, 9}}));
  MinRuntimeResult min = MinRuntime(*m.model);
  REQUIRE(min.min_release.has_value());
  CHECK(*min.min_release == TfLiteRelease{2, 3});
  CHECK_FALSE(min.or_older);
  CHECK(min.newest_upstream == "2.3.0");
  REQUIRE(min.forcing.size() == 1);
  CHECK(min.forcing[0].code.name() == "FULLY_CONNECTED");
  CHECK(min.forcing[0].nodes.size() == 2);
  CHECK(min.comparison == MetadataComparison::kNoMetadata);

  TargetRuntimeResult on22 = CheckTargetRuntime(*m.model, {2, 2});
  CHECK_FALSE(on22.loads());
  CHECK(on22.misses == 1);
  REQUIRE(on22.rows.size() == 2);
  CHECK(on22.rows[0].status == TargetStatus::kOk);
  const TargetRow& fc = on22.rows[1];
  CHECK(fc.status == TargetStatus::kVersionNotRegistered);
  CHECK(fc.registered == "v1-6");
  CHECK(fc.tflite_message == "Didn't find op for builtin opcode 'FULLY_CONNECTED' version '9'");
  CHECK(fc.pair.first_release == TfLiteRelease{2, 3});
  REQUIRE(fc.nodes.size() == 2);
  CHECK(fc.nodes[0].node == 1);
  CHECK(fc.nodes[1].node == 2);

  CHECK(CheckTargetRuntime(*m.model, {2, 3}).loads());
  // 1.14 prints the short line too, and knows FULLY_CONNECTED v1-4 only.
  TargetRuntimeResult on114 = CheckTargetRuntime(*m.model, {1, 14});
  CHECK(on114.rows[1].registered == "v1-4");
}

TEST_CASE("an op the target does not know at all: out of range, or 127 before 2.4") {
  auto m = Load(Chain({{tflite::BuiltinOperator_GELU, 1}}));
  TargetRuntimeResult on28 = CheckTargetRuntime(*m.model, {2, 8});
  REQUIRE(on28.rows.size() == 1);
  CHECK(on28.rows[0].status == TargetStatus::kOutOfRange);
  CHECK(on28.rows[0].code_read == 150);
  CHECK(on28.rows[0].registered.empty());
  CHECK(on28.rows[0].tflite_message ==
        "Op builtin_code out of range: 150. Are you using old TFLite binary with newer model?");
  CHECK(on28.rows[0].pair.first_release == TfLiteRelease{2, 9});

  TargetRuntimeResult on23 = CheckTargetRuntime(*m.model, {2, 3});
  CHECK(on23.rows[0].code_read == 127);
  CHECK(on23.rows[0].tflite_message ==
        "Op builtin_code out of range: 127. Are you using old TFLite binary with newer model?");
  CHECK(CheckTargetRuntime(*m.model, {2, 9}).loads());
}

TEST_CASE("an op in the schema that no release registers blocks every release") {
  auto m = Load(Chain({{tflite::BuiltinOperator_ADD, 1},
                       {tflite::BuiltinOperator_STABLEHLO_CBRT, 1}}));
  MinRuntimeResult min = MinRuntime(*m.model);
  CHECK_FALSE(min.min_release.has_value());
  REQUIRE(min.blockers.size() == 1);
  CHECK(min.blockers[0].code.name() == "STABLEHLO_CBRT");
  CHECK_THAT(min.blockers[0].pair.note, Catch::Contains("no STABLEHLO_CBRT kernel"));

  TargetRuntimeResult on221 = CheckTargetRuntime(*m.model, {2, 21});
  CHECK(on221.rows[1].status == TargetStatus::kOpNotRegistered);
  CHECK(on221.rows[1].tflite_message ==
        "Didn't find op for builtin opcode 'STABLEHLO_CBRT' version '1'. An older version of "
        "this builtin might be supported. Are you using an old TFLite binary with a newer model?");
  CHECK(CheckTargetRuntime(*m.model, {2, 16}).rows[1].status == TargetStatus::kOutOfRange);
}

TEST_CASE("a model of old ops runs on the oldest release in the table, or older") {
  auto m = Load(Chain({{tflite::BuiltinOperator_ADD, 1}, {tflite::BuiltinOperator_RELU, 1}}));
  MinRuntimeResult min = MinRuntime(*m.model);
  CHECK(*min.min_release == TfLiteRelease{1, 14});
  CHECK(min.or_older);
  CHECK(min.newest_upstream == "1.5.0");
  CHECK(min.forcing.size() == 2);
}

TEST_CASE("metadata: agree, ops stricter, metadata stricter, unparseable") {
  using tflite::BuiltinOperator_FULLY_CONNECTED;
  auto agree = Load(Chain({{BuiltinOperator_FULLY_CONNECTED, 9}}, "2.3.0"));
  MinRuntimeResult a = MinRuntime(*agree.model);
  CHECK(a.comparison == MetadataComparison::kAgree);
  CHECK(a.metadata_release == TfLiteRelease{2, 3});
  CHECK_THAT(a.explanation, Catch::Contains("FULLY_CONNECTED v9 (2.3.0)"));

  auto ops_stricter = Load(Chain({{BuiltinOperator_FULLY_CONNECTED, 9}}, "1.14.0"));
  MinRuntimeResult o = MinRuntime(*ops_stricter.model);
  CHECK(o.comparison == MetadataComparison::kOpsStricter);
  CHECK_THAT(o.explanation, Catch::Contains("the ops are stricter"));
  CHECK_THAT(o.explanation, Catch::Contains("FULLY_CONNECTED v9 (2.3.0) is dated later in "
                                            "TFLite's map, so the model needs 2.3."));

  // Within one minor release the exact strings still decide (micro_speech from TFLite Micro
  // carries "1.5.0" but uses DEPTHWISE_CONV_2D v3, dated 1.14.0).
  auto patch = Load(Chain({{tflite::BuiltinOperator_DEPTHWISE_CONV_2D, 3}}, "1.5.0"));
  MinRuntimeResult p = MinRuntime(*patch.model);
  CHECK(p.comparison == MetadataComparison::kOpsStricter);
  CHECK_THAT(p.explanation, Catch::Contains("both fall in 1.14"));

  auto meta_stricter = Load(Chain({{BuiltinOperator_FULLY_CONNECTED, 9}}, "2.10.0"));
  MinRuntimeResult s = MinRuntime(*meta_stricter.model);
  CHECK(s.comparison == MetadataComparison::kMetadataStricter);
  CHECK_THAT(s.explanation, Catch::Contains("asks for 2.10.0 (2.10)"));

  CHECK(MinRuntime(*Load(Chain({{BuiltinOperator_FULLY_CONNECTED, 9}}, "banana")).model)
            .comparison == MetadataComparison::kUnparseable);

  // Patch rounding applies to both sides: TRANSPOSE v7 is "2.14.4" -> 2.15 either way.
  auto t7 = Load(Chain({{tflite::BuiltinOperator_TRANSPOSE, 7}}, "2.14.4"));
  MinRuntimeResult t = MinRuntime(*t7.model);
  CHECK(*t.min_release == TfLiteRelease{2, 15});
  CHECK(t.comparison == MetadataComparison::kAgree);
}

TEST_CASE("custom and Flex ops never decide the release") {
  ModelBuilder b = Chain({{tflite::BuiltinOperator_ADD, 2}});
  b.AddCustomOperator("TFLite_Detection_PostProcess", {0}, {1});
  b.AddCustomOperator("MyOp", {0}, {1});
  b.AddCustomOperator("FlexAudioSpectrogram", {0}, {1});
  auto m = Load(b);
  MinRuntimeResult min = MinRuntime(*m.model);
  CHECK(*min.min_release == TfLiteRelease{1, 14});
  REQUIRE(min.app_ops.size() == 2);
  CHECK(min.app_ops[0].code.custom_name == "MyOp");

  TargetRuntimeResult on114 = CheckTargetRuntime(*m.model, {1, 14});
  CHECK(on114.loads());
  REQUIRE(on114.rows.size() == 4);
  CHECK(on114.rows[1].status == TargetStatus::kOk);
  CHECK(on114.rows[2].status == TargetStatus::kAppProvided);
  CHECK(on114.rows[3].status == TargetStatus::kFlex);
}

TEST_CASE("nodes are listed per subgraph") {
  ModelBuilder b = Chain({{tflite::BuiltinOperator_ADD, 1}});
  b.AddSubgraph("body");
  b.UseSubgraph(1);
  int x = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "x");
  int y = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "y");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x}, {y}, {}, 6);
  b.SetInputs({x});
  b.SetOutputs({y});
  auto m = Load(b);
  TargetRuntimeResult on28 = CheckTargetRuntime(*m.model, {2, 8});
  REQUIRE(on28.misses == 1);
  const TargetRow& conv = on28.rows[1];
  CHECK(conv.code.name() == "CONV_2D");
  REQUIRE(conv.nodes.size() == 1);
  CHECK(conv.nodes[0].subgraph == 1);
  CHECK(conv.nodes[0].node == 0);
}

TEST_CASE("the one-line warning for tools taking --target_runtime") {
  auto m = Load(Chain({{tflite::BuiltinOperator_CONV_2D, 6}, {tflite::BuiltinOperator_CAST, 4}}));
  auto warn = TargetRuntimeWarning(*m.model, "2.8");
  REQUIRE(warn.ok());
  CHECK(*warn ==
        "model needs TFLite 2.9 or newer (CONV_2D v6, CAST v4); on 2.8 2 operator codes do "
        "not resolve: CONV_2D v6, CAST v4 (inspect_ops --target_runtime=2.8 explains)");
  auto fine = TargetRuntimeWarning(*m.model, "2.9.0");
  REQUIRE(fine.ok());
  CHECK(fine->empty());
  auto bad = TargetRuntimeWarning(*m.model, "3.0");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Catch::Contains("known releases: 1.14"));
}

}  // namespace
}  // namespace tflite_inspect
