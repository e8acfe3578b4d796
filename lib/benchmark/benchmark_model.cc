#include "benchmark/benchmark_model.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "benchmark/input_layers.h"
#include "benchmark/model_runtime_info.h"
#include "benchmark/op_profiler.h"
#include "model/model.h"
#include "runtime/delegation_record.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "tools/input_gen.h"
#include "tools/session.h"
#include "util/now.h"
#include "util/proto_writer.h"
#include "util/sha256.h"

namespace tflite_inspect {
namespace {

template <typename T>
std::string Str(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// What TFLite's PrintInterpreterState shows, condensed: tensors and nodes of every
// subgraph with allocation types, bytes and shapes.
// Names, types and allocation types are cut to TFLite's display lengths
// (--tensor_name_display_length, ...).
std::string Cut(const std::string& text, int length) {
  return length >= 0 && text.size() > static_cast<size_t>(length) ? text.substr(0, length) : text;
}

std::vector<std::string> InterpreterStateLines(tflite::Interpreter& interpreter,
                                               const BenchmarkOptions& o) {
  std::vector<std::string> out;
  out.push_back(fmt::format("Interpreter has {} subgraphs.", interpreter.subgraphs_size()));
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    tflite::Subgraph& sg = *interpreter.subgraph(static_cast<int>(s));
    out.push_back(fmt::format("-----------Subgraph-{} has {} tensors and {} nodes------------",
                              s, sg.tensors_size(), sg.execution_plan().size()));
    for (size_t t = 0; t < sg.tensors_size(); ++t) {
      const TfLiteTensor* tensor = sg.tensor(static_cast<int>(t));
      const std::string shape =
          tensor->dims != nullptr ? tflite::GetShapeDebugString(tensor->dims) : "[]";
      out.push_back(fmt::format(
          "Tensor {:>4} {:<{}} {:<{}} {:<{}} {:>10} bytes {}", t,
          Cut(tensor->name ? tensor->name : "", o.tensor_name_display_length),
          std::max(o.tensor_name_display_length, 0),
          Cut(TfLiteTypeGetName(tensor->type), o.tensor_type_display_length),
          std::max(o.tensor_type_display_length, 0),
          Cut(AllocTypeName(tensor->allocation_type), o.alloc_type_display_length),
          std::max(o.alloc_type_display_length, 0), tensor->bytes, shape));
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

std::string BenchmarkResultProto(const BenchmarkResult& r) {
  auto ms = [](double us) { return static_cast<float>(us / 1000.0); };
  const Stat<int64_t>& runs = r.inference_us;
  ProtoWriter latency;  // LatencyMetrics, fields in number order as protobuf writes them
  latency.Float(1, ms(runs.avg()))
      .Float(2, ms(static_cast<double>(runs.min())))
      .Float(3, ms(static_cast<double>(runs.max())))
      .Float(4, ms(runs.std_deviation()))
      .Float(5, ms(static_cast<double>(runs.Percentile(50))))
      .Float(6, ms(static_cast<double>(runs.Percentile(5))))
      .Float(7, ms(static_cast<double>(runs.Percentile(95))))
      .Float(8, ms(static_cast<double>(r.init_us)))
      .Float(9, ms(static_cast<double>(r.warmup_us.first())))
      .Float(10, ms(r.warmup_us.avg()));
  ProtoWriter result;
  result.Message(2, latency);
  if (r.init_mem.supported) {
    ProtoWriter memory;  // MemoryMetrics
    memory.Int(1, r.init_mem.max_rss_kb - r.start_mem.max_rss_kb)
        .Int(2, r.end_mem.max_rss_kb - r.start_mem.max_rss_kb);
    if (r.peak_mem_mb > 0) memory.Float(3, static_cast<float>(r.peak_mem_mb));
    result.Message(3, memory);
  }
  // TFLite's throughput: the inputs' bytes per second of inference, in MiB.
  const double throughput =
      runs.sum() > 0 ? static_cast<double>(r.input_bytes) * static_cast<double>(runs.count()) *
                           1e6 / runs.sum() / (1024.0 * 1024.0)
                     : 0.0;
  ProtoWriter misc;  // MiscMetrics
  misc.Float(1, static_cast<float>(r.model_size_mb))
      .Int(2, runs.count())
      .Int(3, r.warmup_us.count())
      .Float(4, static_cast<float>(throughput));
  result.Message(4, misc);
  return result.bytes();
}

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

namespace {

// What the phases share. Declaration order is destruction order reversed: the profiler
// and the monitor go before the session that runs the interpreter.
struct Bench {
  const BenchmarkOptions& options;
  const BenchmarkLog& log;
  BenchmarkResult r;
  std::vector<InputLayerInfo> layers;
  std::unique_ptr<Session> session;
  tflite::Interpreter* interpreter = nullptr;
  tflite::Subgraph* graph = nullptr;  // what runs: the signature's subgraph, or the primary
  std::unique_ptr<OpProfiler> profiler;
  std::unique_ptr<PeakMemoryMonitor> monitor;
  std::vector<std::vector<uint8_t>> input_data;
};

// TFLite's per-delegate lines after ModifyGraphWithDelegate, and the summaries.
void SummarizeDelegates(Bench& b, Session& session) {
  tflite::Interpreter& interpreter = session.interpreter();
  for (size_t i = 0; i < session.applied().size(); ++i) {
    const AppliedDelegate& a = session.applied()[i];
    const DelegateInstance& instance = session.delegates()[i];
    DelegateSummary d;
    d.label = a.label;
    d.status = a.status;
    d.message = a.message;
    d.apply_us = a.apply_us;
    for (const auto& rec : session.subgraph().delegation_records()) {
      if (rec->delegate != instance.delegate.get() || rec->status != kTfLiteOk) continue;
      d.partitions = static_cast<int>(rec->partitions.size());
      d.nodes = 0;
      for (const auto& p : rec->partitions) d.nodes += static_cast<int>(p.nodes.size());
    }
    const size_t plan_size = session.subgraph().execution_plan().size();
    d.by_default = instance.by_default;
    // What the delegate reported while it was applied (every subgraph), as TFLite's error
    // reporter prints it: e.g. the GPU delegate's unsupported operations.
    if (a.status == kTfLiteOk) {
      for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
        for (const auto& rec : interpreter.subgraph(static_cast<int>(s))->delegation_records()) {
          if (rec->delegate != instance.delegate.get()) continue;
          for (const auto& message : rec->reported) b.log.error(message);
        }
      }
    }
    if (a.status != kTfLiteOk && instance.by_default) {
      b.log.warn(fmt::format("The default {} delegate is not applied: {}; every node runs on "
                             "the CPU kernels.", a.label, a.message));
    } else if (a.status != kTfLiteOk) {
      b.log.error(fmt::format("Failed to apply {} delegate: {}; continuing without it.", a.label,
                              a.message));
    } else if (instance.by_default) {
      b.log.info("Created TensorFlow Lite XNNPACK delegate for CPU.");
    } else if (d.partitions == 1 && plan_size == 1) {
      b.log.info("Explicitly applied " + a.label +
                 " delegate, and the model graph will be completely executed by the delegate.");
    } else if (d.partitions > 0) {
      b.log.info(fmt::format("Explicitly applied {} delegate, and the model graph will be "
                             "partially executed by the delegate w/ {} delegate kernels.",
                             a.label, d.partitions));
    } else {
      b.log.info("Though " + a.label + " delegate is explicitly applied, the model graph will "
                 "not be executed by the delegate.");
    }
    if (a.status == kTfLiteOk) {
      b.log.info(fmt::format("{}: {} of {} nodes in {} partitions", a.label, d.nodes,
                             b.r.total_nodes, d.partitions));
    }
    if (instance.description) d.description = instance.description();
    if (!d.description.empty()) b.log.info(d.description);
    if (b.options.verbose) {
      if (instance.delegate != nullptr) {
        for (const auto& line : session.DelegationLog(instance.delegate.get())) b.log.info(line);
      }
    }
    b.r.delegates.push_back(std::move(d));
  }
}

// --input_layer_shape: the inputs resized before AllocateTensors.
Status ResizeInputLayers(Bench& b, tflite::Subgraph& graph) {
  if (b.layers.empty()) return Status::Ok();
  const auto& inputs = graph.inputs();
  if (b.layers.size() != inputs.size()) {
    return InvalidArgument(fmt::format("Inputs mismatch: Model inputs #:{} expected: {}",
                                       b.layers.size(), inputs.size()));
  }
  for (size_t j = 0; j < b.layers.size(); ++j) {
    const InputLayerInfo& layer = b.layers[j];
    TfLiteTensor* t = graph.tensor(inputs[j]);
    if (layer.name != (t->name ? t->name : "")) {
      b.log.info(fmt::format("Tensor # {} is named {} but flags call it {}", inputs[j],
                             t->name ? t->name : "", layer.name));
    }
    if (t->type != kTfLiteString && static_cast<int>(layer.shape.size()) != t->dims->size) {
      return InvalidArgument(fmt::format("Input tensor #{} should have {} dimensions!",
                                         inputs[j], t->dims->size));
    }
    if (t->type != kTfLiteString && graph.ResizeInputTensor(inputs[j], layer.shape) != kTfLiteOk) {
      return InvalidArgument(fmt::format("cannot resize input '{}': {}", layer.name,
                                         b.session != nullptr ? b.session->messages() : ""));
    }
  }
  return Status::Ok();
}

// Phase 1, TFLite's Init: load, build, delegates, allocate (tools/session.h).
Status Init(Bench& b, const tflite::OpResolver& resolver, DelegatePlan plan) {
  const BenchmarkOptions& options = b.options;
  BenchmarkResult& r = b.r;
  r.start_mem = GetMemoryUsage();
  const int64_t init_start = NowMicros();
  SessionOptions so;
  so.graph = options.graph;
  so.num_threads = options.num_threads;
  so.interpreter_options.SetEnsureDynamicTensorsAreReleased(options.release_dynamic_tensors);
  so.interpreter_options.SetDisableDelegateClustering(options.disable_delegate_clustering);
  so.interpreter_options.SetCacheConstantCastOp(options.enable_builtin_cast_constant_cache);
  so.limits = options.limits;
  so.target_runtime = options.target_runtime;
  so.warn = b.log.warn;
  // TFLite's BenchmarkInterpreterRunner::Create: no signature for a model without one,
  // the only one when none is named, else the one named.
  so.select_signature =
      [&](tflite::Interpreter& interpreter) -> Result<tflite::SignatureRunner*> {
    if (options.list_signatures) return nullptr;  // listed (and failed) after this
    const auto keys = interpreter.signature_keys();
    std::string key = options.signature_to_run_for;
    if (keys.empty()) {
      if (key.empty()) return nullptr;
      b.log.error("Signature key is specified, but the model does not have any signatures.");
      return Status(StatusCode::kUnsupported, "");
    }
    if (keys.size() == 1 && key.empty()) key = *keys[0];
    if (std::none_of(keys.begin(), keys.end(), [&](const std::string* k) { return *k == key; })) {
      b.log.error("Signature not specified or incorrect. Pass one of the following to the flag "
                  "\"--signature_to_run_for\"");
      for (const std::string* k : keys) b.log.error(" #> Signature key: " + *k);
      return Status(StatusCode::kUnsupported, "");
    }
    b.log.info("Using signature: " + key);
    r.signature = key;
    return interpreter.GetSignatureRunner(key.c_str());
  };
  so.after_build = [&](tflite::Interpreter& interpreter) {
    if (options.list_signatures) {
      const auto signature_keys = interpreter.signature_keys();
      // TFLite's lines; then Init fails on purpose ("Benchmarking failed.", exit 1).
      b.log.info(fmt::format("The Model contains {} signature key(s).", signature_keys.size()));
      if (!signature_keys.empty()) b.log.info("They are listed below: ");
      for (const std::string* key : signature_keys) b.log.info("-> Signature Key: " + *key);
      return Status(StatusCode::kUnsupported, "");  // exit 1, no message of its own
    }
    interpreter.SetAllowFp16PrecisionForFp32(options.allow_fp16);
    if (options.enable_op_profiling) {
      b.profiler = std::make_unique<OpProfiler>(&interpreter);
      interpreter.SetProfiler(b.profiler.get());
    }
    return Status::Ok();
  };
  so.progress = [&](SessionStage done, Session& session) {
    switch (done) {
      case SessionStage::kLoad: {
        b.log.info("Loaded model " + options.graph);
        break;
      }
      case SessionStage::kBuild:
        r.num_threads = session.interpreter().num_threads();
        r.total_nodes = static_cast<int>(session.subgraph().execution_plan().size());
        break;
      case SessionStage::kCreateDelegates: {
        // As TFLite: the count is of the delegates asked for (XNNPACK by default is not
        // one), and the line only appears for two or more (TFLITE_MAY_LOG).
        const auto asked =
            std::count_if(session.delegates().begin(), session.delegates().end(),
                          [](const DelegateInstance& d) { return !d.by_default; });
        if (asked >= 2) {
          b.log.info(fmt::format("Going to apply {} delegates one after another.", asked));
        }
        break;
      }
      case SessionStage::kApplyDelegates: SummarizeDelegates(b, session); break;
      default: break;
    }
  };
  so.before_allocate = [&](tflite::Subgraph& graph) {
    r.cpu_nodes = 0;
    for (int n : graph.execution_plan()) {
      if (graph.node_and_registration(n)->first.delegate == nullptr) ++r.cpu_nodes;
    }
    if (options.require_full_delegation &&
        !(graph.execution_plan().size() == 1 && r.cpu_nodes == 0)) {
      return Status(StatusCode::kUnsupported, "Disallowed CPU fallback detected.");
    }
    return ResizeInputLayers(b, graph);
  };
  SessionStage failed_at = SessionStage::kOpen;
  auto session = Session::Open(so, resolver, std::move(plan), &failed_at);
  if (!session.ok()) {
    // TFLite's wording. A delegate that cannot be made keeps its provider's status.
    return SessionError(failed_at, session.status(),
                        {"Failed to mmap model " + options.graph + ": ",
                         "Failed to initialize the interpreter: ", "Failed to allocate tensors!\n",
                         /*delegate_creation_is_usage=*/false});
  }
  b.session = std::move(session.value());
  b.interpreter = &b.session->interpreter();
  b.graph = &b.session->subgraph();
  const SessionTimings& t = b.session->timings();
  r.load_us = t.load_us;
  r.build_us = t.build_us;
  r.create_delegates_us = t.create_delegates_us;
  r.allocate_us = t.allocate_us;
  r.init_us = NowMicros() - init_start;
  r.init_mem = GetMemoryUsage();
  r.arena_bytes = b.graph->arena_bytes();
  r.persistent_bytes = b.graph->persistent_bytes();
  if (r.model_size_mb > 0) {
    b.log.info("The input model file size (MB): " + Str(r.model_size_mb));
  } else {
    b.log.info("Failed to get the input model file size.");
  }
  b.log.info("Initialized session in " + Str(r.init_us / 1e3) + "ms.");
  return Status::Ok();
}

// Phase 2: input data, from --input_layer_value_range/_files or generated.
// --export_model_runtime_info, when the benchmark starts (TFLite's listener): the graph
// as delegated, into --model_runtime_info_output_file; a file that cannot be opened gets
// TFLite's error line and the message in text format in the log.
void ExportModelRuntimeInfo(Bench& b) {
  if (!b.options.export_model_runtime_info) return;
  const ProtoWriter info = ModelRuntimeInfo(*b.interpreter);
  const std::string& path = b.options.model_runtime_info_output_file;
  std::ofstream f(path, std::ios::binary);
  if (f && (f << info.bytes()) && f.flush()) return;
  b.log.error("Failed to open file: " + path);
  b.log.info(info.text());
}

Status PrepareInputs(Bench& b) {
  const auto& inputs = b.graph->inputs();
  for (size_t j = 0; j < inputs.size(); ++j) {
    const TfLiteTensor* t = b.graph->tensor(inputs[j]);
    b.r.input_shapes.push_back(fmt::format("{} {}{}", t->name ? t->name : "",
                                           TfLiteTypeGetName(t->type),
                                           t->dims != nullptr ? tflite::GetShapeDebugString(t->dims)
                                                              : "[]"));
    auto data = MakeInputData(*t, b.layers.empty() ? nullptr : &b.layers[j], b.options.seed,
                              static_cast<int>(j));
    if (!data.ok()) return data.status();
    b.r.input_bytes += t->bytes;
    b.input_data.push_back(std::move(data.value()));
  }
  return Status::Ok();
}

void ResetInputs(Bench& b) {
  const auto& inputs = b.graph->inputs();
  for (size_t j = 0; j < inputs.size(); ++j) {
    TfLiteTensor* t = b.graph->tensor(inputs[j]);
    CopyInputBytes(t, b.input_data[j].data(), b.input_data[j].size());
  }
}

// Phases 3 and 4, TFLite's BenchmarkModel::Run: at least `min_runs` invocations and
// `min_s` seconds, at most `max_s` seconds; `regular` runs are profiled.
void RunLoop(Bench& b, int min_runs, float min_s, float max_s, bool regular,
             Stat<int64_t>* stats) {
  const BenchmarkOptions& options = b.options;
  b.log.info(fmt::format("Running benchmark for at least {} iterations and at least {} seconds "
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
    ResetInputs(b);
    if (regular && b.profiler) b.profiler->StartRun();
    const int64_t start = NowMicros();
    const TfLiteStatus status = options.dry_run ? kTfLiteOk : b.session->Invoke();
    const int64_t end = NowMicros();
    if (regular && b.profiler) b.profiler->EndRun();
    stats->UpdateStat(end - start);
    if (status != kTfLiteOk) {
      b.r.invoke_status = status;
      return;
    }
    if (options.run_frequency > 0) {
      sleep_s = static_cast<float>(next_finish - NowMicros() * 1e-6);
      next_finish += gap;
    }
    if (sleep_s > 0) std::this_thread::sleep_for(std::chrono::duration<float>(sleep_s));
    now = NowMicros();
    if (options.show_progress && b.log.progress && now - last_progress > 250000) {
      last_progress = now;
      b.log.progress(fmt::format("{} run {}{}, {:.1f} s, last {} us",
                                 regular ? "benchmark" : "warmup", i + 1,
                                 min_runs > 0 ? fmt::format("/{}", min_runs) : "",
                                 (now - (min_finish - static_cast<int64_t>(min_s * 1e6f))) / 1e6,
                                 end - start));
    }
  }
  if (options.show_progress && b.log.progress) b.log.progress("");
  b.log.info(stats->ToString() + "\n");
}

Status WarmupAndRuns(Bench& b) {
  const BenchmarkOptions& options = b.options;
  int warmup_runs = options.warmup_runs, num_runs = options.num_runs;
  float warmup_min_secs = options.warmup_min_secs, min_secs = options.min_secs;
  if (options.dry_run) {
    warmup_runs = num_runs = 0;
    warmup_min_secs = min_secs = -1.0f;
  }
  if (options.print_preinvoke_state) {
    for (const auto& line : InterpreterStateLines(*b.interpreter, b.options)) b.log.info(line);
  }
  RunLoop(b, warmup_runs, warmup_min_secs, options.max_secs, false, &b.r.warmup_us);
  if (b.r.invoke_status != kTfLiteOk) {
    return Status(StatusCode::kInvalidModel,
                  "Invoke failed during warm-up:\n" + b.session->messages());
  }
  RunLoop(b, num_runs, min_secs, options.max_secs, true, &b.r.inference_us);
  if (b.r.invoke_status != kTfLiteOk) {
    return Status(StatusCode::kInvalidModel, "Invoke failed:\n" + b.session->messages());
  }
  return Status::Ok();
}

// --output_filepath: every output's bytes, one after another in output order (TFLite's
// OutputSaver), after the last run.
Status SaveOutputs(Bench& b) {
  const std::string& path = b.options.output_filepath;
  if (path.empty()) return Status::Ok();
  std::ofstream out(path, std::ios::binary);
  for (int index : b.graph->outputs()) {
    const TfLiteTensor* t = b.graph->tensor(index);
    if (t != nullptr && t->data.raw != nullptr) out.write(t->data.raw, t->bytes);
  }
  if (!out) {
    return Status(StatusCode::kInvalidModel,
                  fmt::format("cannot write the outputs to '{}' (--output_filepath): {}", path,
                              std::strerror(errno)));
  }
  return Status::Ok();
}

// --output_proto_filepath: the outputs as a tensorflow.Example (TFLite's OutputSaver):
// one feature per output, keyed by the tensor's name; float32/float64 as a float_list,
// integers as an int64_list; other types are left out, as TFLite leaves them.
Status SaveOutputsAsExample(Bench& b) {
  const std::string& path = b.options.output_proto_filepath;
  if (path.empty()) return Status::Ok();
  ProtoWriter features;  // tensorflow.Features { map<string, Feature> feature = 1; }
  for (int index : b.graph->outputs()) {
    const TfLiteTensor* t = b.graph->tensor(index);
    if (t == nullptr || t->dims == nullptr || t->data.raw == nullptr) continue;
    const size_t n = static_cast<size_t>(tflite::NumElements(t));
    ProtoWriter feature;  // tensorflow.Feature { bytes_list = 1; float_list = 2; int64_list = 3; }
    if (t->type == kTfLiteFloat32 || t->type == kTfLiteFloat64) {
      std::vector<float> values(n);
      for (size_t i = 0; i < n; ++i) {
        values[i] = t->type == kTfLiteFloat32
                        ? t->data.f[i]
                        : static_cast<float>(reinterpret_cast<const double*>(t->data.raw)[i]);
      }
      feature.Message(2, ProtoWriter().PackedFloats(1, values.data(), n));
    } else {
      std::vector<int64_t> values(n);
      bool integer = true;
      for (size_t i = 0; i < n && integer; ++i) {
        switch (t->type) {
          case kTfLiteUInt8: values[i] = t->data.uint8[i]; break;
          case kTfLiteInt8: values[i] = t->data.int8[i]; break;
          case kTfLiteUInt16: values[i] = reinterpret_cast<const uint16_t*>(t->data.raw)[i]; break;
          case kTfLiteInt16: values[i] = t->data.i16[i]; break;
          case kTfLiteInt32: values[i] = t->data.i32[i]; break;
          case kTfLiteUInt32: values[i] = reinterpret_cast<const uint32_t*>(t->data.raw)[i]; break;
          case kTfLiteUInt64:
            values[i] = static_cast<int64_t>(reinterpret_cast<const uint64_t*>(t->data.raw)[i]);
            break;
          case kTfLiteInt64: values[i] = t->data.i64[i]; break;
          default: integer = false; break;
        }
      }
      if (!integer) continue;
      feature.Message(3, ProtoWriter().PackedInts(1, values.data(), n));
    }
    ProtoWriter entry;  // the map entry: key = 1, value = 2
    entry.Bytes(1, t->name ? t->name : "").Message(2, feature);
    features.Message(1, entry);
  }
  ProtoWriter example;  // tensorflow.Example { Features features = 1; }
  example.Message(1, features);
  std::ofstream out(path, std::ios::binary);
  out << example.bytes();
  if (!out) {
    return Status(StatusCode::kInvalidModel,
                  fmt::format("cannot write the outputs to '{}' (--output_proto_filepath): {}",
                              path, std::strerror(errno)));
  }
  return Status::Ok();
}

// Phase 5: what the runs leave to report (delegate counters, memory, profile, hash).
void Report(Bench& b) {
  BenchmarkResult& r = b.r;
  // Delegates' counters, e.g. what crossed to and from a GPU per inference.
  const int64_t invokes = r.warmup_us.count() + r.inference_us.count();
  const auto& instances = b.session->delegates();
  for (size_t i = 0; i < r.delegates.size() && i < instances.size(); ++i) {
    if (!instances[i].counters) continue;
    DelegateSummary& d = r.delegates[i];
    d.counters = instances[i].counters();
    double to = -1, from = -1;
    for (const auto& [name, value] : d.counters) {
      if (name.find("bytes_to_device") != std::string::npos) to = value;
      if (name.find("bytes_from_device") != std::string::npos) from = value;
    }
    if (to >= 0 && from >= 0 && invokes > 0) {
      b.log.info(fmt::format("{}: bytes copied per inference across partition boundaries: {} to "
                             "the device, {} from the device",
                             d.label, static_cast<int64_t>(to / invokes),
                             static_cast<int64_t>(from / invokes)));
    }
  }
  r.end_mem = GetMemoryUsage();
  if (b.monitor) {
    b.monitor->Stop();
    r.peak_mem_mb = b.monitor->peak_mb();
  }
  if (b.options.print_postinvoke_state) {
    for (const auto& line : InterpreterStateLines(*b.interpreter, b.options)) b.log.info(line);
  }
  if (b.profiler) {
    // TFLite's older --profiling_output_csv_file means CSV whatever the mode says.
    const bool csv = b.options.op_profiling_output_mode == "csv" ||
                     !b.options.profiling_output_csv_file.empty();
    if (b.options.op_profiling_output_mode == "proto" && !csv) {
      const ProtoWriter proto = b.profiler->SummaryProto();
      r.op_profile_proto = proto.bytes();
      r.op_profile_proto_text = proto.text();
    } else {
      r.op_profile = b.profiler->Summary(csv);
    }
    b.interpreter->SetProfiler(nullptr);
  }
  // Last: hashing a multi-GB file takes seconds, and a file the loader refuses (or a run
  // that fails) must get its message without that wait. The bytes hashed are the ones
  // that ran (a pipe cannot be read twice).
  const Model& model = b.session->model().inspect_model();
  r.model_sha256 = Sha256Hex(model.bytes(), model.size());
}

}  // namespace

Result<BenchmarkResult> RunBenchmark(const BenchmarkOptions& options,
                                     const tflite::OpResolver& resolver, DelegatePlan delegates,
                                     const BenchmarkLog& log) {
  if (options.graph.empty()) {
    return InvalidArgument("Please specify the name of your TF Lite input file with --graph");
  }
  Bench b{options, log, {}, {}, nullptr, nullptr, nullptr, nullptr, nullptr, {}};
  auto layers = ParseInputLayers(options.input_layer, options.input_layer_shape,
                                 options.input_layer_value_range,
                                 options.input_layer_value_files);
  if (!layers.ok()) return layers.status();
  b.layers = std::move(layers.value());
  int interval_ms = options.memory_footprint_check_interval_ms;
  if (options.report_peak_memory_footprint && interval_ms <= 0) {
    log.info(fmt::format("--memory_footprint_check_interval_ms is set to {} (ms), This value is "
                         "invalid, and it will be set to the default value 50 (ms).",
                         interval_ms));
    interval_ms = 50;
  }
  if (options.report_peak_memory_footprint) {
    b.monitor = std::make_unique<PeakMemoryMonitor>(interval_ms);
    b.monitor->Start();
  }
  {
    // stat, not open: opening a FIFO would wait for its writer.
    struct stat st {};
    if (::stat(options.graph.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      b.r.model_size_mb = static_cast<double>(st.st_size) / 1e6;
    }
  }
  TFI_RETURN_IF_ERROR(Init(b, resolver, std::move(delegates)));
  ExportModelRuntimeInfo(b);
  TFI_RETURN_IF_ERROR(PrepareInputs(b));
  TFI_RETURN_IF_ERROR(WarmupAndRuns(b));
  TFI_RETURN_IF_ERROR(SaveOutputs(b));
  TFI_RETURN_IF_ERROR(SaveOutputsAsExample(b));
  Report(b);
  return std::move(b.r);
}

}  // namespace tflite_inspect
