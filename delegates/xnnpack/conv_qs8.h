// The delegate's own int8 CONV_2D (QS8: int8 activations, int8 per-channel or per-tensor
// weights, int32 bias), run inside an XNNPACK partition instead of XNNPACK's on CPUs with
// dot-product instructions (x86 VNNI): the builtin kernels' dot-product GEMM
// (kernels/internal/gemm.h: DotGemm, im2col.h: Int8DotConv).
//
// Why: Debian's XNNPACK (2022) has no VNNI QS8 GEMM; on an AVX-512 VNNI CPU its
// convolutions ran at about a third of this GEMM's speed (docs/performance.md).
//
// Numerics: the int32 sums are the reference's (exact); they are requantized as XNNPACK
// does (fp32: float(acc) * (input_scale * filter_scale / output_scale, in float), clamped,
// rounded to nearest even, + output zero point), so these nodes give the bytes of TFLite's
// own XNNPACK delegate, within one step of TFLite's reference kernels.
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_CONV_QS8_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_CONV_QS8_H_

#include <pthreadpool.h>

#include <cstdint>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/im2col.h"

namespace tflite_inspect {
namespace xnnpack {

// Whether this CPU gets the own int8 convolution (x86 with AVX2: the dot GEMM's tiles); the
// environment variable TFI_XNNPACK_OWN_GEMM=0 or =1 decides instead, as for the float one
// (docs/xnnpack.md).
bool OwnConvQs8Wanted();
// Whether a CONV_2D or FULLY_CONNECTED of out_c output channels in `groups` groups takes
// it. Where the CPU has no dot-product instructions the AVX2 tile computes 16 columns a
// panel and this XNNPACK's AVX2 kernel 8, so out_c not a multiple of 16 stays with
// XNNPACK there (mobilenet_v1_0.25_128_int8, whose first layers have 8 channels: 582 ->
// 530 us at one thread on an AVX2-only EPYC), and so do grouped convolutions, which the
// step merges into 16-channel groups with zeros between (4x the multiply-adds for
// ResNeXt's 4-channel groups: resnext_grouped_64_int8 1696 us, this XNNPACK 880).
// TFI_XNNPACK_OWN_GEMM=1 takes them all.
bool OwnConvQs8Layer(int out_c, int groups);

// XNNPACK's requantization scales: input_scale * filter_scale[c] / output_scale, in float
// arithmetic (one filter scale serves every channel when the filter has one).
std::vector<float> RequantizationScales(float input_scale, const float* filter_scales,
                                        int filter_scale_count, float output_scale,
                                        int channels);

class ConvQs8 {
 public:
  // filter [out_c][f_h][f_w][f_c] int8 (g.groups groups of f_c input channels), bias [out_c]
  // int32 or nullptr.
  // quant: the offsets and activation range (conv_util::PrepareConvQuant); scale: the
  // out_c requantization scales (RequantizationScales).
  ConvQs8(const tflite::conv_util::ConvGeometry& g, const int8_t* filter, const int32_t* bias,
          tflite::conv_util::QuantParams quant, std::vector<float> scale);
  // (Not copied: group_packed_ points into packed_.)
  ConvQs8(const ConvQs8&) = delete;
  ConvQs8& operator=(const ConvQs8&) = delete;
  // input [batches][in_h][in_w][in_c] -> output [batches][out_h][out_w][out_c]. Not
  // reentrant (one scratch buffer), as the delegate kernel runs one Invoke at a time.
  void Run(const int8_t* input, int8_t* output, pthreadpool_t pool) const;

 private:
  tflite::conv_util::ConvGeometry g_;
  tflite::conv_util::QuantParams quant_;
  tflite::gemm::CacheLineVector<int8_t> packed_;
  std::vector<int32_t> bias_;  // gemm::DotBias of the filter and the input zero point
  std::vector<float> scale_;
  int merged_ = 1;  // groups run as one (conv_util::MergedGroups), where grouped
  std::vector<const int8_t*> group_packed_;  // each group's weights, where read in place
  mutable std::vector<uint8_t> scratch_;
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_CONV_QS8_H_
