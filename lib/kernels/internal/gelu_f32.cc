// GELU on float32 for the builtin kernel (kernels/gelu.cc) and the XNNPACK delegate's own
// step (this XNNPACK has no GELU): one implementation, so both give the same values.
#include "kernels/internal/gelu_f32.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/avx2_lanes.h"
#include "kernels/internal/eigen_exp.h"
#include "kernels/internal/elementwise.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/tanh_f32.h"
#include "kernels/internal/vector_math.h"

namespace tflite {
namespace gelu_f32 {
namespace {

// Exact GELU as TFLite's builtin kernel computes it on x86 (Eigen array code built for
// SSE without FMA; checked bit for bit against ai-edge-litert 2.3.0 on 65,536 values and
// testdata/kernels/gelu_float_*): out = (0.5 x) * erfc(x * -sqrt(1/2)) with Eigen's
// generic_fast_erfc<float>: x clamped to [-11, 11]; for x^2 <= 1, 1 + x * S(x^2); beyond,
// exp(-x^2) (Eigen's pexp, corrected by the low part of x^2 from Veltkamp's splitting)
// times P(1/x^2) / (x Q(1/x^2)), plus 2 for negative x. Every multiply and add rounded on
// its own. The tensor's first n & ~3 values are SSE packets; the last n % 4 are Eigen's
// scalar path, the same operations but std::exp.
constexpr float kErfcSmall[] = {5.61802298761904239654541015625e-04f, -4.91381669417023658752441406250e-03f,
                                2.67075151205062866210937500000e-02f, -1.12800106406211853027343750000e-01f,
                                3.76122951507568359375000000000e-01f, -1.12837910652160644531250000000e+00f};
constexpr float kErfcNum[] = {1.0208116471767425537109375e-01f, 4.2920666933059692382812500e-01f,
                              3.2379078865051269531250000e-01f, 5.3971976041793823242187500e-02f};
constexpr float kErfcDen[] = {1.7251677811145782470703125e-02f, 3.9137163758277893066406250e-01f,
                              1.0000000000000000000000000e+00f, 6.2173241376876831054687500e-01f,
                              9.5662862062454223632812500e-02f};

// p = Horner's rule, highest degree first (Eigen's ppolevl), each step a multiply then an
// add. Vectors pass by reference (see vector_math.h).
template <typename V, size_t N>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Polevl(
    const V& x, const float (&c)[N], V& p) {
  p = V{} + c[0];
  for (size_t i = 1; i < N; ++i) {
    p = p * x;
    p = p + c[i];
  }
}

// Veltkamp's splitting of x into hi + lo (12 significant bits in hi).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Split(const V& x, V& hi,
                                                                              V& lo) {
  const V gamma = x * 4097.0f;
  const V rho = x - gamma;
  hi = rho + gamma;
  lo = x - hi;
}

// erfc's argument clamped (x), its square and the inner approximation 1 + x * S(x^2).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void ErfcInner(
    const V& x_in, V& x, V& x2, V& small) {
  x = x_in > -11.0f ? x_in : V{} - 11.0f;
  x = x < 11.0f ? x : V{} + 11.0f;
  x2 = x * x;
  Polevl(x2, kErfcSmall, small);
  small = x * small;
  small = small + 1.0f;
}

// erfc on V lanes (Exp: Eigen's pexp for packets, std::exp for the scalar path).
template <typename V, bool kPacketExp>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Erfc(const V& x_in,
                                                                            V& result) {
  V x, x2, small;
  ErfcInner(x_in, x, x2, small);
  // x^2 = x2 + x2_lo exactly (Dekker's product on the split halves).
  V xh, xl;
  Split(x, xh, xl);
  V x2_lo = xh * xh;
  x2_lo = x2_lo + -x2;
  V t = xh * xl;
  x2_lo = t + x2_lo;
  t = xl * xh;
  x2_lo = t + x2_lo;
  t = xl * xl;
  x2_lo = t + x2_lo;
  V e = -x2;
  if constexpr (kPacketExp) {
    eigen_exp::PExp(e);
  } else {
    e[0] = std::exp(e[0]);
  }
  t = e * x2_lo;
  const V z = e - t;
  const V q2 = 1.0f / x2;
  V num, den;
  Polevl(q2, kErfcNum, num);
  Polevl(q2, kErfcDen, den);
  den = x * den;
  const V r = num / den;
  V large = z * r;
  large = large + (x < 0.0f ? V{} + 2.0f : V{});
  result = x2 > 1.0f ? large : small;
}

// (0.5 x) * erfc(x * -sqrt(1/2)) on V lanes.
template <typename V, bool kPacketExp>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void GeluLanes(V& x) {
  V e;
  Erfc<V, kPacketExp>(x * static_cast<float>(-M_SQRT1_2), e);
  x = x * 0.5f;
  x = x * e;
}

// The lanes [0, left) of a vector whose erfc argument z is in the outer range (x2 > 1)
// appended to zbuf / ibuf (the argument, the value's index in the chunk): lane by lane.
template <typename V>
__attribute__((always_inline)) inline void PackOuter(const V& z, const V& x2, int left, int j,
                                                     float* zbuf, int32_t* ibuf, int& count) {
  for (int l = 0; l < left; ++l) {
    if (x2[l] > 1.0f) {
      zbuf[count] = z[l];
      ibuf[count++] = j + l;
    }
  }
}

// out[idx[l]] = (0.5 in[idx[l]]) * e[l] for the packed lanes [0, left).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void StoreOuter(
    const V& e, int left, const int32_t* idx, const float* in, float* out) {
  for (int l = 0; l < left; ++l) {
    float y = in[idx[l]] * 0.5f;
    y = y * e[l];
    out[idx[l]] = y;
  }
}

