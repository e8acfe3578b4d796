// benchmark_model's library: TFLite's stat line format, percentiles, input-layer flags,
// TFLite-style flag invocations, the op-profile tables, the JSON document and the CI gate.
#include <chrono>
#include <cstdio>
#include <regex>
#include <string>
#include <thread>
#include <utility>

#include "benchmark/benchmark_model.h"
#include "benchmark/benchmark_flags.h"
#include "benchmark/benchmark_json.h"
#include "benchmark/input_layers.h"
#include "benchmark/op_profiler.h"
#include "benchmark/regression_gate.h"
#include "catch2/catch.hpp"
#include "cli/flags.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite_inspect {
namespace {

TEST_CASE("Stat prints TFLite's line formats") {
  Stat<int64_t> s;
  CHECK(s.ToString() == "count=0");
  s.UpdateStat(100);
  CHECK(s.ToString() == "count=1 curr=100");
  s.UpdateStat(100);
  CHECK(s.ToString() == "count=2 curr=100(all same)");
  Stat<int64_t> t;
  for (int64_t v : {1000, 1200, 900, 1100}) t.UpdateStat(v);
  // avg 1050, population std sqrt(12500) = 111.8 -> printed as int64.
  CHECK(t.ToString() == "count=4 first=1000 curr=1100 min=900 max=1200 avg=1050 std=111");
  const std::regex tflite_line(
      R"(count=\d+ first=\d+ curr=\d+ min=\d+ max=\d+ avg=[\d.e+]+ std=\d+)");
  CHECK(std::regex_match(t.ToString(), tflite_line));
  CHECK(t.Percentile(50) == 1000);
  CHECK(t.Percentile(90) == 1200);
  CHECK(t.Percentile(0) == 900);
  CHECK(t.coefficient_of_variation() == Approx(111.803 / 1050).epsilon(1e-4));
}

TEST_CASE("input layer flags parse as TFLite's and name the item at fault") {
  auto ok = ParseInputLayers("in1,in2", "1,224,224,3:1,10", "in2,0,254", "in1:/tmp/a.bin");
  REQUIRE(ok.ok());
  REQUIRE(ok->size() == 2);
  CHECK(ok.value()[0].shape == std::vector<int>{1, 224, 224, 3});
  CHECK(ok.value()[0].input_file_path == "/tmp/a.bin");
  CHECK(ok.value()[1].has_value_range);
  CHECK(ok.value()[1].high == 254);
  CHECK(ParseInputLayers("", "", "", "").value().empty());
  auto mismatch = ParseInputLayers("in1,in2", "1,2", "", "");
  REQUIRE_FALSE(mismatch.ok());
  CHECK_THAT(mismatch.status().message(),
             Catch::StartsWith("The number of items in --input_layer_shape (1,2, with 1 items) "
                               "must match the number of items in --input_layer (in1,in2, with 2 "
                               "items)."));
  CHECK_THAT(ParseInputLayers("a", "1,-1", "", "").status().message(),
             Catch::Contains("Any unknown sizes in the shapes (-1's)"));
  CHECK_THAT(ParseInputLayers("a", "1,x", "", "").status().message(),
             Catch::Contains("incorrect size string '1,x'"));
  CHECK_THAT(ParseInputLayers("a", "1", "b,0,1", "").status().message(),
             Catch::Contains("input 'b' is not in --input_layer"));
  CHECK_THAT(ParseInputLayers("a", "1", "a,0", "").status().message(),
             Catch::Contains("'a,0' is not name,low,high"));
  CHECK_THAT(ParseInputLayers("a", "1", "", "a").status().message(),
             Catch::Contains("'a' is not name:path"));
  // TFLite's escape: "::" is a ':' of the name (or of the path).
  auto escaped = ParseInputLayers("serving_default_x:0,y", "1,4:2", "",
                                  "serving_default_x::0:/tmp/x.bin,y:/tmp/c::d.bin");
  REQUIRE(escaped.ok());
  CHECK(escaped.value()[0].input_file_path == "/tmp/x.bin");
  CHECK(escaped.value()[1].input_file_path == "/tmp/c:d.bin");
  CHECK_THAT(ParseInputLayers("x:0", "1", "", "x:0:/tmp/x.bin").status().message(),
             Catch::Contains("x:0:/tmp/x.bin contains more than one delimiter"));
}

TEST_CASE("random inputs follow TFLite's ranges and are reproducible") {
  TfLiteTensor t{};
  t.type = kTfLiteInt8;
  t.dims = TfLiteIntArrayCreate(1);
  t.dims->data[0] = 1000;
  t.bytes = 1000;
  auto a = MakeInputData(t, nullptr, 3, 0);
  auto b = MakeInputData(t, nullptr, 3, 0);
  REQUIRE(a.ok());
  CHECK(a.value() == b.value());
  for (uint8_t v : a.value()) CHECK(static_cast<int8_t>(v) >= -127);
  InputLayerInfo range;
  range.has_value_range = true;
  range.low = 5;
  range.high = 6;
  auto c = MakeInputData(t, &range, 3, 0);
  for (uint8_t v : c.value()) CHECK((v == 5 || v == 6));
  TfLiteIntArrayFree(t.dims);
}

// Parses a TFLite-style command line with every benchmark and delegate flag.
struct Parsed {
  BenchmarkOptions options;
  BenchmarkToolOptions tool;
  DelegateRegistry registry = DelegateRegistry::Default();
  int rc = -1;
};

std::unique_ptr<Parsed> Parse(std::vector<const char*> args) {
  auto p = std::make_unique<Parsed>();
  CLI::App app{"t", "benchmark_model"};
  AddBenchmarkFlags(app, &p->options, &p->tool);
  p->registry.AddFlags(app);
  args.insert(args.begin(), "benchmark_model");
  p->rc = ParseFlags(app, static_cast<int>(args.size()), args.data());
  CollectGivenFlags(app, &p->options);
  return p;
}

TEST_CASE("TFLite-style invocations from the upstream docs parse") {
  auto p = Parse({"--graph=your_model.tflite", "--num_threads=4", "--warmup_runs=1",
                  "--num_runs=50", "--enable_op_profiling=true", "--verbose=false",
                  "--max_delegated_partitions", "2", "--print_preinvoke_state", "false",
                  "--report_peak_memory_footprint", "--input_layer=input",
                  "--input_layer_shape=1,224,224,3", "--op_profiling_output_mode=csv"});
  REQUIRE(p->rc == -1);
  CHECK(p->options.graph == "your_model.tflite");
  CHECK(p->options.num_threads == 4);
  CHECK(p->options.enable_op_profiling);
  CHECK_FALSE(p->options.verbose);
  CHECK_FALSE(p->options.print_preinvoke_state);
  CHECK(p->options.report_peak_memory_footprint);
  CHECK(p->options.op_profiling_output_mode == "csv");
  CHECK(p->registry.common().max_delegated_partitions == 2);
  const auto lines = BenchmarkParamLines(p->options);
  CHECK(lines.front() == "Log parameter values verbosely: [0]");
  CHECK(std::find(lines.begin(), lines.end(), "Num threads: [4]") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "Graph: [your_model.tflite]") != lines.end());
  // Not given, not verbose: not echoed.
  CHECK(std::find(lines.begin(), lines.end(), "Max runs duration (seconds): [150]") == lines.end());
  auto defaults = Parse({"--graph", "m.tflite", "--verbose"});
  CHECK(defaults->options.num_runs == 50);
  CHECK(defaults->options.min_secs == 1.0f);
  CHECK(defaults->options.max_secs == 150.0f);
  CHECK(defaults->options.warmup_runs == 1);
  CHECK(defaults->options.warmup_min_secs == 0.5f);
  CHECK(defaults->options.num_threads == -1);
  const auto all = BenchmarkParamLines(defaults->options);
  CHECK(std::find(all.begin(), all.end(), "Max runs duration (seconds): [150]") != all.end());
  CHECK(Parse({"--graph=m", "--op_profiling_output_mode=proto"})->rc != kExitUsage);
  CHECK(Parse({"--graph=m", "--op_profiling_output_mode=xml"})->rc == kExitUsage);
  CHECK(Parse({"--graph=m", "--num_thread=4"})->rc == kExitUsage);
}

