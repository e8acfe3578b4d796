// The 8-bit dot-product GEMM (gemm.h: DotGemm): uint8 activations x packed int8 weights,
// int32 sums with vpdpbusd, TFLite's double-rounding output stage.
//
// Tiles: AMX-INT8 (tdpbusd on 16x64 tiles, 32 x 32 outputs per step), AVX-512 VNNI, 8 rows x 32 columns (two panels) in 16 zmm accumulators, one
// weight load per panel and one broadcast per row for every 4 k, output stage on 16
// lanes (requant::OutputStage16) with masked narrowing stores; AVX-VNNI (256-bit), 6 rows
// x 16 columns in 12 ymm accumulators, output stage on 8 lanes; AArch64 SDOT, 4 rows x 16
// columns in 16 accumulators, output stage on 4 lanes (requant::OutputStage4); AVX2
// without dot products, 4 rows x 16 columns, each vpdpbusd as two vpmaddwd; a portable
// loop over the same layout.
#include <pthreadpool.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/dot_input_span.h"
#include "kernels/internal/gemm_blocks.h"
#include "kernels/internal/requantize.h"
#include "tensorflow/lite/kernels/internal/common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_DOT_X86 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define TFI_DOT_ARM 1
#endif

namespace tflite {
namespace gemm {
namespace {

constexpr int kNr = kGemmNr;
constexpr int kGroupBytes = 4 * kNr;  // 4 k of one panel

// The output of one sum: int8 through the stage, or (DotGemmRaw) the sum plus the bias.
inline int8_t Finish(int32_t acc, int col, const QuantizedOutputStage& s, int8_t*) {
  return static_cast<int8_t>(requant::StageValue(acc, col, s));
}
inline int32_t Finish(int32_t acc, int col, const QuantizedOutputStage& s, int32_t*) {
  return s.bias != nullptr ? WrappingAdd(acc, s.bias[col]) : acc;
}

// Rows [0, rows) x columns [0, cols) of one panel; c and col0 at the panel's first column.
template <typename OutT>
void PortableTile(int rows, int groups, const uint8_t* a, size_t lda, const int8_t* b, OutT* c,
                  size_t ldc, int cols, const QuantizedOutputStage& s, int col0) {
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      uint32_t acc = 0;  // wraps as the reference's int32 sums
      for (int g = 0; g < groups; ++g) {
        for (int q = 0; q < 4; ++q) {
          acc += static_cast<uint32_t>(a[i * lda + 4 * g + q] * b[g * kGroupBytes + 4 * j + q]);
        }
      }
      c[i * ldc + j] = Finish(static_cast<int32_t>(acc), col0 + j, s, c);
    }
  }
}

#ifdef TFI_DOT_X86
#define TFI_DOT512_TARGET "avx512f,avx512bw,avx512vl,avx512vnni"

// The first n of 16 lanes (all for n >= 16, none for n <= 0).
inline __mmask16 Mask16(int n) {
  return n >= kNr ? __mmask16(0xFFFF)
         : n <= 0 ? __mmask16(0)
                  : static_cast<__mmask16>((1u << n) - 1);
}

// The output stage of 16 columns [at, at + 16) (mask: the valid ones), per row.
struct Stage16 {
  requant::Avx512Channels ch;
  __m512i multiplier, shift, bias, offset, lo, hi;
  __m512 scale, flo, fhi;  // float_scale stages
  __mmask16 mask;
  bool single_rounding, fp32;
};

// raw: DotGemmRaw's (only the bias is read).
// biased: the sums include the bias already (the AVX-512 tile's start), so it adds 0.
__attribute__((target(TFI_DOT512_TARGET))) inline Stage16 LoadStage16(const QuantizedOutputStage& s,
                                                                      int at, int n,
                                                                      bool raw = false,
                                                                      bool biased = false) {
  Stage16 t;
  t.mask = Mask16(n);
  t.bias = s.bias != nullptr && !biased ? _mm512_maskz_loadu_epi32(t.mask, s.bias + at)
                                        : _mm512_setzero_si512();
  t.single_rounding = s.single_rounding;
  t.fp32 = s.float_scale != nullptr;
  if (raw) return t;
  if (t.fp32) {
    t.scale = _mm512_maskz_loadu_ps(t.mask, s.float_scale + at);
    t.flo = _mm512_set1_ps(static_cast<float>(s.act_min - s.output_offset));
    t.fhi = _mm512_set1_ps(static_cast<float>(s.act_max - s.output_offset));
  } else {
    t.multiplier = _mm512_maskz_loadu_epi32(t.mask, s.multiplier + at);
    t.shift = _mm512_maskz_loadu_epi32(t.mask, s.shift + at);
    if (!s.single_rounding) t.ch = requant::MakeChannels16(t.multiplier, t.shift);
  }
  t.offset = _mm512_set1_epi32(s.output_offset);
  t.lo = _mm512_set1_epi32(s.act_min);
  t.hi = _mm512_set1_epi32(s.act_max);
  return t;
}

// requant::StageValue on 16 lanes, stored as int8 to out[0, 16) under the mask.
__attribute__((target(TFI_DOT512_TARGET), always_inline)) inline void Store16(const Stage16& t,
                                                                             __m512i acc,
                                                                             int8_t* out) {
  __m512i v;
  if (t.fp32) {  // vcvtps2dq rounds to nearest even (the default MXCSR mode)
    const __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(acc, t.bias)), t.scale);
    v = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f, t.flo), t.fhi)),
                         t.offset);
  } else if (t.single_rounding) {
    v = requant::SingleRoundingMultiply16(_mm512_add_epi32(acc, t.bias), t.multiplier, t.shift);
    v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, t.offset), t.lo), t.hi);
  } else {
    v = requant::OutputStage16(acc, t.bias, t.ch, t.offset, t.lo, t.hi);
  }
  _mm512_mask_cvtsepi32_storeu_epi8(out, t.mask, v);
}
__attribute__((target(TFI_DOT512_TARGET), always_inline)) inline void Store16(const Stage16& t,
                                                                             __m512i acc,
                                                                             int32_t* out) {
  _mm512_mask_storeu_epi32(out, t.mask, _mm512_add_epi32(acc, t.bias));
}
// A hybrid layer's float stage (HybridOutputStage) of 16 columns, per row: the VNNI tiles'
// and the AMX blocks' (AmxHybridStore) epilogue. The _round_ forms with the current
// rounding are plain multiplies and adds that the compiler does not contract into FMA:
// each product rounded alone, as the hybrid kernels' loops.
struct HybridStage16 {
  __m512i dot_bias, col;
  __m512 unit, bias, lo, hi;
  __mmask16 mask;
};
__attribute__((target(TFI_DOT512_TARGET))) inline HybridStage16 LoadHybridStage16(
    const HybridOutputStage& s, int at, int n, bool biased = false) {
  HybridStage16 t;
  t.mask = Mask16(n);
  t.dot_bias = s.dot_bias != nullptr && !biased ? _mm512_maskz_loadu_epi32(t.mask, s.dot_bias + at)
                                                : _mm512_setzero_si512();
  t.col = s.col_sums != nullptr ? _mm512_maskz_loadu_epi32(t.mask, s.col_sums + at)
                                : _mm512_setzero_si512();
  t.unit = _mm512_maskz_loadu_ps(t.mask, s.unit_scale + at);
  t.bias = s.bias != nullptr ? _mm512_maskz_loadu_ps(t.mask, s.bias + at) : _mm512_setzero_ps();
  t.lo = _mm512_set1_ps(s.act_min);
  t.hi = _mm512_set1_ps(s.act_max);
  return t;
}
__attribute__((target(TFI_DOT512_TARGET), always_inline)) inline void HybridStore16(
    const HybridStage16& t, const HybridOutputStage& s, int row, __m512i acc, float* out) {
  constexpr int kRound = _MM_FROUND_CUR_DIRECTION;
  __m512i d = _mm512_add_epi32(acc, t.dot_bias);
  if (s.col_sums != nullptr) {
    d = _mm512_sub_epi32(d, _mm512_mullo_epi32(_mm512_set1_epi32(s.row_offset[row]), t.col));
  }
  const __m512 scale = _mm512_mul_round_ps(_mm512_set1_ps(s.row_scale[row]), t.unit, kRound);
  const __m512 v =
      _mm512_add_round_ps(t.bias, _mm512_mul_round_ps(_mm512_cvtepi32_ps(d), scale, kRound), kRound);
  _mm512_mask_storeu_ps(out, t.mask, _mm512_min_ps(t.hi, _mm512_max_ps(t.lo, v)));
}

