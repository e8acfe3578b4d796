// How the packed GEMMs (gemm.cc, gemm_dot.cc) split their work over threads.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMM_BLOCKS_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMM_BLOCKS_H_

#include <pthreadpool.h>

#include <algorithm>
#include <cstddef>

#include "kernels/internal/gemm.h"

namespace tflite {
namespace gemm {

// Problems under this many multiply-adds run inline: waking the workers costs more than
// they save. (1 << 20 until the forty-fourth session kept YOLO's 1x1 layers with a swish
// epilogue, 512K multiply-adds and 16K sigmoids, on one thread at two: 1 << 18 took
// yolo_tiny_128 and mobilenet_v3_small 5-6% faster there. Where it made bert_tiny_64
// slower, its attention's batched products were split inside each batch: matmul.cc
// keeps those whole batches per thread. 1 << 16 since the forty-fifth session, with
// parallel::kMinParallelWork: MobileNet's late 1x1 layers, 8x8 pixels by 64 x 64.)
constexpr double kMinParallelMacs = 1 << 16;

// Calls fn(m0, m1, p0, p1) over row blocks of `mc` rows and blocks of kGemmNr-column
// panels; splits the columns too when there are too few row blocks to keep the threads
// busy. `panel_align`: column blocks start at multiples of it (kernels that take panels
// in pairs). `min_parallel_macs`: below this much work one thread runs it all (kernels that
// do many multiply-adds a cycle, as the dot-product ones, finish small problems sooner than
// a hand-off to another thread pays off).
template <typename Fn>
void RunBlocks(pthreadpool* pool, int m, int panels, int k, int mc, const Fn& fn,
               int panel_align = 1, double min_parallel_macs = kMinParallelMacs,
               int row_unit = 1) {
  const double macs = static_cast<double>(m) * panels * kGemmNr * k;
  const int threads = pool == nullptr || macs < min_parallel_macs
                          ? 1
                          : static_cast<int>(pthreadpool_get_threads_count(pool));
  int m_blocks = (m + mc - 1) / mc;
  // The rows as about `blocks` blocks of equal height, a multiple of row_unit.
  auto even_rows = [&](int blocks) {
    mc = ((m + blocks - 1) / blocks + row_unit - 1) / row_unit * row_unit;
    m_blocks = (m + mc - 1) / mc;
  };
  // With threads, row blocks of equal height, as many as a multiple of the thread count:
  // a thread takes whole tasks, so 17 blocks of 192 rows (56 x 56 pixels) over two threads
  // leave one of them idle for most of a block, and a last block of 4 rows (14 x 14) gives
  // one thread almost nothing. The tiles split any height evenly (FloatGemm).
  if (threads > 1 && m_blocks > 1) {
    even_rows(m_blocks >= threads ? (m_blocks + threads - 1) / threads * threads : m_blocks);
  }
  int panels_per_task = panels;
  if (threads > 1 && m_blocks < 4 * threads) {
    const int want_n_blocks = (4 * threads + m_blocks - 1) / m_blocks;
    panels_per_task = std::max(1, (panels + want_n_blocks - 1) / want_n_blocks);
    panels_per_task = (panels_per_task + panel_align - 1) / panel_align * panel_align;
  }
  int n_blocks = (panels + panels_per_task - 1) / panels_per_task;
  // Fewer than 8 tasks a thread: the rows split as well. A thread takes whole tasks, and
  // the caller does not wait for a worker that is late but takes its tasks, so a few
  // large tasks leave one thread idle (7 x 7 pixels as one row block times 5 column
  // blocks: 3 tasks for one, 2 for the other; mobilenet_v1_0.25's 8 x 8 x 128 -> 128 as 4
  // tasks ran no faster on 2 threads than on 1).
  const int tasks_wanted = 8 * threads;
  if (threads > 1 && m_blocks * n_blocks < tasks_wanted && m >= 2 * m_blocks * row_unit) {
    const int factor = (tasks_wanted + m_blocks * n_blocks - 1) / (m_blocks * n_blocks);
    even_rows(std::min(m_blocks * factor, std::max(1, m / std::max(row_unit, 16))));
  }
  auto task = [&](size_t index) {
    const int mb = static_cast<int>(index) / n_blocks;
    const int nb = static_cast<int>(index) % n_blocks;
    const int m0 = mb * mc;
    const int p0 = nb * panels_per_task;
    fn(m0, std::min(m, m0 + mc), p0, std::min(panels, p0 + panels_per_task));
  };
  const size_t tasks = static_cast<size_t>(m_blocks) * n_blocks;
  if (threads <= 1 || tasks <= 1) {
    for (size_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  using Task = decltype(task);
  pthreadpool_parallelize_1d(
      pool, [](void* ctx, size_t i) { (*static_cast<Task*>(ctx))(i); }, &task, tasks,
      /*flags=*/0);
}

}  // namespace gemm
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMM_BLOCKS_H_