nlohmann::json Synthetic(double p50, double std, int64_t n, int threads = 1) {
  return {{"inference", {{"p50", p50}, {"std", std}, {"count", n}}},
          {"configuration", {{"model_sha256", "ab12"},
                             {"signature", ""},
                             {"num_threads", threads},
                             {"inputs", {"x FLOAT32[1,4]"}},
                             {"delegates", {"XNNPACK"}},
                             {"delegate_params", {"Use xnnpack: [0]"}}}}};
}

TEST_CASE("the regression gate weighs the slowdown against the limit and the noise") {
  // 10% slower, little noise: a regression beyond 5%.
  GateVerdict v = CheckRegression(Synthetic(1000, 10, 50), Synthetic(1100, 10, 50), 5.0);
  CHECK(v.kind == GateVerdict::kRegression);
  CHECK(v.change_pct == Approx(10.0));
  CHECK_THAT(v.line, Catch::StartsWith("REGRESSION: median 1100 us vs baseline 1000 us (+10.0%)"));
  // Within the limit.
  CHECK(CheckRegression(Synthetic(1000, 10, 50), Synthetic(1030, 10, 50), 5.0).kind ==
        GateVerdict::kPass);
  // Faster is fine.
  CHECK(CheckRegression(Synthetic(1000, 10, 50), Synthetic(800, 10, 50), 5.0).kind ==
        GateVerdict::kPass);
  // 10% slower but the runs are so noisy (std 400 us over 10 runs) that it is not shown.
  GateVerdict noisy = CheckRegression(Synthetic(1000, 400, 10), Synthetic(1100, 400, 10), 5.0);
  CHECK(noisy.kind == GateVerdict::kPass);
  CHECK(noisy.noise_pct > 10.0);
  // Too few runs: inconclusive, which fails the gate.
  GateVerdict few = CheckRegression(Synthetic(1000, 10, 3), Synthetic(1000, 10, 50), 5.0);
  CHECK(few.kind == GateVerdict::kInconclusive);
  CHECK(few.failed());
  // Not benchmark JSON.
  GateVerdict bad = CheckRegression(nlohmann::json{{"x", 1}}, Synthetic(1000, 10, 50), 5.0);
  CHECK(bad.kind == GateVerdict::kInvalid);
  CHECK_THAT(bad.line, Catch::Contains("the baseline JSON has no inference.p50"));
}

