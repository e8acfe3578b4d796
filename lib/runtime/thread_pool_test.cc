// The pthreadpool C API of thread_pool.cc: every variant visits each index of its grid
// exactly once with pthreadpool's tile starts and clipped sizes, on 1-4 threads and without
// a pool; flags; a caller never waits for workers that took nothing; how the work is dealt
// and taken back; concurrent callers.
#include "runtime/thread_pool.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "catch2/catch.hpp"
#include "testing/random.h"

namespace {

// A grid of up to six dimensions; callbacks mark the box they are given.
struct Grid {
  size_t dims = 0;
  size_t range[6] = {1, 1, 1, 1, 1, 1};
  size_t tile[6] = {1, 1, 1, 1, 1, 1};  // 1 for untiled dimensions
  std::vector<std::atomic<int>> count;
  std::atomic<int> bad{0};
  std::atomic<uint32_t> uarch_seen{UINT32_MAX};

  Grid(std::initializer_list<size_t> r, std::initializer_list<size_t> t) {
    for (size_t x : r) range[dims++] = x;
    size_t d = 0;
    for (size_t x : t) tile[d++] = x;
    size_t n = 1;
    for (size_t i = 0; i < dims; ++i) n *= range[i];
    count = std::vector<std::atomic<int>>(n);
  }

  // start/size per dimension (size 1 where the variant passes an index).
  void Mark(const size_t* start, const size_t* size) {
    for (size_t d = 0; d < dims; ++d) {
      if (start[d] % tile[d] != 0 || start[d] >= range[d] ||
          size[d] != std::min(tile[d], range[d] - start[d])) {
        bad.fetch_add(1);
        return;
      }
    }
    size_t index[6] = {};
    for (;;) {
      size_t linear = 0;
      for (size_t d = 0; d < dims; ++d) linear = linear * range[d] + start[d] + index[d];
      count[linear].fetch_add(1);
      size_t d = dims;
      while (d > 0) {
        --d;
        if (++index[d] < size[d]) break;
        index[d] = 0;
        if (d == 0) return;
      }
      if (dims == 0) return;
    }
  }

