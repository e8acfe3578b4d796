// tflite-inspect <tool> [flags]: one entry point for every tool.
#include <sys/stat.h>

#include <cstring>
#include <iostream>
#include <vector>

#include "benchmark_model/benchmark_model_main.h"
#include "delegate_report/delegate_report_main.h"
#include "inference_diff/inference_diff_main.h"
#include "inspect_ops/inspect_ops_main.h"
#include "cli/flags.h"
#include "run/run_main.h"
#include "tools/signals.h"

namespace {

struct Tool {
  const char* name;
  int (*main)(int, const char* const*);
  const char* summary;
};

const Tool kTools[] = {
    {"inspect_ops", tflite_inspect::InspectOpsMain,
     "which ops and versions a model needs, and whether they resolve"},
    {"run", tflite_inspect::RunMain, "one inference; outputs written as raw tensors + JSON"},
    {"delegate_report", tflite_inspect::DelegateReportMain,
     "which delegate runs which node, why the rest stay on the CPU, boundary bytes"},
    {"benchmark_model", tflite_inspect::BenchmarkModelMain,
     "latency, memory and op profile (TFLite's flags and log lines), JSON, CI gate"},
    {"inference_diff", tflite_inspect::InferenceDiffMain,
     "errors of delegates / threads / another model against a CPU reference, per node"},
};

int Usage(std::ostream& os) {
  os << "usage: tflite-inspect <tool> [flags]   (tflite-inspect <tool> --help for its flags)\n"
        "       tflite-inspect MODEL.tflite [inspect_ops flags]   (inspect_ops on it)\n"
        "       tflite-inspect --version\n"
        "tools:\n";
  for (const Tool& t : kTools) os << "  " << t.name << "  " << t.summary << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage(std::cerr);
  if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    Usage(std::cout);
    return 0;
  }
  for (const Tool& t : kTools) {
    if (std::strcmp(argv[1], t.name) == 0) {
      tflite_inspect::InstallToolSignalHandlers();
      return tflite_inspect::ToolExitStatus(t.main(argc - 1, argv + 1));
    }
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << tflite_inspect::VersionText("tflite-inspect") << "\n";
    return 0;
  }
  // `tflite-inspect model.tflite [flags]`, the way people type it: inspect_ops on it.
  struct stat st;
  if (argv[1][0] != '-' && stat(argv[1], &st) == 0) {
    std::vector<const char*> args = {"inspect_ops"};
    args.insert(args.end(), argv + 1, argv + argc);
    tflite_inspect::InstallToolSignalHandlers();
    return tflite_inspect::ToolExitStatus(
        tflite_inspect::InspectOpsMain(static_cast<int>(args.size()), args.data()));
  }
  std::cerr << "tflite-inspect: '" << argv[1] << "' is neither a tool nor a file\n";
  return Usage(std::cerr);
}
