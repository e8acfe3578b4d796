// Input quantization of TFLite's hybrid kernels (float activations, int8 weights):
// tensor_utils::SymmetricQuantizeFloats / AsymmetricQuantizeFloats as TFLite's x86 build
// computes them (QuantizeLoop), float for float, so the int8 values, scaling factors and
// offsets match TFLite's exactly. The kernels then sum in int32 (exact) and rescale with
// scaling_factor * filter_scale in float.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_HYBRID_AVX2 1
#endif

namespace tflite {
namespace hybrid {

// std::round (halves away from zero) to int32 for |x| < 2^31, exactly: x - trunc(x) is
// exact in float. Unlike std::round (a libm call), loops over it vectorize.
inline int32_t RoundHalfAway(float x) {
  // NaN and values beyond int32 (from crafted weights) would make the cast undefined:
  // NaN becomes the lower bound, the rest saturates. Callers clamp to int8 anyway.
  x = std::min(std::max(-2147483520.0f, x), 2147483520.0f);
  const int32_t t = static_cast<int32_t>(x);
  const float frac = x - static_cast<float>(t);
  return t + (frac >= 0.5f ? 1 : 0) - (frac <= -0.5f ? 1 : 0);
}

// The smallest and largest of size > 0 values (as std::minmax_element's, NaNs aside),
// several independent vector accumulators at a time so that the bound is throughput, not
// the latency of one chain of min / max (rows of 128-512 values, one per hybrid layer row).
// With AVX-512: MinMaxRowsAvx512 (below) on one row.
#if defined(TFI_HYBRID_AVX2)
// Two accumulators a bound on 8 lanes, for AVX2 CPUs without AVX-512 (returns how many
// values it covered: a multiple of 8, or 0). min_ps(v, lo) keeps lo where v is NaN, as
// `v < lo ? v : lo`; the accumulators start at values[0].
__attribute__((target("avx2"))) inline int MinMaxAvx2(const float* values, int size, float* lo,
                                                      float* hi) {
  if (size < 8) return 0;
  const __m256 first = _mm256_set1_ps(values[0]);
  __m256 l0 = first, l1 = first, h0 = first, h1 = first;
  int i = 0;
  for (; i + 16 <= size; i += 16) {
    const __m256 v0 = _mm256_loadu_ps(values + i), v1 = _mm256_loadu_ps(values + i + 8);
    l0 = _mm256_min_ps(v0, l0);
    h0 = _mm256_max_ps(v0, h0);
    l1 = _mm256_min_ps(v1, l1);
    h1 = _mm256_max_ps(v1, h1);
  }
  for (; i + 8 <= size; i += 8) {
    const __m256 v = _mm256_loadu_ps(values + i);
    l0 = _mm256_min_ps(v, l0);
    h0 = _mm256_max_ps(v, h0);
  }
  float l[8], h[8];
  _mm256_storeu_ps(l, _mm256_min_ps(l1, l0));
  _mm256_storeu_ps(h, _mm256_max_ps(h1, h0));
  for (int k = 0; k < 8; ++k) {
    *lo = std::min(*lo, l[k]);
    *hi = std::max(*hi, h[k]);
  }
  return i;
}
#endif

#if defined(TFI_HYBRID_AVX2)
__attribute__((target("avx512f"))) inline void MinMaxRowsAvx512(const float* x, int rows,
                                                               size_t size, float* bounds);
#endif

inline void MinMax(const float* values, int size, float* min_value, float* max_value) {
  typedef float V4 __attribute__((vector_size(16)));
  float lo = values[0], hi = values[0];
  int i = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx512F()) {
    float bounds[2];
    MinMaxRowsAvx512(values, 1, static_cast<size_t>(size), bounds);
    *min_value = bounds[0];
    *max_value = bounds[1];
    return;
  }
  if (gemm::CpuHasAvx2()) i = MinMaxAvx2(values, size, &lo, &hi);
#endif
  if (i == 0 && size >= 4) {
    // Every lane starts at values[0], as the AVX2 loop: a lane started at a NaN would
    // stay NaN (v < NaN is false) and hide that lane's later values.
    V4 vlo = {lo, lo, lo, lo}, vhi = vlo;
    for (i = 0; i + 4 <= size; i += 4) {
      V4 v;
      std::memcpy(&v, values + i, sizeof v);
      vlo = v < vlo ? v : vlo;
      vhi = v > vhi ? v : vhi;
    }
    for (int l = 0; l < 4; ++l) {
      lo = std::min(lo, vlo[l]);
      hi = std::max(hi, vhi[l]);
    }
  }
  for (; i < size; ++i) {
    lo = std::min(lo, values[i]);
    hi = std::max(hi, values[i]);
  }
  *min_value = lo;
  *max_value = hi;
}

// One row's quantization, from its smallest and largest value: the scale written out,
// the factor the values are multiplied by, the offset (0 when symmetric) and the clamp.
// `zero`: an all-zero range, where every value quantizes to 0 (scale 1, offset 0).
struct RowParams {
  float scale = 1;
  float inv = 0;
  int32_t offset = 0;
  int32_t lo = -127, hi = 127;
  bool zero = true;
};

// quantized[i] = clamp(offset + round(values[i] * inv), lo, hi): the quantization loop of
// both functions below (offset 0 for the symmetric one). TFLite's x86 build runs its NEON
// tensor utils through NEON_2_SSE (USE_NEON is defined wherever SSE4.1 is), so its bits
// are those of NeonSymmetric/AsymmetricQuantizeFloats, not of the portable ones: the
// product is rounded alone and the offset added as an integer (the portable code rounds
// offset + product in float, which moves values near a half by one step), and the round
// of the first size & ~7 values is NEON's RoundToNearest without vcvta: truncate(y +/-
// 0.5), the addition in float (0.49999997 becomes 1); the last size % 8 values are
// rounded with halves away from zero (TfLiteRound). Checked against ai-edge-litert 2.3.0
// on NASNet-Mobile's hybrid depthwise layers, where the portable formula is a step off.
inline int32_t NeonRound(float y) {
  const float r = y + (y < 0.0f ? -0.5f : 0.5f);
  // NaN and out-of-range values (crafted weights): the lower bound, or saturated.
  return static_cast<int32_t>(std::min(std::max(-2147483520.0f, r), 2147483520.0f));
}

#if defined(TFI_HYBRID_AVX2)
// QuantizeLoop's first size & ~7 values, 8 at a time (the same float operations); each
// byte stored XOR flip.
__attribute__((target("avx2"))) inline void QuantizeLoopAvx2(const float* values, int begin,
                                                            int bulk, float inv, int32_t offset,
                                                            int32_t lo, int32_t hi, uint8_t flip,
                                                            int8_t* quantized) {
  const __m256 vinv = _mm256_set1_ps(inv);
  const __m256 fmin = _mm256_set1_ps(-2147483520.0f), fmax = _mm256_set1_ps(2147483520.0f);
  const __m256 half = _mm256_set1_ps(0.5f), minus_half = _mm256_set1_ps(-0.5f);
  const __m256 zero = _mm256_setzero_ps();
  const __m256i voff = _mm256_set1_epi32(offset);
  const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  const __m128i vflip = _mm_set1_epi8(static_cast<char>(flip));
  for (int i = begin; i < bulk; i += 8) {
    const __m256 y = _mm256_mul_ps(_mm256_loadu_ps(values + i), vinv);
    const __m256 neg = _mm256_cmp_ps(y, zero, _CMP_LT_OQ);
    __m256 r = _mm256_add_ps(y, _mm256_blendv_ps(half, minus_half, neg));
    r = _mm256_min_ps(_mm256_max_ps(r, fmin), fmax);  // NaN -> the lower bound, as NeonRound
    __m256i q = _mm256_add_epi32(_mm256_cvttps_epi32(r), voff);
    q = _mm256_min_epi32(_mm256_max_epi32(q, vlo), vhi);
    const __m128i q16 = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    const __m128i q8 = _mm_xor_si128(_mm_packs_epi16(q16, q16), vflip);
    std::memcpy(quantized + i, &q8, 8);
  }
}

#endif

// quantized[i] = int8(clamp(offset + round(values[i] * inv), lo, hi)) XOR flip (flip 0x80
// writes q + 128 as uint8: the dot GEMM's domain, gemm::DotByte).
#if defined(TFI_HYBRID_AVX2)
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void QuantizeRowsAvx512(
    const float* x, int rows, size_t size, const RowParams* params, int8_t* dst, size_t stride,
    uint8_t flip);
#endif

inline void QuantizeLoop(const float* values, int size, float inv, int32_t offset, int32_t lo,
                         int32_t hi, int8_t* quantized, uint8_t flip = 0) {
  const int bulk = size & ~7;
  int i = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx512F()) {  // the row-batch form on one row
    RowParams p;
    p.inv = inv;
    p.offset = offset;
    p.lo = lo;
    p.hi = hi;
    p.zero = false;
    QuantizeRowsAvx512(values, 1, static_cast<size_t>(size), &p, quantized, 0, flip);
    return;
  }
  if (gemm::CpuHasAvx2()) {
    QuantizeLoopAvx2(values, 0, bulk, inv, offset, lo, hi, flip, quantized);
    i = bulk;
  }
#endif
  // offset + q cannot overflow: |q| is at most 2^31 - 128 and |offset| at most 128.
  for (; i < bulk; ++i) {
    const int64_t q = static_cast<int64_t>(offset) + NeonRound(values[i] * inv);
    quantized[i] = static_cast<int8_t>(std::min<int64_t>(hi, std::max<int64_t>(lo, q)) ^ flip);
  }
  for (; i < size; ++i) {
    const int64_t q = static_cast<int64_t>(offset) + RoundHalfAway(values[i] * inv);
    quantized[i] = static_cast<int8_t>(std::min<int64_t>(hi, std::max<int64_t>(lo, q)) ^ flip);
  }
}

