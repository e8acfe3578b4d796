// The delegate's own float DEPTHWISE_CONV_2D (depth multiplier 1, 3x3, 5x5 or 7x7, stride 1 or
// 2, no dilation), run inside an XNNPACK partition instead of XNNPACK's.
//
// Why: Debian's XNNPACK (2022) computes a depthwise convolution pixel by pixel, loading
// every filter tap from memory next to every input (two loads per FMA); this kernel keeps
// a block of channels' whole filter in registers and slides it along an output row, so
// each FMA loads one input. On AVX-512 it is 1.3-2.8x faster than that XNNPACK on the
// MediaPipe models' layers (docs/performance.md); small images (under 12 output columns)
// stay with XNNPACK, which is as fast there.
//
// Numerics: sums start from the bias and add each tap with one FMA, taps column by column,
// as XNNPACK's depthwise kernels do: the same results as XNNPACK's, so as TFLite with
// XNNPACK (not bit-identical to TFLite's reference kernels, which round each product).
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_DEPTHWISE_F32_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_DEPTHWISE_F32_H_

#include <pthreadpool.h>

#include <string>

namespace tflite_inspect {
namespace xnnpack {

struct DepthwiseF32Params {
  int batches = 1;
  int in_h = 0, in_w = 0, channels = 0;
  int kernel = 0;  // kernel x kernel filter
  int stride = 1;  // same in both directions
  int pad_top = 0, pad_left = 0;
  int out_h = 0, out_w = 0;
  float min = -3.40282347e+38f, max = 3.40282347e+38f;  // fused activation
  // Then x * sigmoid(x), row by row while the row is in cache: a swish after the
  // convolution folded into it (XnnpackKernel::FindFoldedSwish).
  bool swish = false;
};

// Whether RunDepthwiseF32 computes this geometry on this CPU; if not, why (for the
// delegate's log).
bool DepthwiseF32Supported(const DepthwiseF32Params& p, std::string* why);

// input [batches][in_h][in_w][channels], filter [kernel][kernel][channels] (TFLite's
// [1, kh, kw, C]), bias [channels] or nullptr, output [batches][out_h][out_w][channels].
// Output rows are split over `pool` (nullptr: this thread). Only for supported params.
void RunDepthwiseF32(const DepthwiseF32Params& p, const float* input, const float* filter,
                     const float* bias, float* output, pthreadpool_t pool);

// For tests: RunDepthwiseF32 with instruction set `isa` ("avx512f", "avx2_fma" or
// "neon_fma") instead of the best one; false (nothing written) if this CPU or build lacks
// it.
bool RunDepthwiseF32With(const char* isa, const DepthwiseF32Params& p, const float* input,
                         const float* filter, const float* bias, float* output, pthreadpool_t pool);

// The instruction set RunDepthwiseF32 uses here: "avx512f", "avx2_fma", "neon_fma" (every
// arm64 CPU) or "none".
const char* DepthwiseF32Isa();

// Whether the XNNPACK delegate takes float depthwise nodes for this kernel: on x86 where it
// has a vector variant (measured faster than this XNNPACK's there); on arm64 only with
// TFI_XNNPACK_OWN_GEMM=1 (the NEON variant is checked under qemu but not yet timed on a
// phone against XNNPACK's neonfma kernels).
bool OwnDepthwiseF32Wanted();

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_DEPTHWISE_F32_H_
