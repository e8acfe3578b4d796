#include "xnnpack/transpose_conv_qs8.h"

#include <algorithm>
#include <cstddef>

#include "xnnpack/transpose_conv_f32.h"

namespace tflite_inspect {
namespace xnnpack {

TransposeConvQs8::TransposeConvQs8(int batches, int in_h, int in_w, int in_c, int k_h, int k_w,
                                   int out_c, const int8_t* filter, const int32_t* bias,
                                   int32_t input_zero_point, int32_t output_zero_point,
                                   int32_t act_min, int32_t act_max,
                                   const std::vector<float>& scale)
    : batches_(batches), in_h_(in_h), in_w_(in_w), in_c_(in_c), k_h_(k_h), k_w_(k_w),
      out_c_(out_c), output_zero_point_(output_zero_point), act_min_(act_min), act_max_(act_max) {
  const int n = k_w * out_c;
  std::vector<int8_t> rows(static_cast<size_t>(n) * in_c);
  std::vector<int32_t> sums(n), row_bias(n);
  for (int i = 0; i < n; ++i) row_bias[i] = bias != nullptr ? bias[i % out_c] : 0;
  for (int fy = 0; fy < k_h; ++fy) {
    TransposeConvFilterRow(filter, k_h, k_w, out_c, in_c, fy, rows.data());
    packed_.emplace_back(tflite::gemm::PackedDotWeightsSize(n, in_c));
    tflite::gemm::PackDotWeights(rows.data(), n, in_c, packed_.back().data(), sums.data());
    bias_.emplace_back(n);
    // Sums of (x + 128) * w: the input zero point and the 128 come off with the column sums.
    tflite::gemm::DotBias(row_bias.data(), sums.data(), n, input_zero_point + 128,
                          bias_.back().data());
  }
  scale_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) scale_[i] = scale[i % out_c];
}

void TransposeConvQs8::Run(const int8_t* input, int8_t* output, pthreadpool_t pool) const {
  const int n = k_w_ * out_c_;
  const size_t values = static_cast<size_t>(batches_) * in_h_ * in_w_ * in_c_;
  // The input + 128, rows in_c apart; each row of A needs DotDepth(in_c) readable bytes
  // (the packed depth past in_c is 0), so the last one reads up to 3 bytes of slack.
  scratch_.resize(values + tflite::gemm::DotDepth(in_c_) - in_c_, 0);
  tflite::gemm::DotInput(input, values, scratch_.data());
  tflite::gemm::QuantizedOutputStage stage;
  stage.float_scale = scale_.data();
  stage.output_offset = output_zero_point_;
  stage.act_min = act_min_;
  stage.act_max = act_max_;
  ForEachTransposeConvRow(batches_, in_h_, in_w_, in_c_, k_h_, k_w_, out_c_, pool,
                          [&](size_t row, int fy, size_t out) {
                            tflite::gemm::QuantizedOutputStage row_stage = stage;
                            row_stage.bias = bias_[fy].data();
                            tflite::gemm::DotGemm(in_w_, n, in_c_,
                                                  scratch_.data() + row * in_w_ * in_c_, in_c_,
                                                  packed_[fy].data(), output + out, n, row_stage,
                                                  nullptr);
                          });
}

}  // namespace xnnpack
}  // namespace tflite_inspect
