#include "tensorflow/lite/core/subgraph.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/arena_planner.h"
#include "runtime/delegation_record.h"
#include "runtime/graph_partition.h"
#include "runtime/memory_share.h"
#include "tensorflow/lite/interpreter_options.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite {
namespace {

TfLiteIntArray* ToIntArray(const std::vector<int>& v) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
  return a;
}

std::vector<int> ToVector(const TfLiteIntArray* a) {
  return a == nullptr ? std::vector<int>() : std::vector<int>(a->data, a->data + a->size);
}

// Bytes of a tensor of `type` and `dims`; false on overflow or a type without a size.
bool BytesRequired(TfLiteType type, const int* dims, int ndims, size_t* bytes) {
  size_t count = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return false;
    if (dims[i] != 0 && count > SIZE_MAX / static_cast<size_t>(dims[i])) return false;
    count *= static_cast<size_t>(dims[i]);
  }
  if (type == kTfLiteString || type == kTfLiteResource || type == kTfLiteVariant) {
    *bytes = 0;  // sized by their contents
    return true;
  }
  size_t elem = TfLiteTypeGetSize(type);
  if (elem == 0) return false;
  if (count > SIZE_MAX / elem) return false;
  *bytes = count * elem;
  return true;
}

Subgraph* Self(const TfLiteContext* ctx) { return static_cast<Subgraph*>(ctx->impl_); }

// "tensor 'name'", for the memory limit's messages.
std::string TensorLabel(const TfLiteTensor& t) {
  return std::string("tensor '") + (t.name ? t.name : "") + "'";
}

// The byte a variable tensor starts from: TFLite's ResetVariableTensor fills int8
// variables with their zero point (the quantized 0.0) and everything else with 0.
int VariableFill(const TfLiteTensor& t) {
  return t.is_variable && t.type == kTfLiteInt8 ? static_cast<int>(t.params.zero_point) : 0;
}

}  // namespace

Subgraph::Subgraph(ErrorReporter* error_reporter,
                   std::vector<std::unique_ptr<Subgraph>>* subgraphs, int index)
    : error_reporter_(error_reporter),
      subgraphs_(subgraphs),
      index_(index),
      planner_(new tflite_inspect::ArenaPlanner()) {
  SetupContext();
}

Subgraph::~Subgraph() {
  for (auto& nr : nodes_and_registration_) FreeNode(&nr);
  for (auto& t : tensors_) {
    // Constant data belongs to the model and arena data to the planner.
    if (t.allocation_type == kTfLiteArenaRw || t.allocation_type == kTfLiteArenaRwPersistent ||
        t.allocation_type == kTfLiteMmapRo) {
      t.data.raw = nullptr;
    }
    if (t.buffer_handle != kTfLiteNullBufferHandle && t.delegate != nullptr &&
        t.delegate->FreeBufferHandle != nullptr) {
      t.delegate->FreeBufferHandle(&context_, t.delegate, &t.buffer_handle);
    }
    TfLiteTensorFree(&t);
  }
  for (void* p : persistent_buffers_) std::free(p);
  TfLiteIntArrayFree(plan_cache_);
  FreePreviewCache();
}

void Subgraph::FreeNode(std::pair<TfLiteNode, TfLiteRegistration>* nr) {
  TfLiteNode& node = nr->first;
  if (nr->second.free != nullptr && node.user_data != nullptr) {
    nr->second.free(&context_, node.user_data);
  }
  TfLiteIntArrayFree(node.inputs);
  TfLiteIntArrayFree(node.outputs);
  TfLiteIntArrayFree(node.intermediates);
  TfLiteIntArrayFree(node.temporaries);
  std::free(node.builtin_data);
  node = TfLiteNode{};
}

void Subgraph::SetupContext() {
  context_.impl_ = this;
  context_.GetExecutionPlan = GetExecutionPlanCb;
  context_.ResizeTensor = ResizeTensorCb;
  context_.ReportError = ReportErrorCb;
  context_.AddTensors = AddTensorsCb;
  context_.GetNodeAndRegistration = GetNodeAndRegistrationCb;
  context_.AllocatePersistentBuffer = AllocatePersistentBufferCb;
  context_.RequestScratchBufferInArena = RequestScratchBufferInArenaCb;
  context_.GetScratchBuffer = GetScratchBufferCb;
  context_.GetTensor = GetTensorCb;
  context_.GetEvalTensor = GetEvalTensorCb;
  context_.GetExternalContext = GetExternalContextCb;
  context_.ReplaceNodeSubsetsWithDelegateKernels = ForbiddenReplaceCb;
  context_.PreviewDelegatePartitioning = ForbiddenPreviewCb;
  context_.SetExternalContext = SetExternalContextCb;
  context_.recommended_num_threads = 1;
  external_contexts_[kTfLiteCpuBackendContext] = &runtime_context_;
  context_.tensors = nullptr;
  context_.tensors_size = 0;
}

void Subgraph::SetThreadPool(pthreadpool* pool, int num_threads) {
  runtime_context_.thread_pool = pool;
  context_.recommended_num_threads = num_threads;
}

// --- Building ------------------------------------------------------------------------

