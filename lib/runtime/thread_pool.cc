// The pthreadpool C API on a pool that yields (see thread_pool.h for why).
//
// One call at a time per pool (a mutex, as pthreadpool's). A call's items are grouped in
// units (runs of consecutive items), and the units are dealt out as contiguous ranges, one
// per thread (the caller is thread 0), as pthreadpool deals them: a thread takes units from
// the front of its own range, and when that is empty takes them from the back of the other
// threads' ranges. Each range is a counter on its own cache line, so taking a unit costs an
// uncontended compare-exchange, and a thread keeps to one contiguous part of the work (its
// part of the weights and rows stays in its own cache). A unit is taken by a
// compare-exchange on its range's `remaining` word, which holds the call's epoch (high 32
// bits) and the units left (low 32 bits).
//
// Publication is a sequence lock: `state_` holds the epoch and whether the task's words
// may be read; the words are rewritten only after `state_` says they may not, and only
// after every unit of the previous call has finished (the caller waits for that). A thread
// reads `state_`, copies the words, and uses them only if its compare-exchange on a range
// of that same epoch succeeds: a unit is left in that epoch only while its task is current.
// The caller waits for `done_` to reach the unit count; each thread adds the units it ran
// once, when it finds none left.
#include "runtime/thread_pool.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;
using AnyFn = void (*)();

// Waiting: `pause` while the other side is likely about to finish, then hand the core over.
constexpr auto kPauseSpin = std::chrono::microseconds(20);
constexpr auto kYieldSpin = std::chrono::microseconds(1000);

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "futex words must be plain 32-bit atomics");

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void FutexWakeAll(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
          nullptr, 0);
}

// Spins (pause, then sched_yield) until done() or the spin budget is spent; true if done.
template <typename Done>
bool SpinUntil(const Done& done) {
  const Clock::time_point start = Clock::now();
  for (uint32_t i = 1;; ++i) {
    if (done()) return true;
    if ((i & 31) == 0) {
      const auto elapsed = Clock::now() - start;
      if (elapsed > kYieldSpin) return false;
      if (elapsed > kPauseSpin) {
        sched_yield();
        continue;
      }
    }
    CpuRelax();
  }
}

// Flush-to-zero and denormals-are-zero for PTHREADPOOL_FLAG_DISABLE_DENORMALS, restored
// when the scope ends.
class DenormalsOff {
 public:
  explicit DenormalsOff(bool on) : on_(on) {
    if (!on_) return;
#if defined(__SSE__) || defined(__x86_64__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | 0x8040u);
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    saved_ = fpcr;
    __asm__ __volatile__("msr fpcr, %0" ::"r"(fpcr | (uint64_t{1} << 24)));
#elif defined(__arm__) && defined(__ARM_FP)
    uint32_t fpscr;
    __asm__ __volatile__("vmrs %0, fpscr" : "=r"(fpscr));
    saved_ = fpscr;
    __asm__ __volatile__("vmsr fpscr, %0" ::"r"(fpscr | (1u << 24)));
#endif
  }
  ~DenormalsOff() {
    if (!on_) return;
#if defined(__SSE__) || defined(__x86_64__)
    _mm_setcsr(static_cast<unsigned>(saved_));
#elif defined(__aarch64__)
    __asm__ __volatile__("msr fpcr, %0" ::"r"(saved_));
#elif defined(__arm__) && defined(__ARM_FP)
    __asm__ __volatile__("vmsr fpscr, %0" ::"r"(static_cast<uint32_t>(saved_)));
#endif
  }
  DenormalsOff(const DenormalsOff&) = delete;
  DenormalsOff& operator=(const DenormalsOff&) = delete;

 private:
  bool on_;
  uint64_t saved_ = 0;
};

constexpr int kMaxDims = 6;

