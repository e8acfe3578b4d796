// The mainstream zoo (../shared/models/zoo: Keras applications and custom graphs in
// float, fp16, dynamic-range, full-int8 and 16x8, goldens from ai-edge-litert) through
// all four tools with their default flags: `run` must reproduce the golden (float outputs
// within 1e-4 * max(1, max|ref|); integer outputs bit for bit with --use_xnnpack=false,
// and with the default XNNPACK on 8-bit ops within XNNPACK's requantization: at most 4
// steps, at most 2% of the values more than 1 step off, where TFLite's own default path
// is 4 steps and 1.5% on deeplab_mnv2_257_int8), and
// delegate_report, inference_diff and benchmark_model must run and exit 0. One
// inference per tool. Skips with a message where ../shared is absent.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "testing/command.h"
#include "testing/output_compare.h"
#include "util/sha256.h"

namespace fs = std::filesystem;
using nlohmann::json;
using tflite_inspect::testing::CompareOutputs;
using tflite_inspect::testing::OutputErrors;
using tflite_inspect::testing::ReadFile;
using tflite_inspect::testing::RunCommand;

namespace {

const fs::path kZoo = fs::path(TFI_SHARED_DIR) / "models" / "zoo";
const std::string kBin = TFLITE_INSPECT_BIN;

// `run` on the golden's inputs (`flags` added): outputs as the golden's; `exact`: integer
// outputs bit for bit, else within XNNPACK's requantization (see the top of the file).
void CompareWithGolden(const fs::path& model, const fs::path& golden, const fs::path& out,
                       const std::string& flags, bool exact) {
  const json report = json::parse(ReadFile(golden / "report.json"));
  // A golden made from another file would show up as a numeric mismatch: say so instead.
  auto sha = tflite_inspect::Sha256OfFile(model.string());
  REQUIRE(sha.ok());
  INFO("golden " << golden << " was made from a model with sha256 "
                 << report.value("model_sha256", std::string("?")) << ", the file has " << *sha);
  REQUIRE(report.value("model_sha256", std::string()) == *sha);
  std::vector<std::string> inputs;
  for (size_t i = 0; i < report["inputs"].size(); ++i) {
    inputs.push_back((golden / fmt::format("input_{}.bin", i)).string());
  }
  const auto run = RunCommand(fmt::format("'{}' run --graph '{}' --input_files '{}' --output_dir '{}' {}",
                                          kBin, model.string(), fmt::join(inputs, ","),
                                          out.string(), flags));
  INFO("run " << flags << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  for (size_t i = 0; i < report["outputs"].size(); ++i) {
    const json& ref = report["outputs"][i];
    const std::string dtype = ref["dtype"];
    CAPTURE(i, ref["name"].get<std::string>(), dtype);
    const std::string want = ReadFile(golden / fmt::format("output_{}.bin", i));
    const std::string got = ReadFile(out / fmt::format("output_{}.bin", i));
    REQUIRE(got.size() == want.size());
    OutputErrors e;
    REQUIRE(CompareOutputs(dtype, got, want, &e));
    CAPTURE(e.max_err, e.max_ref, e.over_one, e.n);
    if (dtype == "float32") {
      CHECK(e.max_err <= 1e-4 * std::max(1.0, e.max_ref));
    } else if (exact || dtype == "int32") {
      CHECK(e.max_err == 0);
    } else {
      CHECK(e.max_err <= 4);
      CHECK(e.over_one * 50 <= e.n);
    }
  }
}

// The four tools on `model`, default flags (benchmark_model: one run after one warm-up).
void CheckModel(const fs::path& model, const fs::path& golden) {
  const fs::path out = tflite_inspect::testing::TempDir("zoo_cli_test") / model.stem();
  const std::string m = model.string();
  if (fs::exists(golden / "report.json")) {
    CompareWithGolden(model, golden, out / "builtin", "--use_xnnpack=false", true);
    CompareWithGolden(model, golden, out / "default", "", false);
  } else {
    WARN("no golden for " << model.filename() << ": checked that it runs only");
    const auto run =
        RunCommand(fmt::format("'{}' run --graph '{}' --output_dir '{}'", kBin, m, out.string()));
    CAPTURE(run.err);
    CHECK(run.exit_code == 0);
  }
  const auto dr = RunCommand(fmt::format("'{}' delegate_report --graph='{}'", kBin, m));
  CAPTURE(dr.err);
  CHECK(dr.exit_code == 0);
  const auto diff =
      RunCommand(fmt::format("'{}' inference_diff --model_file='{}' --num_runs=1 --invocations_per_run=1", kBin, m));
  CAPTURE(diff.out, diff.err);
  CHECK(diff.exit_code == 0);
  const auto bench = RunCommand(fmt::format(
      "'{}' benchmark_model --graph='{}' --num_runs=1 --warmup_runs=1 --min_secs=0 "
      "--warmup_min_secs=0",
      kBin, m));
  CAPTURE(bench.err);
  CHECK(bench.exit_code == 0);
}

}  // namespace

TEST_CASE("every zoo model runs in all four tools and matches TFLite's golden") {
  if (!fs::exists(kZoo)) {
    WARN("skipped: " << kZoo << " is absent (../shared/models/zoo)");
    return;
  }
  std::vector<fs::path> models;
  for (const auto& e : fs::directory_iterator(kZoo)) {
    if (e.path().extension() == ".tflite") models.push_back(e.path());
  }
  std::sort(models.begin(), models.end());
  REQUIRE(!models.empty());
  for (const fs::path& model : models) {
    DYNAMIC_SECTION(model.filename().string()) {
      CheckModel(model, kZoo / "goldens" / model.stem());
    }
  }
}
