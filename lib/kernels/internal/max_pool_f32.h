// Float max pooling as a separable max: for each output row, the max over the window's
// rows of every input column it needs (one pass over those input rows), then the max of
// each window's columns of that. 2 x 5 comparisons a value where a 5x5 window takes 25
// (YOLO's SPPF: three 5x5 stride-1 pools), on vector lanes over the channels. The XNNPACK
// delegate's MAX_POOL_2D step (ops_pooling.cc), where this XNNPACK's pooling kernel is SSE.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MAX_POOL_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MAX_POOL_F32_H_

#include <pthreadpool.h>

namespace tflite {
namespace max_pool_f32 {

// NHWC; the window of output (oy, ox) starts at (oy * stride_h - pad_h, ox * stride_w -
// pad_w), f_h x f_w, its in-image part taken.
struct Geometry {
  int batches = 0, in_h = 0, in_w = 0, channels = 0, out_h = 0, out_w = 0;
  int f_h = 0, f_w = 0, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
};

// out = clamp(max of each window's in-image values, lo, hi) (the lowest float where a
// window has none, as the builtin kernel). The max is exact, so any order of comparisons
// gives the same value; only where a window's maximum is zero and it holds both +0 and
// -0 may the zero's sign differ from another order's, and which value a NaN gives is not
// specified (as in XNNPACK). Rows, and pixel ranges of few rows, split over `pool`.
void MaxPool(const Geometry& g, const float* input, float* output, float lo, float hi,
             pthreadpool* pool);

}  // namespace max_pool_f32
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MAX_POOL_F32_H_
