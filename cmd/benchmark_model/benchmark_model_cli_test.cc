// End-to-end tests of the benchmark_model executable: TFLite's log lines (regexes that
// TFLite's own output matches), --output_json, exit codes, and the CI gate against
// synthetic baselines.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
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
using testing::ReadFile;

std::filesystem::path TempDir() { return testing::TempDir("benchmark_model_cli_test"); }

CommandResult Run(const std::string& args) {
  return testing::RunCommand(std::string(BENCHMARK_MODEL_BIN) + " " + args);
}

std::string Model() { return std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite"; }

bool HasLine(const std::string& text, const std::regex& re) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, re)) return true;
  }
  return false;
}

TEST_CASE("benchmark_model prints TFLite's lines and writes JSON") {
  const fs::path json_path = TempDir() / "out.json";
  const CommandResult r = Run(fmt::format("--graph={} --num_runs=6 --min_secs=0 --warmup_runs=1 "
                                      "--warmup_min_secs=0 --num_threads 1 --output_json={}",
                                      Model(), json_path.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(HasLine(r.out, std::regex("INFO: STARTING!")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Num threads: \[1\])")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Graph: \[.*tiny_cnn_float.tflite\])")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Initialized session in [\d.]+ms\.)")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Running benchmark for at least 6 iterations and at least 0 seconds but terminate if exceeding 150 seconds\.)")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: count=6 (first=\d+ curr=\d+ min=\d+ max=\d+ avg=[\d.e+]+ std=\d+|curr=\d+\(all same\)))")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Inference timings in us: Init: \d+, First inference: \d+, Warmup \(avg\): [\d.e+]+, Inference \(avg\): [\d.e+]+)")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Memory footprint delta from the start of the tool \(MB\): init=[\d.e+-]+ overall=[\d.e+-]+)")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Inference percentiles in us: p50=\d+ p90=\d+ p99=\d+, coefficient of variation [\d.]+%)")));
  const auto j = nlohmann::json::parse(ReadFile(json_path));
  CHECK(j["schema"] == "tflite-inspect.benchmark/1");
  CHECK(j["inference"]["count"] == 6);
  CHECK(j["inference"]["runs_us"].size() == 6);
  for (const char* key : {"model", "params", "init_us", "delegates", "warmup", "memory", "machine", "build"}) {
    CHECK(j.contains(key));
  }
  // The default XNNPACK, marked as such.
  REQUIRE(j["delegates"].size() == 1);
  CHECK(j["delegates"][0]["label"] == "XNNPACK");
  CHECK(j["delegates"][0]["by_default"] == true);
  CHECK(j["delegates"][0]["applied"] == true);
  const auto& m = j["machine"];
  CHECK_FALSE(m["architecture"].get<std::string>().empty());
  CHECK_THAT(m["affinity_mask"].get<std::string>(), Catch::StartsWith("0x"));
  CHECK(m["cores"].size() >= 1);
}

TEST_CASE("benchmark_model's JSON records the CPUs taskset pinned it to") {
  if (testing::RunCommand("command -v taskset").exit_code != 0) {
    WARN("skipped: taskset is not installed");
    return;
  }
  const fs::path json_path = TempDir() / "pinned.json";
  const CommandResult r = testing::RunCommand(fmt::format(
      "taskset 1 {} --graph={} --num_runs=1 --warmup_runs=0 --output_json={}", BENCHMARK_MODEL_BIN,
      Model(), json_path.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  const auto m = nlohmann::json::parse(ReadFile(json_path))["machine"];
  CHECK(m["affinity"] == "0");
  CHECK(m["affinity_mask"] == "0x1");
  REQUIRE(m["cores"].size() == 1);
  CHECK(m["cores"][0]["cpu"] == 0);
  CHECK(m["cores"][0].contains("part"));
  CHECK(m["cores"][0].contains("max_mhz"));
}

TEST_CASE("benchmark_model: op profiling tables, delegates and CSV") {
  const fs::path csv = TempDir() / "ops.csv";
  const CommandResult r = Run(fmt::format("--graph {} --num_runs=3 --min_secs=0 --warmup_min_secs=0 "
                                      "--enable_op_profiling=true --test_delegate_ops=CONV_2D",
                                      Model()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("Operator-wise Profiling Info for Regular Benchmark Runs:"));
  CHECK_THAT(r.out, Catch::Contains("\t             [node type]\t          [start]\t  [first]\t [avg ms]"));
  CHECK_THAT(r.out, Catch::Contains("TestDelegate partition of nodes"));
  CHECK_THAT(r.out, Catch::Contains("Number of nodes executed:"));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Explicitly applied TestDelegate delegate, and the model graph will be (partially|completely) executed by the delegate.*)")));
  const CommandResult c = Run(fmt::format("--graph {} --num_runs=2 --min_secs=0 --warmup_min_secs=0 "
                                      "--enable_op_profiling --op_profiling_output_mode=csv "
                                      "--op_profiling_output_file={}", Model(), csv.string()));
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(ReadFile(csv), Catch::Contains("node type, start, first, avg_ms, %, cdf%, mem KB, times called, name"));
  // The XNNPACK delegate (the default) reports its steps and runtimes: TFLite's "Delegate
  // internal:" tables after the nodes', a row per step ("op:node") or runtime.
  const CommandResult x =
      Run(fmt::format("--graph {} --num_runs=3 --min_secs=0 --warmup_min_secs=0 "
                      "--enable_op_profiling=true",
                      Model()));
  REQUIRE(x.exit_code == 0);
  const size_t internal = x.out.find("Delegate internal: \n");
  REQUIRE(internal != std::string::npos);
  CHECK(std::regex_search(x.out.substr(internal),
                          std::regex(R"(\t(CONV_2D|XNNPACK runtime):\d+\n)")));
  CHECK(x.out.find("nodes observed", internal) != std::string::npos);
}

TEST_CASE("benchmark_model applies XNNPACK by default, last, to float and 8-bit ops, as TFLite") {
  const std::string common = "--num_runs=1 --min_secs=0 --warmup_runs=0 --warmup_min_secs=0 ";
  const std::regex created(R"(INFO: Created TensorFlow Lite XNNPACK delegate for CPU\.)");
  // Float model, no flag: XNNPACK after the delegate given, not counted as asked for.
  CommandResult r = Run(fmt::format("--graph={} {} --test_delegate_ops=CONV_2D", Model(), common));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  // TFLite says how many delegates it applies only when there are two or more.
  CHECK(r.out.find("Going to apply") == std::string::npos);
  CHECK(HasLine(r.out, created));
  CHECK(r.out.find("TestDelegate:") < r.out.find("XNNPACK:"));
  // =false: no XNNPACK; =true: at its flag's position, before the test delegate.
  r = Run(fmt::format("--graph={} {} --use_xnnpack=false", Model(), common));
  CHECK(r.out.find("XNNPACK") == std::string::npos);
  CHECK(HasLine(r.out, std::regex(R"(INFO: Use xnnpack: \[0\])")));
  r = Run(fmt::format("--graph={} {} --use_xnnpack=true --test_delegate_ops=CONV_2D", Model(), common));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Going to apply 2 delegates one after another\.)")));
  CHECK(HasLine(r.out, std::regex(R"(INFO: Explicitly applied XNNPACK delegate.*)")));
  CHECK(r.out.find("XNNPACK:") < r.out.find("TestDelegate:"));
  // A fully quantized int8 model: the default XNNPACK takes its 8-bit ops, as TFLite's
  // default delegate takes QS8 / QU8 operators.
  const std::string int8 = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_int8.tflite";
  r = Run(fmt::format("--graph={} {}", int8, common));
  REQUIRE(r.exit_code == 0);
  CHECK(HasLine(r.out, created));
  CHECK(HasLine(r.out, std::regex(R"(INFO: XNNPACK: [1-9]\d* of \d+ nodes in \d+ partitions)")));
  // A model it takes nothing of (16x8: int16 activations) runs as without it.
  const std::string int16 =
      std::string(TFI_SOURCE_DIR) + "/testdata/kernels/fully_connected_16x8_no_bias/model.tflite";
  r = Run(fmt::format("--graph={} {}", int16, common));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("XNNPACK") == std::string::npos);
}

