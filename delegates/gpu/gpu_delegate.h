// The GPU delegate over OpenCL 1.2 (docs/gpu.md): float32 partitions run as OpenCL C
// kernels (cl/*.cl, compiled at run time by the driver, once per process, optionally
// cached on disk), tensors stay in device memory inside a partition, and only the
// partition's inputs and outputs cross to the host. Partition rules and log lines follow
// TFLite's GPU delegate: one partition unless --max_delegated_partitions says more.
#ifndef TFLITE_INSPECT_DELEGATES_GPU_GPU_DELEGATE_H_
#define TFLITE_INSPECT_DELEGATES_GPU_GPU_DELEGATE_H_

#include <limits>
#include <cstdint>
#include <string>

#include "delegate/partition_helper.h"
#include "gpu/cl_env.h"
#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "util/status.h"

namespace tflite_inspect {

struct GpuDelegateOptions {
  // Store activations as fp16 inside partitions (TFLite's default: precision loss
  // allowed). Arithmetic stays fp32; see docs/gpu.md.
  bool precision_loss_allowed = true;
  bool enable_quant = true;  // TFLite's default; quantized nodes: see docs/gpu.md
  gpu::DeviceChoice device;
  std::string cache_dir;    // program binaries; empty: no disk cache
  std::string cache_token;  // prefix of the cache files (TFLite's serialization token)
  int max_delegated_partitions = 0;  // <= 0 means 1, TFLite's GPU rule
  int min_nodes_per_partition = 0;
  int first_delegate_node_index = 0;  // nodes outside [first, last] stay on the CPU
  int last_delegate_node_index = std::numeric_limits<int>::max();
  // Testing aid: nodes of this op (e.g. "ADD") get a wrong result (negated output), so
  // tests can prove inference_diff --per_node finds a broken GPU kernel.
  std::string inject_fault_op;
};

struct GpuDelegateStats {
  std::string device;     // DeviceInfo::Describe()
  bool cpu_device = false;  // an OpenCL CPU device (PoCL's): correct results, not a GPU's timing
  std::string precision;  // "fp32" or "fp16 storage, fp32 arithmetic"
  double program_build_ms = 0;
  bool program_from_disk = false;
  bool program_from_memory = false;
  std::string cache_file;
  std::string cache_note;
  int64_t invocations = 0;          // partition runs
  int64_t bytes_to_device = 0;      // partition inputs uploaded, all runs
  int64_t bytes_from_device = 0;    // partition outputs read back, all runs
  int64_t device_bytes = 0;         // device memory held by live partitions
};

// What the GPU delegate's Prepare decides before it builds anything, without an OpenCL
// device: each node checked by the op's visitor in check mode, the runtime's partitions
// previewed and kept by the options' limits (max_delegated_partitions <= 0 means 1, as
// TFLite's GPU delegate). Call from a delegate's Prepare (it needs the delegate
// context). The invoke fuzzer runs it on every mutated model.
TfLiteStatus SelectGpuNodes(TfLiteContext* context, const GpuDelegateOptions& options,
                            NodeSelection* selection);

// Fails (with the platform/device and the OpenCL error named) when no OpenCL device is
// usable or the kernels do not build.
Result<tflite::TfLiteDelegateUniquePtr> CreateGpuDelegate(const GpuDelegateOptions& options);

// Counters of a delegate made by CreateGpuDelegate (null for any other delegate).
const GpuDelegateStats* GetGpuDelegateStats(const TfLiteDelegate* delegate);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_GPU_GPU_DELEGATE_H_
