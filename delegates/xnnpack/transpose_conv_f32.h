// The delegate's own float transposed convolution for the non-overlapping case (stride
// equal to the filter size, no padding: each output pixel gets exactly one filter tap),
// run inside an XNNPACK partition instead of XNNPACK's deconvolution. MediaPipe's
// segmentation models upsample with such a Convolution2DTransposeBias (2x2, stride 2, one
// output channel), which Debian's XNNPACK (2022) runs several times slower than a GEMM:
// for each input row and filter row, out[rows] = in[row] x W[fy] + bias is one GEMM whose
// rows land contiguously in the output (kernels/internal/gemm.h).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSPOSE_CONV_F32_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSPOSE_CONV_F32_H_

#include <pthreadpool.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tflite_inspect {
namespace xnnpack {

// Filter row fy of an OHWI filter [out_c][k_h][k_w][in_c] as the GEMM's k_w * out_c
// weight rows of in_c values: row fx * out_c + o is filter[o][fy][fx][:] (both the float
// and the int8 step's weights).
template <typename T>
void TransposeConvFilterRow(const T* filter, int k_h, int k_w, int out_c, int in_c, int fy,
                            T* rows) {
  for (int fx = 0; fx < k_w; ++fx) {
    for (int o = 0; o < out_c; ++o) {
      const T* src = filter + ((static_cast<size_t>(o) * k_h + fy) * k_w + fx) * in_c;
      std::copy(src, src + in_c, rows + (static_cast<size_t>(fx) * out_c + o) * in_c);
    }
  }
}

class TransposeConvF32 {
 public:
  // filter [out_c][k_h][k_w][in_c] (OHWI), bias [out_c] or nullptr; stride = filter size.
  TransposeConvF32(int batches, int in_h, int in_w, int in_c, int k_h, int k_w, int out_c,
                   const float* filter, const float* bias);
  // input [batches][in_h][in_w][in_c] -> output [batches][in_h*k_h][in_w*k_w][out_c].
  void Run(const float* input, float* output, pthreadpool_t pool) const;

 private:
  int batches_, in_h_, in_w_, in_c_, k_h_, k_w_, out_c_;
  std::vector<std::vector<float>> packed_;  // per filter row: [k_w*out_c][in_c], packed
  std::vector<float> bias_;                 // bias repeated k_w times
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSPOSE_CONV_F32_H_