TEST_CASE("benchmark_model exit codes") {
  // As TFLite: a flag it does not know is reported and the run goes on (scripts parse
  // the line); --strict_flags makes it an error.
  const std::string quick = "--num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0";
  const CommandResult typo =
      Run(fmt::format("--graph={} {} --num_thread=2 --use_nnapi=true --foo bar", Model(), quick));
  CHECK(typo.exit_code == 0);
  CHECK_THAT(typo.out, Catch::Contains("INFO: STARTING!\nWARN: Unconsumed cmdline flags: "
                                       "--num_thread=2 --use_nnapi=true --foo bar\n"));
  CHECK_THAT(typo.out, Catch::Contains("WARN: unknown flag '--num_thread'; did you mean "
                                       "'--num_threads'?"));
  CHECK_THAT(typo.out, Catch::Contains("Inference timings in us"));
  // A flag given twice: TFLite's parser takes the first `--flag=value` and leaves the
  // rest unconsumed (a script appending an override gets the base value there).
  const CommandResult twice = Run(fmt::format(
      "--graph={} {} --use_xnnpack=false --num_runs=2 --use_xnnpack=true --num_threads=3", Model(),
      quick));
  CHECK(twice.exit_code == 0);
  CHECK_THAT(twice.out, Catch::Contains("WARN: Unconsumed cmdline flags: --num_runs=2 "
                                        "--use_xnnpack=true\n"));
  CHECK_THAT(twice.out, Catch::Contains("WARN: repeated flag '--num_runs=2': the first value "
                                        "given is used, as in TFLite\n"));
  CHECK_THAT(twice.out, Catch::Contains("INFO: Min num runs: [1]\n"));
  CHECK_THAT(twice.out, Catch::Contains("INFO: Num threads: [3]\n"));
  CHECK(twice.out.find("Delegate XNNPACK") == std::string::npos);
  // A value it cannot parse: TFLite's line (scripts look for it) and its exit code 1.
  for (const std::string& arg : {std::string("--num_runs=abc"), std::string("--num_runs abc")}) {
    CAPTURE(arg);
    const CommandResult bad = Run(fmt::format("--graph={} {}", Model(), arg));
    CHECK(bad.exit_code == 1);
    CHECK(bad.out == "INFO: STARTING!\n");
    CHECK_THAT(bad.err, Catch::StartsWith("ERROR: Failed to parse flag 'num_runs' against argv "
                                          "'--num_runs=abc'\n"));
    CHECK_THAT(bad.err, Catch::EndsWith("ERROR: Benchmarking failed.\n"));
  }
  const CommandResult negative = Run(fmt::format("--graph={} --max_arena_mb=-3", Model()));
  CHECK(negative.exit_code == 1);
  CHECK_THAT(negative.err, Catch::Contains("benchmark_model: --max_arena_mb: '-3' is negative: "
                                           "MiB >= 0 (0: the machine's memory)\n"));
  const CommandResult strict =
      Run(fmt::format("--graph={} --num_thread=2 --strict_flags", Model()));
  CHECK(strict.exit_code == 2);
  CHECK_THAT(strict.err, Catch::Contains("did you mean '--num_threads'?"));
  const CommandResult no_graph = Run("--num_runs=1");
  CHECK(no_graph.exit_code == 2);
  CHECK_THAT(no_graph.err, Catch::Contains("Please specify the name of your TF Lite input file with --graph"));
  const CommandResult missing = Run("--graph=/nonexistent/model.tflite");
  CHECK(missing.exit_code == 1);
  const CommandResult shape = Run(fmt::format("--graph={} --input_layer=a,b --input_layer_shape=1", Model()));
  CHECK(shape.exit_code == 2);
  CHECK_THAT(shape.err, Catch::Contains("must match the number of items in --input_layer"));
}

