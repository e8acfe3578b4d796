// `tflite-inspect run` with --external_delegate_path: the example plugin runs a builder
// model to the CPU's outputs; bad option strings and failing plugins exit 2 with the
// reason (and the plugin's own messages on stderr).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "testing/command.h"

namespace fs = std::filesystem;

namespace tflite_inspect {
namespace {

using Exec = testing::CommandResult;
using testing::ReadFile;

fs::path TempDir() { return testing::TempDir("external_delegate_cli_test"); }

Exec Run(const std::string& args) {
  return testing::RunCommand(fmt::format("{} run {}", TFLITE_INSPECT_BIN, args));
}

// in -ADD c-> a -SUB c-> s -MUL c-> m -ADD(RELU) m-> out (4 nodes, 2 ADD/SUB partitions).
fs::path WriteModel() {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "in");
  std::vector<float> cv;
  for (int i = 0; i < 8; ++i) cv.push_back(0.25f * static_cast<float>(i) - 1.0f);
  const int c = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 8}, cv, "c");
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "a");
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "s");
  const int m = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "m");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_SUB, {a, c}, {s}, Options(tflite::SubOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_MUL, {s, c}, {m}, Options(tflite::MulOptionsT{}));
  tflite::AddOptionsT relu;
  relu.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_ADD, {m, m}, {out}, Options(relu));
  b.SetInputs({in});
  b.SetOutputs({out});
  const fs::path path = TempDir() / "add_sub.tflite";
  const auto bytes = b.Build();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                               static_cast<std::streamsize>(bytes.size()));
  return path;
}

const std::string kPlugin = TFI_EXAMPLE_EXTERNAL_DELEGATE;

TEST_CASE("run --external_delegate_path: the example plugin gives the CPU's outputs") {
  const fs::path model = WriteModel();
  const fs::path cpu_dir = TempDir() / "cpu", ext_dir = TempDir() / "ext";
  const Exec cpu = Run(fmt::format("--graph {} --output_dir {}", model.string(), cpu_dir.string()));
  REQUIRE(cpu.exit_code == 0);

  const Exec ext = Run(fmt::format(
      "--graph {} --output_dir {} --external_delegate_path={} "
      "--external_delegate_options='max_delegated_partitions:2;min_nodes_per_partition:1' "
      "--verbose",
      model.string(), ext_dir.string(), kPlugin));
  INFO(ext.err);
  REQUIRE(ext.exit_code == 0);
  CHECK(ext.err.find("External delegate path: [" + kPlugin + "]") != std::string::npos);
  CHECK(ext.err.find("External delegate options: [max_delegated_partitions:2;"
                     "min_nodes_per_partition:1]") != std::string::npos);
  CHECK(ext.err.find("Replacing 3 out of 4 node(s) with delegate (SampleDelegate) node, yielding "
                     "2 partitions") != std::string::npos);
  CHECK(ext.err.find("warning") == std::string::npos);
  const std::string cpu_out = ReadFile(cpu_dir / "output_0.bin");
  CHECK(cpu_out.size() == 8 * sizeof(float));
  CHECK(ReadFile(ext_dir / "output_0.bin") == cpu_out);

  // max_delegated_partitions:1 keeps the larger partition only.
  const Exec one = Run(fmt::format(
      "--graph {} --output_dir {} --external_delegate_path {} --external_delegate_options "
      "max_delegated_partitions:1 --verbose",
      model.string(), ext_dir.string(), kPlugin));
  REQUIRE(one.exit_code == 0);
  CHECK(one.err.find("Replacing 2 out of 4 node(s) with delegate (SampleDelegate) node, yielding "
                     "1 partitions") != std::string::npos);
  CHECK(ReadFile(ext_dir / "output_0.bin") == cpu_out);
}

TEST_CASE("run --external_delegate_options: a bad string exits 2 naming the pair") {
  const fs::path model = WriteModel();
  const Exec r = Run(fmt::format(
      "--graph {} --output_dir {} --external_delegate_path={} "
      "--external_delegate_options='max_delegated_partitions:1;min_nodes_per_partition'",
      model.string(), (TempDir() / "bad").string(), kPlugin));
  CHECK(r.exit_code == 2);
  // TFLite's parameter lines come first (as TFLite logs them before making delegates).
  CHECK(r.err == "External delegate path: [" + kPlugin +
                     "]\nExternal delegate options: [max_delegated_partitions:1;"
                     "min_nodes_per_partition]\n"
                     "run: error: --external_delegate_options #1 (for '" + kPlugin +
                     "'): option pair 2 'min_nodes_per_partition' in "
                     "'max_delegated_partitions:1;min_nodes_per_partition' has no ':' (expected "
                     "key:value pairs separated by ';')\n");
}

TEST_CASE("run --external_delegate_path: count mismatch and failing plugins exit 2") {
  const fs::path model = WriteModel();
  const std::string base =
      fmt::format("--graph {} --output_dir {}", model.string(), (TempDir() / "bad").string());
  const Exec mismatch = Run(fmt::format(
      "{} --external_delegate_path={} --external_delegate_path={} --external_delegate_options=a:1",
      base, kPlugin, kPlugin));
  CHECK(mismatch.exit_code == 2);
  CHECK(mismatch.err.find("2 --external_delegate_path and 1 --external_delegate_options: give "
                          "--external_delegate_options once per --external_delegate_path") !=
        std::string::npos);

  const Exec unknown = Run(
      fmt::format("{} --external_delegate_path={} --external_delegate_options=colour:red", base,
                  kPlugin));
  CHECK(unknown.exit_code == 2);
  // The plugin's report_error line, then the tool's error that repeats it.
  const std::string reported =
      "sample external delegate: unknown option 'colour' (known: max_delegated_partitions, "
      "min_nodes_per_partition)";
  CHECK(unknown.err == "External delegate path: [" + kPlugin +
                           "]\nExternal delegate options: [colour:red]\n"
                           "external delegate " + kPlugin + ": " + reported +
                           "\nrun: error: failed to create external delegate '" + kPlugin +
                           "': tflite_plugin_create_delegate returned NULL; the plugin "
                           "reported: " +
                           reported + "\n");

  const std::string fails = TFI_EXTERNAL_CREATE_FAILS;
  const Exec failed = Run(fmt::format("{} --external_delegate_path={}", base, fails));
  CHECK(failed.exit_code == 2);
  CHECK(failed.err.find("external delegate " + fails +
                        ": test plugin: cannot reach the accelerator\n") != std::string::npos);

  const Exec missing = Run(fmt::format("{} --external_delegate_path=/nonexistent/x.so", base));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err ==
        "External delegate path: [/nonexistent/x.so]\n"
        "run: error: failed to load external delegate '/nonexistent/x.so': file not found\n");
}

}  // namespace
}  // namespace tflite_inspect