TEST_CASE("the regression gate refuses a baseline of another model or configuration") {
  const nlohmann::json baseline = Synthetic(1000, 10, 50, 4);
  nlohmann::json current = Synthetic(1000, 10, 50, 1);
  GateVerdict v = CheckRegression(baseline, current, 5.0);
  CHECK(v.kind == GateVerdict::kInvalid);
  CHECK(v.line == "INVALID: baseline is for another model/configuration: num_threads: 4 in the "
                  "baseline, 1 now (rerun the baseline with these settings, or "
                  "--allow_baseline_mismatch)");
  // Allowed: compared anyway, and the difference is kept for the warning.
  v = CheckRegression(baseline, current, 5.0, /*allow_mismatch=*/true);
  CHECK(v.kind == GateVerdict::kPass);
  CHECK(v.mismatch == "num_threads: 4 in the baseline, 1 now");
  // Lists name the first entry that differs; every difference is given.
  current = Synthetic(1000, 10, 50, 4);
  current["configuration"]["model_sha256"] = "cd34";
  current["configuration"]["inputs"] = {"x FLOAT32[1,8]"};
  current["configuration"]["delegate_params"] = {"Use xnnpack: [1]"};
  CHECK(ConfigurationDifferences(baseline, current) ==
        std::vector<std::string>{"model_sha256: ab12 in the baseline, cd34 now",
                                 "inputs: x FLOAT32[1,4] in the baseline, x FLOAT32[1,8] now",
                                 "delegate_params: Use xnnpack: [0] in the baseline, Use "
                                 "xnnpack: [1] now"});
  // Kernel-cache locations change the start-up only: not part of the configuration.
  {
    BenchmarkOptions options;
    options.delegate_params = {"Use gpu: [1]", "GPU cache dir: [/tmp/a]",
                               "Delegate serialize token: [t]"};
    BenchmarkResult result;
    CHECK(BenchmarkConfigurationJson(options, result)["delegate_params"] ==
          nlohmann::json::array({"Use gpu: [1]"}));
  }
  // TFLite's parameters taken with no effect here are left out too (baselines from before
  // the tool took them still compare); XNNPACK's runtime flags only when 0.
  {
    BenchmarkOptions options;
    options.delegate_params = {"Use xnnpack: [0]", "xnnpack_weight_cache_file_path: [/tmp/w]",
                               "Use Slinky: [1]", "Extra flags for XNNPACK runtime: [0]",
                               "Prefer maximizing the throughput in gpu: [1]",
                               "GPU delegate wait type: [active]"};
    BenchmarkResult result;
    CHECK(BenchmarkConfigurationJson(options, result)["delegate_params"] ==
          nlohmann::json::array({"Use xnnpack: [0]"}));
    options.delegate_params = {"Extra flags for XNNPACK runtime: [16]"};
    CHECK(BenchmarkConfigurationJson(options, result)["delegate_params"] ==
          nlohmann::json::array({"Extra flags for XNNPACK runtime: [16]"}));
  }
  // A baseline without the record (an older tool's JSON) cannot be trusted either.
  nlohmann::json old = baseline;
  old.erase("configuration");
  CHECK_THAT(CheckRegression(old, current, 5.0).line,
             Catch::Contains("the baseline records no configuration"));
}

