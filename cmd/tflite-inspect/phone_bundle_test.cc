// The phone bundle (scripts/phone_bundle.sh) against this build: every shared model that
// this build's `run` can run is run again by the bundle's `tflite-inspect`, under
// qemu-user, through the bundle's own loader and libraries only (QEMU_LD_PREFIX is an
// empty folder), on this build's inputs, with and without XNNPACK. Integer outputs must
// be bit-exact, float outputs within 1e-4 * max(1, max|x86|) (one ill-conditioned output:
// 2e-4, see FloatTolerance); a model this build refuses
// must be refused with the same message. Skips with a message where the bundle, qemu or
// ../shared is absent (scripts/test.sh makes the bundle in build-arm64/bundle).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "testing/command.h"
#include "testing/output_compare.h"

namespace fs = std::filesystem;
using nlohmann::json;
using tflite_inspect::testing::CompareOutputs;
using tflite_inspect::testing::OutputErrors;
using tflite_inspect::testing::ReadFile;
using tflite_inspect::testing::RunCommand;

namespace {

const fs::path kModels = fs::path(TFI_SHARED_DIR) / "models";
const std::string kBin = TFLITE_INSPECT_BIN;

// Outputs where float summation order shows more, as measured: pose_landmark_lite's
// 256x256 segmentation logits sum thousands of products; TFLite's own reference and XNNPACK
// kernels differ by 2e-4 of max|ref| there (run_model_test), and XNNPACK's ARM and x86
// kernels by 1.1e-4.
double FloatTolerance(const fs::path& model, const std::string& output) {
  if (model.stem() == "pose_landmark_lite" && output == "Identity_2") return 2e-4;
  return 1e-4;
}

fs::path BundleDir() {
  const char* env = std::getenv("TFI_PHONE_BUNDLE");
  return env != nullptr ? fs::path(env) : fs::path(TFI_PHONE_BUNDLE_DEFAULT);
}

// The qemu-user binary for the bundle's architecture, or "" when it is not installed.
std::string Emulator(const fs::path& bundle) {
  std::string arch = ReadFile(bundle / "ARCH");
  arch.erase(std::remove(arch.begin(), arch.end(), '\n'), arch.end());
  const std::string qemu = arch == "armv7" ? "qemu-arm" : "qemu-aarch64";
  return RunCommand("command -v " + qemu).exit_code == 0 ? qemu : "";
}

// Why the bundle cannot be tested here ("" when it can); `emulator` gets its qemu.
std::string WhyNotTestable(const fs::path& bundle, std::string* emulator) {
  if (!fs::exists(bundle / "run.sh")) {
    return "no phone bundle at " + bundle.string() + " (scripts/phone_bundle.sh arm64 " +
           bundle.string() + " makes it)";
  }
  *emulator = Emulator(bundle);
  if (emulator->empty()) return "qemu-user is not installed (scripts/setup.sh cross)";
  return "";
}

// The small shared models: MediaPipe, TFLite Micro and the zoo's smaller graphs (one of
// each quantization mode; the large ones take minutes under emulation).
std::vector<fs::path> Models() {
  std::vector<fs::path> out;
  for (const char* dir : {"mediapipe", "tflm"}) {
    if (!fs::exists(kModels / dir)) continue;
    for (const auto& e : fs::directory_iterator(kModels / dir)) {
      if (e.path().extension() == ".tflite") out.push_back(e.path());
    }
  }
  for (const char* name :
       {"mobilenet_v1_0.25_128_float", "mobilenet_v1_0.25_128_int8", "kws_lstm_49x40_float",
        "kws_lstm_49x40_dynamic", "bert_tiny_64_int8", "audio_conv1d_16k_int8"}) {
    const fs::path p = kModels / "zoo" / (std::string(name) + ".tflite");
    if (fs::exists(p)) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void CheckModel(const fs::path& bundle, const std::string& emulator, const fs::path& model,
                const std::string& flags) {
  const fs::path dir = tflite_inspect::testing::TempDir("phone_bundle_test") / model.stem() /
                       (flags.empty() ? "default" : "builtin");
  const fs::path x86 = dir / "x86", arm = dir / "arm", empty = dir / "empty_prefix";
  fs::create_directories(empty);
  const std::string common = "--custom_ops=mediapipe " + flags;
  const auto host = RunCommand(fmt::format("'{}' run --graph='{}' --output_dir='{}' {}", kBin,
                                           model.string(), x86.string(), common));
  std::vector<std::string> inputs;
  json report;
  if (host.exit_code == 0) {
    report = json::parse(ReadFile(x86 / "outputs.json"));
    for (const json& in : report["inputs"]) {
      inputs.push_back((x86 / in["file"].get<std::string>()).string());
    }
  }
  const std::string input_flag =
      inputs.empty() ? "" : fmt::format("--input_files='{}'", fmt::join(inputs, ","));
  const auto target = RunCommand(fmt::format(
      "QEMU_LD_PREFIX='{}' TFI_BUNDLE_EMULATOR={} sh '{}/run.sh' tflite-inspect run "
      "--graph='{}' --output_dir='{}' {} {}",
      empty.string(), emulator, bundle.string(), model.string(), arm.string(), common,
      input_flag));
  CAPTURE(host.err, target.err);
  REQUIRE(target.exit_code == host.exit_code);
  if (host.exit_code != 0) {
    CHECK(target.err == host.err);  // refused for the same reason, in the same words
    return;
  }
  const json arm_report = json::parse(ReadFile(arm / "outputs.json"));
  REQUIRE(arm_report["outputs"].size() == report["outputs"].size());
  for (const json& out : report["outputs"]) {
    const std::string dtype = out["dtype"];
    const std::string file = out["file"];
    CAPTURE(file, dtype, out["name"].get<std::string>());
    const std::string want = ReadFile(x86 / file), got = ReadFile(arm / file);
    REQUIRE(got.size() == want.size());
    OutputErrors e;
    REQUIRE(CompareOutputs(dtype, got, want, &e));
    CAPTURE(e.max_err, e.max_ref, e.over_one, e.n);
    if (dtype == "FLOAT32" || dtype == "float32") {
      CHECK(e.max_err <= FloatTolerance(model, out["name"]) * std::max(1.0, e.max_ref));
    } else {
      CHECK(e.max_err == 0);
    }
  }
}

}  // namespace

TEST_CASE("the phone bundle's tools, under qemu-user, give this build's outputs") {
  const fs::path bundle = BundleDir();
  std::string emulator;
  if (const std::string why = WhyNotTestable(bundle, &emulator); !why.empty()) {
    WARN("skipped: " << why);
    return;
  }
  const std::vector<fs::path> models = Models();
  if (models.empty()) {
    WARN("skipped: " << kModels << " is absent (../shared/models)");
    return;
  }
  for (const fs::path& model : models) {
    for (const std::string flags : {"", "--use_xnnpack=false"}) {
      DYNAMIC_SECTION(model.filename().string() << (flags.empty() ? "" : " ") << flags) {
        CheckModel(bundle, emulator, model, flags);
      }
    }
  }
}

TEST_CASE("the phone bundle needs nothing from the system: every library is in lib/") {
  const fs::path bundle = BundleDir();
  std::string emulator;
  if (const std::string why = WhyNotTestable(bundle, &emulator); !why.empty()) {
    WARN("skipped: " << why);
    return;
  }
  // The loader lists what it would load for each tool; every path must be in lib/.
  const fs::path empty = tflite_inspect::testing::TempDir("phone_bundle_test") / "empty_prefix";
  fs::create_directories(empty);
  for (const auto& e : fs::directory_iterator(bundle / "bin")) {
    const auto list = RunCommand(fmt::format(
        "QEMU_LD_PREFIX='{}' TFI_BUNDLE_EMULATOR='{} -E LD_TRACE_LOADED_OBJECTS=1' sh '{}/run.sh' {}",
        empty.string(), emulator, bundle.string(), e.path().filename().string()));
    CAPTURE(e.path(), list.out, list.err);
    REQUIRE(list.exit_code == 0);
    CHECK(list.out.find("not found") == std::string::npos);
    CHECK(list.out.find(fs::canonical(bundle / "lib").string()) != std::string::npos);
    CHECK(list.out.find(" /lib") == std::string::npos);
    CHECK(list.out.find(" /usr") == std::string::npos);
  }
  // The usage line for a tool it does not have.
  const auto bad = RunCommand(fmt::format("TFI_BUNDLE_EMULATOR={} sh '{}/run.sh' no_such_tool",
                                          emulator, bundle.string()));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("TOOL is one of: benchmark_model delegate_report inference_diff inspect_ops "
                     "tflite-inspect") != std::string::npos);
}

TEST_CASE("without /sys (a restricted shell) the bundle says the default XNNPACK is off") {
  const fs::path bundle = BundleDir();
  std::string emulator;
  if (const std::string why = WhyNotTestable(bundle, &emulator); !why.empty()) {
    WARN("skipped: " << why);
    return;
  }
  const fs::path model = kModels / "mediapipe" / "face_detection_short_range.tflite";
  if (!fs::exists(model)) {
    WARN("skipped: " << model << " is absent (../shared/models)");
    return;
  }
  // cpuinfo reads /sys/devices/system/cpu on ARM: hide /sys in a private mount namespace.
  const fs::path dir = tflite_inspect::testing::TempDir("phone_bundle_test") / "no_sys";
  fs::create_directories(dir / "empty_sys");
  fs::create_directories(dir / "empty_prefix");
  if (RunCommand(fmt::format("unshare -m sh -c 'mount --bind {} /sys'", (dir / "empty_sys").string()))
          .exit_code != 0) {
    WARN("skipped: this machine does not let the test hide /sys (unshare -m, mount --bind)");
    return;
  }
  const auto r = RunCommand(fmt::format(
      "unshare -m sh -c 'mount --bind {} /sys && QEMU_LD_PREFIX={} TFI_BUNDLE_EMULATOR={} sh {}/run.sh "
      "benchmark_model --graph={} --num_runs=1 --warmup_runs=0 --output_json={}/out.json'",
      (dir / "empty_sys").string(), (dir / "empty_prefix").string(), emulator, bundle.string(),
      model.string(), dir.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK((r.out + r.err).find("WARN: The default XNNPACK delegate is not applied: XNNPACK cannot initialize: "
                   "cpuinfo cannot describe this CPU") != std::string::npos);
  const json j = json::parse(ReadFile(dir / "out.json"));
  REQUIRE(j["delegates"].size() == 1);
  CHECK(j["delegates"][0]["label"] == "XNNPACK");
  CHECK(j["delegates"][0]["applied"] == false);
  CHECK(j["delegates"][0]["by_default"] == true);
  CHECK(j["delegates"][0]["error"].get<std::string>().find("cpuinfo") != std::string::npos);
  CHECK(j["nodes"]["cpu_after_delegation"] == j["nodes"]["total"]);
  // uname's machine as the emulated CPU reports it: aarch64, or armv7l for 32-bit ARM.
  const std::string arch = j["machine"]["architecture"];
  CHECK(arch.rfind(Emulator(bundle) == "qemu-arm" ? "armv7" : "aarch64", 0) == 0);
}
