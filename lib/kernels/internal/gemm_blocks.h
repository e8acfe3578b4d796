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
// they save.
constexpr double kMinParallelMacs = 1 << 20;

// Calls fn(m0, m1, p0, p1) over row blocks of `mc` rows and blocks of kGemmNr-column
// panels; splits the columns too when there are too few row blocks to keep the threads
// busy. `panel_align`: column blocks start at multiples of it (kernels that take panels
// in pairs). `min_parallel_macs`: below this much work one thread runs it all (kernels that
// do many multiply-adds a cycle, as the dot-product ones, finish small problems sooner than
// a hand-off to another thread pays off).
template <typename Fn>
void RunBlocks(pthreadpool* pool, int m, int panels, int k, int mc, const Fn& fn,
               int panel_align = 1, double min_parallel_macs = kMinParallelMacs) {
  const double macs = static_cast<double>(m) * panels * kGemmNr * k;
  const int threads = pool == nullptr || macs < min_parallel_macs
                          ? 1
                          : static_cast<int>(pthreadpool_get_threads_count(pool));
  const int m_blocks = (m + mc - 1) / mc;
  int panels_per_task = panels;
  if (threads > 1 && m_blocks < 4 * threads) {
    const int want_n_blocks = (4 * threads + m_blocks - 1) / m_blocks;
    panels_per_task = std::max(1, (panels + want_n_blocks - 1) / want_n_blocks);
    panels_per_task = (panels_per_task + panel_align - 1) / panel_align * panel_align;
  }
  const int n_blocks = (panels + panels_per_task - 1) / panels_per_task;
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