// round(values * 127 / max|values|) in [-127, 127]; scaling_factor = max|values| / 127.
inline RowParams SymmetricParams(float min_value, float max_value) {
  constexpr int32_t kScale = 127;
  RowParams p;
  const float range = std::max(std::abs(min_value), std::abs(max_value));
  if (range == 0) return p;
  p.zero = false;
  p.scale = range / kScale;
  p.inv = kScale / range;
  return p;
}

// [-128, 127] over [min(0, min), max(0, max)] with a nudged zero point (the offset);
// scaling_factor = float(rmax - rmin) / 255.
inline RowParams AsymmetricParams(float min_value, float max_value) {
  constexpr int32_t kMinScale = -128;
  constexpr int32_t kMaxScale = 127;
  constexpr double qmin_double = kMinScale;
  constexpr double qmax_double = kMaxScale;
  RowParams p;
  p.lo = kMinScale;
  p.hi = kMaxScale;
  const double rmin = static_cast<double>(std::min(0.0f, min_value));
  const double rmax = static_cast<double>(std::max(0.0f, max_value));
  if (rmin == rmax) return p;
  p.zero = false;
  // The range is formed in float, as TFLite does (float rmin/rmax): a double difference
  // can round to a different scale (checked against ai-edge-litert 2.3.0's hybrid FC).
  const float range = static_cast<float>(rmax) - static_cast<float>(rmin);
  const double scale = static_cast<double>(range) / (qmax_double - qmin_double);
  const double zero_point_from_min = qmin_double - rmin / scale;
  const double zero_point_from_max = qmax_double - rmax / scale;
  const double zero_point_from_min_error = std::abs(qmin_double) + std::abs(rmin / scale);
  const double zero_point_from_max_error = std::abs(qmax_double) + std::abs(rmax / scale);
  const double zero_point_double = zero_point_from_min_error < zero_point_from_max_error
                                       ? zero_point_from_min
                                       : zero_point_from_max;
  int8_t nudged_zero_point = 0;
  if (std::isnan(zero_point_double)) {
    // Infinite inputs make the scale infinite and the zero point NaN: 0, what TFLite's
    // conversion of NaN gives on x86 (where it is undefined behaviour).
    nudged_zero_point = 0;
  } else if (zero_point_double <= qmin_double) {
    nudged_zero_point = kMinScale;
  } else if (zero_point_double >= qmax_double) {
    nudged_zero_point = kMaxScale;
  } else {
    nudged_zero_point = static_cast<int8_t>(std::round(zero_point_double));
  }
  p.scale = static_cast<float>(scale);
  p.offset = nudged_zero_point;
  p.inv = 1.0f / p.scale;
  return p;
}

