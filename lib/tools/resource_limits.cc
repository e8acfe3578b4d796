#include "tools/resource_limits.h"

#include <cstdint>
#include <string>

#include "tools/signals.h"

namespace tflite_inspect {
namespace {

// One short line for a negative value (CLI11's NonNegativeNumber prints its range with
// a 300-digit upper bound); `zero` says what 0 means.
CLI::Validator NonNegative(const std::string& unit, const std::string& zero) {
  return CLI::Validator(
      [unit, zero](std::string& value) -> std::string {
        const size_t first = value.find_first_not_of(" \t");
        if (first != std::string::npos && value[first] == '-') {
          return "'" + value + "' is negative: " + unit + " >= 0 (0: " + zero + ")";
        }
        return std::string();
      },
      unit);
}

}  // namespace

void AddResourceLimitFlags(CLI::App& app, ResourceLimits* limits) {
  app.add_option("--max_arena_mb", limits->max_arena_mb,
                 "Refuse a model whose tensor arenas, tensors and kernel buffers together need "
                 "more than this many MiB (default 0: the machine's memory; inference_diff: "
                 "both of its interpreters together)")
      ->check(NonNegative("MiB", "the machine's memory"));
  app.add_option("--max_while_iterations", limits->max_while_iterations,
                 "Fail a WHILE loop that runs more iterations than this (default 0: no cap, "
                 "as TFLite)")
      ->check(NonNegative("iterations", "no cap"));
}

void ApplyResourceLimits(const ResourceLimits& limits, tflite::Interpreter* interpreter) {
  if (limits.max_arena_mb > 0) {
    // More MiB than size_t can count in bytes is no limit below the machine's.
    const size_t max_mb = SIZE_MAX >> 20;
    interpreter->SetMemoryLimit(limits.max_arena_mb > max_mb ? SIZE_MAX : limits.max_arena_mb << 20);
  }
  interpreter->SetMaxWhileIterations(limits.max_while_iterations);
  CancelOnInterrupt(interpreter);  // Ctrl-C stops a loop that never ends, and says where
}

}  // namespace tflite_inspect