// One parallel call: a grid of up to six dimensions, each cut in tiles (tile 1: untiled).
// Items are the grid's tiles in row-major order (the last dimension fastest, as
// pthreadpool); a unit is a run of `unit` consecutive items.
struct Task {
  // Calls fn for the item whose tile starts at start[] with sizes size[].
  void (*invoke)(const Task& t, const size_t* start, const size_t* size);
  AnyFn fn;
  void* context;
  uint32_t dims;
  uint32_t flags;
  uint32_t uarch;
  size_t range[kMaxDims];
  size_t tile[kMaxDims];
  size_t tiles[kMaxDims];  // tiles per dimension
  size_t items;
  size_t unit;   // items per unit
  uint32_t units;
};

constexpr size_t kTaskWords = (sizeof(Task) + sizeof(uintptr_t) - 1) / sizeof(uintptr_t);

// Runs items [begin, end) of t, stepping the tile indices like an odometer (the last
// dimension fastest); a dimension's start and size are recomputed only when its index moves.
// `invoke` is t.invoke, or (on the caller's thread) the API function's own lambda, which
// then inlines here: one indirect call per item, to the task, as pthreadpool's loops make.
template <typename Invoke>
void RunItems(const Task& t, size_t begin, size_t end, Invoke invoke) {
  const int last = static_cast<int>(t.dims) - 1;
  size_t index[kMaxDims], start[kMaxDims], size[kMaxDims];
  auto place = [&](int d) {
    start[d] = index[d] * t.tile[d];
    size[d] = std::min(t.tile[d], t.range[d] - start[d]);
  };
  size_t rest = begin;
  for (int d = last; d >= 0; --d) {
    index[d] = rest % t.tiles[d];
    rest /= t.tiles[d];
    place(d);
  }
  for (size_t item = begin; item < end; ++item) {
    invoke(t, start, size);
    int d = last;
    for (; d >= 0 && ++index[d] == t.tiles[d]; --d) {
      index[d] = 0;
      place(d);
    }
    if (d >= 0) place(d);
  }
}

// A call on the caller's thread alone (no pool, one thread, or one item).
template <typename Invoke>
void RunInline(const Task& t, Invoke invoke) {
  DenormalsOff denormals(t.flags & PTHREADPOOL_FLAG_DISABLE_DENORMALS);
  RunItems(t, 0, t.items, invoke);
}

}  // namespace

struct pthreadpool {
  explicit pthreadpool(size_t threads) : threads_(threads), ranges_(threads) {
    workers_.reserve(threads - 1);
    for (size_t i = 1; i < threads; ++i) workers_.emplace_back([this, i] { WorkerLoop(i); });
  }

  ~pthreadpool() {
    shutdown_.store(true, std::memory_order_relaxed);
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    FutexWakeAll(&epoch_);
    for (auto& w : workers_) w.join();
  }

  size_t threads() const { return threads_; }

  template <typename Invoke>
  void Run(Task& t, Invoke invoke) {
    std::lock_guard<std::mutex> lock(call_mutex_);
    ++calls_;
    if (t.items == 0) return;
    if (threads_ <= 1 || t.items == 1) return RunInline(t, invoke);
    // Units: small enough that the last ones balance threads that finish at different times
    // (or are descheduled), large enough that very long ranges of tiny items do not pay a
    // compare-exchange each. Within a thread's range the order is the items' order.
    t.unit = std::max<size_t>(1, t.items / (threads_ * 256));
    size_t units = (t.items + t.unit - 1) / t.unit;
    if (units > kMaxUnits) {
      t.unit = (t.items + (kMaxUnits - 1)) / kMaxUnits;
      units = (t.items + t.unit - 1) / t.unit;
    }
    t.units = static_cast<uint32_t>(units);
    Publish(t);
    Claim(0);
    AwaitDone(t.units);
  }

  size_t calls() const { return calls_; }
  void set_paused(bool paused) { paused_.store(paused, std::memory_order_relaxed); }

 private:
  static constexpr uint32_t kNotReadable = 1;
  static constexpr uint32_t kMaxUnits = UINT32_MAX - 1;

