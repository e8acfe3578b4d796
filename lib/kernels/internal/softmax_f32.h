// Float SOFTMAX over the last dimension as TFLite's builtin (optimized) kernel computes it
// on x86, bit for bit: optimized_ops::Softmax is Eigen code built for SSE without FMA.
// Per row: max; t = (x - max) * beta; exp(t) by Eigen's pexp for 4-float packets (range
// reduction by ln 2 in two constants, a degree-6 polynomial, 2^m in four factors; every
// multiply-add two roundings) over the tensor's first size & ~3 values and std::exp for
// the last size % 4; the row's sum as Eigen's vectorized sum (eigen_sum.h); each value
// times 1 / sum. Checked against
// ai-edge-litert 2.3.0 (testdata/kernels/softmax_float_*). Dynamic-range models quantize
// what SOFTMAX writes (attention), where the last bit can move a value a whole step.
//
// Assumes the tensor starts 16-byte aligned, as TFLite's arena aligns every tensor.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SOFTMAX_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SOFTMAX_F32_H_

#include <pthreadpool.h>

#include <cstdint>

namespace tflite {
namespace softmax_f32 {

// input and output [rows][depth] (they may be the same buffer).
void Softmax(const float* input, int64_t rows, int depth, float beta, float* output,
             pthreadpool* pool);

// Eigen's pexp for one value (what its 4-float packets compute per lane); for tests.
float EigenExp(float x);

}  // namespace softmax_f32
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SOFTMAX_F32_H_
