// A float 3x3 stride-1 convolution by Winograd's minimal filtering F(2x2, 3x3) (Lavin and
// Gray, 2015): each 2 x 2 block of output pixels from a 4 x 4 block of input, as 16
// element-wise products in the transformed domain instead of 36 multiply-adds per channel
// pair: 2.25x fewer multiply-adds. The products over the input channels are 16 GEMMs
// (gemm::FloatGemm), one per transformed position, over blocks of tiles that stay in L2:
//
//   V[xi][tile][c] = (B^T d B)[xi],  U[xi][o][c] = (G g G^T)[xi] (packed once),
//   M[xi][tile][o] = sum_c V[xi][tile][c] * U[xi][o][c],  y = A^T M A + bias, clamped.
//
// Why: a 3x3 layer at the FMA peak (this XNNPACK's igemm, or ours) is as fast as direct
// convolution can be; ResNet101 float spent half of its time in them at 94% of the peak.
//
// Numerics: not TFLite's sums (no kernel of TFLite's computes them so): the transforms add
// and subtract input values (B) and the weights' halves (G), whose rounding stays within a
// few ulps of the output's magnitude: within the float tolerance of TFLite's results
// (winograd_f32_test against the direct sums; zoo_check on whole models).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_WINOGRAD_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_WINOGRAD_F32_H_

#include <cstddef>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/im2col.h"

struct pthreadpool;

namespace tflite {
namespace winograd {

// Whether Conv runs g and pays: 3x3, stride 1, no dilation, one group, at least 16 input
// and 16 output channels and 1024 channel pairs (2048 on AVX2 alone where the direct kernel
// takes g) (16 -> 16 and 32 -> 16 ran at this
// XNNPACK's speed, 32 -> 32 1.2x and 64 -> 64 1.6x faster: conv_f32_benchmark; below, the
// transforms cost what the products save), and an AVX-512F or AVX2 + FMA CPU
// (TFI_KERNEL_ISA caps it; the transforms' vector loops are written for them).
bool Applies(const conv_util::ConvGeometry& g);

// The 16 transformed filters, each packed for gemm::FloatGemm (n = out_c, k = in_c).
struct Weights {
  int in_c = 0, out_c = 0;
  size_t stride = 0;  // floats between two positions' packed filters
  gemm::CacheLineVector<float> packed;
};
// filter: [out_c][3][3][in_c] (OHWI).
void PackWeights(const float* filter, int out_c, int in_c, Weights* w);

// output[batches][out_h][out_w][out_c] = clamp(conv(input) + stage.bias, stage.min,
// stage.max) and the stage's residual ADD; g as Applies takes (any CPU: without AVX2 the
// transforms run in plain loops). Tiles split over `pool`; `scratch` grown here.
void Conv(const conv_util::ConvGeometry& g, const float* input, const Weights& w,
          const gemm::FloatOutputStage& stage, float* output, std::vector<float>* scratch,
          pthreadpool* pool);

}  // namespace winograd
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_WINOGRAD_F32_H_
