// benchmark_model's flags (TFLite's names, types and defaults) on a CLI11 app, and the
// parameter echo TFLite prints before running ("Num threads: [4]"), which lists the
// flags given on the command line, or all of them with --verbose.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_FLAGS_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_FLAGS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "benchmark/benchmark_model.h"

namespace tflite_inspect {

// Flags of the tool itself (not TFLite's): JSON output and the CI gate.
struct BenchmarkToolOptions {
  std::string output_json;
  std::string baseline;
  double max_regression_pct = 5.0;
  bool allow_baseline_mismatch = false;  // compare with a baseline of another configuration
};

void AddBenchmarkFlags(CLI::App& app, BenchmarkOptions* options, BenchmarkToolOptions* tool);
// After parsing: records which flags were given (options->given).
void CollectGivenFlags(const CLI::App& app, BenchmarkOptions* options);
// "Log parameter values verbosely: [0]", "Min num runs: [50]", ... in TFLite's order.
std::vector<std::string> BenchmarkParamLines(const BenchmarkOptions& options);
// One line for each flag given that changes nothing here (TFLite's flags accepted for
// compatibility: --optimize_memory_for_large_tensors > 0, --gpu_invoke_loop_times != 1).
std::vector<std::string> BenchmarkFlagNotes(const BenchmarkOptions& options);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_FLAGS_H_
