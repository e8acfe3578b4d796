#include "xnnpack/binary_f32.h"

#include <algorithm>

namespace tflite_inspect {
namespace xnnpack {
namespace {

// Elements per task: large enough that a task outweighs the pool's hand-off.
constexpr size_t kTile = 8192;

struct Task {
  BinaryOp op;
  const float *a, *b;
  float* out;
  size_t n;
  float min, max;
};

template <BinaryOp kOp>
void Range(const Task& t, size_t begin, size_t end) {
  const float lo = t.min, hi = t.max;
  for (size_t i = begin; i < end; ++i) {
    float v = kOp == BinaryOp::kAdd ? t.a[i] + t.b[i] : kOp == BinaryOp::kSub ? t.a[i] - t.b[i] : t.a[i] * t.b[i];
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    t.out[i] = v;
  }
}

void Tile(void* ctx, size_t begin, size_t count) {
  const Task& t = *static_cast<const Task*>(ctx);
  const size_t end = std::min(t.n, begin + count);
  switch (t.op) {
    case BinaryOp::kAdd: Range<BinaryOp::kAdd>(t, begin, end); break;
    case BinaryOp::kSub: Range<BinaryOp::kSub>(t, begin, end); break;
    case BinaryOp::kMul: Range<BinaryOp::kMul>(t, begin, end); break;
  }
}

}  // namespace

void RunBinaryF32(BinaryOp op, const float* a, const float* b, float* out, size_t n, float min,
                  float max, pthreadpool_t pool) {
  Task task{op, a, b, out, n, min, max};
  if (pool == nullptr || pthreadpool_get_threads_count(pool) <= 1 || n <= kTile) {
    Tile(&task, 0, n);
    return;
  }
  pthreadpool_parallelize_1d_tile_1d(pool, Tile, &task, n, kTile, /*flags=*/0);
}

}  // namespace xnnpack
}  // namespace tflite_inspect
