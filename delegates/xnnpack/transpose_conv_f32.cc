#include "xnnpack/transpose_conv_f32.h"

#include <algorithm>
#include <cstddef>

#include "kernels/internal/gemm.h"

namespace tflite_inspect {
namespace xnnpack {

TransposeConvF32::TransposeConvF32(int batches, int in_h, int in_w, int in_c, int k_h, int k_w,
                                   int out_c, const float* filter, const float* bias)
    : batches_(batches), in_h_(in_h), in_w_(in_w), in_c_(in_c), k_h_(k_h), k_w_(k_w), out_c_(out_c) {
  const int n = k_w * out_c;
  std::vector<float> rows(static_cast<size_t>(n) * in_c);
  for (int fy = 0; fy < k_h; ++fy) {
    TransposeConvFilterRow(filter, k_h, k_w, out_c, in_c, fy, rows.data());
    packed_.emplace_back(tflite::gemm::PackedWeightsSize(n, in_c));
    tflite::gemm::PackFloatWeights(rows.data(), n, in_c, packed_.back().data());
  }
  bias_.assign(static_cast<size_t>(n), 0.0f);
  if (bias != nullptr) {
    for (int i = 0; i < n; ++i) bias_[i] = bias[i % out_c];
  }
}

void TransposeConvF32::Run(const float* input, float* output, pthreadpool_t pool) const {
  const int n = k_w_ * out_c_;
  tflite::gemm::FloatOutputStage stage;
  stage.bias = bias_.data();
  ForEachTransposeConvRow(batches_, in_h_, in_w_, in_c_, k_h_, k_w_, out_c_, pool,
                          [&](size_t row, int fy, size_t out) {
                            tflite::gemm::FloatGemm(in_w_, n, in_c_, input + row * in_w_ * in_c_,
                                                    in_c_, packed_[fy].data(), output + out, n,
                                                    stage, nullptr);
                          });
}

}  // namespace xnnpack
}  // namespace tflite_inspect
