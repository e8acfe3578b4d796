// inference_diff's text and JSON reports, and TFLite's summary lines and metrics proto.
#include <fmt/format.h>

#include <sstream>

#include "inspect/inspect_report.h"
#include "util/proto_writer.h"

#include "diff/inference_diff.h"

namespace tflite_inspect {
namespace {

std::string Shape(const std::vector<int>& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return "[" + r + "]";
}

std::string Where(const NodeDiff& d) {
  if (d.replaced.empty()) return fmt::format("node {} ({})", d.node, d.op);
  return fmt::format("{} partition (node {}, replacing nodes {})", d.op, d.node, CompressIds(d.replaced));
}

nlohmann::json ErrorJson(const ErrorStats& e) {
  nlohmann::json j = {{"elements", e.count},         {"max_abs_error", e.max_abs},
                      {"mean_abs_error", e.mean_abs()}, {"rmse", e.rmse()},
                      {"max_rel_error", e.max_rel},  {"max_abs_reference", e.max_abs_ref},
                      {"worst", {{"index", e.worst_index}, {"run", e.worst_run},
                                 {"reference", e.worst_ref}, {"test", e.worst_test}}}};
  if (e.quantized) j["max_abs_error_quantized_steps"] = e.max_abs_quantized;
  if (!e.note.empty()) j["note"] = e.note;
  return j;
}

}  // namespace

std::vector<std::string> DiffReportText(const DiffOptions& o, const DiffResult& r) {
  std::vector<std::string> out;
  out.push_back(fmt::format("Model: {}", o.model_file));
  out.push_back(fmt::format("Reference: {} on CPU builtin kernels, 1 thread, no delegate",
                            o.reference_model_file.empty() ? "the same model" : o.reference_model_file));
  std::string test = fmt::format("Test: {} thread(s)", o.num_interpreter_threads);
  for (const auto& d : r.delegates) {
    test += d.status == kTfLiteOk ? ", delegate " + d.label
                                  : ", delegate " + d.label + " (not applied: " + d.message + ")";
  }
  out.push_back(test);
  out.push_back(fmt::format("Runs: {} ({} inputs, seed {})", r.reference_us.count(),
                            o.input_files.empty() ? "random" : "file", o.seed));
  out.push_back(fmt::format("Latency (us) per run of {} invocations: reference avg {:.1f} std "
                            "{:.1f}; test avg {:.1f} std {:.1f}",
                            o.invocations_per_run, r.reference_us.avg(),
                            r.reference_us.std_deviation(), r.test_us.avg(),
                            r.test_us.std_deviation()));
  for (const auto& od : r.outputs) {
    const ErrorStats& e = od.error;
    out.push_back(fmt::format("Output {} '{}' {}{}:", od.index, od.name, od.type, Shape(od.shape)));
    if (!e.note.empty()) {
      out.push_back("  " + e.note);
      continue;
    }
    out.push_back(fmt::format("  max abs error {:.6g}, mean abs error {:.6g}, RMSE {:.6g}, max rel "
                              "error {:.6g}", e.max_abs, e.mean_abs(), e.rmse(), e.max_rel));
    out.push_back(fmt::format("  worst element {} (run {}): reference {:.6g}, test {:.6g}",
                              e.worst_index, e.worst_run, e.worst_ref, e.worst_test));
    if (e.quantized) {
      out.push_back(fmt::format("  quantized: errors above are dequantized; max {} step(s) in "
                                "the integer values", e.max_abs_quantized));
    }
    if (od.exceeded) out.push_back("  EXCEEDS the thresholds");
  }
  if (o.per_node) {
    out.push_back(fmt::format("Per node ({} tensors compared; threshold: {}):", r.nodes.size(),
                              r.node_threshold_text));
    if (r.first_bad_node < 0) {
      out.push_back("  every intermediate tensor is within the threshold");
    } else {
      const NodeDiff& d = r.nodes[r.first_bad_node];
      out.push_back(fmt::format("  first tensor off: {} '{}' from {}: max abs error {:.6g} "
                                "(reference max |x| {:.6g})",
                                d.tensor, d.tensor_name, Where(d), d.error.max_abs,
                                d.error.max_abs_ref));
    }
  }
  out.push_back(r.exceeded ? "Result: outputs EXCEED the thresholds"
                           : (o.max_abs_error || o.max_rel_error ? "Result: within the thresholds"
                                                                 : "Result: no thresholds given"));
  return out;
}

nlohmann::json DiffReportJson(const DiffOptions& o, const DiffResult& r) {
  nlohmann::json j;
  j["schema"] = "tflite-inspect.inference_diff/1";
  j["model_file"] = o.model_file;
  j["reference_model_file"] = o.reference_model_file;
  j["num_runs"] = r.reference_us.count();
  j["seed"] = o.seed;
  j["num_interpreter_threads"] = o.num_interpreter_threads;
  j["thresholds"] = {{"max_abs_error", o.max_abs_error ? nlohmann::json(*o.max_abs_error) : nlohmann::json()},
                     {"max_rel_error", o.max_rel_error ? nlohmann::json(*o.max_rel_error) : nlohmann::json()}};
  j["delegates"] = nlohmann::json::array();
  for (const auto& d : r.delegates) {
    j["delegates"].push_back({{"label", d.label}, {"applied", d.status == kTfLiteOk}, {"error", d.message}});
  }
  j["invocations_per_run"] = o.invocations_per_run;
  j["latency_us"] = {{"reference", {{"avg", r.reference_us.avg()}, {"std", r.reference_us.std_deviation()}}},
                     {"test", {{"avg", r.test_us.avg()}, {"std", r.test_us.std_deviation()}}}};
  j["outputs"] = nlohmann::json::array();
  for (const auto& od : r.outputs) {
    nlohmann::json e = ErrorJson(od.error);
    e["index"] = od.index;
    e["name"] = od.name;
    e["type"] = od.type;
    e["shape"] = od.shape;
    e["exceeded"] = od.exceeded;
    e["tflite_output_diff"] = {{"avg_error", od.run_mean_abs_error.avg()},
                               {"std_dev", od.run_mean_abs_error.std_deviation()}};
    j["outputs"].push_back(e);
  }
  if (o.per_node) {
    j["per_node"] = {{"threshold", r.node_threshold_text}, {"tensors", nlohmann::json::array()}};
    for (const auto& d : r.nodes) {
      nlohmann::json e = ErrorJson(d.error);
      e["node"] = d.node;
      e["op"] = d.op;
      e["replaced_nodes"] = d.replaced;
      e["tensor"] = d.tensor;
      e["tensor_name"] = d.tensor_name;
      e["exceeded"] = d.exceeded;
      j["per_node"]["tensors"].push_back(e);
    }
    j["per_node"]["first_exceeding"] =
        r.first_bad_node < 0 ? nlohmann::json() : j["per_node"]["tensors"][r.first_bad_node];
  }
  j["exceeded"] = r.exceeded;
  return j;
}

std::vector<std::string> TfliteSummaryLines(const DiffResult& r) {
  // TFLite streams the values (6 significant digits); the latency deviation is an int64
  // field there, so it prints truncated.
  auto line = [](auto&&... parts) {
    std::ostringstream s;
    (s << ... << parts);
    return s.str();
  };
  std::vector<std::string> out;
  out.push_back(line("Num evaluation runs: ", r.reference_us.count()));
  out.push_back(line("Reference run latency: avg=", r.reference_us.avg(), "(us), std_dev=",
                     static_cast<int64_t>(r.reference_us.std_deviation()), "(us)"));
  out.push_back(line("Test run latency: avg=", r.test_us.avg(), "(us), std_dev=",
                     static_cast<int64_t>(r.test_us.std_deviation()), "(us)"));
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    const Stat<double>& e = r.outputs[i].run_mean_abs_error;
    out.push_back(line("OutputDiff[", i, "]: avg_error=", e.empty() ? 0.0 : e.avg(),
                       ", std_dev=", static_cast<float>(e.empty() ? 0.0 : e.std_deviation())));
  }
  return out;
}