TEST_CASE("benchmark_model CI gate: pass, regression, inconclusive") {
  const std::string common = fmt::format("--graph={} --num_runs=8 --min_secs=0 --warmup_min_secs=0", Model());
  // Baselines: a real run's JSON (its configuration is this command's) with the
  // inference figures replaced.
  const fs::path real = TempDir() / "gate_real.json";
  REQUIRE(Run(common + " --output_json=" + real.string()).exit_code == 0);
  const auto recorded = nlohmann::json::parse(ReadFile(real));
  auto baseline = [&](double p50, int count) {
    const fs::path p = TempDir() / fmt::format("baseline_{}_{}.json", p50, count);
    nlohmann::json j = recorded;
    j["inference"] = {{"p50", p50}, {"std", 1.0}, {"count", count}};
    std::ofstream(p) << j.dump();
    return p.string();
  };
  const CommandResult pass = Run(common + " --baseline=" + baseline(1e9, 50));
  CAPTURE(pass.out, pass.err);
  CHECK(pass.exit_code == 0);
  CHECK_THAT(pass.out, Catch::Contains("PASS: median"));
  // Against a 1 us baseline the run is far slower; whether that counts depends on this
  // run's own noise (a loaded CI machine can make it too noisy to tell, which the gate
  // then says). The verdict logic itself is tested on synthetic JSON in benchmark_test.
  const CommandResult slow = Run(common + " --baseline=" + baseline(1, 50) + " --max_regression_pct=10");
  CAPTURE(slow.out, slow.err);
  if (slow.exit_code == 3) {
    CHECK_THAT(slow.err, Catch::Contains("REGRESSION: median"));
  } else {
    CHECK(slow.exit_code == 0);
    CHECK_THAT(slow.out, Catch::Contains("PASS: median"));
    CHECK_THAT(slow.out, Catch::Contains("noise"));
  }
  const CommandResult few = Run(common + " --baseline=" + baseline(1e9, 2));
  CHECK(few.exit_code == 3);
  CHECK_THAT(few.err, Catch::Contains("INCONCLUSIVE"));
  const fs::path junk = TempDir() / "junk.json";
  std::ofstream(junk) << "not json";
  // A baseline that cannot be read is refused before the benchmark runs.
  const CommandResult broken = Run(common + " --baseline=" + junk.string());
  CHECK(broken.exit_code == 2);
  CHECK(broken.out.find("Running benchmark") == std::string::npos);
  const CommandResult missing = Run(common + " --baseline=/nonexistent/base.json");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("cannot read the baseline '/nonexistent/base.json'"));
  CHECK(missing.out.find("Running benchmark") == std::string::npos);

  // Another configuration (threads, delegates) is not a comparison: INVALID, exit 2,
  // unless allowed.
  const std::string base = baseline(1e9, 50);
  const CommandResult threads = Run(common + " --num_threads=2 --baseline=" + base);
  CAPTURE(threads.out, threads.err);
  CHECK(threads.exit_code == 2);
  CHECK_THAT(threads.err, Catch::Contains("INVALID: baseline is for another model/configuration: "
                                          "num_threads: 1 in the baseline, 2 now"));
  const CommandResult delegate = Run(common + " --use_xnnpack=false --baseline=" + base);
  CHECK(delegate.exit_code == 2);
  CHECK_THAT(delegate.err, Catch::Contains("delegates: XNNPACK in the baseline, (none) now"));
  const CommandResult allowed =
      Run(common + " --num_threads=2 --allow_baseline_mismatch --baseline=" + base);
  CAPTURE(allowed.out, allowed.err);
  CHECK(allowed.exit_code == 0);
  CHECK_THAT(allowed.out, Catch::Contains("WARN: baseline is for another model/configuration "
                                          "(--allow_baseline_mismatch): num_threads: 1 in the "
                                          "baseline, 2 now"));
  CHECK_THAT(allowed.out, Catch::Contains("PASS: median"));
  // Another model.
  const std::string int8 = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_int8.tflite";
  const CommandResult model = Run(fmt::format("--graph={} --num_runs=8 --min_secs=0 "
                                              "--warmup_min_secs=0 --baseline={}", int8, base));
  CHECK(model.exit_code == 2);
  CHECK_THAT(model.err, Catch::Contains("model_sha256: "));
}

}  // namespace

namespace {

TEST_CASE("benchmark_model --target_runtime warns when the model needs a newer TFLite") {
  const CommandResult unknown = Run(fmt::format("--graph={} --target_runtime=9.9", Model()));
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("known releases: 1.14"));
  const std::string pose = std::string(TFI_SHARED_DIR) + "/models/mediapipe/pose_detection.tflite";
  if (!fs::exists(pose)) {
    WARN("skipped: no " << pose);
    return;
  }
  const CommandResult old = Run(fmt::format("--graph={} --num_runs=1 --min_secs=0 --warmup_runs=0 "
                                            "--warmup_min_secs=0 --target_runtime=2.1", pose));
  CHECK(old.exit_code == 0);
  CHECK_THAT(old.out, Catch::Contains("WARN: model needs TFLite 2.2 or newer"));
}

}  // namespace

