#include "runtime/arena_planner.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace tflite_inspect {
namespace {

size_t AlignUp(size_t n) { return (n + ArenaPlanner::kAlignment - 1) / ArenaPlanner::kAlignment * ArenaPlanner::kAlignment; }

}  // namespace

ArenaPlanner::~ArenaPlanner() { std::free(base_); }

bool ArenaPlanner::Plan(const std::vector<Request>& requests, size_t limit) {
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (requests[a].bytes != requests[b].bytes) return requests[a].bytes > requests[b].bytes;
    return requests[a].first_step < requests[b].first_step;
  });
  offsets_.assign(requests.size(), 0);
  used_ = 0;
  std::vector<size_t> placed;  // request indices, kept sorted by offset
  for (size_t r : order) {
    const Request& req = requests[r];
    const size_t size = AlignUp(std::max<size_t>(req.bytes, 1));
    size_t candidate = 0;
    // Walk the live neighbours by offset and take the first gap that fits.
    for (size_t p : placed) {
      const Request& other = requests[p];
      if (other.last_step < req.first_step || other.first_step > req.last_step) continue;
      const size_t other_end = offsets_[p] + AlignUp(std::max<size_t>(other.bytes, 1));
      if (offsets_[p] >= candidate + size) break;  // the gap before `other` fits
      candidate = std::max(candidate, other_end);
    }
    offsets_[r] = candidate;
    used_ = std::max(used_, candidate + size);
    placed.insert(std::upper_bound(placed.begin(), placed.end(), r,
                                   [&](size_t a, size_t b) { return offsets_[a] < offsets_[b]; }),
                  r);
  }
  if (limit != 0 && used_ > limit) return false;
  const size_t needed = used_ + kTailPadding;
  if (needed > capacity_) {
    std::free(base_);
    base_ = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, AlignUp(needed)));
    capacity_ = base_ != nullptr ? AlignUp(needed) : 0;
    if (base_ == nullptr) return false;
  }
  return true;
}

}  // namespace tflite_inspect
