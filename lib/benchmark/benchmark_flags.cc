#include "benchmark/benchmark_flags.h"

#include <sstream>

#include <fmt/format.h>

#include "cli/flags.h"
#include "tools/resource_limits.h"

namespace tflite_inspect {
namespace {

template <typename T>
std::string Str(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

void AddBenchmarkFlags(CLI::App& app, BenchmarkOptions* o, BenchmarkToolOptions* tool) {
  app.add_option("--graph", o->graph, "graph file name");
  app.add_option("--num_runs", o->num_runs, "expected number of runs, see also min_secs, max_secs");
  app.add_option("--min_secs", o->min_secs,
                 "minimum number of seconds to rerun for, potentially making the actual number "
                 "of runs to be greater than num_runs");
  app.add_option("--max_secs", o->max_secs,
                 "maximum number of seconds to rerun for, potentially making the actual number "
                 "of runs to be less than num_runs");
  app.add_option("--run_delay", o->run_delay, "delay between runs in seconds");
  app.add_option("--run_frequency", o->run_frequency,
                 "Execute at a fixed frequency, instead of a fixed delay (overrides run_delay)");
  AddNumThreadsFlag(app, "--num_threads", &o->num_threads, "number of threads");
  AddResourceLimitFlags(app, &o->limits);
  app.add_option("--benchmark_name", o->benchmark_name, "benchmark name");
  app.add_option("--output_prefix", o->output_prefix, "benchmark output prefix");
  app.add_option("--warmup_runs", o->warmup_runs,
                 "minimum number of runs performed on initialization, see also warmup_min_secs");
  app.add_option("--warmup_min_secs", o->warmup_min_secs,
                 "minimum number of seconds to rerun for warm-up");
  AddBoolFlag(app, "--verbose", &o->verbose,
              "Log every parameter, not only those set on the command line; print the "
              "delegates' replacement log");
  AddBoolFlag(app, "--dry_run", &o->dry_run,
              "Load the model, allocate tensors etc. but do not invoke any kernel");
  AddBoolFlag(app, "--report_peak_memory_footprint", &o->report_peak_memory_footprint,
              "Report the peak memory footprint by periodically checking it (a separate thread)");
  app.add_option("--memory_footprint_check_interval_ms", o->memory_footprint_check_interval_ms,
                 "Interval between two memory footprint checks (ms)");
  app.add_option("--input_layer", o->input_layer, "input layer names");
  app.add_option("--input_layer_shape", o->input_layer_shape, "input layer shape");
  app.add_option("--input_layer_value_range", o->input_layer_value_range,
                 "value range for integer input layers, e.g. input1,1,2:input2,0,254");
  app.add_option("--input_layer_value_files", o->input_layer_value_files,
                 "value files of input layers, e.g. input1:file_path1,input2:file_path2");
  AddBoolFlag(app, "--require_full_delegation", &o->require_full_delegation,
              "require delegate to run the entire graph");
  AddBoolFlag(app, "--enable_op_profiling", &o->enable_op_profiling, "enable op profiling");
  app.add_option("--max_profiling_buffer_entries", o->max_profiling_buffer_entries,
                 "max profiling buffer entries (accepted for compatibility; ours grows)");
  app.add_option("--op_profiling_output_mode", o->op_profiling_output_mode,
                 "Output mode for op profiling results: stdout, csv or proto (TFLite's "
                 "BenchmarkProfilingData, binary in --op_profiling_output_file)")
      ->check(CLI::IsMember({"stdout", "csv", "proto"}));
  app.add_option("--op_profiling_output_file", o->op_profiling_output_file,
                 "File for the op profiling results (default: stdout)");
  app.add_option("--profiling_output_csv_file", o->profiling_output_csv_file,
                 "File path to export profile data as CSV (TFLite's older flag)");
  AddBoolFlag(app, "--print_preinvoke_state", &o->print_preinvoke_state,
              "print the interpreter internals just before calling Invoke");
  AddBoolFlag(app, "--print_postinvoke_state", &o->print_postinvoke_state,
              "print the interpreter internals after all Invoke calls");
  AddBoolFlag(app, "--list_signatures", &o->list_signatures,
              "print the signature keys of the model, then stop (exit 1, as TFLite)");
  app.add_option("--signature_to_run_for", o->signature_to_run_for,
                 "the signature to benchmark: required when the model has several, the only "
                 "one by default");
  AddBoolFlag(app, "--export_model_runtime_info", &o->export_model_runtime_info,
              "Export the model runtime info (TFLite's ModelRuntimeDetails: tensors, nodes, "
              "delegation, execution plan) to --model_runtime_info_output_file");
  app.add_option("--model_runtime_info_output_file", o->model_runtime_info_output_file,
                 "Binary proto file for --export_model_runtime_info");
  app.add_option("--result_file_path", o->result_file_path,
                 "Path to save the benchmark result in binary proto format (TFLite's "
                 "BenchmarkResult)");
  app.add_option("--output_filepath", o->output_filepath,
                 "File path to export outputs layer as binary data (after the last run)");
  app.add_option("--output_proto_filepath", o->output_proto_filepath,
                 "File path to export outputs layer as tf example proto (after the last run)");
  app.add_option("--tensor_name_display_length", o->tensor_name_display_length,
                 "characters of a tensor's name shown by --print_*_state");
  app.add_option("--tensor_type_display_length", o->tensor_type_display_length,
                 "characters of a tensor's type shown by --print_*_state");
  app.add_option("--alloc_type_display_length", o->alloc_type_display_length,
                 "characters of a tensor's allocation type shown by --print_*_state");
  AddBoolFlag(app, "--allow_fp16", &o->allow_fp16,
              "allow fp16 (sets the interpreter's allow_fp32_relax_to_fp16, which only NNAPI "
              "reads in TFLite; nothing here does)");
  AddBoolFlag(app, "--use_caching", &o->use_caching,
              "Enable caching of prepacked weights matrices in matrix multiplication routines "
              "(always on here: constant weights are packed once, at prepare)");
  AddBoolFlag(app, "--release_dynamic_tensors", &o->release_dynamic_tensors,
              "Ensure dynamic tensor's memory is released when they are not used");
  app.add_option("--optimize_memory_for_large_tensors", o->optimize_memory_for_large_tensors,
                 "Optimize memory usage for large tensors with sacrificing latency (TFLite's "
                 "size threshold in bytes; not implemented here: > 0 gets a warning and "
                 "changes nothing, docs/runtime.md)");
  app.add_option("--gpu_invoke_loop_times", o->gpu_invoke_loop_times,
                 "Number of GPU delegate invoke loop iterations (TFLite: used only when built "
                 "with TFLITE_GPU_ENABLE_INVOKE_LOOP). No effect: this GPU delegate has no "
                 "invoke loop; values other than 1 get a warning");
  AddBoolFlag(app, "--disable_delegate_clustering", &o->disable_delegate_clustering,
              "Disable delegate clustering: delegated partitions follow the plan's order, "
              "independent nodes are not moved to merge them");
  AddBoolFlag(app, "--enable_builtin_cast_constant_cache", &o->enable_builtin_cast_constant_cache,
              "Cache the output of the builtin cast operation when its input is a constant "
              "tensor (always done here: nodes with constant inputs are computed once)");
  AddBoolFlag(app, "--allow_dynamic_profiling_buffer_increase",
              &o->allow_dynamic_profiling_buffer_increase,
              "allow dynamic increase on profiling buffer entries (ours always grows)");
  app.add_option("--random_seed", o->seed, "seed of the random inputs (default 1)");
  app.add_option("--output_json", tool->output_json,
                 "Write every statistic, per-run latency and the setup as JSON to this file");
  app.add_option("--baseline", tool->baseline,
                 "CI gate: a previous --output_json; exit 3 when the median regressed");
  app.add_option("--max_regression_pct", tool->max_regression_pct,
                 "CI gate: allowed slowdown of the median in percent (default 5)");
  AddBoolFlag(app, "--allow_baseline_mismatch", &tool->allow_baseline_mismatch,
              "CI gate: compare even when the baseline is of another model or configuration "
              "(threads, delegates and their options, input shapes, signature); warns instead "
              "of INVALID (exit 2)");
}

void CollectGivenFlags(const CLI::App& app, BenchmarkOptions* o) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0) continue;
    for (const auto& n : opt->get_lnames()) o->given.insert(n);
  }
}