// Quantizes size values with p (bytes XOR flip, as QuantizeLoop).
inline void QuantizeWith(const RowParams& p, const float* values, int size, int8_t* quantized,
                         uint8_t flip = 0) {
  if (p.zero) {
    std::memset(quantized, flip, static_cast<size_t>(size));
    return;
  }
  QuantizeLoop(values, size, p.inv, p.offset, p.lo, p.hi, quantized, flip);
}

// One row quantized as TFLite's tensor_utils does: parameters from its range, then the
// values; the parameters returned (scale 1 and offset 0 for an empty or all-zero row).
inline RowParams QuantizeRow(const float* values, int size, bool asymmetric, int8_t* quantized) {
  if (size <= 0) return RowParams();
  float min_value, max_value;
  MinMax(values, size, &min_value, &max_value);
  const RowParams p = asymmetric ? AsymmetricParams(min_value, max_value)
                                 : SymmetricParams(min_value, max_value);
  QuantizeWith(p, values, size, quantized);
  return p;
}

// tensor_utils::SymmetricQuantizeFloats.
inline void SymmetricQuantizeFloats(const float* values, int size, int8_t* quantized,
                                    float* scaling_factor) {
  *scaling_factor = QuantizeRow(values, size, false, quantized).scale;
}

// tensor_utils::AsymmetricQuantizeFloats.
inline void AsymmetricQuantizeFloats(const float* values, int size, int8_t* quantized,
                                     float* scaling_factor, int32_t* offset) {
  const RowParams p = QuantizeRow(values, size, true, quantized);
  *scaling_factor = p.scale;
  *offset = p.offset;
}

#if defined(TFI_HYBRID_AVX2)
// RescaleConvRow's operations on 16 lanes (each product rounded as written: no FMA),
// masked at the end; the clamps as RescaleRowAvx512's.
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void RescaleConvRowAvx512(
    const int32_t* acc, int n, const float* channel_scale, float row_scale, const float* bias,
    float lo, float hi, float* out) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi), rs = _mm512_set1_ps(row_scale);
  for (int j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? __mmask16{0xFFFF} : static_cast<__mmask16>((1u << (n - j)) - 1);
    __m512 v = _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, acc + j));
    if (channel_scale != nullptr) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(m, channel_scale + j));
    v = _mm512_mul_ps(v, rs);
    if (bias != nullptr) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, bias + j));
    _mm512_mask_storeu_ps(out + j, m, _mm512_min_ps(vhi, _mm512_max_ps(vlo, v)));
  }
}
#endif

// The float rescale of hybrid sums, in the loops the compiler vectorizes (no branch
// inside), or on AVX-512. Conv order (TFLite's hybrid conv): v = float(acc) *
// channel_scale[j] * row_scale (channel_scale null: float(acc) * row_scale), + bias[j],
// clamped.
inline void RescaleConvRow(const int32_t* acc, int n, const float* channel_scale,
                           float row_scale, const float* bias, float lo, float hi, float* out) {
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx512F()) {
    RescaleConvRowAvx512(acc, n, channel_scale, row_scale, bias, lo, hi, out);
    return;
  }
#endif
  if (channel_scale != nullptr && bias != nullptr) {
    for (int j = 0; j < n; ++j) {
      const float v = static_cast<float>(acc[j]) * channel_scale[j] * row_scale + bias[j];
      out[j] = std::min(std::max(v, lo), hi);
    }
  } else if (channel_scale != nullptr) {
    for (int j = 0; j < n; ++j) {
      const float v = static_cast<float>(acc[j]) * channel_scale[j] * row_scale;
      out[j] = std::min(std::max(v, lo), hi);
    }
  } else if (bias != nullptr) {
    for (int j = 0; j < n; ++j) {
      const float v = static_cast<float>(acc[j]) * row_scale + bias[j];
      out[j] = std::min(std::max(v, lo), hi);
    }
  } else {
    for (int j = 0; j < n; ++j) {
      const float v = static_cast<float>(acc[j]) * row_scale;
      out[j] = std::min(std::max(v, lo), hi);
    }
  }
}