  bool EachOnce() const {
    for (const auto& c : count)
      if (c.load() != 1) return false;
    return bad.load() == 0;
  }
};

Grid* G(void* ctx) { return static_cast<Grid*>(ctx); }

// Runs every API variant on `pool` over random ranges and tiles; checks each grid.
void CheckEveryVariant(pthreadpool_t pool, std::mt19937& rng) {
  auto r = [&](size_t hi) { return std::uniform_int_distribution<size_t>(1, hi)(rng); };
  const uint32_t f = 0;
  {
    Grid g({r(300)}, {});
    pthreadpool_parallelize_1d(pool, [](void* c, size_t i) {
      size_t s[1] = {i}, z[1] = {1};
      G(c)->Mark(s, z);
    }, &g, g.range[0], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(300)}, {});
    pthreadpool_parallelize_1d_with_uarch(pool, [](void* c, uint32_t u, size_t i) {
      G(c)->uarch_seen = u;
      size_t s[1] = {i}, z[1] = {1};
      G(c)->Mark(s, z);
    }, &g, 7, 9, g.range[0], f);
    CHECK(g.EachOnce());
    CHECK(g.uarch_seen.load() == 7);
  }
  {
    Grid g({r(500)}, {r(20)});
    pthreadpool_parallelize_1d_tile_1d(pool, [](void* c, size_t i, size_t ti) {
      size_t s[1] = {i}, z[1] = {ti};
      G(c)->Mark(s, z);
    }, &g, g.range[0], g.tile[0], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(30), r(30)}, {});
    pthreadpool_parallelize_2d(pool, [](void* c, size_t i, size_t j) {
      size_t s[2] = {i, j}, z[2] = {1, 1};
      G(c)->Mark(s, z);
    }, &g, g.range[0], g.range[1], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(30), r(40)}, {1, r(9)});
    pthreadpool_parallelize_2d_tile_1d(pool, [](void* c, size_t i, size_t j, size_t tj) {
      size_t s[2] = {i, j}, z[2] = {1, tj};
      G(c)->Mark(s, z);
    }, &g, g.range[0], g.range[1], g.tile[1], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(40), r(40)}, {r(9), r(9)});
    pthreadpool_parallelize_2d_tile_2d(
        pool, [](void* c, size_t i, size_t j, size_t ti, size_t tj) {
          size_t s[2] = {i, j}, z[2] = {ti, tj};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.tile[0], g.tile[1], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(40), r(40)}, {r(9), r(9)});
    pthreadpool_parallelize_2d_tile_2d_with_uarch(
        pool, [](void* c, uint32_t u, size_t i, size_t j, size_t ti, size_t tj) {
          G(c)->uarch_seen = u;
          size_t s[2] = {i, j}, z[2] = {ti, tj};
          G(c)->Mark(s, z);
        }, &g, 3, 5, g.range[0], g.range[1], g.tile[0], g.tile[1], f);
    CHECK(g.EachOnce());
    CHECK(g.uarch_seen.load() == 3);
  }
  {
    Grid g({r(10), r(10), r(10)}, {});
    pthreadpool_parallelize_3d(pool, [](void* c, size_t i, size_t j, size_t k) {
      size_t s[3] = {i, j, k}, z[3] = {1, 1, 1};
      G(c)->Mark(s, z);
    }, &g, g.range[0], g.range[1], g.range[2], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(10), r(10), r(20)}, {1, 1, r(7)});
    pthreadpool_parallelize_3d_tile_1d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t tk) {
          size_t s[3] = {i, j, k}, z[3] = {1, 1, tk};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.tile[2], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(10), r(20), r(20)}, {1, r(7), r(7)});
    pthreadpool_parallelize_3d_tile_2d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t tj, size_t tk) {
          size_t s[3] = {i, j, k}, z[3] = {1, tj, tk};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.tile[1], g.tile[2], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(10), r(20), r(20)}, {1, r(7), r(7)});
    pthreadpool_parallelize_3d_tile_2d_with_uarch(
        pool, [](void* c, uint32_t u, size_t i, size_t j, size_t k, size_t tj, size_t tk) {
          G(c)->uarch_seen = u;
          size_t s[3] = {i, j, k}, z[3] = {1, tj, tk};
          G(c)->Mark(s, z);
        }, &g, 1, 2, g.range[0], g.range[1], g.range[2], g.tile[1], g.tile[2], f);
    CHECK(g.EachOnce());
    CHECK(g.uarch_seen.load() == 1);
  }
  {
    Grid g({r(6), r(6), r(6), r(6)}, {});
    pthreadpool_parallelize_4d(pool, [](void* c, size_t i, size_t j, size_t k, size_t l) {
      size_t s[4] = {i, j, k, l}, z[4] = {1, 1, 1, 1};
      G(c)->Mark(s, z);
    }, &g, g.range[0], g.range[1], g.range[2], g.range[3], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(6), r(6), r(6), r(12)}, {1, 1, 1, r(5)});
    pthreadpool_parallelize_4d_tile_1d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t l, size_t tl) {
          size_t s[4] = {i, j, k, l}, z[4] = {1, 1, 1, tl};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.tile[3], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(6), r(6), r(12), r(12)}, {1, 1, r(5), r(5)});
    pthreadpool_parallelize_4d_tile_2d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t l, size_t tk, size_t tl) {
          size_t s[4] = {i, j, k, l}, z[4] = {1, 1, tk, tl};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.tile[2], g.tile[3], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(6), r(6), r(12), r(12)}, {1, 1, r(5), r(5)});
    pthreadpool_parallelize_4d_tile_2d_with_uarch(
        pool,
        [](void* c, uint32_t u, size_t i, size_t j, size_t k, size_t l, size_t tk, size_t tl) {
          G(c)->uarch_seen = u;
          size_t s[4] = {i, j, k, l}, z[4] = {1, 1, tk, tl};
          G(c)->Mark(s, z);
        }, &g, 4, 4, g.range[0], g.range[1], g.range[2], g.range[3], g.tile[2], g.tile[3], f);
    CHECK(g.EachOnce());
    CHECK(g.uarch_seen.load() == 4);
  }
  {
    Grid g({r(4), r(4), r(4), r(4), r(4)}, {});
    pthreadpool_parallelize_5d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t l, size_t m) {
          size_t s[5] = {i, j, k, l, m}, z[5] = {1, 1, 1, 1, 1};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.range[4], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(4), r(4), r(4), r(4), r(9)}, {1, 1, 1, 1, r(4)});
    pthreadpool_parallelize_5d_tile_1d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t l, size_t m, size_t tm) {
          size_t s[5] = {i, j, k, l, m}, z[5] = {1, 1, 1, 1, tm};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.range[4], g.tile[4], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(4), r(4), r(4), r(9), r(9)}, {1, 1, 1, r(4), r(4)});
    pthreadpool_parallelize_5d_tile_2d(
        pool,
        [](void* c, size_t i, size_t j, size_t k, size_t l, size_t m, size_t tl, size_t tm) {
          size_t s[5] = {i, j, k, l, m}, z[5] = {1, 1, 1, tl, tm};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.range[4], g.tile[3],
        g.tile[4], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(3), r(3), r(3), r(3), r(3), r(4)}, {});
    pthreadpool_parallelize_6d(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t l, size_t m, size_t n) {
          size_t s[6] = {i, j, k, l, m, n}, z[6] = {1, 1, 1, 1, 1, 1};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.range[4], g.range[5], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(3), r(3), r(3), r(3), r(3), r(9)}, {1, 1, 1, 1, 1, r(4)});
    pthreadpool_parallelize_6d_tile_1d(
        pool,
        [](void* c, size_t i, size_t j, size_t k, size_t l, size_t m, size_t n, size_t tn) {
          size_t s[6] = {i, j, k, l, m, n}, z[6] = {1, 1, 1, 1, 1, tn};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.range[4], g.range[5],
        g.tile[5], f);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(3), r(3), r(3), r(3), r(9), r(9)}, {1, 1, 1, 1, r(4), r(4)});
    pthreadpool_parallelize_6d_tile_2d(
        pool,
        [](void* c, size_t i, size_t j, size_t k, size_t l, size_t m, size_t n, size_t tm,
           size_t tn) {
          size_t s[6] = {i, j, k, l, m, n}, z[6] = {1, 1, 1, 1, tm, tn};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.range[4], g.range[5],
        g.tile[4], g.tile[5], f);
    CHECK(g.EachOnce());
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  {
    Grid g({r(20), r(20), r(20)}, {r(6), r(6), r(6)});
    pthreadpool_compute_3d_tiled(
        pool, [](void* c, size_t i, size_t j, size_t k, size_t ti, size_t tj, size_t tk) {
          size_t s[3] = {i, j, k}, z[3] = {ti, tj, tk};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.tile[0], g.tile[1], g.tile[2]);
    CHECK(g.EachOnce());
  }
  {
    Grid g({r(9), r(9), r(9), r(9)}, {r(4), r(4), r(4), r(4)});
    pthreadpool_compute_4d_tiled(
        pool,
        [](void* c, size_t i, size_t j, size_t k, size_t l, size_t ti, size_t tj, size_t tk,
           size_t tl) {
          size_t s[4] = {i, j, k, l}, z[4] = {ti, tj, tk, tl};
          G(c)->Mark(s, z);
        }, &g, g.range[0], g.range[1], g.range[2], g.range[3], g.tile[0], g.tile[1],
        g.tile[2], g.tile[3]);
    CHECK(g.EachOnce());
  }
#pragma GCC diagnostic pop
}

}  // namespace

