#include "tools/signals.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "util/mapped_file.h"

namespace tflite_inspect {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int64_t> g_first_ns{0};

int64_t MonotonicNs() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void OnSigint(int sig) {
  const int64_t now = MonotonicNs();
  if (!g_interrupted.exchange(true)) {
    g_first_ns.store(now);
    static const char kLine[] =
        "\ntflite-inspect: interrupted (SIGINT): stopping at the next operator; Ctrl-C again "
        "kills\n";
    ssize_t unused = ::write(STDERR_FILENO, kLine, sizeof(kLine) - 1);
    (void)unused;
    return;
  }
  // One interrupt often arrives twice (`timeout -s INT` signals the child and its
  // process group): a repeat within half a second is the same interrupt, a later one the
  // user insisting, which gets the default action.
  if (now - g_first_ns.load() < 500000000) return;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void InstallToolSignalHandlers() {
  static const bool installed = [] {
    MappedFile::InstallFaultHandler();
    struct sigaction sa {};
    sa.sa_handler = OnSigint;
    sa.sa_flags = SA_RESTART;  // a write or read in progress goes on, not EINTR
    sigemptyset(&sa.sa_mask);
    return ::sigaction(SIGINT, &sa, nullptr) == 0;
  }();
  (void)installed;
}

bool InterruptRequested() { return g_interrupted.load(); }

void CancelOnInterrupt(tflite::Interpreter* interpreter) {
  interpreter->SetCancellationFunction(nullptr, [](void*) { return g_interrupted.load(); });
}

int ToolExitStatus(int rc) { return InterruptRequested() ? 128 + SIGINT : rc; }

}  // namespace tflite_inspect