namespace {

// docs/benchmark_model.md lists every TFLite flag with "yes" (taken here) or "unconsumed"
// (reported in TFLite's warning line); the tool must agree with the page.
TEST_CASE("benchmark_model takes exactly the TFLite flags its page says it takes") {
  std::ifstream page(std::string(TFI_SOURCE_DIR) + "/docs/benchmark_model.md");
  REQUIRE(page);
  const std::regex row(R"(^\| `--([a-z0-9_]+)` \| [^|]+ \| [^|]* \| (yes|unconsumed) \|$)");
  const CommandResult help = Run("--help");
  REQUIRE(help.exit_code == 0);
  int rows = 0;
  std::string unconsumed;
  for (std::string line; std::getline(page, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    ++rows;
    const std::string flag = "--" + m[1].str();
    const bool listed = std::regex_search(help.out, std::regex(flag + R"((\b|=))"));
    CAPTURE(flag);
    CHECK(listed == (m[2] == "yes"));
    if (m[2] == "unconsumed") unconsumed += " " + flag + "=1";
  }
  CHECK(rows >= 80);
  // Every "unconsumed" flag is named in the warning and the run goes on.
  const CommandResult r = Run(fmt::format("--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 "
                                          "--warmup_min_secs=0{}", Model(), unconsumed));
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("WARN: Unconsumed cmdline flags:" + unconsumed + "\n"));
}

}  // namespace

namespace {

std::string Quick() {
  return fmt::format("--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0",
                     Model());
}

// TFLite's flags this tool takes for compatibility (issue 16 §1): each is consumed (no
// "Unconsumed" line, also under --strict_flags) and the run goes on. A settings file for
// --stable_delegate_settings_file is refused (exit 1, test below).
TEST_CASE("benchmark_model consumes TFLite's compatibility flags, each alone") {
  for (const std::string flag :
       {"--gpu_invoke_loop_times=3", "--optimize_memory_for_large_tensors=1048576",
        "--xnnpack_weight_cache_file_path=/tmp/tfi_weights.cache", "--xnnpack_runtime_flags=16",
        "--xnnpack_slinky=true", "--gpu_inference_for_sustained_speed=true",
        "--gpu_wait_type=passive"}) {
    CAPTURE(flag);
    const CommandResult r = Run(Quick() + " --strict_flags " + flag);
    CAPTURE(r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, !Catch::Contains("Unconsumed"));
    CHECK_THAT(r.out, Catch::Contains("Inference timings in us"));
  }
}

TEST_CASE("benchmark_model's compatibility flags echo TFLite's labels and warn what happens") {
  const CommandResult r =
      Run(Quick() + " --strict_flags --gpu_invoke_loop_times=3 "
                    "--optimize_memory_for_large_tensors=1048576 "
                    "--xnnpack_weight_cache_file_path=/tmp/tfi_weights.cache --xnnpack_slinky "
                    "--gpu_inference_for_sustained_speed=true --gpu_wait_type=spin");
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, !Catch::Contains("Unconsumed"));
  for (const char* line : {
           "INFO: Optimize memory usage for large tensors: [1048576]\n",
           "INFO: Number of GPU delegate invoke loop iterations: [3]\n",
           "INFO: xnnpack_weight_cache_file_path: [/tmp/tfi_weights.cache]\n",
           "INFO: Use Slinky: [1]\n",
           "INFO: Prefer maximizing the throughput in gpu: [1]\n",
           "INFO: GPU delegate wait type: [spin]\n",
           "WARN: --optimize_memory_for_large_tensors=1048576: not implemented: tensors of "
           "1048576 bytes or more stay in the arena, as without the flag (TFLite would "
           "allocate them on the heap; see docs/runtime.md)\n",
           "WARN: --gpu_invoke_loop_times=3: no effect: this GPU delegate has no invoke loop "
           "(each invoke runs its partitions once) and latencies are not divided by it "
           "(TFLite's tool also ignores it unless built with TFLITE_GPU_ENABLE_INVOKE_LOOP)\n",
           "WARN: --xnnpack_weight_cache_file_path=/tmp/tfi_weights.cache: no effect: this "
           "XNNPACK (2022-02) has no file-backed weight cache; weights are packed in memory once "
           "per partition, in every run, and no file is read or written\n",
           "WARN: --xnnpack_slinky: no effect: this XNNPACK (2022-02) is built without the "
           "Slinky optimizer (TFLite ignores the flag too where XNNPACK lacks Slinky)\n",
           "WARN: --gpu_inference_for_sustained_speed: no effect: this GPU delegate builds and "
           "runs its kernels one way (fixed work-group sizes, no tuning at start-up), the same "
           "for one answer as for sustained speed\n",
           "WARN: --gpu_wait_type=spin: no effect (and not one of TFLite's passive, active, "
           "do_not_wait, aggressive): this OpenCL GPU delegate always waits for the device with "
           "a blocking clFinish at the end of each partition's run (spinning or sleeping is the "
           "OpenCL driver's choice); wait types are TFLite's Metal delegate's (iOS, macOS)\n"}) {
    CHECK_THAT(r.out, Catch::Contains(line));
  }
  CHECK_FALSE(std::filesystem::exists("/tmp/tfi_weights.cache"));
  // Their defaults, given, are echoed and warn nothing.
  const CommandResult defaults =
      Run(Quick() + " --gpu_invoke_loop_times=1 --optimize_memory_for_large_tensors=0 "
                    "--xnnpack_slinky=false --gpu_inference_for_sustained_speed=false "
                    "--xnnpack_runtime_flags=0");
  CAPTURE(defaults.out);
  REQUIRE(defaults.exit_code == 0);
  CHECK_THAT(defaults.out, !Catch::Contains("WARN"));
  CHECK_THAT(defaults.out, Catch::Contains("INFO: Use Slinky: [0]\n"));
  CHECK_THAT(defaults.out, Catch::Contains("INFO: Extra flags for XNNPACK runtime: [0]\n"));
  // --verbose lists them all (the stable delegate's only with a file, as TFLite).
  const CommandResult verbose = Run(Quick() + " --verbose");
  REQUIRE(verbose.exit_code == 0);
  for (const char* line :
       {"INFO: Optimize memory usage for large tensors: [0]\n",
        "INFO: Number of GPU delegate invoke loop iterations: [1]\n",
        "INFO: xnnpack_weight_cache_file_path: []\n", "INFO: Use Slinky: [0]\n",
        "INFO: Extra flags for XNNPACK runtime: [0]\n",
        "INFO: Prefer maximizing the throughput in gpu: [0]\n",
        "INFO: GPU delegate wait type: []\n"}) {
    CHECK_THAT(verbose.out, Catch::Contains(line));
  }
  CHECK_THAT(verbose.out, !Catch::Contains("Delegate settings file path"));
}