TEST_CASE("thread pool: every pthreadpool variant visits each index once") {
  std::mt19937 rng(tflite_inspect::testing::TestSeed(0x7001));
  CAPTURE(Catch::rngSeed());
  CheckEveryVariant(nullptr, rng);
  for (size_t threads : {1, 2, 4}) {
    CAPTURE(threads);
    pthreadpool_t pool = pthreadpool_create(threads);
    REQUIRE(pool != nullptr);
    CHECK(pthreadpool_get_threads_count(pool) == threads);
    for (int round = 0; round < 20; ++round) CheckEveryVariant(pool, rng);
    pthreadpool_destroy(pool);
  }
}

TEST_CASE("thread pool: sizes and empty ranges") {
  CHECK(pthreadpool_get_threads_count(nullptr) == 1);
  pthreadpool_t pool = pthreadpool_create(0);
  REQUIRE(pool != nullptr);
  CHECK(pthreadpool_get_threads_count(pool) ==
        static_cast<size_t>(tflite::thread_pool::AvailableCpus()));
  std::atomic<int> calls{0};
  pthreadpool_parallelize_2d(pool, [](void* c, size_t, size_t) {
    static_cast<std::atomic<int>*>(c)->fetch_add(1);
  }, &calls, 0, 5, 0);
  CHECK(calls.load() == 0);
  const size_t before = tflite::thread_pool::CallsServed(pool);
  pthreadpool_parallelize_1d(pool, [](void* c, size_t) {
    static_cast<std::atomic<int>*>(c)->fetch_add(1);
  }, &calls, 1000, 0);
  CHECK(calls.load() == 1000);
  CHECK(tflite::thread_pool::CallsServed(pool) == before + 1);
  pthreadpool_destroy(pool);
  pthreadpool_destroy(nullptr);
}

