// tflite-inspect run: runs a model once and writes every output tensor.
#include "run/run_main.h"

#include <iostream>
#include <sstream>

#include "cli/flags.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"
#include "tools/resource_limits.h"
#include "tools/run_model.h"

namespace tflite_inspect {

int RunMain(int argc, const char* const* argv) {
  CLI::App app{"run: one inference; writes DIR/output_<i>.bin and DIR/outputs.json", "run"};
  RunOptions options;
  std::string input_files, output_dir;
  ModelFlag model_arg;
  AddModelFlag(app, &model_arg);
  app.add_option("--input_files", input_files,
                 "Comma-separated raw input files, in the order of the model's inputs");
  app.add_option("--seed", options.seed, "Seed of generated inputs (default 1)");
  app.add_option("--signature", options.signature,
                 "Run this signature of the model (its subgraph, inputs and outputs; default: "
                 "the first subgraph), as TFLite's SignatureRunner");
  AddNumThreadsFlag(app, "--num_threads", &options.num_threads,
                    "Threads for kernels (default 1; 0 means 1, -1 the runtime's choice)");
  app.add_option("--output_dir", output_dir, "Folder for the outputs")->required();
  AddResourceLimitFlags(app, &options.limits);
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  DelegateRegistry delegate_registry = DelegateRegistry::Default();
  delegate_registry.AddFlags(app);
  bool verbose = false;
  app.add_flag("--verbose", verbose, "Print delegate parameters and TFLite's replacement log");
  if (int rc = ParseFlags(app, argc, argv); rc >= 0) return rc;
  std::string model_error;
  options.graph = ModelPath(model_arg, "run", &model_error);
  if (options.graph.empty()) {
    std::cerr << model_error << "\n";
    return kExitUsage;
  }
  options.delegates = delegate_registry.Plan(app);
  for (const auto& line : delegate_registry.LogParams(verbose)) std::cerr << line << "\n";
  for (const auto& note : delegate_registry.FlagNotes()) std::cerr << "WARN: " << note << "\n";
  std::stringstream ss(input_files);
  for (std::string f; std::getline(ss, f, ',');) {
    if (!f.empty()) options.input_files.push_back(f);
  }
  CustomOpLibraryHandles plugins;  // outlives the resolver and the run
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (Status st = AddCustomOpLibraries(custom_ops.custom_ops, custom_ops.custom_op_library,
                                       &resolver, &plugins);
      !st.ok()) {
    std::cerr << "run: error: " << st.message() << "\n";
    return kExitUsage;
  }
  auto result = RunModel(options, resolver);
  if (!result.ok()) {
    std::cerr << "run: error: " << result.status().message() << "\n";
    if (auto hint = UnresolvedCustomOpHint(result.status().message()); !hint.empty()) {
      std::cerr << "run: " << hint << "\n";
    }
    return result.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitInvalidModel;
  }
  if (Status st = WriteRunResult(result.value(), output_dir); !st.ok()) {
    std::cerr << "run: error: " << st.message() << "\n";
    return kExitInvalidModel;
  }
  for (const auto& d : result->delegates) {
    if (d.status != kTfLiteOk) {
      std::cerr << "run: warning: delegate " << d.label << " not applied, running without it: "
                << d.message << "\n";
    }
  }
  if (verbose) {
    for (const auto& line : result->delegate_log) std::cerr << line << "\n";
  }
  for (const auto& o : result->outputs) {
    std::cout << "output " << o.index << " '" << o.name << "': " << o.data.size() << " bytes -> "
              << output_dir << "/output_" << o.index << ".bin\n";
  }
  return kExitOk;
}

}  // namespace tflite_inspect
