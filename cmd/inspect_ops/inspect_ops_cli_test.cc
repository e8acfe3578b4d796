// End-to-end tests of the inspect_ops executable: exit codes, messages, and, on every
// real model in ../shared/models, an opcode table that must equal an independent
// decoding of the same file by flatc --json with our schema.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "testing/command.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using RunResult = tflite_inspect::testing::CommandResult;
using tflite_inspect::testing::ReadFile;

fs::path TempDir() { return tflite_inspect::testing::TempDir("inspect_ops_cli_test"); }

// `args` starts with the executable.
RunResult Run(const std::string& args) { return tflite_inspect::testing::RunCommand(args); }

std::string Bin() { return INSPECT_OPS_BIN; }

std::vector<fs::path> SharedModels() {
  std::vector<fs::path> models;
  fs::path root = fs::path(TFI_SHARED_DIR) / "models";
  if (!fs::exists(root)) return models;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() == ".tflite") models.push_back(e.path());
  }
  std::sort(models.begin(), models.end());
  return models;
}

// Decodes operator codes and per-code use counts with flatc, independently of our loader.
struct Decoded {
  std::vector<std::pair<std::string, int>> codes;  // (name, version)
  std::vector<int> uses;
};

Decoded DecodeWithFlatc(const fs::path& model) {
  fs::path out = TempDir() / "flatc";
  fs::remove_all(out);
  fs::create_directories(out);
  RunResult r = Run(fmt::format("{} --json --strict-json --raw-binary -o {} {} -- {}", FLATC_BIN,
                                out.string(), SCHEMA_FBS, model.string()));
  REQUIRE(r.exit_code == 0);
  json j = json::parse(ReadFile(out / (model.stem().string() + ".json")));
  std::map<std::string, int> op_value;  // enum name -> value, from the schema's names
  const char* const* names = tflite::EnumNamesBuiltinOperator();
  for (int v = 0; names[v] != nullptr; ++v) op_value[names[v]] = v;
  Decoded d;
  for (const auto& c : j.value("operator_codes", json::array())) {
    int deprecated = c.value("deprecated_builtin_code", 0);
    int builtin = c.contains("builtin_code") ? op_value.at(c["builtin_code"].get<std::string>()) : 0;
    int code = std::max(deprecated, builtin);
    std::string name = code == tflite::BuiltinOperator_CUSTOM ? c.value("custom_code", "")
                                                               : std::string(names[code]);
    d.codes.emplace_back(name, c.value("version", 1));
  }
  d.uses.assign(d.codes.size(), 0);
  for (const auto& sg : j["subgraphs"]) {
    for (const auto& op : sg.value("operators", json::array())) ++d.uses[op.value("opcode_index", 0)];
  }
  return d;
}

}  // namespace

TEST_CASE("usage errors exit 2 with a message") {
  RunResult none = Run(Bin());
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("no model given"));

  RunResult typo = Run(Bin() + " --graph=x.tflite --tensor");
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("did you mean '--tensors'?"));

  RunResult typo2 = Run(Bin() + " --grpah=x.tflite");
  CHECK(typo2.exit_code == 2);
  CHECK_THAT(typo2.err, Catch::Contains("did you mean '--graph'?"));
}

TEST_CASE("unreadable and invalid models exit 1 with the reason") {
  RunResult missing = Run(Bin() + " --graph=/nonexistent/m.tflite");
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("cannot open '/nonexistent/m.tflite'"));

  fs::path junk = TempDir() / "junk.tflite";
  std::ofstream(junk) << "this is not a flatbuffer at all";
  RunResult bad = Run(Bin() + " " + junk.string());
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("should be 'TFL3'"));

  tflite_inspect::ModelBuilder b;
  int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t");
  b.AddOperator(tflite::BuiltinOperator_RELU, {t}, {57});
  b.SetInputs({t});
  b.SetOutputs({t});
  fs::path broken = TempDir() / "broken.tflite";
  REQUIRE(b.WriteFile(broken.string()).ok());
  RunResult r = Run(Bin() + " --graph " + broken.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("subgraph 0, operator 0 (RELU v1): output #0 refers to "
                                    "tensor 57, but the subgraph has 1 tensors"));
}

TEST_CASE("the umbrella command dispatches to inspect_ops") {
  tflite_inspect::ModelBuilder b;
  int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t");
  int u = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "u");
  b.AddOperator(tflite::BuiltinOperator_RELU, {t}, {u});
  b.SetInputs({t});
  b.SetOutputs({u});
  fs::path path = TempDir() / "relu.tflite";
  REQUIRE(b.WriteFile(path.string()).ok());
  RunResult direct = Run(Bin() + " --json " + path.string());
  RunResult umbrella = Run(std::string(TFLITE_INSPECT_BIN) + " inspect_ops --json " + path.string());
  CHECK(direct.exit_code == 0);
  CHECK(umbrella.exit_code == 0);
  CHECK(direct.out == umbrella.out);
  CHECK(Run(std::string(TFLITE_INSPECT_BIN) + " no_such_tool").exit_code == 2);
}