TEST_CASE("benchmark_model --xnnpack_runtime_flags go to XNNPACK's runtimes") {
  auto xnnpack_line = [](const std::string& out) {
    std::smatch m;
    return std::regex_search(out, m, std::regex("INFO: Delegate XNNPACK: [^\n]*")) ? m.str() : "";
  };
  const CommandResult plain = Run(Quick());
  REQUIRE(plain.exit_code == 0);
  REQUIRE_FALSE(xnnpack_line(plain.out).empty());
  // Yield workers (0x10): XNNPACK runs the model as without it; no warning.
  const fs::path json_path = TempDir() / "runtime_flags.json";
  const CommandResult yield =
      Run(Quick() + " --xnnpack_runtime_flags=16 --output_json=" + json_path.string());
  CAPTURE(yield.out, yield.err);
  REQUIRE(yield.exit_code == 0);
  CHECK_THAT(yield.out, !Catch::Contains("WARN"));
  CHECK(xnnpack_line(yield.out) == xnnpack_line(plain.out));
  // A flag that changes the runs is part of the configuration the CI gate compares; the
  // flags that change nothing are not.
  const auto params = nlohmann::json::parse(ReadFile(json_path))["configuration"]["delegate_params"];
  CHECK(std::find(params.begin(), params.end(), "Extra flags for XNNPACK runtime: [16]") != params.end());
  for (const auto& p : params) CHECK_THAT(p.get<std::string>(), !Catch::StartsWith("Use Slinky"));
  // Force fp16 (0x4) is --xnnpack_force_fp16: the same outcome on every CPU.
  const CommandResult bit = Run(Quick() + " --xnnpack_runtime_flags=4");
  const CommandResult flag = Run(Quick() + " --xnnpack_force_fp16");
  CHECK(bit.exit_code == flag.exit_code);
  CHECK_FALSE(xnnpack_line(flag.out).empty());
  CHECK(xnnpack_line(bit.out) == xnnpack_line(flag.out));
  // Bits this XNNPACK does not know (TFLite's Slinky bit) are named.
  const CommandResult unknown = Run(Quick() + " --xnnpack_runtime_flags=1073741840");
  CAPTURE(unknown.out);
  CHECK(unknown.exit_code == 0);
  CHECK_THAT(unknown.out, Catch::Contains(
      "WARN: --xnnpack_runtime_flags=1073741840: bits 0x40000000 mean nothing to this XNNPACK "
      "(2022-02 knows 0x1 sparse hint, 0x2 fp16 hint, 0x4 force fp16, 0x10 yield workers); they "
      "are passed on and change nothing\n"));
  CHECK(xnnpack_line(unknown.out) == xnnpack_line(plain.out));
}

TEST_CASE("benchmark_model --stable_delegate_settings_file: checked, then refused with exit 1") {
  auto write = [](const std::string& name, const std::string& text) {
    const fs::path p = TempDir() / name;
    std::ofstream(p) << text;
    return p.string();
  };
  struct Case {
    std::string file, error;
  };
  const std::string missing = (TempDir() / "no_such_settings.json").string();
  const std::string bad = write("bad_settings.json", "{ \"delegate\": ");
  const std::string no_path = write("no_path_settings.json", "{\"delegate\": \"NONE\"}");
  const std::string path_not_string = write(
      "path_not_string.json", "{\"stable_delegate_loader_settings\": {\"delegate_path\": 3}}");
  // As TFLite's own sample settings file: a // comment, TFLiteSettings fields.
  const std::string valid = write("stable_settings.json",
                                  "// TFLiteSettings (configuration.proto)\n"
                                  "{\n  \"delegate\": \"NONE\",\n"
                                  "  \"stable_delegate_loader_settings\": {\n"
                                  "    \"delegate_path\": \"/opt/libsample_stable_delegate.so\",\n"
                                  "    \"delegate_name\": \"SampleStableDelegate\"\n  }\n}\n");
  for (const Case& c : std::vector<Case>{
           {missing, "ERROR: Failed to load the delegate settings file (" + missing +
                         "): No such file or directory\n"},
           {bad, "ERROR: Failed to parse the delegate settings file (" + bad + "): "},
           {no_path, "ERROR: Invalid TFLiteSettings for the stable delegate (" + no_path +
                         "): no stable_delegate_loader_settings\n"},
           {path_not_string, "ERROR: Invalid TFLiteSettings for the stable delegate (" +
                                 path_not_string +
                                 "): stable_delegate_loader_settings.delegate_path is not a "
                                 "string\n"},
           {valid, "ERROR: stable delegates (TfLiteStableDelegate ABI) are not supported by this "
                   "build: the delegate 'SampleStableDelegate' in "
                   "/opt/libsample_stable_delegate.so (named by " + valid +
                   ") makes a TfLiteOpaqueDelegate, TFLite's opaque delegate API, which this "
                   "runtime does not run; a delegate library with TFLite's external delegate "
                   "ABI (tflite_plugin_create_delegate) loads with --external_delegate_path\n"}}) {
    CAPTURE(c.file);
    const CommandResult r = Run(Quick() + " --strict_flags --stable_delegate_settings_file=" + c.file);
    CAPTURE(r.out, r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, !Catch::Contains("Unconsumed"));
    CHECK_THAT(r.out, Catch::Contains("INFO: Delegate settings file path: [" + c.file + "]\n"));
    CHECK_THAT(r.err, Catch::Contains(c.error));
    CHECK_THAT(r.err, Catch::EndsWith("ERROR: Benchmarking failed.\n"));
    CHECK_THAT(r.out, !Catch::Contains("Inference timings"));
  }
}

}  // namespace

