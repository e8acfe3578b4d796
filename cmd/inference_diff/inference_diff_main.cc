// inference_diff: exit 0 within the thresholds (or none given), 1 beyond them or when a
// model cannot run, 2 usage errors.
#include "inference_diff/inference_diff_main.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/flags.h"
#include "diff/inference_diff.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"

namespace tflite_inspect {

int InferenceDiffMain(int argc, const char* const* argv) {
  CLI::App app{"inference_diff: the test side (delegates, threads, or another model) against "
               "a CPU reference", "inference_diff"};
  DiffOptions options;
  std::string graph, input_files, output_file_path;
  double max_abs = -1, max_rel = -1;
  app.add_option("--model_file", options.model_file, "Model to test (.tflite)");
  app.add_option("--graph", graph, "Same as --model_file");
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
  app.add_option("--output_file_path", output_file_path, "Write the report as JSON here");
  app.add_option("--max_abs_error", max_abs, "Fail when an output's max abs error exceeds this");
  app.add_option("--max_rel_error", max_rel, "Fail when an output's max rel error exceeds this");
  AddBoolFlag(app, "--per_node", &options.per_node,
              "Compare every intermediate tensor and name the first node or partition off");
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  DelegateRegistry registry = DelegateRegistry::Default();
  registry.AddFlags(app);
  if (int rc = ParseFlags(app, argc, argv); rc >= 0) return rc;
  if (options.model_file.empty()) options.model_file = graph;
  if (!graph.empty() && graph != options.model_file) {
    std::cerr << "inference_diff: --graph and --model_file name different models\n";
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
  auto result = RunInferenceDiff(options, resolver, registry.Plan(app));
  if (!result.ok()) {
    std::cerr << "inference_diff: error: " << result.status().message() << "\n";
    if (auto hint = UnresolvedCustomOpHint(result.status().message()); !hint.empty()) {
      std::cerr << "inference_diff: " << hint << "\n";
    }
    return result.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitInvalidModel;
  }
  for (const auto& line : DiffReportText(options, result.value())) std::cout << line << "\n";
  if (!output_file_path.empty()) {
    std::ofstream f(output_file_path);
    f << DiffReportJson(options, result.value()).dump(2) << "\n";
    if (!f) {
      std::cerr << "inference_diff: error: cannot write '" << output_file_path << "'\n";
      return kExitInvalidModel;
    }
  }
  const bool node_off = options.per_node && result->first_bad_node >= 0 &&
                        (options.max_abs_error || options.max_rel_error);
  return result->exceeded || node_off ? kExitInvalidModel : kExitOk;
}

}  // namespace tflite_inspect
