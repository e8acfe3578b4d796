// The delegate's own float ADD / SUB / MUL of two same-shape tensors, run inside an
// XNNPACK partition when the interpreter has more than one thread, and of a tensor by a
// vector along its last dimension (squeeze-excite's MUL) on any number. Debian's XNNPACK
// (2022) merges the dimensions of same-shape operands into one and then hands the whole
// tensor to a single thread, so on two threads every residual ADD of a MobileNet-style
// model ran on the calling thread while the other waited; this splits the elements over
// the pool. Its broadcast multiply took 1.4x TFLite's time on EfficientNet's
// squeeze-excite shapes (193 against 140 us for 120 x 120 x 96). Results are XNNPACK's bit
// for bit: a op b, then max(min), then min(max).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_F32_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_F32_H_

#include <pthreadpool.h>

#include <cstddef>

namespace tflite_inspect {
namespace xnnpack {

enum class BinaryOp { kAdd, kSub, kMul, kSquaredDifference };

// out[i] = min(max(a[i] op b[i], min), max) for i < n, split over `pool` (a squared
// difference: (a - b) * (a - b), each rounded); with a period, b holds `period` values
// repeated along a, each over `inner` consecutive elements (n a multiple of period * inner):
// b[(i / inner) % period] (inner 1: a vector along the last dimension; more: a group norm's
// statistics [.., groups, 1] against [.., groups, channels]).
void RunBinaryF32(BinaryOp op, const float* a, const float* b, float* out, size_t n, float min,
                  float max, pthreadpool_t pool, size_t period = 0, size_t inner = 1);

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_BINARY_F32_H_
