// Proves that the OpenCL ICD loader finds a device here (PoCL on CI) and that a kernel
// builds and runs on it: the ground the GPU delegate stands on.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "catch2/catch.hpp"

TEST_CASE("OpenCL device runs a kernel") {
  // PoCL needs a writable kernel cache; HOME may not be writable under CI.
  if (std::getenv("POCL_CACHE_DIR") == nullptr) setenv("POCL_CACHE_DIR", "/tmp/tfi-pocl-cache", 0);
  cl_uint num_platforms = 0;
  REQUIRE(clGetPlatformIDs(0, nullptr, &num_platforms) == CL_SUCCESS);
  REQUIRE(num_platforms > 0);
  std::vector<cl_platform_id> platforms(num_platforms);
  REQUIRE(clGetPlatformIDs(num_platforms, platforms.data(), nullptr) == CL_SUCCESS);
  cl_device_id device = nullptr;
  for (cl_platform_id p : platforms) {
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS) break;
  }
  REQUIRE(device != nullptr);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  const char* src = "__kernel void twice(__global float* x) { int i = get_global_id(0); x[i] *= 2.0f; }";
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(prog, 1, &device, "-cl-std=CL1.2", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(prog, "twice", &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<float> data = {1, 2, 3, 4};
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              data.size() * sizeof(float), data.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof(buf), &buf) == CL_SUCCESS);
  size_t global = data.size();
  REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, data.size() * sizeof(float), data.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(data == std::vector<float>{2, 4, 6, 8});
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
