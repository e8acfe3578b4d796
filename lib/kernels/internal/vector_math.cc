#include "kernels/internal/vector_math.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
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

void SoftmaxGeneric(const float* in, int64_t rows, int depth, float beta, float* out) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * depth;
    float* y = out + r * depth;
    float max = x[0];
    for (int c = 1; c < depth; ++c) max = x[c] > max ? x[c] : max;
    // exp((x - max) beta) of n <= 4 values from at through a padded vector, stored; lanes
    // past n are 0 in the returned sum term.
    auto exp_block = [&](int at, int n) {
      float buf[4] = {};
      std::memcpy(buf, x + at, sizeof(float) * n);
      V4 v;
      std::memcpy(&v, buf, sizeof v);
      v = (v - max) * beta;
      Exp(v);
      std::memcpy(y + at, &v, sizeof(float) * n);
      for (int i = n; i < 4; ++i) v[i] = 0.0f;
      return v;
    };
    V4 lanes = V4{};
    int c = 0;
    for (; c + 4 <= depth; c += 4) lanes += exp_block(c, 4);
    if (c < depth) lanes += exp_block(c, depth - c);
    const float sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    const float scale = 1.0f / sum;
    for (c = 0; c < depth; ++c) y[c] *= scale;
  }
}

#if defined(__x86_64__) || defined(__i386__)
// exp(x) on 8 lanes: 2^n from a magic-biased rounding (the biased exponent in the low
// mantissa bits: one shift, no conversion); Exp's two-constant reduction and polynomial
// (vector_math.h); 0 below -87.33 (where 2^n would leave the normal range); NaN stays NaN.
// kClamp: arguments above 88 clamped there (callers whose arguments are <= 0 skip it).
template <bool kClamp>
__attribute__((target("avx2,fma"), always_inline)) inline __m256 ExpAvx2(__m256 x) {
  if constexpr (kClamp) x = _mm256_min_ps(_mm256_set1_ps(88.0f), x);  // (NaN stays NaN)
  const __m256 magic = _mm256_set1_ps(12583039.0f);  // 1.5 * 2^23 + 127
  const __m256 t = _mm256_fmadd_ps(x, _mm256_set1_ps(kLog2e), magic);
  const __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
  const __m256 n = _mm256_sub_ps(t, magic);  // round(x * log2(e)), exactly
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Hi), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), r);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(kExpP0), r, _mm256_set1_ps(kExpP1));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP2));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP3));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP4));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP5));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
  const __m256 e = _mm256_fmadd_ps(p, scale, scale);  // (1 + p) * 2^n
  // An ordered compare: NaN passes.
  return _mm256_andnot_ps(_mm256_cmp_ps(x, _mm256_set1_ps(-87.33f), _CMP_LT_OQ), e);
}

// Sigmoid on 8 lanes for Apply on AVX2: f = e / (1 + e), e = ExpAvx2(-|x|) (in [0, 1]:
// nothing to clamp; 0 past |x| = 87.33), then 1 - f where x is positive. Within 3 ulp of
// 1 / (1 + exp(-x)) down to -80; NaN stays NaN. Half the operations of the lane-generic
// form (EfficientNet's swishes were a fifth of its time on an AVX2 Zen 3).
__attribute__((target("avx2,fma"), always_inline)) inline __m256 SigmoidAvx2(__m256 x) {
  const __m256 z = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);  // |x|
  // e = exp(-|x|): 0 past the cutoff and for infinite x, so f is.
  const __m256 e = ExpAvx2<false>(_mm256_sub_ps(_mm256_setzero_ps(), z));
  const __m256 f = _mm256_div_ps(e, _mm256_add_ps(e, _mm256_set1_ps(1.0f)));
  // x's sign bit picks f (negative x), else 1 - f.
  return _mm256_blendv_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), f), f, x);
}

