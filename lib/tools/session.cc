#include "tools/session.h"

#include <algorithm>

#include <fmt/format.h>

#include "resolver/runtime_check.h"
#include "runtime/delegation_record.h"
#include "runtime/thread_pool.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tools/resource_limits.h"
#include "util/now.h"

namespace tflite_inspect {

Result<std::unique_ptr<Session>> Session::Open(const SessionOptions& options,
                                               const tflite::OpResolver& resolver,
                                               DelegatePlan plan, SessionStage* failed_at) {
  std::unique_ptr<Session> s(new Session());
  SessionStage stage = SessionStage::kLoad;
  auto fail = [&](Status status) {
    if (failed_at != nullptr) *failed_at = stage;
    return status;
  };
  auto runtime_error = [&]() { return fail(Status(StatusCode::kInvalidModel, s->messages())); };
  auto done = [&](SessionStage next) {
    if (options.progress) options.progress(stage, *s);
    stage = next;
  };

  int64_t t = NowMicros();
  s->model_ = tflite::FlatBufferModel::BuildFromFile(options.graph.c_str(), s->reporter_.get());
  if (s->model_ == nullptr) return runtime_error();
  if (!options.target_runtime.empty()) {
    auto warning = TargetRuntimeWarning(s->model_->inspect_model(), options.target_runtime);
    if (!warning.ok()) return fail(warning.status());
    if (!warning->empty() && options.warn) options.warn(warning.value());
  }
  s->timings_.load_us = NowMicros() - t;
  done(SessionStage::kBuild);

  t = NowMicros();
  tflite::InterpreterBuilder(*s->model_, resolver, s->reporter_.get())(&s->interpreter_,
                                                                       options.num_threads);
  if (s->interpreter_ == nullptr) return runtime_error();
  s->interpreter_->ApplyOptions(&options.interpreter_options);
  ApplyResourceLimits(options.limits, s->interpreter_.get());
  if (options.share_memory_limit_with != nullptr) {
    s->interpreter_->ShareMemoryLimitWith(options.share_memory_limit_with);
  }
  if (const int cpus = tflite::thread_pool::AvailableCpus();
      options.num_threads > cpus && options.warn) {
    options.warn(fmt::format("{} threads requested, this process may run on {} CPUs: "
                             "{} threads run (more would only take turns on them)",
                             options.num_threads, cpus, cpus));
  }
  if (options.select_signature) {
    auto runner = options.select_signature(*s->interpreter_);
    if (!runner.ok()) return fail(runner.status());
    s->runner_ = runner.value();
  }
  if (options.after_build) {
    if (Status st = options.after_build(*s->interpreter_); !st.ok()) return fail(st);
  }
  s->timings_.build_us = NowMicros() - t;
  done(SessionStage::kCreateDelegates);

  t = NowMicros();
  if (plan.create) {
    auto made = plan.create(s->interpreter_->num_threads());
    if (!made.ok()) return fail(made.status());
    s->delegates_ = std::move(made.value());
  }
  s->timings_.create_delegates_us = NowMicros() - t;
  done(SessionStage::kApplyDelegates);

  t = NowMicros();
  auto applied = ApplyDelegates(s->interpreter_.get(), s->delegates_, plan.strict);
  if (!applied.ok()) return fail(applied.status());
  s->applied_ = std::move(applied.value());
  s->timings_.apply_delegates_us = NowMicros() - t;
  done(SessionStage::kBeforeAllocate);

  if (options.before_allocate) {
    if (Status st = options.before_allocate(s->subgraph()); !st.ok()) return fail(st);
  }
  done(SessionStage::kAllocate);

  t = NowMicros();
  const TfLiteStatus allocated = s->runner_ != nullptr ? s->runner_->AllocateTensors()
                                                      : s->interpreter_->AllocateTensors();
  NameFlagsInRecords(s->interpreter_.get(), s->delegates_);
  if (allocated != kTfLiteOk) return runtime_error();
  s->timings_.allocate_us = NowMicros() - t;
  done(SessionStage::kOpen);
  return s;
}

Status SessionError(SessionStage stage, const Status& status, const SessionErrorTexts& texts) {
  const std::string* prefix = nullptr;
  switch (stage) {
    case SessionStage::kLoad: prefix = &texts.load; break;
    case SessionStage::kBuild: prefix = &texts.build; break;
    case SessionStage::kAllocate: prefix = &texts.allocate; break;
    case SessionStage::kCreateDelegates:
      if (texts.delegate_creation_is_usage) {
        return Status(StatusCode::kInvalidArgument, status.message());
      }
      return status;
    default: return status;
  }
  // Only the runtime's own refusals get the tool's wording; an unknown --target_runtime
  // (kInvalidArgument at kLoad) keeps its own.
  if (status.code() != StatusCode::kInvalidModel) return status;
  return Status(StatusCode::kInvalidModel, *prefix + status.message());
}

std::vector<std::string> Session::DelegationLog() const {
  std::vector<std::string> lines;
  for (size_t i = 0; i < interpreter_->subgraphs_size(); ++i) {
    // unique_ptr's operator* gives the non-const interpreter, whose subgraph() is.
    const tflite::Subgraph* sg = interpreter_->subgraph(static_cast<int>(i));
    for (const auto& r : sg->delegation_records()) {
      lines.insert(lines.end(), r->log.begin(), r->log.end());
    }
  }
  return lines;
}

std::vector<std::string> Session::DelegationLog(const TfLiteDelegate* delegate) const {
  std::vector<std::string> lines;
  for (const auto& r : interpreter_->primary_subgraph().delegation_records()) {
    if (r->delegate == delegate) lines.insert(lines.end(), r->log.begin(), r->log.end());
  }
  return lines;
}

}  // namespace tflite_inspect
