// Interpreter: runs a model's subgraphs (TFLite's C++ API). Built by
// InterpreterBuilder; see core/subgraph.h for memory planning.
#ifndef TENSORFLOW_LITE_INTERPRETER_H_
#define TENSORFLOW_LITE_INTERPRETER_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/signature_runner.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/internal/signature_def.h"
#include "tensorflow/lite/interpreter_options.h"

struct pthreadpool;

namespace tflite {

class InterpreterBuilder;

class Interpreter {
 public:
  explicit Interpreter(ErrorReporter* error_reporter = DefaultErrorReporter());
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Primary subgraph I/O.
  TfLiteStatus SetInputs(std::vector<int> inputs) { return primary().SetInputs(inputs); }
  TfLiteStatus SetOutputs(std::vector<int> outputs) { return primary().SetOutputs(outputs); }
  const std::vector<int>& inputs() const { return primary().inputs(); }
  const std::vector<int>& outputs() const { return primary().outputs(); }
  const std::vector<int>& variables() const { return primary().variables(); }
  const char* GetInputName(int index) const { return primary().tensor(inputs()[index])->name; }
  const char* GetOutputName(int index) const { return primary().tensor(outputs()[index])->name; }

  size_t tensors_size() const { return primary().tensors_size(); }
  size_t nodes_size() const { return primary().nodes_size(); }
  const std::vector<int>& execution_plan() const { return primary().execution_plan(); }
  TfLiteTensor* tensor(int tensor_index) { return primary().tensor(tensor_index); }
  const TfLiteTensor* tensor(int tensor_index) const { return primary().tensor(tensor_index); }
  TfLiteTensor* input_tensor(size_t index) { return tensor(inputs()[index]); }
  TfLiteTensor* output_tensor(size_t index) { return tensor(outputs()[index]); }
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index) const {
    return primary().node_and_registration(node_index);
  }

  template <class T>
  T* typed_tensor(int tensor_index) {
    TfLiteTensor* t = tensor(tensor_index);
    return t == nullptr ? nullptr : reinterpret_cast<T*>(t->data.raw);
  }
  template <class T>
  const T* typed_tensor(int tensor_index) const {
    const TfLiteTensor* t = tensor(tensor_index);
    return t == nullptr ? nullptr : reinterpret_cast<const T*>(t->data.raw);
  }
  template <class T>
  T* typed_input_tensor(int index) { return typed_tensor<T>(inputs()[index]); }
  template <class T>
  T* typed_output_tensor(int index) { return typed_tensor<T>(outputs()[index]); }