TfLiteStatus Subgraph::AddTensors(int tensors_to_add, int* first_new_tensor_index) {
  if (tensors_to_add < 0) return kTfLiteError;
  const size_t base = tensors_.size();
  if (first_new_tensor_index != nullptr) *first_new_tensor_index = static_cast<int>(base);
  tensors_.resize(base + tensors_to_add);
  for (size_t i = base; i < tensors_.size(); ++i) {
    tensors_[i] = TfLiteTensor{};
    tensors_[i].buffer_handle = kTfLiteNullBufferHandle;
  }
  eval_tensors_.resize(tensors_.size());
  context_.tensors = tensors_.data();
  context_.tensors_size = tensors_.size();
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetTensorParametersReadOnly(int tensor_index, TfLiteType type,
                                                   const char* name,
                                                   const std::vector<int>& dims,
                                                   TfLiteQuantization quantization,
                                                   const char* buffer, size_t bytes,
                                                   const void* allocation,
                                                   TfLiteSparsity* sparsity) {
  if (tensor_index < 0 || static_cast<size_t>(tensor_index) >= tensors_.size()) {
    ReportError("SetTensorParametersReadOnly: tensor index %d out of range", tensor_index);
    return kTfLiteError;
  }
  // Sizes of sparse and string tensors depend on their contents; the loader already
  // checked the rest against shape x type.
  size_t required = 0;
  if (sparsity == nullptr &&
      BytesRequired(type, dims.data(), static_cast<int>(dims.size()), &required) &&
      required != 0 && required != bytes && type != kTfLiteInt4) {
    ReportError("tensor %d ('%s'): constant buffer holds %zu bytes, its shape needs %zu",
                tensor_index, name ? name : "", bytes, required);
    return kTfLiteError;
  }
  TfLiteTensor& t = tensors_[tensor_index];
  TfLiteTensorReset(type, name, ToIntArray(dims), TfLiteQuantizationParams{},
                    const_cast<char*>(buffer), bytes, kTfLiteMmapRo, allocation, false, &t);
  t.quantization = quantization;
  if (quantization.type == kTfLiteAffineQuantization && quantization.params != nullptr) {
    auto* q = static_cast<TfLiteAffineQuantization*>(quantization.params);
    if (q->scale != nullptr && q->scale->size > 0) t.params.scale = q->scale->data[0];
    if (q->zero_point != nullptr && q->zero_point->size > 0) {
      t.params.zero_point = q->zero_point->data[0];
    }
  }
  t.sparsity = sparsity;
  state_ = State::kUninvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetTensorParametersReadWrite(int tensor_index, TfLiteType type,
                                                    const char* name,
                                                    const std::vector<int>& dims,
                                                    TfLiteQuantization quantization,
                                                    bool is_variable,
                                                    const std::vector<int>& dims_signature) {
  if (tensor_index < 0 || static_cast<size_t>(tensor_index) >= tensors_.size()) {
    ReportError("SetTensorParametersReadWrite: tensor index %d out of range", tensor_index);
    return kTfLiteError;
  }
  size_t bytes = 0;
  if (!BytesRequired(type, dims.data(), static_cast<int>(dims.size()), &bytes)) {
    ReportError("tensor %d ('%s'): cannot compute the byte size of its shape", tensor_index,
                name ? name : "");
    return kTfLiteError;
  }
  if (!WithinMemoryLimit(bytes, "tensor " + std::to_string(tensor_index) + " ('" +
                                    (name ? name : "") + "')")) {
    return kTfLiteError;
  }
  TfLiteAllocationType alloc = is_variable ? kTfLiteArenaRwPersistent : kTfLiteArenaRw;
  // Strings and resources are sized by content: they live on the heap.
  if (type == kTfLiteString || type == kTfLiteResource || type == kTfLiteVariant) {
    alloc = kTfLiteDynamic;
  }
  TfLiteTensor& t = tensors_[tensor_index];
  TfLiteTensorReset(type, name, ToIntArray(dims), TfLiteQuantizationParams{}, nullptr, bytes,
                    alloc, nullptr, is_variable, &t);
  t.quantization = quantization;
  if (quantization.type == kTfLiteAffineQuantization && quantization.params != nullptr) {
    auto* q = static_cast<TfLiteAffineQuantization*>(quantization.params);
    if (q->scale != nullptr && q->scale->size > 0) t.params.scale = q->scale->data[0];
    if (q->zero_point != nullptr && q->zero_point->size > 0) {
      t.params.zero_point = q->zero_point->data[0];
    }
  }
  if (!dims_signature.empty()) t.dims_signature = ToIntArray(dims_signature);
  state_ = State::kUninvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::CheckTensorIndices(const char* label, const std::vector<int>& indices) {
  for (int index : indices) {
    if (index == kTfLiteOptionalTensor) continue;
    if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) {
      ReportError("Invalid tensor index %d in %s. The subgraph has %zu tensors", index, label,
                  tensors_.size());
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::AddNodeWithParameters(const std::vector<int>& inputs,
                                             const std::vector<int>& outputs,
                                             const std::vector<int>& intermediates,
                                             const char* init_data, size_t init_data_size,
                                             void* builtin_data,
                                             const TfLiteRegistration* registration,
                                             int* node_index) {
  std::unique_ptr<void, decltype(&std::free)> owned(builtin_data, &std::free);
  if (registration == nullptr) {
    ReportError("AddNodeWithParameters: no registration");
    return kTfLiteError;
  }
  if (CheckTensorIndices("node input tensors", inputs) != kTfLiteOk ||
      CheckTensorIndices("node output tensors", outputs) != kTfLiteOk ||
      CheckTensorIndices("node intermediate tensors", intermediates) != kTfLiteOk) {
    return kTfLiteError;
  }
  const int index = static_cast<int>(nodes_and_registration_.size());
  if (node_index != nullptr) *node_index = index;
  nodes_and_registration_.emplace_back();
  auto& [node, reg] = nodes_and_registration_.back();
  reg = *registration;
  node.inputs = ToIntArray(inputs);
  node.outputs = ToIntArray(outputs);
  node.intermediates = ToIntArray(intermediates);
  node.temporaries = TfLiteIntArrayCreate(0);
  node.builtin_data = owned.release();
  node.custom_initial_data = init_data;
  node.custom_initial_data_size = static_cast<int>(init_data_size);
  node.delegate = nullptr;
  // As TFLite's OpMightHaveSideEffect: a node touching a resource or variant tensor
  // (ASSIGN_VARIABLE writes a variable and has no outputs), and control flow. Such nodes
  // are never folded or skipped.
  node.might_have_side_effect = reg.builtin_code == BuiltinOperator_IF ||
                                reg.builtin_code == BuiltinOperator_WHILE ||
                                reg.builtin_code == BuiltinOperator_CALL_ONCE;
  for (const std::vector<int>* list : {&inputs, &outputs}) {
    for (const int t : *list) {
      if (t >= 0 && (tensors_[t].type == kTfLiteResource || tensors_[t].type == kTfLiteVariant)) {
        node.might_have_side_effect = true;
      }
    }
  }
  // Builtins receive their params struct through init's buffer, as in TFLite.
  if (reg.init != nullptr) {
    node.user_data = init_data != nullptr
                         ? reg.init(&context_, init_data, init_data_size)
                         : reg.init(&context_, static_cast<const char*>(node.builtin_data), 0);
  }
  execution_plan_.push_back(index);
  folded_.push_back(false);
  state_ = State::kUninvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetInputs(std::vector<int> inputs) {
  TF_LITE_ENSURE_OK(&context_, CheckTensorIndices("inputs", inputs));
  inputs_ = std::move(inputs);
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetOutputs(std::vector<int> outputs) {
  TF_LITE_ENSURE_OK(&context_, CheckTensorIndices("outputs", outputs));
  outputs_ = std::move(outputs);
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetVariables(std::vector<int> variables) {
  TF_LITE_ENSURE_OK(&context_, CheckTensorIndices("variables", variables));
  variables_ = std::move(variables);
  return kTfLiteOk;
}

// --- Introspection -------------------------------------------------------------------

TfLiteTensor* Subgraph::tensor(int index) {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) return nullptr;
  return &tensors_[index];
}

const TfLiteTensor* Subgraph::tensor(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) return nullptr;
  return &tensors_[index];
}

const std::pair<TfLiteNode, TfLiteRegistration>* Subgraph::node_and_registration(
    int node_index) const {
  if (node_index < 0 || static_cast<size_t>(node_index) >= nodes_and_registration_.size()) {
    return nullptr;
  }
  return &nodes_and_registration_[node_index];
}

std::pair<TfLiteNode, TfLiteRegistration>* Subgraph::node_and_registration(int node_index) {
  if (node_index < 0 || static_cast<size_t>(node_index) >= nodes_and_registration_.size()) {
    return nullptr;
  }
  return &nodes_and_registration_[node_index];
}

std::string Subgraph::OpName(int node_index) const {
  const auto* nr = node_and_registration(node_index);
  if (nr == nullptr) return "?";
  const TfLiteRegistration& r = nr->second;
  if (r.builtin_code == BuiltinOperator_CUSTOM) return r.custom_name ? r.custom_name : "CUSTOM";
  if (r.builtin_code == BuiltinOperator_DELEGATE) {
    return r.custom_name != nullptr ? r.custom_name : "DELEGATE";
  }
  const char* n = EnumNameBuiltinOperator(static_cast<BuiltinOperator>(r.builtin_code));
  return n != nullptr && n[0] != '\0' ? n : "UNKNOWN";
}

size_t Subgraph::arena_bytes() const { return planner_->arena_bytes(); }

void Subgraph::ReportError(const char* format, ...) {
  va_list args;
  va_start(args, format);
  ReportErrorV(format, args);
  va_end(args);
}

void Subgraph::ReportErrorV(const char* format, va_list args) {
  if (error_capture_ != nullptr || runtime_context_.delegation != nullptr) {
    va_list copy;
    va_copy(copy, args);
    char buf[2048];
    std::vsnprintf(buf, sizeof(buf), format, copy);
    va_end(copy);
    if (error_capture_ != nullptr) {
      if (!error_capture_->empty()) error_capture_->push_back('\n');
      error_capture_->append(buf);
    }
    if (auto* record = runtime_context_.delegation) record->reported.push_back(buf);
  }
  error_reporter_->Report(format, args);
}

// --- Preparing and allocating --------------------------------------------------------

bool Subgraph::IsConstant(int tensor_index) const {
  const TfLiteTensor& t = tensors_[tensor_index];
  return t.allocation_type == kTfLiteMmapRo || t.allocation_type == kTfLitePersistentRo;
}

TfLiteStatus UnresolvedCustomOpInvoke(TfLiteContext* context, TfLiteNode*) {
  context->ReportError(context,
                       "Encountered an unresolved custom op. Did you miss a custom op or delegate?");
  return kTfLiteError;
}

bool IsUnresolvedCustomOp(const TfLiteRegistration& r) {
  return r.builtin_code == BuiltinOperator_CUSTOM && r.prepare == nullptr &&
         r.invoke == UnresolvedCustomOpInvoke;
}

void Subgraph::ReportNodeNote(int node_index) {
  auto it = node_notes_.find(node_index);
  if (it != node_notes_.end()) {
    ReportError("Node number %d (%s): %s.", node_index, OpName(node_index).c_str(),
                it->second.c_str());
  }
}

TfLiteStatus Subgraph::PrepareNode(int node_index) {
  auto& [node, reg] = nodes_and_registration_[node_index];
  if (IsUnresolvedCustomOp(reg)) {
    const char* name = reg.custom_name != nullptr ? reg.custom_name : "UnknownOp";
    if (std::strncmp(name, "Flex", 4) == 0) {
      ReportError(
          "Select TensorFlow op(s), included in the given model, is(are) not supported by this "
          "interpreter. Make sure you apply/link the Flex delegate before inference. For the "
          "Android, it can be resolved by adding \"org.tensorflow:tensorflow-lite-select-tf-ops\" "
          "dependency. See instructions: https://www.tensorflow.org/lite/guide/ops_select");
    } else {
      ReportError("Encountered unresolved custom op: %s.\nSee instructions: "
                  "https://www.tensorflow.org/lite/guide/ops_custom ",
                  name);
    }
    ReportError("Node number %d (%s) failed to prepare.", node_index, OpName(node_index).c_str());
    // Beyond TFLite, which stops at the first: every such node of the plan in one line.
    std::string all;
    int count = 0;
    for (int n : execution_plan_) {
      if (!IsUnresolvedCustomOp(nodes_and_registration_[n].second)) continue;
      if (++count <= 12) all += (count > 1 ? ", " : "") + std::to_string(n) + " (" + OpName(n) + ")";
    }
    if (count > 1) {
      ReportError("Unresolved custom ops in subgraph %d: %d nodes: %s%s", index_, count,
                  all.c_str(), count > 12 ? ", ..." : "");
    }
    return kTfLiteError;
  }
  if (shaped_partitions_.count(node_index) != 0 && node.builtin_data != nullptr) {
    // The partition's shapes are this run's: its own nodes propagate them first (as
    // TFLite does for delegates with kTfLiteDelegateFlagsRequirePropagatedShapes).
    const auto* params = static_cast<const TfLiteDelegateParams*>(node.builtin_data);
    for (int i = 0; i < params->nodes_to_replace->size; ++i) {
      TF_LITE_ENSURE_STATUS(PrepareNode(params->nodes_to_replace->data[i]));
    }
  }
  if (reg.prepare == nullptr) return kTfLiteOk;
  TakeMultiplierRangeError();  // a note left by someone else is not this node's
  const TfLiteStatus prepared = reg.prepare(&context_, &node);
  const MultiplierRangeError range = TakeMultiplierRangeError();
  if (prepared == kTfLiteOk && range.set) {
    ReportError("%s: its quantization parameters give a rescaling multiplier of %g, which "
                "%s; the integer kernels cannot represent it",
                OpName(node_index).c_str(), range.multiplier, range.why);
  }
  if (prepared != kTfLiteOk || range.set) {
    ReportError("Node number %d (%s) failed to prepare.", node_index,
                OpName(node_index).c_str());
    ReportNodeNote(node_index);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// As TFLite's PrepareOpsStartingAt: stops after the first node whose output is dynamic
// (its shape is known only once it has run); Invoke prepares the nodes after it.
TfLiteStatus Subgraph::PrepareFrom(int plan_index, bool skip_unresolved,
                                   std::vector<char>* shaped_at_invoke) {
  // Before any kernel's prepare sizes its own buffers from them (here or in a static
  // delegate's preparation): no tensor over the memory limit, which may have been set
  // after the tensors were.
  if (plan_index == 0) {
    for (const auto& t : tensors_) {
      if ((t.allocation_type == kTfLiteArenaRw ||
           t.allocation_type == kTfLiteArenaRwPersistent) &&
          !WithinMemoryLimit(t.bytes, TensorLabel(t))) {
        return kTfLiteError;
      }
    }
  }
  if (shaped_at_invoke != nullptr) shaped_at_invoke->assign(tensors_.size(), 0);
  int first_dynamic = -1;  // plan index after which Invoke prepares again
  for (size_t i = plan_index; i < execution_plan_.size(); ++i) {
    const int n = execution_plan_[i];
    if (skip_unresolved && IsUnresolvedCustomOp(nodes_and_registration_[n].second)) continue;
    const TfLiteNode& node = nodes_and_registration_[n].first;
    if (shaped_at_invoke != nullptr) {
      bool after_dynamic = false;
      for (int k = 0; k < node.inputs->size && !after_dynamic; ++k) {
        const int t = node.inputs->data[k];
        after_dynamic = t >= 0 && (*shaped_at_invoke)[t] != 0;
      }
      if (after_dynamic) {
        for (int k = 0; k < node.outputs->size; ++k) {
          if (node.outputs->data[k] >= 0) (*shaped_at_invoke)[node.outputs->data[k]] = 1;
        }
        continue;
      }
    }
    TF_LITE_ENSURE_STATUS(PrepareNode(n));
    // As TFLite's kernels compute shape arithmetic on constant or persistent inputs at
    // prepare: a node whose inputs are all constant runs now, so the nodes after it see
    // constants (a RESHAPE whose shape comes from SHAPE -> STRIDED_SLICE -> PACK is static).
    TF_LITE_ENSURE_STATUS(FoldNode(n, /*before_planning=*/true));
    const TfLiteIntArray* outputs = nodes_and_registration_[n].first.outputs;
    for (int o = 0; o < outputs->size; ++o) {
      const int t = outputs->data[o];
      if (t >= 0 && tensors_[t].allocation_type == kTfLiteDynamic) {
        if (first_dynamic < 0) first_dynamic = static_cast<int>(i);
        if (shaped_at_invoke == nullptr) break;
        (*shaped_at_invoke)[t] = 1;
      }
    }
    if (first_dynamic >= 0 && shaped_at_invoke == nullptr) break;
  }
  next_plan_index_to_prepare_ =
      first_dynamic >= 0 ? first_dynamic + 1 : static_cast<int>(execution_plan_.size());
  return kTfLiteOk;
}

size_t Subgraph::memory_limit() const {
  return memory_share_ != nullptr ? memory_share_->limit : 0;
}

size_t Subgraph::AllocatedBytes() const {
  size_t total = planner_->allocated_bytes() + persistent_bytes_;
  for (const auto& b : scratch_buffers_) total += b.size();
  for (const auto& t : tensors_) {
    if ((t.allocation_type == kTfLiteDynamic || t.allocation_type == kTfLitePersistentRo) &&
        t.data.raw != nullptr) {
      total += t.bytes;
    }
  }
  return total;
}

bool Subgraph::WithinMemoryLimit(size_t bytes, const std::string& what) {
  const size_t limit = memory_limit();
  if (limit == 0 || bytes <= limit) return true;
  ReportError("%s needs %zu bytes (%.1f MiB), more than the memory limit of %zu bytes "
              "(%.1f MiB)",
              what.c_str(), bytes, bytes / 1048576.0, limit, limit / 1048576.0);
  return false;
}

bool Subgraph::CanAllocate(size_t extra, const std::string& what) {
  const size_t limit = memory_limit();
  if (limit == 0 || extra == 0) return true;
  if (!WithinMemoryLimit(extra, what)) return false;
  const size_t used = memory_share_->Allocated();
  if (used <= limit && extra <= limit - used) return true;
  ReportError("%s needs %zu bytes (%.1f MiB) more; with the %zu bytes (%.1f MiB) already "
              "allocated%s, that is over the memory limit of %zu bytes (%.1f MiB)",
              what.c_str(), extra, extra / 1048576.0, used, used / 1048576.0,
              memory_share_->members.size() > 1 ? " by the interpreters that share the limit"
                                                : "",
              limit, limit / 1048576.0);
  return false;
}

// Buffers of variable (kTfLiteArenaRwPersistent) tensors, kept until destruction.
TfLiteStatus Subgraph::AllocatePersistent(TfLiteTensor* t) {
  if (!CanAllocate(t->bytes, TensorLabel(*t))) {
    return kTfLiteError;
  }
  void* p = std::aligned_alloc(tflite_inspect::ArenaPlanner::kAlignment,
                               (t->bytes + tflite_inspect::ArenaPlanner::kTailPadding + 63) / 64 * 64);
  if (p == nullptr) {
    ReportError("Failed to allocate %zu bytes for tensor '%s'", t->bytes, t->name ? t->name : "");
    return kTfLiteError;
  }
  std::memset(p, VariableFill(*t), t->bytes);
  persistent_buffers_.push_back(p);
  persistent_bytes_ += t->bytes;
  t->data.raw = static_cast<char*>(p);
  return kTfLiteOk;
}

// Sets `*busy` for its scope, unless it is set already: then control flow has led back
// into a subgraph that is being prepared or run, which is reported (`what` of subgraph N
// re-entered) instead of recursing until the stack overflows.
class Subgraph::ReentryGuard {
 public:
  ReentryGuard(Subgraph* sg, bool* busy, const char* what) : busy_(busy), entered_(!*busy) {
    if (!entered_) {
      sg->ReportError("%s of subgraph %d re-entered: the model's control flow calls the "
                      "subgraph from itself", what, sg->index_);
      return;
    }
    *busy_ = true;
  }
  ~ReentryGuard() {
    if (entered_) *busy_ = false;
  }
  bool entered() const { return entered_; }

 private:
  bool* busy_;
  bool entered_;
};

TfLiteStatus Subgraph::AllocateTensors() {
  if (in_invoke_) {
    ReportError("AllocateTensors called from within Invoke");
    return kTfLiteError;
  }
  if (state_ != State::kUninvokable) return kTfLiteOk;
  // Delegates undone by a resize are applied again to the resized graph (which allocates
  // the tensors itself: that AllocateTensors is a nested one, by design).
  TF_LITE_ENSURE_STATUS(RedoAllDelegates());
  if (state_ != State::kUninvokable) return kTfLiteOk;
  const ReentryGuard guard(this, &in_allocate_, "AllocateTensors");
  if (!guard.entered()) return kTfLiteError;
  // Variables keep their buffer (and state) across re-allocations.
  for (int v : variables_) {
    TfLiteTensor& t = tensors_[v];
    if (t.allocation_type == kTfLiteArenaRwPersistent && t.data.raw == nullptr) {
      TF_LITE_ENSURE_STATUS(AllocatePersistent(&t));
    }
  }
  std::fill(folded_.begin(), folded_.end(), false);
  // Arena pointers from an earlier plan must not survive into this one (a tensor that
  // moved inside a delegated partition would otherwise point into reused bytes).
  for (auto& t : tensors_) {
    if (t.allocation_type == kTfLiteArenaRw) t.data.raw = nullptr;
  }
  TF_LITE_ENSURE_STATUS(PrepareFrom(0));

  // Lifetimes over the execution plan; graph inputs and outputs live throughout.
  const int steps = static_cast<int>(execution_plan_.size());
  std::vector<int> first(tensors_.size(), -1), last(tensors_.size(), -1);
  auto touch = [&](int t, int step) {
    if (t < 0) return;
    if (first[t] < 0 || step < first[t]) first[t] = step;
    last[t] = std::max(last[t], step);
  };
  for (int t : inputs_) {
    touch(t, 0);
    touch(t, steps);
  }
  for (int t : outputs_) {
    touch(t, 0 < steps ? steps : 0);
    if (t >= 0) first[t] = std::min(first[t], steps);
  }
  for (int step = 0; step < steps; ++step) {
    const TfLiteNode& node = nodes_and_registration_[execution_plan_[step]].first;
    for (const TfLiteIntArray* list : {node.inputs, node.outputs, node.intermediates,
                                       node.temporaries}) {
      for (int i = 0; list != nullptr && i < list->size; ++i) touch(list->data[i], step);
    }
  }
  // A graph output produced by a node lives from that node on.
  for (int t : outputs_) {
    if (t >= 0) last[t] = steps;
  }
  // RESHAPE, EXPAND_DIMS and SQUEEZE on the CPU whose input is read by nothing after them
  // write their output into the input's bytes, as TFLite's arena shares them
  // (kTfLiteInplaceOpInput0Shared): the output gets no bytes of its own, the input's live
  // until the output's last use, and the kernel skips its copy (the pointers are equal).
  // Copied, a Conv1D's EXPAND_DIMS / SQUEEZE pairs around CPU layers took a third of a
  // dynamic-range 1-D convnet's time.
  std::vector<int> shares(tensors_.size(), -1);  // tensor -> the tensor whose bytes it uses
  for (int step = 0; step < steps; ++step) {
    const auto& [node, reg] = nodes_and_registration_[execution_plan_[step]];
    const int op = reg.builtin_code;
    if (node.delegate != nullptr || node.inputs == nullptr || node.outputs == nullptr ||
        node.inputs->size < 1 || node.outputs->size != 1 ||
        (op != BuiltinOperator_RESHAPE && op != BuiltinOperator_EXPAND_DIMS &&
         op != BuiltinOperator_SQUEEZE)) {
      continue;
    }
    const int a = node.inputs->data[0], b = node.outputs->data[0];
    if (a < 0 || b < 0 || a == b) continue;
    const TfLiteTensor& in = tensors_[a];
    const TfLiteTensor& out = tensors_[b];
    if (in.allocation_type != kTfLiteArenaRw || out.allocation_type != kTfLiteArenaRw ||
        in.type == kTfLiteString || in.bytes != out.bytes || last[a] != step ||
        std::find(outputs_.begin(), outputs_.end(), b) != outputs_.end()) {
      continue;
    }
    const int root = shares[a] >= 0 ? shares[a] : a;
    shares[b] = root;
    last[root] = std::max(last[root], last[b]);
  }
  std::vector<tflite_inspect::ArenaPlanner::Request> requests;
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if (tensors_[t].allocation_type != kTfLiteArenaRw || shares[t] >= 0) continue;
    // Tensors no node in the plan touches (inside a delegated partition) get no arena
    // bytes; a delegate kernel may have given them memory of its own in its prepare.
    if (first[t] < 0) continue;
    requests.push_back({static_cast<int>(t), tensors_[t].bytes, first[t], last[t]});
  }
  // The new arena replaces this subgraph's old one: it may use what the others leave.
  const size_t old_arena = planner_->allocated_bytes();
  size_t arena_limit = 0;
  const size_t limit = memory_limit();
  if (limit != 0) {
    const size_t others = memory_share_->Allocated() - old_arena;
    arena_limit = others < limit ? limit - others : 1;
  }
  if (!planner_->Plan(requests, arena_limit)) {
    if (arena_limit != 0 && planner_->arena_bytes() > arena_limit) {
      const size_t wanted = planner_->arena_bytes();
      CanAllocate(wanted > old_arena ? wanted - old_arena : wanted,
                  "the tensor arena of subgraph " + std::to_string(index_));
    } else {
      ReportError("Failed to allocate the tensor arena (%zu bytes) of subgraph %d",
                  planner_->arena_bytes(), index_);
    }
    return kTfLiteError;
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    tensors_[requests[i].tensor].data.raw =
        reinterpret_cast<char*>(planner_->base() + planner_->offset(i));
  }
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if (shares[t] >= 0) tensors_[t].data.raw = tensors_[shares[t]].data.raw;
  }
  for (auto& t : tensors_) {
    if (t.allocation_type == kTfLiteArenaRwPersistent && t.data.raw == nullptr) {
      TF_LITE_ENSURE_STATUS(AllocatePersistent(&t));
    }
  }
  state_ = State::kInvokable;
  return FoldConstantNodes();
}

// Runs, once, every node whose inputs are all constant (for example DEQUANTIZE of fp16
// weights) and turns its outputs into persistent constants, so Invoke skips it.
TfLiteStatus Subgraph::FoldConstantNodes(bool before_planning) {
  // Nodes after a dynamic output are not prepared yet: they run (and fold) in Invoke.
  for (int step = 0; step < next_plan_index_to_prepare_; ++step) {
    TF_LITE_ENSURE_STATUS(FoldNode(execution_plan_[step], before_planning));
  }
  return kTfLiteOk;
}

// before_planning: nodes with temporaries are left alone (arena memory does not exist yet).
TfLiteStatus Subgraph::FoldNode(int n, bool before_planning) {
  auto& [node, reg] = nodes_and_registration_[n];
  if (before_planning && node.temporaries != nullptr && node.temporaries->size > 0) {
    return kTfLiteOk;
  }
  if (reg.builtin_code == BuiltinOperator_CUSTOM || reg.builtin_code == BuiltinOperator_DELEGATE ||
      reg.builtin_code == BuiltinOperator_WHILE || reg.builtin_code == BuiltinOperator_IF ||
      reg.builtin_code == BuiltinOperator_CALL_ONCE || node.might_have_side_effect ||
      reg.invoke == nullptr || node.inputs->size == 0) {
    return kTfLiteOk;
  }
  for (int i = 0; i < node.inputs->size; ++i) {
    const int t = node.inputs->data[i];
    if (t != kTfLiteOptionalTensor && !IsConstant(t)) return kTfLiteOk;
  }
  bool already_folded = node.outputs->size > 0;
  for (int i = 0; i < node.outputs->size; ++i) {
    const int t = node.outputs->data[i];
    if (t < 0 || std::find(outputs_.begin(), outputs_.end(), t) != outputs_.end()) return kTfLiteOk;
    const TfLiteAllocationType a = tensors_[t].allocation_type;
    // A dynamic output (shape from constant values, e.g. FILL or RANGE) is sized by Eval.
    if (a != kTfLiteArenaRw && a != kTfLitePersistentRo && a != kTfLiteDynamic) return kTfLiteOk;
    already_folded = already_folded && a == kTfLitePersistentRo && tensors_[t].data.raw != nullptr;
  }
  // Computed by an earlier prepare (or before a delegate was applied): keep it.
  if (already_folded) {
    folded_[n] = true;
    return kTfLiteOk;
  }
  // Give the outputs their own buffers, compute them, and mark them constant.
  // (kTfLitePersistentRo buffers belong to their tensor, as in TFLite.)
  for (int i = 0; i < node.outputs->size; ++i) {
    TfLiteTensor& t = tensors_[node.outputs->data[i]];
    if (t.allocation_type == kTfLiteDynamic) continue;
    if (t.allocation_type == kTfLiteArenaRw) t.data.raw = nullptr;  // arena bytes are not its own
    t.allocation_type = kTfLitePersistentRo;
    if (!CanAllocate(t.bytes, TensorLabel(t))) return kTfLiteError;
    TF_LITE_ENSURE_STATUS(TfLiteTensorRealloc(t.bytes, &t));
  }
  if (reg.invoke(&context_, &node) != kTfLiteOk) {
    ReportError("Node number %d (%s) failed to invoke.", n, OpName(n).c_str());
    return kTfLiteError;
  }
  for (int i = 0; i < node.outputs->size; ++i) {
    // Both heap buffers of the tensor: a dynamic output becomes a constant as it is.
    tensors_[node.outputs->data[i]].allocation_type = kTfLitePersistentRo;
  }
  folded_[n] = true;
  return kTfLiteOk;
}

// --- Running -------------------------------------------------------------------------

TfLiteStatus Subgraph::ResizeInputTensor(int tensor_index, const std::vector<int>& dims) {
  if (std::find(inputs_.begin(), inputs_.end(), tensor_index) == inputs_.end() &&
      std::find(variables_.begin(), variables_.end(), tensor_index) == variables_.end()) {
    ReportError("ResizeInputTensor: tensor %d is not an input of subgraph %d", tensor_index,
                index_);
    return kTfLiteError;
  }
  TfLiteTensor* t = tensor(tensor_index);
  for (int d : dims) {
    if (d < 0) {
      ReportError("ResizeInputTensor: dimension %d is negative", d);
      return kTfLiteError;
    }
  }
  if (t->dims != nullptr && ToVector(t->dims) == dims) return kTfLiteOk;
  // A delegate that cannot handle dynamic shapes made the graph immutable: undo the
  // delegates now; the next AllocateTensors applies them again to the new shapes.
  if (state_ == State::kInvokableAndImmutable) TF_LITE_ENSURE_STATUS(UndoAllDelegates());
  // Outputs of folded constant nodes must be recomputed after a re-prepare.
  for (auto& t2 : tensors_) {
    if (t2.allocation_type == kTfLitePersistentRo) {
      TfLiteTensorDataFree(&t2);
      t2.allocation_type = kTfLiteArenaRw;
    }
  }
  state_ = State::kUninvokable;
  return ResizeTensor(t, ToIntArray(dims));
}

TfLiteStatus Subgraph::ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) return kTfLiteError;
  const TfLiteIntArray* sig = t->dims_signature;
  if (sig != nullptr && sig->size > 0) {
    if (static_cast<size_t>(sig->size) != dims.size()) {
      ReportError("ResizeInputTensorStrict: rank %zu differs from the signature rank %d",
                  dims.size(), sig->size);
      return kTfLiteError;
    }
    for (int i = 0; i < sig->size; ++i) {
      if (sig->data[i] != -1 && sig->data[i] != dims[i]) {
        ReportError("ResizeInputTensorStrict: dimension %d is fixed at %d, got %d", i,
                    sig->data[i], dims[i]);
        return kTfLiteError;
      }
    }
  } else if (ToVector(t->dims) != dims) {
    ReportError("ResizeInputTensorStrict: tensor %d has a fixed shape", tensor_index);
    return kTfLiteError;
  }
  return ResizeInputTensor(tensor_index, dims);
}

TfLiteStatus Subgraph::ResizeTensor(TfLiteTensor* t, TfLiteIntArray* new_size) {
  std::unique_ptr<TfLiteIntArray, decltype(&TfLiteIntArrayFree)> owned(new_size,
                                                                       &TfLiteIntArrayFree);
  if (t->allocation_type != kTfLiteArenaRw && t->allocation_type != kTfLiteDynamic &&
      t->allocation_type != kTfLiteArenaRwPersistent &&
      t->allocation_type != kTfLitePersistentRo && t->allocation_type != kTfLiteCustom) {
    ReportError("Attempting to resize a fixed-size tensor.");
    return kTfLiteError;
  }
  size_t bytes = 0;
  if (!BytesRequired(t->type, new_size->data, new_size->size, &bytes)) {
    ReportError("ResizeTensor: invalid shape for tensor '%s'", t->name ? t->name : "");
    return kTfLiteError;
  }
  if (!WithinMemoryLimit(bytes, TensorLabel(*t))) {
    return kTfLiteError;
  }
  const size_t old_bytes = t->bytes;
  // A heap buffer grows (TfLiteTensorRealloc) by the difference; an arena tensor resized
  // while running moves to the heap whole.
  const bool heap = t->allocation_type == kTfLiteDynamic ||
                    t->allocation_type == kTfLitePersistentRo;
  const size_t held = heap && t->data.raw != nullptr ? old_bytes : 0;
  const bool to_heap = !heap && in_invoke_ && (bytes != old_bytes || t->data.raw == nullptr);
  if ((heap || to_heap) && bytes > held && !CanAllocate(bytes - held, TensorLabel(*t))) {
    return kTfLiteError;
  }
  TfLiteIntArrayFree(t->dims);
  t->dims = owned.release();
  // TfLiteTensorRealloc grows the buffer by comparing with t->bytes: it must still hold
  // the old size when it is called (it sets the new one).
  if (t->allocation_type == kTfLiteDynamic) {
    if (t->type != kTfLiteString && t->type != kTfLiteResource && t->type != kTfLiteVariant) {
      TF_LITE_ENSURE_STATUS(TfLiteTensorRealloc(bytes, t));
    }
  } else if (t->allocation_type == kTfLitePersistentRo) {
    TF_LITE_ENSURE_STATUS(TfLiteTensorRealloc(bytes, t));
  } else if (bytes != old_bytes || t->data.raw == nullptr) {
    if (in_invoke_) {
      // An arena tensor resized while running: from now on it lives on the heap.
      t->allocation_type = kTfLiteDynamic;
      t->data.raw = nullptr;
      TF_LITE_ENSURE_STATUS(TfLiteTensorRealloc(bytes, t));
    } else {
      // A variable's buffer was sized for its old shape: the next AllocateTensors gives
      // it a new one (the old one stays with persistent_buffers_ until destruction).
      if (t->allocation_type == kTfLiteArenaRwPersistent && bytes != old_bytes) {
        t->data.raw = nullptr;
      }
      state_ = State::kUninvokable;
    }
  }
  t->bytes = bytes;
  return kTfLiteOk;
}

// A builtin node whose outputs all have zero elements (a 0 in each one's known shape) has
// nothing to compute: its kernel is not called. Kernels loop over the other dimensions (a
// pooling over 3 x 67,108,880 x 131,072 pixels of 0 channels, from a crafted model, ran
// for hours in TFLite's arithmetic). Nodes with side effects, control flow, custom and
// delegate kernels, and dynamic outputs (sized by the kernel) run as always.
bool Subgraph::WritesNothing(const TfLiteNode& node, const TfLiteRegistration& reg) const {
  switch (reg.builtin_code) {
    case BuiltinOperator_CUSTOM:
    case BuiltinOperator_DELEGATE:
    case BuiltinOperator_WHILE:
    case BuiltinOperator_IF:
    case BuiltinOperator_CALL_ONCE:
    case BuiltinOperator_CALL:
      return false;
    default:
      break;
  }
  if (node.might_have_side_effect || node.outputs == nullptr || node.outputs->size == 0) {
    return false;
  }
  for (int i = 0; i < node.outputs->size; ++i) {
    const int t = node.outputs->data[i];
    if (t < 0) continue;
    const TfLiteTensor& out = tensors_[t];
    if (out.allocation_type == kTfLiteDynamic || out.dims == nullptr) return false;
    bool empty = false;
    for (int d = 0; d < out.dims->size; ++d) empty = empty || out.dims->data[d] == 0;
    if (!empty) return false;
  }
  return true;
}

uint64_t Subgraph::TensorVersion(int t) const {
  if (!in_invoke_ || t < 0 || static_cast<size_t>(t) >= tensors_.size() || tensors_[t].is_variable) {
    return 0;
  }
  const uint64_t written = static_cast<size_t>(t) < tensor_written_.size() ? tensor_written_[t] : 0;
  return std::max(written, invoke_start_);
}

TfLiteStatus Subgraph::Invoke() {
  if (state_ == State::kUninvokable) {
    ReportError("Invoke called on model that is not ready.");
    return kTfLiteError;
  }
  const ReentryGuard guard(this, &in_invoke_, "Invoke");
  if (!guard.entered()) return kTfLiteError;
  invoke_start_ = ++write_counter_;
  tensor_written_.resize(tensors_.size(), 0);
  // Once a node has produced a tensor whose shape is only known now (kTfLiteDynamic),
  // the nodes after it are prepared again right before they run, as TFLite does.
  bool reprepare = false;
  const bool release = options_ != nullptr && options_->GetEnsureDynamicTensorsAreReleased();
  std::vector<int> last_step;
  if (release) last_step = LastStepOfTensors();
  for (size_t step = 0; step < execution_plan_.size(); ++step) {
    const int n = execution_plan_[step];
    if (folded_[n]) continue;
    auto& [node, reg] = nodes_and_registration_[n];
    if (reprepare) TF_LITE_ENSURE_STATUS(PrepareNode(n));
    if (release) {
      // A dynamic output released after its last use in the previous Invoke gets its
      // memory back before its producer runs (kernels that size it at Prepare only).
      for (int i = 0; i < node.outputs->size; ++i) {
        const int t = node.outputs->data[i];
        if (t < 0) continue;
        TfLiteTensor& out = tensors_[t];
        if (out.allocation_type == kTfLiteDynamic && out.data.raw == nullptr && out.bytes > 0 &&
            TfLiteTensorRealloc(out.bytes, &out) != kTfLiteOk) {
          ReportError("Node number %d (%s): cannot allocate %zu bytes for tensor %d", n,
                      OpName(n).c_str(), out.bytes, t);
          return kTfLiteError;
        }
      }
    }
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (t == kTfLiteOptionalTensor) continue;
      TfLiteTensor& in = tensors_[t];
      // A CPU kernel (or another delegate) reading a tensor whose newest data is in a
      // delegate's buffer gets it copied out first.
      if (in.data_is_stale && in.delegate != nullptr && in.delegate != node.delegate) {
        TF_LITE_ENSURE_STATUS(EnsureTensorDataIsReadable(t));
      }
      if (in.data.raw == nullptr && in.bytes > 0 && node.delegate == nullptr) {
        // RESHAPE may take its shape from a tensor it never reads (TFLite allows it).
        if (reg.builtin_code == BuiltinOperator_RESHAPE && i == 1 && in.dims->size != 1) {
          continue;
        }
        ReportError("Node number %d (%s): input tensor %d lacks data", n, OpName(n).c_str(), t);
        return kTfLiteError;
      }
    }
    if (IsCancelled()) {
      ReportError("Client requested cancel during Invoke()");
      return kTfLiteError;
    }
    if (WritesNothing(node, reg)) continue;
    uint32_t event = 0;
    if (profiler_ != nullptr) {
      event = profiler_->BeginEvent(OpName(n).c_str(), Profiler::EventType::OPERATOR_INVOKE_EVENT,
                                    n, index_);
    }
    const TfLiteStatus status = reg.invoke != nullptr ? reg.invoke(&context_, &node) : kTfLiteOk;
    if (profiler_ != nullptr) profiler_->EndEvent(event);
    if (status != kTfLiteOk) {
      ReportError("Node number %d (%s) failed to invoke.", n, OpName(n).c_str());
      ReportNodeNote(n);
      return status;
    }
    ++write_counter_;
    for (int i = 0; i < node.outputs->size; ++i) {
      const int t = node.outputs->data[i];
      if (t < 0) continue;
      if (static_cast<size_t>(t) < tensor_written_.size()) tensor_written_[t] = write_counter_;
      reprepare = reprepare || tensors_[t].allocation_type == kTfLiteDynamic;
    }
    if (release) {
      for (const TfLiteIntArray* list : {node.inputs, node.outputs}) {
        for (int i = 0; i < list->size; ++i) {
          const int t = list->data[i];
          if (t < 0 || last_step[t] != static_cast<int>(step)) continue;
          TfLiteTensor& v = tensors_[t];
          if (v.allocation_type == kTfLiteDynamic && v.type != kTfLiteString &&
              v.type != kTfLiteResource && v.type != kTfLiteVariant) {
            TfLiteTensorDataFree(&v);
          }
        }
      }
    }
  }
  return kTfLiteOk;
}

std::vector<int> Subgraph::LastStepOfTensors() const {
  constexpr int kKeep = -2;  // never released
  std::vector<int> last(tensors_.size(), -1);
  for (size_t step = 0; step < execution_plan_.size(); ++step) {
    const auto& node = nodes_and_registration_[execution_plan_[step]].first;
    const bool folded = folded_[execution_plan_[step]];
    for (const TfLiteIntArray* list : {node.inputs, node.outputs}) {
      for (int i = 0; i < list->size; ++i) {
        const int t = list->data[i];
        if (t < 0 || last[t] == kKeep) continue;
        // A folded node's output is computed once, when the tensors are allocated.
        last[t] = folded && list == node.outputs ? kKeep : static_cast<int>(step);
      }
    }
  }
  for (const std::vector<int>* keep : {&inputs_, &outputs_, &variables_}) {
    for (int t : *keep) {
      if (t >= 0 && static_cast<size_t>(t) < last.size()) last[t] = kKeep;
    }
  }
  return last;
}

TfLiteStatus Subgraph::ResetVariableTensors() {
  for (auto& t : tensors_) {
    if (t.is_variable && t.allocation_type == kTfLiteArenaRwPersistent && t.data.raw != nullptr) {
      std::memset(t.data.raw, VariableFill(t), t.bytes);
    }
  }
  return kTfLiteOk;
}

// --- Context callbacks ---------------------------------------------------------------

TfLiteStatus Subgraph::GetExecutionPlanCb(TfLiteContext* ctx, TfLiteIntArray** plan) {
  Subgraph* s = Self(ctx);
  TfLiteIntArrayFree(s->plan_cache_);
  s->plan_cache_ = ToIntArray(s->execution_plan_);
  *plan = s->plan_cache_;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ResizeTensorCb(TfLiteContext* ctx, TfLiteTensor* t, TfLiteIntArray* size) {
  return Self(ctx)->ResizeTensor(t, size);
}

void Subgraph::ReportErrorCb(TfLiteContext* ctx, const char* format, ...) {
  va_list args;
  va_start(args, format);
  Self(ctx)->ReportErrorV(format, args);
  va_end(args);
}

TfLiteStatus Subgraph::AddTensorsCb(TfLiteContext* ctx, int n, int* first) {
  return Self(ctx)->AddTensors(n, first);
}

TfLiteStatus Subgraph::GetNodeAndRegistrationCb(TfLiteContext* ctx, int node_index,
                                                TfLiteNode** node, TfLiteRegistration** reg) {
  auto* nr = Self(ctx)->node_and_registration(node_index);
  if (nr == nullptr) {
    Self(ctx)->ReportError("GetNodeAndRegistration: node %d out of range", node_index);
    return kTfLiteError;
  }
  *node = &nr->first;
  *reg = &nr->second;
  return kTfLiteOk;
}

void* Subgraph::AllocatePersistentBufferCb(TfLiteContext* ctx, size_t bytes) {
  Subgraph* s = Self(ctx);
  if (!s->CanAllocate(bytes, "a kernel's persistent buffer")) return nullptr;
  void* p = std::aligned_alloc(tflite_inspect::ArenaPlanner::kAlignment, (bytes + 63) / 64 * 64);
  if (p != nullptr) {
    s->persistent_buffers_.push_back(p);
    s->persistent_bytes_ += bytes;
  }
  return p;
}

TfLiteStatus Subgraph::RequestScratchBufferInArenaCb(TfLiteContext* ctx, size_t bytes, int* idx) {
  Subgraph* s = Self(ctx);
  if (!s->CanAllocate(bytes, "a kernel's scratch buffer")) return kTfLiteError;
  s->scratch_buffers_.emplace_back(bytes);
  *idx = static_cast<int>(s->scratch_buffers_.size()) - 1;
  return kTfLiteOk;
}

void* Subgraph::GetScratchBufferCb(TfLiteContext* ctx, int idx) {
  Subgraph* s = Self(ctx);
  if (idx < 0 || static_cast<size_t>(idx) >= s->scratch_buffers_.size()) return nullptr;
  return s->scratch_buffers_[idx].data();
}

TfLiteTensor* Subgraph::GetTensorCb(const TfLiteContext* ctx, int tensor_index) {
  return Self(ctx)->tensor(tensor_index);
}

TfLiteEvalTensor* Subgraph::GetEvalTensorCb(const TfLiteContext* ctx, int tensor_index) {
  Subgraph* s = Self(ctx);
  TfLiteTensor* t = s->tensor(tensor_index);
  if (t == nullptr) return nullptr;
  TfLiteEvalTensor& e = s->eval_tensors_[tensor_index];
  e.data = t->data;
  e.dims = t->dims;
  e.type = t->type;
  return &e;
}

TfLiteExternalContext* Subgraph::GetExternalContextCb(TfLiteContext* ctx,
                                                      TfLiteExternalContextType type) {
  const int i = static_cast<int>(type);
  if (i < 0 || i >= kTfLiteMaxExternalContexts) return nullptr;
  return Self(ctx)->external_contexts_[i];
}

void Subgraph::SetExternalContextCb(TfLiteContext* ctx, TfLiteExternalContextType type,
                                    TfLiteExternalContext* c) {
  const int i = static_cast<int>(type);
  if (i >= 0 && i < kTfLiteMaxExternalContexts) Self(ctx)->external_contexts_[i] = c;
}

}  // namespace tflite
