#include "benchmark/benchmark_json.h"

#include <flatbuffers/base.h>

#include <string>
#include <thread>

#include "util/machine.h"
#include "util/strings.h"

#ifndef TFI_BUILD_TYPE
#define TFI_BUILD_TYPE "unknown"
#endif
#ifndef TFI_VERSION
#define TFI_VERSION "unknown"
#endif

namespace tflite_inspect {

nlohmann::json StatToJson(const Stat<int64_t>& s) {
  nlohmann::json j;
  j["count"] = s.count();
  if (s.empty()) return j;
  j["first"] = s.first();
  j["curr"] = s.newest();
  j["min"] = s.min();
  j["max"] = s.max();
  j["avg"] = s.avg();
  j["std"] = s.std_deviation();
  j["p50"] = s.Percentile(50);
  j["p90"] = s.Percentile(90);
  j["p99"] = s.Percentile(99);
  j["cv"] = s.coefficient_of_variation();
  j["runs_us"] = s.samples();
  return j;
}

nlohmann::json BenchmarkConfigurationJson(const BenchmarkOptions& o, const BenchmarkResult& r) {
  nlohmann::json applied = nlohmann::json::array();
  for (const auto& d : r.delegates) {
    if (d.status == kTfLiteOk) applied.push_back(d.label);
  }
  // Where compiled kernels are cached changes the start-up time, not the runs the gate
  // compares: those parameters are left out, and so are TFLite's parameters accepted with
  // no effect here (and XNNPACK's runtime flags when 0), so that baselines written before
  // the tool took them still compare.
  auto left_out = [](const std::string& line) {
    for (const char* prefix : {"GPU cache dir:", "Delegate serialize", "xnnpack_weight_cache_file_path:",
                               "Use Slinky:", "Prefer maximizing the throughput in gpu:",
                               "GPU delegate wait type:"}) {
      if (line.rfind(prefix, 0) == 0) return true;
    }
    return line == "Extra flags for XNNPACK runtime: [0]";
  };
  nlohmann::json params = nlohmann::json::array();
  for (const std::string& line : o.delegate_params) {
    if (!left_out(line)) params.push_back(line);
  }
  nlohmann::json config = {{"model_sha256", r.model_sha256},
                            {"signature", r.signature},
                            {"num_threads", r.num_threads},
                            {"inputs", r.input_shapes},
                            {"delegates", applied},
                            {"delegate_params", params}};
  // Interpreter options that change what runs (partitions, memory traffic); only when
  // set, so baselines written before they existed still compare.
  nlohmann::json interpreter_options = nlohmann::json::array();
  if (o.release_dynamic_tensors) interpreter_options.push_back("release_dynamic_tensors");
  if (o.disable_delegate_clustering) interpreter_options.push_back("disable_delegate_clustering");
  if (!interpreter_options.empty()) config["interpreter_options"] = interpreter_options;
  return config;
}

nlohmann::json BenchmarkResultToJson(const BenchmarkOptions& o, const BenchmarkResult& r) {
  nlohmann::json j;
  j["schema"] = kBenchmarkJsonSchema;
  j["model"] = {{"path", o.graph}, {"size_mb", r.model_size_mb}, {"sha256", r.model_sha256}};
  j["params"] = {{"num_threads", o.num_threads},
                 {"num_runs", o.num_runs},
                 {"min_secs", o.min_secs},
                 {"max_secs", o.max_secs},
                 {"run_delay", o.run_delay},
                 {"run_frequency", o.run_frequency},
                 {"warmup_runs", o.warmup_runs},
                 {"warmup_min_secs", o.warmup_min_secs},
                 {"input_layer", o.input_layer},
                 {"input_layer_shape", o.input_layer_shape},
                 {"input_layer_value_range", o.input_layer_value_range},
                 {"input_layer_value_files", o.input_layer_value_files},
                 {"enable_op_profiling", o.enable_op_profiling},
                 {"dry_run", o.dry_run},
                 {"benchmark_name", o.benchmark_name}};
  j["configuration"] = BenchmarkConfigurationJson(o, r);
  j["init_us"] = {{"total", r.init_us},
                  {"model_load", r.load_us},
                  {"interpreter_build", r.build_us},
                  {"allocate_tensors", r.allocate_us},
                  {"create_delegates", r.create_delegates_us}};
  nlohmann::json delegates = nlohmann::json::array();
  for (const auto& d : r.delegates) {
    delegates.push_back({{"label", d.label},
                         {"applied", d.status == kTfLiteOk},
                         {"by_default", d.by_default},
                         {"error", d.message},
                         {"modify_graph_us", d.apply_us},
                         {"nodes", d.nodes},
                         {"partitions", d.partitions}});
    if (!d.description.empty()) delegates.back()["description"] = d.description;
    if (!d.counters.empty()) {
      nlohmann::json counters = nlohmann::json::object();
      for (const auto& [name, value] : d.counters) counters[name] = value;
      delegates.back()["counters"] = counters;
    }
    j["init_us"]["delegates"].push_back({{"label", d.label}, {"modify_graph_us", d.apply_us}});
  }
  j["delegates"] = delegates;
  j["nodes"] = {{"total", r.total_nodes}, {"cpu_after_delegation", r.cpu_nodes}};
  j["warmup"] = StatToJson(r.warmup_us);
  j["inference"] = StatToJson(r.inference_us);
  j["memory"] = {{"supported", r.init_mem.supported},
                 {"init_footprint_mb", (r.init_mem.max_rss_kb - r.start_mem.max_rss_kb) / 1024.0},
                 {"overall_footprint_mb", (r.end_mem.max_rss_kb - r.start_mem.max_rss_kb) / 1024.0},
                 {"peak_mb", r.peak_mem_mb > 0 ? nlohmann::json(r.peak_mem_mb) : nlohmann::json()},
                 {"arena_bytes", r.arena_bytes},
                 {"persistent_bytes", r.persistent_bytes},
                 {"input_bytes", r.input_bytes}};
  const MachineInfo machine = DescribeMachine();
  nlohmann::json cores = nlohmann::json::array();
  for (const CpuCore& c : machine.cores) {
    cores.push_back({{"cpu", c.cpu},
                     {"part", c.part},
                     {"max_mhz", c.max_khz > 0 ? nlohmann::json(c.max_khz / 1000) : nlohmann::json()}});
  }
  j["machine"] = {{"cpu", machine.cpu_model},
                  {"architecture", machine.architecture},
                  {"hardware_threads", std::thread::hardware_concurrency()},
                  {"threads_used", r.num_threads},
                  {"affinity", JoinRanges(machine.affinity, ",")},
                  {"affinity_mask", CpuMaskString(machine.affinity)},
                  {"cores", cores}};
  j["build"] = {{"tflite_inspect", TFI_VERSION},
                {"build_type", TFI_BUILD_TYPE},
                {"compiler", __VERSION__},
                {"flatbuffers", std::to_string(FLATBUFFERS_VERSION_MAJOR) + "." +
                                    std::to_string(FLATBUFFERS_VERSION_MINOR) + "." +
                                    std::to_string(FLATBUFFERS_VERSION_REVISION)}};
  return j;
}

}  // namespace tflite_inspect