  // One thread's share of a call: units [front, back) are left, `remaining` of them (the
  // arbiter: a unit is taken by decrementing it, then its index from the front by the
  // owner or from the back by another thread, so the two ends never cross).
  struct alignas(64) Range {
    std::atomic<uint64_t> remaining{0};  // epoch << 32 | units left
    std::atomic<uint32_t> front{0};
    std::atomic<uint32_t> back{0};
  };

  void Publish(const Task& t) {
    const uint64_t epoch = (state_.load(std::memory_order_relaxed) >> 32) + 1;
    // Sequence lock: the words may not be read while they change.
    state_.store(epoch << 32 | kNotReadable, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    uintptr_t words[kTaskWords] = {};
    std::memcpy(words, &t, sizeof(Task));
    for (size_t i = 0; i < kTaskWords; ++i) task_[i].store(words[i], std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    flags_.store(t.flags, std::memory_order_relaxed);
    for (size_t i = 0; i < threads_; ++i) {
      const uint32_t begin = static_cast<uint32_t>(t.units * uint64_t{i} / threads_);
      const uint32_t end = static_cast<uint32_t>(t.units * uint64_t{i + 1} / threads_);
      ranges_[i].front.store(begin, std::memory_order_relaxed);
      ranges_[i].back.store(end, std::memory_order_relaxed);
      ranges_[i].remaining.store(epoch << 32 | (end - begin), std::memory_order_relaxed);
    }
    state_.store(epoch << 32, std::memory_order_release);
    // Wake sleepers (spinners see the epoch change on their own).
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) FutexWakeAll(&epoch_);
  }

  // Takes one unit of `epoch` from range r: its index, or -1 when the range is empty or
  // belongs to another call.
  int64_t Take(Range& r, uint64_t epoch, bool own) {
    uint64_t left = r.remaining.load(std::memory_order_acquire);
    for (;;) {
      if ((left >> 32) != epoch || static_cast<uint32_t>(left) == 0) return -1;
      if (r.remaining.compare_exchange_weak(left, left - 1, std::memory_order_acq_rel,
                                            std::memory_order_acquire)) {
        return own ? r.front.fetch_add(1, std::memory_order_relaxed)
                   : r.back.fetch_sub(1, std::memory_order_relaxed) - 1;
      }
    }
  }

  // Runs units of the current call as thread `self` until none is left anywhere.
  void Claim(size_t self) {
    const uint64_t s = state_.load(std::memory_order_acquire);
    if (static_cast<uint32_t>(s) == kNotReadable) return;
    uintptr_t words[kTaskWords];
    for (size_t i = 0; i < kTaskWords; ++i) words[i] = task_[i].load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    Task t;
    std::memcpy(&t, words, sizeof(Task));
    // The words are t's whole only if a Take of this epoch succeeds (see the top).
    const uint64_t epoch = s >> 32;
    uint32_t ran = 0;
    DenormalsOff denormals(t.flags & PTHREADPOOL_FLAG_DISABLE_DENORMALS);
    auto run = [&](int64_t u) {
      const size_t unit = static_cast<size_t>(u);
      RunItems(t, unit * t.unit, std::min(t.items, (unit + 1) * t.unit), t.invoke);
      ++ran;
    };
    for (int64_t u; (u = Take(ranges_[self], epoch, true)) >= 0;) run(u);
    for (size_t k = 1; k < threads_; ++k) {
      Range& victim = ranges_[(self + k) % threads_];
      for (int64_t u; (u = Take(victim, epoch, false)) >= 0;) run(u);
    }
    if (ran == 0) return;
    if (done_.fetch_add(ran, std::memory_order_seq_cst) + ran == t.units &&
        caller_sleeping_.load(std::memory_order_seq_cst)) {
      FutexWakeAll(&done_);
    }
  }

  void AwaitDone(uint32_t units) {
    auto finished = [&] { return done_.load(std::memory_order_acquire) == units; };
    if (SpinUntil(finished)) return;
    caller_sleeping_.store(true, std::memory_order_seq_cst);
    for (uint32_t d; (d = done_.load(std::memory_order_seq_cst)) != units;) FutexWait(&done_, d);
    caller_sleeping_.store(false, std::memory_order_relaxed);
  }

  void WorkerLoop(size_t self) {
    // The epoch at construction, not at thread start: a thread that starts late must still
    // see the calls (and the shutdown) that came before it.
    uint32_t seen = 0;
    bool spin = true;
    for (;;) {
      uint32_t e = seen;
      auto changed = [&] { return (e = epoch_.load(std::memory_order_acquire)) != seen; };
      if (!spin || !SpinUntil(changed)) {
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        while ((e = epoch_.load(std::memory_order_seq_cst)) == seen) FutexWait(&epoch_, seen);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
      }
      seen = e;
      if (shutdown_.load(std::memory_order_relaxed)) return;
      if (paused_.load(std::memory_order_relaxed)) continue;
      Claim(self);
      // PTHREADPOOL_FLAG_YIELD_WORKERS: the caller expects a pause; sleep at once.
      spin = (flags_.load(std::memory_order_relaxed) & PTHREADPOOL_FLAG_YIELD_WORKERS) == 0;
    }
  }

  const size_t threads_;
  std::vector<std::thread> workers_;
  std::mutex call_mutex_;
  size_t calls_ = 0;
  alignas(64) std::atomic<uint64_t> state_{0};
  alignas(64) std::atomic<uint32_t> done_{0};
  std::atomic<bool> caller_sleeping_{false};
  alignas(64) std::atomic<uint32_t> epoch_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<bool> shutdown_{false};
  std::atomic<bool> paused_{false};
  std::atomic<uint32_t> flags_{0};
  alignas(64) std::atomic<uintptr_t> task_[kTaskWords] = {};
  std::vector<Range> ranges_;
};

namespace {

// Builds the task of one API call: dims ranges and tiles, fn and how to call it.
Task MakeTask(void (*invoke)(const Task&, const size_t*, const size_t*), AnyFn fn,
              void* context, uint32_t flags, std::initializer_list<size_t> ranges,
              std::initializer_list<size_t> tiles, uint32_t uarch = 0) {
  Task t{};
  t.invoke = invoke;
  t.fn = fn;
  t.context = context;
  t.flags = flags;
  t.uarch = uarch;
  t.dims = static_cast<uint32_t>(std::min<size_t>(ranges.size(), kMaxDims));
  t.items = 1;
  for (size_t d = 0; d < kMaxDims; ++d) {
    t.range[d] = d < ranges.size() ? ranges.begin()[d] : 1;
    const size_t tl = d < tiles.size() ? tiles.begin()[d] : 1;
    t.tile[d] = tl == 0 ? 1 : tl;
  }
  for (size_t d = 0; d < t.dims; ++d) {
    t.tiles[d] = t.range[d] == 0 ? 0 : (t.range[d] + t.tile[d] - 1) / t.tile[d];
    t.items *= t.tiles[d];
  }
  return t;
}

// Runs one API call; `invoke` calls the task for one item (a captureless lambda, also
// stored in the task as a function pointer for the pool's threads).
template <typename Invoke>
void Execute(pthreadpool_t pool, Invoke invoke, AnyFn fn, void* context, uint32_t flags,
             std::initializer_list<size_t> ranges, std::initializer_list<size_t> tiles,
             uint32_t uarch = 0) {
  Task t = MakeTask(+invoke, fn, context, flags, ranges, tiles, uarch);
  if (t.items == 0) return;
  if (pool == nullptr) return RunInline(t, invoke);
  pool->Run(t, invoke);
}

template <typename F>
F As(const Task& t) {
  return reinterpret_cast<F>(t.fn);
}

}  // namespace

namespace tflite {
namespace thread_pool {

int AvailableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

size_t CallsServed(pthreadpool_t pool) { return pool == nullptr ? 0 : pool->calls(); }

void PauseWorkersForTest(pthreadpool_t pool, bool paused) {
  if (pool != nullptr) pool->set_paused(paused);
}

}  // namespace thread_pool
}  // namespace tflite

// The C API, as declared by <pthreadpool.h>. Tiled dimensions pass the tile's start and
// size (clipped at the range end), untiled ones their index.
extern "C" {

pthreadpool_t pthreadpool_create(size_t threads_count) {
  if (threads_count == 0) threads_count = static_cast<size_t>(tflite::thread_pool::AvailableCpus());
  try {
    return new pthreadpool(threads_count);
  } catch (...) {  // no memory or no threads: pthreadpool's answer is NULL
    return nullptr;
  }
}

size_t pthreadpool_get_threads_count(pthreadpool_t pool) {
  return pool == nullptr ? 1 : pool->threads();
}

void pthreadpool_destroy(pthreadpool_t pool) { delete pool; }

#define TFI_ANY(fn) reinterpret_cast<AnyFn>(fn)

void pthreadpool_parallelize_1d(pthreadpool_t pool, pthreadpool_task_1d_t fn, void* ctx,
                                size_t range, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_1d_t>(t)(t.context, s[0]);
          }, TFI_ANY(fn), ctx, flags, {range}, {});
}

