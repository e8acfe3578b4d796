// One tool session: load -> verify -> build -> resource limits -> create and apply the
// delegates in plan order -> allocate, written once for every tool (run, benchmark_model,
// inference_diff, delegate_report). The session owns the model, the delegates and the
// interpreter, destroyed in the order TFLite needs (interpreter first, delegates after).
//
// A failed step leaves no session behind: the tools never touch a tensor after one.
#ifndef TFLITE_INSPECT_LIB_TOOLS_SESSION_H_
#define TFLITE_INSPECT_LIB_TOOLS_SESSION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"
#include "tools/string_reporter.h"
#include "util/status.h"

namespace tflite_inspect {

// The steps of Session::Open, in order; a failure names the one that failed.
enum class SessionStage {
  kLoad,             // read, verify and validate the file
  kBuild,            // resolve ops, build the interpreter
  kCreateDelegates,  // the plan's delegates are made
  kApplyDelegates,   // ModifyGraphWithDelegate, in plan order
  kBeforeAllocate,   // the tool's own step (resizing inputs, ...)
  kAllocate,         // AllocateTensors
  kOpen,             // done
};

struct SessionOptions {
  std::string graph;
  int num_threads = 1;  // -1: the runtime's default
  // TFLite's experimental interpreter options, applied right after the build (as
  // InterpreterBuilder applies them): released dynamic tensors, no delegate clustering.
  tflite::InterpreterOptions interpreter_options;
  ResourceLimits limits;
  // An interpreter whose memory limit this session's shares (both allocations count).
  tflite::Interpreter* share_memory_limit_with = nullptr;
  // --target_runtime: a release the model should load on; "" for no check. A model that
  // needs a newer release gets one `warn` line; an unknown release fails the load step.
  std::string target_runtime;
  // Each optional. `progress` is called after every step that succeeded (the tools log
  // TFLite's lines there: "Loaded model ...", "Going to apply N delegates ...").
  std::function<void(SessionStage done, class Session&)> progress;
  std::function<void(const std::string&)> warn;
  // The signature the tool runs (TFLite's SignatureRunner), chosen right after the build
  // by the tool's rule; nullptr (or no function) runs the primary subgraph. A failure
  // fails the build step with the function's status. The session allocates the chosen
  // signature's subgraph only, as a runner does.
  std::function<Result<tflite::SignatureRunner*>(tflite::Interpreter&)> select_signature;
  // After the build (a profiler), and after the delegates, before AllocateTensors (given
  // the subgraph that runs: the chosen signature's, or the primary).
  std::function<Status(tflite::Interpreter&)> after_build;
  std::function<Status(tflite::Subgraph&)> before_allocate;
};

struct SessionTimings {
  int64_t load_us = 0, build_us = 0, create_delegates_us = 0, apply_delegates_us = 0,
          allocate_us = 0;
};

class Session {
 public:
  // On failure, *failed_at (if given) is the step that failed, and the status carries
  // the runtime's messages (Status code kInvalidModel; a delegate's own status for
  // kCreateDelegates / kApplyDelegates under a strict plan; the hook's status).
  static Result<std::unique_ptr<Session>> Open(const SessionOptions& options,
                                               const tflite::OpResolver& resolver,
                                               DelegatePlan plan,
                                               SessionStage* failed_at = nullptr);

  tflite::Interpreter& interpreter() { return *interpreter_; }
  const tflite::Interpreter& interpreter() const { return *interpreter_; }
  const tflite::FlatBufferModel& model() const { return *model_; }
  // The chosen signature's runner (nullptr: the primary subgraph runs), and the subgraph
  // the tool runs either way.
  tflite::SignatureRunner* runner() const { return runner_; }
  tflite::Subgraph& subgraph() {
    return runner_ != nullptr ? *runner_->subgraph() : interpreter_->primary_subgraph();
  }
  // Runs it: the runner's Invoke, or the interpreter's.
  TfLiteStatus Invoke() { return runner_ != nullptr ? runner_->Invoke() : interpreter_->Invoke(); }
  // Delegates in the order applied, index-aligned with applied() (default delegates that
  // took nothing are dropped from both).
  const std::vector<DelegateInstance>& delegates() const { return delegates_; }
  const std::vector<AppliedDelegate>& applied() const { return applied_; }
  const SessionTimings& timings() const { return timings_; }
  // Every message the runtime reported so far (also after Open, e.g. from Invoke).
  const std::string& messages() const { return reporter_->text(); }
  // TFLite's delegation lines ("Replacing N out of M node(s) ..."), every subgraph.
  std::vector<std::string> DelegationLog() const;
  // The delegation lines of one delegate, primary subgraph.
  std::vector<std::string> DelegationLog(const TfLiteDelegate* delegate) const;

 private:
  Session() = default;
  // Declaration order is destruction order, reversed: the interpreter goes first, then
  // the delegates it used, then the model it read from, then the reporter.
  std::unique_ptr<StringErrorReporter> reporter_ = std::make_unique<StringErrorReporter>();
  std::unique_ptr<tflite::FlatBufferModel> model_;
  std::vector<DelegateInstance> delegates_;
  std::unique_ptr<tflite::Interpreter> interpreter_;
  std::vector<AppliedDelegate> applied_;
  tflite::SignatureRunner* runner_ = nullptr;  // owned by the interpreter
  SessionTimings timings_;
};

// How a tool words a failed step: its prefix before the runtime's messages, per step.
struct SessionErrorTexts {
  std::string load, build, allocate;  // e.g. "Failed to mmap model m.tflite: "
  // Delegates the flags ask for but cannot be made: a usage error (exit 2).
  bool delegate_creation_is_usage = true;
};

// The tool's error for a failure of Session::Open at `stage`.
Status SessionError(SessionStage stage, const Status& status, const SessionErrorTexts& texts);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_SESSION_H_