#if defined(TFI_HYBRID_AVX2)
// RescaleRow's operations on 16 lanes (the products rounded as written: no FMA), masked at
// the end. max_ps(lo, v) / min_ps(hi, v): std::max(v, lo) / std::min(v, hi), NaN kept.
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void RescaleRowAvx512(
    const int32_t* acc, int n, const float* multiplier, const float* bias, float lo, float hi,
    float* out) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (int j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? __mmask16{0xFFFF} : static_cast<__mmask16>((1u << (n - j)) - 1);
    __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, acc + j)),
                             _mm512_maskz_loadu_ps(m, multiplier + j));
    if (bias != nullptr) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, bias + j));
    _mm512_mask_storeu_ps(out + j, m, _mm512_min_ps(vhi, _mm512_max_ps(vlo, v)));
  }
}
#endif

// Depthwise order (TFLite's EvalHybridPerChannel): v = float(acc) * multiplier[j] (the
// channel scale times the image scale, multiplied beforehand), + bias[j], clamped. Also the
// per-channel hybrid CONV_2D's rescale (its multipliers likewise multiplied beforehand).
inline void RescaleRow(const int32_t* acc, int n, const float* multiplier, const float* bias,
                       float lo, float hi, float* out) {
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx512F()) {
    RescaleRowAvx512(acc, n, multiplier, bias, lo, hi, out);
    return;
  }
#endif
  if (bias != nullptr) {
    for (int j = 0; j < n; ++j) {
      const float v = static_cast<float>(acc[j]) * multiplier[j] + bias[j];
      out[j] = std::min(std::max(v, lo), hi);
    }
  } else {
    for (int j = 0; j < n; ++j) {
      const float v = static_cast<float>(acc[j]) * multiplier[j];
      out[j] = std::min(std::max(v, lo), hi);
    }
  }
}

// One row's rescale with no CPU dispatch, for ScaleRow and for the GEMM tiles that fuse it
// (gemm::Int16GemmHybrid, whose callers checked the CPU once): out[j] = clamp(bias[j] (or
// 0) + float(d) * (row_scale * unit_scale[j])), d = dot[j] + dot_bias[j] - offset * col[j]
// wrapping as uint32 (dot_bias and col where given), the products rounded as written (no
// FMA), max(v, lo) then min(., hi) with NaN kept. Every pointer is at the row's first
// column; ScaleSpan does j in [u, n), ScaleSpanAvx2 the whole vectors of [0, n) and returns
// how many it did.
__attribute__((optimize("fp-contract=off"))) inline void ScaleSpan(
    const int32_t* dot, const int32_t* dot_bias, const int32_t* col, uint32_t offset,
    float row_scale, const float* unit_scale, const float* bias, float act_min, float act_max,
    float* out, int u, int n) {
  for (; u < n; ++u) {
    uint32_t d = static_cast<uint32_t>(dot[u]);
    if (dot_bias != nullptr) d += static_cast<uint32_t>(dot_bias[u]);
    if (col != nullptr) d -= offset * static_cast<uint32_t>(col[u]);
    const float v = (bias != nullptr ? bias[u] : 0.0f) +
                    static_cast<float>(static_cast<int32_t>(d)) * (row_scale * unit_scale[u]);
    out[u] = std::min(std::max(v, act_min), act_max);
  }
}

#if defined(TFI_HYBRID_AVX2)
__attribute__((target("avx2"), optimize("fp-contract=off"))) inline int ScaleSpanAvx2(
    const int32_t* dot, const int32_t* dot_bias, const int32_t* col, uint32_t offset,
    float row_scale, const float* unit_scale, const float* bias, float act_min, float act_max,
    float* out, int n) {
  const __m256 rs = _mm256_set1_ps(row_scale), lo = _mm256_set1_ps(act_min),
               hi = _mm256_set1_ps(act_max);
  const __m256i o = _mm256_set1_epi32(static_cast<int32_t>(offset));
  int u = 0;
  for (; u + 8 <= n; u += 8) {
    __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dot + u));
    if (dot_bias != nullptr) {
      d = _mm256_add_epi32(d, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dot_bias + u)));
    }
    if (col != nullptr) {
      d = _mm256_sub_epi32(
          d, _mm256_mullo_epi32(o, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + u))));
    }
    const __m256 s = _mm256_mul_ps(rs, _mm256_loadu_ps(unit_scale + u));
    const __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(d), s);
    const __m256 b = bias != nullptr ? _mm256_loadu_ps(bias + u) : _mm256_setzero_ps();
    // max_ps(lo, v) / min_ps(hi, v): std::max(v, lo) / std::min(v, hi), NaN kept.
    _mm256_storeu_ps(out + u, _mm256_min_ps(hi, _mm256_max_ps(lo, _mm256_add_ps(b, p))));
  }
  return u;
}

#endif

