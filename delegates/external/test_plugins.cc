// Plugins that fail on purpose, for the loader's error paths (one source, built several
// ways):
//   TFI_PLUGIN_NO_SYMBOLS    exports neither ABI function
//   TFI_PLUGIN_NO_DESTROY    exports only tflite_plugin_create_delegate
//   (neither)                create reports two messages and returns NULL
#include <cstddef>

#include "tensorflow/lite/core/c/common.h"

#define TFI_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

#if defined(TFI_PLUGIN_NO_SYMBOLS)

TFI_PLUGIN_EXPORT int tfi_test_plugin_something_else(void) { return 42; }

#else

TFI_PLUGIN_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(char**, char**, size_t num_options,
                                                                void (*report_error)(const char*)) {
  if (report_error != nullptr) {
    report_error("test plugin: cannot reach the accelerator");
    report_error(num_options == 0 ? "test plugin: got no options" : "test plugin: got options");
  }
  return nullptr;
}

#if !defined(TFI_PLUGIN_NO_DESTROY)
TFI_PLUGIN_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate*) {}
#endif

#endif
