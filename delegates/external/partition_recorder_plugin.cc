// The partition recorder: an external delegate plugin that records how a runtime
// partitions a graph, so the same plugin loaded into TFLite and into our runtime proves
// both partition alike (scripts/gen_partition_goldens.py, partition_goldens_test.cc).
//
// It uses only the TFLite C API of our headers (common.h, builtin_ops.h, and the
// header-only op names of schema_generated.h); no runtime code is linked, so it runs
// unchanged in any runtime with TFLite's ABI.
//
// Options: ops:OP,OP,...   builtin op names (CONV_2D) or custom op names to claim
//          dump:PATH       JSON file written at the end of every delegate Prepare
//
// In Prepare it claims every node of the execution plan whose op is listed, calls
// ReplaceNodeSubsetsWithDelegateKernels once with a kernel whose init records each
// partition's TfLiteDelegateParams, and writes the partitions and the execution plans
// before and after. The kernel's prepare does nothing and its invoke fails: it is for
// building and AllocateTensors only.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/schema/schema_generated.h"

#define TFI_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr char kKernelName[] = "PartitionRecorder";

struct Partition {
  std::vector<int> nodes, inputs, outputs;
};

struct Recorder {
  std::vector<std::string> ops;  // as given, in order
  std::set<std::string> op_set;
  std::string dump;
  int prepare_calls = 0;
  std::vector<Partition> partitions;
};

std::vector<int> ToVector(const TfLiteIntArray* a) {
  return a == nullptr ? std::vector<int>{} : std::vector<int>(a->data, a->data + a->size);
}

std::string OpName(const TfLiteRegistration& r) {
  if (r.builtin_code == kTfLiteBuiltinCustom || r.builtin_code == kTfLiteBuiltinDelegate) {
    if (r.custom_name != nullptr) return r.custom_name;
    return r.builtin_code == kTfLiteBuiltinCustom ? "CUSTOM" : "DELEGATE";
  }
  if (r.builtin_code >= tflite::BuiltinOperator_MIN &&
      r.builtin_code <= tflite::BuiltinOperator_MAX) {
    const char* name =
        tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(r.builtin_code));
    if (name != nullptr && name[0] != '\0') return name;
  }
  return "BUILTIN_" + std::to_string(r.builtin_code);
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string JsonInts(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// One node of a plan: {"node": 3, "op": "ADD", "delegate": false}.
struct PlanEntry {
  int node;
  std::string op;
  bool delegate;
};

TfLiteStatus ReadPlan(TfLiteContext* context, std::vector<PlanEntry>* plan) {
  TfLiteIntArray* execution_plan = nullptr;
  if (context->GetExecutionPlan(context, &execution_plan) != kTfLiteOk) {
    context->ReportError(context, "%s: GetExecutionPlan failed", kKernelName);
    return kTfLiteError;
  }
  // The array belongs to the runtime and changes with the next call: copy it first.
  const std::vector<int> nodes = ToVector(execution_plan);
  plan->clear();
  for (int node_index : nodes) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (context->GetNodeAndRegistration(context, node_index, &node, &reg) != kTfLiteOk ||
        reg == nullptr) {
      context->ReportError(context, "%s: GetNodeAndRegistration failed for node %d",
                           kKernelName, node_index);
      return kTfLiteError;
    }
    plan->push_back({node_index, OpName(*reg), reg->builtin_code == kTfLiteBuiltinDelegate});
  }
  return kTfLiteOk;
}

std::string PlanJson(const std::vector<PlanEntry>& plan) {
  std::string s = "[";
  for (size_t i = 0; i < plan.size(); ++i) {
    s += i ? ",\n    " : "\n    ";
    s += "{\"node\": " + std::to_string(plan[i].node) + ", \"op\": " + JsonString(plan[i].op) +
         ", \"delegate\": " + (plan[i].delegate ? "true" : "false") + "}";
  }
  return s + (plan.empty() ? "]" : "\n  ]");
}

bool WriteDump(const Recorder& r, const std::vector<PlanEntry>& before,
               const std::vector<int>& claimed, TfLiteStatus replace_status,
               const std::vector<PlanEntry>& after) {
  std::ostringstream out;
  out << "{\n  \"ops\": [";
  for (size_t i = 0; i < r.ops.size(); ++i) out << (i ? ", " : "") << JsonString(r.ops[i]);
  out << "],\n  \"prepare_calls\": " << r.prepare_calls;
  out << ",\n  \"plan_before\": " << PlanJson(before);
  out << ",\n  \"claimed\": " << JsonInts(claimed);
  out << ",\n  \"replace_status\": " << static_cast<int>(replace_status);
  out << ",\n  \"partitions\": [";
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    const Partition& p = r.partitions[i];
    out << (i ? ",\n    " : "\n    ") << "{\"nodes\": " << JsonInts(p.nodes)
        << ", \"input_tensors\": " << JsonInts(p.inputs)
        << ", \"output_tensors\": " << JsonInts(p.outputs) << "}";
  }
  out << (r.partitions.empty() ? "]" : "\n  ]");
  out << ",\n  \"plan_after\": " << PlanJson(after) << "\n}\n";
  FILE* f = std::fopen(r.dump.c_str(), "w");
  if (f == nullptr) return false;
  const std::string text = out.str();
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

