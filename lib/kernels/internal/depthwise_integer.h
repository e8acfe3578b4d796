// The int32 sums of an 8-bit depthwise convolution with depth multiplier 1 (DEPTHWISE_CONV_2D
// int8 / uint8, and the hybrid kernel's quantized images), vectorized over channels:
//
//   acc[ox][c] = sum over the taps t of output pixel (oy, ox) that fall inside the image
//                of f'[t][c] * (in[t][c] + input_offset),   f' = filter + filter_offset
//
// which are the reference kernels' int32 sums (additions wrap alike in any order). The
// vector loop reads every tap, and reads a taps outside the image from a row of the input
// zero point (-input_offset): there (zp + input_offset) = 0, so they add nothing. So
// acc = input_offset * sum_t f'[t][c] + sum_t f'[t][c] * x[t][c], the first term per
// channel, the second with int16 pairs of taps on vpmaddwd (|f'| <= 255, |x| <= 255: no
// saturation).
//
// AVX2 (16 and 8 channels at a time; picked at run time), NEON on AArch64 (vmlal_s16 over
// the same pairs, split per tap by vld2q_s16) and a portable loop over the same packed
// filter.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_INTEGER_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_INTEGER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/requantize.h"

namespace tflite {
namespace dwconv {

// One image's geometry.
struct Window {
  int in_h, in_w, channels;
  int f_h, f_w;
  int stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  int out_w;
};

// Values a zero row needs beyond `channels` (the vector loads' reach).
constexpr int kZeroRowPad = 16;

// The 8-bit output stage of a node's rows, prepared once per run (Int8Sums::PrepareStage):
// per channel the sums' start value (input_offset * tap sum + bias, wrapping) and the
// packed requantization.
struct RowStage {
  std::vector<int32_t> init;      // channels, padded to 16
  std::vector<int32_t> channels;  // requant::PackChannels of the multipliers and shifts
  requant::ChannelFlags flags;
  const int32_t* multiplier = nullptr;  // for the scalar tail
  const int32_t* shift = nullptr;
  int32_t output_offset = 0, act_min = 0, act_max = 0;
};

class Int8Sums {
 public:
  // Whether this CPU has a vector loop for these sums (AVX2, NEON). Elsewhere the kernels keep
  // their own generic loops, which the compiler vectorizes over channels; the portable
  // loop here (per channel over the packed pairs) is for tests and would be slower.
  static bool Vectorized();

  // Packs filter[t * channels + c] (t = fy * f_w + fx) plus filter_offset; 8-bit filters.
  // False (nothing packed) when some f' leaves int16 (a crafted filter zero point).
  bool Pack(const int8_t* filter, int taps, int channels, int32_t filter_offset);
  bool Pack(const uint8_t* filter, int taps, int channels, int32_t filter_offset);
  bool packed() const { return !pairs_.empty(); }

  // The sums of output pixels [ox0, ox1) of output row oy into acc ((ox1 - ox0) * channels
  // values). `image` is one batch image (in_h x in_w x channels), `zero_row` holds
  // channels + kZeroRowPad copies of -input_offset (which must fit In). kPortable forces
  // the portable loop (tests).
  void Row(const Window& w, const int8_t* image, int oy, int ox0, int ox1, int32_t input_offset,
           const int8_t* zero_row, int32_t* acc, bool portable = false) const;
  void Row(const Window& w, const uint8_t* image, int oy, int ox0, int ox1, int32_t input_offset,
           const uint8_t* zero_row, int32_t* acc, bool portable = false) const;

  // The stage for RowQuantized: sums + bias requantized as TFLite's reference kernels
  // (stage's arrays indexed by channel; single_rounding not taken).
  void PrepareStage(int32_t input_offset, const gemm::QuantizedOutputStage& stage,
                    RowStage* out) const;

  // Output pixels [ox0, ox1) of row oy through the stage: out gets (ox1 - ox0) * channels
  // 8-bit values, as Row's sums followed by requant::OutputStageRow would give.
  void RowQuantized(const Window& w, const int8_t* image, int oy, int ox0, int ox1,
                    const int8_t* zero_row, const RowStage& stage, int8_t* out,
                    bool portable = false) const;
  void RowQuantized(const Window& w, const uint8_t* image, int oy, int ox0, int ox1,
                    const uint8_t* zero_row, const RowStage& stage, uint8_t* out,
                    bool portable = false) const;

  struct Layout {
    int taps = 0, pairs = 0, channels = 0;
    const int16_t* pairs_data = nullptr;  // [channel block of 16][pair][2 x 8 channels][2 taps]
    const int32_t* tap_sums = nullptr;    // sum_t f'[t][c]
  };

 private:
  template <typename F>
  bool PackImpl(const F* filter, int taps, int channels, int32_t filter_offset);
  Layout layout() const;

  int taps_ = 0;
  int channels_ = 0;
  std::vector<int16_t> pairs_;
  std::vector<int32_t> tap_sums_;
};

// --- Driving Int8Sums over a node: for any geometry with the fields of dwconv::Geometry
// and conv_util::ConvGeometry (DEPTHWISE_CONV_2D, and CONV_2D with one channel per group).

template <typename G>
Window WindowOf(const G& g) {
  return Window{g.in_h,     g.in_w,  g.in_c,  g.f_h,   g.f_w,   g.stride_h,
                g.stride_w, g.dil_h, g.dil_w, g.pad_h, g.pad_w, g.out_w};
}

// Fills `zero_rows` with one zero row per batch image (in_c + kZeroRowPad copies of
// zero_point(b) as In, which it must fit), then calls row(r, b, oy, image, zero_row) for
// every output row r = b * out_h + oy, split over the pool; image is batch b's input.
template <typename In, typename G, typename ZeroPoint, typename Row>
void ForEachPackedRow(const G& g, const In* input, const ZeroPoint& zero_point,
                      std::vector<uint8_t>* zero_rows, pthreadpool* pool, const Row& row) {
  const size_t zero_len = static_cast<size_t>(g.in_c) + kZeroRowPad;
  zero_rows->resize(zero_len * sizeof(In) * g.batches);
  In* zeros = reinterpret_cast<In*>(zero_rows->data());
  for (int b = 0; b < g.batches; ++b) {
    std::fill_n(zeros + b * zero_len, zero_len, static_cast<In>(zero_point(b)));
  }
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h;
  const double work = static_cast<double>(rows) * g.out_w * g.out_c * g.f_h * g.f_w;
  parallel::ParallelFor(pool, rows, work, [&](size_t r) {
    const int b = static_cast<int>(r / g.out_h);
    row(r, b, static_cast<int>(r % g.out_h), input + b * image, zeros + b * zero_len);
  });
}

}  // namespace dwconv
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DEPTHWISE_INTEGER_H_
