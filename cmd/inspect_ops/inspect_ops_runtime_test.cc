// End-to-end tests of inspect_ops --min_runtime and --target_runtime: exit codes (3 when
// the model will not load on the target, 2 for an unknown release), the device messages,
// the JSON fields, and every real model in ../shared/models against its own metadata.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

fs::path TempDir() { return tflite_inspect::testing::TempDir("inspect_ops_runtime_test"); }

RunResult Run(const std::string& args) {
  return tflite_inspect::testing::RunCommand(fmt::format("{} {}", INSPECT_OPS_BIN, args));
}

// ADD v1 -> FULLY_CONNECTED v9 -> GELU v1, written to a temp file.
fs::path NewOpsModel(const std::string& min_runtime) {
  tflite_inspect::ModelBuilder b;
  int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "a");
  int c = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "c");
  int d = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "d");
  int e = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "e");
  b.AddOperator(tflite::BuiltinOperator_ADD, {a, a}, {c});
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {c}, {d}, {}, 9);
  b.AddOperator(tflite::BuiltinOperator_GELU, {d}, {e});
  b.SetInputs({a});
  b.SetOutputs({e});
  if (!min_runtime.empty()) b.SetMinRuntimeVersion(min_runtime);
  fs::path path = TempDir() / fmt::format("new_ops_{}.tflite", min_runtime);
  REQUIRE(b.WriteFile(path.string()).ok());
  return path;
}

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

}  // namespace

TEST_CASE("target_runtime: FULLY_CONNECTED v9 and GELU on 2.2 fail with exit 3") {
  fs::path model = NewOpsModel("2.9.0");
  RunResult r = Run("--target_runtime=2.2 " + model.string());
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("will not load on TFLite 2.2: 2 operator codes do not"));
  CHECK_THAT(r.out, Catch::Contains("Target TFLite 2.2: 2 of 3 operator codes do not resolve"));
  // 2.2 reads GELU (150) through the byte-wide field: 127.
  CHECK_THAT(r.out, Catch::Contains("TFLite 2.2 prints: Op builtin_code out of range: 127. "
                                    "Are you using old TFLite binary with newer model?"));
  CHECK_THAT(r.out, Catch::Contains("TFLite 2.2 prints: Didn't find op for builtin opcode "
                                    "'FULLY_CONNECTED' version '9'\n"));
  CHECK_THAT(r.out, Catch::Contains("first release that registers it: 2.3 (TFLite's map: 2.3.0)"));

  RunResult on28 = Run("--target_runtime 2.8.1 " + model.string());
  CHECK(on28.exit_code == 3);
  CHECK_THAT(on28.out, Catch::Contains("Op builtin_code out of range: 150."));
  CHECK_THAT(on28.err, Catch::Contains("1 operator code does not resolve"));

  RunResult on29 = Run("--target_runtime=2.9 " + model.string());
  CHECK(on29.exit_code == 0);
  CHECK_THAT(on29.out, Catch::Contains("Target TFLite 2.9: 0 of 3 operator codes do not resolve; "
                                       "the builtin ops load"));
}

TEST_CASE("target_runtime with an unknown release is a usage error listing the known ones") {
  fs::path model = NewOpsModel("");
  RunResult r = Run("--target_runtime=2.99 " + model.string());
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("--target_runtime: unknown TFLite release '2.99'; known "
                                    "releases: 1.14, 1.15, 2.0,"));
  RunResult bad = Run("--target_runtime=latest " + model.string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("'latest' is not a TFLite release"));
}

TEST_CASE("min_runtime and target_runtime in JSON") {
  fs::path model = NewOpsModel("2.3.0");
  RunResult r = Run("--json --min_runtime --target_runtime=2.8 " + model.string());
  CHECK(r.exit_code == 3);
  json j = json::parse(r.out);
  const json& min = j["min_runtime"];
  CHECK(min["min_release"] == "2.9");
  CHECK(min["or_older"] == false);
  CHECK(min["newest_map_entry"] == "2.9.0");
  REQUIRE(min["forcing"].size() == 1);
  CHECK(min["forcing"][0]["op"] == "GELU");
  CHECK(min["forcing"][0]["since"] == "2.9.0");
  CHECK(min["forcing"][0]["nodes"][0]["node"] == 2);
  CHECK(min["metadata"] == "2.3.0");
  CHECK(min["metadata_release"] == "2.3");
  CHECK(min["comparison"] == "ops_stricter");
  CHECK_THAT(min["explanation"].get<std::string>(), Catch::Contains("GELU v1 (2.9.0) is dated"));
  CHECK(min["releases"].front() == "1.14");

  const json& t = j["target_runtime"];
  CHECK(t["release"] == "2.8");
  CHECK(t["loads"] == false);
  CHECK(t["misses"] == 1);
  REQUIRE(t["ops"].size() == 3);
  CHECK(t["ops"][1]["status"] == "ok");
  CHECK(t["ops"][1]["registered"] == "v1-9");
  const json& gelu = t["ops"][2];
  CHECK(gelu["status"] == "op code out of range");
  CHECK(gelu["code_read"] == 150);
  CHECK(gelu["first_release"] == "2.9");
  CHECK(gelu["since"] == "2.9.0");
  CHECK(gelu["tflite_message"] ==
        "Op builtin_code out of range: 150. Are you using old TFLite binary with newer model?");
}

