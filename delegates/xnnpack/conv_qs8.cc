#include "xnnpack/conv_qs8.h"

#include <utility>

#include "xnnpack/conv_f32.h"

namespace tflite_inspect {
namespace xnnpack {

// The own step exists because this XNNPACK has no VNNI kernels for x86, and its AVX2 ones
// (3x8c8, an accumulator spilled to the stack as Debian builds it) are slower than the
// dot GEMM's AVX2 tile (resnet50_224_int8 87 -> 70 ms at one thread on an AVX2-only
// EPYC); on AArch64 it has its own dot-product (neondot) ones, so there the partition
// keeps XNNPACK's.
bool OwnConvQs8Wanted() {
#if defined(__aarch64__)
  return OwnStepWanted(false);
#else
  return OwnStepWanted(tflite::gemm::DotGemmWanted() || tflite::gemm::CpuHasAvx2());
#endif
}

bool OwnConvQs8Layer(int out_c, int groups) {
  return tflite::gemm::DotGemmWanted() || (groups == 1 && out_c % tflite::gemm::kGemmNr == 0) ||
         OwnStepWanted(false);
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
  namespace cu = tflite::conv_util;
  // A grouped convolution: its groups merged into groups of 16 channels where they are
  // narrower, all of them read in place in per-group images (cu::Int8DotGroupedConv), else
  // group by group.
  if (g.groups > 1) {
    const int m = cu::MergedGroups(g);
    if (cu::GroupedDotImageApplies(cu::MergeGroups(g, m))) {
      merged_ = m;
    }
  }
  const cu::ConvGeometry gm = cu::MergeGroups(g, merged_);
  const int taps = g.f_h * g.f_w, n = gm.group_out_c;
  const int depth = taps * gm.f_c;
  const size_t panel = tflite::gemm::PackedDotWeightsSize(n, depth);
  packed_.resize(panel * gm.groups);
  bias_.resize(g.out_c);
  std::vector<int32_t> sums(n);
  std::vector<int8_t> rows;
  for (int j = 0; j < gm.groups; ++j) {
    const int8_t* group = filter + static_cast<size_t>(j) * n * depth / merged_;
    if (merged_ > 1) {
      cu::MergeGroupRows(group, g.group_out_c, taps, g.f_c, merged_, &rows);
      group = rows.data();
    }
    tflite::gemm::PackDotWeights(group, n, depth, packed_.data() + j * panel, sums.data());
    tflite::gemm::DotBias(bias != nullptr ? bias + j * n : nullptr, sums.data(), n,
                          -quant_.input_offset + 128, bias_.data() + j * n);
  }
  // Grouped and read in place (the CPU decides, once): each group's packed weights.
  if (g.groups > 1 && cu::GroupedDotImageApplies(gm)) {
    for (int j = 0; j < gm.groups; ++j) group_packed_.push_back(packed_.data() + j * panel);
  }
}

void ConvQs8::Run(const int8_t* input, int8_t* output, pthreadpool_t pool) const {
  namespace cu = tflite::conv_util;
  tflite::gemm::QuantizedOutputStage stage = quant_.Stage(bias_.data());
  stage.float_scale = scale_.data();
  if (!group_packed_.empty()) {
    cu::Int8DotGroupedConv(cu::MergeGroups(g_, merged_), input, -quant_.input_offset,
                           group_packed_.data(), stage, output, &scratch_, pool);
    return;
  }
  const size_t panel = tflite::gemm::PackedDotWeightsSize(g_.group_out_c, g_.f_h * g_.f_w * g_.f_c);
  for (int grp = 0; grp < g_.groups; ++grp) {
    tflite::gemm::QuantizedOutputStage s = stage;
    const size_t at = static_cast<size_t>(grp) * g_.group_out_c;
    s.bias += at;
    s.multiplier += at;
    s.shift += at;
    s.float_scale += at;
    cu::Int8DotConv(g_, input, -quant_.input_offset, grp, packed_.data() + grp * panel, s, output,
                    &scratch_, pool);
  }
}

}  // namespace xnnpack
}  // namespace tflite_inspect