// out[u] = clamp(bias[u] (or 0) + float(dot[u]) * (row_scale * unit_scale[u])): the hybrid
// kernels' rescale of one row's int32 sums, the products rounded as written (no FMA).
// With col, dot[u] - offset * col[u] (wrapping as uint32: the asymmetric input's offset
// term) stands for dot[u]; dot itself is not written.
#if defined(TFI_HYBRID_AVX2)
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void ScaleRowsAvx512(
    const int32_t* dot, size_t ldd, int rows, int n, const float* row_scale, const int32_t* col,
    const int32_t* offset, const float* unit_scale, const float* bias, float act_min,
    float act_max, float* out, size_t ldo);
#endif

inline void ScaleRow(const int32_t* dot, float row_scale, const float* unit_scale,
                     const float* bias, float act_min, float act_max, float* out, int n,
                     const int32_t* col = nullptr, uint32_t offset = 0) {
  int u = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx512F()) {  // the row-batch form on one row
    const auto row_offset = static_cast<int32_t>(offset);
    ScaleRowsAvx512(dot, 0, 1, n, &row_scale, col, &row_offset, unit_scale, bias, act_min, act_max,
                    out, 0);
    return;
  }
  if (gemm::CpuHasAvx2()) {
    u = ScaleSpanAvx2(dot, nullptr, col, offset, row_scale, unit_scale, bias, act_min, act_max, out,
                      n);
  }
#endif
  ScaleSpan(dot, nullptr, col, offset, row_scale, unit_scale, bias, act_min, act_max, out, u, n);
}

#if defined(TFI_HYBRID_AVX2)
// Whole batches of rows in one call each (a hybrid layer's rows are short, 128-512 values:
// per-row calls and a scalar horizontal reduction cost as much as the rows themselves).
// The lanes compute what MinMax / QuantizeLoop / ScaleRow compute, masked at a row's end.

// The min and max of v[0, n) with every accumulator lane started at `init` (a row's first
// value: then as MinMax; NaN aside, a span of a row started at the row's first value gives
// bounds whose min / max over the spans are the row's). The masked tail keeps the others.
__attribute__((target("avx512f"))) inline void MinMaxSpanAvx512(const float* v, size_t size,
                                                               float init, float* lo, float* hi) {
  const __m512 first = _mm512_set1_ps(init);
  __m512 l0 = first, l1 = first, l2 = first, l3 = first;
  __m512 h0 = first, h1 = first, h2 = first, h3 = first;
  size_t i = 0;
  for (; i + 64 <= size; i += 64) {
    const __m512 v0 = _mm512_loadu_ps(v + i), v1 = _mm512_loadu_ps(v + i + 16);
    const __m512 v2 = _mm512_loadu_ps(v + i + 32), v3 = _mm512_loadu_ps(v + i + 48);
    l0 = _mm512_min_ps(v0, l0);
    h0 = _mm512_max_ps(v0, h0);
    l1 = _mm512_min_ps(v1, l1);
    h1 = _mm512_max_ps(v1, h1);
    l2 = _mm512_min_ps(v2, l2);
    h2 = _mm512_max_ps(v2, h2);
    l3 = _mm512_min_ps(v3, l3);
    h3 = _mm512_max_ps(v3, h3);
  }
  for (; i + 16 <= size; i += 16) {
    const __m512 t = _mm512_loadu_ps(v + i);
    l0 = _mm512_min_ps(t, l0);
    h0 = _mm512_max_ps(t, h0);
  }
  if (i < size) {
    const __mmask16 m = static_cast<__mmask16>((1u << (size - i)) - 1);
    const __m512 t = _mm512_maskz_loadu_ps(m, v + i);
    l0 = _mm512_mask_min_ps(l0, m, t, l0);
    h0 = _mm512_mask_max_ps(h0, m, t, h0);
  }
  // No lane mixes NaN with numbers (all lanes are NaN when init is): the tree is exact.
  *lo = _mm512_reduce_min_ps(_mm512_min_ps(_mm512_min_ps(l1, l0), _mm512_min_ps(l3, l2)));
  *hi = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(h1, h0), _mm512_max_ps(h3, h2)));
}

// bounds[2r], bounds[2r + 1]: MinMax of row r (size > 0).
__attribute__((target("avx512f"))) inline void MinMaxRowsAvx512(const float* x, int rows,
                                                               size_t size, float* bounds) {
  for (int r = 0; r < rows; ++r) {
    const float* v = x + r * size;
    MinMaxSpanAvx512(v, size, v[0], &bounds[2 * r], &bounds[2 * r + 1]);
  }
}

// QuantizeSpanAvx512's operations on one vector (below): the int32 results, offset added
// (the lanes outside `lanes` read as 0).
__attribute__((target("avx512f"), optimize("fp-contract=off"), always_inline)) inline __m512i
QuantizeLanesAvx512(const float* at, __m512 vinv, __m512i voff, __m512i vlo, __m512i vhi,
                    __mmask16 lanes = 0xFFFF) {
  const __m512 y = _mm512_mul_ps(_mm512_maskz_loadu_ps(lanes, at), vinv);
  const __m512 signed_half = _mm512_castsi512_ps(
      _mm512_ternarylogic_epi32(_mm512_castps_si512(y), _mm512_set1_epi32(static_cast<int32_t>(0x80000000u)),
                                _mm512_castps_si512(_mm512_set1_ps(0.5f)), 0xEA));  // (y & sign) | 0.5
  const __m512 t = _mm512_min_ps(_mm512_set1_ps(2147483520.0f), _mm512_add_ps(y, signed_half));
  return _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(_mm512_cvttps_epi32(t), vlo), vhi), voff);
}

