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
// four lanes at a time (one SSE / NEON register) so that the loop vectorizes.
#if defined(TFI_HYBRID_AVX2)
// MinMax's vector part on 8 lanes: min_ps(v, lo) keeps lo where v is NaN, as `v < lo ? v :
// lo`. Returns how many values it covered (a multiple of 8, or 0).
__attribute__((target("avx2"))) inline int MinMaxAvx2(const float* values, int size, float* lo,
                                                      float* hi) {
  if (size < 8) return 0;
  __m256 vlo = _mm256_loadu_ps(values), vhi = vlo;
  int i = 8;
  for (; i + 8 <= size; i += 8) {
    const __m256 v = _mm256_loadu_ps(values + i);
    vlo = _mm256_min_ps(v, vlo);
    vhi = _mm256_max_ps(v, vhi);
  }
  float l[8], h[8];
  _mm256_storeu_ps(l, vlo);
  _mm256_storeu_ps(h, vhi);
  for (int k = 0; k < 8; ++k) {
    *lo = std::min(*lo, l[k]);
    *hi = std::max(*hi, h[k]);
  }
  return i;
}
#endif

inline void MinMax(const float* values, int size, float* min_value, float* max_value) {
  typedef float V4 __attribute__((vector_size(16)));
  float lo = values[0], hi = values[0];
  int i = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx2()) i = MinMaxAvx2(values, size, &lo, &hi);
#endif
  if (i == 0 && size >= 4) {
    V4 vlo, vhi;
    std::memcpy(&vlo, values, sizeof vlo);
    vhi = vlo;
    for (i = 4; i + 4 <= size; i += 4) {
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
// QuantizeLoop's first size & ~7 values, 8 at a time (the same float operations).
__attribute__((target("avx2"))) inline void QuantizeLoopAvx2(const float* values, int bulk,
                                                            float inv, int32_t offset,
                                                            int32_t lo, int32_t hi,
                                                            int8_t* quantized) {
  const __m256 vinv = _mm256_set1_ps(inv);
  const __m256 fmin = _mm256_set1_ps(-2147483520.0f), fmax = _mm256_set1_ps(2147483520.0f);
  const __m256 half = _mm256_set1_ps(0.5f), minus_half = _mm256_set1_ps(-0.5f);
  const __m256 zero = _mm256_setzero_ps();
  const __m256i voff = _mm256_set1_epi32(offset);
  const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  for (int i = 0; i < bulk; i += 8) {
    const __m256 y = _mm256_mul_ps(_mm256_loadu_ps(values + i), vinv);
    const __m256 neg = _mm256_cmp_ps(y, zero, _CMP_LT_OQ);
    __m256 r = _mm256_add_ps(y, _mm256_blendv_ps(half, minus_half, neg));
    r = _mm256_min_ps(_mm256_max_ps(r, fmin), fmax);  // NaN -> the lower bound, as NeonRound
    __m256i q = _mm256_add_epi32(_mm256_cvttps_epi32(r), voff);
    q = _mm256_min_epi32(_mm256_max_epi32(q, vlo), vhi);
    const __m128i q16 = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    const __m128i q8 = _mm_packs_epi16(q16, q16);
    std::memcpy(quantized + i, &q8, 8);
  }
}
#endif

inline void QuantizeLoop(const float* values, int size, float inv, int32_t offset, int32_t lo,
                         int32_t hi, int8_t* quantized) {
  const int bulk = size & ~7;
  int i = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx2()) {
    QuantizeLoopAvx2(values, bulk, inv, offset, lo, hi, quantized);
    i = bulk;
  }
#endif
  // offset + q cannot overflow: |q| is at most 2^31 - 128 and |offset| at most 128.
  for (; i < bulk; ++i) {
    const int64_t q = static_cast<int64_t>(offset) + NeonRound(values[i] * inv);
    quantized[i] = static_cast<int8_t>(std::min<int64_t>(hi, std::max<int64_t>(lo, q)));
  }
  for (; i < size; ++i) {
    const int64_t q = static_cast<int64_t>(offset) + RoundHalfAway(values[i] * inv);
    quantized[i] = static_cast<int8_t>(std::min<int64_t>(hi, std::max<int64_t>(lo, q)));
  }
}

// values -> round(values * 127 / max|values|) in [-127, 127]; scaling_factor =
// max|values| / 127 (1 for an all-zero input).
inline void SymmetricQuantizeFloats(const float* values, int size, int8_t* quantized,
                                    float* scaling_factor) {
  if (size <= 0) {
    *scaling_factor = 1;
    return;
  }
  float min_value, max_value;
  MinMax(values, size, &min_value, &max_value);
  constexpr int32_t kScale = 127;
  const float range = std::max(std::abs(min_value), std::abs(max_value));
  if (range == 0) {
    std::memset(quantized, 0, static_cast<size_t>(size));
    *scaling_factor = 1;
    return;
  }
  *scaling_factor = range / kScale;
  const float scaling_factor_inv = kScale / range;
  QuantizeLoop(values, size, scaling_factor_inv, 0, -kScale, kScale, quantized);
}

// values -> [-128, 127] over [min(0, min), max(0, max)] with a nudged zero point
// (`offset`); scaling_factor = float(rmax - rmin) / 255 (1 and offset 0 for an all-zero
// input).
inline void AsymmetricQuantizeFloats(const float* values, int size, int8_t* quantized,
                                     float* scaling_factor, int32_t* offset) {
  constexpr int32_t kMinScale = -128;
  constexpr int32_t kMaxScale = 127;
  constexpr double qmin_double = kMinScale;
  constexpr double qmax_double = kMaxScale;
  if (size <= 0) {
    *scaling_factor = 1;
    *offset = 0;
    return;
  }
  float min_value, max_value;
  MinMax(values, size, &min_value, &max_value);
  const double rmin = static_cast<double>(std::min(0.0f, min_value));
  const double rmax = static_cast<double>(std::max(0.0f, max_value));
  if (rmin == rmax) {
    std::memset(quantized, 0, static_cast<size_t>(size));
    *scaling_factor = 1;
    *offset = 0;
    return;
  }
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
  *scaling_factor = static_cast<float>(scale);
  *offset = nudged_zero_point;
  const float scaling_factor_inv = 1.0f / *scaling_factor;
  QuantizeLoop(values, size, scaling_factor_inv, *offset, kMinScale, kMaxScale, quantized);
}

// Rows of floats quantized one by one, as TFLite's hybrid kernels quantize each batch row
// or image (BatchQuantizeFloats): int8 values, a scale per row and, when asymmetric, an
// offset per row (0 otherwise). The buffers are reused across calls.
// The float rescale of hybrid sums, in the loops the compiler vectorizes (no branch
// inside). Conv order (TFLite's hybrid conv): v = float(acc) * channel_scale[j] *
// row_scale (channel_scale null: float(acc) * row_scale), + bias[j], clamped.
inline void RescaleConvRow(const int32_t* acc, int n, const float* channel_scale,
                           float row_scale, const float* bias, float lo, float hi, float* out) {
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

// Depthwise order (TFLite's EvalHybridPerChannel): v = float(acc) * multiplier[j] (the
// channel scale times the image scale, multiplied beforehand), + bias[j], clamped.
inline void RescaleRow(const int32_t* acc, int n, const float* multiplier, const float* bias,
                       float lo, float hi, float* out) {
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

#if defined(TFI_HYBRID_AVX2)
__attribute__((target("avx2"))) inline int ScaleRowAvx2(const int32_t* dot, float row_scale,
                                                        const float* unit_scale, const float* bias,
                                                        float act_min, float act_max, float* out,
                                                        int n) {
  const __m256 rs = _mm256_set1_ps(row_scale), lo = _mm256_set1_ps(act_min),
               hi = _mm256_set1_ps(act_max);
  int u = 0;
  for (; u + 8 <= n; u += 8) {
    const __m256 s = _mm256_mul_ps(rs, _mm256_loadu_ps(unit_scale + u));
    const __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_loadu_si256(
                                       reinterpret_cast<const __m256i*>(dot + u))),
                                   s);
    const __m256 b = bias != nullptr ? _mm256_loadu_ps(bias + u) : _mm256_setzero_ps();
    // max_ps(lo, v) / min_ps(hi, v): std::max(v, lo) / std::min(v, hi), NaN kept.
    _mm256_storeu_ps(out + u, _mm256_min_ps(hi, _mm256_max_ps(lo, _mm256_add_ps(b, p))));
  }
  return u;
}

__attribute__((target("avx2"))) inline int SubtractOffsetAvx2(int32_t* sums, const int32_t* col,
                                                              uint32_t offset, int n) {
  const __m256i o = _mm256_set1_epi32(static_cast<int32_t>(offset));
  int u = 0;
  for (; u + 8 <= n; u += 8) {
    __m256i* at = reinterpret_cast<__m256i*>(sums + u);
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + u));
    _mm256_storeu_si256(at, _mm256_sub_epi32(_mm256_loadu_si256(at), _mm256_mullo_epi32(o, c)));
  }
  return u;
}
#endif

