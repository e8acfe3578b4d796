// DEPTHWISE_CONV_2D on float32 as the builtin kernel computes it, shared with the XNNPACK
// delegate's own step in dynamic-range graphs: direct convolution vectorized over the
// (contiguous) channels, output rows split over the thread pool. Each tap's product is
// rounded (no FMA) and added in (fy, fx) order, taps outside the image skipped, to the bias
// (`bias_first`: TFLite's optimized kernel, whose bits dynamic-range graphs need: their
// hybrid layers quantize these values and turn a last-bit difference into a whole step) or
// to 0 with the bias added last (TFLite's reference kernel).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_FLOAT_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_FLOAT_H_

#include <pthreadpool.h>

#include <cstddef>

namespace tflite {
namespace dwconv {

// A depthwise convolution's geometry (NHWC input, [1, f_h, f_w, out_c] filter).
struct Geometry {
  int batches, in_h, in_w, in_c, f_h, f_w, out_h, out_w, out_c, depth_multiplier;
  int stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
};

// Calls tap(input_pixel, filter_tap) for every filter tap of output (b, oy, ox) that falls
// inside the image.
template <typename In, typename F, typename Tap>
inline void ForEachTap(const Geometry& g, const In* input, const F* filter, int b, int oy, int ox,
                       const Tap& tap) {
  for (int fy = 0; fy < g.f_h; ++fy) {
    const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
    if (iy < 0 || iy >= g.in_h) continue;
    for (int fx = 0; fx < g.f_w; ++fx) {
      const int ix = ox * g.stride_w - g.pad_w + fx * g.dil_w;
      if (ix < 0 || ix >= g.in_w) continue;
      tap(input + ((static_cast<size_t>(b) * g.in_h + iy) * g.in_w + ix) * g.in_c,
          filter + static_cast<size_t>(fy * g.f_w + fx) * g.out_c);
    }
  }
}

// output [batches][out_h][out_w][out_c] from input [batches][in_h][in_w][in_c], filter
// [f_h][f_w][out_c], bias [out_c] or nullptr, clamped to [act_min, act_max]; swish: then
// x * sigmoid(x) of each output row while it is in cache (a swish that followed the
// convolution, folded into it by the XNNPACK delegate), with the bits of TFLite's builtin
// LOGISTIC and MUL over the whole tensor (logistic_f32.h).
void FloatDepthwise(const Geometry& g, const float* input, const float* filter, const float* bias,
                    bool bias_first, float act_min, float act_max, float* output,
                    pthreadpool* pool, bool swish = false);

}  // namespace dwconv
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_FLOAT_H_
