// benchmark_model: parses flags, runs lib/benchmark, prints TFLite's log lines, writes
// JSON and applies the CI gate. Exit codes: 0 ok, 1 model / run failure, 2 usage,
// 3 the CI gate failed (regression, or too few runs to tell).
#include "benchmark_model/benchmark_model_main.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "benchmark/benchmark_model.h"
#include "benchmark/benchmark_flags.h"
#include "benchmark/benchmark_json.h"
#include "benchmark/regression_gate.h"
#include "cli/flags.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"
#include "tools/delegate_provider.h"
#include "tools/target_runtime.h"

namespace tflite_inspect {
namespace {

constexpr int kExitGateFailed = 3;

void Info(const std::string& line) { std::cout << "INFO: " << line << std::endl; }
void Error(const std::string& line) { std::cerr << "ERROR: " << line << std::endl; }

bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  return static_cast<bool>(f);
}

}  // namespace

int BenchmarkModelMain(int argc, const char* const* argv) {
  CLI::App app{"benchmark_model: latency, memory and op profile of a .tflite model",
               "benchmark_model"};
  BenchmarkOptions options;
  BenchmarkToolOptions tool;
  AddBenchmarkFlags(app, &options, &tool);
  // Ours: the model as the first argument too (`benchmark_model m.tflite --num_runs=5`).
  // Elsewhere a bare word stays what TFLite makes of it (an unconsumed argument: in
  // `--foo bar`, TFLite's "Unconsumed cmdline flags: --foo bar").
  std::string positional_model;
  std::vector<const char*> args(argv, argv + argc);
  if (args.size() > 1 && args[1][0] != '-') {
    positional_model = args[1];
    args.erase(args.begin() + 1);
    argc = static_cast<int>(args.size());
    argv = args.data();
  }
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  DelegateRegistry registry = DelegateRegistry::Default();
  registry.AddFlags(app);
  AddTargetRuntimeFlag(app, &options.target_runtime);
  bool strict_flags = false;
  AddStrictFlagsFlag(app, &strict_flags);
  std::vector<std::string> unknown;
  // A value TFLite's parser cannot read either: its lines and exit code (1), then ours.
  auto tflite_failure = [&](const std::string& line, const std::string& reason) {
    Info("STARTING!");
    Error(line);
    PrintUsageError(app, reason);
    Error("Benchmarking failed.");
    return kExitInvalidModel;
  };
  if (int rc = ParseFlagsAsTflite(app, argc, argv, &unknown, tflite_failure); rc >= 0) {
    return rc;
  }
  if (int rc = RefuseUnknownFlags(app, unknown, strict_flags); rc >= 0) return rc;
  if (!positional_model.empty()) {
    // No model at all keeps TFLite's own message (RunBenchmark), so only this case here.
    std::string model_error;
    options.graph = ModelPath({options.graph, "", positional_model}, app.get_name(), &model_error);
    if (options.graph.empty()) {
      std::cerr << model_error << "\n";
      return kExitUsage;
    }
  }
  CollectGivenFlags(app, &options);
  options.show_progress = isatty(STDERR_FILENO) && isatty(STDOUT_FILENO);

  Info("STARTING!");
  for (const auto& line : UnconsumedFlagWarnings(app, unknown)) {
    std::cout << "WARN: " << line << std::endl;
  }
  for (const auto& line : BenchmarkParamLines(options)) Info(line);
  for (const auto& line : registry.LogParams(options.verbose)) Info(line);
  // TFLite's flags taken for compatibility that change nothing here: what happens instead.
  for (const auto& note : BenchmarkFlagNotes(options)) std::cout << "WARN: " << note << std::endl;
  for (const auto& note : registry.FlagNotes()) std::cout << "WARN: " << note << std::endl;

  // The baseline is read first: a missing or broken one must not cost a whole benchmark.
  nlohmann::json baseline;
  if (!tool.baseline.empty()) {
    std::ifstream f(tool.baseline);
    if (!f) {
      Error(fmt::format("cannot read the baseline '{}': {}", tool.baseline, std::strerror(errno)));
      return kExitUsage;
    }
    try {
      baseline = nlohmann::json::parse(f);
    } catch (const nlohmann::json::exception& e) {
      Error(fmt::format("cannot read the baseline '{}': {}", tool.baseline, e.what()));
      return kExitUsage;
    }
  }
  options.delegate_params = registry.LogParams(/*verbose=*/true);

  CustomOpLibraryHandles plugins;  // outlives the resolver and the interpreter
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (Status st = AddCustomOpLibraries(custom_ops.custom_ops, custom_ops.custom_op_library,
                                       &resolver, &plugins);
      !st.ok()) {
    Error(st.message());
    return kExitUsage;
  }
  BenchmarkLog log;
  log.info = Info;
  log.error = Error;
  log.progress = [](const std::string& line) {
    std::cerr << "\r\033[K" << line << std::flush;
  };
  log.warn = [](const std::string& line) { std::cout << "WARN: " << line << std::endl; };
  auto result = RunBenchmark(options, resolver, registry.Plan(app), log);
  if (!result.ok()) {
    if (!result.status().message().empty()) Error(result.status().message());
    if (auto hint = UnresolvedCustomOpHint(result.status().message()); !hint.empty()) Error(hint);
    Error("Benchmarking failed.");
    return result.status().code() == StatusCode::kInvalidArgument ? kExitUsage
                                                                    : kExitInvalidModel;
  }
  const BenchmarkResult& r = result.value();
  for (const auto& line : EndOfRunLines(r)) Info(line);
  if (!r.inference_us.empty()) {
    Info(fmt::format("Inference percentiles in us: p50={} p90={} p99={}, coefficient of "
                     "variation {:.1f}%", r.inference_us.Percentile(50),
                     r.inference_us.Percentile(90), r.inference_us.Percentile(99),
                     100.0 * r.inference_us.coefficient_of_variation()));
  }
  for (const auto& d : r.delegates) {
    if (d.status == kTfLiteOk) {
      Info(fmt::format("Delegate {}: {} of {} nodes in {} partitions; {} nodes on the CPU",
                       d.label, d.nodes, r.total_nodes, d.partitions, r.cpu_nodes));
    } else {
      Info(fmt::format("Delegate {}: not applied ({})", d.label, d.message));
    }
  }
  if (!options.result_file_path.empty()) {
    // TFLite's lines; a file that cannot be written is an error line, and the run's
    // status stands, as in TFLite.
    Info("Saving benchmark result to: " + options.result_file_path);
    if (WriteText(options.result_file_path, BenchmarkResultProto(r))) {
      Info("Saved benchmark result to: " + options.result_file_path);
    } else {
      Error("Failed to save benchmark result to: " + options.result_file_path);
    }
  }
  if (!r.op_profile_proto.empty()) {
    // As TFLite's ProfileSummaryProtoFormatter: the binary message into the file, or the
    // text format in the log when there is no file.
    const std::string& file = options.op_profiling_output_file;
    if (file.empty()) {
      Info(r.op_profile_proto_text);
    } else if (!WriteText(file, r.op_profile_proto)) {
      Error("cannot write the op profile to '" + file + "'");
      return kExitInvalidModel;
    }
  }
  if (!r.op_profile.empty()) {
    const std::string& file = !options.op_profiling_output_file.empty()
                                  ? options.op_profiling_output_file
                                  : options.profiling_output_csv_file;
    const std::string text = "Operator-wise Profiling Info for Regular Benchmark Runs:\n" +
                             r.op_profile;
    if (file.empty()) {
      std::cout << text;
    } else if (!WriteText(file, text)) {
      Error("cannot write the op profile to '" + file + "'");
      return kExitInvalidModel;
    }
  }
  nlohmann::json json = BenchmarkResultToJson(options, r);
  int rc = kExitOk;
  if (!tool.baseline.empty()) {
    const GateVerdict v = CheckRegression(baseline, json, tool.max_regression_pct,
                                          tool.allow_baseline_mismatch);
    if (!v.mismatch.empty()) {
      std::cout << "WARN: baseline is for another model/configuration (--allow_baseline_mismatch): "
                << v.mismatch << std::endl;
    }
    json["gate"] = {{"baseline", tool.baseline}, {"verdict", v.line},
                    {"failed", v.failed()}, {"change_pct", v.change_pct},
                    {"noise_pct", v.noise_pct}, {"mismatch", v.mismatch}};
    (v.failed() ? std::cerr : std::cout) << v.line << std::endl;
    if (v.kind == GateVerdict::kInvalid) return kExitUsage;
    if (v.failed()) rc = kExitGateFailed;
  }
  if (!tool.output_json.empty() && !WriteText(tool.output_json, json.dump(2) + "\n")) {
    Error("cannot write '" + tool.output_json + "'");
    return kExitInvalidModel;
  }
  return rc;
}

}  // namespace tflite_inspect
