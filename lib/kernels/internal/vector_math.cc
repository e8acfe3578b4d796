#include "kernels/internal/vector_math.h"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/gemm.h"

namespace tflite {
namespace vector_math {
namespace {

template <Function kF>
void ApplyGeneric(const float* in, int64_t n, float* out) {
  MapArray<V4, kF>(in, n, out);
}

#if defined(__x86_64__) || defined(__i386__)
// Sigmoid on 8 lanes for Apply on AVX2: f = e / (1 + e), e = exp(-|x|) (in (0, 1]: nothing
// to clamp), then 1 - f where x is positive. 2^n from a magic-biased rounding (the biased
// exponent in the low mantissa bits: one shift, no conversion); Exp's two-constant
// reduction and polynomial (vector_math.h); f set to 0 past |x| = 87.33 (where 2^n would
// leave the normal range). Within 3 ulp of 1 / (1 + exp(-x)) down to -80; NaN stays NaN.
// Half the operations of the lane-generic form (EfficientNet's swishes were a fifth of
// its time on an AVX2 Zen 3).
__attribute__((target("avx2,fma"), always_inline)) inline __m256 SigmoidAvx2(__m256 x) {
  const __m256 z = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);  // |x|
  // 1.5 * 2^23 + 127: t's low bits hold round(-z * log2(e)) + 127.
  const __m256 magic = _mm256_set1_ps(12583039.0f);
  const __m256 t = _mm256_fmadd_ps(z, _mm256_set1_ps(-kLog2e), magic);
  const __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
  const __m256 n = _mm256_sub_ps(t, magic);  // round(-z * log2(e)), exactly
  __m256 r = _mm256_fmadd_ps(n, _mm256_set1_ps(-kLn2Hi), _mm256_sub_ps(_mm256_setzero_ps(), z));
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), r);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(kExpP0), r, _mm256_set1_ps(kExpP1));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP2));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP3));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP4));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP5));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
  const __m256 e = _mm256_fmadd_ps(p, scale, scale);  // (1 + p) * 2^n
  __m256 f = _mm256_div_ps(e, _mm256_add_ps(e, _mm256_set1_ps(1.0f)));
  // Past the cutoff (and for infinite x) 0; an ordered compare: NaN passes.
  f = _mm256_andnot_ps(_mm256_cmp_ps(z, _mm256_set1_ps(87.33f), _CMP_GT_OQ), f);
  // x's sign bit picks f (negative x), else 1 - f.
  return _mm256_blendv_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), f), f, x);
}

template <Function kF>
__attribute__((target("avx2,fma"))) void ApplyAvx2(const float* in, int64_t n, float* out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(in + i);
    const __m256 s = SigmoidAvx2(x);
    _mm256_storeu_ps(out + i, kF == Function::kSwish ? _mm256_mul_ps(s, x) : s);
  }
  if (i < n) {  // the last n % 8 through a zero-padded copy
    float tail[8] = {};
    std::memcpy(tail, in + i, sizeof(float) * (n - i));
    const __m256 x = _mm256_loadu_ps(tail);
    const __m256 s = SigmoidAvx2(x);
    _mm256_storeu_ps(tail, kF == Function::kSwish ? _mm256_mul_ps(s, x) : s);
    std::memcpy(out + i, tail, sizeof(float) * (n - i));
  }
}

// Sigmoid on 16 lanes for Apply on AVX-512: 1 / (1 + z), z = exp(-x) with -x clamped to
// [-104, 88] (past 104 z is 0; at 88 z is still finite and 1 / (1 + z) a denormal or 0); the
// reciprocal is rcp14 and one Newton step (no division: on AMD Zen 4 the division was the
// costliest instruction of EfficientNet's swishes); 2^n by scalef (no exponent arithmetic).
// Exp's reduction and polynomial (vector_math.h). Within 2 ulp of 1 / (1 + exp(-x)) down
// to -80 (the reciprocal is relative-accurate); NaN stays NaN. (No select on the sign, as
// a form from exp(-|x|) needs: on Zen 4 its compare and masked multiply cost 15%.)
__attribute__((target("avx512f"), always_inline)) inline __m512 SigmoidAvx512(__m512 x) {
  // min and max return their second operand where one is NaN: a NaN input flows through.
  const __m512 w =
      _mm512_max_ps(_mm512_set1_ps(-104.0f),
                    _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_sub_ps(_mm512_setzero_ps(), x)));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(w, _mm512_set1_ps(kLog2e)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Hi), w);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Lo), r);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(kExpP0), r, _mm512_set1_ps(kExpP1));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpP2));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpP3));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpP4));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpP5));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 z = _mm512_scalef_ps(_mm512_add_ps(p, one), n);
  const __m512 d = _mm512_add_ps(z, one);
  const __m512 s = _mm512_rcp14_ps(d);
  return _mm512_fmadd_ps(s, _mm512_fnmadd_ps(d, s, one), s);
}

// Sigmoid or swish on [0, n) of in (to out), 16 lanes a step and the tail masked.
template <Function kF>
__attribute__((target("avx512f"), always_inline)) inline void SigmoidsAvx512(const float* in,
                                                                             int64_t n, float* out) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_loadu_ps(in + i);
    const __m512 s = SigmoidAvx512(x);
    _mm512_storeu_ps(out + i, kF == Function::kSwish ? _mm512_mul_ps(s, x) : s);
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 x = _mm512_maskz_loadu_ps(m, in + i);
    const __m512 s = SigmoidAvx512(x);
    _mm512_mask_storeu_ps(out + i, m, kF == Function::kSwish ? _mm512_mul_ps(s, x) : s);
  }
}

template <Function kF>
__attribute__((target("avx512f"))) void ApplyAvx512(const float* in, int64_t n, float* out) {
  SigmoidsAvx512<kF>(in, n, out);
}
#endif

template <Function kF>
void ApplyTo(const float* in, int64_t n, float* out) {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) {
    ApplyAvx512<kF>(in, n, out);
    return;
  }
  if (gemm::CpuHasAvx2Fma()) {
    ApplyAvx2<kF>(in, n, out);
    return;
  }
#endif
  ApplyGeneric<kF>(in, n, out);
}

}  // namespace

void Apply(Function f, const float* in, int64_t n, float* out) {
  switch (f) {
    case Function::kSigmoid:
      ApplyTo<Function::kSigmoid>(in, n, out);
      break;
    case Function::kSwish: ApplyTo<Function::kSwish>(in, n, out); break;
  }
}

}  // namespace vector_math
}  // namespace tflite
