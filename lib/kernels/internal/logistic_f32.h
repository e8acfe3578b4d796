// Float LOGISTIC as TFLite's builtin kernel computes it on x86, bit for bit: Eigen's
// scalar_logistic_op<float> (the builtin's optimized_ops::Logistic), whose packets are SSE
// without FMA. Shared by the builtin LOGISTIC and the XNNPACK delegate's own steps in
// graphs whose float bits are TFLite's builtin ones (dynamic-range models quantize them:
// a last-bit difference there can move a hybrid layer's input by a whole step).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LOGISTIC_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LOGISTIC_F32_H_

#include <cstdint>

namespace tflite {
namespace logistic_f32 {

// out[i] = 1 / (1 + exp(-in[i])) with TFLite's builtin bits (in == out allowed).
void Logistic(const float* in, float* out, int64_t n);

// out[i] = in[i] * Logistic(in[i]): a swish of TFLite's builtin LOGISTIC and MUL.
void Swish(const float* in, float* out, int64_t n);

// Swish on a part of a tensor: its last `scalar_tail` values are among the tensor's last
// n % 4 (Eigen's scalar path), the others are packet values.
void SwishPart(const float* in, float* out, int64_t n, int64_t scalar_tail);

}  // namespace logistic_f32
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LOGISTIC_F32_H_
