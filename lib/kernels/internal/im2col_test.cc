#include "kernels/internal/im2col.h"

#include <pthreadpool.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <vector>

namespace tflite_inspect {
namespace {

// The blocks ChunkedIm2ColGemm hands out: every row once, in blocks of at most kChunkRows;
// with threads, a multiple of the thread count of them, bounds on the GEMM tile's unit and
// heights within a unit of each other (the threads' shares equal: DenseNet's 14 x 14
// layers were 64, 64, 64 and 4 rows).
TEST_CASE("PlanChunks: every row once, bounded blocks, equal shares over threads") {
  using tflite::conv_util::kChunkRows;
  for (size_t threads : {1, 2, 3, 4}) {
    pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
    for (size_t rows : {1, 7, 8, 49, 95, 96, 97, 196, 289, 784, 1225, 3136, 21609}) {
      CAPTURE(threads, rows);
      const tflite::conv_util::ChunkPlan p = tflite::conv_util::PlanChunks(rows, pool);
      REQUIRE(p.Bound(0) == 0);
      REQUIRE(p.Bound(p.chunks) == rows);
      REQUIRE(p.tasks >= 1);
      REQUIRE(p.tasks <= p.chunks);
      if (threads > 1) REQUIRE(p.chunks % threads == 0);
      size_t lo = rows, hi = 0;
      for (size_t c = 0; c < p.chunks; ++c) {
        const size_t r0 = p.Bound(c), r1 = p.Bound(c + 1);
        REQUIRE(r0 <= r1);
        REQUIRE(r1 - r0 <= kChunkRows);
        if (threads > 1) REQUIRE((r1 % p.unit == 0 || r1 == rows));
        lo = std::min(lo, r1 - r0);
        hi = std::max(hi, r1 - r0);
      }
      if (threads > 1 && rows >= p.chunks * p.unit) REQUIRE(hi - lo <= p.unit + 1);
      // ChunkedIm2ColGemm: each row filled and multiplied once, by the task's slice.
      std::vector<std::atomic<int>> seen(rows);
      std::vector<int> scratch;
      tflite::conv_util::ChunkedIm2ColGemm(
          rows, 3, 1, &scratch, pool,
          [&](size_t r0, size_t r1, int* buf) {
            REQUIRE(r1 - r0 <= kChunkRows);
            for (size_t r = r0; r < r1; ++r) buf[(r - r0) * 3] = static_cast<int>(r);
          },
          [&](size_t r0, size_t r1, const int* buf, size_t t) {
            REQUIRE(t < p.tasks);
            for (size_t r = r0; r < r1; ++r) {
              REQUIRE(buf[(r - r0) * 3] == static_cast<int>(r));
              seen[r]++;
            }
          });
      for (size_t r = 0; r < rows; ++r) REQUIRE(seen[r] == 1);
    }
    if (pool != nullptr) pthreadpool_destroy(pool);
  }
}

}  // namespace
}  // namespace tflite_inspect