// --- The delegate kernel: records its partition, never runs. ---------------------------

void* KernelInit(TfLiteContext*, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  auto* recorder = static_cast<Recorder*>(params->delegate->data_);
  recorder->partitions.push_back({ToVector(params->nodes_to_replace),
                                  ToVector(params->input_tensors),
                                  ToVector(params->output_tensors)});
  return nullptr;
}

void KernelFree(TfLiteContext*, void*) {}

TfLiteStatus KernelPrepare(TfLiteContext*, TfLiteNode*) { return kTfLiteOk; }

TfLiteStatus KernelInvoke(TfLiteContext* context, TfLiteNode*) {
  context->ReportError(context,
                       "%s: invoke is not supported (this delegate only records partitions)",
                       kKernelName);
  return kTfLiteError;
}

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  auto* recorder = static_cast<Recorder*>(delegate->data_);
  ++recorder->prepare_calls;
  recorder->partitions.clear();
  std::vector<PlanEntry> before, after;
  if (ReadPlan(context, &before) != kTfLiteOk) return kTfLiteError;
  std::vector<int> claimed;
  for (const PlanEntry& e : before) {
    if (recorder->op_set.count(e.op) != 0) claimed.push_back(e.node);
  }
  // Our own array (no runtime helper): size, then the node indices.
  auto* nodes = static_cast<TfLiteIntArray*>(
      std::malloc(sizeof(TfLiteIntArray) + claimed.size() * sizeof(int)));
  if (nodes == nullptr) return kTfLiteError;
  nodes->size = static_cast<int>(claimed.size());
  for (size_t i = 0; i < claimed.size(); ++i) nodes->data[i] = claimed[i];

  TfLiteRegistration kernel = {};
  kernel.init = KernelInit;
  kernel.free = KernelFree;
  kernel.prepare = KernelPrepare;
  kernel.invoke = KernelInvoke;
  kernel.builtin_code = kTfLiteBuiltinDelegate;
  kernel.custom_name = kKernelName;
  kernel.version = 1;
  const TfLiteStatus status =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, kernel, nodes, delegate);
  std::free(nodes);
  if (ReadPlan(context, &after) != kTfLiteOk) return kTfLiteError;
  if (!WriteDump(*recorder, before, claimed, status, after)) {
    context->ReportError(context, "%s: cannot write '%s'", kKernelName, recorder->dump.c_str());
    return kTfLiteError;
  }
  return status;
}

std::vector<std::string> SplitOps(const std::string& text) {
  std::vector<std::string> ops;
  std::stringstream ss(text);
  for (std::string op; std::getline(ss, op, ',');) {
    if (!op.empty()) ops.push_back(op);
  }
  return ops;
}

}  // namespace

TFI_PLUGIN_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(char** options_keys,
                                                                char** options_values,
                                                                size_t num_options,
                                                                void (*report_error)(const char*)) {
  auto fail = [&](const std::string& message) -> TfLiteDelegate* {
    if (report_error != nullptr) report_error(("partition recorder: " + message).c_str());
    return nullptr;
  };
  auto recorder = new Recorder();
  for (size_t i = 0; i < num_options; ++i) {
    const std::string key = options_keys[i] != nullptr ? options_keys[i] : "";
    const std::string value = options_values[i] != nullptr ? options_values[i] : "";
    if (key == "ops") {
      recorder->ops = SplitOps(value);
      recorder->op_set = std::set<std::string>(recorder->ops.begin(), recorder->ops.end());
    } else if (key == "dump") {
      recorder->dump = value;
    } else {
      delete recorder;
      return fail("unknown option '" + key + "' (known: ops, dump)");
    }
  }
  if (recorder->dump.empty()) {
    delete recorder;
    return fail("option 'dump' (the JSON file to write) is required");
  }
  auto* delegate = new TfLiteDelegate();  // every field zero: no buffer handles, no flags
  delegate->data_ = recorder;
  delegate->Prepare = DelegatePrepare;
  delegate->flags = kTfLiteDelegateFlagsNone;
  return delegate;
}

TFI_PLUGIN_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  delete static_cast<Recorder*>(delegate->data_);
  delete delegate;
}
