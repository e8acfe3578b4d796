// Subgraph: tensors, nodes and an execution plan, with the TfLiteContext its kernels
// see. An Interpreter owns one per model subgraph; control-flow kernels (IF, WHILE,
// CALL_ONCE) run the others.
//
// Memory: constant tensors point into the model (kTfLiteMmapRo). Activations
// (kTfLiteArenaRw) share one arena planned by tensor lifetime over the execution plan,
// so buffers whose lifetimes do not overlap reuse the same bytes. Variable tensors are
// kTfLiteArenaRwPersistent and keep their values across invocations. Tensors whose
// shape is only known at run time are kTfLiteDynamic and heap-allocated.
//
// Not thread-safe: one Invoke at a time.
#ifndef TENSORFLOW_LITE_CORE_SUBGRAPH_H_
#define TENSORFLOW_LITE_CORE_SUBGRAPH_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/experimental/resource/resource_base.h"
#include "runtime/runtime_context.h"

struct pthreadpool;

namespace tflite {
struct MemoryShare;
class InterpreterOptions;
namespace hybrid {
class SharedInputs;
}  // namespace hybrid
}

namespace tflite_inspect {
class ArenaPlanner;
struct DelegationRecord;
struct NodeSubset;
}

namespace tflite {

// The placeholder kernel the InterpreterBuilder gives a custom op the resolver lacks
// (as TFLite's): no prepare, this invoke. A delegate may claim such a node by name;
// one left on the CPU fails at prepare with TFLite's "Encountered unresolved custom op".
TfLiteStatus UnresolvedCustomOpInvoke(TfLiteContext* context, TfLiteNode* node);
bool IsUnresolvedCustomOp(const TfLiteRegistration& registration);

// What the subgraphs of one interpreter share: resource variables, the ids VAR_HANDLE gives
// them, and the CALL_ONCE init subgraphs that have run (once per interpreter, whichever
// subgraph's CALL_ONCE runs them first).
struct SubgraphResources {
  resource::ResourceMap resources;
  resource::ResourceIDMap resource_ids;
  std::set<int> initialized_subgraphs;
};

class Subgraph {
 public:
  Subgraph(ErrorReporter* error_reporter, std::vector<std::unique_ptr<Subgraph>>* subgraphs,
           int index);
  ~Subgraph();
  Subgraph(const Subgraph&) = delete;
  Subgraph& operator=(const Subgraph&) = delete;

  // --- Building (InterpreterBuilder) ---
  TfLiteStatus AddTensors(int tensors_to_add, int* first_new_tensor_index = nullptr);
  // A constant tensor over `buffer` (not copied; must outlive the subgraph).
  TfLiteStatus SetTensorParametersReadOnly(int tensor_index, TfLiteType type, const char* name,
                                           const std::vector<int>& dims,
                                           TfLiteQuantization quantization, const char* buffer,
                                           size_t bytes, const void* allocation = nullptr,
                                           TfLiteSparsity* sparsity = nullptr);
  TfLiteStatus SetTensorParametersReadWrite(int tensor_index, TfLiteType type, const char* name,
                                            const std::vector<int>& dims,
                                            TfLiteQuantization quantization,
                                            bool is_variable = false,
                                            const std::vector<int>& dims_signature = {});
  // Takes ownership of `builtin_data` (released with free()).
  TfLiteStatus AddNodeWithParameters(const std::vector<int>& inputs,
                                     const std::vector<int>& outputs,
                                     const std::vector<int>& intermediates,
                                     const char* init_data, size_t init_data_size,
                                     void* builtin_data, const TfLiteRegistration* registration,
                                     int* node_index = nullptr);
  TfLiteStatus SetInputs(std::vector<int> inputs);
  TfLiteStatus SetOutputs(std::vector<int> outputs);
  TfLiteStatus SetVariables(std::vector<int> variables);
  void SetName(std::string name) { name_ = std::move(name); }