std::string TfliteMetricsProto(const DiffResult& r) {
  // tflite.evaluation.EvaluationStageMetrics { num_runs = 1; process_metrics = 2 {
  // inference_profiler_metrics = 5 { reference_latency = 1; test_latency = 2;
  // repeated output_errors = 3 } } }, fields in number order as protobuf writes them.
  auto latency = [](const Stat<int64_t>& s) {
    ProtoWriter m;  // LatencyMetrics
    m.Int(1, s.newest()).Int(2, s.max()).Int(3, s.min());
    m.Int(4, static_cast<int64_t>(s.sum()));
    m.Double(5, s.avg());
    m.Int(6, static_cast<int64_t>(s.std_deviation()));
    return m;
  };
  ProtoWriter profiler;  // InferenceProfilerMetrics
  profiler.Message(1, latency(r.reference_us)).Message(2, latency(r.test_us));
  for (const auto& od : r.outputs) {
    const Stat<double>& e = od.run_mean_abs_error;
    const double avg = e.empty() ? 0.0 : e.avg();
    ProtoWriter m;  // AccuracyMetrics; TFLite writes max 0 when the average is 0
    m.Float(1, avg != 0 ? static_cast<float>(e.max()) : 0.0f);
    m.Float(2, e.empty() ? 0.0f : static_cast<float>(e.min()));
    m.Double(3, avg);
    m.Float(4, static_cast<float>(e.empty() ? 0.0 : e.std_deviation()));
    profiler.Message(3, m);
  }
  ProtoWriter process;  // ProcessMetrics
  process.Message(5, profiler);
  ProtoWriter metrics;  // EvaluationStageMetrics
  metrics.Int(1, r.reference_us.count()).Message(2, process);
  return metrics.bytes();
}

}  // namespace tflite_inspect
