#include "gpu/cl_env.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>

#include <fmt/format.h>

namespace tflite_inspect {
namespace gpu {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string PlatformString(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (clGetPlatformInfo(p, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string DeviceString(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <typename T>
T DeviceValue(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof(v), &v, nullptr);
  return v;
}

DeviceInfo Describe(cl_platform_id p, cl_device_id d) {
  DeviceInfo info;
  info.platform_name = PlatformString(p, CL_PLATFORM_NAME);
  info.platform_version = PlatformString(p, CL_PLATFORM_VERSION);
  info.device_name = DeviceString(d, CL_DEVICE_NAME);
  info.device_version = DeviceString(d, CL_DEVICE_VERSION);
  info.driver_version = DeviceString(d, CL_DRIVER_VERSION);
  info.type = DeviceValue<cl_device_type>(d, CL_DEVICE_TYPE);
  info.compute_units = DeviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.max_work_group_size = DeviceValue<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  info.global_mem_bytes = DeviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.max_alloc_bytes = DeviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const std::string ext = " " + DeviceString(d, CL_DEVICE_EXTENSIONS) + " ";
  info.has_fp16 = ext.find(" cl_khr_fp16 ") != std::string::npos;
  info.is_pocl = info.platform_name.find("Portable Computing Language") != std::string::npos;
  return info;
}

// PoCL keeps compiled kernels under $POCL_CACHE_DIR (else $XDG_CACHE_HOME or ~/.cache);
// with neither set and an unwritable home it finds no device at all. Give it a
// directory of its own before the ICD loader starts it.
void EnsurePoclCacheDir() {
  if (std::getenv("POCL_CACHE_DIR") != nullptr || std::getenv("XDG_CACHE_HOME") != nullptr) return;
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = fmt::format("{}/tfi-pocl-cache-{}", tmp != nullptr ? tmp : "/tmp", getuid());
  setenv("POCL_CACHE_DIR", dir.c_str(), 0);
}

// PoCL links kernels with `ld` at build time and aborts the process when it is missing.
bool LinkerOnPath() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string p = path;
  size_t start = 0;
  while (start <= p.size()) {
    const size_t end = std::min(p.find(':', start), p.size());
    const std::string dir = p.substr(start, end - start);
    if (!dir.empty() && access((dir + "/ld").c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

struct Candidate {
  cl_platform_id platform;
  cl_device_id device;
  int platform_index;
  int device_index;
  DeviceInfo info;
};

// Android (adb shell and apps get ANDROID_ROOT from init): the GPU's OpenCL driver is the
// vendor's libOpenCL.so, a bionic library that a glibc program (this one, run from the
// phone bundle) cannot load. The first vendor library found, or "" when none is.
std::string AndroidVendorOpenCl() {
  static const char* const kPaths[] = {"/vendor/lib64/libOpenCL.so",
                                       "/system/vendor/lib64/libOpenCL.so",
                                       "/vendor/lib/libOpenCL.so",
                                       "/system/vendor/lib/libOpenCL.so"};
  for (const char* p : kPaths) {
    if (access(p, F_OK) == 0) return p;
  }
  return "";
}

Result<std::vector<Candidate>> Enumerate() {
  EnsurePoclCacheDir();
  cl_uint num_platforms = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &num_platforms);
  if (err != CL_SUCCESS || num_platforms == 0) {
    const std::string found = err != CL_SUCCESS ? ClErrorName(err) : "0 platforms";
    if (std::getenv("ANDROID_ROOT") != nullptr) {
      const std::string vendor = AndroidVendorOpenCl();
      return Status(StatusCode::kUnsupported,
                    fmt::format("no OpenCL platform found (clGetPlatformIDs: {}): on Android the "
                                "GPU's OpenCL driver ({}) is built for Android's libc (bionic) "
                                "and cannot be loaded into this glibc program, so the GPU "
                                "delegate is not available from the phone bundle "
                                "(docs/phones.md)",
                                found, vendor.empty() ? "the vendor's libOpenCL.so" : vendor));
    }
    return Status(StatusCode::kUnsupported,
                  fmt::format("no OpenCL platform found (clGetPlatformIDs: {}); install an "
                              "OpenCL driver (for example pocl-opencl-icd)",
                              found));
  }
  std::vector<cl_platform_id> platforms(num_platforms);
  clGetPlatformIDs(num_platforms, platforms.data(), nullptr);
  std::vector<Candidate> out;
  std::string errors;
  for (cl_uint pi = 0; pi < num_platforms; ++pi) {
    cl_uint n = 0;
    err = clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    if (err != CL_SUCCESS || n == 0) {
      errors += fmt::format("; platform {} '{}': {}", pi, PlatformString(platforms[pi], CL_PLATFORM_NAME),
                            err != CL_SUCCESS ? ClErrorName(err) : "no devices");
      continue;
    }
    std::vector<cl_device_id> devices(n);
    clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr);
    for (cl_uint di = 0; di < n; ++di) {
      out.push_back({platforms[pi], devices[di], static_cast<int>(pi), static_cast<int>(di),
                     Describe(platforms[pi], devices[di])});
    }
  }
  if (out.empty()) {
    return Status(StatusCode::kUnsupported,
                  fmt::format("no OpenCL device found{}", errors));
  }
  return out;
}

bool IsIndex(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool Matches(const std::string& want, int index, const std::string& name) {
  if (want.empty()) return true;
  if (IsIndex(want)) return std::atoi(want.c_str()) == index;
  return Lower(name).find(Lower(want)) != std::string::npos;
}

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string BuildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  if (size > 0) clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (log.size() > 4000) log = log.substr(0, 4000) + "\n...";
  return log;
}

}  // namespace

std::string ClErrorName(cl_int code) {
  static const std::map<cl_int, const char*> kNames = {
      {CL_SUCCESS, "CL_SUCCESS"},
      {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
      {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
      {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
      {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
      {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
      {CL_PROFILING_INFO_NOT_AVAILABLE, "CL_PROFILING_INFO_NOT_AVAILABLE"},
      {CL_MEM_COPY_OVERLAP, "CL_MEM_COPY_OVERLAP"},
      {CL_IMAGE_FORMAT_MISMATCH, "CL_IMAGE_FORMAT_MISMATCH"},
      {CL_IMAGE_FORMAT_NOT_SUPPORTED, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
      {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
      {CL_MAP_FAILURE, "CL_MAP_FAILURE"},
      {CL_MISALIGNED_SUB_BUFFER_OFFSET, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
      {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
      {CL_COMPILE_PROGRAM_FAILURE, "CL_COMPILE_PROGRAM_FAILURE"},
      {CL_LINKER_NOT_AVAILABLE, "CL_LINKER_NOT_AVAILABLE"},
      {CL_LINK_PROGRAM_FAILURE, "CL_LINK_PROGRAM_FAILURE"},
      {CL_DEVICE_PARTITION_FAILED, "CL_DEVICE_PARTITION_FAILED"},
      {CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
      {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
      {CL_INVALID_DEVICE_TYPE, "CL_INVALID_DEVICE_TYPE"},
      {CL_INVALID_PLATFORM, "CL_INVALID_PLATFORM"},
      {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
      {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
      {CL_INVALID_QUEUE_PROPERTIES, "CL_INVALID_QUEUE_PROPERTIES"},
      {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
      {CL_INVALID_HOST_PTR, "CL_INVALID_HOST_PTR"},
      {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
      {CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
      {CL_INVALID_IMAGE_SIZE, "CL_INVALID_IMAGE_SIZE"},
      {CL_INVALID_SAMPLER, "CL_INVALID_SAMPLER"},
      {CL_INVALID_BINARY, "CL_INVALID_BINARY"},
      {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
      {CL_INVALID_PROGRAM, "CL_INVALID_PROGRAM"},
      {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
      {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
      {CL_INVALID_KERNEL_DEFINITION, "CL_INVALID_KERNEL_DEFINITION"},
      {CL_INVALID_KERNEL, "CL_INVALID_KERNEL"},
      {CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX"},
      {CL_INVALID_ARG_VALUE, "CL_INVALID_ARG_VALUE"},
      {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
      {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
      {CL_INVALID_WORK_DIMENSION, "CL_INVALID_WORK_DIMENSION"},
      {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
      {CL_INVALID_WORK_ITEM_SIZE, "CL_INVALID_WORK_ITEM_SIZE"},
      {CL_INVALID_GLOBAL_OFFSET, "CL_INVALID_GLOBAL_OFFSET"},
      {CL_INVALID_EVENT_WAIT_LIST, "CL_INVALID_EVENT_WAIT_LIST"},
      {CL_INVALID_EVENT, "CL_INVALID_EVENT"},
      {CL_INVALID_OPERATION, "CL_INVALID_OPERATION"},
      {CL_INVALID_GL_OBJECT, "CL_INVALID_GL_OBJECT"},
      {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
      {CL_INVALID_MIP_LEVEL, "CL_INVALID_MIP_LEVEL"},
      {CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE"},
      {CL_INVALID_PROPERTY, "CL_INVALID_PROPERTY"},
      {CL_INVALID_IMAGE_DESCRIPTOR, "CL_INVALID_IMAGE_DESCRIPTOR"},
      {CL_INVALID_COMPILER_OPTIONS, "CL_INVALID_COMPILER_OPTIONS"},
      {CL_INVALID_LINKER_OPTIONS, "CL_INVALID_LINKER_OPTIONS"},
      {CL_INVALID_DEVICE_PARTITION_COUNT, "CL_INVALID_DEVICE_PARTITION_COUNT"},
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
  };
  auto it = kNames.find(code);
  return fmt::format("{} ({})", it != kNames.end() ? it->second : "unknown OpenCL error", code);
}

std::string DeviceInfo::Describe() const {
  return fmt::format("'{}' on platform '{}' ({}, {})", device_name, platform_name, device_version,
                     driver_version);
}

uint64_t Fnv1a64(const std::string& bytes, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

Result<std::vector<DeviceInfo>> ListDevices() {
  auto all = Enumerate();
  if (!all.ok()) return all.status();
  std::vector<DeviceInfo> out;
  for (const auto& c : all.value()) out.push_back(c.info);
  return out;
}

Result<std::shared_ptr<ClEnv>> ClEnv::Get(const DeviceChoice& choice) {
  static std::mutex mu;
  static std::map<cl_device_id, std::weak_ptr<ClEnv>> envs;
  std::lock_guard<std::mutex> lock(mu);
  auto all = Enumerate();
  if (!all.ok()) return all.status();
  std::vector<Candidate> matching;
  for (const auto& c : all.value()) {
    if (Matches(choice.platform, c.platform_index, c.info.platform_name) &&
        Matches(choice.device, c.device_index, c.info.device_name)) {
      matching.push_back(c);
    }
  }
  if (matching.empty()) {
    std::string seen;
    for (const auto& c : all.value()) {
      seen += fmt::format("\n  platform {} '{}', device {} '{}'", c.platform_index, c.info.platform_name,
                          c.device_index, c.info.device_name);
    }
    return Status(StatusCode::kNotFound,
                  fmt::format("no OpenCL device matches options.device.platform='{}' options.device.device='{}'; "
                              "available:{}",
                              choice.platform, choice.device, seen));
  }
  // Automatic choice: a GPU if there is one, else the first device (PoCL's CPU).
  const Candidate* pick = &matching.front();
  if (choice.device.empty()) {
    for (const auto& c : matching) {
      if (c.info.type & CL_DEVICE_TYPE_GPU) {
        pick = &c;
        break;
      }
    }
  }
  if (auto it = envs.find(pick->device); it != envs.end()) {
    if (auto env = it->second.lock()) return env;
  }
  if (pick->info.is_pocl && !LinkerOnPath()) {
    return Status(StatusCode::kUnsupported,
                  fmt::format("OpenCL device {}: PoCL needs the linker `ld` on PATH to build "
                              "kernels (install binutils)",
                              pick->info.Describe()));
  }
  std::shared_ptr<ClEnv> env(new ClEnv());
  env->platform_ = pick->platform;
  env->device_ = pick->device;
  env->info_ = pick->info;
  cl_int err = CL_SUCCESS;
  env->context_ = clCreateContext(nullptr, 1, &env->device_, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) {
    return Status(StatusCode::kUnsupported, fmt::format("OpenCL device {}: clCreateContext failed: {}",
                                                        pick->info.Describe(), ClErrorName(err)));
  }
  env->queue_ = clCreateCommandQueue(env->context_, env->device_, 0, &err);
  if (err != CL_SUCCESS) {
    return Status(StatusCode::kUnsupported,
                  fmt::format("OpenCL device {}: clCreateCommandQueue failed: {}",
                              pick->info.Describe(), ClErrorName(err)));
  }
  envs[pick->device] = env;
  return env;
}

ClEnv::~ClEnv() {
  for (auto& b : programs_) clReleaseProgram(b.program);
  if (queue_ != nullptr) clReleaseCommandQueue(queue_);
  if (context_ != nullptr) clReleaseContext(context_);
}

Result<cl_program> ClEnv::BuildFromSource(const std::string& source, const std::string& options) {
  cl_int err = CL_SUCCESS;
  const char* src = source.c_str();
  const size_t len = source.size();
  cl_program program = clCreateProgramWithSource(context_, 1, &src, &len, &err);
  if (err != CL_SUCCESS) {
    return Status(StatusCode::kUnsupported, fmt::format("OpenCL device {}: clCreateProgramWithSource: {}",
                                                        info_.Describe(), ClErrorName(err)));
  }
  err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    const std::string log = BuildLog(program, device_);
    clReleaseProgram(program);
    return Status(StatusCode::kUnsupported,
                  fmt::format("OpenCL device {}: building the GPU delegate's kernels failed: {}{}{}",
                              info_.Describe(), ClErrorName(err), log.empty() ? "" : "\n", log));
  }
  return program;
}

Result<cl_program> ClEnv::LoadBinary(const std::vector<unsigned char>& binary,
                                     const std::string& options) {
  cl_int err = CL_SUCCESS, binary_status = CL_SUCCESS;
  const unsigned char* data = binary.data();
  const size_t size = binary.size();
  cl_program program =
      clCreateProgramWithBinary(context_, 1, &device_, &size, &data, &binary_status, &err);
  if (err != CL_SUCCESS || binary_status != CL_SUCCESS) {
    if (program != nullptr) clReleaseProgram(program);
    return Status(StatusCode::kUnsupported,
                  fmt::format("clCreateProgramWithBinary: {}",
                              ClErrorName(err != CL_SUCCESS ? err : binary_status)));
  }
  err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    clReleaseProgram(program);
    return Status(StatusCode::kUnsupported, fmt::format("clBuildProgram (binary): {}", ClErrorName(err)));
  }
  return program;
}

// The key covers everything that makes a binary unusable elsewhere.
uint64_t ClEnv::Key(const std::string& source, const std::string& options) const {
  return Fnv1a64(options, Fnv1a64(source, Fnv1a64(info_.platform_name + "|" + info_.device_name + "|" +
                                                  info_.device_version + "|" + info_.driver_version)));
}

std::string ClEnv::CacheFile(const std::string& source, const std::string& options,
                             const std::string& cache_dir, const std::string& token) const {
  return fmt::format("{}/{}{}{:016x}.clbin", cache_dir, token, token.empty() ? "" : "_", Key(source, options));
}

Result<cl_program> ClEnv::Program(const std::string& source, const std::string& options,
                                  const std::string& cache_dir, const std::string& token,
                                  BuildStats* stats) {
  std::lock_guard<std::mutex> lock(mu_);
  BuildStats local;
  BuildStats& st = stats != nullptr ? *stats : local;
  st = BuildStats{};
  const uint64_t key = Key(source, options);
  for (const auto& b : programs_) {
    if (b.key == key) {
      st.from_memory = true;
      return b.program;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::string file;
  if (!cache_dir.empty()) {
    file = CacheFile(source, options, cache_dir, token);
    st.cache_file = file;
    std::ifstream in(file, std::ios::binary);
    if (in) {
      std::vector<unsigned char> binary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      auto loaded = LoadBinary(binary, options);
      if (loaded.ok()) {
        st.from_disk = true;
        st.build_ms = MsSince(t0);
        programs_.push_back({key, loaded.value()});
        return loaded.value();
      }
      st.cache_note = fmt::format("cache file {} not usable ({}); compiled from source", file,
                                  loaded.status().message());
    }
  }
  auto built = BuildFromSource(source, options);
  if (!built.ok()) return built.status();
  st.build_ms = MsSince(t0);
  programs_.push_back({key, built.value()});
  if (!file.empty()) {
    size_t size = 0;
    std::vector<unsigned char> binary;
    if (clGetProgramInfo(built.value(), CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) == CL_SUCCESS &&
        size > 0) {
      binary.resize(size);
      unsigned char* ptr = binary.data();
      if (clGetProgramInfo(built.value(), CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr) != CL_SUCCESS) {
        binary.clear();
      }
    }
    mkdir(cache_dir.c_str(), 0755);  // one level, as TFLite's serialization dir
    const std::string tmp = fmt::format("{}.tmp{}", file, getpid());
    bool ok = false;
    if (!binary.empty()) {
      std::ofstream out(tmp, std::ios::binary);
      out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
      ok = static_cast<bool>(out);
    }
    if (ok && std::rename(tmp.c_str(), file.c_str()) == 0) {
      st.wrote_disk = true;
    } else {
      std::remove(tmp.c_str());
      st.cache_note = binary.empty() ? "the driver gave no program binary to cache"
                                     : fmt::format("cannot write the cache file {}", file);
    }
  }
  return built.value();
}

}  // namespace gpu
}  // namespace tflite_inspect
