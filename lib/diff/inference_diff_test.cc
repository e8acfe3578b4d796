// inference_diff: exact agreement with a correct delegate, a deliberately wrong test
// delegate caught per output and localised per node, thresholds, quantized outputs,
// and usage errors.
#include "diff/inference_diff.h"

#include <unistd.h>

#include <filesystem>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "sample/sample_delegate.h"
#include "sample/test_delegate.h"
#include "tensorflow/lite/kernels/register.h"

namespace tflite_inspect {
namespace {

namespace fs = std::filesystem;

// in -ADD c-> a -MUL c-> m -ADD c-> out (float [1,8]).
std::string ChainModel() {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "in");
  const int c = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 8},
                                        {1, 2, 3, 4, -1, -2, -3, -4}, "c");
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "a");
  const int m = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "m");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_MUL, {a, c}, {m}, Options(tflite::MulOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_ADD, {m, c}, {out}, Options(tflite::AddOptionsT{}));
  b.SetInputs({in});
  b.SetOutputs({out});
  const fs::path p = fs::temp_directory_path() / ("inference_diff_chain_" + std::to_string(getpid()) + ".tflite");
  REQUIRE(b.WriteFile(p.string()).ok());
  return p.string();
}

std::vector<DelegateInstance> One(tflite::TfLiteDelegateUniquePtr d) {
  std::vector<DelegateInstance> v(1);
  v[0].label = "delegate";
  auto deleter = d.get_deleter();
  v[0].delegate = {d.release(), deleter};
  return v;
}

TEST_CASE("a correct delegate gives zero error") {
  DiffOptions o;
  o.model_file = ChainModel();
  o.num_runs = 3;
  o.max_abs_error = 0.0;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  auto delegates = One(CreateSampleDelegate({}));
  auto r = RunInferenceDiff(o, resolver, DelegatePlan::Of(std::move(delegates)));
  REQUIRE(r.ok());
  REQUIRE(r->outputs.size() == 1);
  CHECK(r->outputs[0].error.max_abs == 0.0);
  CHECK(r->outputs[0].error.count == 24);
  CHECK_FALSE(r->exceeded);
  CHECK(r->reference_us.count() == 3);
}

TEST_CASE("a wrong delegate is caught and localised to its first partition") {
  DiffOptions o;
  o.model_file = ChainModel();
  o.num_runs = 2;
  o.max_abs_error = 0.1;
  o.per_node = true;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  TestDelegateOptions t;
  t.ops = {"ADD"};
  t.output_error = 0.5f;
  auto delegates = One(CreateTestDelegate(t));
  auto r = RunInferenceDiff(o, resolver, DelegatePlan::Of(std::move(delegates)));
  REQUIRE(r.ok());
  CHECK(r->exceeded);
  CHECK(r->outputs[0].exceeded);
  // The last ADD adds 0.5, after MUL scaled the first partition's 0.5 by c.
  CHECK(r->outputs[0].error.max_abs > 0.5);
  REQUIRE(r->first_bad_node >= 0);
  const NodeDiff& first = r->nodes[r->first_bad_node];
  CHECK(first.op == "TestDelegate");
  CHECK(first.replaced == std::vector<int>{0});
  CHECK(first.tensor_name == "a");
  CHECK(first.error.max_abs == Approx(0.5));
  const auto text = DiffReportText(o, r.value());
  bool found = false;
  for (const auto& line : text) {
    found = found || line.find("first tensor off: 2 'a' from TestDelegate partition (node 3, "
                               "replacing nodes 0)") != std::string::npos;
  }
  CHECK(found);
  const nlohmann::json j = DiffReportJson(o, r.value());
  CHECK(j["per_node"]["first_exceeding"]["tensor_name"] == "a");
  CHECK(j["outputs"][0]["exceeded"] == true);
}

TEST_CASE("per node, a correct delegate leaves every tensor within the threshold") {
  DiffOptions o;
  o.model_file = ChainModel();
  o.num_runs = 1;
  o.per_node = true;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  TestDelegateOptions t;
  t.ops = {"MUL"};
  auto delegates = One(CreateTestDelegate(t));
  auto r = RunInferenceDiff(o, resolver, DelegatePlan::Of(std::move(delegates)));
  REQUIRE(r.ok());
  CHECK(r->first_bad_node < 0);
  CHECK(r->nodes.size() == 3);
}

TEST_CASE("quantized outputs report dequantized errors and integer steps") {
  DiffOptions o;
  o.model_file = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_int8.tflite";
  o.num_runs = 2;
  o.num_interpreter_threads = 2;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  auto r = RunInferenceDiff(o, resolver, DelegatePlan());
  REQUIRE(r.ok());
  CHECK(r->outputs[0].error.quantized);
  CHECK(r->outputs[0].error.max_abs_quantized == 0);  // threads do not change integer results
}

TEST_CASE("usage errors") {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  DiffOptions o;
  CHECK(RunInferenceDiff(o, resolver, DelegatePlan()).status().code() == StatusCode::kInvalidArgument);
  o.model_file = ChainModel();
  o.reference_model_file = o.model_file;
  o.per_node = true;
  CHECK_THAT(RunInferenceDiff(o, resolver, DelegatePlan()).status().message(),
             Catch::Contains("--per_node compares the tensors of one model"));
  o.per_node = false;
  o.reference_model_file = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_int8.tflite";
  CHECK_FALSE(RunInferenceDiff(o, resolver, DelegatePlan()).ok());
}

}  // namespace
}  // namespace tflite_inspect

namespace tflite_inspect {
namespace {

TEST_CASE("the sample delegate on real models: zero error", "[real]") {
  const fs::path root = fs::path(TFI_SHARED_DIR) / "models" / "mediapipe";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    WARN("skipped: no models at " << root.string());
    return;
  }
  int checked = 0;
  for (const char* name : {"face_detection_short_range.tflite", "palm_detection_lite.tflite"}) {
    const fs::path path = root / name;
    if (!fs::exists(path)) continue;
    CAPTURE(path.string());
    DiffOptions o;
    o.model_file = path.string();
    o.num_runs = 2;
    o.max_abs_error = 0.0;
    tflite::ops::builtin::BuiltinOpResolver resolver;
    auto delegates = One(CreateSampleDelegate({}));
    auto r = RunInferenceDiff(o, resolver, DelegatePlan::Of(std::move(delegates)));
    REQUIRE(r.ok());
    for (const auto& out : r->outputs) CHECK(out.error.max_abs == 0.0);
    CHECK_FALSE(r->exceeded);
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace
}  // namespace tflite_inspect
