// The tools' provider for the GPU delegate: --use_gpu and TFLite's GPU flags
// (--gpu_precision_loss_allowed, --gpu_experimental_enable_quant, --gpu_backend,
// --delegate_serialize_dir/--delegate_serialize_token) plus --gpu_platform,
// --gpu_device, --gpu_cache_dir and --gpu_strict. TFLite's --gpu_inference_for_sustained_speed
// and --gpu_wait_type are accepted and have no effect here (FlagNotes says so).
#ifndef TFLITE_INSPECT_DELEGATES_GPU_GPU_PROVIDER_H_
#define TFLITE_INSPECT_DELEGATES_GPU_GPU_PROVIDER_H_

#include <memory>

#include "tools/delegate_provider.h"

namespace tflite_inspect {

std::unique_ptr<DelegateProvider> CreateGpuDelegateProvider();

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_GPU_GPU_PROVIDER_H_