namespace {

TEST_CASE("benchmark_model --op_profiling_output_mode=proto writes TFLite's BenchmarkProfilingData") {
  const fs::path file = TempDir() / "profile.pb";
  const std::string flags = fmt::format(
      "--graph={} --num_runs=3 --warmup_runs=1 --min_secs=0 --warmup_min_secs=0 "
      "--use_xnnpack=false --enable_op_profiling=true --op_profiling_output_mode=proto",
      Model());
  const CommandResult r = Run(flags + " --op_profiling_output_file=" + file.string());
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, !Catch::Contains("Operator-wise Profiling Info"));
  // profiling_info.proto: BenchmarkProfilingData.runtime_profile (3) ->
  // ModelProfilingData.subgraph_profiles (1) -> SubGraphProfilingData.per_op_profiles (3).
  testing::ProtoFields data, model, subgraph;
  REQUIRE(testing::ParseProto(ReadFile(file), &data));
  CHECK(data.All(2).empty());  // no init profile
  REQUIRE(data.All(3).size() == 1);
  REQUIRE(testing::ParseProto(data.All(3)[0], &model));
  REQUIRE(model.All(1).size() == 1);
  REQUIRE(testing::ParseProto(model.All(1)[0], &subgraph));
  CHECK(subgraph.ints.find(2)->second == 0);  // subgraph_index
  const auto ops = subgraph.All(3);
  REQUIRE(ops.size() >= 3);
  for (size_t i = 0; i < ops.size(); ++i) {
    testing::ProtoFields op, time;
    REQUIRE(testing::ParseProto(ops[i], &op));
    CAPTURE(i);
    CHECK(op.ints.find(6)->second == i);  // run_order, in order
    CHECK(op.ints.find(4)->second == 1);  // times_called per run
    CHECK_FALSE(op.All(1).at(0).empty());  // node_type
    REQUIRE(testing::ParseProto(op.All(2).at(0), &time));
    CHECK(time.ints.find(9)->second == 3);  // count: the 3 runs
  }
  testing::ProtoFields first;
  REQUIRE(testing::ParseProto(ops[0], &first));
  CHECK(first.All(1).at(0) == "CONV_2D");
  // Without a file, TFLite logs the message in protobuf's text format.
  const CommandResult text = Run(flags);
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("INFO: runtime_profile {\n  subgraph_profiles {\n"
                                       "    subgraph_name: \"main\"\n    subgraph_index: 0\n"
                                       "    per_op_profiles {\n      node_type: \"CONV_2D\"\n"
                                       "      inference_microseconds {\n        first: "));
}

