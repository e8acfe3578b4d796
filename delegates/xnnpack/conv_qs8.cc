#include "xnnpack/conv_qs8.h"

#include <utility>

#include "xnnpack/conv_f32.h"

namespace tflite_inspect {
namespace xnnpack {

// The own step exists because this XNNPACK has no VNNI kernels for x86; on AArch64 it has
// its own dot-product (neondot) ones, so there the partition keeps XNNPACK's.
bool OwnConvQs8Wanted() {
#if defined(__aarch64__)
  return OwnStepWanted(false);
#else
  return OwnStepWanted(tflite::gemm::DotGemmWanted());
#endif
}

std::vector<float> RequantizationScales(float input_scale, const float* filter_scales,
                                        int filter_scale_count, float output_scale,
                                        int channels) {
  std::vector<float> scale(channels);
  for (int c = 0; c < channels; ++c) {
    const float product = input_scale * filter_scales[filter_scale_count == 1 ? 0 : c];
    scale[c] = product / output_scale;
  }
  return scale;
}

ConvQs8::ConvQs8(const tflite::conv_util::ConvGeometry& g, const int8_t* filter,
                 const int32_t* bias, tflite::conv_util::QuantParams quant,
                 std::vector<float> scale)
    : g_(g), quant_(std::move(quant)), scale_(std::move(scale)) {
  const int depth = g.f_h * g.f_w * g.in_c;
  packed_.resize(tflite::gemm::PackedDotWeightsSize(g.out_c, depth));
  std::vector<int32_t> sums(g.out_c);
  tflite::gemm::PackDotWeights(filter, g.out_c, depth, packed_.data(), sums.data());
  bias_.resize(g.out_c);
  tflite::gemm::DotBias(bias, sums.data(), g.out_c, -quant_.input_offset + 128, bias_.data());
}

void ConvQs8::Run(const int8_t* input, int8_t* output, pthreadpool_t pool) const {
  tflite::gemm::QuantizedOutputStage stage = quant_.Stage(bias_.data());
  stage.float_scale = scale_.data();
  tflite::conv_util::Int8DotConv(g_, input, -quant_.input_offset, 0, packed_.data(), stage,
                                 output, &scratch_, pool);
}

}  // namespace xnnpack
}  // namespace tflite_inspect