std::vector<std::string> BenchmarkParamLines(const BenchmarkOptions& o) {
  std::vector<std::string> lines;
  auto param = [&](const char* name, const char* label, const std::string& value, bool always) {
    if (always || o.verbose || o.given.count(name)) lines.push_back(std::string(label) + ": [" + value + "]");
  };
  lines.push_back("Log parameter values verbosely: [" + Str(o.verbose ? 1 : 0) + "]");
  param("num_runs", "Min num runs", Str(o.num_runs), false);
  param("min_secs", "Min runs duration (seconds)", Str(o.min_secs), false);
  param("max_secs", "Max runs duration (seconds)", Str(o.max_secs), false);
  param("run_delay", "Inter-run delay (seconds)", Str(o.run_delay), false);
  param("run_frequency", "Number of prorated runs per second", Str(o.run_frequency), false);
  param("num_threads", "Num threads", Str(o.num_threads), false);
  param("use_caching", "Use caching", Str(o.use_caching ? 1 : 0), false);
  param("benchmark_name", "Benchmark name", o.benchmark_name, false);
  param("output_prefix", "Output prefix", o.output_prefix, false);
  param("warmup_runs", "Min warmup runs", Str(o.warmup_runs), false);
  param("warmup_min_secs", "Min warmup runs duration (seconds)", Str(o.warmup_min_secs), false);
  param("dry_run", "Run w/o invoking kernels", Str(o.dry_run ? 1 : 0), false);
  param("report_peak_memory_footprint", "Report the peak memory footprint",
        Str(o.report_peak_memory_footprint ? 1 : 0), false);
  param("memory_footprint_check_interval_ms", "Memory footprint check interval (ms)",
        Str(o.memory_footprint_check_interval_ms), false);
  param("graph", "Graph", o.graph, true);
  param("signature_to_run_for", "Signature to run", o.signature_to_run_for, true);
  param("list_signatures", "List signatures from the provided model",
        Str(o.list_signatures ? 1 : 0), false);
  param("input_layer", "Input layers", o.input_layer, false);
  param("input_layer_shape", "Input shapes", o.input_layer_shape, false);
  param("input_layer_value_range", "Input value ranges", o.input_layer_value_range, false);
  param("input_layer_value_files", "Input value files", o.input_layer_value_files, false);
  param("allow_fp16", "Allow fp16", Str(o.allow_fp16 ? 1 : 0), false);
  param("require_full_delegation", "Require full delegation",
        Str(o.require_full_delegation ? 1 : 0), false);
  param("enable_op_profiling", "Enable op profiling", Str(o.enable_op_profiling ? 1 : 0), false);
  param("op_profiling_output_mode", "Op profiling output mode.", o.op_profiling_output_mode, false);
  param("op_profiling_output_file", "Op profiling output file.", o.op_profiling_output_file, false);
  param("max_profiling_buffer_entries", "Max initial profiling buffer entries",
        Str(o.max_profiling_buffer_entries), false);
  param("allow_dynamic_profiling_buffer_increase",
        "Allow dynamic increase on profiling buffer entries",
        Str(o.allow_dynamic_profiling_buffer_increase ? 1 : 0), false);
  param("profiling_output_csv_file", "CSV File to export profiling data to",
        o.profiling_output_csv_file, false);
  param("print_preinvoke_state", "Print pre-invoke interpreter state",
        Str(o.print_preinvoke_state ? 1 : 0), false);
  param("print_postinvoke_state", "Print post-invoke interpreter state",
        Str(o.print_postinvoke_state ? 1 : 0), false);
  param("release_dynamic_tensors", "Release dynamic tensor memory",
        Str(o.release_dynamic_tensors ? 1 : 0), false);
  param("optimize_memory_for_large_tensors", "Optimize memory usage for large tensors",
        Str(o.optimize_memory_for_large_tensors), false);
  param("disable_delegate_clustering", "Disable delegate clustering",
        Str(o.disable_delegate_clustering ? 1 : 0), false);
  param("enable_builtin_cast_constant_cache", "Constant CAST output cache",
        Str(o.enable_builtin_cast_constant_cache ? 1 : 0), false);
  param("output_filepath", "File path to export outputs layer to", o.output_filepath, false);
  param("output_proto_filepath", "File path to export outputs layer as tf example to",
        o.output_proto_filepath, false);
  param("tensor_name_display_length", "Tensor name display length",
        Str(o.tensor_name_display_length), false);
  param("tensor_type_display_length", "Tensor type display length",
        Str(o.tensor_type_display_length), false);
  param("alloc_type_display_length", "Tensor allocation type display length",
        Str(o.alloc_type_display_length), false);
  // TFLite's Linux build echoes it among the default execution provider's parameters.
  param("gpu_invoke_loop_times", "Number of GPU delegate invoke loop iterations",
        Str(o.gpu_invoke_loop_times), false);
  return lines;
}

std::vector<std::string> BenchmarkFlagNotes(const BenchmarkOptions& o) {
  std::vector<std::string> notes;
  if (o.optimize_memory_for_large_tensors > 0) {
    notes.push_back(fmt::format(
        "--optimize_memory_for_large_tensors={}: not implemented: tensors of {} bytes or more "
        "stay in the arena, as without the flag (TFLite would allocate them on the heap; see "
        "docs/runtime.md)",
        o.optimize_memory_for_large_tensors, o.optimize_memory_for_large_tensors));
  }
  if (o.gpu_invoke_loop_times != 1) {
    notes.push_back(fmt::format(
        "--gpu_invoke_loop_times={}: no effect: this GPU delegate has no invoke loop (each "
        "invoke runs its partitions once) and latencies are not divided by it (TFLite's "
        "tool also ignores it unless built with TFLITE_GPU_ENABLE_INVOKE_LOOP)",
        o.gpu_invoke_loop_times));
  }
  return notes;
}

}  // namespace tflite_inspect
