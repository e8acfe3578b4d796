// --target_runtime for the tools that run or delegate a model (benchmark_model,
// delegate_report, run): a one-line warning when the model needs a newer TFLite than the
// release given (inspect_ops --target_runtime explains it in full).
#ifndef TFLITE_INSPECT_LIB_TOOLS_TARGET_RUNTIME_H_
#define TFLITE_INSPECT_LIB_TOOLS_TARGET_RUNTIME_H_

#include <string>

#include "CLI/CLI.hpp"
#include "util/status.h"

namespace tflite_inspect {

void AddTargetRuntimeFlag(CLI::App& app, std::string* target);

// "" when `target` is empty or the model loads on it; else the warning. Fails for an
// unknown release (listing the known ones) or a model that cannot be read.
Result<std::string> TargetRuntimeWarningForGraph(const std::string& graph,
                                                 const std::string& target);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_TARGET_RUNTIME_H_
