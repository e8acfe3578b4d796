#include "diff/inference_diff.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "kernels/internal/fp16.h"
#include "runtime/delegation_record.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "tools/input_gen.h"
#include "tools/session.h"

namespace tflite_inspect {
namespace {

// A tensor's elements as real values (dequantized) and, for quantized tensors, the
// integers, read in place: an output is compared where it lies (a copy as doubles took 8
// bytes an element per side, 16 with a quantized tensor's integers: 16 to 32 times a
// crafted model's 1-byte output of gigabytes, past the memory limit that bounds the
// interpreters).
class Reader {
 public:
  explicit Reader(const TfLiteTensor& t) : t_(t) {
    if (t.dims != nullptr) shape.assign(t.dims->data, t.dims->data + t.dims->size);
    n_ = t.dims == nullptr ? 0 : static_cast<size_t>(tflite::NumElements(t.dims));
    switch (t.type) {
      case kTfLiteFloat32: case kTfLiteFloat64: case kTfLiteFloat16: case kTfLiteInt8:
      case kTfLiteUInt8: case kTfLiteInt16: case kTfLiteUInt16: case kTfLiteInt32:
      case kTfLiteUInt32: case kTfLiteInt64: case kTfLiteBool: break;
      default: supported = false;
    }
    if (t.data.raw == nullptr && n_ > 0) supported = false;
    q_ = t.quantization.type == kTfLiteAffineQuantization
             ? static_cast<const TfLiteAffineQuantization*>(t.quantization.params)
             : nullptr;
    quantized = q_ != nullptr && q_->scale != nullptr && q_->scale->size >= 1 &&
                (t.type == kTfLiteInt8 || t.type == kTfLiteUInt8 || t.type == kTfLiteInt16);
    // Per-channel outputs: the channel of element i along quantized_dimension.
    if (quantized && q_->scale->size > 1 && t.dims != nullptr &&
        q_->quantized_dimension < t.dims->size) {
      channels_ = t.dims->data[q_->quantized_dimension];
      for (int d = q_->quantized_dimension + 1; d < t.dims->size; ++d) inner_ *= t.dims->data[d];
    }
  }
  size_t size() const { return n_; }
  // The stored number (the integer of a quantized tensor).
  double stored(size_t i) const {
    const TfLiteTensor& t = t_;
    switch (t.type) {
      case kTfLiteFloat32: return t.data.f[i];
      case kTfLiteFloat64: return reinterpret_cast<const double*>(t.data.raw)[i];
      case kTfLiteFloat16: return tflite::fp16::HalfToFloat(reinterpret_cast<const uint16_t*>(t.data.raw)[i]);
      case kTfLiteInt8: return t.data.int8[i];
      case kTfLiteUInt8: return t.data.uint8[i];
      case kTfLiteInt16: return t.data.i16[i];
      case kTfLiteUInt16: return reinterpret_cast<const uint16_t*>(t.data.raw)[i];
      case kTfLiteInt32: return t.data.i32[i];
      case kTfLiteUInt32: return reinterpret_cast<const uint32_t*>(t.data.raw)[i];
      case kTfLiteInt64: return static_cast<double>(t.data.i64[i]);
      case kTfLiteBool: return t.data.b[i] ? 1 : 0;
      default: return 0;
    }
  }
  double value(size_t i) const {
    const double x = stored(i);
    if (!quantized) return x;
    const int c = channels_ > 1 ? static_cast<int>((static_cast<int64_t>(i) / inner_) % channels_) : 0;
    return q_->scale->data[c] * (x - q_->zero_point->data[c]);
  }
  int64_t raw(size_t i) const { return static_cast<int64_t>(stored(i)); }

  std::vector<int> shape;
  bool supported = true;
  bool quantized = false;