// Values [0, n & ~63) of a row, 64 at a time: four vectors' results narrowed by saturating
// packs (they are in range already, so the packs only narrow), the dwords of their 128-bit
// lanes put back in order by one permute, one store. Returns where it stopped. (The
// 16-value loop's vpmovdb takes two shuffle-port uops a vector, which bound it.)
__attribute__((target("avx512f,avx512bw"), optimize("fp-contract=off"))) inline size_t
QuantizeBlocksAvx512Bw(const float* v, size_t n, __m512 vinv, __m512i voff, __m512i vlo,
                       __m512i vhi, bool unsigned_bytes, __m128i vflip, int8_t* q) {
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i flip = _mm512_broadcast_i32x4(vflip);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i w01 = _mm512_packs_epi32(QuantizeLanesAvx512(v + i, vinv, voff, vlo, vhi),
                                           QuantizeLanesAvx512(v + i + 16, vinv, voff, vlo, vhi));
    const __m512i w23 = _mm512_packs_epi32(QuantizeLanesAvx512(v + i + 32, vinv, voff, vlo, vhi),
                                           QuantizeLanesAvx512(v + i + 48, vinv, voff, vlo, vhi));
    // q + 128 in [0, 255] where the offset holds the flip to uint8, else q in [-128, 127].
    const __m512i bytes = unsigned_bytes ? _mm512_packus_epi16(w01, w23) : _mm512_packs_epi16(w01, w23);
    _mm512_storeu_si512(q + i, _mm512_xor_si512(_mm512_permutexvar_epi32(order, bytes), flip));
  }
  return i;
}

// Values [i0, i1) of a row of `size` values quantized with p to q (bytes XOR flip), as
// QuantizeWith quantizes the whole row (the NEON-rounded part is the row's first size & ~7
// values, whatever the span). i0 a multiple of 64; i1 too, or the row's end.
// The same values as QuantizeLoop, with fewer operations per vector:
// - y +/- 0.5 as y + copysign(0.5, y) (one bit operation instead of a compare and a
//   blend; they differ only for y = -0, where both truncate to 0);
// - no lower float clamp: NaN and values below -2^31 truncate to INT32_MIN, which the
//   integer clamp takes to the lower bound as the clamp at -2147483520 did; the upper
//   one stays (min_ps(fmax, t) keeps NaN for the truncation);
// - the clamp before the offset is added (bounds less the offset: the same result, and
//   nothing to overflow), and the XOR 0x80 of the uint8 domain folded into the offset
//   (q + 128 in [0, 255], narrowed by truncation).
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void QuantizeSpanAvx512(
    const float* v, size_t size, size_t i0, size_t i1, const RowParams& p, int8_t* q,
    uint8_t flip, bool bw) {
  if (p.zero) {
    std::memset(q + i0, flip, i1 - i0);
    return;
  }
  const size_t bulk = size & ~size_t{7};
  const int32_t shift = flip == 0x80 ? 128 : 0;
  const __m128i vflip = _mm_set1_epi8(static_cast<char>(flip == 0x80 ? 0 : flip));
  const __m512 vinv = _mm512_set1_ps(p.inv);
  const __m512i voff = _mm512_set1_epi32(p.offset + shift);
  const __m512i vlo = _mm512_set1_epi32(p.lo - p.offset), vhi = _mm512_set1_epi32(p.hi - p.offset);
  const size_t vend = std::min(i1, bulk);
  size_t i = i0;
  if (bw && i < vend) i += QuantizeBlocksAvx512Bw(v + i, vend - i, vinv, voff, vlo, vhi, shift != 0, vflip, q + i);
  // 16 values a step; the NEON-rounded part may end with 8 more, under a mask.
  for (; i < vend; i += 16) {
    const bool full = i + 16 <= vend;
    const __m512i qi = QuantizeLanesAvx512(v + i, vinv, voff, vlo, vhi, full ? 0xFFFF : 0xFF);
    const __m128i bytes = _mm_xor_si128(_mm512_cvtepi32_epi8(qi), vflip);
    if (full) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i), bytes);
    } else {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(q + i), bytes);
      i = vend;
      break;
    }
  }
  for (i = std::max(i, i0); i < i1; ++i) {
    const int64_t qv = static_cast<int64_t>(p.offset) + RoundHalfAway(v[i] * p.inv);
    q[i] = static_cast<int8_t>(std::min<int64_t>(p.hi, std::max<int64_t>(p.lo, qv)) ^ flip);
  }
}

// Row r quantized with params[r] to dst + r * stride (bytes XOR flip), as QuantizeWith.
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void QuantizeRowsAvx512(
    const float* x, int rows, size_t size, const RowParams* params, int8_t* dst, size_t stride,
    uint8_t flip) {
  const bool bw = gemm::CpuHasAvx512Bw();
  for (int r = 0; r < rows; ++r) {
    QuantizeSpanAvx512(x + r * size, size, 0, size, params[r], dst + r * stride, flip, bw);
  }
}

