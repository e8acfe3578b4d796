// End-to-end tests of the inference_diff executable: exit codes, the report, --per_node
// localising a deliberately wrong test delegate, and the JSON file.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <fstream>
#include <sstream>
#include <string>

#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "testing/command.h"
#include "testing/proto_fields.h"

namespace fs = std::filesystem;

namespace {

using namespace tflite_inspect;  // NOLINT

using testing::CommandResult;
using testing::ParseProto;
using testing::ProtoFields;
using testing::ProtoValue;
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
      "--per_node --max_abs_error=1e-3 --output_json={}", Model(), json.string()));
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

  // Flags as TFLite's run_eval takes them: an unknown one is warned about and the run goes
  // on (--strict_flags makes it an error), a value it cannot read fails with its line.
  const CommandResult typo = Run(fmt::format("--model_file={} --num_runs=1 --num_run=2", Model()));
  CAPTURE(typo.err);
  CHECK(typo.exit_code == 0);
  CHECK_THAT(typo.err, Catch::Contains("WARN: Unconsumed cmdline flags: --num_run=2\n"));
  CHECK_THAT(typo.err,
             Catch::Contains("WARN: unknown flag '--num_run'; did you mean '--num_runs'?"));
  const CommandResult strict =
      Run(fmt::format("--model_file={} --num_run=2 --strict_flags", Model()));
  CHECK(strict.exit_code == 2);
  CHECK_THAT(strict.err, Catch::Contains("did you mean '--num_runs'?"));
  const CommandResult bad_value = Run(fmt::format("--model_file={} --num_runs=abc", Model()));
  CHECK(bad_value.exit_code == 1);
  CHECK_THAT(bad_value.err, Catch::Contains("ERROR: Failed to parse flag 'num_runs' against argv "
                                            "'--num_runs=abc'"));
  CHECK(Run("--num_runs=2").exit_code == 2);
  CHECK(Run("--model_file=/nonexistent.tflite").exit_code == 1);
}

TEST_CASE("inference_diff takes TFLite's flags: --delegate, its summary lines, its metrics proto") {
  const fs::path proto = TempDir() / "metrics.pb", json = TempDir() / "report.json";
  const CommandResult r = Run(fmt::format(
      "--model_file={} --delegate=xnnpack --num_runs=3 --num_interpreter_threads=2 "
      "--output_file_path={} --output_json={}", Model(), proto.string(), json.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("Test: 2 thread(s), delegate XNNPACK"));
  CHECK_THAT(r.out, Catch::Contains("Latency (us) per run of 3 invocations: "));
  CHECK_THAT(r.out, Catch::Contains("\nINFO: Num evaluation runs: 3\n"));
  // A flag given twice keeps its first value, as TFLite's parser gives it (a warning).
  const CommandResult twice =
      Run(fmt::format("--model_file={} --num_runs=2 --num_runs=5", Model()));
  CHECK(twice.exit_code == 0);
  CHECK_THAT(twice.out, Catch::Contains("\nINFO: Num evaluation runs: 2\n"));
  CHECK_THAT(twice.err, Catch::Contains("WARN: repeated flag '--num_runs=5': the first value "
                                        "given is used, as in TFLite\n"));
  const std::regex latency(R"(INFO: (Reference|Test) run latency: avg=[\d.e+]+\(us\), std_dev=\d+\(us\))");
  CHECK(std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), latency),
                      std::sregex_iterator()) == 2);
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex(R"(INFO: OutputDiff\[0\]: avg_error=(\S+), std_dev=(\S+)\n)")));
  const auto j = nlohmann::json::parse(ReadFile(json));
  const double avg_error = j["outputs"][0]["tflite_output_diff"]["avg_error"].get<double>();
  CHECK(std::stod(m[1].str()) == Approx(avg_error).margin(1e-12));
  CHECK(j["invocations_per_run"] == 3);

  // tflite.evaluation.EvaluationStageMetrics: num_runs (1), process_metrics (2) ->
  // inference_profiler_metrics (5) -> reference_latency (1), test_latency (2),
  // output_errors (3, one per output: avg_value is field 3).
  ProtoFields metrics, process, profiler, reference, error;
  REQUIRE(ParseProto(ReadFile(proto), &metrics));
  CHECK(metrics.ints.find(1)->second == 3);
  REQUIRE(metrics.bytes.count(2) == 1);
  REQUIRE(ParseProto(metrics.bytes.find(2)->second, &process));
  REQUIRE(process.bytes.count(5) == 1);
  REQUIRE(ParseProto(process.bytes.find(5)->second, &profiler));
  CHECK(profiler.bytes.count(1) == 1);
  CHECK(profiler.bytes.count(2) == 1);
  REQUIRE(profiler.bytes.count(3) == 1);  // tiny_cnn has one output
  REQUIRE(ParseProto(profiler.bytes.find(1)->second, &reference));
  for (int field = 1; field <= 4; ++field) CHECK(reference.ints.count(field) == 1);
  CHECK(ProtoValue<double>(reference.bytes.find(5)->second) ==
        Approx(j["latency_us"]["reference"]["avg"].get<double>()));
  REQUIRE(ParseProto(profiler.bytes.find(3)->second, &error));
  CHECK(ProtoValue<double>(error.bytes.find(3)->second) == Approx(avg_error).margin(1e-12));

  // The delegates TFLite's --delegate names that this platform lacks, and a typo.
  const CommandResult nnapi = Run(fmt::format("--model_file={} --delegate=nnapi", Model()));
  CHECK(nnapi.exit_code == 1);
  CHECK_THAT(nnapi.err, Catch::Contains("--delegate=nnapi: NNAPI exists on Android only"));
  const CommandResult typo = Run(fmt::format("--model_file={} --delegate xnnpak", Model()));
  CHECK(typo.exit_code == 1);
  CHECK_THAT(typo.err, Catch::Contains("Unsupported TFLite delegate: xnnpak"));
  // An empty --delegate is TFLite's default: no delegate named.
  CHECK(Run(fmt::format("--model_file={} --delegate= --num_runs=1", Model())).exit_code == 0);
}

}  // namespace
