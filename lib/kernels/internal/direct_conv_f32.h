// A float convolution with few input channels (a network's first layer: RGB in, 3x3 to
// 7x7 windows, stride 1-4; on AVX2 any layer whose window fits one k block) computed from the input in place: in NHWC with no horizontal
// dilation, one kernel row of a window is f_w * in_c consecutive floats, so the GEMM's
// A row of a pixel is f_h such runs and needs no im2col copy. A tile of up to 12 pixels x
// 32 output channels keeps its sums in registers over the whole window (every FMA reads
// its input value broadcast from the input itself); kernel rows outside the image are
// skipped, and only the pixels whose window crosses the left or right edge read a small
// zero-padded copy of their columns.
//
// Why: XNNPACK (and the im2col GEMM) handle such layers badly. XNNPACK's indirect GEMM
// loads a pointer per tap for in_c (3) multiply-adds; im2col copies runs of 9-21 floats
// and its GEMM's depth (27-147) is too short to hide the copy. The first convolution was
// a fifth of face_detection's time at one thread (docs/performance.md).
//
// Numerics: the sums of FloatConv with the same packed weights (gemm::PackFloatWeights of
// [out_c][f_h * f_w * in_c]): one FMA per tap, taps in (kh, kw, c) order, bias added
// last, the same bits, except that taps in the padding are skipped instead of multiplied
// by zero (equal for finite weights; TFLite's reference kernel skips them too). With
// GemmKernel::kTfliteGemmOrder (float layers of dynamic-range graphs): each product rounded
// and then added, as that GEMM's k-ascending blocks and TFLite's builtin kernel (skipping
// a zero product leaves such a sum unchanged too: it starts at +0 and never becomes -0).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DIRECT_CONV_F32_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DIRECT_CONV_F32_H_

#include <vector>

#include "kernels/internal/gemm.h"

struct pthreadpool;

namespace tflite {
namespace conv_util {

struct ConvGeometry;

// Whether DirectFloatConv runs g with `kernel` on this CPU: AVX-512F or AVX2 with FMA
// (TFI_KERNEL_ISA caps it), kAuto or kTfliteGemmOrder (where that GEMM sums every output in k-ascending
// blocks: 8k channels, more than one pixel), one group, no horizontal
// dilation, in_c <= 4 with AVX-512 (any in_c on AVX2 alone: there im2col costs more than the
// GEMM gains on 3x3 layers of few channels too), filter and stride of the scope measured (f_w <= 11,
// stride_w <= 4), one k block of the GEMM (depth <= 320), weights in 16-column panels
// (out_c > gemm::kGemmSmallN), and no 1x1 stride-1 layer (the GEMM reads those in place
// already).
bool DirectFloatConvApplies(const ConvGeometry& g, gemm::GemmKernel kernel);

// output[batches][out_h][out_w][out_c] = clamp(conv(input) + bias) and the stage's
// residual ADD, with packed_filter from gemm::PackFloatWeights(filter, out_c, depth).
// Output rows split over `pool`. Only where DirectFloatConvApplies(g, kernel).
void DirectFloatConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                     const gemm::FloatOutputStage& stage, float* output, pthreadpool* pool,
                     gemm::GemmKernel kernel = gemm::GemmKernel::kAuto);

// DirectFloatConv (the same sums), reading a copy of the input widened by the left and
// right padding (zeros; in `scratch`, grown here) where that costs less than the edge
// pixels' narrow tiles: every output pixel then takes the interior tiles.
void DirectFloatConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                     const gemm::FloatOutputStage& stage, float* output,
                     std::vector<float>* scratch, pthreadpool* pool,
                     gemm::GemmKernel kernel = gemm::GemmKernel::kAuto);

// A grouped convolution (groups > 1) as one DirectFloatConv per group. Where the group's
// own convolution (f_c input channels, group_out_c outputs, one group) has it apply with
// `kernel` and the stage has no epilogue (residual, swish): XNNPACK's and the per-group
// im2col GEMM's grouped layers ran at a seventh of the FMA peak on an AVX2 CPU (ResNeXt's
// 8-channel groups).
bool GroupedDirectFloatConvApplies(const ConvGeometry& g, gemm::GemmKernel kernel);

// The same sums as DirectFloatConv of each group (packed_groups[j]: group j's weights
// from gemm::PackFloatWeights(filter + j * group_out_c * depth, group_out_c, depth); the
// stage's bias for all out_c channels). The groups' input channels are gathered into a
// zero-padded image per group (in `scratch`, grown here; one pass over the pool), so that
// no window crosses an edge, each group's sums stored into its channels of the output.
// Only where GroupedDirectFloatConvApplies(g, kernel).
void GroupedDirectFloatConv(const ConvGeometry& g, const float* input,
                            const float* const* packed_groups, const gemm::FloatOutputStage& stage,
                            float* output, std::vector<float>* scratch, pthreadpool* pool,
                            gemm::GemmKernel kernel = gemm::GemmKernel::kAuto);

}  // namespace conv_util
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DIRECT_CONV_F32_H_
