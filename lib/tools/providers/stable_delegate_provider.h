// The tools' provider for TFLite's stable delegates: --stable_delegate_settings_file=F.json
// (TFLite's TFLiteSettings as JSON, naming the delegate's library in
// stable_delegate_loader_settings.delegate_path). The file is read and checked, and the
// delegate is refused with an error: a stable delegate (TfLiteStableDelegate ABI) is built
// on TFLite's opaque delegate API, which this runtime does not have. Never ignored.
#ifndef TFLITE_INSPECT_LIB_TOOLS_PROVIDERS_STABLE_DELEGATE_PROVIDER_H_
#define TFLITE_INSPECT_LIB_TOOLS_PROVIDERS_STABLE_DELEGATE_PROVIDER_H_

#include <memory>
#include <string>

#include "tools/delegate_provider.h"
#include "util/status.h"

namespace tflite_inspect {

std::unique_ptr<DelegateProvider> CreateStableDelegateProvider();

// What a settings file asks for: TFLite's stable_delegate_loader_settings.
struct StableDelegateSettings {
  std::string delegate_path;
  std::string delegate_name;  // may be empty
};
// Reads `path` as TFLite's stable delegate provider does (JSON, comments allowed): an
// error in TFLite's words when the file cannot be read, is not JSON of the right shape,
// or names no delegate_path.
Result<StableDelegateSettings> ReadStableDelegateSettings(const std::string& path);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_PROVIDERS_STABLE_DELEGATE_PROVIDER_H_
