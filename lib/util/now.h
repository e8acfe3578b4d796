// Monotonic microseconds, for the tools' step timings.
#ifndef TFLITE_INSPECT_LIB_UTIL_NOW_H_
#define TFLITE_INSPECT_LIB_UTIL_NOW_H_

#include <chrono>
#include <cstdint>

namespace tflite_inspect {

inline int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_NOW_H_
