// Text and JSON renderings of the release checks (inspect_ops --min_runtime and
// --target_runtime; field meanings in docs/inspect_ops.md).
#ifndef TFLITE_INSPECT_LIB_INSPECT_RUNTIME_REPORT_H_
#define TFLITE_INSPECT_LIB_INSPECT_RUNTIME_REPORT_H_

#include <string>

#include "nlohmann/json.hpp"
#include "resolver/runtime_check.h"

namespace tflite_inspect {

std::string FormatMinRuntimeText(const MinRuntimeResult& r);
nlohmann::json MinRuntimeToJson(const MinRuntimeResult& r);

std::string FormatTargetRuntimeText(const TargetRuntimeResult& r);
nlohmann::json TargetRuntimeToJson(const TargetRuntimeResult& r);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_INSPECT_RUNTIME_REPORT_H_