#if defined(__x86_64__) || defined(__i386__)
// The same on AVX-512: vcompressps, and a gather and scatter.
__attribute__((target("avx512f"))) inline void PackOuter(
    const vector_math::V16& z, const vector_math::V16& x2, int left, int j, float* zbuf,
    int32_t* ibuf, int& count) {
  const __mmask16 m = left >= 16 ? static_cast<__mmask16>(0xFFFF)
                                 : static_cast<__mmask16>((1u << left) - 1);
  const __mmask16 outer = _mm512_mask_cmp_ps_mask(m, x2, _mm512_set1_ps(1.0f), _CMP_GT_OQ);
  const __m512i index = _mm512_add_epi32(
      _mm512_set1_epi32(j), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  // Compressed in registers, then a masked store: vcompressps to memory is microcoded on
  // AMD Zen 4 (about 40% of bert_tiny_64_dynamic's time there, against 7% in registers).
  const int packed = __builtin_popcount(outer);
  const __mmask16 first = packed >= 16 ? static_cast<__mmask16>(0xFFFF)
                                       : static_cast<__mmask16>((1u << packed) - 1);
  _mm512_mask_storeu_ps(zbuf + count, first, _mm512_maskz_compress_ps(outer, z));
  _mm512_mask_storeu_epi32(ibuf + count, first, _mm512_maskz_compress_epi32(outer, index));
  count += packed;
}

// The same on AVX2 (no compress): the outer lanes' mask picks a permutation that moves
// them to the front (kLeftPack: 3-bit lane numbers, 8 to an entry).
// The lane loop's branch per value mispredicted on real activations (GELU took 8% of
// bert_tiny_64_float on an AVX2-only CPU).
constexpr uint32_t LeftPack(unsigned mask) {
  uint32_t entry = 0;
  int slot = 0;
  for (unsigned lane = 0; lane < 8; ++lane) {
    if (mask & (1u << lane)) entry |= lane << (3 * slot++);
  }
  return entry;
}
template <size_t... I>
constexpr std::array<uint32_t, sizeof...(I)> LeftPackTable(std::index_sequence<I...>) {
  return {LeftPack(I)...};
}
constexpr std::array<uint32_t, 256> kLeftPack = LeftPackTable(std::make_index_sequence<256>());

__attribute__((target("avx2"))) inline void PackOuter(const vector_math::V8& z,
                                                      const vector_math::V8& x2, int left, int j,
                                                      float* zbuf, int32_t* ibuf, int& count) {
  const __m256 outer_lanes = _mm256_and_ps(_mm256_cmp_ps(x2, _mm256_set1_ps(1.0f), _CMP_GT_OQ),
                                           _mm256_castsi256_ps(FirstLanesAvx2(left)));
  const unsigned outer = static_cast<unsigned>(_mm256_movemask_ps(outer_lanes));
  const __m256i perm =
      _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(kLeftPack[outer])),
                                         _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21)),
                       _mm256_set1_epi32(7));
  const __m256i index = _mm256_add_epi32(_mm256_set1_epi32(j), perm);
  // Whole vectors (the buffers have a vector of room past the chunk): AMD's masked stores
  // are microcoded (slower than the lane loop on Zen 3).
  _mm256_storeu_ps(zbuf + count, _mm256_permutevar8x32_ps(z, perm));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(ibuf + count), index);
  count += __builtin_popcount(outer);
}

