// inference_diff: exit 0 within the thresholds (or none given), 1 beyond them, when a
// model cannot run or a flag's value cannot be read (as TFLite's), 2 other usage errors.
#include "inference_diff/inference_diff_main.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "diff/inference_diff.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"

namespace tflite_inspect {

namespace {

// TFLite's --delegate=NAME: the delegate flag it stands for here, in the same place on
// the command line (delegates apply in flag order). "" keeps the argument as it is;
// a value TFLite's tool does not know, or a delegate this platform lacks, is an error.
Result<std::string> DelegateFlagFor(const std::string& name) {
  if (name.empty()) return std::string();
  if (name == "xnnpack") return std::string("--use_xnnpack=true");
  if (name == "gpu") return std::string("--use_gpu=true");
  if (name == "nnapi" || name == "hexagon" || name == "coreml") {
    return Status(StatusCode::kUnsupported,
                  "--delegate=" + name + ": " +
                      (name == "coreml" ? "Core ML exists on Apple platforms only"
                                        : std::string(name == "nnapi" ? "NNAPI" : "Hexagon") +
                                              " exists on Android only") +
                      "; this build has XNNPACK (--delegate=xnnpack), GPU (--delegate=gpu) and "
                      "external delegates (--external_delegate_path)");
  }
  return Status(StatusCode::kUnsupported, "Unsupported TFLite delegate: " + name);
}

}  // namespace

int InferenceDiffMain(int argc, const char* const* argv) {
  // --delegate=NAME / --delegate NAME become the delegate's own flag before parsing.
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size(); ++i) {
    std::string value;
    size_t consumed = 1;
    if (args[i].rfind("--delegate=", 0) == 0) {
      value = args[i].substr(11);
    } else if (args[i] == "--delegate" && i + 1 < args.size()) {
      value = args[i + 1];
      consumed = 2;
    } else {
      continue;
    }
    auto flag = DelegateFlagFor(value);
    if (!flag.ok()) {
      std::cerr << "inference_diff: error: " << flag.status().message() << "\n";
      return kExitInvalidModel;
    }
    args.erase(args.begin() + i, args.begin() + i + consumed);
    if (!flag->empty()) args.insert(args.begin() + i, flag.value());
    --i;
  }
  std::vector<const char*> arg_ptrs;
  for (const auto& a : args) arg_ptrs.push_back(a.c_str());
  argc = static_cast<int>(arg_ptrs.size());
  argv = arg_ptrs.data();

