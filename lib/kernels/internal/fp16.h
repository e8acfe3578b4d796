// IEEE binary16 <-> binary32 conversions as Eigen::half does them (TFLite's fp16 type):
// half -> float is exact; float -> half rounds to nearest even, overflows to infinity and
// maps every NaN to the quiet NaN 0x7E00 (sign kept).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FP16_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FP16_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tflite {
namespace fp16 {

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3FFu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7FFFFFFFu;
  if (x >= 0x7F800000u) return sign | (x > 0x7F800000u ? 0x7E00u : 0x7C00u);
  if (x >= 0x477FF000u) return sign | 0x7C00u;  // >= 65520 rounds to infinity
  if (x < 0x38800000u) {
    // Half subnormal (or zero): the scaling by 2^24 is exact, nearbyint rounds to even.
    const float scaled = std::fabs(f) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  const uint32_t odd = (x >> 13) & 1u;
  x += 0xFFFu + odd;
  x -= 112u << 23;
  return sign | static_cast<uint16_t>(x >> 13);
}

}  // namespace fp16
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FP16_H_
