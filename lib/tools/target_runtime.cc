#include "tools/target_runtime.h"

namespace tflite_inspect {

void AddTargetRuntimeFlag(CLI::App& app, std::string* target) {
  app.add_option("--target_runtime", *target,
                 "Warn when the model needs a newer TFLite release than this one (e.g. 2.8)");
}

}  // namespace tflite_inspect