  // --- Running ---
  TfLiteStatus ResizeInputTensor(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  TfLiteStatus ResetVariableTensors();
  // Kernels may call ResizeTensor from Invoke; after that, later nodes are re-prepared.
  TfLiteStatus ResizeTensor(TfLiteTensor* tensor, TfLiteIntArray* new_size);
  void ReportError(const char* format, ...);
  void ReportErrorV(const char* format, va_list args);

  // --- Introspection ---
  TfLiteContext* context() { return &context_; }
  const std::string& name() const { return name_; }
  int index() const { return index_; }
  size_t tensors_size() const { return tensors_.size(); }
  TfLiteTensor* tensor(int index);
  const TfLiteTensor* tensor(int index) const;
  std::vector<TfLiteTensor>& tensors() { return tensors_; }
  size_t nodes_size() const { return nodes_and_registration_.size(); }
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index) const;
  std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index);
  const std::vector<int>& execution_plan() const { return execution_plan_; }
  const std::vector<int>& inputs() const { return inputs_; }
  const std::vector<int>& outputs() const { return outputs_; }
  const std::vector<int>& variables() const { return variables_; }
  std::vector<std::unique_ptr<Subgraph>>* subgraphs() { return subgraphs_; }
  bool IsInvokable() const { return state_ != State::kUninvokable; }
  // Bytes of the activation arena after the last AllocateTensors.
  size_t arena_bytes() const;
  // Bytes held by persistent buffers (variables, folded constants, kernel state).
  size_t persistent_bytes() const { return persistent_bytes_; }
  // Nodes whose inputs are all constant are run once in AllocateTensors, not per Invoke.
  bool is_folded(int node_index) const { return folded_[node_index]; }