  CLI::App app{"inference_diff: the test side (delegates, threads, or another model) against "
               "a CPU reference", "inference_diff"};
  DiffOptions options;
  std::string input_files, output_file_path, output_json;
  double max_abs = -1, max_rel = -1;
  ModelFlag model_arg;  // TFLite's --model_file, --graph, or a plain argument
  AddModelFlag(app, &model_arg, "--model_file");
  app.add_option("--reference_model_file", options.reference_model_file,
                 "Optional second model as the reference (two conversions of one network)");
  app.add_option("--num_runs", options.num_runs, "Runs, each with new random inputs (default 50)");
  AddResourceLimitFlags(app, &options.limits);
  AddNumThreadsFlag(app, "--num_interpreter_threads", &options.num_interpreter_threads,
                    "Threads of the test interpreter (the reference uses 1; 0 means 1, -1 the "
                    "runtime's choice)");
  app.add_option("--seed", options.seed, "Seed of the random inputs (run r uses seed + r)");
  app.add_option("--input_files", input_files,
                 "Comma-separated raw input files used for every run instead of random inputs");
  app.add_option("--output_file_path", output_file_path,
                 "Write TFLite's metrics proto (tflite.evaluation.EvaluationStageMetrics, "
                 "binary) here, as TFLite's tool");
  app.add_option("--output_json", output_json, "Write the whole report as JSON here");
  std::string delegate_name;  // never set: --delegate is rewritten before parsing (above)
  app.add_option("--delegate", delegate_name,
                 "TFLite's: the delegate of the test side: xnnpack, gpu (nnapi, hexagon, "
                 "coreml: not on this platform); same as its --use_* flag");
  app.add_option("--invocations_per_run", options.invocations_per_run,
                 "Invocations of each side per run, timed together (default 3, as TFLite)");
  app.add_option("--max_abs_error", max_abs, "Fail when an output's max abs error exceeds this");
  app.add_option("--max_rel_error", max_rel, "Fail when an output's max rel error exceeds this");
  AddBoolFlag(app, "--per_node", &options.per_node,
              "Compare every intermediate tensor and name the first node or partition off");
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  DelegateRegistry registry = DelegateRegistry::Default();
  registry.AddFlags(app);
  bool strict_flags = false;
  AddStrictFlagsFlag(app, &strict_flags);
  // TFLite's run_eval parses as benchmark_model does: a flag given twice keeps its first
  // value, an unknown one is warned about and the run goes on; a value it cannot read
  // fails (exit 1).
  std::vector<std::string> unknown;
  auto tflite_failure = [&](const std::string& line, const std::string& reason) {
    std::cerr << "ERROR: " << line << "\n";
    PrintUsageError(app, reason);
    return kExitInvalidModel;
  };
  if (int rc = ParseFlagsAsTflite(app, argc, argv, &unknown, tflite_failure); rc >= 0) return rc;
  if (int rc = RefuseUnknownFlags(app, unknown, strict_flags); rc >= 0) return rc;
  for (const auto& line : UnconsumedFlagWarnings(app, unknown))
    std::cerr << "WARN: " << line << "\n";
  std::string model_error;
  options.model_file = ModelPath(model_arg, "inference_diff", &model_error);
  if (options.model_file.empty()) {
    std::cerr << model_error << "\n";
    return kExitUsage;
  }
  if (max_abs >= 0) options.max_abs_error = max_abs;
  if (max_rel >= 0) options.max_rel_error = max_rel;
  std::stringstream ss(input_files);
  for (std::string f; std::getline(ss, f, ',');) {
    if (!f.empty()) options.input_files.push_back(f);
  }
  CustomOpLibraryHandles plugins;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (Status st = AddCustomOpLibraries(custom_ops.custom_ops, custom_ops.custom_op_library,
                                       &resolver, &plugins);
      !st.ok()) {
    std::cerr << "inference_diff: error: " << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& note : registry.FlagNotes()) std::cerr << "WARN: " << note << "\n";
  auto result = RunInferenceDiff(options, resolver, registry.Plan(app));
  if (!result.ok()) {
    std::cerr << "inference_diff: error: " << result.status().message() << "\n";
    if (auto hint = UnresolvedCustomOpHint(result.status().message()); !hint.empty()) {
      std::cerr << "inference_diff: " << hint << "\n";
    }
    return result.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitInvalidModel;
  }
  for (const auto& line : DiffReportText(options, result.value())) std::cout << line << "\n";
  // TFLite's lines last, as its tool prints them (scripts parse "OutputDiff[0]: ...").
  for (const auto& line : TfliteSummaryLines(result.value())) std::cout << "INFO: " << line << "\n";
  auto write = [](const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f << bytes;
    if (!f) std::cerr << "inference_diff: error: cannot write '" << path << "'\n";
    return static_cast<bool>(f);
  };
  if (!output_file_path.empty() && !write(output_file_path, TfliteMetricsProto(result.value()))) {
    return kExitInvalidModel;
  }
  if (!output_json.empty() &&
      !write(output_json, DiffReportJson(options, result.value()).dump(2) + "\n")) {
    return kExitInvalidModel;
  }
  const bool node_off = options.per_node && result->first_bad_node >= 0 &&
                        (options.max_abs_error || options.max_rel_error);
  return result->exceeded || node_off ? kExitInvalidModel : kExitOk;
}

}  // namespace tflite_inspect
