// int8 DEPTHWISE_CONV_2D (depth multiplier 1, int8 filter with zero point 0, int32 bias) on
// dot products of tap groups: AVX-512 VNNI `vpdpwssd` on int16 pairs (16 channels x 2 taps
// per instruction), or AArch64 `sdot` on int8 quads (4 channels x 4 taps).
//
// Why: Debian's XNNPACK (2022) runs QS8 depthwise convolutions with 32-bit multiplies
// (`vpmulld`, one tap per instruction, two uops), about half of an int8 EfficientNet's
// time on an AVX-512 CPU; the builtin kernel's vpmaddwd loop interleaves the taps of
// every output pixel again (docs/performance.md).
//
// How: each input row is read once into a row of int16 pairs (x[j][c], x[j + dil_w][c]),
// the image's padding filled with the input zero point, kept in a small ring while the
// output rows that read it are computed; a filter row of f_w taps is then ceil(f_w / 2)
// pair products per 16 channels (an odd last tap paired with a zero weight), with the
// weights held in registers across the row for 3x3 and 5x5 filters.
//
// Numerics: acc[c] = bias[c] + sum over the taps of (x - input_zero_point) * w, the padding
// reading the zero point: the reference kernels' int32 sums exactly (wrapping alike). The
// output stage is a gemm::QuantizedOutputStage's: XNNPACK's fp32 requantization when it
// has float_scale (the XNNPACK delegate's own step: TFLite's XNNPACK bytes), else TFLite's
// reference double rounding (bit-exact with the reference kernels).
//
// AArch64 with dot products (ARMv8.2 SDOT): the same rows with four taps per lane, the
// input bytes as they are (x[j], x[j + dil_w], x[j + 2 dil_w], x[j + 3 dil_w], one vst4q
// per 16 channels), a filter row's taps in groups of four (zero weights after the last),
// one sdot per 4 channels and group.
//
// x86 with AVX2 but no AVX-512 VNNI: the same pair rows and weights, each vpdpwssd as
// vpmaddwd then vpaddd (the same sums), a 16-channel block as two ymm halves. That
// XNNPACK's QS8 depthwise has unipass kernels for 9 and 25 taps only and runs any other
// filter as a grouped convolution of one channel per group (a TCN's 1x5 layer over 512 x
// 32: 230 us, this kernel's 10): tcn_dilated_512x8_int8 1421 -> 531 us at one thread.
// On other CPUs Available() is false and the callers keep their loops.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_DOT_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_DOT_H_

#include <pthreadpool.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/internal/depthwise_float.h"
#include "kernels/internal/gemm.h"

namespace tflite {
namespace dwconv {

class DotDepthwise {
 public:
  // This CPU has the instructions (x86 AVX-512 VNNI, AArch64 SDOT).
  static bool Available();
  // Whether the geometry is one this kernel computes; why not in *why.
  static bool Supports(const Geometry& g, std::string* why);

  // filter [f_h][f_w][channels] int8 (zero point 0); stage: bias, offsets and range, and
  // either float_scale (fp32) or multiplier / shift (double rounding), `channels` values
  // each; copied, so the arrays need not outlive the constructor. Supports(g) must hold.
  DotDepthwise(const Geometry& g, const int8_t* filter, int32_t input_zero_point,
               const gemm::QuantizedOutputStage& stage);

  // input [batches][in_h][in_w][channels] -> output [batches][out_h][out_w][channels]. Not
  // reentrant (scratch kept between runs).
  void Run(const int8_t* input, int8_t* output, pthreadpool* pool) const;

  // The same through the portable loop (tests: the vector loop must give its bytes).
  void RunPortable(const int8_t* input, int8_t* output) const;

  struct Shape {
    int blocks = 0;      // channel blocks of 16
    int groups = 0;      // tap groups per filter row: ceil(f_w / taps per group), the taps
                         // per int32 lane (2 int16 on x86, 4 int8 on AArch64)
    int col_step = 1;    // input columns between two row entries
    int ox_step = 1;     // row entries between two output columns
    int group_step = 1;  // row entries between two tap groups
    int entries = 0;     // row entries per channel block
    int padded_w = 0;    // columns of the padded int8 row
    int ring = 0;        // pair rows kept: (f_h - 1) * dil_h + 1
  };

 private:
  void BuildRow(const int8_t* input, int b, int iy, int8_t* padded, int32_t* row) const;
  void RunRows(const int8_t* input, int8_t* output, size_t first, size_t last,
               uint8_t* scratch) const;
  size_t ScratchBytes() const;

  Geometry g_;
  Shape s_;
  int32_t input_zero_point_;
  bool fp32_;
  int32_t output_offset_, act_min_, act_max_;
  std::vector<int32_t> weights_;  // [block][fy][group][16 lanes of the group's taps]
  std::vector<int32_t> init_;     // bias - zp * sum of weights, padded to blocks * 16
  std::vector<float> scale_;
  std::vector<int32_t> multiplier_, shift_;
  std::vector<int32_t> zero_row_;  // a pair row of the zero point (rows outside the image)
  mutable std::vector<uint8_t> scratch_;
};

}  // namespace dwconv
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_DOT_H_
