#include "kernels/internal/gemv_f16.h"

#include <algorithm>
#include <cstring>

#include "kernels/internal/fp16.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define TFI_GEMV_F16_X86 1
#endif

namespace tflite {
namespace gemv_f16 {
namespace {

constexpr int kPanel = 16;

#ifdef TFI_GEMV_F16_X86
// The 16 halves of row kk of a panel, as floats.
__attribute__((target("avx512f"), always_inline)) inline __m512 Widen(const uint16_t* w, int kk) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + static_cast<size_t>(kk) * kPanel)));
}

// Outputs [16 p, 16 p + 16) of panel p: four chains over k mod 4.
__attribute__((target("avx512f"))) void Panel(const uint16_t* w, int k, const float* x,
                                             const float* bias, float min, float max, int cols,
                                             float* y) {
  __m512 c0 = _mm512_setzero_ps(), c1 = _mm512_setzero_ps(), c2 = _mm512_setzero_ps(),
         c3 = _mm512_setzero_ps();
#define widen(kk) Widen(w, kk)
  int kk = 0;
  for (; kk + 4 <= k; kk += 4) {
    c0 = _mm512_fmadd_ps(widen(kk), _mm512_set1_ps(x[kk]), c0);
    c1 = _mm512_fmadd_ps(widen(kk + 1), _mm512_set1_ps(x[kk + 1]), c1);
    c2 = _mm512_fmadd_ps(widen(kk + 2), _mm512_set1_ps(x[kk + 2]), c2);
    c3 = _mm512_fmadd_ps(widen(kk + 3), _mm512_set1_ps(x[kk + 3]), c3);
  }
  if (kk < k) c0 = _mm512_fmadd_ps(widen(kk), _mm512_set1_ps(x[kk]), c0);
  if (kk + 1 < k) c1 = _mm512_fmadd_ps(widen(kk + 1), _mm512_set1_ps(x[kk + 1]), c1);
  if (kk + 2 < k) c2 = _mm512_fmadd_ps(widen(kk + 2), _mm512_set1_ps(x[kk + 2]), c2);
  const __mmask16 m = cols >= kPanel ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << cols) - 1u);
  __m512 sum = _mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3));
  if (bias != nullptr) sum = _mm512_add_ps(sum, _mm512_maskz_loadu_ps(m, bias));
  sum = _mm512_min_ps(_mm512_max_ps(sum, _mm512_set1_ps(min)), _mm512_set1_ps(max));
  _mm512_mask_storeu_ps(y, m, sum);
#undef widen
}

// The same on AVX2 with F16C (every AVX2 CPU has it): a panel's 16 outputs as two halves
// of 8, each chain's FMA on both.
__attribute__((target("avx2,fma,f16c"))) void PanelAvx2(const uint16_t* w, int k, const float* x,
                                                     const float* bias, float min, float max,
                                                     int cols, float* y) {
  __m256 lo[4], hi[4];
  for (int c = 0; c < 4; ++c) lo[c] = hi[c] = _mm256_setzero_ps();
#define step(c, kk_)                                                                               \
  do {                                                                                            \
    const uint16_t* row = w + static_cast<size_t>(kk_) * kPanel;                                  \
    const __m256 xv = _mm256_set1_ps(x[kk_]);                                                    \
    lo[c] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row))), xv, lo[c]); \
    hi[c] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 8))), xv, hi[c]); \
  } while (0)
  int kk = 0;
  for (; kk + 4 <= k; kk += 4) {
    for (int c = 0; c < 4; ++c) step(c, kk + c);
  }
  for (int c = 0; kk + c < k; ++c) step(c, kk + c);
#undef step
  float out[kPanel];
  _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(lo[0], lo[1]), _mm256_add_ps(lo[2], lo[3])));
  _mm256_storeu_ps(out + 8, _mm256_add_ps(_mm256_add_ps(hi[0], hi[1]), _mm256_add_ps(hi[2], hi[3])));
  for (int j = 0; j < cols; ++j) {
    const float v = bias != nullptr ? out[j] + bias[j] : out[j];
    y[j] = std::min(std::max(v, min), max);
  }
}
#endif

}  // namespace

bool Available() {
#ifdef TFI_GEMV_F16_X86
  return gemm::CpuHasAvx512F() || gemm::CpuHasAvx2Fma();
#else
  return false;
#endif
}

bool IsHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t x = bits & 0x7FFFFFFFu, e = x >> 23;
  // Zero, infinity, and the quiet NaN that FloatToHalf keeps (other payloads it does not).
  const bool special = x == 0 || x == 0x7F800000u || x == 0x7FC00000u;
  // A normal half (exponent -14..15): the mantissa's low 13 bits are zero.
  const bool normal = e >= 113 && e <= 142 && (x & 0x1FFFu) == 0;
  // A subnormal half, a multiple of 2^-24 below 2^-14: the significand's low 126 - e bits.
  const bool subnormal = e >= 103 && e < 113 && (x & ((1u << ((126 - e) & 31)) - 1u)) == 0;
  return special || normal || subnormal;
}

// The delegate checks a head's weights when it plans the node (1.2 M values: 1.1 ms on the
// bits, where converting each to half and back took 2.2 ms); a block of values at a time,
// stopping at the first block with a value no half holds.
bool ExactInHalf(const float* values, size_t n) {
  constexpr size_t kBlock = 1024;
  for (size_t i = 0; i < n; i += kBlock) {
    bool all = true;
    for (size_t j = i; j < std::min(n, i + kBlock); ++j) all &= IsHalf(values[j]);
    if (!all) return false;
  }
  return true;
}

HalfWeights::HalfWeights(const float* weights, int n, int k) : n_(n), k_(k) {
  const int panels = (n + kPanel - 1) / kPanel;
  packed_.assign(static_cast<size_t>(panels) * k * kPanel, 0);
  for (int j = 0; j < n; ++j) {
    uint16_t* panel = packed_.data() + static_cast<size_t>(j / kPanel) * k * kPanel + j % kPanel;
    for (int kk = 0; kk < k; ++kk) panel[static_cast<size_t>(kk) * kPanel] = fp16::FloatToHalf(weights[static_cast<size_t>(j) * k + kk]);
  }
}

void HalfWeights::Run(const float* x, const float* bias, float min, float max, float* y,
                      pthreadpool* pool) const {
#ifdef TFI_GEMV_F16_X86
  const int panels = (n_ + kPanel - 1) / kPanel;
  // Runs of panels, a few per thread (each reads its own part of the weights).
  const size_t tasks = std::min<size_t>(panels, parallel::NumThreads(pool) * 4);
  const auto panel = gemm::CpuHasAvx512F() ? Panel : PanelAvx2;
  parallel::ParallelFor(pool, tasks, static_cast<double>(n_) * k_, [&](size_t t) {
    const int p0 = static_cast<int>(panels * t / tasks), p1 = static_cast<int>(panels * (t + 1) / tasks);
    for (int p = p0; p < p1; ++p) {
      const int col0 = p * kPanel;
      panel(packed_.data() + static_cast<size_t>(p) * k_ * kPanel, k_, x,
            bias != nullptr ? bias + col0 : nullptr, min, max, std::min(kPanel, n_ - col0), y + col0);
    }
  });
#else
  (void)x, (void)bias, (void)min, (void)max, (void)y, (void)pool;
#endif
}

}  // namespace gemv_f16
}  // namespace tflite