// out[u] = clamp(bias[u] (or 0) + float(dot[u]) * (row_scale * unit_scale[u])): the hybrid
// kernels' rescale of one row's int32 sums, the products rounded as written (no FMA).
inline void ScaleRow(const int32_t* dot, float row_scale, const float* unit_scale,
                     const float* bias, float act_min, float act_max, float* out, int n) {
  int u = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx2()) u = ScaleRowAvx2(dot, row_scale, unit_scale, bias, act_min, act_max, out, n);
#endif
  for (; u < n; ++u) {
    const float v = (bias != nullptr ? bias[u] : 0.0f) + static_cast<float>(dot[u]) * (row_scale * unit_scale[u]);
    out[u] = std::min(std::max(v, act_min), act_max);
  }
}

// sums[u] -= offset * col[u], wrapping as uint32 (the asymmetric input's offset term).
inline void SubtractOffset(int32_t* sums, const int32_t* col, uint32_t offset, int n) {
  int u = 0;
#if defined(TFI_HYBRID_AVX2)
  if (gemm::CpuHasAvx2()) u = SubtractOffsetAvx2(sums, col, offset, n);
#endif
  for (; u < n; ++u) {
    sums[u] = static_cast<int32_t>(static_cast<uint32_t>(sums[u]) - offset * static_cast<uint32_t>(col[u]));
  }
}

struct QuantizedRows {
  std::vector<int8_t> values;
  std::vector<float> scale;
  std::vector<int32_t> offset;

  void Quantize(const float* x, int rows, size_t size, bool asymmetric) {
    values.resize(static_cast<size_t>(rows) * size);
    scale.resize(rows);
    offset.assign(rows, 0);
    for (int r = 0; r < rows; ++r) {
      const float* row = x + r * size;
      int8_t* q = values.data() + r * size;
      if (asymmetric) {
        AsymmetricQuantizeFloats(row, static_cast<int>(size), q, &scale[r], &offset[r]);
      } else {
        SymmetricQuantizeFloats(row, static_cast<int>(size), q, &scale[r]);
      }
    }
  }
  const int8_t* row(int r, size_t size) const { return values.data() + r * size; }
};

}  // namespace hybrid
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_H_