TEST_CASE("benchmark_model --result_file_path writes TFLite's BenchmarkResult") {
  const fs::path file = TempDir() / "result.pb";
  const CommandResult r = Run(fmt::format(
      "--graph={} --num_runs=4 --warmup_runs=2 --min_secs=0 --warmup_min_secs=0 "
      "--result_file_path={}", Model(), file.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("INFO: Saving benchmark result to: " + file.string() +
                                    "\nINFO: Saved benchmark result to: " + file.string() + "\n"));
  // benchmark_result.proto: latency_metrics (2), memory_metrics (3), misc_metrics (4).
  testing::ProtoFields result, latency, misc;
  REQUIRE(testing::ParseProto(ReadFile(file), &result));
  REQUIRE(testing::ParseProto(result.All(2).at(0), &latency));
  REQUIRE(testing::ParseProto(result.All(4).at(0), &misc));
  auto f32 = [](const testing::ProtoFields& m, int field) {
    float v = 0;
    std::memcpy(&v, m.All(field).at(0).data(), sizeof v);
    return v;
  };
  for (int field = 1; field <= 10; ++field) {
    CAPTURE(field);
    CHECK(f32(latency, field) >= 0);
  }
  CHECK(f32(latency, 2) <= f32(latency, 1));  // min <= avg
  CHECK(f32(latency, 1) <= f32(latency, 3));  // avg <= max
  CHECK(misc.ints.find(2)->second == 4);      // num_runs
  CHECK(misc.ints.find(3)->second == 2);      // num_warmup_runs
  CHECK(f32(misc, 1) > 0);                    // model_size_mb
  // A file that cannot be written: TFLite's error line, and the run still succeeds.
  const CommandResult bad = Run(fmt::format(
      "--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0 "
      "--result_file_path=/nonexistent-dir/r.pb", Model()));
  CHECK(bad.exit_code == 0);
  CHECK_THAT(bad.err, Catch::Contains("ERROR: Failed to save benchmark result to: /nonexistent-dir/r.pb"));
}

TEST_CASE("benchmark_model --export_model_runtime_info writes TFLite's ModelRuntimeDetails") {
  const fs::path file = TempDir() / "runtime_info.pb";
  const CommandResult r = Run(fmt::format(
      "--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0 "
      "--export_model_runtime_info=true --model_runtime_info_output_file={}",
      Model(), file.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  // model_runtime_info.proto: ModelRuntimeDetails.subgraphs (2) -> RuntimeSubgraph:
  // subgraph_id (1), edges (2), nodes (3), execution_plan (4, packed), subgraph_type (5).
  testing::ProtoFields details, subgraph;
  REQUIRE(testing::ParseProto(ReadFile(file), &details));
  REQUIRE(details.All(2).size() == 1);
  REQUIRE(testing::ParseProto(details.All(2)[0], &subgraph));
  CHECK(subgraph.ints.find(5)->second == 1);  // TFLITE_SUBGRAPH
  CHECK(subgraph.All(2).size() == 18);        // every tensor of tiny_cnn_float
  // XNNPACK (applied by default) replaced the 9 operators with one kernel, node 9: the
  // plan is that node, each replaced node points to it, and the kernel lists them.
  const auto nodes = subgraph.All(3);
  REQUIRE(nodes.size() == 10);
  CHECK(subgraph.All(4).at(0) == std::string(1, '\x09'));
  for (int n = 0; n < 9; ++n) {
    testing::ProtoFields node;
    REQUIRE(testing::ParseProto(nodes[n], &node));
    CAPTURE(n);
    CHECK(node.ints.find(1)->second == static_cast<uint64_t>(n));
    CHECK(node.ints.find(9)->second == 9);
  }
  testing::ProtoFields kernel, delegate;
  REQUIRE(testing::ParseProto(nodes[9], &kernel));
  CHECK(kernel.All(2).at(0) == "TfLiteXNNPackDelegate");
  REQUIRE(testing::ParseProto(kernel.All(8).at(0), &delegate));
  CHECK(delegate.All(1).at(0) == "TfLiteXNNPackDelegate");
  CHECK(delegate.All(2).at(0) == std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08", 9));
  // A file that cannot be opened: TFLite's error line, the message as text in the log.
  const CommandResult bad = Run(fmt::format(
      "--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0 "
      "--export_model_runtime_info=true", Model()));
  CHECK(bad.exit_code == 0);
  CHECK_THAT(bad.err, Catch::Contains("ERROR: Failed to open file: \n"));
  CHECK_THAT(bad.out, Catch::Contains("INFO: subgraphs {\n  subgraph_id: 0\n  edges {\n    id: 0\n"));
}

TEST_CASE("benchmark_model --release_dynamic_tensors and --disable_delegate_clustering") {
  const fs::path json_path = TempDir() / "options.json";
  const CommandResult r = Run(fmt::format(
      "--graph={} --num_runs=2 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0 "
      "--release_dynamic_tensors --disable_delegate_clustering=true --allow_fp16 --use_caching "
      "--output_json={}",
      Model(), json_path.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  // TFLite's parameter lines, in its order, and no "Unconsumed" warning for them.
  CHECK_THAT(r.out, Catch::Contains("INFO: Use caching: [1]\n"));
  CHECK_THAT(r.out, Catch::Contains("INFO: Allow fp16: [1]\n"));
  CHECK_THAT(r.out, Catch::Contains("INFO: Release dynamic tensor memory: [1]\n"
                                    "INFO: Disable delegate clustering: [1]\n"));
  CHECK_THAT(r.out, !Catch::Contains("Unconsumed"));
  // They are part of the configuration the CI gate compares.
  const auto j = nlohmann::json::parse(ReadFile(json_path));
  CHECK(j["configuration"]["interpreter_options"] ==
        nlohmann::json::array({"release_dynamic_tensors", "disable_delegate_clustering"}));
  const CommandResult plain = Run(fmt::format(
      "--graph={} --num_runs=2 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0 --baseline={}",
      Model(), json_path.string()));
  CHECK(plain.exit_code == 2);
  CHECK_THAT(plain.out + plain.err, Catch::Contains("interpreter_options:"));
}

TEST_CASE("benchmark_model --list_signatures prints TFLite's lines and stops with exit 1") {
  const CommandResult r = Run(fmt::format("--graph={} --list_signatures", Model()));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("INFO: Loaded model " + Model() +
                                    "\nINFO: The Model contains 1 signature key(s).\n"
                                    "INFO: They are listed below: \n"
                                    "INFO: -> Signature Key: serving_default\n"));
  CHECK(r.out.find("Running benchmark") == std::string::npos);
  CHECK(r.err == "ERROR: Benchmarking failed.\n");
}

}  // namespace

namespace {

std::string TwoSignatures() {
  return std::string(TFI_SOURCE_DIR) + "/testdata/models/two_signatures.tflite";
}

TEST_CASE("benchmark_model picks a signature as TFLite: the only one, else the one named") {
  // One signature: run it, and say so.
  const CommandResult one = Run(fmt::format("--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 "
                                            "--warmup_min_secs=0", Model()));
  CAPTURE(one.out, one.err);
  CHECK(one.exit_code == 0);
  CHECK_THAT(one.out, Catch::Contains("INFO: Graph: [" + Model() + "]\nINFO: Signature to run: []\n"));
  CHECK_THAT(one.out, Catch::Contains("INFO: Using signature: serving_default\n"));

  // Several and none named: TFLite's lines, exit 1, nothing run.
  const CommandResult several = Run(fmt::format("--graph={}", TwoSignatures()));
  CAPTURE(several.out, several.err);
  CHECK(several.exit_code == 1);
  CHECK(several.err ==
        "ERROR: Signature not specified or incorrect. Pass one of the following to the flag "
        "\"--signature_to_run_for\"\nERROR:  #> Signature key: decode\n"
        "ERROR:  #> Signature key: encode\nERROR: Benchmarking failed.\n");
  CHECK(several.out.find("Running benchmark") == std::string::npos);
  const CommandResult wrong = Run(fmt::format("--graph={} --signature_to_run_for=nope", Model()));
  CHECK(wrong.exit_code == 1);
  CHECK_THAT(wrong.err, Catch::Contains("ERROR:  #> Signature key: serving_default\n"));
  CHECK_THAT(wrong.out, Catch::Contains("INFO: Signature to run: [nope]\n"));

  // A model without signatures runs its first subgraph, unless a key is named.
  const std::string none = std::string(TFI_SOURCE_DIR) + "/testdata/models/partition_diamond.tflite";
  const CommandResult plain = Run(fmt::format("--graph={} --num_runs=1 --warmup_runs=0 --min_secs=0 "
                                              "--warmup_min_secs=0", none));
  CAPTURE(plain.out, plain.err);
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.find("Using signature") == std::string::npos);
  const CommandResult named = Run(fmt::format("--graph={} --signature_to_run_for=x", none));
  CHECK(named.exit_code == 1);
  CHECK(named.err == "ERROR: Signature key is specified, but the model does not have any "
                     "signatures.\nERROR: Benchmarking failed.\n");
}

// The second signature (the model's second subgraph) on TFLite's inputs, its outputs
// written by --output_filepath and compared with TFLite's (ai-edge-litert) for the same
// inputs; the input file is named with TFLite's "::" escape for the ':' in the name.
TEST_CASE("benchmark_model --signature_to_run_for runs that subgraph, --output_filepath saves it") {
  std::ifstream golden_file(std::string(TFI_SOURCE_DIR) + "/testdata/goldens/two_signatures.json");
  const auto golden = nlohmann::json::parse(golden_file)["encode"];
  const fs::path in = TempDir() / "x.bin", out = TempDir() / "code.bin";
  {
    std::vector<float> x = golden["inputs"]["x"].get<std::vector<float>>();
    std::ofstream f(in, std::ios::binary);
    f.write(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(float));
  }
  fs::remove(out);
  for (const char* xnnpack : {"", "--use_xnnpack=false"}) {
    const CommandResult r = Run(fmt::format(
        "--graph={} --signature_to_run_for=encode --input_layer=encode_x:0 "
        "--input_layer_shape=1,4 --input_layer_value_files=encode_x::0:{} --output_filepath={} "
        "--num_runs=2 --warmup_runs=1 --min_secs=0 --warmup_min_secs=0 {}",
        TwoSignatures(), in.string(), out.string(), xnnpack));
    CAPTURE(xnnpack, r.out, r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("INFO: Using signature: encode\n"));
    CHECK_THAT(r.out, Catch::Contains("INFO: File path to export outputs layer to: [" +
                                      out.string() + "]\n"));
    const std::string bytes = ReadFile(out);
    const auto want = golden["outputs"]["code"].get<std::vector<float>>();
    REQUIRE(bytes.size() == want.size() * sizeof(float));
    for (size_t i = 0; i < want.size(); ++i) {
      float got;
      std::memcpy(&got, bytes.data() + i * sizeof(float), sizeof(float));
      CHECK(got == Approx(want[i]).margin(1e-5));
    }
  }
  const CommandResult unwritable = Run(fmt::format(
      "--graph={} --signature_to_run_for=encode --output_filepath=/nonexistent/dir/o.bin "
      "--num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0", TwoSignatures()));
  CHECK(unwritable.exit_code == 1);
  CHECK_THAT(unwritable.err, Catch::Contains("cannot write the outputs to '/nonexistent/dir/o.bin' "
                                             "(--output_filepath)"));
}

// The first signature (two inputs, two outputs) on TFLite's inputs; the outputs as a
// tensorflow.Example (features keyed by tensor name, float_list = 2, packed values).
TEST_CASE("benchmark_model --output_proto_filepath writes the outputs as a tf.Example") {
  std::ifstream golden_file(std::string(TFI_SOURCE_DIR) + "/testdata/goldens/two_signatures.json");
  const auto golden = nlohmann::json::parse(golden_file)["decode"];
  std::vector<std::string> files;
  for (const char* name : {"code", "extra"}) {
    const fs::path path = TempDir() / (std::string(name) + ".bin");
    const auto values = golden["inputs"][name].get<std::vector<float>>();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
    files.push_back(path.string());
  }
  const fs::path out = TempDir() / "outputs.pb";
  const CommandResult r = Run(fmt::format(
      "--graph={} --signature_to_run_for=decode --input_layer=decode_extra:0,decode_code:0 "
      "--input_layer_shape=1,2:1,3 --input_layer_value_files=decode_extra::0:{},decode_code::0:{} "
      "--output_proto_filepath={} --num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0",
      TwoSignatures(), files[1], files[0], out.string()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  testing::ProtoFields example, features;
  REQUIRE(testing::ParseProto(ReadFile(out), &example));
  REQUIRE(testing::ParseProto(example.All(1).at(0), &features));
  // Tensor names of the signature outputs "norm" and "out" (PartitionedCall:0 and :1).
  std::map<std::string, std::string> by_name;
  for (const std::string& entry_bytes : features.All(1)) {
    testing::ProtoFields entry;
    REQUIRE(testing::ParseProto(entry_bytes, &entry));
    by_name[entry.All(1).at(0)] = entry.All(2).at(0);
  }
  REQUIRE(by_name.size() == 2);
  for (const auto& [tensor, signature_name] :
       {std::pair<std::string, std::string>{"PartitionedCall:0", "norm"}, {"PartitionedCall:1", "out"}}) {
    CAPTURE(tensor);
    REQUIRE(by_name.count(tensor) == 1);
    testing::ProtoFields feature, list;
    REQUIRE(testing::ParseProto(by_name[tensor], &feature));
    REQUIRE(testing::ParseProto(feature.All(2).at(0), &list));  // float_list
    const std::string packed = list.All(1).at(0);
    const auto want = golden["outputs"][signature_name].get<std::vector<float>>();
    REQUIRE(packed.size() == want.size() * sizeof(float));
    for (size_t i = 0; i < want.size(); ++i) {
      CHECK(testing::ProtoValue<float>(packed.substr(i * 4, 4)) ==
            Approx(want[i]).epsilon(1e-5).margin(1e-5));
    }
  }
}

TEST_CASE("benchmark_model --print_preinvoke_state cuts names to the display lengths") {
  const CommandResult r = Run(fmt::format(
      "--graph={} --signature_to_run_for=encode --print_preinvoke_state --num_runs=1 "
      "--warmup_runs=0 --min_secs=0 --warmup_min_secs=0 --tensor_name_display_length=6 "
      "--tensor_type_display_length=4 --alloc_type_display_length=9", TwoSignatures()));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  // "encode_x:0" (float32, kTfLiteArenaRw) shown as its first 6, 4 and 9 characters.
  CHECK(HasLine(r.out, std::regex(R"(INFO: Tensor +\d+ encode FLOA kTfLiteAr +16 bytes \[1,4\])")));
  CHECK_THAT(r.out, Catch::Contains("INFO: Tensor name display length: [6]\n"));
}

}  // namespace
