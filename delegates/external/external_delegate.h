// External delegates: TFLite's plugin ABI for delegates that live in their own shared
// library (tensorflow/lite/delegates/external/external_delegate_interface.h). A plugin
// exports two C functions:
//
//   TfLiteDelegate* tflite_plugin_create_delegate(char** options_keys,
//       char** options_values, size_t num_options, void (*report_error)(const char*));
//   void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate);
//
// create returns NULL on failure, after explaining why through report_error. As in
// TFLite's Python load_delegate, report_error is valid only while create runs: a plugin
// must not keep it. The same plugin loads into TFLite (load_delegate in Python, the
// external delegate in benchmark_model) and into our tools (--external_delegate_path).
//
// Not thread-safe (dlopen/dlerror and the create-time message capture); call from one
// thread, as the tools do.
#ifndef TFLITE_INSPECT_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_H_
#define TFLITE_INSPECT_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "util/status.h"

namespace tflite_inspect {

inline constexpr char kExternalDelegateCreateSymbol[] = "tflite_plugin_create_delegate";
inline constexpr char kExternalDelegateDestroySymbol[] = "tflite_plugin_destroy_delegate";

using ExternalDelegateCreateFn = TfLiteDelegate* (*)(char** options_keys, char** options_values,
                                                     size_t num_options,
                                                     void (*report_error)(const char*));
using ExternalDelegateDestroyFn = void (*)(TfLiteDelegate* delegate);

struct ExternalDelegateOption {
  std::string key;
  std::string value;
  bool operator==(const ExternalDelegateOption& o) const {
    return key == o.key && value == o.value;
  }
};

// Parses the --external_delegate_options syntax of TFLite's tools, 'k1:v1;k2:v2'. Pairs
// are separated by ';'; empty pairs (';;', a trailing ';', an empty string) are ignored.
// The key ends at the first ':' and the value is the rest, so it may hold ':' itself
// ('path:/a:b'). Errors name the pair and its 1-based position: a pair without ':' or
// with an empty key. Keys and values are taken as written (no trimming).
Result<std::vector<ExternalDelegateOption>> ParseExternalDelegateOptions(const std::string& text);

// Where the plugin's report_error messages go, each as one line already prefixed with
// "external delegate <path>: ". Default (empty): stderr.
using ExternalDelegateLog = std::function<void(const std::string& line)>;

// A plugin and the delegate it made. `delegate`'s deleter calls the plugin's destroy
// function and keeps the library mapped until then; `library` (the dlopen handle) may
// be held longer, e.g. by whatever owns kernels the plugin registered. Destroy the
// delegate only after every interpreter it was applied to.
struct ExternalDelegate {
  std::string path;
  std::vector<std::string> messages;  // what the plugin reported while creating it
  std::shared_ptr<void> library;
  std::unique_ptr<TfLiteDelegate, std::function<void(TfLiteDelegate*)>> delegate;
};

// dlopens `path` (RTLD_NOW | RTLD_LOCAL), finds both symbols and calls create with
// `options` in order. Errors name the path: a missing file, a dlopen failure (with
// dlerror's text), a missing create or destroy symbol (naming it), or create returning
// NULL (with every message the plugin reported, or saying it reported none).
Result<ExternalDelegate> LoadExternalDelegate(const std::string& path,
                                              const std::vector<ExternalDelegateOption>& options,
                                              const ExternalDelegateLog& log = {});

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_H_
