#include "tools/signals.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "util/mapped_file.h"

namespace tflite_inspect {
namespace {

std::atomic<bool> g_interrupted{false};

void OnSigint(int) {
  g_interrupted.store(true);
  static const char kLine[] =
      "\ntflite-inspect: interrupted (SIGINT): stopping at the next operator; Ctrl-C again "
      "kills\n";
  ssize_t unused = ::write(STDERR_FILENO, kLine, sizeof(kLine) - 1);
  (void)unused;
  ::signal(SIGINT, SIG_DFL);  // the second Ctrl-C: the default action
}

}  // namespace

void InstallToolSignalHandlers() {
  static const bool installed = [] {
    MappedFile::InstallFaultHandler();
    struct sigaction sa {};
    sa.sa_handler = OnSigint;
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
