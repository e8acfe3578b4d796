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

#include "kernels/internal/parallel.h"

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

// The GEMMs of a non-overlapping transposed convolution, one per (batch, input row, filter
// row) over the pool: gemm(row, fy, out) multiplies input row `row` (batch * in_h + iy) by
// filter row fy into `out`, the offset of its in_w output pixels of k_w * out_c values,
// contiguous in output row iy * k_h + fy.
template <typename Gemm>
void ForEachTransposeConvRow(int batches, int in_h, int in_w, int in_c, int k_h, int k_w,
                             int out_c, pthreadpool_t pool, const Gemm& gemm) {
  const size_t n = static_cast<size_t>(k_w) * out_c;
  const size_t tasks = static_cast<size_t>(batches) * in_h * k_h;
  const double macs = static_cast<double>(tasks) * in_w * n * in_c;
  tflite::parallel::ParallelFor(pool, tasks, macs, [&](size_t t) {
    const int fy = static_cast<int>(t % k_h);
    const size_t row = t / k_h;
    gemm(row, fy, (row * k_h + fy) * static_cast<size_t>(in_w) * n);
  });
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
