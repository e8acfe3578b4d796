// delegate_report: applies the delegates the flags ask for and reports who runs what,
// why the rest stays on the CPU, and the bytes that cross each boundary. No inference.
#include "delegate_report/delegate_report_main.h"

#include <fstream>
#include <iostream>

#include "cli/flags.h"
#include "tools/target_runtime.h"
#include "inspect/inspect_report.h"
#include "report/delegate_report.h"
#include "report/delegate_report_format.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"
#include "tools/resource_limits.h"

namespace tflite_inspect {
namespace {

// One output format: "" not asked for, "-" to stdout, else a file.
struct Output {
  const char* flag;
  std::string path;
};

Status Write(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) return IoError("cannot write '" + path + "'");
  return Status::Ok();
}

}  // namespace

int DelegateReportMain(int argc, const char* const* argv) {
  CLI::App app{
      "delegate_report: which delegate runs which node, why the others stay on the "
      "CPU, and the bytes crossing each CPU<->delegate boundary (no inference)",
      "delegate_report"};
  DelegateReportOptions options;
  ModelFlag model_arg;
  AddModelFlag(app, &model_arg);
  AddNumThreadsFlag(app, "--num_threads", &options.num_threads,
                    "Threads for kernels (default 1; 0 means 1, -1 the runtime's choice)");
  AddResourceLimitFlags(app, &options.limits);
  Output json{"--json", ""}, dot{"--dot", ""}, html{"--html", ""};
  for (Output* o : {&json, &dot, &html}) {
    const std::string what = o == &json  ? "JSON (docs/delegate_report.md)"
                             : o == &dot ? "Graphviz DOT"
                                         : "a self-contained HTML page";
    app.add_option(o->flag, o->path,
                   "Write " + what + " to stdout, or to PATH with " + o->flag + "=PATH")
        ->expected(0, 1)
        ->default_str("-")
        ->option_text("[=PATH]");
  }
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  DelegateRegistry delegate_registry = DelegateRegistry::Default();
  delegate_registry.AddFlags(app);
  bool verbose = false;
  app.add_flag("--verbose", verbose, "Print the delegate parameters to stderr");
  AddTargetRuntimeFlag(app, &options.target_runtime);
  if (int rc = ParseFlags(app, argc, argv); rc >= 0) return rc;
  std::string model_error;
  options.graph = ModelPath(model_arg, "delegate_report", &model_error);
  if (options.graph.empty()) {
    std::cerr << model_error << "\n";
    return kExitUsage;
  }
  options.warn = [](const std::string& w) { std::cerr << "delegate_report: warning: " << w << "\n"; };
  int to_stdout = 0;
  for (const Output* o : {&json, &dot, &html}) to_stdout += o->path == "-";
  if (to_stdout > 1) {
    std::cerr << "delegate_report: only one of --json, --dot, --html can write to stdout; give "
                 "the others a path (--dot=report.dot)\n";
    return kExitUsage;
  }
  options.delegates = delegate_registry.Plan(app);
  for (const auto& line : delegate_registry.LogParams(verbose)) std::cerr << line << "\n";
  for (const auto& note : delegate_registry.FlagNotes()) std::cerr << "WARN: " << note << "\n";
  CustomOpLibraryHandles plugins;  // outlives the resolver and the interpreter
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (Status st = AddCustomOpLibraries(custom_ops.custom_ops, custom_ops.custom_op_library,
                                       &resolver, &plugins);
      !st.ok()) {
    std::cerr << "delegate_report: error: " << st.message() << "\n";
    return kExitUsage;
  }
  auto report = ReportDelegation(options, resolver);
  if (!report.ok()) {
    std::cerr << "delegate_report: error: " << report.status().message() << "\n";
    if (auto hint = UnresolvedCustomOpHint(report.status().message()); !hint.empty()) {
      std::cerr << "delegate_report: " << hint << "\n";
    }
    return report.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitInvalidModel;
  }
  for (const DelegateEntry& d : report->delegates) {
    if (d.status != kTfLiteOk) {
      std::cerr << "delegate_report: warning: delegate " << d.label
                << " not applied, running on the CPU: " << d.error << "\n";
    }
  }
  if (to_stdout == 0) std::cout << FormatDelegateReportText(*report);
  for (const Output* o : {&json, &dot, &html}) {
    if (o->path.empty()) continue;
    const std::string text = o == &json  ? DumpJson(DelegateReportToJson(*report)) + "\n"
                             : o == &dot ? FormatDelegateReportDot(*report)
                                         : FormatDelegateReportHtml(*report);
    if (o->path == "-") {
      std::cout << text;
    } else if (Status st = Write(o->path, text); !st.ok()) {
      std::cerr << "delegate_report: error: " << o->flag << ": " << st.message() << "\n";
      return kExitInvalidModel;
    }
  }
  return kExitOk;
}

}  // namespace tflite_inspect