void pthreadpool_parallelize_1d_with_uarch(pthreadpool_t pool, pthreadpool_task_1d_with_id_t fn,
                                           void* ctx, uint32_t default_uarch_index,
                                           uint32_t /*max_uarch_index*/, size_t range,
                                           uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_1d_with_id_t>(t)(t.context, t.uarch, s[0]);
          }, TFI_ANY(fn), ctx, flags, {range}, {}, default_uarch_index);
}

void pthreadpool_parallelize_1d_tile_1d(pthreadpool_t pool, pthreadpool_task_1d_tile_1d_t fn,
                                        void* ctx, size_t range, size_t tile, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_1d_tile_1d_t>(t)(t.context, s[0], z[0]);
          }, TFI_ANY(fn), ctx, flags, {range}, {tile});
}

void pthreadpool_parallelize_2d(pthreadpool_t pool, pthreadpool_task_2d_t fn, void* ctx,
                                size_t range_i, size_t range_j, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_2d_t>(t)(t.context, s[0], s[1]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j}, {});
}

void pthreadpool_parallelize_2d_tile_1d(pthreadpool_t pool, pthreadpool_task_2d_tile_1d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t tile_j, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_2d_tile_1d_t>(t)(t.context, s[0], s[1], z[1]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j}, {1, tile_j});
}

