// Subgraph's delegate support: ModifyGraphWithDelegate, TFLite's graph partitioning
// behind ReplaceNodeSubsetsWithDelegateKernels / PreviewDelegatePartitioning, undo and
// redo of delegates, and delegate buffer handles.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/delegation_record.h"
#include "runtime/graph_partition.h"
#include "runtime/runtime_context.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/interpreter_options.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite {
namespace {

Subgraph* Self(const TfLiteContext* ctx) { return static_cast<Subgraph*>(ctx->impl_); }

TfLiteIntArray* ToIntArray(const std::vector<int>& v) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
  return a;
}

// One malloc holding the params and its three arrays: it becomes the delegate node's
// builtin_data, which the node frees with free(), as TFLite's CreateDelegateParams.
TfLiteDelegateParams* CreateDelegateParams(TfLiteDelegate* delegate,
                                           const tflite_inspect::NodeSubset& subset) {
  auto array_bytes = [](size_t n) {
    return (TfLiteIntArrayGetSizeInBytes(static_cast<int>(n)) + 7) / 8 * 8;
  };
  const size_t header = (sizeof(TfLiteDelegateParams) + 7) / 8 * 8;
  const size_t bytes = header + array_bytes(subset.nodes.size()) +
                       array_bytes(subset.input_tensors.size()) +
                       array_bytes(subset.output_tensors.size());
  char* mem = static_cast<char*>(std::calloc(1, bytes));
  if (mem == nullptr) return nullptr;
  auto* params = reinterpret_cast<TfLiteDelegateParams*>(mem);
  params->delegate = delegate;
  char* cursor = mem + header;
  auto place = [&](const std::vector<int>& v) {
    auto* a = reinterpret_cast<TfLiteIntArray*>(cursor);
    a->size = static_cast<int>(v.size());
    for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
    cursor += array_bytes(v.size());
    return a;
  };
  params->nodes_to_replace = place(subset.nodes);
  params->input_tensors = place(subset.input_tensors);
  params->output_tensors = place(subset.output_tensors);
  return params;
}

const char* DelegateName(const TfLiteRegistration& reg) {
  return reg.custom_name != nullptr ? reg.custom_name : "unknown";
}

}  // namespace

// --- Context plumbing ----------------------------------------------------------------

Subgraph* Subgraph::FromContext(const TfLiteContext* context) {
  if (context == nullptr) return nullptr;
  const auto replace = context->ReplaceNodeSubsetsWithDelegateKernels;
  const bool ours = replace == &Subgraph::ReplaceNodeSubsetsCb || replace == &Subgraph::ForbiddenReplaceCb;
  return ours ? static_cast<Subgraph*>(context->impl_) : nullptr;
}

void Subgraph::SwitchToDelegateContext() {
  context_.ReplaceNodeSubsetsWithDelegateKernels = ReplaceNodeSubsetsCb;
  context_.PreviewDelegatePartitioning = PreviewDelegatePartitioningCb;
}

void Subgraph::SwitchToKernelContext() {
  context_.ReplaceNodeSubsetsWithDelegateKernels = ForbiddenReplaceCb;
  context_.PreviewDelegatePartitioning = ForbiddenPreviewCb;
  FreePreviewCache();
}

void Subgraph::FreePreviewCache() {
  for (TfLiteDelegateParams& p : preview_array_) {
    TfLiteIntArrayFree(p.nodes_to_replace);
    TfLiteIntArrayFree(p.input_tensors);
    TfLiteIntArrayFree(p.output_tensors);
  }
  preview_array_.clear();
}

TfLiteStatus Subgraph::ReplaceNodeSubsetsCb(TfLiteContext* ctx, TfLiteRegistration reg,
                                            const TfLiteIntArray* nodes, TfLiteDelegate* d) {
  return Self(ctx)->ReplaceNodeSubsetsWithDelegateKernels(reg, nodes, d);
}

TfLiteStatus Subgraph::PreviewDelegatePartitioningCb(TfLiteContext* ctx,
                                                     const TfLiteIntArray* nodes,
                                                     TfLiteDelegateParams** params, int* n) {
  return Self(ctx)->PreviewDelegatePartitioning(nodes, params, n);
}