#define TFI_DOT512_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
constexpr int kDot512Mr = 8;

// R rows x P panels (P = 1 or 2; the second panel panel_bytes after the first); cols: the
// valid columns of the P panels together. Accumulators in named variables (see gemm.cc).
// Row i of A at rows[i]; its k values in `spans.count` equal spans, span t at t *
// spans.stride bytes from the row's start (DotGemmImage); one span of all groups otherwise.
template <int R, int P, typename OutT>
__attribute__((target(TFI_DOT512_TARGET))) void Avx512DotTile(
    int groups, const uint8_t* const* rows, const int8_t* b, size_t panel_bytes, OutT* c,
    size_t ldc, int cols, const QuantizedOutputStage& s, int col0, const HybridOutputStage* h,
    int row0, const DotSpans& spans) {
  static_assert(R >= 1 && R <= kDot512Mr && (P == 1 || P == 2), "");
  // The sums start at the column's bias (int32 sums wrap, so the order does not matter):
  // one add less per 16 outputs in the output stage, which small depths feel.
  const int32_t* start = std::is_same_v<OutT, float> ? h->dot_bias : s.bias;
  const int n0 = std::min(kNr, cols), n1 = std::min(kNr, cols - kNr);
  const __m512i start0 = start != nullptr ? _mm512_maskz_loadu_epi32(Mask16(n0), start + col0)
                                          : _mm512_setzero_si512();
  const __m512i start1 = P > 1 && start != nullptr && n1 > 0
                             ? _mm512_maskz_loadu_epi32(Mask16(n1), start + col0 + kNr)
                             : _mm512_setzero_si512();
#define TFI_DECL(i) __m512i acc##i##0 = start0, acc##i##1 = start1;
  TFI_DOT512_ROWS(TFI_DECL)
#undef TFI_DECL
  const int span_groups = groups / spans.count;
  // Rows as offsets from row 0: one pointer advances in the loop below and the loads index
  // from it (eight pointers advancing cost eight adds a step; small depths felt them).
#define TFI_ROW(i) const ptrdiff_t d##i = rows[i < R ? i : 0] - rows[0];
  TFI_DOT512_ROWS(TFI_ROW)
#undef TFI_ROW
  for (int t = 0; t < spans.count; ++t) {
    const uint8_t* a = rows[0] + t * spans.stride;
    const int8_t* b0 = b + static_cast<size_t>(t) * span_groups * kGroupBytes;
    const int8_t* b1 = b0 + panel_bytes;
    for (int g = 0; g < span_groups; ++g) {
      const __m512i w0 = _mm512_loadu_si512(b0 + g * kGroupBytes);
      const __m512i w1 = P > 1 ? _mm512_loadu_si512(b1 + g * kGroupBytes) : w0;
#define TFI_STEP(i)                                                          \
  if constexpr (i < R) {                                                     \
    int32_t quad;                                                            \
    std::memcpy(&quad, a + d##i + 4 * g, sizeof quad);                       \
    const __m512i av = _mm512_set1_epi32(quad);                              \
    acc##i##0 = _mm512_dpbusd_epi32(acc##i##0, av, w0);                      \
    if constexpr (P > 1) acc##i##1 = _mm512_dpbusd_epi32(acc##i##1, av, w1); \
  }
      TFI_DOT512_ROWS(TFI_STEP)
#undef TFI_STEP
    }
  }
  for (int q = 0; q < P; ++q) {
    const int n = std::min(kNr, cols - q * kNr);
    if (n <= 0) break;
    if constexpr (std::is_same_v<OutT, float>) {
      const HybridStage16 st = LoadHybridStage16(*h, col0 + q * kNr, n, /*biased=*/true);
#define TFI_OUT(i)                                                                        \
  if constexpr (i < R) {                                                                  \
    HybridStore16(st, *h, row0 + i, q == 0 ? acc##i##0 : acc##i##1, c + i * ldc + q * kNr); \
  }
      TFI_DOT512_ROWS(TFI_OUT)
#undef TFI_OUT
    } else {
      const Stage16 st = LoadStage16(s, col0 + q * kNr, n, sizeof(OutT) == 4, /*biased=*/true);
#define TFI_OUT(i) \
  if constexpr (i < R) Store16(st, q == 0 ? acc##i##0 : acc##i##1, c + i * ldc + q * kNr);
      TFI_DOT512_ROWS(TFI_OUT)
#undef TFI_OUT
    }
  }
}

// XNNPACK's fp32 stage (requant::StageValue's operations) on 8 lanes.
__attribute__((target("avx2"), always_inline)) inline __m256i Fp32Stage8(
    __m256i acc, const int32_t* bias, const float* scale, __m256 flo, __m256 fhi,
    __m256i offset) {
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias));
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(acc, b)), _mm256_loadu_ps(scale));
  f = _mm256_min_ps(_mm256_max_ps(f, flo), fhi);
  return _mm256_add_epi32(_mm256_cvtps_epi32(f), offset);
}