// The property that keeps oversubscribed runs fast: work nobody else took is done by the
// caller, which then returns (pthreadpool 2021 waited for every worker to check in).
TEST_CASE("thread pool: the caller finishes alone when no worker takes work") {
  pthreadpool_t pool = pthreadpool_create(4);
  REQUIRE(pool != nullptr);
  tflite::thread_pool::PauseWorkersForTest(pool, true);
  struct Ctx {
    std::thread::id caller = std::this_thread::get_id();
    std::atomic<int> others{0};
    std::atomic<int> items{0};
  } ctx;
  for (int call = 0; call < 100; ++call) {
    pthreadpool_parallelize_1d(pool, [](void* c, size_t) {
      auto* x = static_cast<Ctx*>(c);
      if (std::this_thread::get_id() != x->caller) x->others.fetch_add(1);
      x->items.fetch_add(1);
    }, &ctx, 500, 0);
  }
  CHECK(ctx.items.load() == 100 * 500);
  CHECK(ctx.others.load() == 0);
  pthreadpool_destroy(pool);
}

// How the work is dealt: each thread owns a contiguous range (the caller the first) and
// runs it from the front; a thread that has finished its own takes the others' from their
// backs. With the workers paused the caller runs everything, in exactly that order.
TEST_CASE("thread pool: contiguous ranges, taken from the back when another thread is done") {
  pthreadpool_t pool = pthreadpool_create(4);
  REQUIRE(pool != nullptr);
  tflite::thread_pool::PauseWorkersForTest(pool, true);
  std::vector<size_t> order;
  pthreadpool_parallelize_1d(pool, [](void* c, size_t i) {
    static_cast<std::vector<size_t>*>(c)->push_back(i);
  }, &order, 1000, 0);
  std::vector<size_t> expected;
  for (size_t i = 0; i < 250; ++i) expected.push_back(i);
  for (size_t range = 1; range < 4; ++range) {
    for (size_t i = range * 250 + 250; i-- > range * 250;) expected.push_back(i);
  }
  CHECK(order == expected);
  pthreadpool_destroy(pool);
}

