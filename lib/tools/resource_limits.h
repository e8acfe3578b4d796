// The tools' resource limits (issue: crafted models must be refused, not OOM-killed or
// left spinning): --max_arena_mb and --max_while_iterations, applied to an interpreter
// after it is built and before anything is prepared.
#ifndef TFLITE_INSPECT_LIB_TOOLS_RESOURCE_LIMITS_H_
#define TFLITE_INSPECT_LIB_TOOLS_RESOURCE_LIMITS_H_

#include <cstddef>
#include <cstdint>

#include "CLI/CLI.hpp"
#include "tensorflow/lite/interpreter.h"

namespace tflite_inspect {

struct ResourceLimits {
  size_t max_arena_mb = 0;           // 0: the machine's physical memory
  int64_t max_while_iterations = 0;  // 0: no cap (TFLite's behaviour)
};

// Adds --max_arena_mb and --max_while_iterations.
void AddResourceLimitFlags(CLI::App& app, ResourceLimits* limits);

// Also makes a Ctrl-C cancel the interpreter's Invoke (tools/signals.h).
void ApplyResourceLimits(const ResourceLimits& limits, tflite::Interpreter* interpreter);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_RESOURCE_LIMITS_H_
