// Eigen's float logistic (Eigen/src/Core/functors/UnaryFunctors.h, the version TFLite
// 2.21 builds): packets compute exp(x) / (1 + exp(x)) with exp(x / 2) squared, where exp
// is Cephes' range reduction, a degree-5 polynomial and a bit-built 2^m, and 0 below -104;
// every multiply and add rounded on its own (TFLite's x86 build: SSE, no FMA). The
// tensor's first n & ~3 values are SSE packets; its last n % 4 are Eigen's scalar path,
// std::exp(min(x, 16.6355324)) / (1 + that). Checked bit for bit against ai-edge-litert
// 2.3.0 (testdata/kernels/logistic_float_*).
#include "kernels/internal/logistic_f32.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/eigen_exp.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/vector_math.h"

namespace tflite {
namespace logistic_f32 {
namespace {

using vector_math::IntOf;

constexpr float kExpHi = 16.6355324f;

// Eigen's packet logistic, the parts every lane width shares (vectors pass by reference:
// see vector_math.h). First x clamped and halved: pmin(x, hi) keeps a NaN x (SSE's minps
// with the operands reversed, as std::min); below -104 the result is 0 whatever is
// computed, and -110 keeps 2^m a normal number (a NaN stays, and ends as NaN).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void HalfArgument(const V& x0,
                                                                                     V& x) {
  x = kExpHi < x0 ? V{} + kExpHi : x0;
  x = x < -110.0f ? V{} - 110.0f : x;
  x = x * 0.5f;
}

// p = exp(r): Cephes' polynomial as Eigen evaluates it.
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Polynomial(const V& r,
                                                                                   V& p) {
  const V r2 = r * r;
  V p_even = r2 * 4.1898667812347412109375e-2f;
  p_even = p_even + 0.49999141693115234375f;
  V p_odd = r2 * 8.33471305668354034423828125e-3f;
  p_odd = p_odd + 0.16666877269744873046875f;
  const V p_low = r + 1.0f;
  p = r * p_odd;
  p = p + p_even;
  p = r2 * p;
  p = p + p_low;
}

// From e = exp(x / 2), in place: e^2 / (e^2 + 1), 0 below -104; with kSwish, x * that.
template <typename V, bool kSwish>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Quotient(V& e,
                                                                                 const V& x0) {
  e = e * e;
  const V den = e + 1.0f;
  // A true division (divps): Markstein's division-free sequence, correctly rounded on every
  // float here too, was 20% slower on Zen 4.
  e = e / den;
  e = x0 < -104.0f ? V{} : e;
  if constexpr (kSwish) e = x0 * e;
}

// Eigen's packet logistic on V lanes, in place; with kSwish, x * logistic(x) after it.
template <typename V, bool kSwish>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Lanes(V& io) {
  V x;
  HalfArgument(io, x);
  typename IntOf<V>::type mi;
  V m, r;
  eigen_exp::ReduceLn2(x, mi, m, r);
  // 2^m from its exponent bits (pldexp_fast: m + 127 is in [47, 140] here).
  V pow2, e;
  eigen_exp::Pow2(mi, pow2);
  Polynomial(r, e);
  e = e * pow2;
  Quotient<V, kSwish>(e, io);
  io = e;
}

template <bool kSwish>
inline float Scalar(float x) {
  const float e = std::exp(std::min(x, kExpHi));
  const float y = e / (1.0f + e);
  return kSwish ? x * y : y;
}

// Values [0, n - tail) as packets (a partial last vector computes the same lanes), the
// last `tail` as Eigen's scalar path.
template <typename V, int kLanes, bool kSwish>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Impl(const float* in,
                                                                             float* out, int64_t n,
                                                                             int64_t tail) {
  const int64_t packets = n - tail;
  int64_t i = 0;
  for (; i + 2 * kLanes <= packets; i += 2 * kLanes) {
    V a, b;
    std::memcpy(&a, in + i, sizeof a);
    std::memcpy(&b, in + i + kLanes, sizeof b);
    Lanes<V, kSwish>(a);
    Lanes<V, kSwish>(b);
    std::memcpy(out + i, &a, sizeof a);
    std::memcpy(out + i + kLanes, &b, sizeof b);
  }
  for (; i < packets; i += 4) {
    const size_t left = static_cast<size_t>(std::min<int64_t>(4, packets - i));
    vector_math::V4 a = {};
    std::memcpy(&a, in + i, left * sizeof(float));
    Lanes<vector_math::V4, kSwish>(a);
    std::memcpy(out + i, &a, left * sizeof(float));
  }
  for (i = packets; i < n; ++i) out[i] = Scalar<kSwish>(in[i]);  // Eigen's scalar path
}

template <bool kSwish>
void Generic(const float* in, float* out, int64_t n, int64_t tail) {
  Impl<vector_math::V4, 4, kSwish>(in, out, n, tail);
}

#if defined(__x86_64__) || defined(__i386__)
template <bool kSwish>
__attribute__((target("avx2"), optimize("fp-contract=off"))) void Avx2(const float* in, float* out,
                                                                       int64_t n, int64_t tail) {
  Impl<vector_math::V8, 8, kSwish>(in, out, n, tail);
}
// Lanes on 16 AVX-512 lanes, with one instruction for the floor (roundscale) and one for
// the product by 2^m (scalef, exact: p * 2^m is a normal float here) where Lanes takes
// seven, and the clamps as min and max: the same bits, 0.51 -> 0.41 ns a swish on Zen 4.
template <bool kSwish>
__attribute__((target("avx512f"), always_inline, optimize("fp-contract=off"))) inline void Lanes16(
    vector_math::V16& io) {
  using V = vector_math::V16;
  V x, t, r, e;
  // HalfArgument's clamps as min and max (which return the second operand, a NaN x, where
  // one is NaN).
  x = reinterpret_cast<V>(
      _mm512_max_ps(_mm512_set1_ps(-110.0f),
                    _mm512_min_ps(_mm512_set1_ps(kExpHi), reinterpret_cast<const __m512&>(io))));
  x = x * 0.5f;
  eigen_exp::ScaledLog2(x, t);
  const __m512 m =
      _mm512_roundscale_ps(reinterpret_cast<__m512>(t), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  eigen_exp::RemainderLn2(x, reinterpret_cast<const V&>(m), r);
  Polynomial(r, e);
  e = reinterpret_cast<V>(_mm512_scalef_ps(reinterpret_cast<__m512>(e), m));
  Quotient<V, kSwish>(e, io);
  io = e;
}

// Impl's loop with Lanes16 (a target-specific function cannot be inlined into Impl), the
// rest of the packets and the scalar tail through Impl on 4 lanes.
template <bool kSwish>
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void Avx512(const float* in,
                                                                            float* out, int64_t n,
                                                                            int64_t tail) {
  const int64_t packets = n - tail;
  int64_t i = 0;
  for (; i + 32 <= packets; i += 32) {
    vector_math::V16 a, b;
    std::memcpy(&a, in + i, sizeof a);
    std::memcpy(&b, in + i + 16, sizeof b);
    Lanes16<kSwish>(a);
    Lanes16<kSwish>(b);
    std::memcpy(out + i, &a, sizeof a);
    std::memcpy(out + i + 16, &b, sizeof b);
  }
  // One vector more before the 4-lane packets (an LSTM gate of 20 values).
  if (i + 16 <= packets) {
    vector_math::V16 a;
    std::memcpy(&a, in + i, sizeof a);
    Lanes16<kSwish>(a);
    std::memcpy(out + i, &a, sizeof a);
    i += 16;
  }
  Impl<vector_math::V4, 4, kSwish>(in + i, out + i, n - i, tail);
}
#endif

template <bool kSwish>
void Run(const float* in, float* out, int64_t n, int64_t tail) {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) return Avx512<kSwish>(in, out, n, tail);
  if (gemm::CpuHasAvx2()) return Avx2<kSwish>(in, out, n, tail);
#endif
  Generic<kSwish>(in, out, n, tail);
}

}  // namespace

void Logistic(const float* in, float* out, int64_t n) { Run<false>(in, out, n, n % 4); }
void Swish(const float* in, float* out, int64_t n) { Run<true>(in, out, n, n % 4); }
void SwishPart(const float* in, float* out, int64_t n, int64_t scalar_tail) {
  Run<true>(in, out, n, std::min(std::max<int64_t>(scalar_tail, 0), n));
}

}  // namespace logistic_f32
}  // namespace tflite
