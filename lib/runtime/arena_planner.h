// ArenaPlanner: places activation tensors in one buffer by lifetime. Tensors whose
// lifetimes (first and last step of the execution plan that touch them) do not overlap
// may share bytes. Placement is greedy by size, largest first, at the lowest offset
// that does not collide with an already placed tensor alive at the same time — the
// strategy of TFLite's arena planner, which packs mobile vision models close to the
// size of their largest simultaneously-live set.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_ARENA_PLANNER_H_
#define TFLITE_INSPECT_LIB_RUNTIME_ARENA_PLANNER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tflite_inspect {

class ArenaPlanner {
 public:
  // 64 bytes: cache-line and AVX-512 aligned, as TFLite's default tensor alignment.
  static constexpr size_t kAlignment = 64;
  // Slack after the last byte: XNNPACK and SIMD kernels may read up to 16 bytes past
  // the end of a tensor.
  static constexpr size_t kTailPadding = 64;

  struct Request {
    int tensor;
    size_t bytes;
    int first_step;  // inclusive
    int last_step;   // inclusive
  };

  ArenaPlanner() = default;
  ~ArenaPlanner();
  ArenaPlanner(const ArenaPlanner&) = delete;
  ArenaPlanner& operator=(const ArenaPlanner&) = delete;

  // Computes offsets for `requests` and (re)allocates the arena. Returns false when
  // memory cannot be allocated or the plan needs more than `limit` bytes (0: no limit;
  // arena_bytes() then says how much it needed). offset(i) is valid for request i
  // afterwards.
  bool Plan(const std::vector<Request>& requests, size_t limit = 0);
  size_t offset(size_t request) const { return offsets_[request]; }
  uint8_t* base() const { return base_; }
  // Bytes the plan needs (without the tail padding).
  size_t arena_bytes() const { return used_; }
  // Bytes allocated now (the arena keeps its largest size; a plan refused by the limit
  // allocates nothing).
  size_t allocated_bytes() const { return capacity_; }

 private:
  std::vector<size_t> offsets_;
  uint8_t* base_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_ARENA_PLANNER_H_
