// For end-to-end tests of the tools: runs a command line through the shell and returns
// its exit code, stdout and stderr. Test-only (Catch2 REQUIREs on popen failure).
#ifndef TFLITE_INSPECT_LIB_TESTING_COMMAND_H_
#define TFLITE_INSPECT_LIB_TESTING_COMMAND_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace testing {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

// A folder of this test process under the system temp dir ("<prefix>_<pid>").
inline std::filesystem::path TempDir(const std::string& prefix) {
  std::filesystem::path d =
      std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  return d;
}

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `command` (already quoted for the shell); stderr goes through a file.
inline CommandResult RunCommand(const std::string& command) {
  const std::filesystem::path err = TempDir("tfi_command") / "stderr.txt";
  CommandResult r;
  FILE* p = popen((command + " 2>" + err.string()).c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = ReadFile(err);
  return r;
}

}  // namespace testing
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TESTING_COMMAND_H_