 private:
  const TfLiteTensor& t_;
  const TfLiteAffineQuantization* q_ = nullptr;
  size_t n_ = 0;
  int64_t inner_ = 1;
  int channels_ = 1;
};

// A copy of a tensor's values (per-node captures: later nodes overwrite the arena).
struct Values {
  std::vector<int> shape;
  std::vector<double> values;  // real values
  std::vector<int64_t> raws;   // quantized integers (quantized tensors only)
  bool quantized = false;
  bool supported = true;
  size_t size() const { return values.size(); }
  double value(size_t i) const { return values[i]; }
  int64_t raw(size_t i) const { return raws[i]; }
};

Values Read(const TfLiteTensor& t) {
  const Reader r(t);
  Values v;
  v.shape = r.shape;
  v.quantized = r.quantized;
  v.supported = r.supported;
  if (!r.supported) return v;
  v.values.resize(r.size());
  if (r.quantized) v.raws.resize(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    v.values[i] = r.value(i);
    if (r.quantized) v.raws[i] = r.raw(i);
  }
  return v;
}

// Ref and Test: Reader or Values.
template <class Ref, class Test>
ErrorStats Compare(const Ref& ref, const Test& test, int run) {
  ErrorStats e;
  if (!ref.supported || !test.supported) {
    e.note = "tensor type not compared";
    return e;
  }
  if (ref.shape != test.shape || ref.size() != test.size()) {
    e.shape_mismatch = true;
    auto dims = [](const std::vector<int>& s) {
      std::string r;
      for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
      return "[" + r + "]";
    };
    e.note = "shapes differ: " + dims(ref.shape) + " vs " + dims(test.shape);
    return e;
  }
  e.quantized = ref.quantized && test.quantized;
  const size_t n = ref.size();
  for (size_t i = 0; i < n; ++i) e.max_abs_ref = std::max(e.max_abs_ref, std::fabs(ref.value(i)));
  // Relative error only where the reference is not negligible, so that values near 0
  // do not dominate it.
  const double rel_floor = 1e-3 * std::max(1.0, e.max_abs_ref);
  for (size_t i = 0; i < n; ++i) {
    const double r = ref.value(i), t = test.value(i);
    const double d = std::fabs(t - r);
    const double d_raw = e.quantized ? static_cast<double>(std::llabs(test.raw(i) - ref.raw(i))) : d;
    e.sum_abs += d;
    e.sum_sq += d * d;
    e.sum_abs_raw += d_raw;
    if (d > e.max_abs || e.worst_index < 0) {
      e.max_abs = d;
      e.worst_index = static_cast<int64_t>(i);
      e.worst_run = run;
      e.worst_ref = r;
      e.worst_test = t;
    }
    if (std::fabs(r) >= rel_floor) e.max_rel = std::max(e.max_rel, d / std::fabs(r));
    if (e.quantized) e.max_abs_quantized = std::max(e.max_abs_quantized, d_raw);
  }
  e.count = static_cast<int64_t>(n);
  return e;
}

// Copies every tensor a node (or delegate kernel) of subgraph 0 writes, in run order.
class Capture : public tflite::Profiler {
 public:
  explicit Capture(tflite::Interpreter* interpreter) : interpreter_(interpreter) {}
  uint32_t BeginEvent(const char*, EventType type, int64_t node, int64_t subgraph) override {
    if (!enabled_ || type != EventType::OPERATOR_INVOKE_EVENT || subgraph != 0) return 0;
    open_.push_back(static_cast<int>(node));
    return static_cast<uint32_t>(open_.size());
  }
  void EndEvent(uint32_t handle) override {
    if (handle == 0 || handle > open_.size()) return;
    const int node = open_[handle - 1];
    open_.resize(handle - 1);
    const auto* nr = interpreter_->node_and_registration(node);
    for (int i = 0; nr != nullptr && i < nr->first.outputs->size; ++i) {
      const int t = nr->first.outputs->data[i];
      if (t < 0) continue;
      // Stale delegate buffers: read what a CPU consumer would read.
      if (interpreter_->EnsureTensorDataIsReadable(t) != kTfLiteOk) continue;
      captured.push_back({node, t, Read(*interpreter_->tensor(t))});
    }
  }
  void set_enabled(bool e) { enabled_ = e; }
  struct Item {
    int node, tensor;
    Values values;
  };
  std::vector<Item> captured;