TEST_CASE("every real model: opcode table equals flatc's decoding") {
  auto models = SharedModels();
  if (models.empty()) {
    WARN("skipped: no models under " TFI_SHARED_DIR "/models (run scripts/fetch_models.sh)");
    return;
  }
  for (const auto& model : models) {
    CAPTURE(model.string());
    RunResult r = Run(Bin() + " --json --tensors --check_resolver --graph=" + model.string());
    const bool refused = model.filename() == "person_detect.tflite";  // TFLite refuses it too
    json ours = json::parse(r.out);
    // Exit 1 also when an operator does not resolve (MediaPipe's and TFLM's custom ops).
    const bool misses = ours["resolver_check"]["misses"].get<int>() > 0;
    CHECK(r.exit_code == (refused || misses ? 1 : 0));
    Decoded ref = DecodeWithFlatc(model);
    REQUIRE(ours["operator_codes"].size() == ref.codes.size());
    for (size_t i = 0; i < ref.codes.size(); ++i) {
      CAPTURE(i);
      CHECK(ours["operator_codes"][i]["op"] == ref.codes[i].first);
      CHECK(ours["operator_codes"][i]["version"] == ref.codes[i].second);
      CHECK(ours["operator_codes"][i]["uses"] == ref.uses[i]);
    }
    CHECK(ours["resolver_check"]["ops"].size() == ref.codes.size());
  }
}

TEST_CASE("check_resolver names the MediaPipe custom ops TFLite cannot resolve") {
  fs::path model = fs::path(TFI_SHARED_DIR) / "models/mediapipe/face_landmark_with_attention.tflite";
  if (!fs::exists(model)) {
    WARN("skipped: " << model << " absent (run scripts/fetch_models.sh)");
    return;
  }
  RunResult r = Run(Bin() + " --check_resolver " + model.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("inspect_ops: error: 3 operator codes do not resolve (--check_resolver)"));
  CHECK_THAT(r.out, Catch::Contains("Encountered unresolved custom op: Landmarks2TransformMatrix."));
  CHECK_THAT(r.out, Catch::Contains("TransformTensorBilinear"));
  CHECK_THAT(r.out, Catch::Contains("provided by the bundled 'mediapipe' custom ops: add "
                                    "--custom_ops=mediapipe"));
}

TEST_CASE("list_ops prints the resolver's table, with custom op libraries") {
  RunResult r = Run(Bin() + " --list_ops");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("CONV_2D"));
  CHECK_THAT(r.out, !Catch::Contains("Convolution2DTransposeBias"));
  RunResult mp = Run(Bin() + " --list_ops --json --custom_ops=mediapipe");
  CHECK(mp.exit_code == 0);
  json j = json::parse(mp.out);
  bool found = false;
  for (const auto& c : j["custom"]) found = found || c["op"] == "Convolution2DTransposeBias";
  CHECK(found);
  RunResult bad = Run(Bin() + " --list_ops --custom_ops=opencv");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("known: mediapipe"));
}

TEST_CASE("list_ops puts TFLite's BuiltinOpResolver next to ours, with reasons") {
  RunResult r = Run(Bin() + " --list_ops");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("in TFLite 2.21's BuiltinOpResolver"));
  CHECK_THAT(r.out, Catch::Contains("Mfcc                             -              v1             lacks v1: audio feature op"));
  // docs/runtime.md shows this output; keep it true.
  const std::string doc = ReadFile(fs::path(TFI_SOURCE_DIR) / "docs" / "runtime.md");
  const size_t begin = doc.find("$ inspect_ops --list_ops\n");
  REQUIRE(begin != std::string::npos);
  const size_t body = begin + std::string("$ inspect_ops --list_ops\n").size();
  const size_t end = doc.find("```", body);
  REQUIRE(end != std::string::npos);
  CHECK(doc.substr(body, end - body) == r.out);
  RunResult j = Run(Bin() + " --list_ops --json");
  REQUIRE(j.exit_code == 0);
  bool lstm = false;
  const json parsed = json::parse(j.out);
  for (const auto& row : parsed["builtin"]) {
    if (row["op"] == "LSTM") {
      lstm = true;
      CHECK(row["versions"].empty());
      CHECK(row["missing"].size() == row["tflite_versions"].size());
      CHECK_THAT(row["reason"].get<std::string>(), Catch::Contains("UNIDIRECTIONAL_SEQUENCE_LSTM"));
    }
  }
  CHECK(lstm);
}

TEST_CASE("check_resolver with --custom_ops resolves the MediaPipe custom ops") {
  fs::path model = fs::path(TFI_SHARED_DIR) / "models/mediapipe/face_landmark_with_attention.tflite";
  if (!fs::exists(model)) {
    WARN("skipped: " << model << " absent (run scripts/fetch_models.sh)");
    return;
  }
  RunResult r = Run(Bin() + " --check_resolver --json --custom_ops=mediapipe " + model.string());
  CHECK(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["resolver_check"]["misses"] == 0);
}
