// The delegate's own int8 TRANSPOSE_CONV (QS8: int8 activations, int8 per-channel or
// per-tensor weights, int32 bias) for the non-overlapping case (stride equal to the filter
// size, no padding: each output pixel gets exactly one filter tap), the U-Net decoder's
// 2x2 stride-2 upsampling. TFLite's XNNPACK delegate takes such nodes (one partition for
// a full-int8 U-Net); Debian's XNNPACK (2022) has no per-channel int8 deconvolution, so
// the delegate computes it: for each input row and filter row, out[rows] = in[row] x
// W[fy] is one dot-product GEMM whose rows land contiguously in the output
// (kernels/internal/gemm.h: DotGemm), no scatter.
//
// Numerics as ConvQs8's: the reference's exact int32 sums, requantized as XNNPACK does
// (fp32: float(acc + bias) * (input_scale * filter_scale / output_scale), clamped, rounded
// to nearest even, + output zero point): within one step of TFLite's reference kernels.
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSPOSE_CONV_QS8_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSPOSE_CONV_QS8_H_

#include <pthreadpool.h>

#include <cstdint>
#include <vector>

#include "kernels/internal/gemm.h"

namespace tflite_inspect {
namespace xnnpack {

class TransposeConvQs8 {
 public:
  // filter [out_c][k_h][k_w][in_c] (OHWI) int8, bias [out_c] int32 or nullptr; stride =
  // filter size. scale: the out_c requantization scales (RequantizationScales); the
  // activation range in output units (zero point included).
  TransposeConvQs8(int batches, int in_h, int in_w, int in_c, int k_h, int k_w, int out_c,
                   const int8_t* filter, const int32_t* bias, int32_t input_zero_point,
                   int32_t output_zero_point, int32_t act_min, int32_t act_max,
                   const std::vector<float>& scale);
  // input [batches][in_h][in_w][in_c] -> output [batches][in_h*k_h][in_w*k_w][out_c]. Not
  // reentrant (one scratch buffer), as the delegate kernel runs one Invoke at a time.
  void Run(const int8_t* input, int8_t* output, pthreadpool_t pool) const;

 private:
  int batches_, in_h_, in_w_, in_c_, k_h_, k_w_, out_c_;
  int32_t output_zero_point_, act_min_, act_max_;
  // Per filter row: [k_w*out_c][in_c] packed for the dot GEMM, and its bias (the int32
  // bias and the input zero point's term, gemm::DotBias).
  std::vector<tflite::gemm::CacheLineVector<int8_t>> packed_;
  std::vector<std::vector<int32_t>> bias_;
  std::vector<float> scale_;  // the out_c scales repeated k_w times
  mutable std::vector<uint8_t> scratch_;  // the input + 128, and DotDepth's slack
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSPOSE_CONV_QS8_H_
