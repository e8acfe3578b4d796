// Eigen's pexp_float as TFLite's x86 build runs it (SSE packets without FMA): shared by the
// float kernels whose bits dynamic-range models quantize (SOFTMAX, GELU's erfc). On GCC
// vector extensions of any width: each lane computes what one lane of an SSE packet does.
// Callers compile with fp-contract=off (AVX-512 and AVX2 + FMA targets would fuse the
// multiply-adds).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_EIGEN_EXP_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_EIGEN_EXP_H_

#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/vector_math.h"

namespace tflite {
namespace eigen_exp {

using vector_math::IntOf;

// x log2(e) + 1/2, whose floor is the reduction's m (below), each step rounded.
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void ScaledLog2(const V& x,
                                                                                   V& t) {
  t = x * 1.44269504088896341f;
  t = t + 0.5f;
}

// 2^e as a float (e in [-126, 127] gives a normal power; callers keep it there).
template <typename I, typename V>
__attribute__((always_inline)) inline void Pow2(const I& e, V& v) {
  const I bits = (e + 127) << 23;
  std::memcpy(&v, &bits, sizeof v);
}

// The reduced argument of Cephes' range reduction as Eigen writes it: r = x - m ln(2), ln(2)
// in two parts, each product and sum rounded on its own.
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void RemainderLn2(const V& x,
                                                                                     const V& m,
                                                                                     V& r) {
  r = m * -0.693359375f;
  r = r + x;
  const V r_c2 = m * 2.12194440e-4f;
  r = r_c2 + r;
}

// Cephes' range reduction as Eigen writes it (pexp, the logistic): m = floor(x log2(e) +
// 1/2) (mi: the same as integers), r = RemainderLn2(x, m). x log2(e) must be within int32.
#if defined(__x86_64__) || defined(__i386__)
// floor(t) on 8 AVX2 lanes by one roundps (m, and mi: the same as integers): the values of
// the truncate-and-correct sequence below for t within int32. (For NaN or infinite t the
// sequence's m is -2^31 and roundps' is t: every caller's r is then NaN or its lane's
// result is set aside either way.) Not always_inline: see PExp16.
__attribute__((target("avx2"))) inline void Floor8(const vector_math::V8& t, vector_math::I8& mi,
                                                   vector_math::V8& m) {
  const __m256 f = _mm256_floor_ps(reinterpret_cast<const __m256&>(t));
  m = reinterpret_cast<const vector_math::V8&>(f);
  const __m256i i = _mm256_cvttps_epi32(f);
  mi = reinterpret_cast<const vector_math::I8&>(i);
}
#endif

template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void ReduceLn2(
    const V& x, typename IntOf<V>::type& mi, V& m, V& r) {
  using I = typename IntOf<V>::type;
  V t;
  ScaledLog2(x, t);
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (std::is_same_v<V, vector_math::V8>) {
    Floor8(t, mi, m);
    RemainderLn2(x, m, r);
    return;
  }
#endif
  // floor(t): truncate, then one less where that rounded up.
  mi = __builtin_convertvector(t, I);
  m = __builtin_convertvector(mi, V);
  mi = m > t ? mi - 1 : mi;
  m = __builtin_convertvector(mi, V);
  RemainderLn2(x, m, r);
}

// pexp's polynomial: y = exp(r) for the reduced argument, Eigen's order of operations.
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void PExpPolynomial(const V& r,
                                                                                       V& y) {
  const V r2 = r * r;
  V p_even = r2 * 1.37449637986719608306884765625e-3f;
  p_even = p_even + 4.166965186595916748046875e-2f;
  V p_odd = r2 * 8.36894474923610687255859375e-3f;
  p_odd = p_odd + 0.16666518151760101318359375f;
  p_even = r2 * p_even;
  p_even = p_even + 0.49999988079071044921875f;
  const V p_low = r + 1.0f;
  y = r * p_odd;
  y = y + p_even;
  y = r2 * y;
  y = y + p_low;
}

// pldexp's product y * 2^m for m in [-159, 128] as two factors, y * 2^h * 2^(m - h), h = m >> 1
// (both normal floats). Eigen multiplies by four powers of two (after clamping m to
// [-2099, 2099]): exact but the last, which rounds y * 2^m once, as the second factor here
// does. The same bits, two multiplies fewer.
template <typename I, typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void ScaleByPow2(const I& mi,
                                                                                    V& y) {
  const I h = mi >> 1;
  V c, d;
  Pow2(h, c);
  Pow2(mi - h, d);
  y = y * c;
  y = y * d;
}

#if defined(__x86_64__) || defined(__i386__)
// PExp on 16 AVX-512 lanes: the clamps, the final pmax and the -104 cut as min / max and a
// zeroing mask, the floor by roundscale and pldexp's product by 2^m as one scalef (Eigen
// multiplies by four powers of two, exact but the last, which rounds once where the result
// is subnormal: scalef rounds y * 2^m once as well). The same bits, about a third fewer
// operations. Not always_inline, as a function of this target cannot be inlined into the
// generic templates that call PExp: it inlines into the AVX-512 functions they inline into.
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void PExp16(
    vector_math::V16& io) {
  using V = vector_math::V16;
  const __m512 x0 = reinterpret_cast<const __m512&>(io);
  // min and max return their second operand where one is NaN: a NaN x0 flows through.
  const V x = reinterpret_cast<V>(
      _mm512_max_ps(_mm512_set1_ps(-110.0f), _mm512_min_ps(_mm512_set1_ps(88.723f), x0)));
  V t, r;
  ScaledLog2(x, t);
  const __m512 m =
      _mm512_roundscale_ps(reinterpret_cast<__m512>(t), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  RemainderLn2(x, reinterpret_cast<const V&>(m), r);
  V y;
  PExpPolynomial(r, y);
  // pmax(out, x0): x0 where it is larger (+inf) or NaN; 0 below -104.
  __m512 out = _mm512_max_ps(_mm512_scalef_ps(reinterpret_cast<__m512>(y), m), x0);
  out = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x0, _mm512_set1_ps(-104.0f), _CMP_NLT_UQ), out);
  io = reinterpret_cast<V>(out);
}
#endif

#if defined(__x86_64__) || defined(__i386__)
// PExp on 8 AVX2 lanes: the clamps and the final pmax as min / max (the same operand order
// as the generic selects) and the floor by roundps (Floor8). The same bits, fewer
// operations. Not always_inline: see PExp16.
__attribute__((target("avx2"), optimize("fp-contract=off"))) inline void PExp8(
    vector_math::V8& io) {
  using V = vector_math::V8;
  using I = vector_math::I8;
  const __m256 x0 = reinterpret_cast<const __m256&>(io);
  // minps / maxps return their second operand where one is NaN: x0 < hi ? x0 : hi.
  const V x = reinterpret_cast<V>(
      _mm256_max_ps(_mm256_min_ps(x0, _mm256_set1_ps(88.723f)), _mm256_set1_ps(-110.0f)));
  I mi;
  V m, r, y;
  ReduceLn2(x, mi, m, r);
  PExpPolynomial(r, y);
  ScaleByPow2(mi, y);
  // pmax(out, x0): x0 where it is larger (+inf) or NaN; 0 below -104.
  __m256 out = _mm256_max_ps(reinterpret_cast<__m256>(y), x0);
  out = _mm256_andnot_ps(_mm256_cmp_ps(x0, _mm256_set1_ps(-104.0f), _CMP_LT_OQ), out);
  io = reinterpret_cast<V>(out);
}
#endif

// Eigen's pexp_float, lane by lane, each multiply and add rounded on its own (the SSE build
// has no FMA). Vectors pass by reference (see vector_math.h).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void PExp(V& io) {
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (std::is_same_v<V, vector_math::V16>) {
    PExp16(io);
    return;
  }
  if constexpr (std::is_same_v<V, vector_math::V8>) {
    PExp8(io);
    return;
  }
#endif
  using I = typename IntOf<V>::type;
  const V x0 = io;
  // pmin(x0, 88.723); NaN lanes end as x0 (pmax below) whatever is computed here. Lanes
  // below -104 end as 0: clamping them at -110 keeps m (and 2^m's factors) in range.
  V x = x0 < 88.723f ? x0 : V{} + 88.723f;
  x = x > -110.0f ? x : V{} - 110.0f;
  I mi;
  V m, r, y;
  ReduceLn2(x, mi, m, r);
  PExpPolynomial(r, y);
  V out = y;
  ScaleByPow2(mi, out);
  // pmax(out, x0): x0 where it is larger (+inf) or NaN; 0 below -104.
  out = out > x0 ? out : x0;
  out = x0 < -104.0f ? V{} : out;
  io = out;
}

}  // namespace eigen_exp
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_EIGEN_EXP_H_
