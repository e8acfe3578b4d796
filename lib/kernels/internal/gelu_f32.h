// GELU on float32, shared by the builtin kernel and the XNNPACK delegate's own step.
// Exact: (0.5 x) * erfc(x * -sqrt(1/2)) as TFLite's builtin kernel computes it on x86, bit
// for bit (Eigen's generic_fast_erfc<float> and exp, SSE without FMA: gelu_f32.cc), on 16,
// 8 or 4 lanes. Approximate: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) as
// TFLite's builtin kernel computes it (Eigen's tanh, every operation rounded on its own),
// bit for bit.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GELU_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GELU_F32_H_

#include <cstdint>

namespace tflite {
namespace gelu_f32 {

void Gelu(const float* in, float* out, int64_t n, bool approximate);

}  // namespace gelu_f32
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_GELU_F32_H_
