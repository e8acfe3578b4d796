// Our partitioning against the real TFLite runtime's. The partition recorder plugin
// (partition_recorder_plugin.cc) was loaded into TFLite (ai-edge-litert) by
// scripts/gen_partition_goldens.py, which committed what it recorded to
// testdata/goldens/partitions/<case>.json. Here the same plugin is loaded into our
// runtime through the external delegate loader, and every case must record the same
// JSON: the claimed nodes, each partition's nodes and input/output tensors in the order
// they were created, and the execution plans before and after.
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "external/external_delegate.h"
#include "nlohmann/json.hpp"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace tflite_inspect {
namespace {

const fs::path kGoldens = fs::path(TFI_SOURCE_DIR) / "testdata" / "goldens" / "partitions";

std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Golden {
  fs::path file;
  std::string model_spec;  // "shared:<path>" or "testdata:<path>"
  fs::path model;
  std::string ops;
  json result;
  bool shared() const { return model_spec.rfind("shared:", 0) == 0; }
};

std::vector<Golden> LoadGoldens() {
  std::vector<Golden> goldens;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kGoldens)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const json j = json::parse(ReadFile(f));
    Golden g;
    g.file = f;
    g.model_spec = j.at("model").get<std::string>();
    const std::string rel = g.model_spec.substr(g.model_spec.find(':') + 1);
    g.model = g.shared() ? fs::path(TFI_SHARED_DIR) / "models" / rel
                         : fs::path(TFI_SOURCE_DIR) / "testdata" / rel;
    g.ops = j.at("options").at("ops").get<std::string>();
    g.result = j.at("result");
    REQUIRE(j.at("case").get<std::string>() == f.stem().string());
    goldens.push_back(std::move(g));
  }
  return goldens;
}

// Keeps what the runtime reports instead of printing it.
class CapturingReporter : public tflite::ErrorReporter {
 public:
  int Report(const char* format, va_list args) override {
    char buf[1024];
    const int n = std::vsnprintf(buf, sizeof buf, format, args);
    text += buf;
    text += "\n";
    return n;
  }
  using tflite::ErrorReporter::Report;
  std::string text;
};

// Loads the recorder into our runtime for `g` and returns what it wrote.
json RecordOurs(const Golden& g) {
  const fs::path dump = fs::temp_directory_path() /
                        ("partition_goldens_test_" + std::to_string(getpid()) + ".json");
  fs::remove(dump);
  auto loaded = LoadExternalDelegate(TFI_PARTITION_RECORDER,
                                     {{"ops", g.ops}, {"dump", dump.string()}});
  REQUIRE(loaded.ok());
  {
    auto model = tflite::FlatBufferModel::BuildFromFile(g.model.string().c_str());
    REQUIRE(model != nullptr);
    tflite::ops::builtin::BuiltinOpResolver resolver;
    std::unique_ptr<tflite::Interpreter> interpreter;
    CapturingReporter reporter;
    REQUIRE(tflite::InterpreterBuilder(*model, resolver, &reporter)(&interpreter) == kTfLiteOk);
    // As TFLite's Python Interpreter with experimental_delegates: build, then apply.
    REQUIRE(interpreter->ModifyGraphWithDelegate(loaded->delegate.get()) == kTfLiteOk);
    INFO(reporter.text);
    REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
    // The recorder's kernels never run: a graph with a partition cannot be invoked.
    const bool has_partition = g.result.at("partitions").size() > 0;
    CHECK((interpreter->Invoke() != kTfLiteOk) == has_partition);
    if (has_partition) {
      CHECK(reporter.text.find("PartitionRecorder: invoke is not supported (this delegate only "
                               "records partitions)") != std::string::npos);
    }
  }
  REQUIRE(fs::exists(dump));
  const json ours = json::parse(ReadFile(dump));
  fs::remove(dump);
  return ours;
}

// Field by field, so a failure shows which part differs.
void CompareWithGolden(const Golden& g) {
  INFO("golden " << g.file.string() << " (model " << g.model.string() << ", ops " << g.ops << ")");
  const json ours = RecordOurs(g);
  for (const auto& [key, theirs] : g.result.items()) {
    INFO("field '" << key << "'\n  TFLite: " << theirs.dump() << "\n  ours:   "
                   << (ours.contains(key) ? ours.at(key).dump() : std::string("(missing)")));
    REQUIRE(ours.contains(key));
    CHECK(ours.at(key) == theirs);
  }
  CHECK(ours.size() == g.result.size());
}

TEST_CASE("partitions of builder graphs equal TFLite's") {
  int compared = 0;
  for (const Golden& g : LoadGoldens()) {
    if (g.shared()) continue;
    CompareWithGolden(g);
    ++compared;
  }
  CHECK(compared >= 4);
}

TEST_CASE("partitions of real models equal TFLite's", "[real]") {
  const fs::path root = fs::path(TFI_SHARED_DIR) / "models";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    WARN("skipped: no models at " << root.string());
    return;
  }
  int compared = 0;
  for (const Golden& g : LoadGoldens()) {
    if (!g.shared()) continue;
    REQUIRE(fs::exists(g.model));
    CompareWithGolden(g);
    ++compared;
  }
  CHECK(compared >= 5);
}

TEST_CASE("partition recorder: the goldens are what TFLite's partitioner makes of the graphs") {
  // Hand-checked against the graphs in scripts/gen_partition_goldens.py: the independent
  // ADD (node 3) joins node 0's partition; the diamond keeps {0, 2} apart from {3}.
  for (const Golden& g : LoadGoldens()) {
    const std::string name = g.file.stem().string();
    if (name == "branches_add") {
      CHECK(g.result.at("partitions").at(0).at("nodes") == json::array({0, 3}));
      CHECK(g.result.at("partitions").at(1).at("nodes") == json::array({2, 5}));
    } else if (name == "diamond_add") {
      CHECK(g.result.at("partitions").at(0).at("nodes") == json::array({0, 2}));
      CHECK(g.result.at("partitions").at(1).at("nodes") == json::array({3}));
    }
  }
}

TEST_CASE("partition recorder: options are checked") {
  auto error = [](std::vector<ExternalDelegateOption> options) {
    auto r = LoadExternalDelegate(TFI_PARTITION_RECORDER, options, [](const std::string&) {});
    REQUIRE_FALSE(r.ok());
    return r.status().message();
  };
  CHECK(error({{"ops", "ADD"}}).find("partition recorder: option 'dump' (the JSON file to "
                                     "write) is required") != std::string::npos);
  CHECK(error({{"dump", "/tmp/x.json"}, {"op", "ADD"}})
            .find("partition recorder: unknown option 'op' (known: ops, dump)") !=
        std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
