// A float matrix-vector product on weights stored as IEEE half: y = clamp(bias + W x) for
// one row x[k] and W[n][k] whose every value is a half exactly (an fp16 model's weights,
// which TFLite and this runtime dequantize to float before any kernel sees them).
//
// Why: a product of one row reads each weight once, so it is bound by reading them: a
// classifier head of 1280 x 1000 float weights is 5 MB from L3 on every run, and its
// multiply-adds are a few percent of the time that takes. The same values as halves are
// half the bytes, widened to float in registers (vcvtph2ps: exact; AVX-512, or AVX2 with
// F16C).
//
// Numerics: every product is a float product of the float weight (the conversion is
// exact), summed in four chains over k mod 4 with one FMA each, then (c0 + c1) + (c2 + c3),
// then the bias: not XNNPACK's order, within the float tolerance of TFLite's results.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMV_F16_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMV_F16_H_

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tflite {
namespace gemv_f16 {

// Whether this CPU runs it (x86 AVX-512F, or AVX2 with FMA and F16C).
bool Available();

// Whether every one of the n values is a half exactly: converting it to half and back
// gives its bits (signed zeros and subnormal halves included; the quiet NaN too, which a
// half keeps, but not other NaN payloads).
bool ExactInHalf(const float* values, size_t n);
// The same for one value, from its bits (no conversion).
bool IsHalf(float value);

class HalfWeights {
 public:
  // weights [n][k] (row stride k), every value ExactInHalf.
  HalfWeights(const float* weights, int n, int k);
  // y[n] = clamp(bias[j] + sum_k x[k] * w[j][k], min, max); bias may be null. Panels of 16
  // outputs split over the pool. Available() must hold.
  void Run(const float* x, const float* bias, float min, float max, float* y,
           pthreadpool* pool) const;

 private:
  int n_, k_;
  std::vector<uint16_t> packed_;  // [n / 16 panels][k][16 halves], zero past n
};

}  // namespace gemv_f16
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GEMV_F16_H_
