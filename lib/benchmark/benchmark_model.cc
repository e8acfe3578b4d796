#include "benchmark/benchmark_model.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "benchmark/input_layers.h"
#include "benchmark/op_profiler.h"
#include "tools/resource_limits.h"
#include "runtime/delegation_record.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/model_builder.h"
#include "util/sha256.h"
#include "tools/string_reporter.h"

namespace tflite_inspect {
namespace {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <typename T>
std::string Str(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// What TFLite's PrintInterpreterState shows, condensed: tensors and nodes of every
// subgraph with allocation types, bytes and shapes.
std::vector<std::string> InterpreterStateLines(tflite::Interpreter& interpreter) {
  std::vector<std::string> out;
  out.push_back(fmt::format("Interpreter has {} subgraphs.", interpreter.subgraphs_size()));
  static const char* kAlloc[] = {"kTfLiteMemNone", "kTfLiteMmapRo", "kTfLiteArenaRw",
                                 "kTfLiteArenaRwPersistent", "kTfLiteDynamic",
                                 "kTfLitePersistentRo", "kTfLiteCustom", "kTfLiteVariantObject"};
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    tflite::Subgraph& sg = *interpreter.subgraph(static_cast<int>(s));
    out.push_back(fmt::format("-----------Subgraph-{} has {} tensors and {} nodes------------",
                              s, sg.tensors_size(), sg.execution_plan().size()));
    for (size_t t = 0; t < sg.tensors_size(); ++t) {
      const TfLiteTensor* tensor = sg.tensor(static_cast<int>(t));
      std::string shape;
      for (int d = 0; tensor->dims != nullptr && d < tensor->dims->size; ++d) {
        shape += (d ? "," : "") + std::to_string(tensor->dims->data[d]);
      }
      const int alloc = static_cast<int>(tensor->allocation_type);
      out.push_back(fmt::format("Tensor {:>4} {:<40} {:<8} {:<24} {:>10} bytes [{}]", t,
                                tensor->name ? tensor->name : "", TfLiteTypeGetName(tensor->type),
                                alloc >= 0 && alloc < 8 ? kAlloc[alloc] : "?", tensor->bytes,
                                shape));
    }
    for (int n : sg.execution_plan()) {
      const auto* nr = sg.node_and_registration(n);
      auto list = [](const TfLiteIntArray* a) {
        std::string r;
        for (int i = 0; a != nullptr && i < a->size; ++i) r += (i ? "," : "") + std::to_string(a->data[i]);
        return r;
      };
      out.push_back(fmt::format("Node {:>4} Operator {:<28} {} Inputs: [{}] Outputs: [{}]", n,
                                sg.OpName(n), nr->first.delegate ? "(delegated)" : "",
                                list(nr->first.inputs), list(nr->first.outputs)));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> EndOfRunLines(const BenchmarkResult& r) {
  std::vector<std::string> out;
  out.push_back("Inference timings in us: Init: " + Str(r.init_us) +
                ", First inference: " + Str(r.warmup_us.first()) +
                ", Warmup (avg): " + Str(r.warmup_us.avg()) +
                ", Inference (avg): " + Str(r.inference_us.avg()));
  if (!r.init_mem.supported) return out;
  out.push_back(
      "Note: as the benchmark tool itself affects memory footprint, the following is only "
      "APPROXIMATE to the actual memory footprint of the model at runtime. Take the information "
      "at your discretion.");
  out.push_back("Memory footprint delta from the start of the tool (MB): init=" +
                Str((r.init_mem.max_rss_kb - r.start_mem.max_rss_kb) / 1024.0) +
                " overall=" + Str((r.end_mem.max_rss_kb - r.start_mem.max_rss_kb) / 1024.0));
  if (r.peak_mem_mb > 0) {
    out.push_back("Overall peak memory footprint (MB) via periodic monitoring: " +
                  Str(r.peak_mem_mb));
    out.push_back("Memory status at the end of exeution:");
    out.push_back("- VmRSS              : " + Str(r.end_mem.rss_kb / 1024) + " MB");
  }
  return out;
}

Result<BenchmarkResult> RunBenchmark(const BenchmarkOptions& options,
                                     const tflite::OpResolver& resolver,
                                     DelegateRegistry& registry, int argc,
                                     const char* const* argv, const BenchmarkLog& log) {
  if (options.graph.empty()) {
    return InvalidArgument("Please specify the name of your TF Lite input file with --graph");
  }
  auto layers = ParseInputLayers(options.input_layer, options.input_layer_shape,
                                 options.input_layer_value_range,
                                 options.input_layer_value_files);
  if (!layers.ok()) return layers.status();
  int interval_ms = options.memory_footprint_check_interval_ms;
  if (options.report_peak_memory_footprint && interval_ms <= 0) {
    log.info(fmt::format("--memory_footprint_check_interval_ms is set to {} (ms), This value is "
                         "invalid, and it will be set to the default value 50 (ms).",
                         interval_ms));
    interval_ms = 50;
  }
  std::unique_ptr<PeakMemoryMonitor> monitor;
  if (options.report_peak_memory_footprint) {
    monitor = std::make_unique<PeakMemoryMonitor>(interval_ms);
    monitor->Start();
  }

  BenchmarkResult r;
  {
    std::ifstream f(options.graph, std::ios::binary | std::ios::ate);
    if (f) r.model_size_mb = static_cast<double>(f.tellg()) / 1e6;
  }

  // --- Init: load, build, delegates, allocate ---
  r.start_mem = GetMemoryUsage();
  const int64_t init_start = NowMicros();
  StringErrorReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromFile(options.graph.c_str(), &reporter);
  if (model == nullptr) {
    return Status(StatusCode::kInvalidModel,
                  "Failed to mmap model " + options.graph + ": " + reporter.text());
  }
  log.info("Loaded model " + options.graph);
  const int64_t loaded = NowMicros();
  r.load_us = loaded - init_start;
  // Declared before the interpreter so that it outlives the delegate kernels.
  std::vector<DelegateInstance> delegate_instances;
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::InterpreterBuilder(*model, resolver, &reporter)(&interpreter, options.num_threads);
  if (interpreter == nullptr) {
    return Status(StatusCode::kInvalidModel,
                  "Failed to initialize the interpreter: " + reporter.text());
  }
  ApplyResourceLimits(options.max_arena_mb, options.max_while_iterations, interpreter.get());
  r.num_threads = interpreter->num_threads();
  r.total_nodes = static_cast<int>(interpreter->execution_plan().size());
  const int64_t built = NowMicros();
  r.build_us = built - loaded;
  std::unique_ptr<OpProfiler> profiler;
  if (options.enable_op_profiling) {
    profiler = std::make_unique<OpProfiler>(interpreter.get());
    interpreter->SetProfiler(profiler.get());
  }

  DelegateCommonParams& common = registry.common();
  common.num_threads = r.num_threads;
  const int64_t create_start = NowMicros();
  auto created = registry.CreateDelegates(argc, argv);
  if (!created.ok()) return created.status();
  r.create_delegates_us = NowMicros() - create_start;
  delegate_instances = std::move(created.value());
  // As TFLite, the count is of the delegates asked for; XNNPACK applied by default is not one.
  log.info(fmt::format("Going to apply {} delegates one after another.",
                       std::count_if(delegate_instances.begin(), delegate_instances.end(),
                                     [](const DelegateInstance& d) { return !d.by_default; })));
  auto applied = ApplyDelegates(interpreter.get(), delegate_instances, common.strict);
  if (!applied.ok()) return applied.status();
  for (size_t i = 0; i < applied->size(); ++i) {
    const AppliedDelegate& a = applied.value()[i];
    DelegateSummary d;
    d.label = a.label;
    d.status = a.status;
    d.message = a.message;
    d.apply_us = a.apply_us;
    const TfLiteDelegate* delegate = delegate_instances[i].delegate.get();
    for (const auto& rec : interpreter->primary_subgraph().delegation_records()) {
      if (rec->delegate != delegate || rec->status != kTfLiteOk) continue;
      d.partitions = static_cast<int>(rec->partitions.size());
      d.nodes = 0;
      for (const auto& p : rec->partitions) d.nodes += static_cast<int>(p.nodes.size());
    }
    if (a.status != kTfLiteOk) {
      log.error(fmt::format("Failed to apply {} delegate: {}; continuing without it.", a.label,
                            a.message));
    } else if (delegate_instances[i].by_default) {
      log.info("Created TensorFlow Lite XNNPACK delegate for CPU.");
    } else if (d.partitions == 1 && interpreter->execution_plan().size() == 1) {
      log.info("Explicitly applied " + a.label +
               " delegate, and the model graph will be completely executed by the delegate.");
    } else if (d.partitions > 0) {
      log.info(fmt::format("Explicitly applied {} delegate, and the model graph will be "
                           "partially executed by the delegate w/ {} delegate kernels.",
                           a.label, d.partitions));
    } else {
      log.info("Though " + a.label + " delegate is explicitly applied, the model graph will not "
               "be executed by the delegate.");
    }
    if (a.status == kTfLiteOk) {
      log.info(fmt::format("{}: {} of {} nodes in {} partitions", a.label, d.nodes,
                           r.total_nodes, d.partitions));
    }
    if (delegate_instances[i].description) d.description = delegate_instances[i].description();
    if (!d.description.empty()) log.info(d.description);
    if (options.verbose) {
      for (const auto& rec : interpreter->primary_subgraph().delegation_records()) {
        if (rec->delegate == delegate) {
          for (const auto& line : rec->log) log.info(line);
        }
      }
    }
    r.delegates.push_back(std::move(d));
  }
  r.cpu_nodes = 0;
  for (int n : interpreter->execution_plan()) {
    if (interpreter->node_and_registration(n)->first.delegate == nullptr) ++r.cpu_nodes;
  }
  if (options.require_full_delegation &&
      !(interpreter->execution_plan().size() == 1 && r.cpu_nodes == 0)) {
    return Status(StatusCode::kUnsupported, "Disallowed CPU fallback detected.");
  }

  const auto& inputs = interpreter->inputs();
  if (!layers->empty()) {
    if (layers->size() != inputs.size()) {
      return InvalidArgument(fmt::format("Inputs mismatch: Model inputs #:{} expected: {}",
                                         layers->size(), inputs.size()));
    }
    for (size_t j = 0; j < layers->size(); ++j) {
      const InputLayerInfo& layer = layers.value()[j];
      TfLiteTensor* t = interpreter->tensor(inputs[j]);
      if (layer.name != (t->name ? t->name : "")) {
        log.info(fmt::format("Tensor # {} is named {} but flags call it {}", inputs[j],
                             t->name ? t->name : "", layer.name));
      }
      if (t->type != kTfLiteString && static_cast<int>(layer.shape.size()) != t->dims->size) {
        return InvalidArgument(fmt::format("Input tensor #{} should have {} dimensions!",
                                           inputs[j], t->dims->size));
      }
      if (t->type != kTfLiteString &&
          interpreter->ResizeInputTensor(inputs[j], layer.shape) != kTfLiteOk) {
        return InvalidArgument(fmt::format("cannot resize input '{}': {}", layer.name,
                                           reporter.text()));
      }
    }
  }
  const int64_t alloc_start = NowMicros();
  if (interpreter->AllocateTensors() != kTfLiteOk) {
    return Status(StatusCode::kInvalidModel, "Failed to allocate tensors!\n" + reporter.text());
  }
  r.allocate_us = NowMicros() - alloc_start;
  r.init_us = NowMicros() - init_start;
  r.init_mem = GetMemoryUsage();
  r.arena_bytes = interpreter->arena_bytes();
  r.persistent_bytes = interpreter->primary_subgraph().persistent_bytes();
  if (r.model_size_mb > 0) {
    log.info("The input model file size (MB): " + Str(r.model_size_mb));
  } else {
    log.info("Failed to get the input model file size.");
  }
  log.info("Initialized session in " + Str(r.init_us / 1e3) + "ms.");

  // --- Inputs ---
  std::vector<std::vector<uint8_t>> input_data;
  for (size_t j = 0; j < inputs.size(); ++j) {
    const TfLiteTensor* t = interpreter->tensor(inputs[j]);
    auto data = MakeInputData(*t, layers->empty() ? nullptr : &layers.value()[j], options.seed,
                              static_cast<int>(j));
    if (!data.ok()) return data.status();
    r.input_bytes += t->bytes;
    input_data.push_back(std::move(data.value()));
  }
  auto reset_inputs = [&] {
    for (size_t j = 0; j < inputs.size(); ++j) {
      TfLiteTensor* t = interpreter->tensor(inputs[j]);
      if (t->bytes > 0 && t->data.raw != nullptr) {
        std::memcpy(t->data.raw, input_data[j].data(), std::min(t->bytes, input_data[j].size()));
      }
    }
  };

  int warmup_runs = options.warmup_runs, num_runs = options.num_runs;
  float warmup_min_secs = options.warmup_min_secs, min_secs = options.min_secs;
  if (options.dry_run) {
    warmup_runs = num_runs = 0;
    warmup_min_secs = min_secs = -1.0f;
  }
  if (options.print_preinvoke_state) {
    for (const auto& line : InterpreterStateLines(*interpreter)) log.info(line);
  }

  // --- Runs, as TFLite's BenchmarkModel::Run ---
  auto run = [&](int min_runs, float min_s, float max_s, bool regular, Stat<int64_t>* stats) {
    log.info(fmt::format("Running benchmark for at least {} iterations and at least {} seconds "
                         "but terminate if exceeding {} seconds.",
                         min_runs, Str(min_s), Str(max_s)));
    int64_t now = NowMicros();
    const int64_t min_finish = now + static_cast<int64_t>(min_s * 1e6f);
    const int64_t max_finish = now + static_cast<int64_t>(max_s * 1e6f);
    const double gap = 1.0 / options.run_frequency;
    double next_finish = now * 1e-6 + gap;
    float sleep_s = options.run_delay;
    int64_t last_progress = now;
    for (int i = 0; (i < min_runs || now < min_finish) && now <= max_finish; ++i) {
      reset_inputs();
      if (regular && profiler) profiler->StartRun();
      const int64_t start = NowMicros();
      const TfLiteStatus status = options.dry_run ? kTfLiteOk : interpreter->Invoke();
      const int64_t end = NowMicros();
      if (regular && profiler) profiler->EndRun();
      stats->UpdateStat(end - start);
      if (status != kTfLiteOk) {
        r.invoke_status = status;
        return;
      }
      if (options.run_frequency > 0) {
        sleep_s = static_cast<float>(next_finish - NowMicros() * 1e-6);
        next_finish += gap;
      }
      if (sleep_s > 0) std::this_thread::sleep_for(std::chrono::duration<float>(sleep_s));
      now = NowMicros();
      if (options.show_progress && log.progress && now - last_progress > 250000) {
        last_progress = now;
        log.progress(fmt::format("{} run {}{}, {:.1f} s, last {} us", regular ? "benchmark" : "warmup",
                                 i + 1, min_runs > 0 ? fmt::format("/{}", min_runs) : "",
                                 (now - (min_finish - static_cast<int64_t>(min_s * 1e6f))) / 1e6,
                                 end - start));
      }
    }
    if (options.show_progress && log.progress) log.progress("");
    log.info(stats->ToString() + "\n");
  };
  run(warmup_runs, warmup_min_secs, options.max_secs, false, &r.warmup_us);
  if (r.invoke_status != kTfLiteOk) {
    return Status(StatusCode::kInvalidModel, "Invoke failed during warm-up:\n" + reporter.text());
  }
  run(num_runs, min_secs, options.max_secs, true, &r.inference_us);
  if (r.invoke_status != kTfLiteOk) {
    return Status(StatusCode::kInvalidModel, "Invoke failed:\n" + reporter.text());
  }
  // Delegates' counters, e.g. what crossed to and from a GPU per inference.
  const int64_t invokes = r.warmup_us.count() + r.inference_us.count();
  for (size_t i = 0; i < r.delegates.size() && i < delegate_instances.size(); ++i) {
    if (!delegate_instances[i].counters) continue;
    DelegateSummary& d = r.delegates[i];
    d.counters = delegate_instances[i].counters();
    double to = -1, from = -1;
    for (const auto& [name, value] : d.counters) {
      if (name.find("bytes_to_device") != std::string::npos) to = value;
      if (name.find("bytes_from_device") != std::string::npos) from = value;
    }
    if (to >= 0 && from >= 0 && invokes > 0) {
      log.info(fmt::format("{}: bytes copied per inference across partition boundaries: {} to the "
                           "device, {} from the device",
                           d.label, static_cast<int64_t>(to / invokes),
                           static_cast<int64_t>(from / invokes)));
    }
  }
  r.end_mem = GetMemoryUsage();
  if (monitor) {
    monitor->Stop();
    r.peak_mem_mb = monitor->peak_mb();
  }
  if (options.print_postinvoke_state) {
    for (const auto& line : InterpreterStateLines(*interpreter)) log.info(line);
  }
  if (profiler) {
    const bool csv = options.op_profiling_output_mode == "csv" ||
                     !options.profiling_output_csv_file.empty();
    r.op_profile = profiler->Summary(csv);
    interpreter->SetProfiler(nullptr);
  }
  // Last: hashing a multi-GB file takes seconds, and a file the loader refuses (or a run
  // that fails) must get its message without that wait.
  auto sha = Sha256OfFile(options.graph);
  if (sha.ok()) r.model_sha256 = sha.value();
  return r;
}

}  // namespace tflite_inspect
