// Profiler: receives begin/end events around each operator invocation (TFLite's
// interface). benchmark_model's op profiling implements it.
#ifndef TENSORFLOW_LITE_CORE_API_PROFILER_H_
#define TENSORFLOW_LITE_CORE_API_PROFILER_H_

#include <cstdint>

namespace tflite {

class Profiler {
 public:
  enum class EventType {
    DEFAULT = 1,
    OPERATOR_INVOKE_EVENT = 2,
    DELEGATE_OPERATOR_INVOKE_EVENT = 4,
    GENERAL_RUNTIME_INSTRUMENTATION_EVENT = 8,
    TELEMETRY_EVENT = 16,
    TELEMETRY_DELEGATE_EVENT = 32,
  };
  virtual ~Profiler() = default;
  // For OPERATOR_INVOKE_EVENT, metadata1 is the node index and metadata2 the
  // subgraph index. Returns a handle passed back to EndEvent.
  virtual uint32_t BeginEvent(const char* tag, EventType event_type,
                              int64_t event_metadata1, int64_t event_metadata2) = 0;
  virtual void EndEvent(uint32_t event_handle) = 0;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_CORE_API_PROFILER_H_