// ScaleRow over rows x n sums (row r at dot + r * ldd, written to out + r * ldo), with
// row_scale[r] and, where col is given, offset[r].
__attribute__((target("avx512f"), optimize("fp-contract=off"))) inline void ScaleRowsAvx512(
    const int32_t* dot, size_t ldd, int rows, int n, const float* row_scale, const int32_t* col,
    const int32_t* offset, const float* unit_scale, const float* bias, float act_min,
    float act_max, float* out, size_t ldo) {
  const __m512 lo = _mm512_set1_ps(act_min), hi = _mm512_set1_ps(act_max);
  for (int r = 0; r < rows; ++r) {
    const int32_t* d_row = dot + r * ldd;
    float* o_row = out + r * ldo;
    const __m512 rs = _mm512_set1_ps(row_scale[r]);
    const __m512i o = _mm512_set1_epi32(col != nullptr ? offset[r] : 0);
    int u = 0;
    for (; u + 16 <= n; u += 16) {
      __m512i d = _mm512_loadu_si512(d_row + u);
      if (col != nullptr) d = _mm512_sub_epi32(d, _mm512_mullo_epi32(o, _mm512_loadu_si512(col + u)));
      const __m512 sc = _mm512_mul_ps(rs, _mm512_loadu_ps(unit_scale + u));
      const __m512 pr = _mm512_mul_ps(_mm512_cvtepi32_ps(d), sc);
      const __m512 b = bias != nullptr ? _mm512_loadu_ps(bias + u) : _mm512_setzero_ps();
      _mm512_storeu_ps(o_row + u, _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(b, pr))));
    }
    if (u < n) {  // the row's last n % 16, masked
      const __mmask16 m = static_cast<__mmask16>((1u << (n - u)) - 1);
      __m512i d = _mm512_maskz_loadu_epi32(m, d_row + u);
      if (col != nullptr) d = _mm512_sub_epi32(d, _mm512_mullo_epi32(o, _mm512_maskz_loadu_epi32(m, col + u)));
      const __m512 sc = _mm512_mul_ps(rs, _mm512_maskz_loadu_ps(m, unit_scale + u));
      const __m512 pr = _mm512_mul_ps(_mm512_cvtepi32_ps(d), sc);
      const __m512 b = bias != nullptr ? _mm512_maskz_loadu_ps(m, bias + u) : _mm512_setzero_ps();
      _mm512_mask_storeu_ps(o_row + u, m, _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(b, pr))));
    }
  }
}
#endif

// ScaleRow for each of rows rows (see ScaleRowsAvx512).
inline void ScaleRows(const int32_t* dot, size_t ldd, int rows, int n, const float* row_scale,
                      const int32_t* col, const int32_t* offset, const float* unit_scale,
                      const float* bias, float act_min, float act_max, float* out, size_t ldo) {
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx512F()) {
    ScaleRowsAvx512(dot, ldd, rows, n, row_scale, col, offset, unit_scale, bias, act_min, act_max,
                    out, ldo);
    return;
  }
#endif
  for (int r = 0; r < rows; ++r) {
    ScaleRow(dot + r * ldd, row_scale[r], unit_scale, bias, act_min, act_max, out + r * ldo, n,
             col, col != nullptr ? static_cast<uint32_t>(offset[r]) : 0);
  }
}

// Rows of floats quantized one by one, as TFLite's hybrid kernels quantize each batch row
// or image (BatchQuantizeFloats): int8 values, a scale per row and, when asymmetric, an
// offset per row (0 otherwise). The buffers are reused across calls.
struct QuantizedRows {
  std::vector<int8_t> values;
  std::vector<float> scale;
  std::vector<int32_t> offset;

  void Quantize(const float* x, int rows, size_t size, bool asymmetric,
                pthreadpool* pool = nullptr) {
    values.resize(static_cast<size_t>(rows) * size);
    QuantizeTo(x, rows, size, asymmetric, values.data(), size, 0, pool);
  }
  // The same values written to dst + r * stride, each byte XOR flip (0x80: q + 128 as
  // uint8, the dot GEMM's rows, without a second pass over them). `values` is left alone.
  // Three passes (the rows' ranges, their parameters, the values) so that the parameters'
  // divisions of one row overlap those of the next. With a pool and enough values (a
  // hybrid convolution's image), the ranges and the values in spans over its threads;
  // without AVX-512, with enough rows (a hybrid layer's batch), blocks of rows over them.
  void QuantizeTo(const float* x, int rows, size_t size, bool asymmetric, int8_t* dst,
                  size_t stride, uint8_t flip, pthreadpool* pool = nullptr) {
    scale.assign(rows, 1.0f);
    offset.assign(rows, 0);
    if (size == 0) return;
    params_.resize(rows);
    bounds_.resize(2 * static_cast<size_t>(rows));
#if defined(TFI_HYBRID_AVX2)
    const bool avx512 = gemm::CpuHasAvx512F();
    const Spans spans = avx512 ? SpansOf(rows, size, pool) : Spans{};
#else
    const bool avx512 = false;
#endif
    if (avx512) {
#if defined(TFI_HYBRID_AVX2)
      if (spans.span != 0) {
        SpanBounds(x, rows, size, spans, pool);
      } else {
        MinMaxRowsAvx512(x, rows, size, bounds_.data());
      }
#endif
    } else if (const size_t blocks = RowBlocks(rows, size, pool); blocks > 1) {
      // Whole rows per thread (range, parameters, values): the same per-row operations.
      parallel::ParallelFor(pool, blocks, parallel::kMinParallelWork, [&](size_t b) {
        const int r0 = static_cast<int>(b * rows / blocks);
        const int r1 = static_cast<int>((b + 1) * rows / blocks);
        for (int r = r0; r < r1; ++r) {
          MinMax(x + r * size, static_cast<int>(size), &bounds_[2 * r], &bounds_[2 * r + 1]);
          SetParams(r, asymmetric);
          QuantizeWith(params_[r], x + r * size, static_cast<int>(size), dst + r * stride, flip);
        }
      });
      return;
    } else {
      for (int r = 0; r < rows; ++r) {
        MinMax(x + r * size, static_cast<int>(size), &bounds_[2 * r], &bounds_[2 * r + 1]);
      }
    }
    for (int r = 0; r < rows; ++r) SetParams(r, asymmetric);
    if (avx512) {
#if defined(TFI_HYBRID_AVX2)
      if (spans.span != 0) {
        SpanValues(x, size, spans, dst, stride, flip, pool);
      } else {
        QuantizeRowsAvx512(x, rows, size, params_.data(), dst, stride, flip);
      }
#endif
      return;
    }
    for (int r = 0; r < rows; ++r) {
      QuantizeWith(params_[r], x + r * size, static_cast<int>(size), dst + r * stride, flip);
    }
  }
  const int8_t* row(int r, size_t size) const { return values.data() + r * size; }

