// The tools with --use_gpu: benchmark_model's GPU lines (device, kernels compiled vs
// loaded from --gpu_cache_dir, bytes per inference), delegate_report's partition map
// and TFLite's log lines, inference_diff --per_node naming a deliberately broken GPU
// kernel's partition, and the failure paths (no such device: warning and CPU, or exit 2
// with --gpu_strict; no OpenCL platform; --gpu_backend=gl; serialize flags given alone).
#include <filesystem>
#include <fstream>
#include <string>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "testing/command.h"

namespace fs = std::filesystem;

namespace tflite_inspect {
namespace {

using testing::RunCommand;

fs::path Dir() { return testing::TempDir("gpu_cli_test"); }

std::string Tool(const std::string& tool, const std::string& args) {
  return fmt::format("{} {} {}", TFLITE_INSPECT_BIN, tool, args);
}

OpOptions Conv() {
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_w = o.stride_h = 1;
  return Options(o);
}

// CONV -> ADD -> GELU (CPU) -> CONV -> ADD: the GPU takes the first two nodes by
// default (one partition; the tail is the smaller one) and both pairs with
// --max_delegated_partitions=2.
fs::path WriteModel() {
  ModelBuilder b;
  std::vector<float> w(4 * 3 * 3 * 4), v(4 * 4);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * static_cast<float>(static_cast<int>(i % 11) - 5);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1f * static_cast<float>(static_cast<int>(i % 7) - 3);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4}, "in");
  const int f1 = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {4, 3, 3, 4}, w, "f1");
  const int f2 = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {4, 1, 1, 4}, v, "f2");
  const int k = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {4}, {1, -1, 0.5f, 2}, "k");
  const int c1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4}, "c1");
  const int a1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4}, "a1");
  const int g = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4}, "g");
  const int c2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4}, "c2");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4}, "out");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f1, -1}, {c1}, Conv());
  b.AddOperator(tflite::BuiltinOperator_ADD, {c1, k}, {a1}, Options(tflite::AddOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_GELU, {a1}, {g}, Options(tflite::GeluOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {g, f2, -1}, {c2}, Conv());
  b.AddOperator(tflite::BuiltinOperator_ADD, {c2, k}, {out}, Options(tflite::AddOptionsT{}));
  b.SetInputs({in});
  b.SetOutputs({out});
  const fs::path path = Dir() / "gpu_tail.tflite";
  const auto bytes = b.Build();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                               static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST_CASE("delegate_report --use_gpu: one partition, TFLite's lines, reasons") {
  const fs::path model = WriteModel();
  const auto r = RunCommand(Tool("delegate_report", fmt::format("--graph={} --use_gpu=true", model.string())));
  CAPTURE(r.out, r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("Created TensorFlow Lite delegate for GPU.") != std::string::npos);
  CHECK(r.out.find("summary: 2 of 5 nodes in 1 partition on TfLiteGpuDelegateV2") != std::string::npos);
  CHECK(r.out.find("log: Following operations are not supported by GPU delegate:") != std::string::npos);
  CHECK(r.out.find("log: GELU: Operation is not supported.") != std::string::npos);
  CHECK(r.out.find("log: 2 operations will run on the GPU, and the remaining 3 operations will run on the CPU.") !=
        std::string::npos);
  CHECK(r.out.find("means 1 for the GPU delegate") != std::string::npos);
  const auto two = RunCommand(Tool("delegate_report", fmt::format("--graph={} --use_gpu=true "
                                                                  "--max_delegated_partitions=2",
                                                                  model.string())));
  CAPTURE(two.out, two.err);
  REQUIRE(two.exit_code == 0);
  CHECK(two.out.find("summary: 4 of 5 nodes in 2 partitions on TfLiteGpuDelegateV2") != std::string::npos);
  CHECK(two.out.find("4 operations will run on the GPU, and the remaining 1 operations will run on the CPU.") !=
        std::string::npos);
}

TEST_CASE("benchmark_model --use_gpu: device line, cache, bytes per inference, JSON") {
  const fs::path model = WriteModel();
  const fs::path cache = Dir() / "cache";
  fs::remove_all(cache);
  const std::string args = fmt::format("--graph={} --use_gpu=true --gpu_cache_dir={} --num_runs=3 --warmup_runs=1 "
                                       "--min_secs=0 --warmup_min_secs=0",
                                       model.string(), cache.string());
  const auto first = RunCommand(Tool("benchmark_model", args));
  CAPTURE(first.out, first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("GPU: OpenCL device") != std::string::npos);
  // A CPU device (PoCL's, as in CI) is named as one in the description and warned about
  // right after TFLite's "Created" line; a real GPU is neither.
  const bool cpu_device = first.out.find("(a CPU device: not a GPU's latency)") != std::string::npos;
  const bool pocl = first.out.find("Portable Computing Language") != std::string::npos;
  CHECK(cpu_device == pocl);
  CHECK((first.err.find("INFO: Created TensorFlow Lite delegate for GPU.\nWARNING: the OpenCL device ") !=
         std::string::npos) == cpu_device);
  CHECK(first.out.find("kernels compiled from source") != std::string::npos);
  // LiteRT's message at default verbosity, as its error reporter prints it.
  CHECK(first.err.find("ERROR: Following operations are not supported by GPU delegate:\n"
                       "GELU: Operation is not supported.\n2 operations will run on the GPU, and "
                       "the remaining 3 operations will run on the CPU.\n") != std::string::npos);
  // 1x8x8x4 floats in and out of each of the 1 partition per inference.
  CHECK(first.out.find("GPU: bytes copied per inference across partition boundaries: 1024 to the device, "
                       "1024 from the device") != std::string::npos);
  int files = 0;
  for (const auto& e : fs::directory_iterator(cache)) files += e.path().extension() == ".clbin";
  CHECK(files == 1);
  const fs::path json = Dir() / "bench.json";
  const auto second = RunCommand(Tool("benchmark_model", args + " --output_json=" + json.string()));
  CAPTURE(second.out, second.err);
  REQUIRE(second.exit_code == 0);
  CHECK(second.out.find("kernels loaded from " + cache.string()) != std::string::npos);
  const auto j = nlohmann::json::parse(testing::ReadFile(json));
  const nlohmann::json* gpu = nullptr;
  for (const auto& d : j.at("delegates")) {
    if (d.at("label") == "GPU") gpu = &d;
  }
  REQUIRE(gpu != nullptr);
  CHECK(gpu->at("counters").at("gpu_program_from_disk_cache").get<double>() == 1);
  CHECK(gpu->at("counters").at("gpu_bytes_to_device").get<double>() == 1024 * 4);  // 1 warm-up + 3 runs
  CHECK(gpu->at("description").get<std::string>().find("OpenCL device") != std::string::npos);
  CHECK(j.at("init_us").contains("create_delegates"));
}

TEST_CASE("inference_diff --use_gpu --per_node: fp32 matches, a broken GPU kernel is named") {
  const fs::path model = WriteModel();
  const std::string base = fmt::format("--graph={} --use_gpu=true --gpu_precision_loss_allowed=false "
                                       "--num_runs=2 --max_delegated_partitions=2 --per_node",
                                       model.string());
  const auto good = RunCommand(Tool("inference_diff", base + " --max_abs_error=1e-4"));
  CAPTURE(good.out, good.err);
  CHECK(good.exit_code == 0);
  // Every GPU ADD is broken: --per_node names the first partition's output (the ADD
  // is its last node) as the first tensor off.
  const auto bad = RunCommand(Tool("inference_diff", base + " --gpu_inject_fault=ADD --max_abs_error=1e-4"));
  CAPTURE(bad.out, bad.err);
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("first tensor off: 5 'a1' from TfLiteGpuDelegateV2 partition (node 5,") != std::string::npos);
  CHECK(bad.out.find("replacing nodes 0-1") != std::string::npos);
}

TEST_CASE("GPU failure paths: unknown device, strict, gl backend, serialize flags") {
  const fs::path model = WriteModel();
  const auto warn = RunCommand(Tool("benchmark_model", fmt::format("--graph={} --use_gpu=true --gpu_device=no-such-gpu "
                                                                   "--num_runs=1 --warmup_runs=0",
                                                                   model.string())));
  CAPTURE(warn.out, warn.err);
  CHECK(warn.exit_code == 0);
  CHECK(warn.err.find("WARNING: GPU delegate not created: no OpenCL device matches") != std::string::npos);
  CHECK(warn.err.find("Running on the CPU.") != std::string::npos);
  const auto strict = RunCommand(Tool("benchmark_model", fmt::format("--graph={} --use_gpu=true "
                                                                     "--gpu_device=no-such-gpu --gpu_strict=true",
                                                                     model.string())));
  CAPTURE(strict.out, strict.err);
  CHECK(strict.exit_code != 0);
  CHECK((strict.err + strict.out).find("GPU delegate: no OpenCL device matches") != std::string::npos);
  // No OpenCL platform at all (the ICD loader pointed at an empty vendor directory).
  const fs::path empty = Dir() / "no_vendors";
  fs::create_directories(empty);
  const auto none = RunCommand("OCL_ICD_VENDORS=" + empty.string() + " " +
                               Tool("benchmark_model", fmt::format("--graph={} --use_gpu=true --num_runs=1 "
                                                                   "--warmup_runs=0",
                                                                   model.string())));
  CAPTURE(none.out, none.err);
  CHECK(none.exit_code == 0);
  CHECK(none.err.find("no OpenCL platform found (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR (-1001))") !=
        std::string::npos);
  // The same on Android (the phone bundle): the vendor's bionic driver cannot load; with
  // --gpu_strict that is an error.
  const auto android = RunCommand("ANDROID_ROOT=/system OCL_ICD_VENDORS=" + empty.string() + " " +
                                  Tool("benchmark_model", fmt::format("--graph={} --use_gpu=true "
                                                                      "--gpu_strict=true --num_runs=1",
                                                                      model.string())));
  CAPTURE(android.out, android.err);
  CHECK(android.exit_code != 0);
  CHECK(android.err.find("on Android the GPU's OpenCL driver (") != std::string::npos);
  CHECK(android.err.find("is built for Android's libc (bionic) and cannot be loaded into this "
                         "glibc program") != std::string::npos);
  const auto gl = RunCommand(Tool("delegate_report", fmt::format("--graph={} --use_gpu=true --gpu_backend=gl",
                                                                 model.string())));
  CAPTURE(gl.out, gl.err);
  CHECK(gl.exit_code != 0);
  CHECK((gl.err + gl.out).find("--gpu_backend=gl is not available") != std::string::npos);
  const auto half = RunCommand(Tool("delegate_report", fmt::format("--graph={} --use_gpu=true "
                                                                   "--delegate_serialize_dir=/tmp",
                                                                   model.string())));
  CHECK(half.exit_code != 0);
  CHECK((half.err + half.out).find("--delegate_serialize_dir and --delegate_serialize_token go together") !=
        std::string::npos);
}

}  // namespace
}  // namespace tflite_inspect
