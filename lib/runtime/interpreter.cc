#include "tensorflow/lite/interpreter.h"

#include <pthreadpool.h>
#include <unistd.h>

#include <algorithm>

#include "runtime/memory_share.h"
#include "runtime/thread_pool.h"

namespace tflite {
namespace {

size_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size);
}

}  // namespace

Interpreter::Interpreter(ErrorReporter* error_reporter)
    : error_reporter_(error_reporter ? error_reporter : DefaultErrorReporter()),
      memory_share_(std::make_shared<MemoryShare>()) {
  memory_share_->limit = PhysicalMemoryBytes();
  memory_share_->members.push_back(this);
  AddSubgraphs(1);
}

Interpreter::~Interpreter() {
  LeaveMemoryShare();
  subgraphs_.clear();  // kernels may still use the pool while freeing
  if (thread_pool_ != nullptr) pthreadpool_destroy(thread_pool_);
}

void Interpreter::AddSubgraphs(int subgraphs_to_add, int* first_new_subgraph_index) {
  if (first_new_subgraph_index != nullptr) {
    *first_new_subgraph_index = static_cast<int>(subgraphs_.size());
  }
  for (int i = 0; i < subgraphs_to_add; ++i) {
    const int index = static_cast<int>(subgraphs_.size());
    subgraphs_.push_back(std::make_unique<Subgraph>(error_reporter_, &subgraphs_, index));
    subgraphs_.back()->SetThreadPool(thread_pool_, num_threads_);
    subgraphs_.back()->SetOptions(&options_);
    subgraphs_.back()->context()->allow_fp32_relax_to_fp16 = allow_fp16_;
    subgraphs_.back()->SetProfiler(profiler_);
    subgraphs_.back()->SetMemoryShare(memory_share_.get());
    subgraphs_.back()->ShareResources(resources_);
    subgraphs_.back()->SetMaxWhileIterations(max_while_iterations_);
    subgraphs_.back()->SetCancellationFunction(cancellation_data_, check_cancelled_func_);
  }
}

void Interpreter::SetMemoryLimit(size_t bytes) { memory_share_->limit = bytes; }

size_t Interpreter::memory_limit() const { return memory_share_->limit; }

void Interpreter::LeaveMemoryShare() {
  auto& m = memory_share_->members;
  m.erase(std::remove(m.begin(), m.end(), this), m.end());
}

void Interpreter::ShareMemoryLimitWith(Interpreter* other) {
  if (other == nullptr || other->memory_share_ == memory_share_) return;
  LeaveMemoryShare();
  memory_share_ = other->memory_share_;
  memory_share_->members.push_back(this);
  for (auto& s : subgraphs_) s->SetMemoryShare(memory_share_.get());
}

size_t Interpreter::AllocatedBytes() const {
  size_t total = 0;
  for (const auto& s : subgraphs_) total += s->AllocatedBytes();
  return total;
}

size_t MemoryShare::Allocated() const {
  size_t total = 0;
  for (const Interpreter* i : members) total += i->AllocatedBytes();
  return total;
}

void Interpreter::SetMaxWhileIterations(int64_t n) {
  max_while_iterations_ = n;
  for (auto& s : subgraphs_) s->SetMaxWhileIterations(n);
}

void Interpreter::SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*)) {
  cancellation_data_ = data;
  check_cancelled_func_ = check_cancelled_func;
  for (auto& s : subgraphs_) s->SetCancellationFunction(data, check_cancelled_func);
}

TfLiteStatus Interpreter::EnableCancellation() {
  cancellation_enabled_ = true;
  continue_invocation_.test_and_set();
  SetCancellationFunction(this, [](void* data) {
    // test_and_set answers the old value: false once Cancel() has cleared the flag.
    return !static_cast<Interpreter*>(data)->continue_invocation_.test_and_set();
  });
  return kTfLiteOk;
}

TfLiteStatus Interpreter::Cancel() {
  if (!cancellation_enabled_) return kTfLiteError;
  continue_invocation_.clear();
  return kTfLiteOk;
}

TfLiteStatus Interpreter::AllocateTensors() { return primary().AllocateTensors(); }

void Interpreter::SetAllowFp16PrecisionForFp32(bool allow) {
  allow_fp16_ = allow;
  for (auto& s : subgraphs_) s->context()->allow_fp32_relax_to_fp16 = allow;
}

bool Interpreter::GetAllowFp16PrecisionForFp32() const { return allow_fp16_; }

TfLiteStatus Interpreter::ApplyOptions(const InterpreterOptions* options) {
  if (options != nullptr) options_ = *options;  // the subgraphs point at options_
  return kTfLiteOk;
}

TfLiteStatus Interpreter::Invoke() {
  BeginInvoke();
  TF_LITE_ENSURE_STATUS(primary().Invoke());
  if (!allow_buffer_handle_output_) {
    for (int t : outputs()) TF_LITE_ENSURE_STATUS(primary().EnsureTensorDataIsReadable(t));
  }
  return kTfLiteOk;
}

