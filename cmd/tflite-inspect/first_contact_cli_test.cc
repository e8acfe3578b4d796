// What a new user types first: `tflite-inspect model.tflite`, `--version` on every tool,
// the model as a plain argument to every tool, and files that are not models (a FIFO
// nobody writes to, a directory, a device) answered at once instead of hanging.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "catch2/catch.hpp"
#include "fmt/format.h"
#include "testing/command.h"

namespace fs = std::filesystem;
using tflite_inspect::testing::CommandResult;
using tflite_inspect::testing::RunCommand;
using tflite_inspect::testing::TempDir;

namespace {

const std::string kBin = TFLITE_INSPECT_BIN;
const std::string kModel = std::string(TFI_SOURCE_DIR) + "/testdata/models/tiny_cnn_float.tflite";
const char* kTools[] = {"inspect_ops", "run", "delegate_report", "benchmark_model",
                        "inference_diff"};

// What each tool needs besides the model, kept short.
std::string Tail(const std::string& tool) {
  if (tool == "run") {
    return fmt::format("--output_dir='{}'", (TempDir("first_contact_cli_test") / "run").string());
  }
  if (tool == "benchmark_model") return "--num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0";
  if (tool == "inference_diff") return "--num_runs=1";
  return "";
}

TEST_CASE("tflite-inspect MODEL runs inspect_ops on it") {
  const CommandResult direct = RunCommand(fmt::format("'{}' '{}'", kBin, kModel));
  const CommandResult tool = RunCommand(fmt::format("'{}' inspect_ops --graph='{}'", kBin, kModel));
  CAPTURE(direct.out, direct.err);
  CHECK(direct.exit_code == 0);
  CHECK(direct.out == tool.out);
  // Flags after the model go to inspect_ops.
  const CommandResult json = RunCommand(fmt::format("'{}' '{}' --json", kBin, kModel));
  CHECK(json.exit_code == 0);
  CHECK(json.out.rfind("{", 0) == 0);
  const CommandResult neither = RunCommand(fmt::format("'{}' no_such_thing.tflite", kBin));
  CHECK(neither.exit_code == 2);
  CHECK_THAT(neither.err, Catch::Contains("'no_such_thing.tflite' is neither a tool nor a file"));
}

TEST_CASE("every tool answers --version with the version, the build and the libraries") {
  const CommandResult top = RunCommand(fmt::format("'{}' --version", kBin));
  CHECK(top.exit_code == 0);
  CHECK_THAT(top.out, Catch::StartsWith("tflite-inspect (tflite-inspect) "));
  for (const char* t : kTools) {
    const CommandResult r = RunCommand(fmt::format("'{}' {} --version", kBin, t));
    CAPTURE(t, r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::StartsWith(std::string(t) + " (tflite-inspect) "));
    CHECK_THAT(r.out, Catch::Contains("\nbuild: "));
    CHECK_THAT(r.out, Catch::Contains("TFLite: schema and builtin op versions of releases 1.14 to "));
    CHECK_THAT(r.out, Catch::Contains("libraries: FlatBuffers "));
    CHECK_THAT(r.out, Catch::Contains(", XNNPACK "));
  }
}

TEST_CASE("every tool takes the model as a plain argument, once") {
  for (const char* t : kTools) {
    const CommandResult r = RunCommand(fmt::format("'{}' {} '{}' {}", kBin, t, kModel, Tail(t)));
    CAPTURE(t, r.out, r.err);
    CHECK(r.exit_code == 0);
    const CommandResult twice = RunCommand(
        fmt::format("'{}' {} '{}' --graph=other.tflite {}", kBin, t, kModel, Tail(t)));
    CHECK(twice.exit_code == 2);
    CHECK_THAT(twice.err, Catch::Contains("the model is given twice"));
  }
  const CommandResult none = RunCommand(fmt::format("'{}' run --output_dir=x", kBin));
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("run: no model given; usage: run --graph=M.tflite"));
}

TEST_CASE("a FIFO nobody writes to, a directory and a device are refused at once") {
  const std::string fifo = (TempDir("first_contact_cli_test") / "model.fifo").string();
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& path : {fifo, std::string("/tmp"), std::string("/dev/zero")}) {
    for (const char* t : kTools) {
      // `timeout`: a hang fails the test instead of stalling it.
      const CommandResult r = RunCommand(
          fmt::format("timeout 30 '{}' {} --graph='{}' {}", kBin, t, path, Tail(t)));
      CAPTURE(path, t, r.out, r.err);
      CHECK(r.exit_code == 1);
      const std::string why = path == fifo        ? "is a FIFO (named pipe) and nothing was written to it"
                              : path == "/tmp"    ? "is a directory"
                                                  : "is a character device, not a model file";
      CHECK_THAT(r.err, Catch::Contains(why));
    }
  }
  ::unlink(fifo.c_str());
}

}  // namespace