 private:
  tflite::Interpreter* interpreter_;
  std::vector<int> open_;
  bool enabled_ = false;
};

struct Side {
  std::unique_ptr<Session> session;
  tflite::Interpreter* interpreter = nullptr;
  std::unique_ptr<Capture> capture;  // a profiler of `interpreter`: goes first
};

// `reference`: the CPU side (no delegates), for the wording of its errors.
// `share_with`: the other side's interpreter, whose memory limit this one shares (the
// limit is on both together: a crafted model cannot take twice the memory here).
Status Open(const std::string& path, const tflite::OpResolver& resolver, int threads,
            const DiffOptions& options, DelegatePlan plan, bool reference, Side* side,
            tflite::Interpreter* share_with = nullptr) {
  SessionOptions so;
  so.graph = path;
  so.num_threads = threads;
  so.limits = options.limits;
  so.share_memory_limit_with = share_with;
  SessionStage failed_at = SessionStage::kOpen;
  auto session = Session::Open(so, resolver, std::move(plan), &failed_at);
  if (!session.ok()) {
    // The reference runs every node on the CPU kernels: a node only a delegate can run
    // (an unresolved custom op it claims) has no reference.
    return SessionError(failed_at, session.status(),
                        {"cannot load " + path + ": ", "cannot build an interpreter for " + path + ": ",
                         std::string("AllocateTensors failed for the ") +
                             (reference ? "reference (CPU kernels, no delegates)" : "model under test") +
                             ": "});
  }
  side->session = std::move(session.value());
  side->interpreter = &side->session->interpreter();
  return Status::Ok();
}

int64_t Invoke(tflite::Interpreter* interpreter) {
  const auto start = std::chrono::steady_clock::now();
  const TfLiteStatus st = interpreter->Invoke();
  const auto end = std::chrono::steady_clock::now();
  if (st != kTfLiteOk) return -1;
  return std::chrono::duration_cast<std::chrono::microseconds>(end - start).count();
}

}  // namespace

double ErrorStats::rmse() const {
  return count ? std::sqrt(sum_sq / static_cast<double>(count)) : 0.0;
}

void ErrorStats::Add(const ErrorStats& o) {
  if (o.shape_mismatch || !o.note.empty()) {
    shape_mismatch = shape_mismatch || o.shape_mismatch;
    if (note.empty()) note = o.note;
  }
  if (o.count == 0) return;
  if (o.max_abs > max_abs || worst_index < 0) {
    max_abs = o.max_abs;
    worst_index = o.worst_index;
    worst_run = o.worst_run;
    worst_ref = o.worst_ref;
    worst_test = o.worst_test;
  }
  count += o.count;
  sum_abs += o.sum_abs;
  sum_sq += o.sum_sq;
  sum_abs_raw += o.sum_abs_raw;
  max_rel = std::max(max_rel, o.max_rel);
  max_abs_ref = std::max(max_abs_ref, o.max_abs_ref);
  quantized = quantized || o.quantized;
  max_abs_quantized = std::max(max_abs_quantized, o.max_abs_quantized);
}

Result<DiffResult> RunInferenceDiff(const DiffOptions& options, const tflite::OpResolver& resolver,
                                    DelegatePlan delegates) {
  if (options.model_file.empty()) return InvalidArgument("--model_file (or --graph) is required");
  if (options.num_runs < 1) return InvalidArgument("--num_runs must be at least 1");
  if (options.invocations_per_run < 1) {
    return InvalidArgument("--invocations_per_run must be at least 1");
  }
  if (options.per_node && !options.reference_model_file.empty()) {
    return InvalidArgument("--per_node compares the tensors of one model; it cannot be combined "
                           "with --reference_model_file");
  }
  Side ref, test;
  const std::string ref_path =
      options.reference_model_file.empty() ? options.model_file : options.reference_model_file;
  TFI_RETURN_IF_ERROR(Open(ref_path, resolver, 1, options, DelegatePlan(), true, &ref));
  TFI_RETURN_IF_ERROR(Open(options.model_file, resolver, options.num_interpreter_threads, options,
                           std::move(delegates), false, &test, ref.interpreter));
  DiffResult result;
  result.delegates = test.session->applied();
  const auto& ref_inputs = ref.interpreter->inputs();
  const auto& test_inputs = test.interpreter->inputs();
  const auto& ref_outputs = ref.interpreter->outputs();
  const auto& test_outputs = test.interpreter->outputs();
  if (ref_inputs.size() != test_inputs.size() || ref_outputs.size() != test_outputs.size()) {
    return InvalidArgument(fmt::format(
        "the models differ in signature: {} inputs / {} outputs vs {} / {}", test_inputs.size(),
        test_outputs.size(), ref_inputs.size(), ref_outputs.size()));
  }
  if (!options.input_files.empty() && options.input_files.size() != ref_inputs.size()) {
    return InvalidArgument(fmt::format("{} input files given, the model has {} inputs",
                                       options.input_files.size(), ref_inputs.size()));
  }
  std::vector<std::vector<uint8_t>> file_inputs;
  for (const auto& path : options.input_files) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return IoError("cannot open input file '" + path + "'");
    file_inputs.emplace_back((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }
  for (size_t i = 0; i < ref_outputs.size(); ++i) {
    OutputDiff o;
    o.index = static_cast<int>(i);
    const TfLiteTensor* t = test.interpreter->tensor(test_outputs[i]);
    o.name = t->name ? t->name : "";
    o.type = TfLiteTypeGetName(t->type);
    if (t->dims) o.shape.assign(t->dims->data, t->dims->data + t->dims->size);
    result.outputs.push_back(o);
  }
  if (options.per_node) {
    for (Side* s : {&ref, &test}) {
      s->capture = std::make_unique<Capture>(s->interpreter);
      s->interpreter->SetProfiler(s->capture.get());
    }
  }
  std::vector<std::vector<uint8_t>> input_bytes(ref_inputs.size());  // kept across runs
  for (int run = 0; run < options.num_runs; ++run) {
    for (size_t i = 0; i < ref_inputs.size(); ++i) {
      TfLiteTensor* rt = ref.interpreter->tensor(ref_inputs[i]);
      TfLiteTensor* tt = test.interpreter->tensor(test_inputs[i]);
      if (rt->type != tt->type || rt->bytes != tt->bytes) {
        return InvalidArgument(fmt::format("input {} differs between the models ({} {} bytes vs "
                                           "{} {} bytes)", i, TfLiteTypeGetName(tt->type),
                                           tt->bytes, TfLiteTypeGetName(rt->type), rt->bytes));
      }
      const std::vector<uint8_t>* source = &input_bytes[i];
      if (!file_inputs.empty()) {
        source = &file_inputs[i];
        if (source->size() != rt->bytes) {
          return InvalidArgument(fmt::format("input file {} has {} bytes, input {} needs {}",
                                             options.input_files[i], source->size(), i, rt->bytes));
        }
      } else {
        TFI_RETURN_IF_ERROR(GenerateInput(*rt, options.seed + static_cast<uint64_t>(run),
                                          static_cast<int>(i), &input_bytes[i]));
      }
      CopyInputBytes(rt, source->data(), source->size());
      CopyInputBytes(tt, source->data(), source->size());
    }
    // As TFLite: the test side first, each side invoked invocations_per_run times and
    // timed together. Tensors are captured (per_node) in the first run's last invocation,
    // whose outputs are the ones compared.
    auto invoke = [&](Side& side) -> int64_t {
      int64_t total = 0;
      for (int k = 0; k < options.invocations_per_run; ++k) {
        if (side.capture) {
          side.capture->set_enabled(run == 0 && k == options.invocations_per_run - 1);
        }
        const int64_t us = Invoke(side.interpreter);
        if (us < 0) return -1;
        total += us;
      }
      return total;
    };
    const int64_t test_us = invoke(test);
    if (test_us < 0) return Status(StatusCode::kInvalidModel, "test Invoke failed: " + test.session->messages());
    const int64_t ref_us = invoke(ref);
    if (ref_us < 0) return Status(StatusCode::kInvalidModel, "reference Invoke failed: " + ref.session->messages());
    result.reference_us.UpdateStat(ref_us);
    result.test_us.UpdateStat(test_us);
    for (size_t i = 0; i < ref_outputs.size(); ++i) {
      const ErrorStats e = Compare(Reader(*ref.interpreter->tensor(ref_outputs[i])),
                                   Reader(*test.interpreter->tensor(test_outputs[i])), run);
      if (e.count > 0) {
        result.outputs[i].run_mean_abs_error.UpdateStat(e.sum_abs_raw /
                                                         static_cast<double>(e.count));
      }
      result.outputs[i].error.Add(e);
    }
  }
  auto beyond = [&](const ErrorStats& e, double abs_limit, std::optional<double> rel_limit) {
    if (e.shape_mismatch) return true;
    if (e.max_abs > abs_limit) return true;
    return rel_limit.has_value() && e.max_rel > *rel_limit;
  };
  for (auto& o : result.outputs) {
    o.exceeded = o.error.shape_mismatch ||
                 (options.max_abs_error && o.error.max_abs > *options.max_abs_error) ||
                 (options.max_rel_error && o.error.max_rel > *options.max_rel_error);
    result.exceeded = result.exceeded || o.exceeded;
  }
  if (options.per_node) {
    std::map<int, const Values*> ref_values;
    for (const auto& item : ref.capture->captured) ref_values[item.tensor] = &item.values;
    const auto& records = test.interpreter->primary_subgraph().delegation_records();
    for (const auto& item : test.capture->captured) {
      auto it = ref_values.find(item.tensor);
      if (it == ref_values.end()) continue;
      NodeDiff d;
      d.node = item.node;
      d.op = test.interpreter->primary_subgraph().OpName(item.node);
      for (const auto& rec : records) {
        for (const auto& p : rec->partitions) {
          if (p.kernel_node == item.node) d.replaced = p.nodes;
        }
      }
      d.tensor = item.tensor;
      const TfLiteTensor* t = test.interpreter->tensor(item.tensor);
      d.tensor_name = t->name ? t->name : "";
      d.error = Compare(*it->second, item.values, 0);
      const double limit = options.max_abs_error
                               ? *options.max_abs_error
                               : 1e-4 * std::max(1.0, d.error.max_abs_ref);
      d.exceeded = beyond(d.error, limit, options.max_rel_error);
      if (d.exceeded && result.first_bad_node < 0) {
        result.first_bad_node = static_cast<int>(result.nodes.size());
      }
      result.nodes.push_back(std::move(d));
    }
    result.node_threshold_text = options.max_abs_error
        ? fmt::format("max abs error {}", *options.max_abs_error)
        : "max abs error 1e-4 * max(1, max|reference|) per tensor (no --max_abs_error given)";
    if (options.max_rel_error) {
      result.node_threshold_text += fmt::format(", max rel error {}", *options.max_rel_error);
    }
    ref.interpreter->SetProfiler(nullptr);
    test.interpreter->SetProfiler(nullptr);
  }
  return result;
}

}  // namespace tflite_inspect
