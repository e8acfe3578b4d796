// End-to-end tests of the inference_diff executable: exit codes, the report, --per_node
// localising a deliberately wrong test delegate, and the JSON file.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace fs = std::filesystem;

namespace {

struct RunResult {
  int exit_code;
  std::string out, err;
};

fs::path TempDir() {
  fs::path d = fs::temp_directory_path() / fmt::format("inference_diff_cli_test_{}", getpid());
  fs::create_directories(d);
  return d;
}

RunResult Run(const std::string& args) {
  const fs::path err = TempDir() / "stderr.txt";
  const std::string cmd = fmt::format("{} {} 2>{}", INFERENCE_DIFF_BIN, args, err.string());
  RunResult r{-1, "", ""};
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(err);
  std::stringstream ss;
  ss << f.rdbuf();
  r.err = ss.str();
  return r;
}

std::string Model() { return std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite"; }

TEST_CASE("inference_diff: exact test delegate, wrong test delegate, JSON, exit codes") {
  const RunResult ok = Run(fmt::format("--model_file={} --num_runs=2 --test_delegate_ops=CONV_2D "
                                       "--max_abs_error=0", Model()));
  CAPTURE(ok.out, ok.err);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("max abs error 0, mean abs error 0"));
  CHECK_THAT(ok.out, Catch::Contains("Result: within the thresholds"));

  const fs::path json = TempDir() / "diff.json";
  const RunResult bad = Run(fmt::format(
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

  const RunResult typo = Run(fmt::format("--model_file={} --num_run=2", Model()));
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("did you mean '--num_runs'?"));
  CHECK(Run("--num_runs=2").exit_code == 2);
  CHECK(Run("--model_file=/nonexistent.tflite").exit_code == 1);
}

}  // namespace
