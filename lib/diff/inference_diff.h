// inference_diff's engine: runs the same seeded inputs through a reference interpreter
// (our CPU builtin kernels, one thread, no delegate of any kind) and a test interpreter
// (the delegates and threads given, or a second model), and measures how far each test
// output is from the reference. With per_node it also captures every tensor a node or a
// delegate partition produces on both sides and names the first one that is off: the
// automated "disable the delegates, enable them one by one, and compare".
#ifndef TFLITE_INSPECT_LIB_DIFF_INFERENCE_DIFF_H_
#define TFLITE_INSPECT_LIB_DIFF_INFERENCE_DIFF_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchmark/stat.h"
#include "nlohmann/json.hpp"
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"
#include "util/status.h"

namespace tflite_inspect {

struct DiffOptions {
  std::string model_file;
  std::string reference_model_file;  // empty: the same model
  int num_runs = 50;
  int num_interpreter_threads = 1;   // test side; the reference always uses 1
  uint64_t seed = 1;
  std::vector<std::string> input_files;  // raw inputs for every run instead of random
  std::optional<double> max_abs_error;   // thresholds, in float / dequantized units
  std::optional<double> max_rel_error;
  bool per_node = false;
  ResourceLimits limits;  // --max_arena_mb, --max_while_iterations
  // Invocations of each side per run (same inputs), timed together, as TFLite's tool
  // (3 there, so latency is not dominated by input generation). Outputs are compared
  // after the last one.
  int invocations_per_run = 3;
};

// Errors of one tensor (float units; quantized tensors are dequantized first, and their
// raw integer errors are kept too).
struct ErrorStats {
  int64_t count = 0;  // elements compared, over all runs
  double max_abs = 0, sum_abs = 0, sum_sq = 0, max_rel = 0;
  double max_abs_ref = 0;  // largest |reference| seen
  int64_t worst_index = -1;  // element of the largest absolute error
  int worst_run = -1;
  double worst_ref = 0, worst_test = 0;
  bool quantized = false;
  double max_abs_quantized = 0;  // in integer steps
  // Sum of |test - reference| of the raw values (integers as stored, not dequantized):
  // what TFLite's tool averages.
  double sum_abs_raw = 0;
  bool shape_mismatch = false;
  std::string note;  // e.g. "shapes differ: [1,4] vs [1,5]"
  double mean_abs() const { return count ? sum_abs / static_cast<double>(count) : 0.0; }
  double rmse() const;
  void Add(const ErrorStats& other);
};

struct OutputDiff {
  int index = 0;
  std::string name, type;
  std::vector<int> shape;
  ErrorStats error;
  // TFLite's OutputDiff: per run, the mean |test - reference| of the raw values.
  Stat<double> run_mean_abs_error;
  bool exceeded = false;
};

struct NodeDiff {
  int node = -1;            // test-side node (a DELEGATE node for a partition)
  std::string op;           // op or delegate name
  std::vector<int> replaced;  // nodes the partition replaced (empty for CPU nodes)
  int tensor = -1;
  std::string tensor_name;
  ErrorStats error;
  bool exceeded = false;
};

struct DiffResult {
  std::vector<OutputDiff> outputs;
  Stat<int64_t> reference_us, test_us;  // per run (invocations_per_run invocations)
  std::vector<AppliedDelegate> delegates;
  std::vector<NodeDiff> nodes;  // per_node: every compared tensor, test execution order
  int first_bad_node = -1;      // index into `nodes`, or -1
  double node_threshold_abs = 0;  // what per_node used (see DiffOptions)
  std::string node_threshold_text;
  bool exceeded = false;        // any output beyond a threshold
};

// Runs the comparison. `delegates` apply to the test side only.
Result<DiffResult> RunInferenceDiff(const DiffOptions& options,
                                    const tflite::OpResolver& resolver, DelegatePlan delegates);

std::vector<std::string> DiffReportText(const DiffOptions& options, const DiffResult& r);
// TFLite's summary lines ("Num evaluation runs: 50", "Reference run latency: avg=...(us),
// std_dev=...(us)", "Test run latency: ...", "OutputDiff[0]: avg_error=..., std_dev=...").
std::vector<std::string> TfliteSummaryLines(const DiffResult& r);
// TFLite's --output_file_path: the EvaluationStageMetrics proto, serialized.
std::string TfliteMetricsProto(const DiffResult& r);
nlohmann::json DiffReportJson(const DiffOptions& options, const DiffResult& r);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_DIFF_INFERENCE_DIFF_H_
