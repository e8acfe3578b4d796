// The tools' provider for external delegates: --external_delegate_path=LIB.so (repeat it
// for several plugins, applied in command-line order) and --external_delegate_options=
// 'k1:v1;k2:v2' (given once per path, in the same order, or not at all).
#ifndef TFLITE_INSPECT_DELEGATES_EXTERNAL_EXTERNAL_PROVIDER_H_
#define TFLITE_INSPECT_DELEGATES_EXTERNAL_EXTERNAL_PROVIDER_H_

#include <memory>

#include "external/external_delegate.h"
#include "tools/delegate_provider.h"

namespace tflite_inspect {

// `log` receives the plugins' report_error lines (default: stderr).
std::unique_ptr<DelegateProvider> CreateExternalDelegateProvider(ExternalDelegateLog log = {});

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_EXTERNAL_EXTERNAL_PROVIDER_H_