TfLiteStatus Interpreter::ModifyGraphWithDelegate(TfLiteDelegate* delegate) {
  TfLiteStatus status = kTfLiteOk;
  for (auto& sg : subgraphs_) {
    status = sg->ModifyGraphWithDelegate(delegate);
    if (status != kTfLiteOk) break;
  }
  // A delegate failure on one subgraph leaves none delegated: back to the CPU plan.
  if (status == kTfLiteDelegateError) TF_LITE_ENSURE_STATUS(RemoveAllDelegates());
  return status;
}

TfLiteStatus Interpreter::RemoveAllDelegates() {
  for (auto& sg : subgraphs_) TF_LITE_ENSURE_STATUS(sg->RemoveAllDelegates());
  return kTfLiteOk;
}

TfLiteStatus Interpreter::ResetVariableTensors() {
  for (auto& sg : subgraphs_) TF_LITE_ENSURE_STATUS(sg->ResetVariableTensors());
  return kTfLiteOk;
}

TfLiteStatus Interpreter::SetNumThreads(int num_threads) {
  // As TFLite: 0 and 1 both mean one thread, -1 the runtime's choice (one here).
  if (num_threads < -1) {
    error_reporter_->Report(
        "num_threads should be >= 0 or just -1 to let TFLite runtime set the value.");
    return kTfLiteError;
  }
  const int n = num_threads <= 0 ? 1 : num_threads;
  if (thread_pool_ != nullptr) {
    pthreadpool_destroy(thread_pool_);
    thread_pool_ = nullptr;
  }
  // Threads beyond the CPUs this process may run on only take turns with the others, and
  // every parallel call would wait for whichever is descheduled: the pool has at most one
  // thread per CPU (num_threads() still answers what was asked, as TFLite's). One thread
  // runs inline: no pool at all keeps single-threaded runs free of overhead.
  const int pool_threads = std::min(n, tflite::thread_pool::AvailableCpus());
  if (pool_threads > 1) thread_pool_ = pthreadpool_create(static_cast<size_t>(pool_threads));
  num_threads_ = n;
  for (auto& s : subgraphs_) s->SetThreadPool(thread_pool_, n);
  return kTfLiteOk;
}

const internal::SignatureDef* Interpreter::FindSignature(const char* signature_key) const {
  if (signature_key == nullptr) return nullptr;
  for (const auto& def : signature_defs_) {
    if (def.signature_key == signature_key) return &def;
  }
  return nullptr;
}

std::vector<const std::string*> Interpreter::signature_keys() const {
  std::vector<const std::string*> keys;
  for (const auto& def : signature_defs_) keys.push_back(&def.signature_key);
  return keys;
}

SignatureRunner* Interpreter::GetSignatureRunner(const char* signature_key) {
  const internal::SignatureDef* def = FindSignature(signature_key);
  if (def == nullptr) return nullptr;
  auto it = signature_runners_.find(def->signature_key);
  if (it == signature_runners_.end()) {
    it = signature_runners_
             .emplace(def->signature_key,
                      SignatureRunner(def, subgraph(static_cast<int>(def->subgraph_index)), this))
             .first;
  }
  return &it->second;
}

int Interpreter::GetSubgraphIndexFromSignature(const char* signature_key) const {
  const internal::SignatureDef* def = FindSignature(signature_key);
  return def == nullptr ? -1 : static_cast<int>(def->subgraph_index);
}

const std::map<std::string, uint32_t>& Interpreter::signature_inputs(
    const char* signature_key) const {
  static const std::map<std::string, uint32_t> kNone;
  const internal::SignatureDef* def = FindSignature(signature_key);
  return def == nullptr ? kNone : def->inputs;
}

const std::map<std::string, uint32_t>& Interpreter::signature_outputs(
    const char* signature_key) const {
  static const std::map<std::string, uint32_t> kNone;
  const internal::SignatureDef* def = FindSignature(signature_key);
  return def == nullptr ? kNone : def->outputs;
}

TfLiteTensor* Interpreter::input_tensor_by_signature(const char* signature_input_name,
                                                     const char* signature_key) {
  SignatureRunner* runner = GetSignatureRunner(signature_key);
  return runner == nullptr ? nullptr : runner->input_tensor(signature_input_name);
}

const TfLiteTensor* Interpreter::output_tensor_by_signature(const char* signature_output_name,
                                                            const char* signature_key) const {
  const internal::SignatureDef* def = FindSignature(signature_key);
  if (def == nullptr || signature_output_name == nullptr) return nullptr;
  auto it = def->outputs.find(signature_output_name);
  if (it == def->outputs.end()) return nullptr;
  const Subgraph& sg = *subgraphs_[def->subgraph_index];
  return sg.tensor(static_cast<int>(it->second));
}

void Interpreter::SetProfiler(Profiler* profiler) {
  profiler_ = profiler;
  for (auto& s : subgraphs_) s->SetProfiler(profiler);
}

}  // namespace tflite
