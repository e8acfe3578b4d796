// The OpenCL side of the GPU delegate: choosing a platform and device, one context and
// in-order queue per device, and the delegate's program, built once per process (and
// kept on disk when a cache directory is given). Every failure names the platform or
// device and the OpenCL error (CL_OUT_OF_RESOURCES, ...); nothing here aborts.
#ifndef TFLITE_INSPECT_DELEGATES_GPU_CL_ENV_H_
#define TFLITE_INSPECT_DELEGATES_GPU_CL_ENV_H_

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "util/status.h"

namespace tflite_inspect {
namespace gpu {

// "CL_OUT_OF_RESOURCES (-5)".
std::string ClErrorName(cl_int code);

struct DeviceChoice {
  std::string platform;  // "" = automatic; else an index ("1") or a name substring
  std::string device;    // same
};

struct DeviceInfo {
  std::string platform_name;
  std::string platform_version;
  std::string device_name;
  std::string device_version;
  std::string driver_version;
  cl_device_type type = 0;
  cl_uint compute_units = 0;
  size_t max_work_group_size = 0;
  cl_ulong global_mem_bytes = 0;
  cl_ulong max_alloc_bytes = 0;
  bool has_fp16 = false;  // cl_khr_fp16
  bool is_pocl = false;
  // "NVIDIA H200 (NVIDIA CUDA, OpenCL 3.0 CUDA 12.4)".
  std::string Describe() const;
};

// Every platform and device the ICD loader sees, for --help texts and errors.
Result<std::vector<DeviceInfo>> ListDevices();

// How one program build went (for benchmark_model's init breakdown).
struct BuildStats {
  double build_ms = 0;       // source compile or binary load, whichever happened
  bool from_memory = false;  // already built in this process
  bool from_disk = false;    // loaded from the cache directory
  bool wrote_disk = false;   // a new cache file was written
  std::string cache_file;    // the file used or written ("" without a cache dir)
  std::string cache_note;    // why the disk cache was not used, if it was not
};

// A device with its context and queue. Shared (process-wide) by every delegate that
// picks the same device, so programs are compiled once per process.
class ClEnv {
 public:
  ~ClEnv();
  ClEnv(const ClEnv&) = delete;
  ClEnv& operator=(const ClEnv&) = delete;

  static Result<std::shared_ptr<ClEnv>> Get(const DeviceChoice& choice);

  cl_context context() const { return context_; }
  cl_device_id device() const { return device_; }
  cl_command_queue queue() const { return queue_; }
  const DeviceInfo& info() const { return info_; }

  // The program for `source` built with `options`: from this process's memory, else
  // from `cache_dir` (when not empty; file names start with `token`), else compiled
  // from source (and written to `cache_dir`). Thread-safe.
  Result<cl_program> Program(const std::string& source, const std::string& options,
                             const std::string& cache_dir, const std::string& token,
                             BuildStats* stats);
  // The cache file Program uses for these arguments on this device.
  std::string CacheFile(const std::string& source, const std::string& options,
                        const std::string& cache_dir, const std::string& token) const;

 private:
  ClEnv() = default;
  Result<cl_program> BuildFromSource(const std::string& source, const std::string& options);
  uint64_t Key(const std::string& source, const std::string& options) const;
  Result<cl_program> LoadBinary(const std::vector<unsigned char>& binary, const std::string& options);

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  DeviceInfo info_;
  std::mutex mu_;
  struct Built {
    uint64_t key;
    cl_program program;
  };
  std::vector<Built> programs_;
};

// 64-bit FNV-1a; names cache files (not a security boundary).
uint64_t Fnv1a64(const std::string& bytes, uint64_t seed = 14695981039346656037ull);

}  // namespace gpu
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_GPU_CL_ENV_H_
