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

// Adds --max_arena_mb (0: the machine's memory) and --max_while_iterations (0: no cap).
void AddResourceLimitFlags(CLI::App& app, size_t* max_arena_mb, int64_t* max_while_iterations);

// max_arena_mb 0 keeps the interpreter's default (the machine's physical memory). Also
// makes a Ctrl-C cancel the interpreter's Invoke (tools/signals.h).
void ApplyResourceLimits(size_t max_arena_mb, int64_t max_while_iterations,
                         tflite::Interpreter* interpreter);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_RESOURCE_LIMITS_H_
