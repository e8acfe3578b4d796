// benchmark_model's engine: loads a model, applies delegates, fills inputs, runs warm-up
// and timed invocations as TFLite's benchmark_model does (same flags, same defaults,
// same log lines), and returns every figure for the text log, --output_json and the
// CI regression gate. The tool (cmd/benchmark_model) only parses flags and prints.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_MODEL_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_MODEL_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "benchmark/memory_usage.h"
#include "benchmark/stat.h"
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"
#include "util/status.h"

namespace tflite_inspect {

// TFLite's benchmark_model flags, with TFLite's defaults.
struct BenchmarkOptions {
  std::string graph;
  int num_threads = -1;  // -1: the runtime's default (1)
  std::string target_runtime;  // warn when the model needs a newer TFLite than this
  ResourceLimits limits;       // --max_arena_mb, --max_while_iterations
  int num_runs = 50;
  float min_secs = 1.0f;
  float max_secs = 150.0f;
  float run_delay = -1.0f;
  float run_frequency = -1.0f;
  int warmup_runs = 1;
  float warmup_min_secs = 0.5f;
  std::string input_layer;              // "in1,in2"
  std::string input_layer_shape;        // "1,224,224,3:1,10"
  std::string input_layer_value_range;  // "in1,0,254:in2,1,2"
  std::string input_layer_value_files;  // "in1:path1,in2:path2"
  bool enable_op_profiling = false;
  std::string op_profiling_output_mode = "stdout";  // stdout | csv | proto
  std::string op_profiling_output_file;
  std::string profiling_output_csv_file;  // TFLite's older name: CSV to this file
  int max_profiling_buffer_entries = 1024;
  bool allow_dynamic_profiling_buffer_increase = false;  // accepted: our buffer grows
  // Accepted: the runtime computes every node with constant inputs once (constant
  // folding), a CAST of a constant included, whatever this says.
  bool enable_builtin_cast_constant_cache = false;
  bool allow_fp16 = false;  // Interpreter::SetAllowFp16PrecisionForFp32 (nothing here reads it)
  bool use_caching = false;  // accepted: constant weights are packed once, always
  bool release_dynamic_tensors = false;      // InterpreterOptions: free after last use
  bool disable_delegate_clustering = false;  // InterpreterOptions: non-greedy partitions
  // Accepted, not implemented (docs/runtime.md): TFLite's OptimizeMemoryForLargeTensors
  // threshold; > 0 gets a warning.
  int optimize_memory_for_large_tensors = 0;
  // Accepted, no effect: the GPU delegate has no invoke loop; != 1 gets a warning.
  int gpu_invoke_loop_times = 1;
  bool report_peak_memory_footprint = false;
  int memory_footprint_check_interval_ms = 50;
  bool print_preinvoke_state = false;
  bool print_postinvoke_state = false;
  bool list_signatures = false;  // print the model's signature keys, then fail (as TFLite)
  // The signature to run ("": the only one; a model without signatures runs subgraph 0).
  std::string signature_to_run_for;
  std::string output_filepath;  // the outputs' bytes after the last run
  std::string result_file_path;  // TFLite's BenchmarkResult proto after the runs
  // TFLite's ModelRuntimeDetails of the delegated graph, before the runs.
  bool export_model_runtime_info = false;
  std::string model_runtime_info_output_file;
  std::string output_proto_filepath;  // the outputs as a tensorflow.Example
  // --print_*_state columns.
  int tensor_name_display_length = 25;
  int tensor_type_display_length = 15;
  int alloc_type_display_length = 18;
  bool require_full_delegation = false;
  bool dry_run = false;
  bool verbose = false;
  std::string benchmark_name;
  std::string output_prefix;
  uint64_t seed = 1;        // random inputs (TFLite seeds from random_device)
  bool show_progress = false;  // the tool turns it on for a terminal
  // Every delegate parameter in words ("Use xnnpack: [1]", ...), from the tool's delegate
  // registry: part of the configuration the CI gate compares (JSON "configuration").
  std::vector<std::string> delegate_params;
  // Flags given on the command line: their values are echoed (all are with --verbose).
  std::set<std::string> given;
};

struct DelegateSummary {
  std::string label;
  TfLiteStatus status = kTfLiteOk;
  std::string message;  // why it failed, if it did
  bool by_default = false;  // applied without a flag (XNNPACK, as TFLite)
  int64_t apply_us = 0;
  int nodes = 0;       // original nodes it took
  int partitions = 0;  // delegate kernels
  std::string description;  // the provider's one line (e.g. GPU device, precision)
  // The provider's counters after the last run (e.g. GPU bytes copied, totals).
  std::vector<std::pair<std::string, double>> counters;
};

struct BenchmarkResult {
  double model_size_mb = 0;
  std::string model_sha256;
  int64_t init_us = 0;  // load + build + delegates + AllocateTensors
  int64_t load_us = 0, build_us = 0, allocate_us = 0;
  int64_t create_delegates_us = 0;  // making the delegates (e.g. compiling GPU kernels)
  std::vector<DelegateSummary> delegates;
  int total_nodes = 0;  // execution plan of subgraph 0 before delegation
  int cpu_nodes = 0;    // after delegation
  int num_threads = 1;
  uint64_t input_bytes = 0;
  size_t arena_bytes = 0;
  size_t persistent_bytes = 0;
  Stat<int64_t> warmup_us;
  Stat<int64_t> inference_us;
  MemoryUsage start_mem, init_mem, end_mem;
  double peak_mem_mb = -1;  // -1: not measured
  std::string op_profile;   // TFLite's tables (text or CSV), when op profiling was on
  // --op_profiling_output_mode=proto: TFLite's BenchmarkProfilingData, binary and as
  // protobuf's text format (printed when no --op_profiling_output_file is given).
  std::string op_profile_proto, op_profile_proto_text;
  TfLiteStatus invoke_status = kTfLiteOk;
  std::string signature;  // the signature run ("" for a model without signatures)
  // The inputs as run (after --input_layer_shape): "name FLOAT32[1,224,224,3]".
  std::vector<std::string> input_shapes;
};

// INFO / WARN lines go to `info`, ERROR lines to `error` (each without the newline).
struct BenchmarkLog {
  std::function<void(const std::string&)> info;
  std::function<void(const std::string&)> error;
  std::function<void(const std::string&)> progress;  // "\r..." updates; may be empty
  std::function<void(const std::string&)> warn;      // --target_runtime's warning
};

// Runs the benchmark. Errors carry TFLite's wording where TFLite has one.
// The phases, as TFLite's: init (tools/session.h: load, build, delegates in plan order,
// allocate), inputs, warm-up runs, regular runs, report.
Result<BenchmarkResult> RunBenchmark(const BenchmarkOptions& options,
                                     const tflite::OpResolver& resolver, DelegatePlan delegates,
                                     const BenchmarkLog& log);

// TFLite's BenchmarkResult message (tensorflow/lite/tools/benchmark/proto/
// benchmark_result.proto), serialized: latency_metrics in ms (init, first inference,
// warm-up average, min, max, stddev, avg, median, p5, p95), memory_metrics where memory
// is measured (init / overall footprint deltas in kB, the sampled peak when there is
// one), misc_metrics (model size, runs, warm-up runs, input throughput in MB/s).
std::string BenchmarkResultProto(const BenchmarkResult& r);

// "Inference timings in us: Init: ..., First inference: ..., Warmup (avg): ...,
// Inference (avg): ..." and the memory lines, as TFLite prints them at the end.
std::vector<std::string> EndOfRunLines(const BenchmarkResult& r);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_BENCHMARK_MODEL_H_