void pthreadpool_parallelize_2d_tile_2d(pthreadpool_t pool, pthreadpool_task_2d_tile_2d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t tile_i, size_t tile_j, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_2d_tile_2d_t>(t)(t.context, s[0], s[1], z[0], z[1]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j}, {tile_i, tile_j});
}

void pthreadpool_parallelize_2d_tile_2d_with_uarch(
    pthreadpool_t pool, pthreadpool_task_2d_tile_2d_with_id_t fn, void* ctx,
    uint32_t default_uarch_index, uint32_t /*max_uarch_index*/, size_t range_i,
    size_t range_j, size_t tile_i, size_t tile_j, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_2d_tile_2d_with_id_t>(t)(t.context, t.uarch, s[0], s[1], z[0],
                                                         z[1]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j}, {tile_i, tile_j},
          default_uarch_index);
}

void pthreadpool_parallelize_3d(pthreadpool_t pool, pthreadpool_task_3d_t fn, void* ctx,
                                size_t range_i, size_t range_j, size_t range_k,
                                uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_3d_t>(t)(t.context, s[0], s[1], s[2]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k}, {});
}

void pthreadpool_parallelize_3d_tile_1d(pthreadpool_t pool, pthreadpool_task_3d_tile_1d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t tile_k, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_3d_tile_1d_t>(t)(t.context, s[0], s[1], s[2], z[2]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k}, {1, 1, tile_k});
}

