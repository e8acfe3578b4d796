// GELU on float32 for the builtin kernel (kernels/gelu.cc) and the XNNPACK delegate's own
// step (this XNNPACK has no GELU): one implementation, so both give the same values.
#include "kernels/internal/gelu_f32.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/elementwise.h"
#include "kernels/internal/gemm.h"

namespace tflite {
namespace gelu_f32 {
namespace {

// erf(x) as Eigen's generic_fast_erf_float: odd polynomial over even polynomial, both in
// x^2, highest degree first (the scalar form and the AVX2 one below share them).
constexpr float kErfP[] = {-2.72614225801306e-10f, 2.77068142495902e-08f,
                           -2.10102402082508e-06f, -5.69250639462346e-05f,
                           -7.34990630326855e-04f, -2.95459980854025e-03f,
                           -1.60960333262415e-02f};
constexpr float kErfQ[] = {-1.45660718464996e-05f, -2.13374055278905e-04f,
                           -1.68282697438203e-03f, -7.37332916720468e-03f,
                           -1.42647390514189e-02f};

inline __attribute__((always_inline)) float FastErf(float x) {
  x = std::min(std::max(x, -4.0f), 4.0f);  // (NaN stays NaN)
  const float x2 = x * x;
  float p = kErfP[0];
  for (size_t k = 1; k < std::size(kErfP); ++k) p = p * x2 + kErfP[k];
  p = p * x;
  float q = kErfQ[0];
  for (size_t k = 1; k < std::size(kErfQ); ++k) q = q * x2 + kErfQ[k];
  return p / q;
}

inline __attribute__((always_inline)) void GeluExactImpl(const float* in, float* out,
                                                         int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = in[i];
    out[i] = 0.5f * x * (1.0f + FastErf(x * static_cast<float>(M_SQRT1_2)));
  }
}

// Below this, 1 + erf(x / sqrt(2)) is small enough that the approximation's absolute error
// would show relative to it: those elements (a few percent of typical activations) take
// std::erfc, as TFLite's reference does.
constexpr float kGeluTail = -1.5f;

inline float GeluTail(float x) { return 0.5f * x * std::erfc(x * static_cast<float>(-M_SQRT1_2)); }

void GeluExactGeneric(const float* in, float* out, int64_t n) {
  GeluExactImpl(in, out, n);
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < kGeluTail) out[i] = GeluTail(in[i]);
  }
}
#if defined(__x86_64__) || defined(__i386__)
// FastErf on 8 lanes (GCC does not vectorize the clamp's branches); NaN stays NaN (the
// clamps take it as their second operand).
__attribute__((target("avx2,fma"))) void GeluExactAvx2(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(in + i);
    __m256 z = _mm256_mul_ps(x, _mm256_set1_ps(static_cast<float>(M_SQRT1_2)));
    z = _mm256_min_ps(_mm256_set1_ps(4.0f), _mm256_max_ps(_mm256_set1_ps(-4.0f), z));
    const __m256 z2 = _mm256_mul_ps(z, z);
    __m256 p = _mm256_set1_ps(kErfP[0]);
    for (size_t k = 1; k < std::size(kErfP); ++k) p = _mm256_fmadd_ps(p, z2, _mm256_set1_ps(kErfP[k]));
    p = _mm256_mul_ps(p, z);
    __m256 q = _mm256_set1_ps(kErfQ[0]);
    for (size_t k = 1; k < std::size(kErfQ); ++k) q = _mm256_fmadd_ps(q, z2, _mm256_set1_ps(kErfQ[k]));
    const __m256 erf = _mm256_div_ps(p, q);
    const __m256 half_x = _mm256_mul_ps(_mm256_set1_ps(0.5f), x);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(half_x, _mm256_add_ps(_mm256_set1_ps(1.0f), erf)));
    // The tail's lanes, found 8 at a time (most vectors have none).
    for (unsigned tail = static_cast<unsigned>(_mm256_movemask_ps(
             _mm256_cmp_ps(x, _mm256_set1_ps(kGeluTail), _CMP_LT_OQ)));
         tail != 0; tail &= tail - 1) {
      const int j = __builtin_ctz(tail);
      out[i + j] = GeluTail(in[i + j]);
    }
  }
  GeluExactGeneric(in + i, out + i, n - i);
}

// The same lanes 16 at a time (the same fused multiply-adds, division and products), a
// last 8 under a mask; the last n % 8 values as the AVX2 path leaves them (the portable
// loop).
__attribute__((target("avx512f"))) void GeluExactAvx512(const float* in, float* out, int64_t n) {
  const int64_t bulk = n & ~int64_t{7};
  for (int64_t i = 0; i < bulk; i += 16) {
    const __mmask16 m = bulk - i >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>(0xFF);
    const __m512 x = _mm512_maskz_loadu_ps(m, in + i);
    __m512 z = _mm512_mul_ps(x, _mm512_set1_ps(static_cast<float>(M_SQRT1_2)));
    z = _mm512_min_ps(_mm512_set1_ps(4.0f), _mm512_max_ps(_mm512_set1_ps(-4.0f), z));
    const __m512 z2 = _mm512_mul_ps(z, z);
    __m512 p = _mm512_set1_ps(kErfP[0]);
    for (size_t k = 1; k < std::size(kErfP); ++k) p = _mm512_fmadd_ps(p, z2, _mm512_set1_ps(kErfP[k]));
    p = _mm512_mul_ps(p, z);
    __m512 q = _mm512_set1_ps(kErfQ[0]);
    for (size_t k = 1; k < std::size(kErfQ); ++k) q = _mm512_fmadd_ps(q, z2, _mm512_set1_ps(kErfQ[k]));
    const __m512 erf = _mm512_div_ps(p, q);
    const __m512 half_x = _mm512_mul_ps(_mm512_set1_ps(0.5f), x);
    _mm512_mask_storeu_ps(out + i, m, _mm512_mul_ps(half_x, _mm512_add_ps(_mm512_set1_ps(1.0f), erf)));
    for (unsigned tail = _mm512_mask_cmp_ps_mask(m, x, _mm512_set1_ps(kGeluTail), _CMP_LT_OQ);
         tail != 0; tail &= tail - 1) {
      const int j = __builtin_ctz(tail);
      out[i + j] = GeluTail(in[i + j]);
    }
  }
  GeluExactGeneric(in + bulk, out + bulk, n - bulk);
}
#endif

void GeluExact(const float* in, float* out, int64_t n) {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) {
    GeluExactAvx512(in, out, n);
  } else if (gemm::CpuHasAvx2Fma()) {
    GeluExactAvx2(in, out, n);
  } else {
    GeluExactGeneric(in, out, n);
  }
#else
  GeluExactGeneric(in, out, n);
#endif
}

float GeluApproximate(float x) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  const float two_u = 2.0f * kSqrt2OverPi * (x + 0.044715f * x * x * x);
  if (two_u >= 0) return x / (1.0f + std::exp(-two_u));
  const float e = std::exp(two_u);
  return x * e / (1.0f + e);
}

}  // namespace

void Gelu(const float* in, float* out, int64_t n, bool approximate) {
  if (approximate) {
    elementwise::UnaryMap(in, out, n, GeluApproximate);
  } else {
    GeluExact(in, out, n);
  }
}

}  // namespace gelu_f32
}  // namespace tflite
