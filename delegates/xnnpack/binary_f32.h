// The delegate's own float ADD / SUB / MUL of two same-shape tensors, run inside an
// XNNPACK partition when the interpreter has more than one thread. Debian's XNNPACK
// (2022) merges the dimensions of same-shape operands into one and then hands the whole
// tensor to a single thread, so on two threads every residual ADD of a MobileNet-style
// model ran on the calling thread while the other waited; this splits the elements over
// the pool. Results are XNNPACK's bit for bit: a op b, then max(min), then min(max).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_F32_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_F32_H_

#include <pthreadpool.h>

#include <cstddef>

namespace tflite_inspect {
namespace xnnpack {

enum class BinaryOp { kAdd, kSub, kMul };

// out[i] = min(max(a[i] op b[i], min), max) for i < n, split over `pool`.
void RunBinaryF32(BinaryOp op, const float* a, const float* b, float* out, size_t n, float min,
                  float max, pthreadpool_t pool);

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_F32_H_
