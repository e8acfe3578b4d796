// The memory limit of one interpreter, or of several that share it
// (Interpreter::ShareMemoryLimitWith; inference_diff runs a model in two): what their
// runtimes have allocated together (tensor arenas, persistent and dynamic tensor buffers,
// kernels' buffers; Interpreter::AllocatedBytes) may not exceed `limit`. 0: no limit.
// Used from one thread at a time, as the interpreters themselves.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_MEMORY_SHARE_H_
#define TFLITE_INSPECT_LIB_RUNTIME_MEMORY_SHARE_H_

#include <cstddef>
#include <vector>

namespace tflite {

class Interpreter;

struct MemoryShare {
  size_t limit = 0;
  std::vector<const Interpreter*> members;
  // Bytes allocated by all members now.
  size_t Allocated() const;
};

}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_RUNTIME_MEMORY_SHARE_H_
