#include "xnnpack/transpose_conv_qs8.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "kernels/internal/parallel.h"
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
  const int stride = tflite::gemm::DotDepth(in_c_);
  const size_t pixels = static_cast<size_t>(batches_) * in_h_ * in_w_;
  // Each row of A needs DotDepth(in_c) readable bytes (the packed depth past in_c is 0).
  scratch_.resize(pixels * stride);
  if (stride == in_c_) {
    tflite::gemm::DotInput(input, pixels * in_c_, scratch_.data());
  } else {
    for (size_t p = 0; p < pixels; ++p) {
      tflite::gemm::DotInput(input + p * in_c_, in_c_, scratch_.data() + p * stride);
      std::memset(scratch_.data() + p * stride + in_c_, 0, stride - in_c_);
    }
  }
  // One task per (batch, input row, filter row): in_w output pixels of k_w * out_c values,
  // contiguous in output row iy * k_h + fy.
  const size_t tasks = static_cast<size_t>(batches_) * in_h_ * k_h_;
  const double macs = static_cast<double>(tasks) * in_w_ * n * in_c_;
  tflite::parallel::ParallelFor(pool, tasks, macs, [&](size_t t) {
    const int fy = static_cast<int>(t % k_h_);
    const size_t row = t / k_h_;  // batch * in_h + iy
    tflite::gemm::QuantizedOutputStage stage;
    stage.bias = bias_[fy].data();
    stage.float_scale = scale_.data();
    stage.output_offset = output_zero_point_;
    stage.act_min = act_min_;
    stage.act_max = act_max_;
    int8_t* out = output + (row * k_h_ + fy) * static_cast<size_t>(in_w_) * n;
    tflite::gemm::DotGemm(in_w_, n, in_c_, scratch_.data() + row * in_w_ * stride, stride,
                          packed_[fy].data(), out, n, stage, nullptr);
  });
}

}  // namespace xnnpack
}  // namespace tflite_inspect
