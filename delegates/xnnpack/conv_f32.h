// The delegate's own float CONV_2D (one group, any filter size, stride, dilation and
// padding) and FULLY_CONNECTED, run inside an XNNPACK partition instead of XNNPACK's on
// CPUs that have AVX2 and FMA but no AVX-512 (and, on any such CPU, convolutions one pixel
// high: see OwnConvF32Wanted(g)): the builtin kernels' packed GEMM (im2col blocks, or the
// input itself for 1x1 stride-1 convolutions and one-pixel-high windows;
// kernels/internal/im2col.h).
//
// Why: Debian builds its XNNPACK (2022) with GCC, whose f32 GEMM micro-kernels keep an
// accumulator on the stack (a load and a store per k step); on an AVX2-only CPU they run
// at about half of our 6x16 tile's speed (docs/performance.md). With AVX-512 this XNNPACK
// is at parity with TFLite and keeps its convolutions.
//
// Numerics: one fused multiply-add per k, k ascending, bias added last: float sums in
// another order than XNNPACK's, within the float tolerance of TFLite's results. In graphs
// with dynamic-range nodes they run on every CPU instead, with TFLite's builtin sums
// (gemm::GemmKernel::kTfliteGemmOrder), since hybrid layers quantize what they write.
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_CONV_F32_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_CONV_F32_H_

#include <pthreadpool.h>

#include <memory>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/gemv_f16.h"
#include "kernels/internal/im2col.h"
#include "kernels/internal/winograd_f32.h"

namespace tflite_inspect {
namespace xnnpack {

// Whether the delegate runs an own step that this CPU gets when `by_cpu`: the environment
// variable TFI_XNNPACK_OWN_GEMM=0 or =1 decides instead (comparisons, and tests whose
// expected output must not depend on the CPU; docs/xnnpack.md).
bool OwnStepWanted(bool by_cpu);

// Whether this CPU gets the own convolution (AVX2 + FMA, no AVX-512F), OwnStepWanted's way.
bool OwnConvF32Wanted();
// Whether a convolution of geometry g gets it: where OwnConvF32Wanted(), and with AVX-512
// too when its windows are one pixel high and wider than one and the GEMM reads at least
// half of each output row from the input in place (Conv1D as converted; im2col.h:
// DirectRowWindows). This XNNPACK runs those through its indirection buffer, a pointer per
// tap of f_c values: the 1-D convnets of docs/performance.md ran 10-30% faster on ours.
// And layers of few input channels that FloatConv's direct kernel runs (a network's first
// layer; direct_conv_f32.h), for the same reason. And 3x3 stride-1 layers that Winograd's
// F(2x2, 3x3) runs with 2.25x fewer multiply-adds (winograd_f32.h), where the GEMM's
// order is ours (kAuto: not in dynamic-range graphs, whose float layers keep TFLite's
// builtin sums). And 1x1 stride-1 layers of 16 pixels or more: on AMD's AVX-512 only those
// of at most 16 output channels or 64 pixels, or whose output a residual ADD reads
// (folds_residual: the step adds it on its rows).
bool OwnConvF32Wanted(const tflite::conv_util::ConvGeometry& g, bool folds_residual = false);
// The same, and also a one-pixel 1x1 convolution (a classifier head after global pooling)
// whose float filter [out_c][in_c] is HalfHead's: see below.
bool OwnConvF32Wanted(const tflite::conv_util::ConvGeometry& g, const float* filter,
                      bool folds_residual = false);
// Whether a product of one row by weights [n][k] runs on their halves (gemv_f16.h): where
// the CPU runs that kernel (AVX-512, or AVX2 with F16C), weights of a megabyte or more (as
// floats: read from L3 or memory on every run, so their bytes bound the time) whose every
// value is a half (an fp16 model's).
bool HalfHead(int rows, int n, int k, const float* weights);
// Whether this CPU gets the own fully connected layer (AVX2 + FMA, with or without
// AVX-512F: with it, the GEMM's 12x32 tile runs transformer-sized layers at about 80% of
// the FMA peak, where this XNNPACK's 7x16 AVX-512 kernel is bound by its loads),
// OwnStepWanted's way.
bool OwnFullyConnectedF32Wanted();

// A residual ADD after the layer, computed on its output rows while they are in cache
// (gemm::FloatOutputStage's): out = clamp(out + r, min, max), r = values[row * channels +
// c] for c < channels and 0 beyond (the value added through a zero channel PAD).
// Then, where prelu is set ([out_c] slopes), a PRELU after the sum.
struct ResidualAdd {
  const float* values = nullptr;
  int channels = 0;
  float min = -3.40282347e+38f;
  float max = 3.40282347e+38f;
  const float* prelu = nullptr;
};

class ConvF32 {
 public:
  // filter [out_c][f_h][f_w][f_c] (OHWI), bias [out_c] or nullptr; g.groups 1, or more
  // where conv_util::GroupedDirectFloatConvApplies(g, kernel) (then Run takes no residual
  // and no swish). kernel: the GEMM's order of sums (kTfliteGemmOrder in dynamic-range
  // graphs).
  ConvF32(const tflite::conv_util::ConvGeometry& g, const float* filter, const float* bias,
          float min, float max, tflite::gemm::GemmKernel kernel = tflite::gemm::GemmKernel::kAuto);
  // input [batches][in_h][in_w][in_c] -> output [batches][out_h][out_w][out_c]; with
  // `swish`, output * sigmoid(output) (gemm::FloatOutputStage::swish). Not reentrant (one
  // scratch buffer), as the delegate kernel runs one Invoke at a time.
  void Run(const float* input, float* output, pthreadpool_t pool,
           const ResidualAdd* residual = nullptr, bool swish = false) const;
  // Whether Run computes it by Winograd's F(2x2, 3x3) (winograd_f32.h).
  bool Winograd() const { return winograd_ != nullptr; }

 private:
  tflite::conv_util::ConvGeometry g_;
  tflite::gemm::CacheLineVector<float> packed_;
  std::shared_ptr<const tflite::gemv_f16::HalfWeights> half_;  // HalfHead's, or null
  std::unique_ptr<tflite::winograd::Weights> winograd_;        // 3x3 stride 1, or null
  std::vector<const float*> groups_;  // grouped: each group's weights in packed_
  std::vector<float> bias_;
  float min_, max_;
  tflite::gemm::GemmKernel kernel_;
  mutable std::vector<float> scratch_;
};

// out[rows][out_c] = in[rows][in_c] x weights[out_c][in_c]^T + bias, clamped.
class FullyConnectedF32 {
 public:
  FullyConnectedF32(int rows, int in_c, int out_c, const float* weights, const float* bias,
                    float min, float max,
                    tflite::gemm::GemmKernel kernel = tflite::gemm::GemmKernel::kAuto);
  void Run(const float* input, float* output, pthreadpool_t pool,
           const ResidualAdd* residual = nullptr) const;

 private:
  int rows_, in_c_, out_c_;
  tflite::gemm::CacheLineVector<float> packed_;
  std::shared_ptr<const tflite::gemv_f16::HalfWeights> half_;  // HalfHead's, or null
  std::vector<float> bias_;
  float min_, max_;
  tflite::gemm::GemmKernel kernel_;
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_CONV_F32_H_