__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void
StoreOuter(const vector_math::V16& e, int left, const int32_t* idx, const float* in, float* out) {
  const __mmask16 m = left >= 16 ? static_cast<__mmask16>(0xFFFF)
                                 : static_cast<__mmask16>((1u << left) - 1);
  const __m512i index = _mm512_maskz_loadu_epi32(m, idx);
  vector_math::V16 y = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, index, in, 4);
  y = y * 0.5f;
  y = y * e;
  _mm512_mask_i32scatter_ps(out, m, index, y, 4);
}
#endif

// Every lane takes erfc's inner approximation; the lanes in its outer range (an exp and
// two divisions: a minority of typical activations) are packed (PackOuter), computed
// kLanes at a time and stored back (StoreOuter). Every lane runs GeluLanes' operations,
// so the bits are the same. The tensor's last n % 4 values: Eigen's scalar path.
template <typename V, int kLanes>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void GeluExactImpl(
    const float* in, float* out, int64_t n) {
  constexpr int kChunk = 512;
  alignas(64) float zbuf[kChunk + kLanes];  // (room for a whole vector's store at the end)
  alignas(64) int32_t ibuf[kChunk + kLanes];
  const int64_t packets = n & ~int64_t{3};
  for (int64_t c0 = 0; c0 < packets; c0 += kChunk) {
    const int c_len = static_cast<int>(std::min<int64_t>(packets - c0, kChunk));
    const float* chunk_in = in + c0;
    float* chunk_out = out + c0;
    int count = 0;
    int j = 0;
    // Two vectors a step: the inner polynomial is a chain of dependent operations, and two
    // independent chains keep the FP units busy (1.9x on AVX-512; the same operations per
    // lane, so the same bits).
    for (; j + 2 * kLanes <= c_len; j += 2 * kLanes) {
      V x0, x1;
      std::memcpy(&x0, chunk_in + j, sizeof x0);
      std::memcpy(&x1, chunk_in + j + kLanes, sizeof x1);
      const V z0 = x0 * static_cast<float>(-M_SQRT1_2);
      const V z1 = x1 * static_cast<float>(-M_SQRT1_2);
      V c0, c1, x2_0, x2_1, small0, small1;
      ErfcInner(z0, c0, x2_0, small0);
      ErfcInner(z1, c1, x2_1, small1);
      x0 = x0 * 0.5f;
      x1 = x1 * 0.5f;
      x0 = x0 * small0;
      x1 = x1 * small1;
      std::memcpy(chunk_out + j, &x0, sizeof x0);
      std::memcpy(chunk_out + j + kLanes, &x1, sizeof x1);
      PackOuter(z0, x2_0, kLanes, j, zbuf, ibuf, count);
      PackOuter(z1, x2_1, kLanes, j + kLanes, zbuf, ibuf, count);
    }
    for (; j < c_len; j += kLanes) {
      const int left = std::min(kLanes, c_len - j);
      // Whole vectors copy with a constant size (one load / store, not a memcpy call).
      const bool whole = left == kLanes;
      V x = V{};
      if (whole) {
        std::memcpy(&x, chunk_in + j, sizeof x);
      } else {
        std::memcpy(&x, chunk_in + j, static_cast<size_t>(left) * sizeof(float));
      }
      const V z = x * static_cast<float>(-M_SQRT1_2);
      V c, x2, small;
      ErfcInner(z, c, x2, small);
      x = x * 0.5f;
      x = x * small;
      if (whole) {
        std::memcpy(chunk_out + j, &x, sizeof x);
      } else {
        std::memcpy(chunk_out + j, &x, static_cast<size_t>(left) * sizeof(float));
      }
      PackOuter(z, x2, left, j, zbuf, ibuf, count);
    }
    for (int k = 0; k < count; k += kLanes) {
      const int left = std::min(kLanes, count - k);
      V z = V{} + 2.0f;  // unused lanes: the outer range, finite, not stored
      if (left == kLanes) {
        std::memcpy(&z, zbuf + k, sizeof z);
      } else {
        std::memcpy(&z, zbuf + k, static_cast<size_t>(left) * sizeof(float));
      }
      V e;
      Erfc<V, true>(z, e);
      StoreOuter(e, left, ibuf + k, chunk_in, chunk_out);
    }
  }
  for (int64_t i = packets; i < n; ++i) {  // Eigen's scalar path
    vector_math::V4 x = vector_math::V4{} + in[i];
    GeluLanes<vector_math::V4, false>(x);
    out[i] = x[0];
  }
}

