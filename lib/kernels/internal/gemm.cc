#include "kernels/internal/gemm.h"

#include <pthreadpool.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernels/internal/gemm_blocks.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/requantize.h"
#include "kernels/internal/vector_math.h"
#include "tensorflow/lite/kernels/internal/common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define TFI_GEMM_X86 1
#endif
#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif
#define TFI_GEMM_NEON 1  // every AArch64 CPU has NEON with FMA: no run-time check
#endif

namespace tflite {
namespace gemm {
namespace {

constexpr int kNr = kGemmNr;

constexpr int kSmallN = kGemmSmallN;

// weights[col * n_stride + kk * k_stride] for col < n, kk < k, packed in 16-column panels
// (or, n <= kSmallN, as plain [n][k]). The two common layouts copy runs: [n][k] (k_stride
// 1) gathers a panel's rows, [k][n] (n_stride 1) copies 16 values of a source row at once.
void PackFloat(const float* weights, int n, int k, int64_t n_stride, int64_t k_stride,
               float* packed) {
  if (k == 0) return;  // nothing to pack (and an empty weights pointer may be null)
  if (n <= kSmallN) {
    for (int col = 0; col < n; ++col) {
      const float* src = weights + col * n_stride;
      float* dst = packed + static_cast<size_t>(col) * k;
      if (k_stride == 1) {
        std::memcpy(dst, src, sizeof(float) * static_cast<size_t>(k));
      } else {
        for (int kk = 0; kk < k; ++kk) dst[kk] = src[kk * k_stride];
      }
    }
    return;
  }
  const int panels = (n + kNr - 1) / kNr;
  for (int p = 0; p < panels; ++p) {
    float* dst = packed + static_cast<size_t>(p) * k * kNr;
    const int cols = std::min(kNr, n - p * kNr);
    const float* base = weights + static_cast<int64_t>(p) * kNr * n_stride;
    for (int kk = 0; kk < k; ++kk) {
      float* row = dst + static_cast<size_t>(kk) * kNr;
      const float* src = base + kk * k_stride;
      if (n_stride == 1) {
        std::memcpy(row, src, sizeof(float) * cols);
      } else {
        for (int j = 0; j < cols; ++j) row[j] = src[j * n_stride];
      }
      std::fill(row + cols, row + kNr, 0.0f);
    }
  }
}

// --- Float micro-kernels ------------------------------------------------------------

struct FloatTile {
  int kc;
  const float* a;  // row 0, column pc
  int lda;
  // Rows from an image's windows instead (FloatGemmImage): row i at rows[i] + a_offset.
  const float* const* rows = nullptr;
  size_t a_offset = 0;
  const float* b;  // panel, row pc
  float* c;        // row 0, first column of the panel
  int ldc;
  int cols;           // valid columns of the panel (<= kNr)
  bool first;         // first k block: overwrite C
  bool last;          // last k block: add bias, clamp
  const float* bias;  // at the panel's first column, or nullptr
  float min, max;
  // Wide tiles only: the next panel (row pc) and its valid columns; its C and bias start
  // kNr columns after this panel's.
  const float* b2 = nullptr;
  int cols2 = 0;
};

// Row i of a tile's A (i < 12).
inline const float* TileRow(const FloatTile& t, int i) {
  return t.rows != nullptr ? t.rows[i] + t.a_offset : t.a + static_cast<size_t>(i) * t.lda;
}

// A matrix-vector product (m == 1) over consecutive panels: c[0, panels * kNr) =
// clamp(a[0, k) x panels + bias), the last panel's valid columns only.
struct FloatRow {
  int k;
  const float* a;
  const float* b;  // the first panel
  int panels;
  int last_cols;      // valid columns of the last panel (<= kNr)
  float* c;           // at the first panel's first column
  const float* bias;  // likewise, or nullptr
  float min, max;
};

// The k block of the float tiles: one block up to k = 320, else blocks of at most 256
// (a block of B's panel stays in L1 while the rows stream by). Each block's sum starts
// from 0 and the blocks' sums are added in order, so every kernel that claims the tiles'
// bits blocks k this way.
inline int FloatKc(int k) {
  const int blocks = k <= 320 ? 1 : (k + 255) / 256;
  return (k + blocks - 1) / blocks;
}

// One panel of a row kernel's sums (FloatRow): bias, clamp and store of its valid columns,
// as StoreFloatTile.
inline void StoreRowPanel(const float (&sum)[kNr], const FloatRow& r, int panel) {
  const int cols = panel == r.panels - 1 ? r.last_cols : kNr;
  float* c = r.c + panel * kNr;
  const float* bias = r.bias != nullptr ? r.bias + panel * kNr : nullptr;
  for (int col = 0; col < cols; ++col) {
    float v = sum[col];
    if (bias != nullptr) v += bias[col];
    c[col] = std::min(std::max(v, r.min), r.max);
  }
}

template <int R>
inline void StoreFloatTile(const float (&acc)[R][kNr], const FloatTile& t) {
  for (int i = 0; i < R; ++i) {
    float* crow = t.c + static_cast<size_t>(i) * t.ldc;
    for (int j = 0; j < t.cols; ++j) {
      float v = t.first ? acc[i][j] : crow[j] + acc[i][j];
      if (t.last) {
        if (t.bias != nullptr) v += t.bias[j];
        v = std::min(std::max(v, t.min), t.max);
      }
      crow[j] = v;
    }
  }
}

// The micro-kernels keep their 2*R accumulators in named variables (one ROW step per
// row, compiled out with `if constexpr` above R): with arrays, GCC keeps storing the
// accumulators to the stack on every k step, which halves the throughput.
#define TFI_GEMM_ROWS(ROW) ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5)

// Portable kernel: GCC vector extensions (SSE, NEON, or scalar code as the target has).
typedef float V8 __attribute__((vector_size(32)));

template <int R>
void GenericFloatTile(const FloatTile& t) {
  static_assert(R >= 1 && R <= 6, "");
#define TFI_DECL(i)                      \
  V8 acc##i##0 = V8{}, acc##i##1 = V8{}; \
  const float* a##i = TileRow(t, i < R ? i : 0);
  TFI_GEMM_ROWS(TFI_DECL)
#undef TFI_DECL
  const float* b = t.b;
  for (int kk = 0; kk < t.kc; ++kk, b += kNr) {
    V8 b0, b1;
    std::memcpy(&b0, b, sizeof b0);
    std::memcpy(&b1, b + 8, sizeof b1);
#define TFI_STEP(i)            \
  if constexpr (i < R) {       \
    const float av = a##i[kk]; \
    acc##i##0 += av * b0;      \
    acc##i##1 += av * b1;      \
  }
    TFI_GEMM_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  float out[R][kNr];
#define TFI_OUT(i)                                   \
  if constexpr (i < R) {                             \
    std::memcpy(&out[i][0], &acc##i##0, sizeof(V8)); \
    std::memcpy(&out[i][8], &acc##i##1, sizeof(V8)); \
  }
  TFI_GEMM_ROWS(TFI_OUT)
#undef TFI_OUT
  StoreFloatTile<R>(out, t);
}

// f(std::integral_constant<int, P>, q) over panels [q, q + P): kMax at a time, then the
// rest at once (the row kernels, which take P as a template argument).
template <int P, typename F>
inline void PanelTail(int left, int q, const F& f) {
  if constexpr (P > 0) {
    if (left == P) {
      f(std::integral_constant<int, P>{}, q);
      return;
    }
    PanelTail<P - 1>(left, q, f);
  }
}
template <int kMax, typename F>
inline void ForPanelGroups(int panels, const F& f) {
  int q = 0;
  for (; q + kMax <= panels; q += kMax) f(std::integral_constant<int, kMax>{}, q);
  PanelTail<kMax - 1>(panels - q, q, f);
}

#ifdef TFI_GEMM_X86
// One row over P panels (FloatRow): 2P ymm accumulators where the 1-row tile has two.
// Same products and order per output as the tiles.
template <int P>
__attribute__((target("avx2,fma"))) void Avx2RowPanels(const FloatRow& r, int q) {
  const size_t stride = static_cast<size_t>(r.k) * kNr;
  const float* b = r.b + static_cast<size_t>(q) * stride;
#define TFI_GEMV_PANELS4(X) X(0) X(1) X(2) X(3)
#define TFI_DECL(j)                                                            \
  __m256 acc##j##0 = _mm256_setzero_ps(), acc##j##1 = _mm256_setzero_ps();     \
  __m256 sum##j##0 = _mm256_setzero_ps(), sum##j##1 = _mm256_setzero_ps();
  TFI_GEMV_PANELS4(TFI_DECL)
#undef TFI_DECL
  const int kc = FloatKc(r.k);
  for (int k0 = 0; k0 < r.k; k0 += kc) {
    const int k1 = std::min(r.k, k0 + kc);
    for (int kk = k0; kk < k1; ++kk) {
      const __m256 av = _mm256_broadcast_ss(r.a + kk);
      const float* bk = b + static_cast<size_t>(kk) * kNr;
#define TFI_STEP(j)                                                                    \
  if constexpr (j < P) {                                                               \
    acc##j##0 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bk + j * stride), acc##j##0);     \
    acc##j##1 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bk + j * stride + 8), acc##j##1); \
  }
      TFI_GEMV_PANELS4(TFI_STEP)
#undef TFI_STEP
    }
#define TFI_BLOCK(j)                                                          \
  if constexpr (j < P) {                                                      \
    sum##j##0 = k0 == 0 ? acc##j##0 : _mm256_add_ps(sum##j##0, acc##j##0);    \
    sum##j##1 = k0 == 0 ? acc##j##1 : _mm256_add_ps(sum##j##1, acc##j##1);    \
    acc##j##0 = acc##j##1 = _mm256_setzero_ps();                              \
  }
    TFI_GEMV_PANELS4(TFI_BLOCK)
#undef TFI_BLOCK
  }
  float out[kNr];
#define TFI_OUT(j)                            \
  if constexpr (j < P) {                      \
    _mm256_storeu_ps(out, sum##j##0);         \
    _mm256_storeu_ps(out + 8, sum##j##1);     \
    StoreRowPanel(out, r, q + j);             \
  }
  TFI_GEMV_PANELS4(TFI_OUT)
#undef TFI_OUT
#undef TFI_GEMV_PANELS4
}

void Avx2Row(const FloatRow& r) {
  ForPanelGroups<4>(r.panels, [&](auto p, int q) { Avx2RowPanels<decltype(p)::value>(r, q); });
}

// A full panel of a 6 x 16 AVX tile (accumulators acc<i>0 / acc<i>1): StoreFloatTile's
// arithmetic on the registers (the same additions in the same order; max(min, v) and
// min(max, v) keep a NaN v as std::max / std::min do). With k = 32 (a 1x1 convolution)
// the scalar store was half the tile's time; with k = 8 two thirds.
// A 6 x 16 AVX tile's output: a full or half panel from the registers, else through
// StoreFloatTile.
#define TFI_AVX_STORE_TILE(R)        \
  do {                               \
    if (t.cols == kNr) {             \
      TFI_AVX_STORE_FULL_PANEL(R);   \
      return;                        \
    }                                \
    if (t.cols == kNr / 2) {         \
      TFI_AVX_STORE_HALF_PANEL(R);   \
      return;                        \
    }                                \
    float out[R][kNr];               \
    TFI_GEMM_ROWS(TFI_AVX_SPILL_ROW) \
    StoreFloatTile<R>(out, t);       \
  } while (0)
#define TFI_AVX_SPILL_ROW(i)                 \
  if constexpr (i < R) {                     \
    _mm256_storeu_ps(&out[i][0], acc##i##0); \
    _mm256_storeu_ps(&out[i][8], acc##i##1); \
  }
#define TFI_AVX_STORE_FULL_PANEL(R) TFI_AVX_STORE_PANEL(R, TFI_AVX_STORE_ROW)
// The same for a panel's first 8 columns only (n = 8, 24, ...: its last panel).
#define TFI_AVX_STORE_HALF_PANEL(R) TFI_AVX_STORE_PANEL(R, TFI_AVX_STORE_HALF_ROW)
#define TFI_AVX_STORE_PANEL(R, ROW)                                          \
  do {                                                                       \
    const __m256 vmin = _mm256_set1_ps(t.min), vmax = _mm256_set1_ps(t.max); \
    __m256 bias0 = _mm256_setzero_ps(), bias1 = _mm256_setzero_ps();         \
    const bool bias = t.last && t.bias != nullptr;                           \
    if (bias) {                                                              \
      bias0 = _mm256_loadu_ps(t.bias);                                       \
      if (t.cols == kNr) bias1 = _mm256_loadu_ps(t.bias + 8);                \
    }                                                                        \
    (void)bias1;                                                             \
    TFI_GEMM_ROWS(ROW)                                                       \
  } while (0)
#define TFI_AVX_STORE_HALF(i, h)                                             \
  {                                                                          \
    float* cv = t.c + static_cast<size_t>(i) * t.ldc + 8 * h;                \
    if (!t.first) acc##i##h = _mm256_add_ps(_mm256_loadu_ps(cv), acc##i##h); \
    if (t.last) {                                                            \
      if (bias) acc##i##h = _mm256_add_ps(acc##i##h, bias##h);               \
      acc##i##h = _mm256_min_ps(vmax, _mm256_max_ps(vmin, acc##i##h));       \
    }                                                                        \
    _mm256_storeu_ps(cv, acc##i##h);                                         \
  }
#define TFI_AVX_STORE_ROW(i) \
  if constexpr (i < R) {     \
    TFI_AVX_STORE_HALF(i, 0) \
    TFI_AVX_STORE_HALF(i, 1) \
  }
#define TFI_AVX_STORE_HALF_ROW(i) \
  if constexpr (i < R) TFI_AVX_STORE_HALF(i, 0)

// 6 x 16 with 12 ymm accumulators, FMA; selected only when the CPU has AVX2 and FMA.
template <int R>
__attribute__((target("avx2,fma"))) void Avx2FloatTile(const FloatTile& t) {
  static_assert(R >= 1 && R <= 6, "");
#define TFI_DECL(i)                                                        \
  __m256 acc##i##0 = _mm256_setzero_ps(), acc##i##1 = _mm256_setzero_ps(); \
  const float* a##i = TileRow(t, i < R ? i : 0);
  TFI_GEMM_ROWS(TFI_DECL)
#undef TFI_DECL
  const float* b = t.b;
  for (int kk = 0; kk < t.kc; ++kk, b += kNr) {
    const __m256 b0 = _mm256_loadu_ps(b);
    const __m256 b1 = _mm256_loadu_ps(b + 8);
#define TFI_STEP(i)                                   \
  if constexpr (i < R) {                              \
    const __m256 av = _mm256_broadcast_ss(a##i + kk); \
    acc##i##0 = _mm256_fmadd_ps(av, b0, acc##i##0);   \
    acc##i##1 = _mm256_fmadd_ps(av, b1, acc##i##1);   \
  }
    TFI_GEMM_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  TFI_AVX_STORE_TILE(R);
}
#endif

#ifdef TFI_GEMM_X86
// 6 x 16, each product rounded before it is added (the TFLite orders); "avx"
// without "fma" so that the compiler cannot fuse them.
template <int R>
__attribute__((target("avx"))) void AvxMulAddFloatTile(const FloatTile& t) {
  static_assert(R >= 1 && R <= 6, "");
#define TFI_DECL(i)                                                        \
  __m256 acc##i##0 = _mm256_setzero_ps(), acc##i##1 = _mm256_setzero_ps(); \
  const float* a##i = TileRow(t, i < R ? i : 0);
  TFI_GEMM_ROWS(TFI_DECL)
#undef TFI_DECL
  const float* b = t.b;
  for (int kk = 0; kk < t.kc; ++kk, b += kNr) {
    const __m256 b0 = _mm256_loadu_ps(b);
    const __m256 b1 = _mm256_loadu_ps(b + 8);
#define TFI_STEP(i)                                                     \
  if constexpr (i < R) {                                                \
    const __m256 av = _mm256_broadcast_ss(a##i + kk);                   \
    acc##i##0 = _mm256_add_ps(acc##i##0, _mm256_mul_ps(av, b0));        \
    acc##i##1 = _mm256_add_ps(acc##i##1, _mm256_mul_ps(av, b1));        \
  }
    TFI_GEMM_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  TFI_AVX_STORE_TILE(R);
}
#endif

#ifdef TFI_GEMM_X86
// R x 8 (up to 12 rows, one ymm accumulator each) for a panel's first 8 columns: a last
// panel of n = 8, 24, ... columns (ConvLSTM's and thin MobileNets' 8-channel layers), where
// the 6 x 16 tile spends half its multiply-adds on zero columns. The same arithmetic per
// output as the 16-column tiles (one FMA per k, k ascending, or kMulAdd: each product
// rounded, then added), so the same bits.
#define TFI_GEMM_ROWS12N(ROW) \
  ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7) ROW(8) ROW(9) ROW(10) ROW(11)
#define TFI_NARROW_TILE_BODY(STEP_OP)                                              \
  __m256 acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7, acc8, acc9, acc10, acc11; \
  TFI_GEMM_ROWS12N(TFI_NARROW_DECL)                                                \
  const float* b = t.b;                                                            \
  for (int kk = 0; kk < t.kc; ++kk, b += kNr) {                                    \
    const __m256 b0 = _mm256_loadu_ps(b);                                          \
    TFI_GEMM_ROWS12N(STEP_OP)                                                      \
  }                                                                                \
  if (t.cols == kNr / 2) {                                                         \
    const __m256 vmin = _mm256_set1_ps(t.min), vmax = _mm256_set1_ps(t.max);       \
    const bool bias = t.last && t.bias != nullptr;                                 \
    const __m256 bias0 = bias ? _mm256_loadu_ps(t.bias) : _mm256_setzero_ps();     \
    TFI_GEMM_ROWS12N(TFI_NARROW_STORE)                                             \
    return;                                                                        \
  }                                                                                \
  float out[R][kNr];                                                               \
  TFI_GEMM_ROWS12N(TFI_NARROW_SPILL)                                               \
  StoreFloatTile<R>(out, t);
#define TFI_NARROW_DECL(i)      \
  acc##i = _mm256_setzero_ps(); \
  const float* a##i = TileRow(t, i < R ? i : 0);
#define TFI_NARROW_FMA(i) \
  if constexpr (i < R) acc##i = _mm256_fmadd_ps(_mm256_broadcast_ss(a##i + kk), b0, acc##i);
#define TFI_NARROW_MULADD(i) \
  if constexpr (i < R)       \
    acc##i = _mm256_add_ps(acc##i, _mm256_mul_ps(_mm256_broadcast_ss(a##i + kk), b0));
#define TFI_NARROW_STORE(i)                                            \
  if constexpr (i < R) {                                               \
    float* cv = t.c + static_cast<size_t>(i) * t.ldc;                  \
    if (!t.first) acc##i = _mm256_add_ps(_mm256_loadu_ps(cv), acc##i); \
    if (t.last) {                                                      \
      if (bias) acc##i = _mm256_add_ps(acc##i, bias0);                 \
      acc##i = _mm256_min_ps(vmax, _mm256_max_ps(vmin, acc##i));       \
    }                                                                  \
    _mm256_storeu_ps(cv, acc##i);                                      \
  }
#define TFI_NARROW_SPILL(i) \
  if constexpr (i < R) _mm256_storeu_ps(&out[i][0], acc##i);

template <int R>
__attribute__((target("avx2,fma"))) void Avx2NarrowTile(const FloatTile& t) {
  static_assert(R >= 1 && R <= 12, "");
  TFI_NARROW_TILE_BODY(TFI_NARROW_FMA)
}
// "avx" without "fma", as AvxMulAddFloatTile: nothing to fuse the products into.
template <int R>
__attribute__((target("avx"))) void AvxMulAddNarrowTile(const FloatTile& t) {
  static_assert(R >= 1 && R <= 12, "");
  TFI_NARROW_TILE_BODY(TFI_NARROW_MULADD)
}
#endif

#ifdef TFI_GEMM_X86
// 8 x 16 with one zmm accumulator per row, FMA with the A value broadcast from memory
// (the shape of XNNPACK's 7x16 AVX-512 GEMM, which runs at one 512-bit FMA per cycle);
// selected when the CPU has AVX-512F. Same products and order as the AVX2 tile (one FMA
// per k, k ascending), so the results are the same bits.
#define TFI_GEMM_ROWS8(ROW) ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7)
#define TFI_GEMM_ROWS12(ROW) TFI_GEMM_ROWS8(ROW) ROW(8) ROW(9) ROW(10) ROW(11)
// kMulAdd: each product rounded before it is added (the TFLite orders, as the wide tile
// below): the AVX tile's sums on 16 lanes, twice its throughput.
template <int R, bool kMulAdd = false>
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void Avx512FloatTile(
    const FloatTile& t) {
  static_assert(R >= 1 && R <= 8, "");
#define TFI_DECL(i)                    \
  __m512 acc##i = _mm512_setzero_ps(); \
  const float* a##i = TileRow(t, i < R ? i : 0);
  TFI_GEMM_ROWS8(TFI_DECL)
#undef TFI_DECL
  const float* b = t.b;
  for (int kk = 0; kk < t.kc; ++kk, b += kNr) {
    const __m512 bv = _mm512_loadu_ps(b);
#define TFI_STEP(i)                                                                \
  if constexpr (i < R) {                                                           \
    if constexpr (kMulAdd) {                                                       \
      acc##i = _mm512_add_ps(acc##i, _mm512_mul_ps(_mm512_set1_ps(a##i[kk]), bv)); \
    } else {                                                                       \
      acc##i = _mm512_fmadd_ps(_mm512_set1_ps(a##i[kk]), bv, acc##i);              \
    }                                                                              \
  }
    TFI_GEMM_ROWS8(TFI_STEP)
#undef TFI_STEP
  }
  // StoreFloatTile's arithmetic, 16 columns at a time (masked to the valid ones).
  const __mmask16 mask = t.cols >= kNr ? __mmask16(0xffff) : __mmask16((1u << t.cols) - 1u);
  const __m512 bias = t.last && t.bias != nullptr ? _mm512_maskz_loadu_ps(mask, t.bias) : _mm512_setzero_ps();
  const __m512 lo = _mm512_set1_ps(t.min), hi = _mm512_set1_ps(t.max);
#define TFI_OUT(i)                                                                    \
  if constexpr (i < R) {                                                              \
    float* crow = t.c + static_cast<size_t>(i) * t.ldc;                                \
    __m512 v = acc##i;                                                                \
    if (!t.first) v = _mm512_add_ps(_mm512_maskz_loadu_ps(mask, crow), v);             \
    if (t.last) {                                                                     \
      if (t.bias != nullptr) v = _mm512_add_ps(v, bias);                              \
      v = _mm512_min_ps(hi, _mm512_max_ps(lo, v)); /* NaN passes, as std::min/max */ \
    }                                                                                 \
    _mm512_mask_storeu_ps(crow, mask, v);                                             \
  }
  TFI_GEMM_ROWS8(TFI_OUT)
#undef TFI_OUT
}

// *p0 = a[0] * bv, *p1 = a[0] * bw, each multiply reading a[0] broadcast from memory
// ({1to16}) rather than from a register one broadcast filled: the TFLite-order tile's
// separate multiplies and adds occupy all four of Zen 4's FP pipes, where a register
// broadcast takes pipe time too (BM_FloatGemmOrder on Zen 4: 76 -> 111 GFLOP/s, the FMA
// tile's speed).
__attribute__((target("avx512f"), always_inline)) inline void MulBroadcast2(const float* a,
                                                                          __m512 bv, __m512 bw,
                                                                          __m512* p0, __m512* p1) {
  __asm__("vmulps %2%{1to16%}, %3, %0\n\t"
          "vmulps %2%{1to16%}, %4, %1"
          : "=&v"(*p0), "=v"(*p1)
          : "m"(*a), "v"(bv), "v"(bw));
}

// 12 x 32: two adjacent panels at once, 24 zmm accumulators, each A value broadcast once
// for two FMAs. The 8 x 16 tile issues 9 loads per 8 FMAs and is bound by the load ports
// at about half the FMA peak; this one is bound by the FMAs. Same products and order per
// output (one FMA per k, k ascending), so the same bits as the other tiles.
// kMulAdd: each product rounded before it is added (the TFLite orders), compiled
// without contraction into FMA.
template <int R, bool kMulAdd>
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void Avx512WideTile(
    const FloatTile& t) {
  static_assert(R >= 1 && R <= 12, "");
#define TFI_DECL(i)                                                  \
  __m512 acc##i = _mm512_setzero_ps(), bcc##i = _mm512_setzero_ps(); \
  const float* a##i = TileRow(t, i < R ? i : 0);
  TFI_GEMM_ROWS12(TFI_DECL)
#undef TFI_DECL
  const float* b = t.b;
  const float* b2 = t.b2;
  for (int kk = 0; kk < t.kc; ++kk, b += kNr, b2 += kNr) {
    const __m512 bv = _mm512_loadu_ps(b), bw = _mm512_loadu_ps(b2);
#define TFI_STEP(i)                                                   \
  if constexpr (i < R) {                                              \
    if constexpr (kMulAdd) {                                          \
      __m512 p0, p1;                                                  \
      MulBroadcast2(a##i + kk, bv, bw, &p0, &p1);                     \
      acc##i = _mm512_add_ps(acc##i, p0);                             \
      bcc##i = _mm512_add_ps(bcc##i, p1);                             \
    } else {                                                          \
      const __m512 av = _mm512_set1_ps(a##i[kk]);                     \
      acc##i = _mm512_fmadd_ps(av, bv, acc##i);                       \
      bcc##i = _mm512_fmadd_ps(av, bw, bcc##i);                       \
    }                                                                 \
  }
    TFI_GEMM_ROWS12(TFI_STEP)
#undef TFI_STEP
  }
  const __mmask16 mask = t.cols >= kNr ? __mmask16(0xffff) : __mmask16((1u << t.cols) - 1u);
  const __mmask16 mask2 = t.cols2 >= kNr ? __mmask16(0xffff) : __mmask16((1u << t.cols2) - 1u);
  const bool with_bias = t.last && t.bias != nullptr;
  const __m512 bias = with_bias ? _mm512_maskz_loadu_ps(mask, t.bias) : _mm512_setzero_ps();
  const __m512 bias2 = with_bias ? _mm512_maskz_loadu_ps(mask2, t.bias + kNr) : _mm512_setzero_ps();
  const __m512 lo = _mm512_set1_ps(t.min), hi = _mm512_set1_ps(t.max);
#define TFI_OUT(i)                                                                    \
  if constexpr (i < R) {                                                              \
    float* crow = t.c + static_cast<size_t>(i) * t.ldc;                                \
    __m512 v = acc##i, w = bcc##i;                                                    \
    if (!t.first) {                                                                   \
      v = _mm512_add_ps(_mm512_maskz_loadu_ps(mask, crow), v);                        \
      w = _mm512_add_ps(_mm512_maskz_loadu_ps(mask2, crow + kNr), w);                 \
    }                                                                                 \
    if (t.last) {                                                                     \
      if (with_bias) {                                                                \
        v = _mm512_add_ps(v, bias);                                                   \
        w = _mm512_add_ps(w, bias2);                                                  \
      }                                                                               \
      v = _mm512_min_ps(hi, _mm512_max_ps(lo, v));                                    \
      w = _mm512_min_ps(hi, _mm512_max_ps(lo, w));                                    \
    }                                                                                 \
    _mm512_mask_storeu_ps(crow, mask, v);                                             \
    _mm512_mask_storeu_ps(crow + kNr, mask2, w);                                      \
  }
  TFI_GEMM_ROWS12(TFI_OUT)
#undef TFI_OUT
#undef TFI_GEMM_ROWS12
#undef TFI_GEMM_ROWS8
}
// One row: a tile of one row keeps one or two accumulators and waits on the FMA latency
// at every k (a squeeze-excite block's 1x1 convolution, 168 -> 672, took 6.0 µs; 4.7
// this way). Here P panels at once, P independent accumulators, each A value broadcast
// once for P FMAs. Same products, order and k blocks per output as the tiles, so the
// same bits.
#define TFI_GEMV_PANELS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
template <int P>
__attribute__((target("avx512f"))) void Avx512RowPanels(const FloatRow& r, int q) {
  const size_t stride = static_cast<size_t>(r.k) * kNr;
  const float* b = r.b + static_cast<size_t>(q) * stride;
#define TFI_DECL(j) __m512 acc##j = _mm512_setzero_ps(), sum##j = _mm512_setzero_ps();
  TFI_GEMV_PANELS(TFI_DECL)
#undef TFI_DECL
  const int kc = FloatKc(r.k);
  for (int k0 = 0; k0 < r.k; k0 += kc) {
    const int k1 = std::min(r.k, k0 + kc);
    for (int kk = k0; kk < k1; ++kk) {
      const __m512 av = _mm512_set1_ps(r.a[kk]);
      const float* bk = b + static_cast<size_t>(kk) * kNr;
#define TFI_STEP(j) \
  if constexpr (j < P) acc##j = _mm512_fmadd_ps(av, _mm512_loadu_ps(bk + j * stride), acc##j);
      TFI_GEMV_PANELS(TFI_STEP)
#undef TFI_STEP
    }
#define TFI_BLOCK(j)                                                      \
  if constexpr (j < P) {                                                  \
    sum##j = k0 == 0 ? acc##j : _mm512_add_ps(sum##j, acc##j);            \
    acc##j = _mm512_setzero_ps();                                         \
  }
    TFI_GEMV_PANELS(TFI_BLOCK)
#undef TFI_BLOCK
  }
  const __m512 lo = _mm512_set1_ps(r.min), hi = _mm512_set1_ps(r.max);
#define TFI_OUT(j)                                                                         \
  if constexpr (j < P) {                                                                   \
    const int cols = q + j == r.panels - 1 ? r.last_cols : kNr;                            \
    const __mmask16 mask = cols >= kNr ? __mmask16(0xffff) : __mmask16((1u << cols) - 1u); \
    __m512 v = sum##j;                                                                     \
    if (r.bias != nullptr) {                                                               \
      v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, r.bias + (q + j) * kNr));           \
    }                                                                                      \
    v = _mm512_min_ps(hi, _mm512_max_ps(lo, v));                                           \
    _mm512_mask_storeu_ps(r.c + (q + j) * kNr, mask, v);                                   \
  }
  TFI_GEMV_PANELS(TFI_OUT)
#undef TFI_OUT
}

void Avx512Row(const FloatRow& r) {
  ForPanelGroups<8>(r.panels, [&](auto p, int q) { Avx512RowPanels<decltype(p)::value>(r, q); });
}

template <int R>
void Avx512FloatWideTile(const FloatTile& t) {
  Avx512WideTile<R, false>(t);
}
template <int R>
void Avx512MulAddWideTile(const FloatTile& t) {
  Avx512WideTile<R, true>(t);
}
#endif

#ifdef TFI_GEMM_NEON
// 6 x 16 with 24 q-register accumulators, one FMA per k (by element), k ascending: the
// AVX2 and AVX-512 tiles' products and order, so ARM and x86 give the same bits.
template <int R>
void NeonFloatTile(const FloatTile& t) {
  static_assert(R >= 1 && R <= 6, "");
#define TFI_DECL(i)                                                         \
  float32x4_t acc##i##0 = vdupq_n_f32(0.0f), acc##i##1 = vdupq_n_f32(0.0f); \
  float32x4_t acc##i##2 = vdupq_n_f32(0.0f), acc##i##3 = vdupq_n_f32(0.0f); \
  const float* a##i = TileRow(t, i < R ? i : 0);
  TFI_GEMM_ROWS(TFI_DECL)
#undef TFI_DECL
  const float* b = t.b;
  for (int kk = 0; kk < t.kc; ++kk, b += kNr) {
    const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4);
    const float32x4_t b2 = vld1q_f32(b + 8), b3 = vld1q_f32(b + 12);
#define TFI_STEP(i)                           \
  if constexpr (i < R) {                      \
    const float av = a##i[kk];                \
    acc##i##0 = vfmaq_n_f32(acc##i##0, b0, av); \
    acc##i##1 = vfmaq_n_f32(acc##i##1, b1, av); \
    acc##i##2 = vfmaq_n_f32(acc##i##2, b2, av); \
    acc##i##3 = vfmaq_n_f32(acc##i##3, b3, av); \
  }
    TFI_GEMM_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  float out[R][kNr];
#define TFI_OUT(i)                       \
  if constexpr (i < R) {                 \
    vst1q_f32(&out[i][0], acc##i##0);    \
    vst1q_f32(&out[i][4], acc##i##1);    \
    vst1q_f32(&out[i][8], acc##i##2);    \
    vst1q_f32(&out[i][12], acc##i##3);   \
  }
  TFI_GEMM_ROWS(TFI_OUT)
#undef TFI_OUT
  StoreFloatTile<R>(out, t);
}
#endif

#ifdef TFI_GEMM_NEON
// One row over P panels (FloatRow): 4P q-register accumulators where the 1-row tile has
// four (an FMA's latency is 4 cycles on two pipes: the tile waited half the time). Same
// products, order and k blocks as the tiles, so the same bits.
template <int P>
void NeonRowPanels(const FloatRow& r, int q) {
  const size_t stride = static_cast<size_t>(r.k) * kNr;
  const float* b = r.b + static_cast<size_t>(q) * stride;
  float32x4_t acc[P][4], sum[P][4];
  for (int j = 0; j < P; ++j) {
    for (int v = 0; v < 4; ++v) acc[j][v] = sum[j][v] = vdupq_n_f32(0.0f);
  }
  const int kc = FloatKc(r.k);
  for (int k0 = 0; k0 < r.k; k0 += kc) {
    const int k1 = std::min(r.k, k0 + kc);
    for (int kk = k0; kk < k1; ++kk) {
      const float av = r.a[kk];
      const float* bk = b + static_cast<size_t>(kk) * kNr;
#pragma GCC unroll 4
      for (int j = 0; j < P; ++j) {
#pragma GCC unroll 4
        for (int v = 0; v < 4; ++v) acc[j][v] = vfmaq_n_f32(acc[j][v], vld1q_f32(bk + j * stride + 4 * v), av);
      }
    }
    for (int j = 0; j < P; ++j) {
      for (int v = 0; v < 4; ++v) {
        sum[j][v] = k0 == 0 ? acc[j][v] : vaddq_f32(sum[j][v], acc[j][v]);
        acc[j][v] = vdupq_n_f32(0.0f);
      }
    }
  }
  float out[kNr];
  for (int j = 0; j < P; ++j) {
    for (int v = 0; v < 4; ++v) vst1q_f32(out + 4 * v, sum[j][v]);
    StoreRowPanel(out, r, q + j);
  }
}

void NeonRow(const FloatRow& r) {
  ForPanelGroups<4>(r.panels, [&](auto p, int q) { NeonRowPanels<decltype(p)::value>(r, q); });
}
#endif

using FloatTileFn = void (*)(const FloatTile&);

struct FloatKernel {
  int mr;
  FloatTileFn tiles[9];  // tiles[r] handles r rows, 1 <= r <= mr
  const char* name;
  // Optional tiles over two panels at once (wide[r]: r rows, 1 <= r <= wide_mr).
  int wide_mr = 0;
  FloatTileFn wide[13] = {};
  // Optional: one row (m == 1) over `panels` consecutive panels (FloatRow).
  void (*row)(const FloatRow&) = nullptr;
  // Optional tiles for a last panel of at most 8 columns (narrow[r]: r rows, 1 <= r <=
  // narrow_mr), where the full-width tiles would multiply 8 zero columns.
  int narrow_mr = 0;
  FloatTileFn narrow[13] = {};
};

// --- Narrow outputs (n <= kSmallN): 4 rows at a time share each weight load -----------

// Four rows' next 8 products with the same 8 weights, each row's into its own lanes.
inline __attribute__((always_inline)) void MulAdd4Rows(const float* const (&ar)[4], size_t at,
                                                       const float* w, V8& acc0, V8& acc1, V8& acc2,
                                                       V8& acc3) {
  V8 wv, x;
  std::memcpy(&wv, w, sizeof wv);
  std::memcpy(&x, ar[0] + at, sizeof x);
  acc0 += x * wv;
  std::memcpy(&x, ar[1] + at, sizeof x);
  acc1 += x * wv;
  std::memcpy(&x, ar[2] + at, sizeof x);
  acc2 += x * wv;
  std::memcpy(&x, ar[3] + at, sizeof x);
  acc3 += x * wv;
}

// Each row's lanes added in lane order (one order for every caller: the same bits).
inline __attribute__((always_inline)) void AddLanes4(const V8& acc0, const V8& acc1, const V8& acc2,
                                                     const V8& acc3, float (&sums)[4]) {
  for (int l = 0; l < 8; ++l) {
    sums[0] += acc0[l];
    sums[1] += acc1[l];
    sums[2] += acc2[l];
    sums[3] += acc3[l];
  }
}

// k < 8, too short for the dot products' 8 lanes (a 1x1 convolution over 4 channels): each
// row's n outputs in the lanes of one vector, k ascending from 0 then the bias, as
// SmallNMatrix's scalar tail sums them (the same bits), instead of k * n scalar products.
inline __attribute__((always_inline)) void SmallNShortRows(int m0, int m1, int n, int k,
                                                           const float* a, int lda, const float* w,
                                                           float* c, int ldc,
                                                           const FloatOutputStage& stage) {
  V8 wt[8];
  for (int t = 0; t < k; ++t) {
    wt[t] = V8{};
    for (int j = 0; j < n; ++j) wt[t][j] = w[static_cast<size_t>(j) * k + t];
  }
  V8 bias = V8{};
  if (stage.bias != nullptr) {
    for (int j = 0; j < n; ++j) bias[j] = stage.bias[j];
  }
  for (int i = m0; i < m1; ++i) {
    const float* ar = a + static_cast<size_t>(i) * lda;
    V8 acc = V8{};
    for (int t = 0; t < k; ++t) acc += ar[t] * wt[t];
    if (stage.bias != nullptr) acc += bias;
    float* ci = c + static_cast<size_t>(i) * ldc;
    for (int j = 0; j < n; ++j) ci[j] = std::min(std::max(acc[j], stage.min), stage.max);
  }
}

#define TFI_INLINE inline __attribute__((always_inline))

// Where the narrow outputs' rows come from. A matrix: rows lda apart, k values in a row,
// the products past the last whole vector summed one by one after the lanes.
struct SmallNMatrix {
  const float* a;
  int lda;
  TFI_INLINE void Fetch(int r0, int r1, const float** rows) const {
    for (int r = r0; r < r1; ++r) *rows++ = a + static_cast<size_t>(r) * lda;
  }
  TFI_INLINE void MulAdd(const float* const (&ar)[4], int k, const float* wj, V8& acc0, V8& acc1,
                         V8& acc2, V8& acc3) const {
    for (int kk = 0; kk + 8 <= k; kk += 8) MulAdd4Rows(ar, kk, wj + kk, acc0, acc1, acc2, acc3);
  }
  TFI_INLINE float AddTail(const float* row, int k, const float* wj, float v) const {
    for (int t = k & ~7; t < k; ++t) v += row[t] * wj[t];
    return v;
  }
  TFI_INLINE bool RunShort(int m0, int m1, int n, int k, const float* w, float* c, int ldc,
                           const FloatOutputStage& stage) const {
    if (k >= 8) return false;
    SmallNShortRows(m0, m1, n, k, a, lda, w, c, ldc, stage);
    return true;
  }
};
// An image's windows: spans.count runs of span = k / spans.count values (a multiple of 8,
// FloatGemmImageRuns, so the runs fill whole vectors and the lanes get the gathered row's
// values in its order: the same sums, and no tail).
struct SmallNWindows {
  const ImageWindows<float>& image;
  TFI_INLINE void Fetch(int r0, int r1, const float** rows) const { image.Rows(r0, r1, rows); }
  TFI_INLINE void MulAdd(const float* const (&ar)[4], int k, const float* wj, V8& acc0, V8& acc1,
                         V8& acc2, V8& acc3) const {
    const int span = k / image.spans.count;
    for (int t = 0; t < image.spans.count; ++t) {
      const size_t at = static_cast<size_t>(t) * image.spans.stride;
      const float* wt = wj + static_cast<size_t>(t) * span;
      for (int kk = 0; kk < span; kk += 8)
        MulAdd4Rows(ar, at + kk, wt + kk, acc0, acc1, acc2, acc3);
    }
  }
  TFI_INLINE float AddTail(const float*, int, const float*, float v) const { return v; }
  TFI_INLINE bool RunShort(int, int, int, int, const float*, float*, int,
                           const FloatOutputStage&) const {
    return false;
  }
};

// Rows [m0, m1) of the narrow product, 4 rows at a time (each weight vector loaded once for
// the four), a row's lanes added in lane order, then its tail, bias and clamp.
template <class Rows>
inline __attribute__((always_inline)) void SmallNRowsImpl(const Rows& src, int m0, int m1, int n,
                                                          int k, const float* w, float* c, int ldc,
                                                          const FloatOutputStage& stage) {
  if (src.RunShort(m0, m1, n, k, w, c, ldc, stage)) return;
  const float* rows[64];
  for (int b0 = m0; b0 < m1; b0 += 64) {
    const int b1 = b0 + std::min(64, m1 - b0);
    src.Fetch(b0, b1, rows);
    for (int i = b0; i < b1; i += 4) {
      const int count = std::min(4, b1 - i);
      const float* ar[4];
      for (int r = 0; r < 4; ++r) ar[r] = rows[i - b0 + std::min(r, count - 1)];
      for (int j = 0; j < n; ++j) {
        const float* wj = w + static_cast<size_t>(j) * k;
        V8 acc0 = V8{}, acc1 = V8{}, acc2 = V8{}, acc3 = V8{};
        src.MulAdd(ar, k, wj, acc0, acc1, acc2, acc3);
        float sums[4] = {0, 0, 0, 0};
        AddLanes4(acc0, acc1, acc2, acc3, sums);
        for (int r = 0; r < count; ++r) {
          float v = src.AddTail(ar[r], k, wj, sums[r]);
          if (stage.bias != nullptr) v += stage.bias[j];
          c[static_cast<size_t>(i + r) * ldc + j] = std::min(std::max(v, stage.min), stage.max);
        }
      }
    }
  }
}

template <class Rows>
void SmallNRowsGeneric(const Rows& src, int m0, int m1, int n, int k, const float* w, float* c,
                       int ldc, const FloatOutputStage& stage) {
  SmallNRowsImpl(src, m0, m1, n, k, w, c, ldc, stage);
}

#ifdef TFI_GEMM_X86
template <class Rows>
__attribute__((target("avx2"))) void SmallNRowsAvx2(const Rows& src, int m0, int m1, int n, int k,
                                                    const float* w, float* c, int ldc,
                                                    const FloatOutputStage& stage) {
  SmallNRowsImpl(src, m0, m1, n, k, w, c, ldc, stage);
}
#endif
#undef TFI_INLINE

// The narrow product over the pool, on the AVX2 build of the rows where the CPU has it.
template <class Rows>
void SmallNRun(const Rows& src, int m, int n, int k, const float* w, float* c, int ldc,
               const FloatOutputStage& stage, pthreadpool* pool, bool portable) {
  auto rows_fn = SmallNRowsGeneric<Rows>;
#ifdef TFI_GEMM_X86
  if (CpuHasAvx2() && !portable) rows_fn = SmallNRowsAvx2<Rows>;
#else
  (void)portable;
#endif
  RunBlocks(pool, m, 1, k, 256,
            [&](int m0, int m1, int, int) { rows_fn(src, m0, m1, n, k, w, c, ldc, stage); });
}

void SmallNGemm(int m, int n, int k, const float* a, int lda, const float* w, float* c, int ldc,
                const FloatOutputStage& stage, pthreadpool* pool, bool portable) {
  SmallNRun(SmallNMatrix{a, lda}, m, n, k, w, c, ldc, stage, pool, portable);
}

// GemmKernel::kTfliteMatMulOrder for n <= kSmallN (weights unpacked, [n][k]): k ascending,
// each product rounded before it is added (no contraction into FMA).
__attribute__((optimize("fp-contract=off"))) void SmallNTfliteOrder(
    int m, int n, int k, const float* a, int lda, const float* w, float* c, int ldc,
    const FloatOutputStage& stage) {
  for (int i = 0; i < m; ++i) {
    const float* ai = a + static_cast<size_t>(i) * lda;
    for (int j = 0; j < n; ++j) {
      const float* wj = w + static_cast<size_t>(j) * k;
      float acc = 0.0f;
      for (int kk = 0; kk < k; ++kk) {
        const float product = ai[kk] * wj[kk];
        acc += product;
      }
      if (stage.bias != nullptr) acc += stage.bias[j];
      c[static_cast<size_t>(i) * ldc + j] = std::min(std::max(acc, stage.min), stage.max);
    }
  }
}

// GemmKernel::kTfliteGemmOrder outside the 8-channel blocks. TFLite's builtin float GEMM on x86
// is Eigen's (cpu_backend_gemm: dst[n][m] = weights[n][k] x input[k][m], column-major dst)
// built for SSE (4-float packets) without FMA. Eigen's kernel takes the n output channels
// 8 at a time (two packets) with one accumulator per output, k ascending (the tiles above);
// the channels left over take two other paths with their own orders of summation, and a
// product with m == 1 or n == 1 is a matrix-vector product. Each product is rounded, then
// added (no contraction into FMA), as there. Checked bit for bit against ai-edge-litert
// 2.3.0's builtin CONV_2D and FULLY_CONNECTED (testdata/kernels/float_*_in_hybrid_graph*). Not
// modelled: k above Eigen's depth block (about 680-1016 by the L1 size; one block here)
// and products so small that Eigen evaluates them coefficient-wise (k + n + m < 20).
struct TfliteOrderWeights {
  const float* w;
  int n, k;
  float operator()(int j, int kk) const {
    if (n <= kSmallN) return w[static_cast<size_t>(j) * k + kk];
    return w[static_cast<size_t>(j / kNr) * k * kNr + static_cast<size_t>(kk) * kNr + j % kNr];
  }
};

// Eigen's matrix-vector dot product: one packet of 4 lanes (lane l sums k = l mod 4 below
// k & ~3, k ascending), reduced as (l0 + l2) + (l1 + l3), then the last k % 4 products.
__attribute__((optimize("fp-contract=off"))) float EigenDot(const float* x, int k,
                                                            const TfliteOrderWeights& w, int j) {
  float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  const int k4 = k & ~3;
  int kk = 0;
  for (; kk < k4; kk += 4) {
    for (int l = 0; l < 4; ++l) {
      const float product = x[kk + l] * w(j, kk + l);
      lane[l] += product;
    }
  }
  float sum = (lane[0] + lane[2]) + (lane[1] + lane[3]);
  for (; kk < k; ++kk) {
    const float product = x[kk] * w(j, kk);
    sum += product;
  }
  return sum;
}

// Output channel j (n8 <= j < n) of input rows [0, m): the channels of one more 4-channel
// packet (j < n4) sum even and odd k below k & ~7 apart and add the two; the last n % 4
// channels sum four k = l mod 4 chains below k & ~3, added as (c0 + c1) + (c2 + c3). In
// both the rest of k follows one by one, and the last m % 4 rows (Eigen's columns, 4 at a
// time there) sum k ascending.
__attribute__((optimize("fp-contract=off"))) float EigenTailSum(const float* x, int k,
                                                                bool row_in_block, bool one_packet,
                                                                const TfliteOrderWeights& w,
                                                                int j) {
  int kk = 0;
  float sum = 0.0f;
  if (row_in_block) {
    if (one_packet) {
      const int peeled = k & ~7;
      float even = 0.0f, odd = 0.0f;
      for (; kk < peeled; kk += 2) {
        const float p0 = x[kk] * w(j, kk);
        even += p0;
        const float p1 = x[kk + 1] * w(j, kk + 1);
        odd += p1;
      }
      sum = even + odd;
    } else {
      const int k4 = k & ~3;
      float chain[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (; kk < k4; kk += 4) {
        for (int l = 0; l < 4; ++l) {
          const float product = x[kk + l] * w(j, kk + l);
          chain[l] += product;
        }
      }
      sum = (chain[0] + chain[1]) + (chain[2] + chain[3]);
    }
  }
  for (; kk < k; ++kk) {
    const float product = x[kk] * w(j, kk);
    sum += product;
  }
  return sum;
}

float ClampToStage(float v, const FloatOutputStage& stage, int j) {
  if (stage.bias != nullptr) v += stage.bias[j];
  return std::min(std::max(v, stage.min), stage.max);
}

#if defined(TFI_GEMM_X86)
// EigenDot for 16 channels of one 16-column panel at once (lane c: channel j0 + c): the same
// four chains per channel, the same reduction and tail, each product rounded then added;
// then bias and clamp as ClampToStage. `cols` channels stored.
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void EigenDotPanelAvx512(
    const float* x, int k, const float* panel, const FloatOutputStage& stage, int j0, int cols,
    float* c) {
  __m512 lane[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                    _mm512_setzero_ps()};
  const int k4 = k & ~3;
  int kk = 0;
  for (; kk < k4; kk += 4) {
    for (int l = 0; l < 4; ++l) {
      const __m512 product = _mm512_mul_ps(
          _mm512_set1_ps(x[kk + l]), _mm512_loadu_ps(panel + static_cast<size_t>(kk + l) * kNr));
      lane[l] = _mm512_add_ps(lane[l], product);
    }
  }
  __m512 sum = _mm512_add_ps(_mm512_add_ps(lane[0], lane[2]), _mm512_add_ps(lane[1], lane[3]));
  for (; kk < k; ++kk) {
    const __m512 product = _mm512_mul_ps(_mm512_set1_ps(x[kk]),
                                         _mm512_loadu_ps(panel + static_cast<size_t>(kk) * kNr));
    sum = _mm512_add_ps(sum, product);
  }
  const __mmask16 mask = cols >= kNr ? __mmask16(0xffff) : __mmask16((1u << cols) - 1u);
  if (stage.bias != nullptr) sum = _mm512_add_ps(sum, _mm512_maskz_loadu_ps(mask, stage.bias + j0));
  sum = _mm512_min_ps(_mm512_set1_ps(stage.max), _mm512_max_ps(_mm512_set1_ps(stage.min), sum));
  _mm512_mask_storeu_ps(c, mask, sum);
}
#endif

// The outputs of GemmKernel::kTfliteGemmOrder that are not k-ascending sums (above): every one
// where m or n is 1, else channels n & ~7 to n; with bias and clamp.
void TfliteOrderTail(int m, int n, int k, const float* a, int lda, const float* packed_b, float* c,
                     int ldc, const FloatOutputStage& stage) {
  const TfliteOrderWeights w{packed_b, n, k};
  if (m == 1 || n == 1) {
    // Eigen's matrix-vector product: dot products along k (of the one input row with every
    // weight row, or of every input row with the one weight row).
#if defined(TFI_GEMM_X86)
    if (n > kSmallN && CpuHasAvx512F()) {  // weights in 16-column panels: 16 channels a step
      for (int i = 0; i < m; ++i) {
        for (int j0 = 0; j0 < n; j0 += kNr) {
          EigenDotPanelAvx512(a + static_cast<size_t>(i) * lda, k,
                              packed_b + static_cast<size_t>(j0) * k, stage, j0,
                              std::min(kNr, n - j0), c + static_cast<size_t>(i) * ldc + j0);
        }
      }
      return;
    }
#endif
    for (int i = 0; i < m; ++i) {
      const float* x = a + static_cast<size_t>(i) * lda;
      for (int j = 0; j < n; ++j) {
        c[static_cast<size_t>(i) * ldc + j] = ClampToStage(EigenDot(x, k, w, j), stage, j);
      }
    }
    return;
  }
  const int n8 = n & ~7, n4 = n & ~3, m4 = m & ~3;
  for (int i = 0; i < m; ++i) {
    const float* x = a + static_cast<size_t>(i) * lda;
    for (int j = n8; j < n; ++j) {
      c[static_cast<size_t>(i) * ldc + j] =
          ClampToStage(EigenTailSum(x, k, i < m4, j < n4, w, j), stage, j);
    }
  }
}

const FloatKernel& PortableFloatKernel() {
  static const FloatKernel kernel{3,
                                  {nullptr, GenericFloatTile<1>, GenericFloatTile<2>,
                                   GenericFloatTile<3>, nullptr, nullptr, nullptr, nullptr, nullptr},
                                  "generic_3x16"};
  return kernel;
}

#ifdef TFI_GEMM_X86
const FloatKernel& Avx512FloatKernel() {
  static const FloatKernel kernel{
      8,
      {nullptr, Avx512FloatTile<1>, Avx512FloatTile<2>, Avx512FloatTile<3>, Avx512FloatTile<4>,
       Avx512FloatTile<5>, Avx512FloatTile<6>, Avx512FloatTile<7>, Avx512FloatTile<8>},
      "avx512f_12x32",
      12,
      {nullptr, Avx512FloatWideTile<1>, Avx512FloatWideTile<2>, Avx512FloatWideTile<3>,
       Avx512FloatWideTile<4>, Avx512FloatWideTile<5>, Avx512FloatWideTile<6>,
       Avx512FloatWideTile<7>, Avx512FloatWideTile<8>, Avx512FloatWideTile<9>,
       Avx512FloatWideTile<10>, Avx512FloatWideTile<11>, Avx512FloatWideTile<12>},
      Avx512Row};
  return kernel;
}

const FloatKernel& Avx2FloatKernel() {
  static const FloatKernel kernel{
      6,
      {nullptr, Avx2FloatTile<1>, Avx2FloatTile<2>, Avx2FloatTile<3>, Avx2FloatTile<4>,
       Avx2FloatTile<5>, Avx2FloatTile<6>, nullptr, nullptr},
      "avx2_fma_6x16",
      0,
      {},
      Avx2Row,
      12,
      {nullptr, Avx2NarrowTile<1>, Avx2NarrowTile<2>, Avx2NarrowTile<3>, Avx2NarrowTile<4>,
       Avx2NarrowTile<5>, Avx2NarrowTile<6>, Avx2NarrowTile<7>, Avx2NarrowTile<8>,
       Avx2NarrowTile<9>, Avx2NarrowTile<10>, Avx2NarrowTile<11>, Avx2NarrowTile<12>}};
  return kernel;
}
#endif

#ifdef TFI_GEMM_NEON
const FloatKernel& NeonFloatKernel() {
  static const FloatKernel kernel{6,
                                  {nullptr, NeonFloatTile<1>, NeonFloatTile<2>, NeonFloatTile<3>,
                                   NeonFloatTile<4>, NeonFloatTile<5>, NeonFloatTile<6>, nullptr,
                                   nullptr},
                                  "neon_fma_6x16",
                                  0,
                                  {},
                                  NeonRow};
  return kernel;
}
#endif

// The TFLite orders' tiles. The portable tile is built for the baseline target (no FMA
// to fuse into), so it sums in the same order with the same roundings.
const FloatKernel& TfliteOrderFloatKernel() {
#ifdef TFI_GEMM_X86
  static const FloatKernel avx{
      6,
      {nullptr, AvxMulAddFloatTile<1>, AvxMulAddFloatTile<2>, AvxMulAddFloatTile<3>,
       AvxMulAddFloatTile<4>, AvxMulAddFloatTile<5>, AvxMulAddFloatTile<6>, nullptr, nullptr},
      "avx_muladd_6x16",
      0,
      {},
      nullptr,
      12,
      {nullptr, AvxMulAddNarrowTile<1>, AvxMulAddNarrowTile<2>, AvxMulAddNarrowTile<3>,
       AvxMulAddNarrowTile<4>, AvxMulAddNarrowTile<5>, AvxMulAddNarrowTile<6>,
       AvxMulAddNarrowTile<7>, AvxMulAddNarrowTile<8>, AvxMulAddNarrowTile<9>,
       AvxMulAddNarrowTile<10>, AvxMulAddNarrowTile<11>, AvxMulAddNarrowTile<12>}};
  // On AVX-512 two panels at a time, a last odd panel on the 8 x 16 tile: the same products
  // and sums, on 16 lanes (the AVX tile's 8 lanes took a third of a dynamic-range
  // MobileNetV2's time).
  static const FloatKernel avx512{
      8,
      {nullptr, Avx512FloatTile<1, true>, Avx512FloatTile<2, true>, Avx512FloatTile<3, true>,
       Avx512FloatTile<4, true>, Avx512FloatTile<5, true>, Avx512FloatTile<6, true>,
       Avx512FloatTile<7, true>, Avx512FloatTile<8, true>},
      "avx512_muladd_12x32",
      12,
      {nullptr, Avx512MulAddWideTile<1>, Avx512MulAddWideTile<2>, Avx512MulAddWideTile<3>,
       Avx512MulAddWideTile<4>, Avx512MulAddWideTile<5>, Avx512MulAddWideTile<6>,
       Avx512MulAddWideTile<7>, Avx512MulAddWideTile<8>, Avx512MulAddWideTile<9>,
       Avx512MulAddWideTile<10>, Avx512MulAddWideTile<11>, Avx512MulAddWideTile<12>}};
  if (CpuHasAvx512F()) return avx512;
  if (CpuHasAvx2()) return avx;
#endif
  return PortableFloatKernel();
}

const FloatKernel& SelectFloatKernel(GemmKernel which = GemmKernel::kAuto) {
  if (which == GemmKernel::kPortable) return PortableFloatKernel();
  if (which == GemmKernel::kTfliteMatMulOrder || which == GemmKernel::kTfliteGemmOrder) {
    return TfliteOrderFloatKernel();
  }
#ifdef TFI_GEMM_X86
  if (which == GemmKernel::kAvx2 && CpuHasAvx2Fma()) return Avx2FloatKernel();
#endif
  // Decided once per process from the CPU; immutable afterwards.
  static const FloatKernel& kernel = []() -> const FloatKernel& {
#ifdef TFI_GEMM_X86
    if (CpuHasAvx512F()) return Avx512FloatKernel();
    if (CpuHasAvx2Fma()) return Avx2FloatKernel();
#endif
#ifdef TFI_GEMM_NEON
    return NeonFloatKernel();
#endif
    return PortableFloatKernel();
  }();
  return kernel;
}

// --- Quantized micro-kernels --------------------------------------------------------
//
// Packed int16 weights interleave pairs of k: panel[(kk / 2) * 32 + j * 2 + (kk & 1)] (k
// rounded up to even, zero-filled), so that one AVX2 vpmaddwd multiplies a broadcast pair
// (a[kk], a[kk + 1]) with 8 columns and adds the two products in int32. The weights are
// 8-bit values minus their zero point (|b| <= 255) and A holds either such values or int16
// activations, so vpmaddwd never saturates (that needs two -32768 * -32768 products) and
// the int32 sums are the same as the reference kernels' (up to wrap-around order).

constexpr int kQuantMr = 4;

inline int KPairs(int k) { return (k + 1) / 2; }

// A tile's rows of A: row i at row[i], its k values `spans` spans of span_k = k / spans
// (even where spans > 1: each starts a pair of the packed panel), span t at t *
// span_stride from the row's start. One span of k: a matrix's rows; several: a
// convolution's windows read in place (one filter row a span; Int16GemmHybridImage).
struct QuantRows {
  const int16_t* row[kQuantMr] = {};
  int spans = 1, span_k = 0;
  size_t span_stride = 0;
};

template <typename W>
void PackQuantizedWeights(const W* weights, int n, int k, int32_t zero_point, int16_t* packed) {
  const int panels = (n + kNr - 1) / kNr;
  const int pairs = KPairs(k);
  for (int p = 0; p < panels; ++p) {
    int16_t* dst = packed + static_cast<size_t>(p) * pairs * 2 * kNr;
    for (int kp = 0; kp < pairs; ++kp) {
      for (int j = 0; j < kNr; ++j) {
        const int col = p * kNr + j;
        for (int h = 0; h < 2; ++h) {
          const int kk = kp * 2 + h;
          dst[(kp * kNr + j) * 2 + h] =
              col < n && kk < k
                  ? static_cast<int16_t>(weights[static_cast<size_t>(col) * k + kk] - zero_point)
                  : int16_t{0};
        }
      }
    }
  }
}

// Portable: acc[i][j] = sum_k a[i][k] * b[k][j].
template <int R>
void GenericQuantTile(int k, const QuantRows& a, const int16_t* b, int32_t (&acc)[R][kNr]) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < kNr; ++j) acc[i][j] = 0;
  const int span_k = a.span_k;
  for (int kk = 0; kk < k; ++kk) {
    const int16_t* bk = b + (kk / 2) * 2 * kNr + (kk & 1);
    const size_t at = (kk / span_k) * a.span_stride + kk % span_k;
    for (int i = 0; i < R; ++i) {
      const int32_t av = a.row[i][at];
      for (int j = 0; j < kNr; ++j) acc[i][j] += av * static_cast<int32_t>(bk[j * 2]);
    }
  }
}

// The vector tiles' rows, and the step of each to its next span.
#define TFI_QGEMM_ROWS(ROW) ROW(0) ROW(1) ROW(2) ROW(3)
#define TFI_QGEMM_NEXT_SPAN(i) \
  if constexpr (i < R) a##i += a.span_stride;

#ifdef TFI_GEMM_X86
template <int R>
__attribute__((target("avx2"))) void Avx2QuantTile(int k, const QuantRows& a, const int16_t* b,
                                                   int32_t (&acc)[R][kNr]) {
  static_assert(R >= 1 && R <= 4, "");
#define TFI_DECL(i)                                                               \
  __m256i acc##i##0 = _mm256_setzero_si256(), acc##i##1 = _mm256_setzero_si256(); \
  const int16_t* a##i = a.row[i < R ? i : 0];
  TFI_QGEMM_ROWS(TFI_DECL)
#undef TFI_DECL
  const int full_pairs = a.span_k / 2;
  for (int t = 0; t < a.spans; ++t) {
    if (t > 0) {
      TFI_QGEMM_ROWS(TFI_QGEMM_NEXT_SPAN)
    }
    // Two pairs an iteration: GCC 12 otherwise copies every accumulator back to its
    // register each pair (8 vmovdqa) and reloads the second weight vector per multiply; BERT-
    // tiny's hybrid layers 8-10% faster (gemm_benchmark Int16GemmHybrid, AVX2 Zen 3).
#pragma GCC unroll 2
  for (int kp = 0; kp < full_pairs; ++kp, b += 2 * kNr) {
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + kNr));
#define TFI_STEP(i)                                                     \
  if constexpr (i < R) {                                                \
    int32_t pair;                                                       \
    std::memcpy(&pair, a##i + 2 * kp, sizeof pair);                     \
    const __m256i av = _mm256_set1_epi32(pair);                         \
    acc##i##0 = _mm256_add_epi32(acc##i##0, _mm256_madd_epi16(av, b0)); \
    acc##i##1 = _mm256_add_epi32(acc##i##1, _mm256_madd_epi16(av, b1)); \
  }
    TFI_QGEMM_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  }
  if (k & 1) {  // last k alone (one span); its pair partner in b is zero
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + kNr));
#define TFI_TAIL(i)                                                           \
  if constexpr (i < R) {                                                      \
    const __m256i av = _mm256_set1_epi32(static_cast<uint16_t>(a##i[k - 1])); \
    acc##i##0 = _mm256_add_epi32(acc##i##0, _mm256_madd_epi16(av, b0));       \
    acc##i##1 = _mm256_add_epi32(acc##i##1, _mm256_madd_epi16(av, b1));       \
  }
    TFI_QGEMM_ROWS(TFI_TAIL)
#undef TFI_TAIL
  }
#define TFI_OUT(i)                                                          \
  if constexpr (i < R) {                                                    \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&acc[i][0]), acc##i##0); \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&acc[i][8]), acc##i##1); \
  }
  TFI_QGEMM_ROWS(TFI_OUT)
#undef TFI_OUT
}
#endif

#ifdef TFI_GEMM_NEON
// 4 x 16 over the same pair-interleaved panel: per pair, vmull_s16 of (a[k], a[k + 1])
// with each 4-column block's 8 values and a pairwise add give vpmaddwd's sums; int32
// additions wrap alike in any order, so the sums are the AVX2 tile's and the reference's.
template <int R>
void NeonQuantTile(int k, const QuantRows& a, const int16_t* b, int32_t (&acc)[R][kNr]) {
  static_assert(R >= 1 && R <= 4, "");
#define TFI_DECL(i)                                                 \
  int32x4_t acc##i##0 = vdupq_n_s32(0), acc##i##1 = vdupq_n_s32(0); \
  int32x4_t acc##i##2 = vdupq_n_s32(0), acc##i##3 = vdupq_n_s32(0); \
  const int16_t* a##i = a.row[i < R ? i : 0];
  TFI_QGEMM_ROWS(TFI_DECL)
#undef TFI_DECL
  // acc += the 4 column sums of block `bv` (columns 4q..4q+3) for the pair in `av`.
#define TFI_MADD(accv, av, bv) \
  accv = vaddq_s32(accv, vpaddq_s32(vmull_s16(vget_low_s16(av), vget_low_s16(bv)), vmull_high_s16(av, bv)))
#define TFI_ROW(i, pair)                                                   \
  if constexpr (i < R) {                                                   \
    const int16x8_t av = vreinterpretq_s16_s32(vdupq_n_s32(pair));         \
    TFI_MADD(acc##i##0, av, b0);                                           \
    TFI_MADD(acc##i##1, av, b1);                                           \
    TFI_MADD(acc##i##2, av, b2);                                           \
    TFI_MADD(acc##i##3, av, b3);                                           \
  }
  const int full_pairs = a.span_k / 2;
  for (int t = 0; t < a.spans; ++t) {
    if (t > 0) {
      TFI_QGEMM_ROWS(TFI_QGEMM_NEXT_SPAN)
    }
    for (int kp = 0; kp < full_pairs; ++kp, b += 2 * kNr) {
      const int16x8_t b0 = vld1q_s16(b), b1 = vld1q_s16(b + 8);
      const int16x8_t b2 = vld1q_s16(b + 16), b3 = vld1q_s16(b + 24);
#define TFI_STEP(i)                                 \
  {                                                 \
    int32_t pair = 0;                               \
    if constexpr (i < R) std::memcpy(&pair, a##i + 2 * kp, sizeof pair); \
    TFI_ROW(i, pair)                                \
  }
    TFI_QGEMM_ROWS(TFI_STEP)
#undef TFI_STEP
    }
  }
  if (k & 1) {  // last k alone; its pair partner in b is zero
    const int16x8_t b0 = vld1q_s16(b), b1 = vld1q_s16(b + 8);
    const int16x8_t b2 = vld1q_s16(b + 16), b3 = vld1q_s16(b + 24);
#define TFI_TAIL(i) TFI_ROW(i, static_cast<int32_t>(static_cast<uint16_t>(a##i[k - 1])))
    TFI_QGEMM_ROWS(TFI_TAIL)
#undef TFI_TAIL
  }
#define TFI_OUT(i)                      \
  if constexpr (i < R) {                \
    vst1q_s32(&acc[i][0], acc##i##0);   \
    vst1q_s32(&acc[i][4], acc##i##1);   \
    vst1q_s32(&acc[i][8], acc##i##2);   \
    vst1q_s32(&acc[i][12], acc##i##3);  \
  }
  TFI_QGEMM_ROWS(TFI_OUT)
#undef TFI_OUT
#undef TFI_ROW
#undef TFI_MADD
}
#endif
#undef TFI_QGEMM_NEXT_SPAN
#undef TFI_QGEMM_ROWS

// acc = a (R rows) x b (one packed panel) over k, in int32; `simd`: the CPU's vector tile
// (AVX2, NEON), else the portable loop.
template <int R>
inline void QuantAccumulate(bool simd, int k, const QuantRows& a, const int16_t* b,
                            int32_t (&acc)[R][kNr]) {
#if defined(TFI_GEMM_X86)
  if (simd) {
    Avx2QuantTile<R>(k, a, b, acc);
    return;
  }
#elif defined(TFI_GEMM_NEON)
  if (simd) {
    NeonQuantTile<R>(k, a, b, acc);
    return;
  }
#else
  (void)simd;
#endif
  GenericQuantTile<R>(k, a, b, acc);
}

// A tile's kNr columns of the stage (bias 0 without one): the stage's own arrays, or
// copies padded with zeros when the last panel is short, so vector loads stay inside.
struct TileStage {
  TileStage(const QuantizedOutputStage& s, int col0, int cols)
      : multiplier(s.multiplier + col0),
        shift(s.shift + col0),
        bias(s.bias != nullptr ? s.bias + col0 : zeros_) {
    if (cols < kNr) {
      std::memcpy(multiplier_, multiplier, sizeof(int32_t) * cols);
      std::memcpy(shift_, shift, sizeof(int32_t) * cols);
      if (s.bias != nullptr) std::memcpy(bias_, bias, sizeof(int32_t) * cols);
      multiplier = multiplier_;
      shift = shift_;
      bias = bias_;
    }
  }
  TileStage(const TileStage&) = delete;
  TileStage& operator=(const TileStage&) = delete;
  const int32_t* multiplier;
  const int32_t* shift;
  const int32_t* bias;

 private:
  int32_t multiplier_[kNr] = {}, shift_[kNr] = {}, bias_[kNr] = {};
  const int32_t zeros_[kNr] = {};
};

#ifdef TFI_GEMM_X86
// The output stage of a tile on 8 lanes at a time (requant::OutputStage8: the scalar
// loop's bits); a tile with a short last panel goes through a 16-value buffer.
template <int R, typename OutT>
__attribute__((target("avx2"))) void Avx2QuantizedStore(const int32_t (&acc)[R][kNr], OutT* c,
                                                        int ldc, int cols,
                                                        const QuantizedOutputStage& s, int col0) {
  const TileStage ts(s, col0, cols);
  const int32_t *mp = ts.multiplier, *sp = ts.shift, *bp = ts.bias;
  const requant::Avx2Channels ch0 = requant::LoadChannels8(mp, sp);
  const requant::Avx2Channels ch1 = requant::LoadChannels8(mp + 8, sp + 8);
  const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bp));
  const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bp + 8));
  const __m256i offset = _mm256_set1_epi32(s.output_offset);
  const __m256i lo = _mm256_set1_epi32(s.act_min), hi = _mm256_set1_epi32(s.act_max);
  for (int i = 0; i < R; ++i) {
    const __m256i v0 = requant::OutputStage8(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&acc[i][0])), b0, ch0, offset, lo, hi);
    const __m256i v1 = requant::OutputStage8(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&acc[i][8])), b1, ch1, offset, lo, hi);
    const auto packed = requant::Narrow16(v0, v1, static_cast<OutT*>(nullptr));
    OutT* crow = c + static_cast<size_t>(i) * ldc;
    if (cols == kNr) {
      std::memcpy(crow, &packed, sizeof(OutT) * kNr);
    } else {
      OutT tmp[kNr];
      std::memcpy(tmp, &packed, sizeof tmp);
      std::memcpy(crow, tmp, sizeof(OutT) * cols);
    }
  }
}
#endif

template <int R, typename OutT>
void QuantizedTile(bool simd, int k, const QuantRows& a, const int16_t* b, OutT* c, int ldc,
                   int cols, const QuantizedOutputStage& s, int col0, int) {
  int32_t acc[R][kNr];
  QuantAccumulate<R>(simd, k, a, b, acc);
#if defined(TFI_GEMM_X86)
  if (simd && !s.single_rounding) {
    Avx2QuantizedStore<R>(acc, c, ldc, cols, s, col0);
    return;
  }
#elif defined(TFI_GEMM_NEON)
  if (simd && !s.single_rounding) {
    requant::NeonStoreTile16<R>(acc, c, static_cast<size_t>(ldc), cols, s, col0);
    return;
  }
#endif
  for (int i = 0; i < R; ++i) {
    OutT* crow = c + static_cast<size_t>(i) * ldc;
    for (int j = 0; j < cols; ++j) {
      crow[j] = static_cast<OutT>(requant::StageValue(acc[i][j], col0 + j, s));
    }
  }
}

// int16 activations: |a * b| <= 32768 * 255 < 2^23, so the int32 micro-kernels sum blocks
// of kWideBlockK products exactly (256 * 2^23 = 2^31, and the bound is not reached);
// the blocks are added in int64, which is then exactly the reference's int64 sum.
constexpr int kWideBlockK = 256;

template <int R>
inline void WideAccumulate(bool simd, int k, const QuantRows& a, const int16_t* b,
                           int64_t (&acc)[R][kNr]) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < kNr; ++j) acc[i][j] = 0;
  for (int k0 = 0; k0 < k; k0 += kWideBlockK) {
    int32_t part[R][kNr];
    QuantRows block;  // (one span: the wide stages run on matrices)
    block.span_k = std::min(kWideBlockK, k - k0);
    for (int i = 0; i < R; ++i) block.row[i] = a.row[i] + k0;
    // k0 is even, so the block starts at a pair boundary of the packed panel.
    QuantAccumulate<R>(simd, std::min(kWideBlockK, k - k0), block,
                       b + static_cast<size_t>(k0) * kNr, part);
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < kNr; ++j) acc[i][j] += part[i][j];
  }
}

template <int R, typename OutT>
void QuantizedTile(bool simd, int k, const QuantRows& a, const int16_t* b, OutT* c, int ldc,
                   int cols, const Quantized16x8OutputStage& s, int col0, int) {
  int64_t acc[R][kNr];
  WideAccumulate<R>(simd, k, a, b, acc);
  for (int i = 0; i < R; ++i) {
    OutT* crow = c + static_cast<size_t>(i) * ldc;
    for (int j = 0; j < cols; ++j) {
      const int col = col0 + j;
      int64_t v = acc[i][j];
      if (s.bias != nullptr) {
        // A model's constant int64 bias need not be 8-byte aligned in the file.
        int64_t b;
        std::memcpy(&b, s.bias + col, sizeof b);
        v = WrappingAdd(v, b);
      }
      if (s.single_rounding) {
        const int64_t r = SingleRoundingMultiply(v, s.multiplier[col], s.shift[col]);
        crow[j] = static_cast<OutT>(std::min<int64_t>(std::max<int64_t>(r, s.act_min), s.act_max));
        continue;
      }
      int32_t r = MultiplyByQuantizedMultiplier(v, s.multiplier[col], s.shift[col]);
      r = std::min(std::max(r, s.act_min), s.act_max);
      crow[j] = static_cast<OutT>(r);
    }
  }
}

// Int32Gemm's and Int64Gemm's stage: the sums as they are (int64: exact, from int32
// blocks).
struct RawStage {};

template <int R, typename Acc>
void QuantizedTile(bool simd, int k, const QuantRows& a, const int16_t* b, Acc* c, int ldc,
                   int cols, const RawStage&, int, int) {
  Acc acc[R][kNr];
  if constexpr (sizeof(Acc) == sizeof(int64_t)) {
    WideAccumulate<R>(simd, k, a, b, acc);
  } else {
    QuantAccumulate<R>(simd, k, a, b, acc);
  }
  // A whole panel with a constant size: an inline copy, not a call per row (2.8% of a
  // dynamic-range BERT's time on an AVX2 CPU).
  for (int i = 0; i < R; ++i) {
    if (cols == kNr) {
      std::memcpy(c + static_cast<size_t>(i) * ldc, acc[i], sizeof(Acc) * kNr);
    } else {
      std::memcpy(c + static_cast<size_t>(i) * ldc, acc[i], sizeof(Acc) * cols);
    }
  }
}

// A hybrid tile's per-column arrays from its first column (null where the stage has none),
// and a row's offset (used with the column sums only).
struct HybridColumns {
  const int32_t* dot_bias;
  const int32_t* col_sums;
  const float* bias;
  const float* unit_scale;
  HybridColumns(const HybridOutputStage& s, int col0)
      : dot_bias(s.dot_bias != nullptr ? s.dot_bias + col0 : nullptr),
        col_sums(s.col_sums != nullptr ? s.col_sums + col0 : nullptr),
        bias(s.bias != nullptr ? s.bias + col0 : nullptr),
        unit_scale(s.unit_scale + col0) {}
  uint32_t Offset(const HybridOutputStage& s, int row) const {
    return col_sums != nullptr ? static_cast<uint32_t>(s.row_offset[row]) : 0;
  }
};

#if defined(TFI_GEMM_X86)
// A whole tile's rows of kNr sums through hybrid::ScaleSpanAvx2, in one call and with the
// width constant to it (a call per row with the width as an argument was 12% slower).
template <int R>
__attribute__((target("avx2"))) void HybridTileAvx2(const int32_t (&acc)[R][kNr],
                                                    const HybridOutputStage& s, int row0, int col0,
                                                    float* c, int ldc) {
  const HybridColumns t(s, col0);
  for (int i = 0; i < R; ++i) {
    hybrid::ScaleSpanAvx2(acc[i], t.dot_bias, t.col_sums, t.Offset(s, row0 + i),
                          s.row_scale[row0 + i], t.unit_scale, t.bias, s.act_min, s.act_max,
                          c + static_cast<size_t>(i) * ldc, kNr);
  }
}
#endif

// Int16GemmHybrid's stage: each row of the tile's sums rescaled to float while they are in
// L1 (hybrid::ScaleSpan's operations, so the bits of Int32Gemm + ScaleRows); row0: the
// tile's first row.
template <int R>
void QuantizedTile(bool simd, int k, const QuantRows& a, const int16_t* b, float* c, int ldc,
                   int cols, const HybridOutputStage& s, int col0, int row0) {
  int32_t acc[R][kNr];
  QuantAccumulate<R>(simd, k, a, b, acc);
#if defined(TFI_GEMM_X86)
  if (simd && cols == kNr) {
    HybridTileAvx2<R>(acc, s, row0, col0, c, ldc);
    return;
  }
#endif
  const HybridColumns t(s, col0);
  for (int i = 0; i < R; ++i) {
    hybrid::ScaleSpan(acc[i], t.dot_bias, t.col_sums, t.Offset(s, row0 + i), s.row_scale[row0 + i],
                      t.unit_scale, t.bias, s.act_min, s.act_max, c + static_cast<size_t>(i) * ldc,
                      0, cols);
  }
}

// A's rows from a matrix (image null: row i at a + i * lda) or an image's windows.
template <typename OutT, typename Stage>
void QuantizedGemmImpl(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                       OutT* c, int ldc, const Stage& s, pthreadpool* pool, GemmKernel kernel,
                       const Int16Image* image = nullptr) {
  if (m <= 0 || n <= 0) return;
  const int panels = (n + kNr - 1) / kNr;
#if defined(TFI_GEMM_NEON)
  const bool simd = kernel != GemmKernel::kPortable;
#else
  const bool simd = kernel != GemmKernel::kPortable && CpuHasAvx2();
#endif
  const size_t panel_size = static_cast<size_t>(KPairs(k)) * 2 * kNr;
  QuantRows span;  // every tile's spans (rows set per tile)
  span.span_k = k;
  if (image != nullptr) {
    span.spans = image->spans.count;
    span.span_k = k / span.spans;
    span.span_stride = image->spans.stride;
  }
  RunBlocks(pool, m, panels, k, kQuantMr * 16, [&](int m0, int m1, int p0, int p1) {
    for (int p = p0; p < p1; ++p) {
      const int16_t* bp = packed_b + p * panel_size;
      const int cols = std::min(kNr, n - p * kNr);
      const int col0 = p * kNr;
      for (int i = m0; i < m1; i += kQuantMr) {
        const int rows = std::min(kQuantMr, m1 - i);
        QuantRows ai = span;
        if (image != nullptr) {
          image->Rows(i, i + rows, ai.row);
        } else {
          for (int r = 0; r < rows; ++r) ai.row[r] = a + static_cast<size_t>(i + r) * lda;
        }
        OutT* ci = c + static_cast<size_t>(i) * ldc + col0;
        switch (rows) {
          case 1:
            QuantizedTile<1>(simd, k, ai, bp, ci, ldc, cols, s, col0, i);
            break;
          case 2:
            QuantizedTile<2>(simd, k, ai, bp, ci, ldc, cols, s, col0, i);
            break;
          case 3:
            QuantizedTile<3>(simd, k, ai, bp, ci, ldc, cols, s, col0, i);
            break;
          default:
            QuantizedTile<4>(simd, k, ai, bp, ci, ldc, cols, s, col0, i);
            break;
        }
      }
    }
  });
}

}  // namespace

void PackFloatWeights(const float* weights, int n, int k, float* packed) {
  PackFloat(weights, n, k, k, 1, packed);
}
void PackFloatWeightsTransposed(const float* weights_kn, int n, int k, float* packed) {
  PackFloat(weights_kn, n, k, 1, n, packed);
}
void PackFloatWeightsStrided(const float* weights, int n, int k, int64_t n_stride,
                             int64_t k_stride, float* packed) {
  PackFloat(weights, n, k, n_stride, k_stride, packed);
}
void PackInt8Weights(const int8_t* weights, int n, int k, int32_t zero_point, int16_t* packed) {
  PackQuantizedWeights(weights, n, k, zero_point, packed);
}
void PackUint8Weights(const uint8_t* weights, int n, int k, int32_t zero_point, int16_t* packed) {
  PackQuantizedWeights(weights, n, k, zero_point, packed);
}
void PackInt16Weights(const int16_t* weights, int n, int k, int16_t* packed) {
  PackQuantizedWeights(weights, n, k, 0, packed);
}

const char* FloatKernelName() { return SelectFloatKernel().name; }

namespace {

struct CpuFeatures {
  bool avx2 = false, fma = false, avx512f = false, avx512bw = false, avx512vnni = false;
  bool avxvnni = false, amx_int8 = false;
  bool neon_dot = false;
  bool amd = false;
};

// Linux gives a process the AMX tile data state only when asked (arch_prctl
// ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA); without it the first tile instruction
// faults.
bool RequestAmxPermission() {
#if defined(TFI_GEMM_X86) && defined(__linux__) && defined(__x86_64__)
  constexpr long kArchReqXcompPerm = 0x1023;
  constexpr long kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

// TFI_KERNEL_ISA caps what the probe found, so that one machine runs the paths other
// CPUs take (tests, benchmarks, scripts/fuzz.sh): "portable" (no vector extension of
// ours, no SDOT), "avx2" (AVX2 + FMA), "avxvnni" (and AVX-VNNI), "avx512" (AVX2, FMA and
// AVX-512F, no VNNI), "avx512vnni" (and both VNNIs, no AMX); the x86 names leave ARM's
// SDOT as it is. Unset or anything else: the CPU's own. Never more than the CPU has.
void CapFeatures(const char* isa, CpuFeatures* f) {
  if (isa == nullptr) return;
  const std::string cap = isa;
  bool vector = true, avx512 = true, avxvnni = true, avx512vnni = true;
  if (cap == "portable") {
    vector = false;
  } else if (cap == "avx2") {
    avx512 = avxvnni = false;
  } else if (cap == "avxvnni") {
    avx512 = false;
  } else if (cap == "avx512") {
    avxvnni = false;
  } else if (cap != "avx512vnni") {
    return;
  }
  avx512vnni = avx512 && avxvnni;
  f->avx2 = f->avx2 && vector;
  f->fma = f->fma && vector;
  f->avx512f = f->avx512f && vector && avx512;
  f->avx512bw = f->avx512bw && vector && avx512;
  f->avxvnni = f->avxvnni && vector && avxvnni;
  f->avx512vnni = f->avx512vnni && vector && avx512vnni;
  f->amx_int8 = false;  // every cap leaves AMX out
  f->neon_dot = f->neon_dot && vector;
}

// Probed once per process.
const CpuFeatures& Cpu() {
  static const CpuFeatures features = [] {
    CpuFeatures f;
#ifdef TFI_GEMM_X86
    __builtin_cpu_init();
    f.amd = __builtin_cpu_is("amd") != 0;
    f.avx2 = __builtin_cpu_supports("avx2") != 0;
    f.fma = __builtin_cpu_supports("fma") != 0;
    f.avx512f = __builtin_cpu_supports("avx512f") != 0;
    f.avx512bw = f.avx512f && __builtin_cpu_supports("avx512bw") != 0;
    // The dot-product GEMM's AVX-512 tile also uses AVX-512BW (byte narrowing).
    f.avx512vnni = f.avx512f && __builtin_cpu_supports("avx512bw") != 0 &&
                   __builtin_cpu_supports("avx512vnni") != 0;
    // AVX-VNNI and AMX from CPUID leaf 7 (clang's __builtin_cpu_supports lacks them; the
    // OS side of AVX is covered by the avx2 check, AMX's by RequestAmxPermission).
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool leaf7 = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0;
    const bool amx = leaf7 && (edx >> 24 & 1) != 0 && (edx >> 25 & 1) != 0;  // tile, int8
    const bool sub1 = leaf7 && eax >= 1 && __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0;
    f.avxvnni = f.avx2 && sub1 && (eax >> 4 & 1) != 0;
    f.amx_int8 = f.avx512vnni && amx && RequestAmxPermission();
#endif
#if defined(TFI_GEMM_NEON) && defined(__linux__)
    // FEAT_DotProd from the kernel's HWCAP (HWCAP_ASIMDDP, bit 20): the auxiliary vector
    // is there in every process, where cpuinfo needs /proc and /sys (which a restricted
    // shell may hide; docs/phones.md).
    constexpr unsigned long kHwcapAsimdDp = 1ul << 20;
    f.neon_dot = (getauxval(AT_HWCAP) & kHwcapAsimdDp) != 0;
#endif
    CapFeatures(std::getenv("TFI_KERNEL_ISA"), &f);
    return f;
  }();
  return features;
}

// FloatOutputStage's residual ADD on a rectangle of C: clamp(c + r) as
// std::min(std::max(v, lo), hi) computes it (for -0 against a bound of +0 too: max_ps and
// min_ps return their second operand on a tie, so the bound goes first), then the PRELU
// where there is one (-0 is not below 0: it stays -0, as the builtin PRELU keeps it).
void AddResidualScalar(const FloatOutputStage& s, float* c, int ldc, int i0, int i1, int j0,
                       int j1) {
  const int jr = std::min(std::max(s.residual_n, j0), j1);
  for (int i = i0; i < i1; ++i) {
    float* ci = c + static_cast<size_t>(i) * ldc;
    const float* ri = s.residual + i * s.residual_ld;
    for (int j = j0; j < jr; ++j) {
      ci[j] = std::min(std::max(ci[j] + ri[j], s.residual_min), s.residual_max);
    }
    for (int j = jr; j < j1; ++j) {
      ci[j] = std::min(std::max(ci[j] + 0.0f, s.residual_min), s.residual_max);
    }
    if (s.residual_prelu != nullptr) {
      // Both sides formed, then a select the compiler vectorizes (a branch on the sign
      // mispredicts half the time).
      for (int j = j0; j < j1; ++j) {
        const float v = ci[j], scaled = v * s.residual_prelu[j];
        ci[j] = v < 0.0f ? scaled : v;
      }
    }
  }
}

#ifdef TFI_GEMM_X86
// Columns [j, to) of one row: c + r (+ 0.0f where r is null), clamped, then the PRELU, 8
// and 4 lanes, then single floats: no masked access, whose span would reach into the next
// row's values and stall the next row's loads behind the store (a 24-channel row took ~40
// cycles with a masked tail, 2-3 without). The PRELU is a blend: a branch on the sign
// mispredicted half the time (on AVX2 CPUs, where this loop was scalar, 2/3 of
// face_landmark's time).
__attribute__((target("avx2"), always_inline)) inline void ResidualSpanAvx2(
    const FloatOutputStage& s, float* ci, const float* r, const float* slope, int j, int to) {
  const __m256 lo8 = _mm256_set1_ps(s.residual_min), hi8 = _mm256_set1_ps(s.residual_max);
  const __m128 lo4 = _mm_set1_ps(s.residual_min), hi4 = _mm_set1_ps(s.residual_max);
  for (; j + 8 <= to; j += 8) {
    __m256 v = _mm256_add_ps(_mm256_loadu_ps(ci + j),
                             r != nullptr ? _mm256_loadu_ps(r + j) : _mm256_setzero_ps());
    v = _mm256_min_ps(hi8, _mm256_max_ps(lo8, v));
    if (slope != nullptr) {
      const __m256 negative = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
      v = _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(slope + j)), negative);
    }
    _mm256_storeu_ps(ci + j, v);
  }
  if (j + 4 <= to) {
    __m128 v =
        _mm_add_ps(_mm_loadu_ps(ci + j), r != nullptr ? _mm_loadu_ps(r + j) : _mm_setzero_ps());
    v = _mm_min_ps(hi4, _mm_max_ps(lo4, v));
    if (slope != nullptr) {
      const __m128 negative = _mm_cmplt_ps(v, _mm_setzero_ps());
      v = _mm_blendv_ps(v, _mm_mul_ps(v, _mm_loadu_ps(slope + j)), negative);
    }
    _mm_storeu_ps(ci + j, v);
    j += 4;
  }
  for (; j < to; ++j) {
    float v =
        std::min(std::max(ci[j] + (r != nullptr ? r[j] : 0.0f), s.residual_min), s.residual_max);
    if (slope != nullptr && v < 0.0f) v *= slope[j];
    ci[j] = v;
  }
}

__attribute__((target("avx2"))) void AddResidualAvx2(const FloatOutputStage& s, float* c, int ldc,
                                                     int i0, int i1, int j0, int j1) {
  const int jr = std::min(std::max(s.residual_n, j0), j1);
  for (int i = i0; i < i1; ++i) {
    float* ci = c + static_cast<size_t>(i) * ldc;
    ResidualSpanAvx2(s, ci, s.residual + i * s.residual_ld, s.residual_prelu, j0, jr);
    ResidualSpanAvx2(s, ci, nullptr, s.residual_prelu, jr, j1);
  }
}

// 16 lanes, then ResidualSpanAvx2's 8, 4 and 1.
__attribute__((target("avx512f"))) void AddResidualAvx512(const FloatOutputStage& s, float* c,
                                                          int ldc, int i0, int i1, int j0, int j1) {
  const int jr = std::min(std::max(s.residual_n, j0), j1);
  const __m512 lo = _mm512_set1_ps(s.residual_min), hi = _mm512_set1_ps(s.residual_max);
  const float* slope = s.residual_prelu;
  for (int i = i0; i < i1; ++i) {
    float* ci = c + static_cast<size_t>(i) * ldc;
    const float* ri = s.residual + i * s.residual_ld;
    // Columns [from, to) plus r, or plus 0.0f where r is null.
    for (int part = 0; part < 2; ++part) {
      const float* r = part == 0 ? ri : nullptr;
      int j = part == 0 ? j0 : jr;
      const int to = part == 0 ? jr : j1;
      for (; j + 16 <= to; j += 16) {
        __m512 v = _mm512_add_ps(_mm512_loadu_ps(ci + j),
                                 r != nullptr ? _mm512_loadu_ps(r + j) : _mm512_setzero_ps());
        v = _mm512_min_ps(hi, _mm512_max_ps(lo, v));
        if (slope != nullptr) {
          const __mmask16 negative = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
          v = _mm512_mask_mul_ps(v, negative, v, _mm512_loadu_ps(slope + j));
        }
        _mm512_storeu_ps(ci + j, v);
      }
      ResidualSpanAvx2(s, ci, r, slope, j, to);
    }
  }
}
#endif

}  // namespace

bool CpuHasAvx2() { return Cpu().avx2; }
bool CpuHasAvx2Fma() { return Cpu().avx2 && Cpu().fma; }
bool CpuHasAvx512F() { return Cpu().avx512f; }
bool CpuHasAvx512Bw() { return Cpu().avx512bw; }
bool CpuIsAmd() { return Cpu().amd; }
bool CpuHasAvx512Vnni() { return Cpu().avx512vnni; }
bool CpuHasAvxVnni() { return Cpu().avxvnni; }
bool CpuHasAmxInt8() { return Cpu().amx_int8; }
bool CpuHasNeonDot() { return Cpu().neon_dot; }

namespace {

void AddResidual(const FloatOutputStage& stage, float* c, int ldc, int i0, int i1, int j0, int j1) {
  if (stage.residual == nullptr || i0 >= i1 || j0 >= j1) return;
  // Whole rows of C and the residual alike: one long row (a 24-channel row is too short for
  // the vector loop to pay for its tails).
  const int64_t flat = static_cast<int64_t>(i1 - i0) * ldc;
  if (i1 - i0 > 1 && j0 == 0 && j1 == ldc && stage.residual_ld == ldc && stage.residual_n >= ldc &&
      stage.residual_prelu == nullptr && flat <= INT32_MAX) {
    FloatOutputStage row = stage.FromRow(i0);
    row.residual_ld = 0;
    row.residual_n = static_cast<int>(flat);
    AddResidual(row, c + static_cast<size_t>(i0) * ldc, 0, 0, 1, 0, static_cast<int>(flat));
    return;
  }
#ifdef TFI_GEMM_X86
  if (CpuHasAvx512F()) {
    AddResidualAvx512(stage, c, ldc, i0, i1, j0, j1);
    return;
  }
  if (CpuHasAvx2()) {
    AddResidualAvx2(stage, c, ldc, i0, i1, j0, j1);
    return;
  }
#endif
  AddResidualScalar(stage, c, ldc, i0, i1, j0, j1);
}

}  // namespace

void FinishBlock(const FloatOutputStage& stage, float* c, int ldc, int i0, int i1, int j0, int j1) {
  if (i0 >= i1 || j0 >= j1) return;
  AddResidual(stage, c, ldc, i0, i1, j0, j1);
  if (!stage.swish) return;
  using vector_math::Function;
  if (j0 == 0 && j1 == ldc) {
    float* rows = c + static_cast<size_t>(i0) * ldc;
    vector_math::Apply(Function::kSwish, rows, static_cast<int64_t>(i1 - i0) * ldc, rows);
    return;
  }
  for (int i = i0; i < i1; ++i) {
    float* row = c + static_cast<size_t>(i) * ldc + j0;
    vector_math::Apply(Function::kSwish, row, j1 - j0, row);
  }
}

// FloatGemm's blocked product: k blocks of kc_max (B's panel block stays in L1 while mc
// rows of A stream by), A's rows from a matrix (image null) or an image's windows, each
// k block then inside one span of the windows (kc_max divides the span).
void FloatBlocks(int m, int n, int k, const float* a, int lda, const ImageWindows<float>* image,
                 const float* packed_b, float* c, int ldc, const FloatOutputStage& stage,
                 pthreadpool* pool, const FloatKernel& kernel, int kc_max) {
  const int mr = kernel.mr;
  const int panels = (n + kNr - 1) / kNr;
  const int span_k = image != nullptr ? k / image->spans.count : k;
  const int mc = std::max(mr, kernel.wide_mr) * 16;
  RunBlocks(
      pool, m, panels, k, mc,
      [&](int m0, int m1, int p0, int p1) {
        // The block's row pointers once (blocks are of at most mc rows), else each tile's.
        const float* block_rows[256];
        const bool cached = image != nullptr && m1 - m0 <= 256;
        if (cached) image->Rows(m0, m1, block_rows);
        for (int pc = 0; pc < k; pc += kc_max) {
          const int kc = std::min(kc_max, k - pc);
          for (int p = p0; p < p1;) {
            // Two panels at a time where the kernel has wide tiles and two are left; a last
            // panel of at most 8 columns on the narrow tiles where the kernel has them.
            const bool wide = kernel.wide_mr > 0 && p + 1 < p1;
            const bool narrow = !wide && kernel.narrow_mr > 0 && n - p * kNr <= kNr / 2;
            FloatTile t;
            const float* rows_of_tile[16];
            t.kc = kc;
            t.lda = lda;
            t.b = packed_b + static_cast<size_t>(p) * k * kNr + static_cast<size_t>(pc) * kNr;
            t.ldc = ldc;
            t.cols = std::min(kNr, n - p * kNr);
            t.first = pc == 0;
            t.last = pc + kc >= k;
            t.bias = stage.bias != nullptr ? stage.bias + p * kNr : nullptr;
            t.min = stage.min;
            t.max = stage.max;
            if (wide) {
              t.b2 = t.b + static_cast<size_t>(k) * kNr;
              t.cols2 = std::min(kNr, n - (p + 1) * kNr);
            }
            // The block's rows in tiles of nearly equal height (64 rows as 11, 11, 11, 11, 10,
            // 10 rather than 12 x 5 + 4): a short last tile has too few accumulators to hide
            // the FMA latency.
            const int rows = wide ? kernel.wide_mr : narrow ? kernel.narrow_mr : mr;
            const int tiles = (m1 - m0 + rows - 1) / rows;
            const int base = (m1 - m0) / tiles, taller = (m1 - m0) % tiles;
            for (int q = 0, i = m0; q < tiles; ++q) {
              const int h = base + (q < taller ? 1 : 0);
              if (image != nullptr) {
                if (cached) {
                  t.rows = block_rows + (i - m0);
                } else {
                  image->Rows(i, i + h, rows_of_tile);
                  t.rows = rows_of_tile;
                }
                t.a_offset = (pc / span_k) * image->spans.stride + pc % span_k;
              } else {
                t.a = a + static_cast<size_t>(i) * lda + pc;
              }
              t.c = c + static_cast<size_t>(i) * ldc + p * kNr;
              if (wide) {
                kernel.wide[h](t);
              } else if (narrow) {
                kernel.narrow[h](t);
              } else {
                kernel.tiles[h](t);
              }
              i += h;
            }
            p += wide ? 2 : 1;
          }
        }
        // The residual ADD while the block is in cache.
        FinishBlock(stage, c, ldc, m0, m1, p0 * kNr, std::min(n, p1 * kNr));
      },
      /*panel_align=*/kernel.wide_mr > 0 ? 2 : 1);
}

void FloatGemm(int m, int n, int k, const float* a, int lda, const float* packed_b, float* c,
               int ldc, const FloatOutputStage& stage, pthreadpool* pool, GemmKernel which,
               int kc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        const float v = stage.bias != nullptr ? stage.bias[j] : 0.0f;
        c[static_cast<size_t>(i) * ldc + j] = std::min(std::max(v, stage.min), stage.max);
      }
    }
    FinishBlock(stage, c, ldc, 0, m, 0, n);
    return;
  }
  if (which == GemmKernel::kTfliteGemmOrder && (n <= kSmallN || m == 1 || n % 8 != 0)) {
    // Channels below n & ~7 on the k-ascending tiles (none for n <= kSmallN), the rest as
    // Eigen sums them; bias and clamp are added there.
    const bool tiles = n > kSmallN && m > 1;
    if (tiles) FloatGemm(m, n & ~7, k, a, lda, packed_b, c, ldc, stage, pool, which, kc);
    TfliteOrderTail(m, n, k, a, lda, packed_b, c, ldc, stage);
    FinishBlock(stage, c, ldc, 0, m, tiles ? n & ~7 : 0, n);
    return;
  }
  const bool tflite_order =
      which == GemmKernel::kTfliteMatMulOrder || which == GemmKernel::kTfliteGemmOrder;
  if (n <= kSmallN && which == GemmKernel::kTfliteMatMulOrder) {
    SmallNTfliteOrder(m, n, k, a, lda, packed_b, c, ldc, stage);
    FinishBlock(stage, c, ldc, 0, m, 0, n);
    return;
  }
  if (n <= kSmallN) {
    SmallNGemm(m, n, k, a, lda, packed_b, c, ldc, stage, pool, which == GemmKernel::kPortable);
    FinishBlock(stage, c, ldc, 0, m, 0, n);
    return;
  }
  const FloatKernel& kernel = SelectFloatKernel(which);
  const int mr = kernel.mr;
  const int panels = (n + kNr - 1) / kNr;
  if (m == 1 && kernel.row != nullptr) {
    RunBlocks(pool, 1, panels, k, 1, [&](int, int, int p0, int p1) {
      FloatRow r;
      r.k = k;
      r.a = a;
      r.b = packed_b + static_cast<size_t>(p0) * k * kNr;
      r.panels = p1 - p0;
      r.last_cols = std::min(kNr, n - (p1 - 1) * kNr);
      r.c = c + p0 * kNr;
      r.bias = stage.bias != nullptr ? stage.bias + p0 * kNr : nullptr;
      r.min = stage.min;
      r.max = stage.max;
      kernel.row(r);
      FinishBlock(stage, c, ldc, 0, 1, p0 * kNr, std::min(n, p1 * kNr));
    });
    return;
  }
  FloatBlocks(m, n, k, a, lda, nullptr, packed_b, c, ldc, stage, pool, kernel,
              tflite_order ? k
              : kc > 0     ? std::min(kc, k)
                           : FloatKc(k));
}

bool FloatGemmImageRuns(int m, int n, int k, int spans, GemmKernel which) {
  if (m < 2 || n < 1 || k <= 0 || spans < 1 || k % spans != 0 ||
      which == GemmKernel::kTfliteMatMulOrder || which == GemmKernel::kTfliteGemmOrder) {
    return false;
  }
  if (n <= kSmallN) return (k / spans) % 8 == 0;
  return (k / spans) % FloatImageKc(k, spans) == 0;
}

int FloatImageKc(int k, int spans) {
  const int kc = FloatKc(k);
  if (k <= 320 || spans < 2 || k % spans != 0) return kc;
  const int span = k / spans;
  if (span % kc == 0) return kc;
  for (int blocks = 1; blocks <= span; ++blocks) {
    // (Below 64 the tiles' loads and stores of C per block would cost more than the copy.)
    if (span % blocks == 0 && span / blocks <= 320) return span / blocks >= 64 ? span / blocks : kc;
  }
  return kc;
}

bool FloatGemmImage(int m, int n, int k, const ImageWindows<float>& image, const float* packed_b,
                    float* c, int ldc, const FloatOutputStage& stage, pthreadpool* pool,
                    GemmKernel which) {
  if (!FloatGemmImageRuns(m, n, k, image.spans.count, which)) return false;
  if (n <= kSmallN) {
    SmallNRun(SmallNWindows{image}, m, n, k, packed_b, c, ldc, stage, pool,
              which == GemmKernel::kPortable);
    FinishBlock(stage, c, ldc, 0, m, 0, n);
    return true;
  }
  FloatBlocks(m, n, k, nullptr, 0, &image, packed_b, c, ldc, stage, pool, SelectFloatKernel(which),
              FloatImageKc(k, image.spans.count));
  return true;
}

void QuantizedGemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                   int8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                   GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

void QuantizedGemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                   uint8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                   GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

void QuantizedGemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                   int16_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                   GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

void QuantizedGemm16x8(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                       int16_t* c, int ldc, const Quantized16x8OutputStage& stage,
                       pthreadpool* pool, GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

void Int32Gemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b, int32_t* c,
               int ldc, pthreadpool* pool, GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, RawStage{}, pool, kernel);
}

void Int16GemmHybrid(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b,
                     const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool,
                     GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

void Int16GemmHybridImage(int m, int n, int k, const Int16Image& image, const int16_t* packed_b,
                          const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool,
                          GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, nullptr, 0, packed_b, c, ldc, stage, pool, kernel, &image);
}

void QuantizedGemmImage(int m, int n, int k, const Int16Image& image, const int16_t* packed_b,
                        int8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                        GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, nullptr, 0, packed_b, c, ldc, stage, pool, kernel, &image);
}

void QuantizedGemmImage(int m, int n, int k, const Int16Image& image, const int16_t* packed_b,
                        uint8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
                        GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, nullptr, 0, packed_b, c, ldc, stage, pool, kernel, &image);
}

void Int64Gemm(int m, int n, int k, const int16_t* a, int lda, const int16_t* packed_b, int64_t* c,
               int ldc, pthreadpool* pool, GemmKernel kernel) {
  QuantizedGemmImpl(m, n, k, a, lda, packed_b, c, ldc, RawStage{}, pool, kernel);
}

}  // namespace gemm
}  // namespace tflite