  // Also the context's, where delegate kernels find it (TfLiteContext::profiler).
  void SetProfiler(Profiler* profiler) {
    profiler_ = profiler;
    context_.profiler = profiler;
  }
  // tflite-inspect extension (resource limits, set by Interpreter): the limit this
  // subgraph's allocations count against, with those of every subgraph of the
  // interpreters that share it (runtime/memory_share.h); a request over it fails with
  // the sizes instead of exhausting the machine. Null: no limit.
  void SetMemoryShare(const MemoryShare* share) { memory_share_ = share; }
  size_t memory_limit() const;
  // Bytes this subgraph's runtime has allocated now: the arena, persistent buffers
  // (variables, kernel state), scratch buffers and heap tensors (dynamic, folded).
  size_t AllocatedBytes() const;
  // tflite-inspect extension: WHILE fails after this many iterations (0: no cap, as
  // TFLite).
  void SetMaxWhileIterations(int64_t n) { max_while_iterations_ = n; }
  // As TFLite's: the resources of this subgraph's interpreter (shared by every subgraph:
  // ShareResources; a subgraph outside an interpreter makes its own when first asked).
  resource::ResourceMap& resources() { return Resources().resources; }
  resource::ResourceIDMap& resource_ids() { return Resources().resource_ids; }
  // tflite-inspect extension: CALL_ONCE's record of the init subgraphs already run.
  std::set<int>& initialized_subgraphs() { return Resources().initialized_subgraphs; }
  void ShareResources(std::shared_ptr<SubgraphResources> resources) {
    if (resources != nullptr) shared_resources_ = std::move(resources);
  }
  int64_t max_while_iterations() const { return max_while_iterations_; }
  // As TFLite: Invoke asks `check_cancelled_func(data)` before every node (WHILE also
  // before every iteration) and fails with "Client requested cancel during Invoke()"
  // once it answers true. nullptr: never cancelled.
  void SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*)) {
    cancellation_data_ = data;
    check_cancelled_func_ = check_cancelled_func;
  }
  bool IsCancelled() const {
    return check_cancelled_func_ != nullptr && check_cancelled_func_(cancellation_data_);
  }
  void SetThreadPool(pthreadpool* pool, int num_threads);
  // The interpreter's options (not owned; nullptr: TFLite's defaults).
  void SetOptions(const InterpreterOptions* options) { options_ = options; }
  pthreadpool* thread_pool() const { return runtime_context_.thread_pool; }

  // tflite-inspect extension: a sentence about the node added to its prepare/invoke
  // failure messages (the builder notes options of the wrong union type, which TFLite
  // reads as zeros: the kernel's own complaint, "stride>0", would hide the cause).
  void SetNodeNote(int node_index, std::string note) { node_notes_[node_index] = std::move(note); }

  // Name of the node's op for messages: "CONV_2D", a custom name, or for a delegate
  // kernel its registration's custom_name ("DELEGATE" without one), as TFLite prints.
  std::string OpName(int node_index) const;

  // --- Delegates (TfLiteDelegate in c/common.h) ---
  // Runs delegate->Prepare, which may call ReplaceNodeSubsetsWithDelegateKernels. On
  // failure every delegate is undone, the original plan restored and
  // kTfLiteDelegateError returned (the graph stays usable on the CPU); a delegate
  // without kTfLiteDelegateFlagsAllowDynamicTensors on a graph with dynamic tensors
  // gets kTfLiteApplicationError and changes nothing.
  TfLiteStatus ModifyGraphWithDelegate(TfLiteDelegate* delegate);
  // Partitions `nodes_to_replace` (any order; duplicates ignored) as TFLite does and
  // replaces each delegated subset with one DELEGATE node run by `registration`.
  // Only valid from a delegate's Prepare.
  TfLiteStatus ReplaceNodeSubsetsWithDelegateKernels(TfLiteRegistration registration,
                                                     const TfLiteIntArray* nodes_to_replace,
                                                     TfLiteDelegate* delegate);
  // The partitions ReplaceNodeSubsetsWithDelegateKernels would make; the array lives
  // until the next call or the end of the delegate's Prepare.
  TfLiteStatus PreviewDelegatePartitioning(const TfLiteIntArray* nodes_to_replace,
                                           TfLiteDelegateParams** partition_params_array,
                                           int* num_partitions);
  // Undo: back to the plan before the first delegate (delegates are remembered and
  // re-applied by the next AllocateTensors: ResizeInputTensor does this). Remove: undo
  // and forget them.
  TfLiteStatus UndoAllDelegates();
  TfLiteStatus RedoAllDelegates();
  TfLiteStatus RemoveAllDelegates();
  bool HasDelegates() const { return !delegates_applied_.empty(); }
  const std::vector<TfLiteDelegate*>& delegates_applied() const { return delegates_applied_; }
  // The execution plan before the first delegate (empty without delegates).
  const std::vector<int>& pre_delegation_execution_plan() const {
    return pre_delegation_execution_plan_;
  }
  // Copies a tensor's delegate buffer into tensor->data when data_is_stale.
  TfLiteStatus EnsureTensorDataIsReadable(int tensor_index);
  TfLiteStatus SetBufferHandle(int tensor_index, TfLiteBufferHandle buffer_handle,
                               TfLiteDelegate* delegate);
  TfLiteStatus GetBufferHandle(int tensor_index, TfLiteBufferHandle* buffer_handle,
                               TfLiteDelegate** delegate);
  // One record per delegate application, in order (runtime/delegation_record.h).
  const std::vector<std::unique_ptr<tflite_inspect::DelegationRecord>>& delegation_records()
      const {
    return delegation_records_;
  }
  // The Subgraph behind `context` when it is one of ours, else nullptr. For the
  // runtime's own kernels (control flow runs other subgraphs); delegates read what they
  // need through tflite_inspect::GetRuntimeContext (runtime/runtime_context.h).
  static Subgraph* FromContext(const TfLiteContext* context);
  // tflite-inspect extension, for the runtime's kernels: during Invoke, a number that
  // changes whenever tensor t's data may have changed (at each Invoke, and after each run
  // of a node that writes it); 0 outside Invoke and for variable tensors (written in
  // place). Nodes reading one tensor share work on it through it.
  uint64_t TensorVersion(int t) const;
  // The hybrid kernels' input quantization shared across this subgraph's nodes
  // (kernels/internal/hybrid_inputs.h); created by its first user.
  std::shared_ptr<hybrid::SharedInputs>& hybrid_inputs() { return hybrid_inputs_; }

 private:
  // For InterpreterOptions' released dynamic tensors: per tensor, the last step of the
  // execution plan that reads or writes it; -2 for tensors never released (subgraph
  // inputs, outputs, variables, folded nodes' outputs), -1 for tensors no step touches.
  std::vector<int> LastStepOfTensors() const;
  // kInvokableAndImmutable: a delegate without dynamic-tensor support (or with fixed-shape
  // partitions, kDelegateFlagsStaticPartitions) was applied;
  // resizing an input then undoes the delegates until the next AllocateTensors.
  enum class State { kUninvokable, kInvokable, kInvokableAndImmutable };

  TfLiteStatus PrepareNode(int node_index);
  void ReportNodeNote(int node_index);  // the SetNodeNote sentence, if any
  // skip_unresolved: leave unresolved custom ops unprepared (their outputs keep the
  // model's shapes) so that a static-shape delegate can still look at, and claim, them.
  // shaped_at_invoke (from 0 only): go on past dynamic outputs, leaving unprepared the
  // nodes that read a tensor whose shape is known only at Invoke and marking their outputs
  // 1 in it (for a delegate with tflite_inspect::kDelegateFlagsStaticPartitions).
  TfLiteStatus PrepareFrom(int plan_index, bool skip_unresolved = false,
                           std::vector<char>* shaped_at_invoke = nullptr);
  // Whether a node has nothing to compute in Invoke (every output has zero elements).
  bool WritesNothing(const TfLiteNode& node, const TfLiteRegistration& reg) const;
  // before_planning: only nodes without temporaries (arena memory does not exist yet);
  // used so that a static-shape delegate sees folded weights as constants.
  TfLiteStatus FoldConstantNodes(bool before_planning = false);
  TfLiteStatus FoldNode(int node_index, bool before_planning);
  TfLiteStatus CheckTensorIndices(const char* label, const std::vector<int>& indices);
  TfLiteStatus AllocatePersistent(TfLiteTensor* t);
  // False (and an error naming `what`) when `bytes` alone exceeds the memory limit.
  bool WithinMemoryLimit(size_t bytes, const std::string& what);
  // False (and an error naming `what`) when `extra` more bytes would take what is
  // allocated under the limit (by every interpreter sharing it) over it.
  bool CanAllocate(size_t extra, const std::string& what);
  bool IsConstant(int tensor_index) const;
  void SetupContext();
  void FreeNode(std::pair<TfLiteNode, TfLiteRegistration>* node);
  TfLiteStatus PartitionGraph(const TfLiteIntArray* nodes_to_replace, const char* caller,
                              std::vector<tflite_inspect::NodeSubset>* subsets);
  TfLiteStatus ApplyDelegate(TfLiteDelegate* delegate, tflite_inspect::DelegationRecord* record);
  void SwitchToDelegateContext();
  void SwitchToKernelContext();
  void FreePreviewCache();
  bool HasDynamicTensors(int* first_dynamic) const;

  // TfLiteContext callbacks.
  static TfLiteStatus ReplaceNodeSubsetsCb(TfLiteContext* ctx, TfLiteRegistration reg,
                                           const TfLiteIntArray* nodes, TfLiteDelegate* d);
  static TfLiteStatus PreviewDelegatePartitioningCb(TfLiteContext* ctx,
                                                    const TfLiteIntArray* nodes,
                                                    TfLiteDelegateParams** params, int* n);
  static TfLiteStatus ForbiddenReplaceCb(TfLiteContext* ctx, TfLiteRegistration reg,
                                         const TfLiteIntArray* nodes, TfLiteDelegate* d);
  static TfLiteStatus ForbiddenPreviewCb(TfLiteContext* ctx, const TfLiteIntArray* nodes,
                                         TfLiteDelegateParams** params, int* n);
  static TfLiteStatus GetExecutionPlanCb(TfLiteContext* ctx, TfLiteIntArray** plan);
  static TfLiteStatus ResizeTensorCb(TfLiteContext* ctx, TfLiteTensor* t, TfLiteIntArray* size);
  static void ReportErrorCb(TfLiteContext* ctx, const char* format, ...);
  static TfLiteStatus AddTensorsCb(TfLiteContext* ctx, int n, int* first);
  static TfLiteStatus GetNodeAndRegistrationCb(TfLiteContext* ctx, int node_index,
                                               TfLiteNode** node, TfLiteRegistration** reg);
  static void* AllocatePersistentBufferCb(TfLiteContext* ctx, size_t bytes);
  static TfLiteStatus RequestScratchBufferInArenaCb(TfLiteContext* ctx, size_t bytes, int* idx);
  static void* GetScratchBufferCb(TfLiteContext* ctx, int idx);
  static TfLiteTensor* GetTensorCb(const TfLiteContext* ctx, int tensor_index);
  static TfLiteEvalTensor* GetEvalTensorCb(const TfLiteContext* ctx, int tensor_index);
  static TfLiteExternalContext* GetExternalContextCb(TfLiteContext* ctx,
                                                     TfLiteExternalContextType type);
  static void SetExternalContextCb(TfLiteContext* ctx, TfLiteExternalContextType type,
                                   TfLiteExternalContext* c);

  ErrorReporter* error_reporter_;
  std::vector<std::unique_ptr<Subgraph>>* subgraphs_;
  int index_;
  std::string name_;
  TfLiteContext context_{};
  std::vector<TfLiteTensor> tensors_;
  std::vector<TfLiteEvalTensor> eval_tensors_;
  std::vector<std::pair<TfLiteNode, TfLiteRegistration>> nodes_and_registration_;
  std::vector<int> execution_plan_;
  std::vector<bool> folded_;
  std::vector<int> inputs_, outputs_, variables_;
  TfLiteIntArray* plan_cache_ = nullptr;
  std::unique_ptr<tflite_inspect::ArenaPlanner> planner_;
  std::vector<void*> persistent_buffers_;
  size_t persistent_bytes_ = 0;
  const MemoryShare* memory_share_ = nullptr;
  int64_t max_while_iterations_ = 0;
  SubgraphResources& Resources() {
    if (shared_resources_ == nullptr) shared_resources_ = std::make_shared<SubgraphResources>();
    return *shared_resources_;
  }
  std::shared_ptr<SubgraphResources> shared_resources_;
  // Delegate nodes (of a delegate with kDelegateFlagsStaticPartitions) whose partition
  // reads or computes tensors shaped only at Invoke: PrepareNode prepares the nodes they
  // replaced first, so the delegate kernel's Prepare sees this run's shapes.
  std::set<int> shaped_partitions_;
  std::map<int, std::string> node_notes_;
  void* cancellation_data_ = nullptr;
  bool (*check_cancelled_func_)(void*) = nullptr;
  std::vector<std::vector<char>> scratch_buffers_;
  State state_ = State::kUninvokable;
  bool in_invoke_ = false;
  // TensorVersion's counters: one count of Invoke starts and node runs, its value at this
  // Invoke's start, and per tensor its value when a node last wrote it.
  uint64_t write_counter_ = 0, invoke_start_ = 0;
  std::vector<uint64_t> tensor_written_;
  std::shared_ptr<hybrid::SharedInputs> hybrid_inputs_;
  class ReentryGuard;
  // Set while AllocateTensors runs: control flow that leads back into a subgraph being
  // prepared or run is refused rather than recursing until the stack overflows.
  bool in_allocate_ = false;
  int next_plan_index_to_prepare_ = 0;
  Profiler* profiler_ = nullptr;
  const InterpreterOptions* options_ = nullptr;
  // Registered under kTfLiteCpuBackendContext: the pool and, while a delegate's
  // Prepare runs, its record.
  tflite_inspect::RuntimeContext runtime_context_;
  TfLiteExternalContext* external_contexts_[kTfLiteMaxExternalContexts] = {};

  // Delegation state.
  std::vector<int> pre_delegation_execution_plan_;
  std::vector<TfLiteDelegate*> delegates_applied_;
  bool delegates_undone_ = false;
  std::vector<TfLiteDelegateParams> preview_array_;  // its int arrays are ours
  std::vector<std::unique_ptr<tflite_inspect::DelegationRecord>> delegation_records_;
  std::string* error_capture_ = nullptr;  // also receives reported errors when set
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_CORE_SUBGRAPH_H_