void pthreadpool_parallelize_3d_tile_2d(pthreadpool_t pool, pthreadpool_task_3d_tile_2d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t tile_j, size_t tile_k,
                                        uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_3d_tile_2d_t>(t)(t.context, s[0], s[1], s[2], z[1], z[2]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k}, {1, tile_j, tile_k});
}

void pthreadpool_parallelize_3d_tile_2d_with_uarch(
    pthreadpool_t pool, pthreadpool_task_3d_tile_2d_with_id_t fn, void* ctx,
    uint32_t default_uarch_index, uint32_t /*max_uarch_index*/, size_t range_i,
    size_t range_j, size_t range_k, size_t tile_j, size_t tile_k, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_3d_tile_2d_with_id_t>(t)(t.context, t.uarch, s[0], s[1], s[2],
                                                         z[1], z[2]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k}, {1, tile_j, tile_k},
          default_uarch_index);
}

void pthreadpool_parallelize_4d(pthreadpool_t pool, pthreadpool_task_4d_t fn, void* ctx,
                                size_t range_i, size_t range_j, size_t range_k,
                                size_t range_l, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_4d_t>(t)(t.context, s[0], s[1], s[2], s[3]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l}, {});
}

void pthreadpool_parallelize_4d_tile_1d(pthreadpool_t pool, pthreadpool_task_4d_tile_1d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t range_l, size_t tile_l,
                                        uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_4d_tile_1d_t>(t)(t.context, s[0], s[1], s[2], s[3], z[3]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l}, {1, 1, 1, tile_l});
}

void pthreadpool_parallelize_4d_tile_2d(pthreadpool_t pool, pthreadpool_task_4d_tile_2d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t range_l, size_t tile_k,
                                        size_t tile_l, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_4d_tile_2d_t>(t)(t.context, s[0], s[1], s[2], s[3], z[2], z[3]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l},
          {1, 1, tile_k, tile_l});
}

void pthreadpool_parallelize_4d_tile_2d_with_uarch(
    pthreadpool_t pool, pthreadpool_task_4d_tile_2d_with_id_t fn, void* ctx,
    uint32_t default_uarch_index, uint32_t /*max_uarch_index*/, size_t range_i,
    size_t range_j, size_t range_k, size_t range_l, size_t tile_k, size_t tile_l,
    uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_4d_tile_2d_with_id_t>(t)(t.context, t.uarch, s[0], s[1], s[2],
                                                         s[3], z[2], z[3]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l},
          {1, 1, tile_k, tile_l}, default_uarch_index);
}

void pthreadpool_parallelize_5d(pthreadpool_t pool, pthreadpool_task_5d_t fn, void* ctx,
                                size_t range_i, size_t range_j, size_t range_k,
                                size_t range_l, size_t range_m, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_5d_t>(t)(t.context, s[0], s[1], s[2], s[3], s[4]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l, range_m}, {});
}

void pthreadpool_parallelize_5d_tile_1d(pthreadpool_t pool, pthreadpool_task_5d_tile_1d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t range_l, size_t range_m,
                                        size_t tile_m, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_5d_tile_1d_t>(t)(t.context, s[0], s[1], s[2], s[3], s[4], z[4]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l, range_m},
          {1, 1, 1, 1, tile_m});
}

void pthreadpool_parallelize_5d_tile_2d(pthreadpool_t pool, pthreadpool_task_5d_tile_2d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t range_l, size_t range_m,
                                        size_t tile_l, size_t tile_m, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_5d_tile_2d_t>(t)(t.context, s[0], s[1], s[2], s[3], s[4], z[3],
                                                 z[4]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l, range_m},
          {1, 1, 1, tile_l, tile_m});
}