TEST_CASE("min_runtime text names the release, the forcing pair and the metadata") {
  fs::path model = NewOpsModel("2.10.0");
  RunResult r = Run("--min_runtime " + model.string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("  oldest release       2.9\n"));
  CHECK_THAT(r.out, Catch::Contains("  forced by            [2] GELU v1 (TFLite's map: 2.9.0), "
                                    "nodes 2\n"));
  CHECK_THAT(r.out, Catch::Contains("  metadata             2.10.0 (release 2.10)\n"));
  CHECK_THAT(r.out, Catch::Contains("the metadata is stricter: it asks for 2.10.0 (2.10)"));
}

TEST_CASE("every real model: min_runtime against its own metadata, and its own release") {
  auto models = SharedModels();
  if (models.empty()) {
    WARN("skipped: no models under " TFI_SHARED_DIR "/models (run scripts/fetch_models.sh)");
    return;
  }
  // What the converter wrote, where it wrote anything (checked by hand against the ops).
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      // file: {min_release, comparison}
      {"hand_landmark_lite.tflite", {"1.14", "agree"}},
      {"palm_detection_lite.tflite", {"2.2", "agree"}},
      {"pose_detection.tflite", {"2.2", "agree"}},
      {"pose_landmark_lite.tflite", {"2.2", "agree"}},
      {"audio_preprocessor_int8.tflite", {"2.8", "agree"}},
      {"hello_world_float.tflite", {"1.14", "agree"}},
      {"hello_world_int8.tflite", {"1.14", "agree"}},
      // Metadata 1.5.0, but DEPTHWISE_CONV_2D v3 / FULLY_CONNECTED v4 / SOFTMAX v2 are 1.14.0.
      {"micro_speech_quantized.tflite", {"1.14", "ops_stricter"}},
      {"trained_lstm.tflite", {"1.14", "agree"}},
      {"trained_lstm_int8.tflite", {"1.14", "agree"}},
      // zoo/ (tensorflow-cpu 2.21's converter). unet_128_16x8: metadata 1.14.0, but 16x8
      // TRANSPOSE_CONV v3 is 2.3. The dynamic-range models need FULLY_CONNECTED v12 (2.17).
      {"audio_conv1d_16k_float.tflite", {"1.14", "agree"}},
      {"audio_conv1d_16k_int8.tflite", {"1.14", "agree"}},
      {"bert_tiny_64_dynamic.tflite", {"2.17", "agree"}},
      {"bert_tiny_64_float.tflite", {"2.9", "agree"}},
      {"bert_tiny_64_int8.tflite", {"2.9", "agree"}},
      {"deeplab_mnv2_257_float.tflite", {"2.2", "agree"}},
      {"deeplab_mnv2_257_int8.tflite", {"2.2", "agree"}},
      {"densenet121_224_int8.tflite", {"1.14", "agree"}},
      {"efficientnet_b0_224_dynamic.tflite", {"2.17", "agree"}},
      {"kws_lstm_49x40_dynamic.tflite", {"2.17", "agree"}},
      {"kws_lstm_49x40_float.tflite", {"1.15", "agree"}},
      {"mobilenet_v1_0.25_128_float.tflite", {"1.14", "agree"}},
      {"mobilenet_v1_0.25_128_int8.tflite", {"1.14", "agree"}},
      {"mobilenet_v1_1.0_224_int8_uint8io.tflite", {"1.14", "agree"}},
      {"mobilenet_v2_1.0_224_dynamic.tflite", {"2.17", "agree"}},
      {"mobilenet_v2_1.0_224_int8.tflite", {"1.14", "agree"}},
      {"mobilenet_v2_1.0_224_int8_floatio.tflite", {"1.14", "agree"}},
      {"mobilenet_v3_large_224_fp16.tflite", {"1.15", "agree"}},
      {"mobilenet_v3_large_224_int8.tflite", {"1.15", "agree"}},
      {"resnet50_224_int8.tflite", {"1.14", "agree"}},
      {"ssd_mnv2_300_int8.tflite", {"1.14", "agree"}},
      {"unet_128_16x8.tflite", {"2.3", "ops_stricter"}},
      {"unet_128_float.tflite", {"1.14", "agree"}},
      {"unet_128_int8.tflite", {"2.2", "agree"}},
  };
  int with_metadata = 0;
  for (const auto& model : models) {
    CAPTURE(model.string());
    RunResult r = Run("--json --min_runtime " + model.string());
    const bool refused = model.filename() == "person_detect.tflite";  // TFLite refuses it too
    CHECK(r.exit_code == (refused ? 1 : 0));
    json min = json::parse(r.out)["min_runtime"];
    REQUIRE(min["min_release"].is_string());  // every bundled model loads on some release
    const std::string release = min["min_release"];
    if (!min["metadata"].is_null()) {
      ++with_metadata;
      auto it = expected.find(model.filename().string());
      REQUIRE(it != expected.end());
      CHECK(release == it->second.first);
      CHECK(min["comparison"] == it->second.second);
      // Agreement means the converter's string is exactly the newest map entry.
      if (min["comparison"] == "agree") CHECK(min["metadata"] == min["newest_map_entry"]);
    } else {
      CHECK(min["comparison"] == "no_metadata");
    }
    // The model loads on the release we name, and (unless it is the oldest) not before.
    RunResult on = Run(fmt::format("--target_runtime={} {}", release, model.string()));
    CHECK(on.exit_code == (refused ? 1 : 0));
    if (release != "1.14" && !refused) {
      const std::string before = release == "2.0" ? "1.15" : fmt::format(
          "{}.{}", release.substr(0, 1), std::stoi(release.substr(2)) - 1);
      CHECK(Run(fmt::format("--target_runtime={} {}", before, model.string())).exit_code == 3);
    }
  }
  CHECK(with_metadata == static_cast<int>(expected.size()));
}
