// What the runtime hands to delegates (and to any code holding only a TfLiteContext)
// beyond TFLite's C API: the interpreter's thread pool and, while a delegate's Prepare
// runs, the record that delegate_report and benchmark_model print.
//
// It travels as TFLite passes its own CPU backend state: an external context
// (TfLiteContext::GetExternalContext, slot kTfLiteCpuBackendContext), so a delegate
// needs no access to the runtime's C++ classes. Code that may also run inside the real
// TFLite (a delegate plugin built with our helpers) gets nullptr there and carries on
// without a pool or a record.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_RUNTIME_CONTEXT_H_
#define TFLITE_INSPECT_LIB_RUNTIME_RUNTIME_CONTEXT_H_

#include "tensorflow/lite/core/c/common.h"

struct pthreadpool;

namespace tflite_inspect {

struct DelegationRecord;

// The thread count is TfLiteContext::recommended_num_threads, as in TFLite.
struct RuntimeContext : TfLiteExternalContext {
  RuntimeContext();
  pthreadpool* thread_pool = nullptr;  // the interpreter's pool; nullptr: one thread
  // The record of the delegate being applied; nullptr outside a delegate's Prepare.
  DelegationRecord* delegation = nullptr;
};

// The runtime's context behind `context`, or nullptr when the context is not ours
// (recognized by its Refresh callback, so nothing past TfLiteExternalContext is read
// from someone else's object).
RuntimeContext* GetRuntimeContext(TfLiteContext* context);

// The record of the delegate being applied, or nullptr (not inside a delegate's Prepare,
// or not our runtime).
DelegationRecord* CurrentDelegationRecord(TfLiteContext* context);

// tflite-inspect's own bit of TfLiteDelegate::flags, set with
// kTfLiteDelegateFlagsAllowDynamicTensors by a delegate that accepts graphs with dynamic
// tensors but plans each partition for fixed shapes (our XNNPACK, whose library cannot
// reshape a runtime). Before its Prepare the runtime prepares every node whose shapes are
// known then (past dynamic outputs) and folds constant nodes; ShapeKnownOnlyAtInvoke says
// which tensors it must leave to the CPU; and a resized input re-applies it, as a static
// delegate. Far above TFLite's bits (1 to 8), which this runtime reads as TFLite does.
constexpr int64_t kDelegateFlagsStaticPartitions = int64_t{1} << 40;

// Inside the Prepare of a delegate with kDelegateFlagsStaticPartitions: whether tensor
// `t` gets its shape only when the graph runs. False elsewhere (no such information).
bool ShapeKnownOnlyAtInvoke(TfLiteContext* context, int t);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_RUNTIME_CONTEXT_H_