#define TFI_DOT256_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
constexpr int kDot256Mr = 6;
// The AVX2 tile's rows: its sums take two multiply-adds, so it holds the weights split
// into even and odd bytes (4 ymm) beside 8 accumulators.
#define TFI_DOT_AVX2_ROWS(X) X(0) X(1) X(2) X(3)
constexpr int kDotAvx2Mr = 4;

// The 256-bit tiles' output: R rows of 16 sums (acc[i][0] columns 0-7, acc[i][1] 8-15).
template <int R, typename OutT>
__attribute__((target("avx2"), always_inline)) inline void StoreDot256(
    const __m256i (&acc)[kDot256Mr][2], OutT* c, size_t ldc, int cols,
    const QuantizedOutputStage& s, int col0) {
  if constexpr (sizeof(OutT) == 1) {
    if (s.float_scale != nullptr) {
      // XNNPACK's fp32 stage on 8 lanes. A whole panel reads the scales and biases in
      // place and stores 16 bytes a row; a partial one goes through zero-padded copies (a
      // libc memcpy of a run-time size took 7% of a small MobileNetV2 at 4-56 channels).
      static constexpr int32_t kNoBias[kNr] = {};
      float scale_pad[kNr] = {};
      int32_t bias_pad[kNr] = {};
      const bool whole = cols == kNr;
      const float* scale = s.float_scale + col0;
      const int32_t* bias = s.bias != nullptr ? s.bias + col0 : kNoBias;
      if (!whole) {
        std::memcpy(scale_pad, scale, sizeof(float) * cols);
        if (s.bias != nullptr) std::memcpy(bias_pad, bias, sizeof(int32_t) * cols);
        scale = scale_pad;
        bias = bias_pad;
      }
      const __m256 flo = _mm256_set1_ps(static_cast<float>(s.act_min - s.output_offset));
      const __m256 fhi = _mm256_set1_ps(static_cast<float>(s.act_max - s.output_offset));
      const __m256i offset = _mm256_set1_epi32(s.output_offset);
#define TFI_OUT(i)                                                                      \
  if constexpr (i < R) {                                                                \
    const __m128i bytes =                                                               \
        requant::Narrow16(Fp32Stage8(acc[i][0], bias, scale, flo, fhi, offset),         \
                          Fp32Stage8(acc[i][1], bias + 8, scale + 8, flo, fhi, offset), \
                          static_cast<int8_t*>(nullptr));                               \
    if (whole) {                                                                        \
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c + i * ldc), bytes);                 \
    } else {                                                                            \
      int8_t tmp[kNr];                                                                  \
      std::memcpy(tmp, &bytes, sizeof tmp);                                             \
      std::memcpy(c + i * ldc, tmp, static_cast<size_t>(cols));                         \
    }                                                                                   \
  }
      TFI_DOT256_ROWS(TFI_OUT)
#undef TFI_OUT
      return;
    }
    if (!s.single_rounding) {  // the double-rounding stage on 8 AVX2 lanes
      QuantizedOutputStage at = s;
      at.multiplier += col0;
      at.shift += col0;
      if (at.bias != nullptr) at.bias += col0;
      int32_t sums[kNr];
#define TFI_OUT(i)                                                        \
  if constexpr (i < R) {                                                  \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums), acc[i][0]);     \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums + 8), acc[i][1]); \
    requant::OutputStageRow(sums, cols, at, c + i * ldc);                 \
  }
      TFI_DOT256_ROWS(TFI_OUT)
#undef TFI_OUT
      return;
    }
  }
  // DotGemmRaw's sums, and the single-rounding stage: value by value.
  int32_t sums[kNr];
#define TFI_OUT(i)                                                                   \
  if constexpr (i < R) {                                                             \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums), acc[i][0]);                \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums + 8), acc[i][1]);            \
    for (int j = 0; j < cols; ++j) c[i * ldc + j] = Finish(sums[j], col0 + j, s, c); \
  }
  TFI_DOT256_ROWS(TFI_OUT)
#undef TFI_OUT
}

// R rows x one panel (two ymm per row).
template <int R, typename OutT>
__attribute__((target("avx2,avxvnni"))) void AvxVnniDotTile(int groups, const uint8_t* a,
                                                            size_t lda, const int8_t* b, OutT* c,
                                                            size_t ldc, int cols,
                                                            const QuantizedOutputStage& s,
                                                            int col0) {
  static_assert(R >= 1 && R <= kDot256Mr, "");
  __m256i acc[kDot256Mr][2];
#define TFI_DECL(i)                               \
  acc[i][0] = acc[i][1] = _mm256_setzero_si256(); \
  const uint8_t* a##i = a + static_cast<size_t>(i < R ? i : 0) * lda;
  TFI_DOT256_ROWS(TFI_DECL)
#undef TFI_DECL
  for (int g = 0; g < groups; ++g) {
    const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + g * kGroupBytes));
    const __m256i w1 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + g * kGroupBytes + 32));
#define TFI_STEP(i)                                         \
  if constexpr (i < R) {                                    \
    int32_t quad;                                           \
    std::memcpy(&quad, a##i + 4 * g, sizeof quad);          \
    const __m256i av = _mm256_set1_epi32(quad);             \
    acc[i][0] = _mm256_dpbusd_avx_epi32(acc[i][0], av, w0); \
    acc[i][1] = _mm256_dpbusd_avx_epi32(acc[i][1], av, w1); \
  }
    TFI_DOT256_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  StoreDot256<R, OutT>(acc, c, ldc, cols, s, col0);
}

// The same sums without dot-product instructions (AVX2 only): each int32 lane's four
// uint8 x int8 products as two vpmaddwd on int16 halves, the even bytes (zero- and
// sign-extended in place) and the odd ones (shifted down), exact (|a * w| <= 255 * 128,
// so no lane saturates as vpmaddubsw's would).
template <int R, typename OutT>
__attribute__((target("avx2"))) void Avx2DotTile(int groups, const uint8_t* a, size_t lda,
                                                 const int8_t* b, OutT* c, size_t ldc, int cols,
                                                 const QuantizedOutputStage& s, int col0) {
  static_assert(R >= 1 && R <= kDotAvx2Mr, "");
  __m256i acc[kDot256Mr][2];
  const __m256i low_bytes = _mm256_set1_epi16(0x00FF);
#define TFI_DECL(i)                               \
  acc[i][0] = acc[i][1] = _mm256_setzero_si256(); \
  const uint8_t* a##i = a + static_cast<size_t>(i < R ? i : 0) * lda;
  TFI_DOT_AVX2_ROWS(TFI_DECL)
#undef TFI_DECL
  for (int g = 0; g < groups; ++g) {
    const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + g * kGroupBytes));
    const __m256i w1 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + g * kGroupBytes + 32));
    const __m256i w0_even = _mm256_srai_epi16(_mm256_slli_epi16(w0, 8), 8);
    const __m256i w0_odd = _mm256_srai_epi16(w0, 8);
    const __m256i w1_even = _mm256_srai_epi16(_mm256_slli_epi16(w1, 8), 8);
    const __m256i w1_odd = _mm256_srai_epi16(w1, 8);
