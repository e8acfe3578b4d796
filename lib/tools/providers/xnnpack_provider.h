// The tools' provider for the XNNPACK delegate: --use_xnnpack, --xnnpack_force_fp16,
// --xnnpack_runtime_flags, and TFLite's --xnnpack_weight_cache_file_path and
// --xnnpack_slinky (accepted; no effect with this XNNPACK, which says so).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_PROVIDER_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_PROVIDER_H_

#include <memory>

#include "tools/delegate_provider.h"

namespace tflite_inspect {

std::unique_ptr<DelegateProvider> CreateXnnpackDelegateProvider();

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_XNNPACK_PROVIDER_H_
