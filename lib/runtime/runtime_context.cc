#include "runtime/runtime_context.h"

#include "runtime/delegation_record.h"

namespace tflite_inspect {
namespace {

// Interpreter::SetNumThreads refreshes external contexts; ours is updated by the
// interpreter directly, so there is nothing to re-read.
TfLiteStatus RefreshNothing(TfLiteContext*) { return kTfLiteOk; }

}  // namespace

RuntimeContext::RuntimeContext() : TfLiteExternalContext{kTfLiteCpuBackendContext, &RefreshNothing} {}

RuntimeContext* GetRuntimeContext(TfLiteContext* context) {
  if (context == nullptr || context->GetExternalContext == nullptr) return nullptr;
  TfLiteExternalContext* c = context->GetExternalContext(context, kTfLiteCpuBackendContext);
  return c != nullptr && c->Refresh == &RefreshNothing ? static_cast<RuntimeContext*>(c) : nullptr;
}

DelegationRecord* CurrentDelegationRecord(TfLiteContext* context) {
  RuntimeContext* runtime = GetRuntimeContext(context);
  return runtime != nullptr ? runtime->delegation : nullptr;
}

bool ShapeKnownOnlyAtInvoke(TfLiteContext* context, int t) {
  const DelegationRecord* record = CurrentDelegationRecord(context);
  return record != nullptr && t >= 0 && static_cast<size_t>(t) < record->shaped_at_invoke.size() &&
         record->shaped_at_invoke[t] != 0;
}

}  // namespace tflite_inspect