  TfLiteStatus ResizeInputTensor(int tensor_index, const std::vector<int>& dims) {
    return primary().ResizeInputTensor(tensor_index, dims);
  }
  TfLiteStatus ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims) {
    return primary().ResizeInputTensorStrict(tensor_index, dims);
  }
  // Prepares every node and plans memory; needed after building and after resizing.
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  TfLiteStatus ResetVariableTensors();

  // Threads available to kernels (a pthreadpool); -1 means the default (1).
  TfLiteStatus SetNumThreads(int num_threads);
  // TFLite's experimental options (interpreter_options.h), copied; every subgraph (also
  // those added later) follows them. Apply before AllocateTensors and delegates.
  TfLiteStatus ApplyOptions(const InterpreterOptions* options);
  // TFLite's flag for delegates that may compute float32 in fp16
  // (TfLiteContext::allow_fp32_relax_to_fp16, every subgraph). No kernel or delegate here
  // reads it (in TFLite's Linux build only NNAPI does); it is kept for delegates loaded
  // from outside and for code that asks.
  void SetAllowFp16PrecisionForFp32(bool allow);
  bool GetAllowFp16PrecisionForFp32() const;
  int num_threads() const { return num_threads_; }
  void SetProfiler(Profiler* profiler);
  Profiler* GetProfiler() const { return profiler_; }

  // tflite-inspect extensions (resource limits; TFLite has none). What the runtime
  // allocates for this interpreter (every subgraph's tensor arena, persistent, scratch
  // and heap tensor buffers together) may not exceed `bytes` (default: the machine's
  // physical memory; 0: no limit): a crafted shape fails AllocateTensors/Invoke with the
  // sizes rather than exhausting the machine. ShareMemoryLimitWith(other) makes this
  // interpreter's allocations count against `other`'s limit, with other's (two
  // interpreters of one tool). WHILE fails after `n` iterations (default 0: no cap).
  void SetMemoryLimit(size_t bytes);
  size_t memory_limit() const;
  void ShareMemoryLimitWith(Interpreter* other);
  size_t AllocatedBytes() const;
  void SetMaxWhileIterations(int64_t n);

  // Cancellation, as TFLite: every subgraph's Invoke asks `check_cancelled_func(data)`
  // before each node and fails with "Client requested cancel during Invoke()" when it
  // answers true. EnableCancellation installs TFLite's own check, which Cancel() trips
  // for the Invoke in flight only (each Invoke starts uncancelled); Cancel() without
  // EnableCancellation() is an error. Cancel() is safe to call from another thread.
  void SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*));
  TfLiteStatus EnableCancellation();
  TfLiteStatus Cancel();

  // --- Signatures (TFLite's API): named computations, each on one subgraph. ---
  // The keys in the model's order; empty for a model without signatures.
  std::vector<const std::string*> signature_keys() const;
  // The runner of `signature_key` (made once, owned by the interpreter); nullptr when the
  // model has no such signature.
  SignatureRunner* GetSignatureRunner(const char* signature_key);
  // -1 when the model has no such signature.
  int GetSubgraphIndexFromSignature(const char* signature_key) const;
  // Name -> tensor index in the signature's subgraph; empty for an unknown key.
  const std::map<std::string, uint32_t>& signature_inputs(const char* signature_key) const;
  const std::map<std::string, uint32_t>& signature_outputs(const char* signature_key) const;
  TfLiteTensor* input_tensor_by_signature(const char* signature_input_name,
                                          const char* signature_key);
  const TfLiteTensor* output_tensor_by_signature(const char* signature_output_name,
                                                 const char* signature_key) const;

  size_t subgraphs_size() const { return subgraphs_.size(); }
  Subgraph* subgraph(int index) {
    return index >= 0 && static_cast<size_t>(index) < subgraphs_.size() ? subgraphs_[index].get()
                                                                         : nullptr;
  }
  Subgraph& primary_subgraph() { return primary(); }
  ErrorReporter* error_reporter() const { return error_reporter_; }

  // Bytes of the primary subgraph's activation arena (after AllocateTensors).
  size_t arena_bytes() const { return primary().arena_bytes(); }

  // Adds subgraphs (InterpreterBuilder); the first one exists from construction.
  void AddSubgraphs(int subgraphs_to_add, int* first_new_subgraph_index = nullptr);

  // --- Delegates (TFLite's API; mechanics in core/subgraph.h) ---
  // Applies `delegate` to every subgraph. kTfLiteDelegateError: the delegate failed and
  // every delegate was removed, the graph runs on the CPU (TFLite's behaviour);
  // kTfLiteApplicationError: not applicable (e.g. dynamic tensors), nothing changed.
  // The delegate must outlive the interpreter.
  TfLiteStatus ModifyGraphWithDelegate(TfLiteDelegate* delegate);
  // Same, taking ownership (kept even if applying fails, as TFLite does).
  template <typename Delegate, typename Deleter>
  TfLiteStatus ModifyGraphWithDelegate(std::unique_ptr<Delegate, Deleter> delegate) {
    Deleter deleter = std::move(delegate.get_deleter());
    owned_delegates_.emplace_back(delegate.release(), [deleter](TfLiteDelegate* d) {
      deleter(static_cast<typename std::unique_ptr<Delegate, Deleter>::pointer>(d));
    });
    return ModifyGraphWithDelegate(owned_delegates_.back().get());
  }
  // Removes every delegate from every subgraph: the original plan runs on the CPU.
  TfLiteStatus RemoveAllDelegates();
  bool HasDelegates() const { return primary().HasDelegates(); }
  TfLiteStatus SetBufferHandle(int tensor_index, TfLiteBufferHandle buffer_handle,
                               TfLiteDelegate* delegate) {
    return primary().SetBufferHandle(tensor_index, buffer_handle, delegate);
  }
  TfLiteStatus GetBufferHandle(int tensor_index, TfLiteBufferHandle* buffer_handle,
                               TfLiteDelegate** delegate) {
    return primary().GetBufferHandle(tensor_index, buffer_handle, delegate);
  }
  // When allowed, outputs may stay in delegate buffers after Invoke (data_is_stale);
  // by default Invoke copies them out so output tensors are always readable.
  void SetAllowBufferHandleOutput(bool allow) { allow_buffer_handle_output_ = allow; }
  TfLiteStatus EnsureTensorDataIsReadable(int tensor_index) {
    return primary().EnsureTensorDataIsReadable(tensor_index);
  }

 private:
  friend class InterpreterBuilder;
  friend class SignatureRunner;
  // The builder's, once: runners point into this vector.
  void SetSignatureDefs(std::vector<internal::SignatureDef> defs) {
    signature_defs_ = std::move(defs);
  }
  const internal::SignatureDef* FindSignature(const char* signature_key) const;
  // Every Invoke (the interpreter's or a runner's) starts uncancelled.
  void BeginInvoke() {
    if (cancellation_enabled_) continue_invocation_.test_and_set();
  }
  Subgraph& primary() { return *subgraphs_.front(); }
  const Subgraph& primary() const { return *subgraphs_.front(); }
  void LeaveMemoryShare();

  ErrorReporter* error_reporter_;
  std::vector<std::unique_ptr<Subgraph>> subgraphs_;
  pthreadpool* thread_pool_ = nullptr;
  int num_threads_ = 1;
  InterpreterOptions options_;
  bool allow_fp16_ = false;
  Profiler* profiler_ = nullptr;
  bool allow_buffer_handle_output_ = false;
  std::shared_ptr<MemoryShare> memory_share_;
  // Resource variables and CALL_ONCE's record, shared by every subgraph.
  std::shared_ptr<SubgraphResources> resources_ = std::make_shared<SubgraphResources>();
  int64_t max_while_iterations_ = 0;
  void* cancellation_data_ = nullptr;
  bool (*check_cancelled_func_)(void*) = nullptr;
  bool cancellation_enabled_ = false;
  std::atomic_flag continue_invocation_ = ATOMIC_FLAG_INIT;
  std::vector<internal::SignatureDef> signature_defs_;
  std::map<std::string, SignatureRunner> signature_runners_;
  // Destroyed after the subgraphs (~Interpreter clears those first).
  std::vector<std::unique_ptr<TfLiteDelegate, std::function<void(TfLiteDelegate*)>>>
      owned_delegates_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_INTERPRETER_H_
