#include "tools/target_runtime.h"

#include "resolver/runtime_check.h"
#include "tensorflow/lite/model_builder.h"
#include "tools/string_reporter.h"

namespace tflite_inspect {

void AddTargetRuntimeFlag(CLI::App& app, std::string* target) {
  app.add_option("--target_runtime", *target,
                 "Warn when the model needs a newer TFLite release than this one (e.g. 2.8)");
}

Result<std::string> TargetRuntimeWarningForGraph(const std::string& graph,
                                                 const std::string& target) {
  if (target.empty()) return std::string();
  StringErrorReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromFile(graph.c_str(), &reporter);
  if (model == nullptr) {
    return Status(StatusCode::kInvalidModel, "cannot load " + graph + ": " + reporter.text());
  }
  return TargetRuntimeWarning(model->inspect_model(), target);
}

}  // namespace tflite_inspect
