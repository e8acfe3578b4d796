// Memory figures for benchmark_model, as TFLite's tools measure them: the process's
// maximum resident set (getrusage ru_maxrss) for the "footprint delta" lines, and a
// sampling thread for --report_peak_memory_footprint. Linux only; elsewhere
// `supported` is false and the lines are not printed.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_MEMORY_USAGE_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_MEMORY_USAGE_H_

#include <atomic>
#include <cstdint>
#include <thread>

namespace tflite_inspect {

struct MemoryUsage {
  bool supported = false;
  int64_t max_rss_kb = 0;  // peak resident set so far
  int64_t rss_kb = 0;      // resident set now
};

MemoryUsage GetMemoryUsage();

// Samples the resident set every interval_ms on its own thread between Start and Stop.
class PeakMemoryMonitor {
 public:
  explicit PeakMemoryMonitor(int interval_ms) : interval_ms_(interval_ms) {}
  ~PeakMemoryMonitor() { Stop(); }
  PeakMemoryMonitor(const PeakMemoryMonitor&) = delete;
  PeakMemoryMonitor& operator=(const PeakMemoryMonitor&) = delete;
  void Start();
  void Stop();
  double peak_mb() const { return static_cast<double>(peak_kb_.load()) / 1024.0; }

 private:
  int interval_ms_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> peak_kb_{0};
  std::thread thread_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_MEMORY_USAGE_H_