#define TFI_STEP(i)                                                                           \
  if constexpr (i < R) {                                                                      \
    int32_t quad;                                                                             \
    std::memcpy(&quad, a##i + 4 * g, sizeof quad);                                            \
    const __m256i av = _mm256_set1_epi32(quad);                                               \
    const __m256i a_even = _mm256_and_si256(av, low_bytes), a_odd = _mm256_srli_epi16(av, 8); \
    acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(a_even, w0_even));              \
    acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(a_even, w1_even));              \
    acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(a_odd, w0_odd));                \
    acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(a_odd, w1_odd));                \
  }
    TFI_DOT_AVX2_ROWS(TFI_STEP)
#undef TFI_STEP
  }
  StoreDot256<R, OutT>(acc, c, ldc, cols, s, col0);
}
#endif  // TFI_DOT_X86

#ifdef TFI_DOT_X86
// --- AMX: 32 rows x 32 columns per step in four 16x16 int32 tiles ---------------------
// Tiles 0-3 accumulate C (rows 0-15 / 16-31 x panel p / p + 1), 4-5 hold A (16 rows x 64
// k), 6-7 B (64 k x 16 columns: 16 groups of a panel, which is why AMX panels are 64 k
// deep). A's rows are copied, zero-padded to the panel depth, into a per-thread buffer
// (which the tile loads read faster than the caller's rows: measured); the
// sums go through a 32x32 int32 buffer into the AVX-512 output stage.
#define TFI_AMX_TARGET "amx-tile,amx-int8,avx512f,avx512bw,avx512vl,avx512vnni"
constexpr int kAmxRows = 32;

struct alignas(64) AmxTileConfig {
  uint8_t palette;
  uint8_t start_row;
  uint8_t reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
};

// The hybrid layers' rescale of 32 x 32 sums (rows i.., columns col0..; rows and cols the
// valid ones) into float (HybridOutputStage), 16 columns at a time (HybridStore16).
__attribute__((target(TFI_AMX_TARGET), always_inline)) inline void AmxHybridStore(
    const HybridOutputStage& s, int i, int rows, int col0, int cols,
    const int32_t (*cbuf)[2 * kNr], float* c, size_t ldc) {
  for (int q = 0; q * kNr < cols; ++q) {
    const int at = col0 + q * kNr;
    const HybridStage16 st = LoadHybridStage16(s, at, cols - q * kNr);
    for (int r = 0; r < rows; ++r) {
      HybridStore16(st, s, i + r, _mm512_load_si512(&cbuf[r][q * kNr]), c + (i + r) * ldc + at);
    }
  }
}

// OutT int8 / int32: the quantized stage s (DotGemm, DotGemmRaw); float: the hybrid
// stage h (DotGemmHybrid).
template <typename OutT>
__attribute__((target(TFI_AMX_TARGET))) void AmxBlock(int m0, int m1, int p0, int p1, int n,
                                                      int k, const uint8_t* a, size_t lda,
                                                      const int8_t* packed_b, size_t panel_bytes,
                                                      OutT* c, size_t ldc,
                                                      const QuantizedOutputStage& s,
                                                      const HybridOutputStage* h = nullptr,
                                                      uint8_t a_flip = 0,
                                                      const DotRows* gather = nullptr) {
  AmxTileConfig cfg{};
  cfg.palette = 1;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = 64;
    cfg.rows[t] = 16;
  }
  _tile_loadconfig(&cfg);
  const int depth = DotPanelDepth(k);
  const int chunks = depth / 64;
  // Rows one cache line longer than the depth: at a power-of-two stride the 16 rows of
  // an A tile would fall into a few L1 sets and evict each other.
  const int astride = depth + 64;
  // The rows' copy: per thread, grown to the largest depth seen (so no size limit).
  thread_local std::vector<uint8_t> abuf_storage;
  const size_t abuf_bytes = static_cast<size_t>(kAmxRows) * astride + 64;
  if (abuf_storage.size() < abuf_bytes) abuf_storage.resize(abuf_bytes);
  uint8_t* const abuf = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(abuf_storage.data()) + 63) & ~uintptr_t{63});
  alignas(64) int32_t cbuf[kAmxRows][2 * kNr];
  for (int i = m0; i < m1; i += kAmxRows) {
    const int rows = std::min(kAmxRows, m1 - i);
    if (gather != nullptr) {
      // Rows past the block's keep what they held (their sums are not stored).
      gather->fill(gather->ctx, static_cast<size_t>(i), rows, abuf, static_cast<size_t>(astride));
    } else if (a_flip != 0) {
      // int8 rows (DotGemmSigned): converted to the uint8 domain on this copy, 64 bytes a
      // step; past k (and rows past the block's) any value, as B's depth there is zero.
      const __m512i flip = _mm512_set1_epi8(static_cast<char>(a_flip));
      for (int r = 0; r < kAmxRows; ++r) {
        uint8_t* dst = abuf + static_cast<size_t>(r) * astride;
        const uint8_t* src = r < rows ? a + (i + r) * lda : a;
        for (int ch = 0; ch < chunks; ++ch) {
          const int left = r < rows ? k - ch * 64 : 0;
          const __mmask64 mask = left >= 64 ? ~__mmask64{0}
                                            : left > 0 ? (__mmask64{1} << left) - 1 : __mmask64{0};
          _mm512_store_si512(dst + ch * 64,
                             _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, src + ch * 64), flip));
        }
      }
    } else {
      for (int r = 0; r < kAmxRows; ++r) {
        uint8_t* dst = abuf + static_cast<size_t>(r) * astride;
        if (r < rows) {
          std::memcpy(dst, a + (i + r) * lda, k);
          std::memset(dst + k, 0, depth - k);
        } else {
          std::memset(dst, 0, depth);
        }
      }
    }
    for (int p = p0; p < p1; p += 2) {
      const int8_t* b0 = packed_b + p * panel_bytes;
      const bool pair = p + 1 < p1;
      const int8_t* b1 = pair ? b0 + panel_bytes : b0;
      _tile_zero(0);
      _tile_zero(1);
      _tile_zero(2);
      _tile_zero(3);
      for (int ch = 0; ch < chunks; ++ch) {
        _tile_loadd(4, abuf + ch * 64, astride);
        _tile_loadd(5, abuf + static_cast<size_t>(16) * astride + ch * 64, astride);
        _tile_loadd(6, b0 + ch * 1024, 64);
        _tile_loadd(7, b1 + ch * 1024, 64);
        _tile_dpbusd(0, 4, 6);
        _tile_dpbusd(1, 4, 7);
        _tile_dpbusd(2, 5, 6);
        _tile_dpbusd(3, 5, 7);
      }
      _tile_stored(0, &cbuf[0][0], sizeof cbuf[0]);
      _tile_stored(1, &cbuf[0][kNr], sizeof cbuf[0]);
      _tile_stored(2, &cbuf[16][0], sizeof cbuf[0]);
      _tile_stored(3, &cbuf[16][kNr], sizeof cbuf[0]);
      const int col0 = p * kNr;
      const int cols = std::min(pair ? 2 * kNr : kNr, n - col0);
      if constexpr (std::is_same_v<OutT, float>) {
        AmxHybridStore(*h, i, rows, col0, cols, cbuf, c, ldc);
      } else {
        for (int q = 0; q * kNr < cols; ++q) {
          const int at = col0 + q * kNr;
          const Stage16 st = LoadStage16(s, at, cols - q * kNr, sizeof(OutT) == 4);
          for (int r = 0; r < rows; ++r) {
            Store16(st, _mm512_load_si512(&cbuf[r][q * kNr]), c + (i + r) * ldc + at);
          }
        }
      }
    }
  }
  _tile_release();
}
#endif  // TFI_DOT_X86