// The largest lane (maxps order: NaN lanes skipped where the other operand is not NaN).
__attribute__((target("avx2,fma"), always_inline)) inline float MaxLane(__m256 m) {
  __m128 h = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
  h = _mm_max_ps(_mm_movehl_ps(h, h), h);
  h = _mm_max_ss(_mm_movehdup_ps(h), h);
  return _mm_cvtss_f32(h);
}

__attribute__((target("avx2,fma"), always_inline)) inline float SumLanes(__m256 s) {
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_movehdup_ps(h));
  return _mm_cvtss_f32(h);
}

// exp((x - max) * beta) of 8 lanes; kBeta false: beta is 1 (no multiply).
template <bool kBeta>
__attribute__((target("avx2,fma"), always_inline)) inline __m256 ExpMinusMaxAvx2(const float* x,
                                                                                 __m256 max,
                                                                                 __m256 beta) {
  const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(x), max);
  return ExpAvx2<true>(kBeta ? _mm256_mul_ps(d, beta) : d);
}

// Rows of at least 8 values, in blocks of up to 8 rows phase by phase (the maxima, then the
// exponentials and sums, then the scaling), so that the rows' latency chains (a maximum's
// reduction, a sum's, the division) overlap instead of each row waiting on its own: 1.8x
// on rows of 100 values. A row's last depth % 8 values as its last 8 (lanes computed again
// store the same values; the sum takes only the new ones), no partial vectors or copies.
template <bool kBeta>
__attribute__((target("avx2,fma"))) void SoftmaxRowsAvx2(const float* in, int64_t rows, int depth,
                                                         float beta, float* out) {
  static const int32_t kIota[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  const __m256i iota = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kIota));
  const int tail = depth % 8;
  // The last vector's lanes past the whole vectors.
  const __m256 tail_mask =
      _mm256_castsi256_ps(_mm256_cmpgt_epi32(iota, _mm256_set1_epi32(7 - tail)));
  const __m256 vbeta = _mm256_set1_ps(beta);
  constexpr int kBlock = 8;
  for (int64_t row0 = 0; row0 < rows; row0 += kBlock) {
    const int count = static_cast<int>(std::min<int64_t>(kBlock, rows - row0));
    float max[kBlock], scale[kBlock];
    for (int r = 0; r < count; ++r) {
      const float* x = in + (row0 + r) * depth;
      // maxps returns its second operand where one is NaN: NaN values are skipped (their
      // exponentials make the row NaN).
      __m256 m0 = _mm256_loadu_ps(x + depth - 8), m1 = m0;
      int c = 0;
      for (; c + 16 <= depth; c += 16) {
        m0 = _mm256_max_ps(_mm256_loadu_ps(x + c), m0);
        m1 = _mm256_max_ps(_mm256_loadu_ps(x + c + 8), m1);
      }
      if (c + 8 <= depth) m0 = _mm256_max_ps(_mm256_loadu_ps(x + c), m0);
      max[r] = MaxLane(_mm256_max_ps(m1, m0));
    }
    for (int r = 0; r < count; ++r) {
      const float* x = in + (row0 + r) * depth;
      float* y = out + (row0 + r) * depth;
      const __m256 vmax = _mm256_set1_ps(max[r]);
      __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
      int c = 0;
      for (; c + 16 <= depth; c += 16) {
        const __m256 e0 = ExpMinusMaxAvx2<kBeta>(x + c, vmax, vbeta);
        const __m256 e1 = ExpMinusMaxAvx2<kBeta>(x + c + 8, vmax, vbeta);
        _mm256_storeu_ps(y + c, e0);
        _mm256_storeu_ps(y + c + 8, e1);
        s0 = _mm256_add_ps(s0, e0);
        s1 = _mm256_add_ps(s1, e1);
      }
      if (c + 8 <= depth) {
        const __m256 e = ExpMinusMaxAvx2<kBeta>(x + c, vmax, vbeta);
        _mm256_storeu_ps(y + c, e);
        s0 = _mm256_add_ps(s0, e);
      }
      if (tail != 0) {
        const int last = depth - 8;
        const __m256 e = ExpMinusMaxAvx2<kBeta>(x + last, vmax, vbeta);
        // (In place, the overlapped lanes of x hold exponentials already: not stored again.)
        if (x != y) {
          _mm256_storeu_ps(y + last, e);
        } else {
          alignas(32) float buf[8];
          _mm256_store_ps(buf, e);
          for (int i = 8 - tail; i < 8; ++i) y[last + i] = buf[i];
        }
        s1 = _mm256_add_ps(s1, _mm256_and_ps(tail_mask, e));
      }
      scale[r] = 1.0f / SumLanes(_mm256_add_ps(s0, s1));
    }
    for (int r = 0; r < count; ++r) {
      float* y = out + (row0 + r) * depth;
      const __m256 vscale = _mm256_set1_ps(scale[r]);
      int c = 0;
      for (; c + 8 <= depth; c += 8) {
        _mm256_storeu_ps(y + c, _mm256_mul_ps(_mm256_loadu_ps(y + c), vscale));
      }
      for (; c < depth; ++c) y[c] *= scale[r];
    }
  }
}