void GeluExactGeneric(const float* in, float* out, int64_t n) {
  GeluExactImpl<vector_math::V4, 4>(in, out, n);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"), optimize("fp-contract=off"))) void GeluExactAvx2(const float* in,
                                                                                float* out,
                                                                                int64_t n) {
  GeluExactImpl<vector_math::V8, 8>(in, out, n);
}
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void GeluExactAvx512(
    const float* in, float* out, int64_t n) {
  GeluExactImpl<vector_math::V16, 16>(in, out, n);
}
#endif

void GeluExact(const float* in, float* out, int64_t n) {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) {
    GeluExactAvx512(in, out, n);
  } else if (gemm::CpuHasAvx2()) {
    GeluExactAvx2(in, out, n);
  } else {
    GeluExactGeneric(in, out, n);
  }
#else
  GeluExactGeneric(in, out, n);
#endif
}

// The tanh form as TFLite's reference_ops::Gelu evaluates it (an Eigen array expression,
// every operation rounded on its own: no FMA in TFLite's x86 build): u = sqrt(2/pi) * (x +
// 0.044715 * ((x * x) * x)), then (0.5 * x) * (1 + tanh(u)), tanh as Eigen's (tanh_f32).
// In blocks: the arguments, their tanh in place, then the products. Lane by lane the same
// operations, so Eigen's packets and its scalar tail agree.
__attribute__((optimize("fp-contract=off"))) void GeluApproximate(const float* in, float* out,
                                                                  int64_t n) {
  constexpr float kSqrt2dPi = static_cast<float>(M_2_SQRTPI * M_SQRT1_2);
  constexpr float kCubic = 0.044715f;
  constexpr int64_t kBlock = 256;
  float u[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = std::min(kBlock, n - i0);
    const float* x = in + i0;
    for (int64_t i = 0; i < m; ++i) {
      const float cube = (x[i] * x[i]) * x[i];
      u[i] = kSqrt2dPi * (x[i] + kCubic * cube);
    }
    tanh_f32::Tanh(u, u, m);
    for (int64_t i = 0; i < m; ++i) out[i0 + i] = (0.5f * x[i]) * (1.0f + u[i]);
  }
}

}  // namespace

void Gelu(const float* in, float* out, int64_t n, bool approximate) {
  if (approximate) {
    GeluApproximate(in, out, n);
  } else {
    GeluExact(in, out, n);
  }
}

}  // namespace gelu_f32
}  // namespace tflite
