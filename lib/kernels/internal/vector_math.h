// Vector forms of libm functions for the float kernels, where a loop of std::exp calls is
// the cost (LOGISTIC in squeeze-excite and swish blocks). Accuracy: a few ulp (Cephes'
// expf polynomial after a two-constant ln 2 reduction), within the float tolerance of
// TFLite's kernels (whose own float activations are Eigen's approximations). Callers
// handle the inputs a function's note excludes.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_VECTOR_MATH_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_VECTOR_MATH_H_

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_VECTOR_MATH_AVX2 1
#endif

namespace tflite {
namespace vector_math {

#if defined(TFI_VECTOR_MATH_AVX2)
// exp(x) on 8 lanes for x in [-87.3, 88.7] (normal results); outside, the argument is
// clamped to that range (callers that need denormal results or NaN take the scalar path).
__attribute__((target("avx2,fma"), always_inline)) inline __m256 Exp8(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.33654f)), _mm256_set1_ps(88.72283f));
  // n = round(x / ln 2), r = x - n ln 2 with ln 2 = C1 + C2 (C1 exact in few bits).
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  const __m256 r2 = _mm256_mul_ps(r, r);
  const __m256 e = _mm256_add_ps(_mm256_fmadd_ps(p, r2, r), _mm256_set1_ps(1.0f));
  // 2^n: n in [-126, 128] after the clamp; 2^128 is reached only where exp overflows.
  __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  // n = 128 (x near 88.72): 2^127 * 2e instead of an infinite scale.
  const __m256 big = _mm256_cmp_ps(n, _mm256_set1_ps(127.5f), _CMP_GT_OQ);
  bits = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(bits),
                                              _mm256_set1_ps(1.7014118e38f), big));
  const __m256 scaled_e = _mm256_blendv_ps(e, _mm256_add_ps(e, e), big);
  return _mm256_mul_ps(scaled_e, _mm256_castsi256_ps(bits));
}
#endif

}  // namespace vector_math
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_VECTOR_MATH_H_