#ifdef TFI_DOT_ARM
// --- AArch64 SDOT: 4 rows x one 16-column panel -------------------------------------
//
// sdot sums four int8 x int8 products per int32 lane, and a 16-byte load of a panel's
// group (4 columns x 4 k) is exactly its lane layout. A holds a + 128 (uint8), so the tile
// multiplies a ^ 0x80 = a - 128 (int8) and starts each column's sum from 128 * its
// weight sum (PackDotWeights stores it after the panels): sum (a - 128) * b + 128 * sum b
// = sum a * b, wrapping alike, the x86 tiles' sums exactly.
constexpr int kDotNeonMr = 4;

#define TFI_DOTNEON_ROWS(ROW) ROW(0) ROW(1) ROW(2) ROW(3)

template <int R, typename OutT>
__attribute__((target("arch=armv8.2-a+dotprod"))) void NeonDotTile(int groups, const uint8_t* a, size_t lda,
                                                     const int8_t* b, const int32_t* sums128,
                                                     OutT* c, size_t ldc, int cols,
                                                     const QuantizedOutputStage& s, int col0) {
  static_assert(R >= 1 && R <= kDotNeonMr, "");
  const int32x4_t init0 = vld1q_s32(sums128), init1 = vld1q_s32(sums128 + 4);
  const int32x4_t init2 = vld1q_s32(sums128 + 8), init3 = vld1q_s32(sums128 + 12);
#define TFI_DECL(i)                                                                \
  int32x4_t acc##i##0 = init0, acc##i##1 = init1, acc##i##2 = init2, acc##i##3 = init3; \
  const uint8_t* a##i = a + static_cast<size_t>(i < R ? i : 0) * lda;
  TFI_DOTNEON_ROWS(TFI_DECL)
#undef TFI_DECL
  const uint8x8_t flip = vdup_n_u8(0x80);
  // One group (4 k) of row i: lane u of av holds its 4 activations.
#define TFI_GROUP(i, u)                                  \
  if constexpr (i < R) {                                 \
    acc##i##0 = vdotq_lane_s32(acc##i##0, b0, av##i, u); \
    acc##i##1 = vdotq_lane_s32(acc##i##1, b1, av##i, u); \
    acc##i##2 = vdotq_lane_s32(acc##i##2, b2, av##i, u); \
    acc##i##3 = vdotq_lane_s32(acc##i##3, b3, av##i, u); \
  }
#define TFI_STEP(u)                                                 \
  {                                                                 \
    const int8_t* bg = b + static_cast<size_t>(g + u) * kGroupBytes; \
    const int8x16_t b0 = vld1q_s8(bg), b1 = vld1q_s8(bg + 16);      \
    const int8x16_t b2 = vld1q_s8(bg + 32), b3 = vld1q_s8(bg + 48); \
    TFI_GROUP(0, u) TFI_GROUP(1, u) TFI_GROUP(2, u) TFI_GROUP(3, u) \
  }
  // 8 k a step: 8 bytes of A per row (two groups; 16 would keep 16 weight vectors live
  // with the 16 sums, more than the 32 registers).
  int g = 0;
  for (; g + 2 <= groups; g += 2) {
#define TFI_LOAD_A(i)                            \
  int8x8_t av##i = vdup_n_s8(0);                 \
  if constexpr (i < R) av##i = vreinterpret_s8_u8(veor_u8(vld1_u8(a##i + 4 * g), flip));
    TFI_DOTNEON_ROWS(TFI_LOAD_A)
#undef TFI_LOAD_A
    TFI_STEP(0) TFI_STEP(1)
  }
  if (g < groups) {  // an odd last group: its 4 bytes of A per row, in lane 0
#define TFI_LOAD_A(i)                                                 \
  int8x8_t av##i = vdup_n_s8(0);                                      \
  if constexpr (i < R) {                                              \
    uint32_t word;                                                    \
    std::memcpy(&word, a##i + 4 * g, sizeof word);                    \
    av##i = vreinterpret_s8_u32(vdup_n_u32(word ^ 0x80808080u));      \
  }
    TFI_DOTNEON_ROWS(TFI_LOAD_A)
#undef TFI_LOAD_A
    TFI_STEP(0)
  }
#undef TFI_STEP
#undef TFI_GROUP
  int32_t acc[R][kNr];
#define TFI_OUT(i)                     \
  if constexpr (i < R) {               \
    vst1q_s32(&acc[i][0], acc##i##0);  \
    vst1q_s32(&acc[i][4], acc##i##1);  \
    vst1q_s32(&acc[i][8], acc##i##2);  \
    vst1q_s32(&acc[i][12], acc##i##3); \
  }
  TFI_DOTNEON_ROWS(TFI_OUT)
#undef TFI_OUT
  // TFLite's double-rounding stage on 4 lanes (requant::OutputStage4: StageValue's bits);
  // the other stages and the raw sums value by value.
  if constexpr (std::is_same_v<OutT, int8_t>) {
    if (!s.single_rounding && s.float_scale == nullptr) {
      requant::NeonStoreTile16<R>(acc, c, ldc, cols, s, col0);
      return;
    }
  }
  for (int i = 0; i < R; ++i) {
    for (int j = 0; j < cols; ++j) c[i * ldc + j] = Finish(acc[i][j], col0 + j, s, c);
  }
}

template <typename OutT>
void NeonDotRows(int rows, int groups, const uint8_t* a, size_t lda, const int8_t* b,
                 const int32_t* sums128, OutT* c, size_t ldc, int cols,
                 const QuantizedOutputStage& s, int col0) {
  switch (rows) {
#define TFI_CASE(i)                                                                  \
  case i + 1:                                                                        \
    NeonDotTile<i + 1, OutT>(groups, a, lda, b, sums128, c, ldc, cols, s, col0);     \
    break;
    TFI_DOTNEON_ROWS(TFI_CASE)
#undef TFI_CASE
  }
}
#endif  // TFI_DOT_ARM

DotKernel Resolve(DotKernel which) {
  // A tile this CPU lacks runs as kAuto.
  bool has = true;
  switch (which) {
    case DotKernel::kAvx512Vnni:
      has = CpuHasAvx512Vnni();
      break;
    case DotKernel::kAvxVnni:
      has = CpuHasAvxVnni();
      break;
    case DotKernel::kAmx:
      has = CpuHasAmxInt8();
      break;
    case DotKernel::kNeonDot:
      has = CpuHasNeonDot();
      break;
    case DotKernel::kAvx2:
#ifdef TFI_DOT_X86
      has = CpuHasAvx2();
#else
      has = false;
#endif
      break;
    default:
      break;
  }
  if (which != DotKernel::kAuto && has) return which;
  if (CpuHasAmxInt8()) return DotKernel::kAmx;
  if (CpuHasAvx512Vnni()) return DotKernel::kAvx512Vnni;
  if (CpuHasAvxVnni()) return DotKernel::kAvxVnni;
  if (CpuHasNeonDot()) return DotKernel::kNeonDot;
#ifdef TFI_DOT_X86
  if (CpuHasAvx2()) return DotKernel::kAvx2;
#endif
  return DotKernel::kPortable;
}

#ifdef TFI_DOT_X86
template <int P, typename OutT>
void Avx512Rows(int rows, int groups, const uint8_t* const* a, const int8_t* b,
                size_t panel_bytes, OutT* c, size_t ldc, int cols,
                const QuantizedOutputStage& s, int col0, const HybridOutputStage* h, int row0,
                const DotSpans& spans) {
  switch (rows) {
#define TFI_CASE(i)                                                                        \
  case i + 1:                                                                              \
    Avx512DotTile<i + 1, P, OutT>(groups, a, b, panel_bytes, c, ldc, cols, s, col0, h, row0, \
                                  spans);                                                  \
    break;
    TFI_DOT512_ROWS(TFI_CASE)
#undef TFI_CASE
  }
}

template <typename OutT>
void AvxVnniRows(int rows, int groups, const uint8_t* a, size_t lda, const int8_t* b, OutT* c,
                 size_t ldc, int cols, const QuantizedOutputStage& s, int col0) {
  switch (rows) {
#define TFI_CASE(i)                                                     \
  case i + 1:                                                           \
    AvxVnniDotTile<i + 1, OutT>(groups, a, lda, b, c, ldc, cols, s, col0); \
    break;
    TFI_DOT256_ROWS(TFI_CASE)
#undef TFI_CASE
  }
}

template <typename OutT>
void Avx2Rows(int rows, int groups, const uint8_t* a, size_t lda, const int8_t* b, OutT* c,
              size_t ldc, int cols, const QuantizedOutputStage& s, int col0) {
  switch (rows) {
#define TFI_CASE(i)                                                     \
  case i + 1:                                                           \
    Avx2DotTile<i + 1, OutT>(groups, a, lda, b, c, ldc, cols, s, col0); \
    break;
    TFI_DOT_AVX2_ROWS(TFI_CASE)
#undef TFI_CASE
  }
}
#endif

}  // namespace

int DotPanelDepth(int k) { return CpuHasAmxInt8() ? (k + 63) & ~63 : DotDepth(k); }

void PackDotWeights(const int8_t* weights, int n, int k, int8_t* packed, int32_t* col_sums) {
  const int depth = DotPanelDepth(k);
  std::memset(packed, 0, PackedDotWeightsSize(n, k));
  for (int j = 0; j < n; ++j) {
    int8_t* panel = packed + static_cast<size_t>(j / kNr) * kNr * depth;
    const int8_t* row = weights + static_cast<size_t>(j) * k;
    int32_t sum = 0;
    for (int kk = 0; kk < k; ++kk) {
      panel[(kk / 4) * kGroupBytes + (j % kNr) * 4 + kk % 4] = row[kk];
      sum += row[kk];
    }
    col_sums[j] = sum;
  }
#ifdef TFI_DOT_ARM
  // After the panels: 128 * each column's sum (0 for padding columns), the SDOT tile's
  // starting sums.
  const int panels = (n + kNr - 1) / kNr;
  int8_t* sums128 = packed + static_cast<size_t>(panels) * kNr * depth;
  for (int j = 0; j < n; ++j) {
    const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(col_sums[j]) * 128u);
    std::memcpy(sums128 + sizeof(int32_t) * j, &v, sizeof v);
  }
#endif
}

void DotBias(const int32_t* bias, const int32_t* col_sums, int n, int32_t a_zero, int32_t* out) {
  for (int j = 0; j < n; ++j) {
    const uint32_t correction = static_cast<uint32_t>(a_zero) * static_cast<uint32_t>(col_sums[j]);
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[j]) : 0u;
    out[j] = static_cast<int32_t>(b - correction);
  }
}

#ifdef TFI_DOT_X86
namespace {
// 64 bytes a step, the tail under a mask (im2col spans are often a few dozen bytes).
__attribute__((target("avx512f,avx512bw"))) void DotInputAvx512(const int8_t* src, size_t count,
                                                                uint8_t* dst) {
  DotInputSpanAvx512(src, count, dst);
}

// (A grouped convolution's im2col spans are a group's few channels: a byte loop took a
// fifth of an int8 ResNeXt's time on an AVX2 CPU.)
__attribute__((target("avx2"))) void DotInputAvx2(const int8_t* src, size_t count, uint8_t* dst) {
  DotInputSpanAvx2(src, count, dst);
}
}  // namespace
#endif

void DotInput(const int8_t* src, size_t count, uint8_t* dst) {
#ifdef TFI_DOT_X86
  static const bool avx512 = CpuHasAvx512Vnni();  // (AVX-512BW comes with it)
  if (avx512) {
    DotInputAvx512(src, count, dst);
    return;
  }
  static const bool avx2 = CpuHasAvx2();
  if (avx2) {
    DotInputAvx2(src, count, dst);
    return;
  }
#endif
  for (size_t i = 0; i < count; ++i) dst[i] = DotByte(src[i]);
}

bool DotGemmWanted() {
  const DotKernel kernel = Resolve(DotKernel::kAuto);
  return kernel != DotKernel::kPortable && kernel != DotKernel::kAvx2;
}

const char* DotKernelName(DotKernel kernel) {
  switch (Resolve(kernel)) {
    case DotKernel::kAmx:
      return "amx_32x32";
    case DotKernel::kAvx512Vnni:
      return "avx512vnni_8x32";
    case DotKernel::kAvxVnni:
      return "avxvnni_6x16";
    case DotKernel::kNeonDot:
      return "neondot_4x16";
    case DotKernel::kAvx2:
      return "avx2_4x16";
    default:
      return "portable_1x16";
  }
}

namespace {

#ifdef TFI_DOT_X86
// The AMX tile over the whole product: 32-row blocks and panel pairs split over the pool
// from 8x the float GEMM's work (a short AMX block loses more to the hand-off).
template <typename OutT>
void AmxGemm(int m, int n, int k, const uint8_t* a, size_t lda, const int8_t* packed_b, OutT* c,
             size_t ldc, const QuantizedOutputStage& stage, pthreadpool* pool,
             const HybridOutputStage* hybrid = nullptr, uint8_t a_flip = 0,
             const DotRows* gather = nullptr) {
  const int panels = (n + kNr - 1) / kNr;
  const size_t panel_bytes = static_cast<size_t>(DotPanelDepth(k)) * kNr;
  RunBlocks(
      pool, m, panels, k, kAmxRows * 2,
      [&](int m0, int m1, int p0, int p1) {
        AmxBlock<OutT>(m0, m1, p0, p1, n, k, a, lda, packed_b, panel_bytes, c, ldc, stage, hybrid,
                       a_flip, gather);
      },
      /*panel_align=*/2, /*min_parallel_macs=*/1 << 23, /*row_unit=*/kAmxRows);  // (AMX: 8M)
}

// Whether kAuto runs this shape on AMX (the CPU has it, 16 rows or more, k from
// kDotAmxMinDepth): DotGemmSigned's and DotGemmHybrid's condition.
bool AmxRuns(int m, int n, int k) {
  return m >= 16 && n > 0 && k >= kDotAmxMinDepth && Resolve(DotKernel::kAuto) == DotKernel::kAmx;
}
#endif

#ifdef TFI_DOT_X86
// The AVX-512 VNNI tiles: 8 rows x a panel pair. OutT float: the hybrid stage h. A's rows
// from `image` where given (then a and sa are not read), each row block's row pointers
// made once for all its panels.
template <typename OutT>
void Avx512Gemm(int m, int n, int k, const uint8_t* a, size_t sa, const int8_t* packed_b, OutT* c,
                size_t sc, const QuantizedOutputStage& stage, pthreadpool* pool,
                const HybridOutputStage* h = nullptr, const DotImage* image = nullptr) {
  const int panels = (n + kNr - 1) / kNr;
  const int groups = DotDepth(k) / 4;
  const size_t panel_bytes = static_cast<size_t>(DotPanelDepth(k)) * kNr;
  const DotSpans spans = image != nullptr ? image->spans : DotSpans();
  constexpr int kBlock = kDot512Mr * 8;
  RunBlocks(
      pool, m, panels, k, kBlock,
      [&](int m0, int m1, int p0, int p1) {
        const uint8_t* rows[kBlock];
        for (int i0 = m0; i0 < m1; i0 += kBlock) {
          const int i1 = std::min(m1, i0 + kBlock);
          if (image != nullptr) {
            image->Rows(i0, i1, rows);
          } else {
            for (int i = i0; i < i1; ++i) rows[i - i0] = a + i * sa;
          }
          for (int p = p0; p < p1; p += 2) {
            const int8_t* bp = packed_b + p * panel_bytes;
            const int col0 = p * kNr;
            const int cols = std::min(2 * kNr, n - col0);
            for (int i = i0; i < i1; i += kDot512Mr) {
              const int count = std::min(kDot512Mr, i1 - i);
              OutT* ci = c + i * sc + col0;
              if (p + 1 < p1) {
                Avx512Rows<2, OutT>(count, groups, rows + (i - i0), bp, panel_bytes, ci, sc, cols,
                                    stage, col0, h, i, spans);
              } else {
                Avx512Rows<1, OutT>(count, groups, rows + (i - i0), bp, panel_bytes, ci, sc, cols,
                                    stage, col0, h, i, spans);
              }
            }
          }
        }
      },
      /*panel_align=*/2);
}
#endif

template <typename OutT>
void DotGemmImpl(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b, OutT* c,
                 int ldc, const QuantizedOutputStage& stage, pthreadpool* pool, DotKernel which) {
  if (m <= 0 || n <= 0) return;
  DotKernel kernel = Resolve(which);
  const int panels = (n + kNr - 1) / kNr;
  const int groups = DotDepth(k) / 4;
  const size_t panel_bytes = static_cast<size_t>(DotPanelDepth(k)) * kNr;
  const size_t sa = static_cast<size_t>(lda), sc = static_cast<size_t>(ldc);
#ifdef TFI_DOT_X86
  // AMX pays off from 16 rows and 64 k (below, its padded tiles and the copies into them
  // cost more than the VNNI tile: gemm_benchmark).
  if (kernel == DotKernel::kAmx && (m < 16 || k < kDotAmxMinDepth)) {
    kernel = DotKernel::kAvx512Vnni;
  }
  if (kernel == DotKernel::kAmx) {
    AmxGemm<OutT>(m, n, k, a, sa, packed_b, c, sc, stage, pool);
    return;
  }
  if (kernel == DotKernel::kAvx512Vnni) {
    Avx512Gemm<OutT>(m, n, k, a, sa, packed_b, c, sc, stage, pool);
    return;
  }
  // The 256-bit tiles: row tiles of `mr` over each panel of a block.
  auto rows256 = [&](int mr, auto* rows_fn) {
    RunBlocks(pool, m, panels, k, mr * 8, [&](int m0, int m1, int p0, int p1) {
      for (int p = p0; p < p1; ++p) {
        const int8_t* bp = packed_b + p * panel_bytes;
        const int col0 = p * kNr;
        const int cols = std::min(kNr, n - col0);
        for (int i = m0; i < m1; i += mr) {
          rows_fn(std::min(mr, m1 - i), groups, a + i * sa, sa, bp, c + i * sc + col0, sc, cols,
                  stage, col0);
        }
      }
    });
  };
  if (kernel == DotKernel::kAvxVnni) {
    rows256(kDot256Mr, &AvxVnniRows<OutT>);
    return;
  }
  if (kernel == DotKernel::kAvx2) {
    rows256(kDotAvx2Mr, &Avx2Rows<OutT>);
    return;
  }
#endif
#ifdef TFI_DOT_ARM
  if (kernel == DotKernel::kNeonDot) {
    const int32_t* sums128 =
        reinterpret_cast<const int32_t*>(packed_b + static_cast<size_t>(panels) * panel_bytes);
    RunBlocks(pool, m, panels, k, kDotNeonMr * 8, [&](int m0, int m1, int p0, int p1) {
      for (int p = p0; p < p1; ++p) {
        const int8_t* bp = packed_b + p * panel_bytes;
        const int col0 = p * kNr;
        const int cols = std::min(kNr, n - col0);
        for (int i = m0; i < m1; i += kDotNeonMr) {
          NeonDotRows<OutT>(std::min(kDotNeonMr, m1 - i), groups, a + i * sa, sa, bp,
                            sums128 + col0, c + i * sc + col0, sc, cols, stage, col0);
        }
      }
    });
    return;
  }
#endif
  RunBlocks(pool, m, panels, k, 16, [&](int m0, int m1, int p0, int p1) {
    for (int p = p0; p < p1; ++p) {
      const int col0 = p * kNr;
      PortableTile(m1 - m0, groups, a + m0 * sa, sa, packed_b + p * panel_bytes,
                   c + m0 * sc + col0, sc, std::min(kNr, n - col0), stage, col0);
    }
  });
}

}  // namespace

void DotGemm(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b, int8_t* c,
             int ldc, const QuantizedOutputStage& stage, pthreadpool* pool, DotKernel kernel) {
  DotGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

void DotGemmRaw(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b,
                const int32_t* bias, int32_t* c, int ldc, pthreadpool* pool, DotKernel kernel) {
  QuantizedOutputStage stage;
  stage.bias = bias;
  DotGemmImpl(m, n, k, a, lda, packed_b, c, ldc, stage, pool, kernel);
}

bool DotGemmOnAmx(int m, int n, int k) {
#ifdef TFI_DOT_X86
  return AmxRuns(m, n, k);
#else
  (void)m, (void)n, (void)k;
  return false;
#endif
}

bool DotGemmSigned(int m, int n, int k, const int8_t* a, int lda, const int8_t* packed_b,
                   int8_t* c, int ldc, const QuantizedOutputStage& stage, pthreadpool* pool) {
#ifdef TFI_DOT_X86
  if (!AmxRuns(m, n, k)) return false;
  AmxGemm<int8_t>(m, n, k, reinterpret_cast<const uint8_t*>(a), static_cast<size_t>(lda), packed_b,
                  c, static_cast<size_t>(ldc), stage, pool, nullptr, 0x80);
  return true;
#else
  (void)m, (void)n, (void)k, (void)a, (void)lda, (void)packed_b, (void)c, (void)ldc,
      (void)stage, (void)pool;
  return false;
#endif
}

bool DotGemmGathered(int m, int n, int k, const DotRows& rows, const int8_t* packed_b, int8_t* c,
                     int ldc, const QuantizedOutputStage& stage, pthreadpool* pool) {
#ifdef TFI_DOT_X86
  if (!AmxRuns(m, n, k)) return false;
  AmxGemm<int8_t>(m, n, k, nullptr, 0, packed_b, c, static_cast<size_t>(ldc), stage, pool, nullptr,
                  0, &rows);
  return true;
#else
  (void)m, (void)n, (void)k, (void)rows, (void)packed_b, (void)c, (void)ldc, (void)stage,
      (void)pool;
  return false;
#endif
}

bool DotGemmHybridRuns(int m, int n, int k) {
#ifdef TFI_DOT_X86
  (void)k;  // any depth: AMX below its minimum runs the VNNI tiles
  const DotKernel kernel = Resolve(DotKernel::kAuto);
  return m > 0 && n > 0 && (kernel == DotKernel::kAvx512Vnni || kernel == DotKernel::kAmx);
#else
  (void)m, (void)n, (void)k;
  return false;
#endif
}

bool DotGemmHybrid(int m, int n, int k, const uint8_t* a, int lda, const int8_t* packed_b,
                   const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool) {
#ifdef TFI_DOT_X86
  if (!DotGemmHybridRuns(m, n, k)) return false;
  if (AmxRuns(m, n, k)) {
    AmxGemm<float>(m, n, k, a, static_cast<size_t>(lda), packed_b, c, static_cast<size_t>(ldc),
                   QuantizedOutputStage(), pool, &stage);
  } else {
    Avx512Gemm<float>(m, n, k, a, static_cast<size_t>(lda), packed_b, c, static_cast<size_t>(ldc),
                      QuantizedOutputStage(), pool, &stage);
  }
  return true;
#else
  (void)m, (void)n, (void)k, (void)a, (void)lda, (void)packed_b, (void)stage, (void)c, (void)ldc,
      (void)pool;
  return false;
#endif
}

bool DotGemmImageRuns(int m, int n, int k) {
#ifdef TFI_DOT_X86
  (void)k;
  return m > 0 && n > 0 && Resolve(DotKernel::kAuto) == DotKernel::kAvx512Vnni;
#else
  (void)m, (void)n, (void)k;
  return false;
#endif
}

bool DotGemmImage(int m, int n, int k, const DotImage& image, const int8_t* packed_b, int8_t* c,
                  int ldc, const QuantizedOutputStage& stage, pthreadpool* pool) {
#ifdef TFI_DOT_X86
  if (!DotGemmImageRuns(m, n, k) || image.spans.count < 1 ||
      k % (4 * image.spans.count) != 0) {
    return false;
  }
  Avx512Gemm<int8_t>(m, n, k, nullptr, 0, packed_b, c, static_cast<size_t>(ldc), stage, pool,
                     nullptr, &image);
  return true;
#else
  (void)m, (void)n, (void)k, (void)image, (void)packed_b, (void)c, (void)ldc, (void)stage,
      (void)pool;
  return false;
#endif
}

bool DotGemmHybridImage(int m, int n, int k, const DotImage& image, const int8_t* packed_b,
                        const HybridOutputStage& stage, float* c, int ldc, pthreadpool* pool) {
#ifdef TFI_DOT_X86
  if (!DotGemmImageRuns(m, n, k) || image.spans.count < 1 ||
      k % (4 * image.spans.count) != 0) {
    return false;
  }
  Avx512Gemm<float>(m, n, k, nullptr, 0, packed_b, c, static_cast<size_t>(ldc),
                    QuantizedOutputStage(), pool, &stage, &image);
  return true;
#else
  (void)m, (void)n, (void)k, (void)image, (void)packed_b, (void)stage, (void)c, (void)ldc,
      (void)pool;
  return false;
#endif
}

}  // namespace gemm
}  // namespace tflite
