// GELU on float32, shared by the builtin kernel and the XNNPACK delegate's own step.
// Exact: 0.5 * x * (1 + erf(x / sqrt(2))) with erf as Eigen's rational approximation
// (inputs clamped to [-4, 4], |error| < 1e-7; 8 wide on AVX2), and x < -1.5, where 1 + erf
// is small, with std::erfc as TFLite's reference: every element within 1e-5 relative of it.
// Approximate: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), evaluated as
// x * sigmoid(2u) to avoid cancellation for x << 0.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GELU_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GELU_F32_H_

#include <cstdint>

namespace tflite {
namespace gelu_f32 {

void Gelu(const float* in, float* out, int64_t n, bool approximate);

}  // namespace gelu_f32
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GELU_F32_H_