__attribute__((target("avx2,fma"))) void SoftmaxAvx2(const float* in, int64_t rows, int depth,
                                                     float beta, float* out) {
  if (depth < 8) {  // rows shorter than a vector: the portable lanes
    SoftmaxGeneric(in, rows, depth, beta, out);
  } else if (beta == 1.0f) {
    SoftmaxRowsAvx2<false>(in, rows, depth, beta, out);
  } else {
    SoftmaxRowsAvx2<true>(in, rows, depth, beta, out);
  }
}

// GELU's erf form on 8 lanes (vector_math.h: kGelu), with FMAs.
__attribute__((target("avx2,fma"), always_inline)) inline __m256 GeluAvx2(__m256 x) {
  const __m256 half = _mm256_mul_ps(x, _mm256_set1_ps(0.5f));
  // maxps / minps return their second operand on NaN: NaN stays NaN.
  __m256 z = _mm256_mul_ps(x, _mm256_set1_ps(kSqrtHalf));
  z = _mm256_min_ps(_mm256_set1_ps(kErfClamp), _mm256_max_ps(_mm256_set1_ps(-kErfClamp), z));
  const __m256 w = _mm256_mul_ps(z, z);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(kErfP[4]), w, _mm256_set1_ps(kErfP[3]));
  p = _mm256_fmadd_ps(p, w, _mm256_set1_ps(kErfP[2]));
  p = _mm256_fmadd_ps(p, w, _mm256_set1_ps(kErfP[1]));
  p = _mm256_fmadd_ps(p, w, _mm256_set1_ps(kErfP[0]));
  __m256 q = _mm256_fmadd_ps(_mm256_set1_ps(kErfQ[4]), w, _mm256_set1_ps(kErfQ[3]));
  q = _mm256_fmadd_ps(q, w, _mm256_set1_ps(kErfQ[2]));
  q = _mm256_fmadd_ps(q, w, _mm256_set1_ps(kErfQ[1]));
  q = _mm256_fmadd_ps(q, w, _mm256_set1_ps(kErfQ[0]));
  q = _mm256_fmadd_ps(q, w, _mm256_set1_ps(1.0f));
  const __m256 erf = _mm256_div_ps(_mm256_mul_ps(z, p), q);
  return _mm256_fmadd_ps(half, erf, half);
}

