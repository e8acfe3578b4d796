#include "tools/resource_limits.h"

#include "tools/signals.h"

namespace tflite_inspect {

void AddResourceLimitFlags(CLI::App& app, ResourceLimits* limits) {
  app.add_option("--max_arena_mb", limits->max_arena_mb,
                 "Refuse a model whose tensor arenas, tensors and kernel buffers together need "
                 "more than this many MiB (default 0: the machine's memory; inference_diff: "
                 "both of its interpreters together)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--max_while_iterations", limits->max_while_iterations,
                 "Fail a WHILE loop that runs more iterations than this (default 0: no cap, "
                 "as TFLite)")
      ->check(CLI::NonNegativeNumber);
}

void ApplyResourceLimits(const ResourceLimits& limits, tflite::Interpreter* interpreter) {
  if (limits.max_arena_mb > 0) interpreter->SetMemoryLimit(limits.max_arena_mb << 20);
  interpreter->SetMaxWhileIterations(limits.max_while_iterations);
  CancelOnInterrupt(interpreter);  // Ctrl-C stops a loop that never ends, and says where
}

}  // namespace tflite_inspect