void pthreadpool_parallelize_6d(pthreadpool_t pool, pthreadpool_task_6d_t fn, void* ctx,
                                size_t range_i, size_t range_j, size_t range_k,
                                size_t range_l, size_t range_m, size_t range_n,
                                uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t*) {
            As<pthreadpool_task_6d_t>(t)(t.context, s[0], s[1], s[2], s[3], s[4], s[5]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l, range_m, range_n},
          {});
}

void pthreadpool_parallelize_6d_tile_1d(pthreadpool_t pool, pthreadpool_task_6d_tile_1d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t range_l, size_t range_m,
                                        size_t range_n, size_t tile_n, uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_6d_tile_1d_t>(t)(t.context, s[0], s[1], s[2], s[3], s[4], s[5],
                                                 z[5]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l, range_m, range_n},
          {1, 1, 1, 1, 1, tile_n});
}

void pthreadpool_parallelize_6d_tile_2d(pthreadpool_t pool, pthreadpool_task_6d_tile_2d_t fn,
                                        void* ctx, size_t range_i, size_t range_j,
                                        size_t range_k, size_t range_l, size_t range_m,
                                        size_t range_n, size_t tile_m, size_t tile_n,
                                        uint32_t flags) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_task_6d_tile_2d_t>(t)(t.context, s[0], s[1], s[2], s[3], s[4], s[5],
                                                 z[4], z[5]);
          }, TFI_ANY(fn), ctx, flags, {range_i, range_j, range_k, range_l, range_m, range_n},
          {1, 1, 1, 1, tile_m, tile_n});
}

// The legacy API (NNPACK's): every dimension tiled, tile sizes clipped.
void pthreadpool_compute_1d(pthreadpool_t pool, pthreadpool_function_1d_t fn, void* arg,
                            size_t range) {
  pthreadpool_parallelize_1d(pool, fn, arg, range, 0);
}

void pthreadpool_compute_1d_tiled(pthreadpool_t pool, pthreadpool_function_1d_tiled_t fn,
                                  void* arg, size_t range, size_t tile) {
  pthreadpool_parallelize_1d_tile_1d(pool, fn, arg, range, tile, 0);
}

void pthreadpool_compute_2d(pthreadpool_t pool, pthreadpool_function_2d_t fn, void* arg,
                            size_t range_i, size_t range_j) {
  pthreadpool_parallelize_2d(pool, fn, arg, range_i, range_j, 0);
}

void pthreadpool_compute_2d_tiled(pthreadpool_t pool, pthreadpool_function_2d_tiled_t fn,
                                  void* arg, size_t range_i, size_t range_j, size_t tile_i,
                                  size_t tile_j) {
  pthreadpool_parallelize_2d_tile_2d(pool, fn, arg, range_i, range_j, tile_i, tile_j, 0);
}

void pthreadpool_compute_3d_tiled(pthreadpool_t pool, pthreadpool_function_3d_tiled_t fn,
                                  void* arg, size_t range_i, size_t range_j, size_t range_k,
                                  size_t tile_i, size_t tile_j, size_t tile_k) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_function_3d_tiled_t>(t)(t.context, s[0], s[1], s[2], z[0], z[1],
                                                   z[2]);
          }, TFI_ANY(fn), arg, 0, {range_i, range_j, range_k}, {tile_i, tile_j, tile_k});
}

void pthreadpool_compute_4d_tiled(pthreadpool_t pool, pthreadpool_function_4d_tiled_t fn,
                                  void* arg, size_t range_i, size_t range_j, size_t range_k,
                                  size_t range_l, size_t tile_i, size_t tile_j, size_t tile_k,
                                  size_t tile_l) {
  Execute(pool, [](const Task& t, const size_t* s, const size_t* z) {
            As<pthreadpool_function_4d_tiled_t>(t)(t.context, s[0], s[1], s[2], s[3], z[0],
                                                   z[1], z[2], z[3]);
          }, TFI_ANY(fn), arg, 0, {range_i, range_j, range_k, range_l},
          {tile_i, tile_j, tile_k, tile_l});
}

#undef TFI_ANY

}  // extern "C"
