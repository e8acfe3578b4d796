// --target_runtime for the tools that run or delegate a model (benchmark_model,
// delegate_report): the session (tools/session.h) warns in one line when the model needs
// a newer TFLite than the release given (inspect_ops --target_runtime explains it in full).
#ifndef TFLITE_INSPECT_LIB_TOOLS_TARGET_RUNTIME_H_
#define TFLITE_INSPECT_LIB_TOOLS_TARGET_RUNTIME_H_

#include <string>

#include "CLI/CLI.hpp"

namespace tflite_inspect {

void AddTargetRuntimeFlag(CLI::App& app, std::string* target);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_TARGET_RUNTIME_H_
