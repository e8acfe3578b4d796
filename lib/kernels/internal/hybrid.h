// Input quantization of TFLite's hybrid kernels (float activations, int8 weights):
// tensor_utils::SymmetricQuantizeFloats / AsymmetricQuantizeFloats as the portable
// tensor utils compute them, float for float, so the int8 values, scaling factors and
// offsets match TFLite's exactly. The kernels then sum in int32 (exact) and rescale with
// scaling_factor * filter_scale in float.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

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
inline void MinMax(const float* values, int size, float* min_value, float* max_value) {
  typedef float V4 __attribute__((vector_size(16)));
  float lo = values[0], hi = values[0];
  int i = 0;
  if (size >= 4) {
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
  for (int i = 0; i < size; ++i) {
    const int32_t q = RoundHalfAway(values[i] * scaling_factor_inv);
    quantized[i] = static_cast<int8_t>(std::min(kScale, std::max(-kScale, q)));
  }
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
  if (zero_point_double <= qmin_double) {
    nudged_zero_point = kMinScale;
  } else if (zero_point_double >= qmax_double) {
    nudged_zero_point = kMaxScale;
  } else {
    nudged_zero_point = static_cast<int8_t>(std::round(zero_point_double));
  }
  *scaling_factor = static_cast<float>(scale);
  *offset = nudged_zero_point;
  const float scaling_factor_inv = 1.0f / *scaling_factor;
  for (int i = 0; i < size; ++i) {
    const int32_t q =
        RoundHalfAway(static_cast<float>(*offset) + values[i] * scaling_factor_inv);
    quantized[i] = static_cast<int8_t>(std::min(kMaxScale, std::max(kMinScale, q)));
  }
}

// Rows of floats quantized one by one, as TFLite's hybrid kernels quantize each batch row
// or image (BatchQuantizeFloats): int8 values, a scale per row and, when asymmetric, an
// offset per row (0 otherwise). The buffers are reused across calls.
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
