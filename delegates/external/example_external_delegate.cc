// An external delegate plugin: the ADD/SUB sample delegate (delegates/sample/) behind
// TFLite's plugin ABI. It is self-contained: the delegate and the runtime helpers it uses
// are linked in statically and hidden, so only the two C functions below are exported
// and nothing is resolved from (or clashes with) the loading program.
//
// Options: max_delegated_partitions:N, min_nodes_per_partition:N (integers; <= 0 means no
// limit). An unknown key or a bad number is reported through report_error and create
// returns NULL.
#include <cerrno>
#include <cstdlib>
#include <string>

#include "sample/sample_delegate.h"
#include "tensorflow/lite/core/c/common.h"

#define TFI_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

bool ParseInt(const char* text, int* value) {
  if (text == nullptr || *text == '\0') return false;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < -1000000 || v > 1000000) return false;
  *value = static_cast<int>(v);
  return true;
}

void Report(void (*report_error)(const char*), const std::string& message) {
  if (report_error != nullptr) report_error(message.c_str());
}

}  // namespace

TFI_PLUGIN_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(char** options_keys,
                                                                char** options_values,
                                                                size_t num_options,
                                                                void (*report_error)(const char*)) {
  tflite_inspect::SampleDelegateOptions options;
  for (size_t i = 0; i < num_options; ++i) {
    const std::string key = options_keys[i] != nullptr ? options_keys[i] : "";
    const char* value = options_values[i];
    int* target = nullptr;
    if (key == "max_delegated_partitions") {
      target = &options.max_delegated_partitions;
    } else if (key == "min_nodes_per_partition") {
      target = &options.min_nodes_per_partition;
    } else {
      Report(report_error, "sample external delegate: unknown option '" + key +
                               "' (known: max_delegated_partitions, min_nodes_per_partition)");
      return nullptr;
    }
    if (!ParseInt(value, target)) {
      Report(report_error, "sample external delegate: option '" + key + "' needs an integer, got '" +
                               std::string(value != nullptr ? value : "") + "'");
      return nullptr;
    }
  }
  return tflite_inspect::CreateSampleDelegate(options).release();
}

TFI_PLUGIN_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) {
  tflite::TfLiteDelegateFactory::DeleteSimpleDelegate(delegate);
}
