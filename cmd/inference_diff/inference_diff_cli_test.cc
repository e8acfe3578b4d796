// End-to-end tests of the inference_diff executable: exit codes, the report, --per_node
// localising a deliberately wrong test delegate, and the JSON file.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "testing/command.h"

namespace fs = std::filesystem;

namespace {

using namespace tflite_inspect;  // NOLINT

using testing::CommandResult;
using testing::ReadFile;

std::filesystem::path TempDir() { return testing::TempDir("inference_diff_cli_test"); }

CommandResult Run(const std::string& args) {
  return testing::RunCommand(std::string(INFERENCE_DIFF_BIN) + " " + args);
}

std::string Model() { return std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite"; }

TEST_CASE("inference_diff: exact test delegate, wrong test delegate, JSON, exit codes") {
  // --use_xnnpack=false: the test side is then exactly the reference's CPU kernels.
  const CommandResult ok = Run(fmt::format("--model_file={} --num_runs=2 --test_delegate_ops=CONV_2D "
                                       "--max_abs_error=0 --use_xnnpack=false", Model()));
  CAPTURE(ok.out, ok.err);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("max abs error 0, mean abs error 0"));
  CHECK_THAT(ok.out, Catch::Contains("Result: within the thresholds"));

  const fs::path json = TempDir() / "diff.json";
  const CommandResult bad = Run(fmt::format(
      "--graph {} --num_runs 2 --test_delegate_ops=CONV_2D --test_delegate_error=0.25 "
      "--per_node --max_abs_error=1e-3 --output_file_path={}", Model(), json.string()));
  CAPTURE(bad.out, bad.err);
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.out, Catch::Contains("EXCEEDS the thresholds"));
  CHECK_THAT(bad.out, Catch::Contains("first tensor off:"));
  CHECK_THAT(bad.out, Catch::Contains("from TestDelegate partition"));
  std::ifstream f(json);
  const auto j = nlohmann::json::parse(f);
  CHECK(j["schema"] == "tflite-inspect.inference_diff/1");
  CHECK(j["exceeded"] == true);
  CHECK(j["per_node"]["first_exceeding"]["op"] == "TestDelegate");

  const CommandResult typo = Run(fmt::format("--model_file={} --num_run=2", Model()));
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("did you mean '--num_runs'?"));
  CHECK(Run("--num_runs=2").exit_code == 2);
  CHECK(Run("--model_file=/nonexistent.tflite").exit_code == 1);
}

}  // namespace