 private:
  // Below this many values the threads' hand-off costs more than the passes.
  static constexpr double kParallelValues = 65536;
  // Rows of a hybrid layer (no AVX-512): from this many values, whole rows per thread.
  static constexpr double kParallelRowValues = 16384;

  void SetParams(int r, bool asymmetric) {
    params_[r] = asymmetric ? AsymmetricParams(bounds_[2 * r], bounds_[2 * r + 1])
                            : SymmetricParams(bounds_[2 * r], bounds_[2 * r + 1]);
    scale[r] = params_[r].scale;
    offset[r] = params_[r].offset;
  }

  // How many blocks of whole rows to quantize in over the pool (1: on this thread).
  static size_t RowBlocks(int rows, size_t size, pthreadpool* pool) {
    const size_t threads = parallel::NumThreads(pool);
    if (threads <= 1 || static_cast<size_t>(rows) < 2 * threads ||
        static_cast<double>(rows) * size < kParallelRowValues) {
      return 1;
    }
    return std::min<size_t>(static_cast<size_t>(rows), 4 * threads);
  }

  // Over a pool, with enough values (a hybrid convolution's image), each row in spans of a
  // multiple of 64 values, a few per thread (span 0: the serial passes). The spans' ranges
  // start at the row's first value, so their min / max are the row's (MinMaxSpanAvx512),
  // and each span is quantized as its part of the row (QuantizeSpanAvx512): the serial
  // bytes.
  struct Spans {
    size_t span = 0, per_row = 0, items = 0;
    double bytes = 0;
  };
  static Spans SpansOf(int rows, size_t size, pthreadpool* pool) {
    const size_t threads = parallel::NumThreads(pool);
    if (threads <= 1 || static_cast<double>(rows) * size < kParallelValues) return Spans{};
    const size_t wanted = std::max<size_t>(1, (2 * threads + rows - 1) / rows);
    Spans s;
    s.span = std::max<size_t>(4096, (size + wanted - 1) / wanted + 63) / 64 * 64;
    s.per_row = (size + s.span - 1) / s.span;
    s.items = static_cast<size_t>(rows) * s.per_row;
    s.bytes = static_cast<double>(rows) * size * sizeof(float);
    return s;
  }

#if defined(TFI_HYBRID_AVX2)
  // Calls fn(row, i0, i1) for every span, over the pool.
  template <typename Fn>
  static void ForEachSpan(size_t size, const Spans& s, pthreadpool* pool, const Fn& fn) {
    parallel::ParallelFor(pool, s.items, s.bytes, [&](size_t k) {
      const size_t i0 = (k % s.per_row) * s.span;
      fn(k / s.per_row, k, i0, std::min(size, i0 + s.span));
    });
  }

  // bounds_ from the spans' ranges.
  void SpanBounds(const float* x, int rows, size_t size, const Spans& s, pthreadpool* pool) {
    span_bounds_.resize(2 * s.items);
    ForEachSpan(size, s, pool, [&](size_t r, size_t k, size_t i0, size_t i1) {
      const float* v = x + r * size;
      MinMaxSpanAvx512(v + i0, i1 - i0, v[0], &span_bounds_[2 * k], &span_bounds_[2 * k + 1]);
    });
    for (int r = 0; r < rows; ++r) {
      const float* b = span_bounds_.data() + 2 * r * s.per_row;
      float lo = b[0], hi = b[1];
      for (size_t k = 1; k < s.per_row; ++k) {
        lo = std::min(lo, b[2 * k]);
        hi = std::max(hi, b[2 * k + 1]);
      }
      bounds_[2 * r] = lo;
      bounds_[2 * r + 1] = hi;
    }
  }

  // The values of every span with params_.
  void SpanValues(const float* x, size_t size, const Spans& s, int8_t* dst, size_t stride,
                  uint8_t flip, pthreadpool* pool) const {
    const bool bw = gemm::CpuHasAvx512Bw();
    ForEachSpan(size, s, pool, [&](size_t r, size_t, size_t i0, size_t i1) {
      QuantizeSpanAvx512(x + r * size, size, i0, i1, params_[r], dst + r * stride, flip, bw);
    });
  }
#endif

  std::vector<RowParams> params_;
  std::vector<float> bounds_, span_bounds_;
};

}  // namespace hybrid
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_H_