// Items of random length on three threads, call after call: the threads finish their own
// ranges at different times and take from each other's, racing on the same counters.
TEST_CASE("thread pool: taking from other ranges under uneven work visits each index once") {
  std::mt19937 rng(tflite_inspect::testing::TestSeed(0x7002));
  CAPTURE(Catch::rngSeed());
  pthreadpool_t pool = pthreadpool_create(3);
  REQUIRE(pool != nullptr);
  int failures = 0;
  for (int call = 0; call < 300; ++call) {
    const size_t n = std::uniform_int_distribution<size_t>(1, 3000)(rng);
    struct Ctx {
      std::vector<std::atomic<int>> seen;
      std::vector<uint16_t> spin;
    } ctx{std::vector<std::atomic<int>>(n), std::vector<uint16_t>(n)};
    for (auto& x : ctx.spin) x = std::uniform_int_distribution<int>(0, 2000)(rng);
    pthreadpool_parallelize_1d(pool, [](void* c, size_t i) {
      auto* x = static_cast<Ctx*>(c);
      for (volatile uint16_t k = 0; k < x->spin[i]; k = k + 1) {
      }
      x->seen[i].fetch_add(1);
    }, &ctx, n, 0);
    for (auto& v : ctx.seen) failures += v.load() != 1;
  }
  CHECK(failures == 0);
  pthreadpool_destroy(pool);
}

TEST_CASE("thread pool: workers take part") {
  pthreadpool_t pool = pthreadpool_create(2);
  REQUIRE(pool != nullptr);
  struct Ctx {
    std::mutex mu;
    std::set<std::thread::id> ids;
  } ctx;
  // Every item waits (up to 10 s) until two threads have run items: passes only if the
  // worker claims one while the caller holds another.
  pthreadpool_parallelize_1d(pool, [](void* c, size_t) {
    auto* x = static_cast<Ctx*>(c);
    {
      std::lock_guard<std::mutex> lock(x->mu);
      x->ids.insert(std::this_thread::get_id());
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      std::lock_guard<std::mutex> lock(x->mu);
      if (x->ids.size() >= 2) break;
    }
  }, &ctx, 64, 0);
  CHECK(ctx.ids.size() == 2);
  pthreadpool_destroy(pool);
}

TEST_CASE("thread pool: concurrent callers on one pool") {
  pthreadpool_t pool = pthreadpool_create(3);
  REQUIRE(pool != nullptr);
  std::atomic<int> failures{0};
  auto caller = [&](uint32_t seed) {
    std::mt19937 rng(seed);
    for (int i = 0; i < 200; ++i) {
      const size_t n = std::uniform_int_distribution<size_t>(1, 400)(rng);
      std::vector<std::atomic<int>> seen(n);
      pthreadpool_parallelize_1d(pool, [](void* c, size_t i) {
        (*static_cast<std::vector<std::atomic<int>>*>(c))[i].fetch_add(1);
      }, &seen, n, 0);
      for (auto& s : seen)
        if (s.load() != 1) failures.fetch_add(1);
    }
  };
  std::thread a(caller, tflite_inspect::testing::TestSeed(1));
  std::thread b(caller, tflite_inspect::testing::TestSeed(2));
  a.join();
  b.join();
  CHECK(failures.load() == 0);
  pthreadpool_destroy(pool);
}

#if defined(__x86_64__)
TEST_CASE("thread pool: PTHREADPOOL_FLAG_DISABLE_DENORMALS on every thread, restored after") {
  pthreadpool_t pool = pthreadpool_create(2);
  REQUIRE(pool != nullptr);
  const unsigned before = _mm_getcsr();
  std::atomic<int> without{0};
  pthreadpool_parallelize_1d(pool, [](void* c, size_t) {
    if ((_mm_getcsr() & 0x8040u) != 0x8040u) static_cast<std::atomic<int>*>(c)->fetch_add(1);
  }, &without, 256, PTHREADPOOL_FLAG_DISABLE_DENORMALS | PTHREADPOOL_FLAG_YIELD_WORKERS);
  CHECK(without.load() == 0);
  CHECK(_mm_getcsr() == before);
  pthreadpool_parallelize_1d(pool, [](void* c, size_t) {
    if ((_mm_getcsr() & 0x8040u) != 0) static_cast<std::atomic<int>*>(c)->fetch_add(1);
  }, &without, 256, 0);
  CHECK(without.load() == 0);
  pthreadpool_destroy(pool);
}
#endif