// A delegate's own operators (DELEGATE_OPERATOR_INVOKE_EVENT, inside its kernel node's
// event) go to TFLite's "Delegate internal:" tables, named "tag:node" and typed by tag;
// they do not add to the nodes' run total.
TEST_CASE("op profiling: a delegate's operators get the Delegate internal tables") {
  auto model = tflite::FlatBufferModel::BuildFromFile(
      (std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite").c_str());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver)(&interpreter) == kTfLiteOk);
  OpProfiler profiler(interpreter.get());
  using Type = tflite::Profiler::EventType;
  for (int run = 0; run < 2; ++run) {
    profiler.StartRun();
    const uint32_t node = profiler.BeginEvent("CONV_2D", Type::OPERATOR_INVOKE_EVENT, 0, 0);
    // The last two: one tag, two nodes (two rows of one type).
    const std::pair<const char*, int> ops[] = {
        {"XNNPACK runtime", 2}, {"CONV_2D", 3}, {"CONV_2D", 4}};
    for (const auto& [tag, index] : ops) {
      const uint32_t op = profiler.BeginEvent(tag, Type::DELEGATE_OPERATOR_INVOKE_EVENT, index, 0);
      // TFLite counts a run for the delegate's tables where its operators took time.
      std::this_thread::sleep_for(std::chrono::microseconds(300));
      profiler.EndEvent(op);
    }
    profiler.EndEvent(node);
    // Other event types are not operators.
    profiler.EndEvent(profiler.BeginEvent("x", Type::GENERAL_RUNTIME_INSTRUMENTATION_EVENT, 0, 0));
    profiler.EndRun();
  }
  CHECK(profiler.details().size() == 1);
  REQUIRE(profiler.delegate_details().size() == 3);
  CHECK(profiler.delegate_details().count("XNNPACK runtime:2") == 1);
  CHECK(profiler.delegate_details().count("CONV_2D:3") == 1);
  CHECK(profiler.delegate_details().count("CONV_2D:4") == 1);
  CHECK(profiler.delegate_details().at("CONV_2D:3").times_called == 2);
  CHECK(profiler.run_total_us().count() == 2);
  const std::string text = profiler.Summary(false);
  const size_t internal = text.find("Delegate internal: \n");
  REQUIRE(internal != std::string::npos);
  CHECK(text.find("1 nodes observed") < internal);
  CHECK(text.find("3 nodes observed", internal) != std::string::npos);
  CHECK(text.find("XNNPACK runtime:2", internal) != std::string::npos);
  CHECK(std::regex_search(text.substr(internal), std::regex(R"(\t\s+CONV_2D\t\s+2\t)")));
  const std::string csv = profiler.Summary(true);
  const size_t csv_internal = csv.find("Delegate internal: \n");
  REQUIRE(csv_internal != std::string::npos);
  CHECK(csv.find(", CONV_2D:3\n", csv_internal) != std::string::npos);
}

TEST_CASE("a benchmark run reports TFLite's figures, op profile and JSON") {
  BenchmarkOptions options;
  options.graph = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite";
  options.num_runs = 5;
  options.min_secs = 0;
  options.warmup_runs = 2;
  options.warmup_min_secs = 0;
  options.enable_op_profiling = true;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  DelegateRegistry registry = DelegateRegistry::Default();
  std::vector<std::string> info;
  BenchmarkLog log;
  log.info = [&](const std::string& l) { info.push_back(l); };
  log.error = log.info;
  // Our builtin kernels, whose ops the profile names (XNNPACK would take the whole graph).
  CLI::App app;
  registry.AddFlags(app);
  const char* argv[] = {"benchmark_model", "--use_xnnpack=false"};
  app.parse(2, argv);
  auto r = RunBenchmark(options, resolver, registry.Plan(app), log);
  REQUIRE(r.ok());
  CHECK(r->inference_us.count() == 5);
  CHECK(r->warmup_us.count() == 2);
  CHECK(r->model_sha256.size() == 64);
  const auto end = EndOfRunLines(r.value());
  CHECK(std::regex_match(end[0], std::regex(R"(Inference timings in us: Init: \d+, First inference: \d+, Warmup \(avg\): [\d.e+]+, Inference \(avg\): [\d.e+]+)")));
  CHECK_THAT(r->op_profile, Catch::Contains("============================== Run Order =============================="));
  CHECK_THAT(r->op_profile, Catch::Contains("Summary by node type"));
  CHECK_THAT(r->op_profile, Catch::Contains("CONV_2D"));
  const nlohmann::json j = BenchmarkResultToJson(options, r.value());
  CHECK(j["schema"] == kBenchmarkJsonSchema);
  CHECK(j["inference"]["runs_us"].size() == 5);
  CHECK(j["inference"].contains("p99"));
  CHECK(j["model"]["sha256"] == r->model_sha256);
  CHECK(j["init_us"]["total"].get<int64_t>() >= j["init_us"]["allocate_tensors"].get<int64_t>());
  // A run against itself passes the gate.
  CHECK(CheckRegression(j, j, 5.0).kind == GateVerdict::kPass);
}

}  // namespace
}  // namespace tflite_inspect
