#include "kernels/internal/direct_conv_f32.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/internal/avx2_lanes.h"
#include "kernels/internal/im2col.h"
#include "kernels/internal/parallel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_DIRECT_CONV_X86 1
#endif

namespace tflite {
namespace conv_util {
namespace {

constexpr int kNr = gemm::kGemmNr;
// With AVX-512 (where it was tuned); on AVX2 any count within kMaxDepth: there the im2col
// copy of a 3x3 layer of 16-32 channels cost more than its GEMM saved (a U-Net's 128 x 128 x
// 32 -> 16 layer: 2.28 -> 1.64 ms at one thread; ConvLSTM 2.4 -> 1.6 ms).
constexpr int kMaxInC = 4;
constexpr int kMaxFilterW = 11;
constexpr int kMaxStrideW = 4;
constexpr int kMaxDepth = 320;  // gemm.cc's FloatKc: one k block up to here
constexpr int kMaxPixels = 12;  // a tile's pixels
// An edge copy: up to a tile's pixels' windows, each f_w columns of in_c floats for every
// kernel row in the image: pixels * depth floats at most.
constexpr int kMaxStrip = kMaxDepth * kMaxPixels;

// One tile: `pixels` output pixels side by side, one or two panels of kNr channels.
struct Tile {
  const float* a;      // the first pixel's window at the first kernel row in the image
  int64_t lda;         // between pixels: stride_w * in_c
  int64_t row_step;    // between kernel rows
  int rows;            // kernel rows in the image (the others add nothing)
  int k_row;           // f_w * in_c: one kernel row's taps
  const float* b;      // packed panel at that first kernel row
  const float* b2;     // the next panel (same row), or null
  float* c;            // the first pixel's output at the panel's first channel
  int ldc;             // out_c
  int cols, cols2;     // valid channels of the panels
  const float* bias;   // at the panel's first channel, or null
  float min, max;
  bool mul_add;  // each product rounded, then added (TFLite's builtin order)
  bool avx512;   // TileAvx512, else TileAvx2
};

#ifdef TFI_DIRECT_CONV_X86
#define TFI_DC_PIXELS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

// R pixels x P panels. The broadcast of a pixel's input value is an operand of its FMAs
// (the value is read from the input itself); one weight load per panel per tap. kMulAdd:
// a multiply, then an add, instead of each FMA (GemmKernel::kTfliteGemmOrder's sums).
template <int R, int P, bool kMulAdd>
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void TileAvx512(const Tile& t) {
  static_assert(R >= 1 && R <= kMaxPixels && (P == 1 || P == 2), "");
#define TFI_DECL(i) __m512 acc##i = _mm512_setzero_ps(), bcc##i = _mm512_setzero_ps();
  TFI_DC_PIXELS(TFI_DECL)
#undef TFI_DECL
  for (int r = 0; r < t.rows; ++r) {
    const float* a = t.a + r * t.row_step;
    const float* b = t.b + static_cast<int64_t>(r) * t.k_row * kNr;
    const float* b2 = P == 2 ? t.b2 + static_cast<int64_t>(r) * t.k_row * kNr : nullptr;
#define TFI_PTR(i) const float* a##i = a + (i < R ? i : 0) * t.lda;
    TFI_DC_PIXELS(TFI_PTR)
#undef TFI_PTR
    for (int j = 0; j < t.k_row; ++j) {
      const __m512 bv = _mm512_loadu_ps(b + j * kNr);
      const __m512 bw = P == 2 ? _mm512_loadu_ps(b2 + j * kNr) : bv;
#define TFI_STEP(i)                                                                \
  if constexpr (i < R) {                                                           \
    const __m512 av = _mm512_set1_ps(a##i[j]);                                     \
    if constexpr (kMulAdd) {                                                       \
      acc##i = _mm512_add_ps(acc##i, _mm512_mul_ps(av, bv));                       \
      if constexpr (P == 2) bcc##i = _mm512_add_ps(bcc##i, _mm512_mul_ps(av, bw)); \
    } else {                                                                       \
      acc##i = _mm512_fmadd_ps(av, bv, acc##i);                                    \
      if constexpr (P == 2) bcc##i = _mm512_fmadd_ps(av, bw, bcc##i);              \
    }                                                                              \
  }
      TFI_DC_PIXELS(TFI_STEP)
#undef TFI_STEP
    }
  }
  const __mmask16 mask = t.cols >= kNr ? __mmask16(0xffff) : __mmask16((1u << t.cols) - 1u);
  const __mmask16 mask2 =
      t.cols2 >= kNr ? __mmask16(0xffff) : __mmask16((1u << std::max(t.cols2, 0)) - 1u);
  const __m512 bias = t.bias != nullptr ? _mm512_maskz_loadu_ps(mask, t.bias) : _mm512_setzero_ps();
  const __m512 bias2 = P == 2 && t.bias != nullptr ? _mm512_maskz_loadu_ps(mask2, t.bias + kNr)
                                                   : _mm512_setzero_ps();
  const __m512 lo = _mm512_set1_ps(t.min), hi = _mm512_set1_ps(t.max);
  // As the GEMM's tiles: the bias added to the sum, then the clamp (NaN passes).
#define TFI_OUT(i)                                                                     \
  if constexpr (i < R) {                                                               \
    float* c = t.c + static_cast<int64_t>(i) * t.ldc;                                  \
    __m512 v = acc##i;                                                                 \
    if (t.bias != nullptr) v = _mm512_add_ps(v, bias);                                 \
    _mm512_mask_storeu_ps(c, mask, _mm512_min_ps(hi, _mm512_max_ps(lo, v)));           \
    if constexpr (P == 2) {                                                            \
      __m512 w = bcc##i;                                                               \
      if (t.bias != nullptr) w = _mm512_add_ps(w, bias2);                              \
      _mm512_mask_storeu_ps(c + kNr, mask2, _mm512_min_ps(hi, _mm512_max_ps(lo, w)));  \
    }                                                                                  \
  }
  TFI_DC_PIXELS(TFI_OUT)
#undef TFI_OUT
}

// v at c: 8 floats, or its first `valid` lanes.
__attribute__((target("avx2"), always_inline)) inline void StoreAvx2(float* c, __m256 v,
                                                                     int valid) {
  if (valid >= 8) {
    _mm256_storeu_ps(c, v);
  } else if (valid > 0) {
    _mm256_maskstore_ps(c, FirstLanesAvx2(valid), v);
  }
}

// TileAvx512 on AVX2 (no AVX-512: 16 registers of 8 floats): R pixels x one panel of kNr
// channels as H 8-channel halves (H = 1 where the panel holds at most 8 valid channels), so
// R <= 6 with both halves and R <= 12 with one. The same taps in the same order, the same
// output stage: the same bits.
template <int R, int H, bool kMulAdd>
__attribute__((target("avx2,fma"), optimize("fp-contract=off"))) void TileAvx2(const Tile& t) {
  static_assert(R >= 1 && (H == 1 || H == 2) && R * H <= kMaxPixels, "");
#define TFI_DECL(i) __m256 acc##i = _mm256_setzero_ps(), bcc##i = _mm256_setzero_ps();
  TFI_DC_PIXELS(TFI_DECL)
#undef TFI_DECL
  for (int r = 0; r < t.rows; ++r) {
    const float* a = t.a + r * t.row_step;
    const float* b = t.b + static_cast<int64_t>(r) * t.k_row * kNr;
#define TFI_PTR(i) const float* a##i = a + (i < R ? i : 0) * t.lda;
    TFI_DC_PIXELS(TFI_PTR)
#undef TFI_PTR
    for (int j = 0; j < t.k_row; ++j) {
      const __m256 bv = _mm256_loadu_ps(b + j * kNr);
      const __m256 bw = H == 2 ? _mm256_loadu_ps(b + j * kNr + 8) : bv;
#define TFI_STEP(i)                                                                \
  if constexpr (i < R) {                                                           \
    const __m256 av = _mm256_broadcast_ss(a##i + j);                               \
    if constexpr (kMulAdd) {                                                       \
      acc##i = _mm256_add_ps(acc##i, _mm256_mul_ps(av, bv));                       \
      if constexpr (H == 2) bcc##i = _mm256_add_ps(bcc##i, _mm256_mul_ps(av, bw)); \
    } else {                                                                       \
      acc##i = _mm256_fmadd_ps(av, bv, acc##i);                                    \
      if constexpr (H == 2) bcc##i = _mm256_fmadd_ps(av, bw, bcc##i);              \
    }                                                                              \
  }
      TFI_DC_PIXELS(TFI_STEP)
#undef TFI_STEP
    }
  }
  const int cols = std::min(t.cols, 8), cols2 = std::min(t.cols, kNr) - 8;
  const bool bias = t.bias != nullptr;
  const __m256 bias0 = !bias       ? _mm256_setzero_ps()
                       : cols >= 8 ? _mm256_loadu_ps(t.bias)
                                   : _mm256_maskload_ps(t.bias, FirstLanesAvx2(cols));
  const __m256 bias1 = !bias || H == 1 ? _mm256_setzero_ps()
                       : cols2 >= 8    ? _mm256_loadu_ps(t.bias + 8)
                                       : _mm256_maskload_ps(t.bias + 8, FirstLanesAvx2(cols2));
  const __m256 lo = _mm256_set1_ps(t.min), hi = _mm256_set1_ps(t.max);
#define TFI_OUT(i)                                                      \
  if constexpr (i < R) {                                                \
    float* c = t.c + static_cast<int64_t>(i) * t.ldc;                   \
    __m256 v = acc##i;                                                  \
    if (bias) v = _mm256_add_ps(v, bias0);                              \
    StoreAvx2(c, _mm256_min_ps(hi, _mm256_max_ps(lo, v)), cols);        \
    if constexpr (H == 2) {                                             \
      __m256 w = bcc##i;                                                \
      if (bias) w = _mm256_add_ps(w, bias1);                            \
      StoreAvx2(c + 8, _mm256_min_ps(hi, _mm256_max_ps(lo, w)), cols2); \
    }                                                                   \
  }
  TFI_DC_PIXELS(TFI_OUT)
#undef TFI_OUT
#undef TFI_DC_PIXELS
}

// Up to kMaxPixels pixels of one panel (t.b, t.cols) on AVX2.
template <int H, bool M>
void RunPanelAvx2(int pixels, const Tile& t) {
  constexpr int kStep = kMaxPixels / H;
  Tile part = t;
  // Parts of nearly equal width, as RunPixels' tiles.
  const int parts = (pixels + kStep - 1) / kStep;
  for (int q = 0, done = 0; q < parts; ++q) {
    const int n = pixels / parts + (q < pixels % parts ? 1 : 0);
    part.a = t.a + done * t.lda;
    part.c = t.c + static_cast<int64_t>(done) * t.ldc;
    done += n;
    switch (n) {
      case 1:
        TileAvx2<1, H, M>(part);
        break;
      case 2:
        TileAvx2<2, H, M>(part);
        break;
      case 3:
        TileAvx2<3, H, M>(part);
        break;
      case 4:
        TileAvx2<4, H, M>(part);
        break;
      case 5:
        TileAvx2<5, H, M>(part);
        break;
      case 6:
        TileAvx2<6, H, M>(part);
        break;
      default:
        if constexpr (H == 1) {
          switch (n) {
            case 7:
              TileAvx2<7, 1, M>(part);
              break;
            case 8:
              TileAvx2<8, 1, M>(part);
              break;
            case 9:
              TileAvx2<9, 1, M>(part);
              break;
            case 10:
              TileAvx2<10, 1, M>(part);
              break;
            case 11:
              TileAvx2<11, 1, M>(part);
              break;
            default:
              TileAvx2<12, 1, M>(part);
          }
        }
    }
  }
}

template <bool M>
void RunPanelAvx2(int pixels, const Tile& t) {
  if (t.cols > 8) return RunPanelAvx2<2, M>(pixels, t);
  RunPanelAvx2<1, M>(pixels, t);
}

template <int P, bool M>
void RunTileOf(int pixels, const Tile& t) {
  if (!t.avx512) {
    RunPanelAvx2<M>(pixels, t);
    if constexpr (P == 2) {
      Tile second = t;
      second.b = t.b2;
      second.cols = t.cols2;
      second.c = t.c + kNr;
      second.bias = t.bias != nullptr ? t.bias + kNr : nullptr;
      RunPanelAvx2<M>(pixels, second);
    }
    return;
  }
  switch (pixels) {
    case 1:
      return TileAvx512<1, P, M>(t);
    case 2:
      return TileAvx512<2, P, M>(t);
    case 3:
      return TileAvx512<3, P, M>(t);
    case 4:
      return TileAvx512<4, P, M>(t);
    case 5:
      return TileAvx512<5, P, M>(t);
    case 6:
      return TileAvx512<6, P, M>(t);
    case 7:
      return TileAvx512<7, P, M>(t);
    case 8:
      return TileAvx512<8, P, M>(t);
    case 9:
      return TileAvx512<9, P, M>(t);
    case 10:
      return TileAvx512<10, P, M>(t);
    case 11:
      return TileAvx512<11, P, M>(t);
    default:
      return TileAvx512<12, P, M>(t);
  }
}

template <int P>
void RunTile(int pixels, const Tile& t) {
  if (t.mul_add) return RunTileOf<P, true>(pixels, t);
  RunTileOf<P, false>(pixels, t);
}
#else
// Without x86 DirectFloatConvApplies is false; this keeps DirectFloatConv whole (the same
// sums, one tap at a time).
template <int P>
__attribute__((optimize("fp-contract=off"))) void RunTile(int pixels, const Tile& t) {
  for (int i = 0; i < pixels; ++i) {
    for (int p = 0; p < P; ++p) {
      const float* b = p == 0 ? t.b : t.b2;
      const int cols = p == 0 ? t.cols : t.cols2;
      for (int col = 0; col < cols; ++col) {
        float sum = 0.0f;
        for (int r = 0; r < t.rows; ++r) {
          const float* a = t.a + r * t.row_step + i * t.lda;
          const float* w = b + static_cast<int64_t>(r) * t.k_row * kNr + col;
          for (int j = 0; j < t.k_row; ++j) {
            if (t.mul_add) {
              const float product = a[j] * w[j * kNr];
              sum += product;
            } else {
              sum = std::fma(a[j], w[j * kNr], sum);
            }
          }
        }
        if (t.bias != nullptr) sum += t.bias[p * kNr + col];
        t.c[i * t.ldc + p * kNr + col] = std::min(std::max(sum, t.min), t.max);
      }
    }
  }
}
#endif

// Pixels [x0, x1) of one output row, all panels, the window read from `a` (the first
// pixel's window at the first kernel row in the image; the next pixel's lda floats on)
// and `b_row` (that kernel row's offset into each panel).
void RunPixels(const ConvGeometry& g, const gemm::FloatOutputStage& stage,
               const float* packed_filter, int depth, const float* a, int64_t lda, int64_t row_step,
               int rows, int64_t b_row, float* out, int64_t pitch, int x0, int x1, bool mul_add) {
  Tile t;
  t.mul_add = mul_add;
  t.avx512 = gemm::CpuHasAvx512F();
  t.lda = lda;
  t.row_step = row_step;
  t.rows = rows;
  t.k_row = g.f_w * g.in_c;
  t.ldc = static_cast<int>(pitch);
  t.min = stage.min;
  t.max = stage.max;
  const int panels = (g.out_c + kNr - 1) / kNr;
  // Tiles of nearly equal width (30 pixels as 10, 10, 10 rather than 12, 12, 6): a narrow
  // last tile has too few sums to hide the FMA latency.
  const int tiles = (x1 - x0 + kMaxPixels - 1) / kMaxPixels;
  for (int q = 0, x = x0; q < tiles; ++q) {
    const int n = (x1 - x0) / tiles + (q < (x1 - x0) % tiles ? 1 : 0);
    t.a = a + (x - x0) * t.lda;
    for (int p = 0; p < panels; p += 2) {
      t.b = packed_filter + static_cast<int64_t>(p) * kNr * depth + b_row;
      t.c = out + x * pitch + p * kNr;
      t.cols = std::min(kNr, g.out_c - p * kNr);
      t.bias = stage.bias != nullptr ? stage.bias + p * kNr : nullptr;
      if (p + 1 < panels) {
        t.b2 = t.b + static_cast<int64_t>(kNr) * depth;
        t.cols2 = std::min(kNr, g.out_c - (p + 1) * kNr);
        RunTile<2>(n, t);
      } else {
        t.b2 = nullptr;
        t.cols2 = 0;
        RunTile<1>(n, t);
      }
    }
    x += n;
  }
}

// The output columns [lo, hi) whose whole window lies inside the input row; the others are
// the row's edge pixels (all of them where the row is narrower than the filter).
struct Columns {
  int lo, hi;
};
Columns InteriorColumns(const ConvGeometry& g) {
  const int lo = static_cast<int>(
      std::min<int64_t>(g.out_w, (int64_t{g.pad_w} + g.stride_w - 1) / g.stride_w));
  if (g.in_w < g.f_w) return {lo, lo};
  return {lo,
          std::max<int>(lo, static_cast<int>(std::min<int64_t>(
                                g.out_w, (int64_t{g.in_w} - g.f_w + g.pad_w) / g.stride_w + 1)))};
}

// Pixels [px0, px1) of output row `line` (batch * out_h + oy); output pixels `pitch`
// floats apart. Each pixel's sums do not depend on the range (nor on its tiles).
void RunLine(const ConvGeometry& g, const float* input, const float* packed_filter,
             const gemm::FloatOutputStage& stage, float* output, int64_t pitch, size_t line,
             bool mul_add, int px0, int px1) {
  const int batch = static_cast<int>(line / g.out_h);
  const int oy = static_cast<int>(line % g.out_h);
  const int depth = g.f_h * g.f_w * g.in_c;
  const int k_row = g.f_w * g.in_c;
  // Kernel rows [kh0, kh1) fall inside the image. Coordinates in 64 bits: a crafted
  // stride or dilation may be as large as an int.
  const int64_t iy0 = static_cast<int64_t>(oy) * g.stride_h - g.pad_h;
  int kh0 = 0;
  while (kh0 < g.f_h && iy0 + static_cast<int64_t>(kh0) * g.dil_h < 0) ++kh0;
  int kh1 = kh0;
  while (kh1 < g.f_h && iy0 + static_cast<int64_t>(kh1) * g.dil_h < g.in_h) ++kh1;
  const int rows = kh1 - kh0;
  const int64_t in_row = static_cast<int64_t>(g.in_w) * g.in_c;
  const float* image = input + static_cast<int64_t>(batch) * g.in_h * in_row;
  const float* first_row =
      rows > 0 ? image + (iy0 + static_cast<int64_t>(kh0) * g.dil_h) * in_row : image;
  const int64_t b_row = static_cast<int64_t>(kh0) * k_row * kNr;
  float* out = output + static_cast<int64_t>(line) * g.out_w * pitch;

  // Pixels [x_lo, x_hi) have their whole window inside the row (those of the range).
  const Columns inside = InteriorColumns(g);
  const int x_lo = std::min(std::max(inside.lo, px0), px1);
  const int x_hi = std::max(x_lo, std::min(inside.hi, px1));
  const float* interior = rows > 0 && x_lo < x_hi
                             ? first_row + (static_cast<int64_t>(x_lo) * g.stride_w - g.pad_w) * g.in_c
                             : image;  // nothing read from it
  RunPixels(g, stage, packed_filter, depth, interior, static_cast<int64_t>(g.stride_w) * g.in_c,
            static_cast<int64_t>(g.dil_h) * in_row, rows, b_row, out, pitch, x_lo, x_hi, mul_add);
  // The edge pixels, left and right together, up to a tile at a time: each pixel's window
  // copied into a slot of its own (f_w columns, zeros outside the image), the tile's sums
  // into `edge_out`, then to their places. (A tile per side left one or two pixels a tile:
  // one chain of FMAs each, latency-bound: a third of a ConvLSTM's 32-wide rows' time.)
  float strip[kMaxStrip];
  thread_local std::vector<float> edge_out;
  edge_out.resize(static_cast<size_t>(kMaxPixels) * g.out_c);
  const int slot = k_row;  // f_w * in_c
  int xs[kMaxPixels];
  int n = 0;
  auto flush = [&]() {
    if (n == 0) return;
    for (int r = 0; r < rows; ++r) {
      for (int j = 0; j < n; ++j) {
        float* dst = strip + (static_cast<int64_t>(r) * n + j) * slot;
        std::fill(dst, dst + slot, 0.0f);
        const int64_t col0 = static_cast<int64_t>(xs[j]) * g.stride_w - g.pad_w;
        const int64_t from = std::max<int64_t>(col0, 0);
        const int64_t to = std::min<int64_t>(col0 + g.f_w, g.in_w);
        if (to > from) {
          std::memcpy(dst + (from - col0) * g.in_c,
                      first_row + static_cast<int64_t>(r) * g.dil_h * in_row + from * g.in_c,
                      sizeof(float) * (to - from) * g.in_c);
        }
      }
    }
    RunPixels(g, stage, packed_filter, depth, strip, slot, static_cast<int64_t>(n) * slot, rows,
              b_row, edge_out.data(), g.out_c, 0, n, mul_add);
    for (int j = 0; j < n; ++j) {
      std::memcpy(out + xs[j] * pitch, edge_out.data() + static_cast<size_t>(j) * g.out_c,
                  sizeof(float) * g.out_c);
    }
    n = 0;
  };
  for (int x = px0; x < px1; ++x) {
    if (x == x_lo) x = x_hi;
    if (x >= px1) break;
    xs[n++] = x;
    if (n == kMaxPixels) flush();
  }
  flush();
  if (stage.HasEpilogue()) {
    gemm::FinishBlock(stage, output, static_cast<int>(pitch),
                      static_cast<int>(line * g.out_w + px0),
                      static_cast<int>(line * g.out_w + px1), 0, g.out_c);
  }
}

}  // namespace

bool DirectFloatConvApplies(const ConvGeometry& g, gemm::GemmKernel kernel) {
#ifdef TFI_DIRECT_CONV_X86
  const bool pointwise = g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1;
  // TFLite's order: the GEMM's k-ascending 8-channel blocks, which it uses for every output
  // where the product is a matrix product (more than one pixel, 8k channels, not so small
  // that Eigen evaluates it coefficient-wise).
  const int64_t pixels = static_cast<int64_t>(g.batches) * g.out_h * g.out_w;
  const bool tflite_order = kernel == gemm::GemmKernel::kTfliteGemmOrder && g.out_c % 8 == 0 &&
                            pixels > 1 && pixels + g.out_c + g.f_h * g.f_w * g.in_c >= 20;
  return (kernel == gemm::GemmKernel::kAuto || tflite_order) &&
         (gemm::CpuHasAvx512F() || gemm::CpuHasAvx2Fma()) && g.groups == 1 && g.dil_w == 1 &&
         g.in_c >= 1 && (g.in_c <= kMaxInC || !gemm::CpuHasAvx512F()) && g.f_w <= kMaxFilterW &&
         g.stride_w >= 1 && g.stride_w <= kMaxStrideW && g.stride_h >= 1 && g.dil_h >= 1 &&
         g.f_h * g.f_w * g.in_c <= kMaxDepth && g.out_c > gemm::kGemmSmallN && !pointwise;
#else
  (void)g;
  (void)kernel;
  return false;
#endif
}

namespace {

// DirectFloatConv with output pixels `pitch` floats apart (a group's channels among all).
void DirectFloatConvPitch(const ConvGeometry& g, const float* input, const float* packed_filter,
                          const gemm::FloatOutputStage& stage, float* output, int64_t pitch,
                          pthreadpool* pool, gemm::GemmKernel kernel) {
  const size_t lines = static_cast<size_t>(g.batches) * g.out_h;
  const double work = static_cast<double>(lines) * g.out_w * g.f_h * g.f_w * g.in_c * g.out_c;
  const bool mul_add = kernel == gemm::GemmKernel::kTfliteGemmOrder;
  const size_t parts = parallel::RowParts(pool, lines, g.out_w, 2 * kMaxPixels);
  parallel::ParallelFor(pool, lines * parts, work, [&](size_t task) {
    const parallel::Range px = parallel::PartOf(g.out_w, task % parts, parts);
    RunLine(g, input, packed_filter, stage, output, pitch, task / parts, mul_add, px.begin, px.end);
  });
}

}  // namespace

void DirectFloatConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                     const gemm::FloatOutputStage& stage, float* output, pthreadpool* pool,
                     gemm::GemmKernel kernel) {
  DirectFloatConvPitch(g, input, packed_filter, stage, output, g.out_c, pool, kernel);
}

// The rows widened by the convolution's left and right padding (the rows above and below
// the image stay out: RunLine skips their kernel rows, fewer taps than zeros would be).
// Where the copy costs less than the edge tiles it spares: a row's edge pixels are one tile
// of `edges` pixels, edges * min(out_c, 16) / 8 vectors of sums, latency-bound below 8 (4
// cycles an FMA, 2 a cycle): (8 / sums - 1) times those pixels' multiply-adds at 16 a
// cycle spared; the copy about a cycle per 8 floats of the widened image, counted twice
// (an image that leaves the cache costs more: DeepLab's 257 x 257 x 3 first layer was 1.3%
// slower padded). A ConvLSTM's 32 x 32 x 8 layers: their edges were a sixth of its time.
void DirectFloatConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                     const gemm::FloatOutputStage& stage, float* output,
                     std::vector<float>* scratch, pthreadpool* pool, gemm::GemmKernel kernel) {
  ConvGeometry rows_only = g;
  rows_only.pad_h = 0;
  PaddedDotImage p = PadDotGeometry(rows_only);
  p.h = g.in_h;
  const Columns inside = InteriorColumns(g);
  const int64_t edges = int64_t{g.out_w} - (inside.hi - inside.lo);
  const double sums = std::max(1.0, static_cast<double>(edges) * std::min(g.out_c, 16) / 8);
  const double spared = static_cast<double>(edges) * g.out_h * std::max(0.0, 8 / sums - 1) * g.f_h *
                        g.f_w * g.in_c * g.out_c / 16;
  const double copy = static_cast<double>(g.in_h) * p.w * g.in_c / 8;
  if (g.pad_w < 0 || g.pad_h < 0 || edges <= 0 || spared < 2 * copy) {
    DirectFloatConvPitch(g, input, packed_filter, stage, output, g.out_c, pool, kernel);
    return;
  }
  scratch->resize(p.bytes(g));
  PadFloatImage(rows_only, p, input, scratch->data(), pool);
  ConvGeometry sub = g;
  sub.in_w = p.w;
  sub.pad_w = 0;
  DirectFloatConvPitch(sub, scratch->data(), packed_filter, stage, output, g.out_c, pool, kernel);
}

namespace {

// n floats, in constant-size copies for a group's usual widths (a memcpy call per pixel
// and group was a tenth of a ResNeXt's time).
inline void CopyFloats(float* dst, const float* src, int n) {
  switch (n) {
    case 4:
      std::memcpy(dst, src, 4 * sizeof(float));
      return;
    case 8:
      std::memcpy(dst, src, 8 * sizeof(float));
      return;
    case 16:
      std::memcpy(dst, src, 16 * sizeof(float));
      return;
    default:
      std::memcpy(dst, src, sizeof(float) * n);
  }
}

// One group's convolution: its channels as an image of their own.
ConvGeometry GroupGeometry(const ConvGeometry& g) {
  ConvGeometry sub = g;
  sub.in_c = g.f_c;
  sub.out_c = g.group_out_c;
  sub.groups = 1;
  return sub;
}

// `pixels` runs of `c` floats `stride` apart from src to dst, back to back; the common
// group widths with the copy's size constant (a width switch per pixel was 17% of a
// grouped layer).
template <int kC>
inline void GatherRuns(float* dst, const float* src, int pixels, int stride) {
  for (int x = 0; x < pixels; ++x) std::memcpy(dst + x * kC, src + x * stride, kC * sizeof(float));
}
inline void GatherPixels(float* dst, const float* src, int pixels, int c, int stride) {
  switch (c) {
    case 4:
      return GatherRuns<4>(dst, src, pixels, stride);
    case 8:
      return GatherRuns<8>(dst, src, pixels, stride);
    case 16:
      return GatherRuns<16>(dst, src, pixels, stride);
    default:
      for (int x = 0; x < pixels; ++x) CopyFloats(dst + x * c, src + x * stride, c);
  }
}

// A group's convolution over its zero-padded image (PadDotGeometry's p.h x p.w, the image
// at row pad_h, column pad_w): no padding left, so no window crosses an edge.
ConvGeometry PaddedGroupGeometry(const ConvGeometry& g) {
  ConvGeometry sub = GroupGeometry(g);
  const PaddedDotImage p = PadDotGeometry(g);
  sub.in_h = p.h;
  sub.in_w = p.w;
  sub.pad_h = sub.pad_w = 0;
  return sub;
}

}  // namespace

bool GroupedDirectFloatConvApplies(const ConvGeometry& g, gemm::GemmKernel kernel) {
  return g.groups > 1 && g.f_c >= 1 && g.group_out_c >= 1 && g.pad_h >= 0 && g.pad_w >= 0 &&
         static_cast<int64_t>(g.f_c) * g.groups == g.in_c &&
         static_cast<int64_t>(g.group_out_c) * g.groups == g.out_c &&
         DirectFloatConvApplies(GroupGeometry(g), kernel) &&
         DirectFloatConvApplies(PaddedGroupGeometry(g), kernel);
}

// The groups' images gathered with the convolution's zero padding around them (one pass
// that writes the padding too), so that every output pixel takes the kernel's interior
// tiles: the edge pixels' one- and two-pixel tiles were a sixth of ResNeXt's 32 x 32
// layer (8 groups of 8 channels). Zero taps add +-0 to sums that are never -0: the sums
// of the windows that skip them.
void GroupedDirectFloatConv(const ConvGeometry& g, const float* input,
                            const float* const* packed_groups, const gemm::FloatOutputStage& stage,
                            float* output, std::vector<float>* scratch, pthreadpool* pool,
                            gemm::GemmKernel kernel) {
  const ConvGeometry sub = PaddedGroupGeometry(g);
  const size_t rows = static_cast<size_t>(g.batches) * sub.in_h;
  const size_t row_values = static_cast<size_t>(sub.in_w) * g.f_c;
  const size_t in_group = rows * row_values;
  scratch->resize(in_group * g.groups);
  float* images = scratch->data();
  const size_t left = static_cast<size_t>(g.pad_w) * g.f_c;
  const size_t inside = static_cast<size_t>(g.in_w) * g.f_c;
  parallel::ParallelFor(pool, rows, static_cast<double>(rows) * sub.in_w * g.in_c, [&](size_t r) {
    const size_t b = r / sub.in_h;
    const int iy = static_cast<int>(r % sub.in_h) - g.pad_h;
    for (int j = 0; j < g.groups; ++j) {
      float* dst = images + j * in_group + r * row_values;
      if (iy < 0 || iy >= g.in_h) {
        std::fill(dst, dst + row_values, 0.0f);
        continue;
      }
      std::fill(dst, dst + left, 0.0f);
      const float* src = input + ((b * g.in_h + iy) * g.in_w) * g.in_c + j * g.f_c;
      GatherPixels(dst + left, src, g.in_w, g.f_c, g.in_c);
      std::fill(dst + left + inside, dst + row_values, 0.0f);
    }
  });
  // Each group's output rows straight into its channels, every group's rows in one pass
  // over the pool (a pass per group waited on the pool once per group).
  const size_t lines = static_cast<size_t>(g.batches) * g.out_h;
  const double work = static_cast<double>(lines) * g.out_w * g.f_h * g.f_w * g.f_c * g.out_c;
  const bool mul_add = kernel == gemm::GemmKernel::kTfliteGemmOrder;
  parallel::ParallelFor(pool, lines * g.groups, work, [&](size_t task) {
    const size_t j = task / lines, line = task % lines;
    gemm::FloatOutputStage group_stage = stage;  // (a copy on the stack: no allocation per run)
    if (stage.bias != nullptr) group_stage.bias = stage.bias + j * g.group_out_c;
    RunLine(sub, images + j * in_group, packed_groups[j], group_stage, output + j * g.group_out_c,
            g.out_c, line, mul_add, 0, sub.out_w);
  });
}

}  // namespace conv_util
}  // namespace tflite
