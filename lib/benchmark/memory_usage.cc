#include "benchmark/memory_usage.h"

#include <chrono>
#include <cstdio>
#include <cstring>

#ifdef __linux__
#include <sys/resource.h>
#endif

namespace tflite_inspect {

MemoryUsage GetMemoryUsage() {
  MemoryUsage m;
#ifdef __linux__
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    m.supported = true;
    m.max_rss_kb = usage.ru_maxrss;  // kilobytes on Linux
  }
  if (FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof(line), f) != nullptr) {
      long kb = 0;
      if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) m.rss_kb = kb;
    }
    std::fclose(f);
  }
#endif
  return m;
}

void PeakMemoryMonitor::Start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] {
    while (!stop_) {
      const int64_t kb = GetMemoryUsage().rss_kb;
      int64_t prev = peak_kb_.load();
      while (kb > prev && !peak_kb_.compare_exchange_weak(prev, kb)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms_));
    }
  });
}

void PeakMemoryMonitor::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace tflite_inspect