template <Function kF>
__attribute__((target("avx2,fma"), always_inline)) inline __m256 MapAvx2(__m256 x) {
  if constexpr (kF == Function::kExp || kF == Function::kLog) {
    __m256 y;
    if constexpr (kF == Function::kExp) {
      y = ExpAvx2<true>(x);
    } else {
      V8 v;  // the polynomial's generic form, compiled for AVX2 and FMA here
      std::memcpy(&v, &x, sizeof v);
      Log(v);
      std::memcpy(&y, &v, sizeof y);
    }
    // Lanes outside the polynomial's range (NaN included): libm's value (rare: a branch).
    const __m256 ok = kF == Function::kExp
                          ? _mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(kExpLow), _CMP_GE_OQ),
                                          _mm256_cmp_ps(x, _mm256_set1_ps(kExpHigh), _CMP_LE_OQ))
                          : _mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(FLT_MIN), _CMP_GE_OQ),
                                          _mm256_cmp_ps(x, _mm256_set1_ps(FLT_MAX), _CMP_LE_OQ));
    if (__builtin_expect(_mm256_movemask_ps(ok) != 0xff, 0)) {
      float xs[8], ys[8];
      _mm256_storeu_ps(xs, x);
      _mm256_storeu_ps(ys, y);
      for (int l = 0; l < 8; ++l) {
        if (!InVectorRange<kF>(xs[l])) ys[l] = LibmValue<kF>(xs[l]);
      }
      y = _mm256_loadu_ps(ys);
    }
    return y;
  } else if constexpr (kF == Function::kSigmoid) {
    return SigmoidAvx2(x);
  } else if constexpr (kF == Function::kSwish) {
    return _mm256_mul_ps(SigmoidAvx2(x), x);
  } else if constexpr (kF == Function::kGelu) {
    return GeluAvx2(x);
  } else {  // x * sigmoid(2u), 2u = x (2k + 2kc x^2)
    const __m256 v =
        _mm256_mul_ps(x, _mm256_fmadd_ps(_mm256_set1_ps(2.0f * kSqrt2OverPi * kGeluCubic),
                                         _mm256_mul_ps(x, x), _mm256_set1_ps(2.0f * kSqrt2OverPi)));
    return _mm256_mul_ps(SigmoidAvx2(v), x);
  }
}

template <Function kF>
__attribute__((target("avx2,fma"))) void ApplyAvx2(const float* in, int64_t n, float* out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, MapAvx2<kF>(_mm256_loadu_ps(in + i)));
  if (i < n) {  // the last n % 8 through a zero-padded copy
    float tail[8] = {};
    std::memcpy(tail, in + i, sizeof(float) * (n - i));
    _mm256_storeu_ps(tail, MapAvx2<kF>(_mm256_loadu_ps(tail)));
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
  // (GELU's forms have no AVX-512 kernel: their AVX2 one, as such CPUs have AVX2 and FMA.)
  if constexpr (kF == Function::kSigmoid || kF == Function::kSwish) {
    if (gemm::CpuHasAvx512F()) {
      ApplyAvx512<kF>(in, n, out);
      return;
    }
  }
  if (gemm::CpuHasAvx2Fma()) {
    ApplyAvx2<kF>(in, n, out);
    return;
  }
#endif
  ApplyGeneric<kF>(in, n, out);
}

}  // namespace

void Softmax(const float* in, int64_t rows, int depth, float beta, float* out) {
  if (rows <= 0 || depth <= 0) return;
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx2Fma()) {
    SoftmaxAvx2(in, rows, depth, beta, out);
    return;
  }
#endif
  SoftmaxGeneric(in, rows, depth, beta, out);
}

void Apply(Function f, const float* in, int64_t n, float* out) {
  switch (f) {
    case Function::kSigmoid:
      ApplyTo<Function::kSigmoid>(in, n, out);
      break;
    case Function::kSwish: ApplyTo<Function::kSwish>(in, n, out); break;
    case Function::kGelu:
      ApplyTo<Function::kGelu>(in, n, out);
      break;
    case Function::kGeluTanh:
      ApplyTo<Function::kGeluTanh>(in, n, out);
      break;
    case Function::kExp:
      ApplyTo<Function::kExp>(in, n, out);
      break;
    case Function::kLog:
      ApplyTo<Function::kLog>(in, n, out);
      break;
  }
}

}  // namespace vector_math
}  // namespace tflite
