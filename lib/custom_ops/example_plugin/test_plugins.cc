// Broken plugins for the loader's error tests (custom_ops_test), one per build:
//   TFI_PLUGIN_NO_SYMBOL: exports something, but not TfliteInspectRegisterCustomOps;
//   otherwise: exports it, and it fails.
#include "tensorflow/lite/core/c/common.h"

namespace tflite {
class MutableOpResolver;
}

#ifdef TFI_PLUGIN_NO_SYMBOL
extern "C" __attribute__((visibility("default"))) int TfliteInspectSomethingElse() { return 0; }
#else
extern "C" __attribute__((visibility("default"))) TfLiteStatus TfliteInspectRegisterCustomOps(
    tflite::MutableOpResolver*) {
  return kTfLiteError;
}
#endif
