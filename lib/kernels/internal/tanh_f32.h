// Float TANH as TFLite's builtin kernel computes it on x86, bit for bit: Eigen's
// ptanh_float (the builtin's optimized_ops::Tanh maps the tensor through Eigen's
// array().tanh()), SSE without FMA in TFLite's x86 build. Its scalar path (the last n % 4
// values) is the same expression on floats, so every value takes one form here.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_TANH_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_TANH_F32_H_

#include <cstdint>

namespace tflite {
namespace tanh_f32 {

// out[i] = tanh(in[i]) with TFLite's builtin bits (in == out allowed; NaN stays NaN).
void Tanh(const float* in, float* out, int64_t n);

}  // namespace tanh_f32
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_TANH_F32_H_
