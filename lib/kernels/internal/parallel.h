// Splitting kernel work over the interpreter's pthreadpool.
//
// ParallelFor(pool, n, work, fn) calls fn(i) for i in [0, n), on the pool's threads when
// there is one with more than one thread and `work` (the total multiply-adds or elements
// touched) is worth it, else inline in order. fn must be safe to call concurrently for
// different i (write disjoint outputs) and must not throw.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_PARALLEL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_PARALLEL_H_

#include <pthreadpool.h>

#include <algorithm>
#include <cstddef>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/subgraph.h"

namespace tflite {
namespace parallel {

// The pool the interpreter runs this context's kernels on (nullptr: single-threaded).
inline pthreadpool* ThreadPool(TfLiteContext* context) {
  if (context == nullptr || context->impl_ == nullptr) return nullptr;
  return static_cast<tflite::Subgraph*>(context->impl_)->thread_pool();
}

inline size_t NumThreads(pthreadpool* pool) {
  return pool == nullptr ? 1 : pthreadpool_get_threads_count(pool);
}

// Below this much work, waking the workers costs more than they save (and on a busy
// machine a descheduled worker stalls the whole call). (1 << 18 until the forty-fifth
// session ran MobileNet's small late depthwise layers on one thread at two, reading the
// input the layer before had split over both cores' caches: 1 << 15 took
// mobilenet_v1_0.25_128 int8 343 -> 316 us at two threads, conv_lstm_6x32 698 -> 607,
// face_detection_short_range 692 -> 637.)
constexpr double kMinParallelWork = 1 << 15;

// The ranges each of `rows` rows of `width` items splits into for the pool, for kernels
// that split by rows: rows alone leave threads idle where there are few of them (Conv1D
// as converted has one row: its convolutions ran no faster on two threads than on one).
// Enough ranges for 4 tasks a thread, each at least min_width items wide; 1 where the
// rows alone give that.
inline size_t RowParts(pthreadpool* pool, size_t rows, size_t width, size_t min_width) {
  const size_t threads = NumThreads(pool);
  if (threads <= 1 || rows == 0 || rows >= 4 * threads) return 1;
  const size_t wanted = (4 * threads + rows - 1) / rows;
  const size_t most = std::max<size_t>(1, width / std::max<size_t>(1, min_width));
  return std::min(wanted, most);
}

// Part `part` of `parts` equal ranges of [0, width): items [begin, end).
struct Range {
  int begin, end;
};
inline Range PartOf(size_t width, size_t part, size_t parts) {
  return {static_cast<int>(width * part / parts), static_cast<int>(width * (part + 1) / parts)};
}

template <typename Fn>
void ParallelFor(pthreadpool* pool, size_t n, double work, const Fn& fn) {
  if (n == 0) return;
  if (n == 1 || work < kMinParallelWork || NumThreads(pool) <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  pthreadpool_parallelize_1d(
      pool, [](void* ctx, size_t i) { (*static_cast<const Fn*>(ctx))(i); },
      const_cast<void*>(static_cast<const void*>(&fn)), n, /*flags=*/0);
}

}  // namespace parallel
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_PARALLEL_H_
