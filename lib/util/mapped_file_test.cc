#include "util/mapped_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "catch2/catch.hpp"
#include "testing/command.h"

namespace tflite_inspect {
namespace {

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 131 % 251);
  return s;
}

TEST_CASE("MappedFile: a regular file is mapped, its bytes are the file's") {
  const auto path = testing::TempDir("mapped_file_test") / "f.bin";
  const std::string bytes = Pattern(10000);
  std::ofstream(path, std::ios::binary) << bytes;
  auto f = MappedFile::Open(path.string());
  REQUIRE(f.ok());
  CHECK(f.value()->is_mapped());
  REQUIRE(f.value()->size() == bytes.size());
  CHECK(std::memcmp(f.value()->data(), bytes.data(), bytes.size()) == 0);
}

TEST_CASE("MappedFile: a pipe is read whole into aligned memory") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string bytes = Pattern(3 << 20);  // more than one 1 MiB growth step
  std::thread writer([&] {
    size_t off = 0;
    while (off < bytes.size()) {
      const ssize_t n = ::write(fds[1], bytes.data() + off, bytes.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  auto f = MappedFile::Open("/proc/self/fd/" + std::to_string(fds[0]));
  writer.join();
  ::close(fds[0]);
  REQUIRE(f.ok());
  CHECK_FALSE(f.value()->is_mapped());
  REQUIRE(f.value()->size() == bytes.size());
  CHECK(reinterpret_cast<uintptr_t>(f.value()->data()) % 64 == 0);
  CHECK(std::memcmp(f.value()->data(), bytes.data(), bytes.size()) == 0);
}

TEST_CASE("MappedFile: a directory is refused by name") {
  auto f = MappedFile::Open("/tmp");
  REQUIRE_FALSE(f.ok());
  CHECK(f.status().message() == "'/tmp' is a directory");
}

TEST_CASE("MappedFile: devices are refused, a FIFO nobody writes to does not hang") {
  auto zero = MappedFile::Open("/dev/zero");
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.status().message() == "'/dev/zero' is a character device, not a model file");
  const std::string fifo = (std::filesystem::temp_directory_path() /
                            ("mapped_file_test_fifo_" + std::to_string(::getpid())))
                               .string();
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto idle = MappedFile::Open(fifo);  // no writer: an error after the grace period
  REQUIRE_FALSE(idle.ok());
  CHECK(idle.status().message() == "'" + fifo + "' is a FIFO (named pipe) and nothing was "
                                               "written to it");
  // A writer that opens the FIFO a little after the reader still gets read.
  std::thread writer([&] {
    ::usleep(100000);
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd >= 0) {
      const ssize_t n = ::write(fd, "TFL3", 4);
      (void)n;
      ::close(fd);
    }
  });
  auto late = MappedFile::Open(fifo);
  writer.join();
  ::unlink(fifo.c_str());
  REQUIRE(late.ok());
  CHECK(late.value()->size() == 4);
}

// A file truncated under its mapping: with the tools' handler the read that faults ends
// the process with exit status 1 and a line naming the file, not with a bus error.
TEST_CASE("MappedFile: SIGBUS in a truncated mapping is one message and exit status 1") {
  const auto dir = testing::TempDir("mapped_file_test_sigbus");
  const auto path = dir / "model.tflite";
  const auto err = dir / "stderr.txt";
  std::ofstream(path, std::ios::binary) << Pattern(1 << 16);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    MappedFile::InstallFaultHandler();
    auto f = MappedFile::Open(path.string());
    if (!f.ok() || ::truncate(path.c_str(), 0) != 0) ::_exit(3);
    volatile uint8_t sink = f.value()->data()[40000];  // page 9 no longer exists
    (void)sink;
    ::_exit(4);  // not reached
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  std::ifstream in(err);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("child said: " << said);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(said == "tflite-inspect: error: the model file '" + path.string() +
                    "' changed while it was mapped (truncated or rewritten by another "
                    "process?): reading byte 40000 of the 65536 it had when loaded failed "
                    "(SIGBUS)\n");
}

TEST_CASE("MappedFile: with the handler a SIGBUS outside a mapping keeps its default action") {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    MappedFile::InstallFaultHandler();
    ::raise(SIGBUS);
    ::_exit(0);  // not reached
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGBUS);
}

}  // namespace
}  // namespace tflite_inspect
