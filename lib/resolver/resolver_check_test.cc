#include "resolver/resolver_check.h"

#include "builder/model_builder.h"
#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace {

std::unique_ptr<Model> Load(const std::vector<uint8_t>& bytes) {
  auto m = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(m.ok());
  return std::move(m).value();
}

// A model with one op per resolver outcome.
std::vector<uint8_t> MixedModel() {
  ModelBuilder b;
  int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "a");
  int c = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "c");
  int d = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "d");
  b.AddOperator(tflite::BuiltinOperator_ADD, {a, a}, {c}, {}, 1);           // ok
  b.AddOperator(tflite::BuiltinOperator_ADD, {c, a}, {d}, {}, 5);           // version
  b.AddOperator(tflite::BuiltinOperator_SQRT, {d}, {c});                    // not implemented
  b.AddCustomOperator("landmarks2transformmatrix", {a}, {d}, {}, 2);        // near miss
  b.AddCustomOperator("FlexAudioSpectrogram", {a}, {d});                    // Flex
  b.AddCustomOperator("MyOp", {a}, {d}, {}, 3);                             // custom version
  b.SetInputs({a});
  b.SetOutputs({d});
  return b.Build();
}

OpCatalog TestCatalog() {
  OpCatalog cat;
  cat.AddBuiltin(tflite::BuiltinOperator_ADD, 1, 4);
  cat.AddCustom("Landmarks2TransformMatrix", 1, 2);
  cat.AddCustom("MyOp", 1, 1);
  return cat;
}

TEST_CASE("every operator code gets one row with its status") {
  auto bytes = MixedModel();
  auto model = Load(bytes);
  ResolverCheckResult r = CheckResolver(*model, TestCatalog());
  REQUIRE(r.rows.size() == 6);
  CHECK(r.misses == 5);
  CHECK(r.rows[0].status == OpResolveStatus::kOk);
  CHECK(r.rows[0].registered == "v1-4");
  CHECK(r.rows[0].tflite_message.empty());

  CHECK(r.rows[1].status == OpResolveStatus::kVersionNotSupported);
  CHECK(r.rows[1].tflite_message ==
        "Didn't find op for builtin opcode 'ADD' version '5'. An older version of this builtin "
        "might be supported. Are you using an old TFLite binary with a newer model?");
  CHECK_THAT(r.rows[1].hint, Catch::Contains("registered v1-4"));

  CHECK(r.rows[2].status == OpResolveStatus::kNotImplemented);
  CHECK(r.rows[2].registered.empty());
  CHECK_THAT(r.rows[2].tflite_message, Catch::Contains("'SQRT' version '1'"));

  CHECK(r.rows[3].status == OpResolveStatus::kCustomUnresolved);
  CHECK(r.rows[3].tflite_message ==
        "Encountered unresolved custom op: landmarks2transformmatrix.");
  REQUIRE(r.rows[3].suggestions.size() == 1);
  CHECK(r.rows[3].suggestions[0] == "Landmarks2TransformMatrix");

  CHECK(r.rows[4].status == OpResolveStatus::kFlexOp);
  CHECK_THAT(r.rows[4].tflite_message, Catch::Contains("Flex delegate"));
  CHECK_THAT(r.rows[4].hint, Catch::Contains("'AudioSpectrogram'"));

  CHECK(r.rows[5].status == OpResolveStatus::kCustomUnresolved);
  CHECK_THAT(r.rows[5].hint, Catch::Contains("registered as v1, but the model needs v3"));
}

TEST_CASE("rows list the nodes that use each code") {
  auto bytes = MixedModel();
  auto model = Load(bytes);
  ResolverCheckResult r = CheckResolver(*model, TestCatalog());
  REQUIRE(r.rows[2].nodes.size() == 1);
  CHECK(r.rows[2].nodes[0].subgraph == 0);
  CHECK(r.rows[2].nodes[0].node == 2);
}

TEST_CASE("unknown builtin codes get TFLite's out-of-range message") {
  ModelBuilder b;
  int a = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "a");
  b.AddOperator(static_cast<tflite::BuiltinOperator>(999), {a}, {a});
  b.SetInputs({a});
  b.SetOutputs({a});
  auto bytes = b.Build();
  auto model = Load(bytes);
  ResolverCheckResult r = CheckResolver(*model, OpCatalog());
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0].status == OpResolveStatus::kNotImplemented);
  CHECK(r.rows[0].tflite_message ==
        "Op builtin_code out of range: 999. Are you using old TFLite binary with newer model?");
}

TEST_CASE("min_runtime_version newer than ours is reported") {
  ModelBuilder b;
  int a = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "a");
  b.SetInputs({a});
  b.SetOutputs({a});
  b.SetMinRuntimeVersion("9.1.0");
  auto bytes = b.Build();
  auto model = Load(bytes);
  ResolverCheckResult r = CheckResolver(*model, OpCatalog());
  REQUIRE(r.runtime_warning.has_value());
  CHECK_THAT(*r.runtime_warning, Catch::Contains("needs TFLite 9.1.0 or newer"));

  ModelBuilder old;
  int t = old.AddTensor(tflite::TensorType_FLOAT32, {1}, "a");
  old.SetInputs({t});
  old.SetOutputs({t});
  old.SetMinRuntimeVersion("1.14.0");
  auto old_bytes = old.Build();
  CHECK_FALSE(CheckResolver(*Load(old_bytes), OpCatalog()).runtime_warning.has_value());
}

TEST_CASE("version ranges print compactly") {
  CHECK(VersionRangeString({}) == "");
  CHECK(VersionRangeString({1}) == "v1");
  CHECK(VersionRangeString({1, 2, 3}) == "v1-3");
  CHECK(VersionRangeString({1, 3, 4}) == "v1, v3-4");
}

}  // namespace
}  // namespace tflite_inspect