TfLiteStatus Subgraph::ForbiddenReplaceCb(TfLiteContext* ctx, TfLiteRegistration,
                                          const TfLiteIntArray*, TfLiteDelegate*) {
  Self(ctx)->ReportError(
      "ReplaceNodeSubsetsWithDelegateKernels: only allowed inside a delegate's Prepare "
      "(TFLite: \"The function is forbidden if not calling in delegate.\")");
  return kTfLiteError;
}

TfLiteStatus Subgraph::ForbiddenPreviewCb(TfLiteContext* ctx, const TfLiteIntArray*,
                                          TfLiteDelegateParams**, int*) {
  Self(ctx)->ReportError(
      "PreviewDelegatePartitioning: only allowed inside a delegate's Prepare "
      "(TFLite: \"The function is forbidden if not calling in delegate.\")");
  return kTfLiteError;
}

// --- Partitioning --------------------------------------------------------------------

// Checks the node list a delegate handed us, then runs TFLite's partitioner over the
// current execution plan. TFLite trusts the list; we name what is wrong with it.
TfLiteStatus Subgraph::PartitionGraph(const TfLiteIntArray* nodes_to_replace,
                                      const char* caller,
                                      std::vector<tflite_inspect::NodeSubset>* subsets) {
  if (nodes_to_replace == nullptr) {
    ReportError("%s: nodes_to_replace is null", caller);
    return kTfLiteError;
  }
  std::vector<int> in_plan(nodes_and_registration_.size(), -1);
  for (size_t step = 0; step < execution_plan_.size(); ++step) {
    in_plan[execution_plan_[step]] = static_cast<int>(step);
  }
  std::vector<int> nodes;
  nodes.reserve(nodes_to_replace->size);
  for (int i = 0; i < nodes_to_replace->size; ++i) {
    const int n = nodes_to_replace->data[i];
    if (n < 0 || static_cast<size_t>(n) >= nodes_and_registration_.size()) {
      ReportError("%s: node index %d (entry %d of nodes_to_replace) is out of range: the "
                  "subgraph has %zu nodes",
                  caller, n, i, nodes_and_registration_.size());
      return kTfLiteError;
    }
    if (in_plan[n] < 0) {
      ReportError("%s: node %d (%s) is not in the execution plan: an earlier delegate "
                  "already replaced it",
                  caller, n, OpName(n).c_str());
      return kTfLiteError;
    }
    const TfLiteNode& node = nodes_and_registration_[n].first;
    if (node.delegate != nullptr) {
      ReportError("%s: node %d is the kernel of delegate '%s'; a later delegate cannot take "
                  "nodes an earlier delegate owns",
                  caller, n, OpName(n).c_str());
      return kTfLiteError;
    }
    nodes.push_back(n);
  }
  tflite_inspect::GraphView view;
  view.num_tensors = tensors_.size();
  view.num_total_nodes = nodes_and_registration_.size();
  view.execution_plan = execution_plan_;
  for (int n : execution_plan_) view.plan_nodes.push_back(&nodes_and_registration_[n].first);
  view.outputs = outputs_;
  // TFLite partitions greedily unless delegate clustering is disabled.
  const bool greedily = options_ == nullptr || !options_->GetDisableDelegateClustering();
  tflite_inspect::PartitionGraphIntoIndependentNodeSubsets(view, nodes, greedily, subsets);
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ReplaceNodeSubsetsWithDelegateKernels(
    TfLiteRegistration registration, const TfLiteIntArray* nodes_to_replace,
    TfLiteDelegate* delegate) {
  static const char* kCaller = "ReplaceNodeSubsetsWithDelegateKernels";
  if (nodes_to_replace != nullptr && nodes_to_replace->size == 0) return kTfLiteOk;
  if (delegate == nullptr) {
    ReportError("%s: the delegate is null", kCaller);
    return kTfLiteError;
  }
  registration.builtin_code = BuiltinOperator_DELEGATE;
  std::vector<tflite_inspect::NodeSubset> subsets;
  TF_LITE_ENSURE_STATUS(PartitionGraph(nodes_to_replace, kCaller, &subsets));
  tflite_inspect::DelegationRecord* record = runtime_context_.delegation;
  if (record != nullptr) {
    record->name = DelegateName(registration);
    record->requested.insert(record->requested.end(), nodes_to_replace->data,
                             nodes_to_replace->data + nodes_to_replace->size);
  }
  size_t partitions = 0;
  for (const auto& subset : subsets) partitions += subset.type == subset.kTfPartition;
  // TFLite logs this line (verbose); the record keeps it for --verbose.
  char line[256];
  std::snprintf(line, sizeof(line),
                "Replacing %d out of %zu node(s) with delegate (%s) node, yielding %zu "
                "partitions for subgraph %d.",
                nodes_to_replace->size, execution_plan_.size(), DelegateName(registration),
                partitions, index_);
  if (record != nullptr) record->log.push_back(line);

  execution_plan_.clear();
  for (const auto& subset : subsets) {
    if (subset.type == tflite_inspect::NodeSubset::kTfNonPartition) {
      execution_plan_.insert(execution_plan_.end(), subset.nodes.begin(), subset.nodes.end());
      continue;
    }
    if (subset.type != tflite_inspect::NodeSubset::kTfPartition) return kTfLiteError;
    TfLiteDelegateParams* params = CreateDelegateParams(delegate, subset);
    if (params == nullptr) {
      ReportError("%s: out of memory", kCaller);
      return kTfLiteError;
    }
    int node_index = -1;
    TF_LITE_ENSURE_STATUS(AddNodeWithParameters(subset.input_tensors, subset.output_tensors,
                                                {}, nullptr, 0, params, &registration,
                                                &node_index));
    for (int t : subset.output_tensors) {
      TfLiteTensor& tensor = tensors_[t];
      if (tensor.delegate != nullptr && tensor.delegate != delegate) {
        ReportError("%s: tensor %d already belongs to another delegate", kCaller, t);
        return kTfLiteError;
      }
      tensor.delegate = delegate;
    }
    nodes_and_registration_[node_index].first.delegate = delegate;
    if (record != nullptr && !record->shaped_at_invoke.empty()) {
      for (int n : subset.nodes) {
        const TfLiteNode& replaced = nodes_and_registration_[n].first;
        for (const TfLiteIntArray* list : {replaced.inputs, replaced.outputs}) {
          for (int i = 0; i < list->size; ++i) {
            const int t = list->data[i];
            if (t >= 0 && record->shaped_at_invoke[t] != 0) shaped_partitions_.insert(node_index);
          }
        }
      }
    }
    if (record != nullptr) {
      record->partitions.push_back(
          {node_index, subset.nodes, subset.input_tensors, subset.output_tensors});
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::PreviewDelegatePartitioning(const TfLiteIntArray* nodes_to_replace,
                                                   TfLiteDelegateParams** partition_params_array,
                                                   int* num_partitions) {
  FreePreviewCache();
  if (partition_params_array == nullptr || num_partitions == nullptr) {
    ReportError("PreviewDelegatePartitioning: null output argument");
    return kTfLiteError;
  }
  *partition_params_array = nullptr;
  *num_partitions = 0;
  if (nodes_to_replace != nullptr && nodes_to_replace->size == 0) return kTfLiteOk;
  std::vector<tflite_inspect::NodeSubset> subsets;
  TF_LITE_ENSURE_STATUS(PartitionGraph(nodes_to_replace, "PreviewDelegatePartitioning", &subsets));
  for (const auto& subset : subsets) {
    if (subset.type != tflite_inspect::NodeSubset::kTfPartition) continue;
    TfLiteDelegateParams p{};
    p.delegate = nullptr;
    p.nodes_to_replace = ToIntArray(subset.nodes);
    p.input_tensors = ToIntArray(subset.input_tensors);
    p.output_tensors = ToIntArray(subset.output_tensors);
    preview_array_.push_back(p);
  }
  *num_partitions = static_cast<int>(preview_array_.size());
  *partition_params_array = preview_array_.empty() ? nullptr : preview_array_.data();
  return kTfLiteOk;
}

// --- Applying and undoing ------------------------------------------------------------

bool Subgraph::HasDynamicTensors(int* first_dynamic) const {
  for (int n : execution_plan_) {
    const TfLiteNode& node = nodes_and_registration_[n].first;
    for (int i = 0; i < node.outputs->size; ++i) {
      const int t = node.outputs->data[i];
      if (t >= 0 && tensors_[t].allocation_type == kTfLiteDynamic) {
        *first_dynamic = t;
        return true;
      }
    }
  }
  return false;
}

TfLiteStatus Subgraph::ModifyGraphWithDelegate(TfLiteDelegate* delegate) {
  if (in_invoke_) {
    ReportError("ModifyGraphWithDelegate called from within Invoke");
    return kTfLiteError;
  }
  auto record = std::make_unique<tflite_inspect::DelegationRecord>();
  record->delegate = delegate;
  record->subgraph = index_;
  record->plan_before = execution_plan_;
  tflite_inspect::DelegationRecord* r = record.get();
  delegation_records_.push_back(std::move(record));
  std::string* saved_capture = error_capture_;
  error_capture_ = &r->error;
  const TfLiteStatus status = ApplyDelegate(delegate, r);
  error_capture_ = saved_capture;
  r->status = status;
  if (status == kTfLiteOk) r->error.clear();
  return status;
}

TfLiteStatus Subgraph::ApplyDelegate(TfLiteDelegate* delegate,
                                     tflite_inspect::DelegationRecord* record) {
  if (delegate == nullptr) {
    ReportError("ModifyGraphWithDelegate: the delegate is null");
    return kTfLiteDelegateError;
  }
  if (delegate->Prepare == nullptr) {
    ReportError("ModifyGraphWithDelegate: the delegate has no Prepare function (a "
                "TfLiteDelegate must set Prepare); nothing was delegated");
    return kTfLiteDelegateError;
  }
  // A delegate with fixed-shape partitions (tflite-inspect's bit) is prepared for as a
  // static one, but on a graph with dynamic tensors it gets the nodes whose shapes are
  // known now and is told which are not.
  const bool static_partitions =
      (delegate->flags & kTfLiteDelegateFlagsAllowDynamicTensors) != 0 &&
      (delegate->flags & tflite_inspect::kDelegateFlagsStaticPartitions) != 0;
  const bool allows_dynamic =
      !static_partitions && (delegate->flags & kTfLiteDelegateFlagsAllowDynamicTensors) != 0;
  if (static_partitions) {
    TF_LITE_ENSURE_STATUS(PrepareFrom(0, /*skip_unresolved=*/true, &record->shaped_at_invoke));
  } else if (!allows_dynamic) {
    // Shapes must be known before such a delegate looks at the graph. Unresolved custom
    // ops are left for the delegate to claim (TFLite's XNNPACK takes MediaPipe's by name).
    TF_LITE_ENSURE_STATUS(PrepareFrom(0, /*skip_unresolved=*/true));
    int dynamic = -1;
    if (HasDynamicTensors(&dynamic)) {
      if (state_ == State::kUninvokable) TF_LITE_ENSURE_STATUS(AllocateTensors());
      ReportError("Attempting to use a delegate that only supports static-sized tensors with a "
                  "graph that has dynamic-sized tensors (tensor#%d is a dynamic-sized tensor).",
                  dynamic);
      return kTfLiteApplicationError;
    }
    // Nodes computed from constants only (DEQUANTIZE / DENSIFY of weights) are folded now,
    // so the delegate sees their outputs as constants it can pack, as it would the
    // model's own weights. (TFLite's XNNPACK delegate special-cases these patterns.)
    TF_LITE_ENSURE_STATUS(FoldConstantNodes(/*before_planning=*/true));
  }
  const bool was_invokable = state_ != State::kUninvokable;
  if (delegates_applied_.empty()) pre_delegation_execution_plan_ = execution_plan_;

  auto restore_if_failed = [this](TfLiteStatus status) {
    if (status == kTfLiteOk) return kTfLiteOk;
    runtime_context_.delegation = nullptr;
    if (RemoveAllDelegates() != kTfLiteOk) return kTfLiteError;
    ReportError("Restored original execution plan after delegate application failure.");
    return kTfLiteDelegateError;
  };
  SwitchToDelegateContext();
  runtime_context_.delegation = record;
  const TfLiteStatus prepared = delegate->Prepare(&context_, delegate);
  runtime_context_.delegation = nullptr;
  SwitchToKernelContext();
  TF_LITE_ENSURE_STATUS(restore_if_failed(prepared));

  if (!allows_dynamic) {
    state_ = State::kUninvokable;
    TF_LITE_ENSURE_STATUS(restore_if_failed(AllocateTensors()));
    state_ = State::kInvokableAndImmutable;
  } else if (was_invokable) {
    state_ = State::kUninvokable;
    TF_LITE_ENSURE_STATUS(restore_if_failed(AllocateTensors()));
  }
  delegates_applied_.push_back(delegate);
  return kTfLiteOk;
}

TfLiteStatus Subgraph::UndoAllDelegates() {
  if (pre_delegation_execution_plan_.empty()) return kTfLiteOk;
  for (int n : execution_plan_) {
    auto& nr = nodes_and_registration_[n];
    if (nr.first.delegate != nullptr) FreeNode(&nr);
  }
  execution_plan_ = pre_delegation_execution_plan_;
  pre_delegation_execution_plan_.clear();
  // Delegate nodes were appended after the model's nodes: drop them.
  int max_node = -1;
  for (int n : execution_plan_) max_node = std::max(max_node, n);
  nodes_and_registration_.resize(static_cast<size_t>(max_node + 1));
  folded_.resize(nodes_and_registration_.size());
  shaped_partitions_.clear();
  // Tensors written by delegate kernels are the CPU's again (buffer handles stay).
  for (auto& t : tensors_) {
    if (t.delegate != nullptr && t.buffer_handle == kTfLiteNullBufferHandle) {
      t.delegate = nullptr;
      t.data_is_stale = false;
    }
  }
  state_ = State::kUninvokable;
  delegates_undone_ = true;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::RedoAllDelegates() {
  if (!delegates_undone_) return kTfLiteOk;
  delegates_undone_ = false;
  std::vector<TfLiteDelegate*> to_apply;
  delegates_applied_.swap(to_apply);
  for (TfLiteDelegate* d : to_apply) TF_LITE_ENSURE_STATUS(ModifyGraphWithDelegate(d));
  return kTfLiteOk;
}

TfLiteStatus Subgraph::RemoveAllDelegates() {
  TF_LITE_ENSURE_STATUS(UndoAllDelegates());
  delegates_applied_.clear();
  delegates_undone_ = false;
  state_ = State::kUninvokable;
  return AllocateTensors();
}

// --- Buffer handles ------------------------------------------------------------------

TfLiteStatus Subgraph::EnsureTensorDataIsReadable(int tensor_index) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("EnsureTensorDataIsReadable: tensor %d out of range", tensor_index);
    return kTfLiteError;
  }
  if (!t->data_is_stale) return kTfLiteOk;
  if (t->delegate == nullptr || t->buffer_handle == kTfLiteNullBufferHandle ||
      t->delegate->CopyFromBufferHandle == nullptr) {
    ReportError("tensor %d ('%s') is marked stale but its delegate cannot copy it out (%s)",
                tensor_index, t->name ? t->name : "",
                t->delegate == nullptr                            ? "no delegate"
                : t->buffer_handle == kTfLiteNullBufferHandle ? "no buffer handle"
                                                              : "no CopyFromBufferHandle");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(
      t->delegate->CopyFromBufferHandle(&context_, t->delegate, t->buffer_handle, t));
  t->data_is_stale = false;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetBufferHandle(int tensor_index, TfLiteBufferHandle buffer_handle,
                                       TfLiteDelegate* delegate) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("SetBufferHandle: tensor %d out of range", tensor_index);
    return kTfLiteError;
  }
  if (t->delegate != nullptr && t->delegate != delegate) {
    ReportError("SetBufferHandle: tensor %d already belongs to another delegate", tensor_index);
    return kTfLiteError;
  }
  t->delegate = delegate;
  if (t->buffer_handle != kTfLiteNullBufferHandle && delegate != nullptr &&
      delegate->FreeBufferHandle != nullptr) {
    delegate->FreeBufferHandle(&context_, delegate, &t->buffer_handle);
  }
  t->buffer_handle = buffer_handle;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::GetBufferHandle(int tensor_index, TfLiteBufferHandle* buffer_handle,
                                       TfLiteDelegate** delegate) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("GetBufferHandle: tensor %d out of range", tensor_index);
    return kTfLiteError;
  }
  *delegate = t->delegate;
  *buffer_handle = t->buffer_handle;
  return kTfLiteOk;
}

}  // namespace tflite
