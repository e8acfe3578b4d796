// im2col for the convolution family (CONV_2D and the XNNPACK delegate's own float
// convolution): the im2col rows of output pixels, GEMMs over blocks of them that stay in
// cache, and a whole float convolution (one group) on the packed GEMM.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_IM2COL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_IM2COL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/internal/direct_conv_f32.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"

namespace tflite {
namespace conv_util {

// A convolution's shapes (NHWC input and output, OHWI filter of f_c input channels per
// group) and its stride, dilation and leading padding.
struct ConvGeometry {
  int batches, in_h, in_w, in_c, f_h, f_w, out_h, out_w, out_c;
  int f_c, groups, group_out_c;  // filter depth; in_c = groups * f_c
  int stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
};

// The dot-product GEMM's conversion (int8 -> uint8 + 128) as Im2ColRows' convert: spans
// of it go through gemm::DotInput's vector loop.
struct DotConvert {
  uint8_t operator()(int8_t v, size_t) const { return gemm::DotByte(v); }
};

// Values copied as they are (int8 im2col rows for DotGemmSigned).
struct CopyValues {
  template <typename T>
  T operator()(T v, size_t) const { return v; }
};

// n values of src converted into dst.
template <typename In, typename Out, typename Convert>
inline void ConvertSpan(const Convert& convert, const In* src, size_t n, size_t b, Out* dst) {
  if constexpr (std::is_same_v<Convert, DotConvert>) {
    gemm::DotInput(src, n, dst);
  } else if constexpr (std::is_same_v<Convert, CopyValues> && std::is_same_v<In, Out>) {
    std::memcpy(dst, src, n * sizeof(In));
  } else {
    for (size_t i = 0; i < n; ++i) dst[i] = convert(src[i], b);
  }
}

// Rows [r0, r1) of the im2col matrix into dst: row r is output pixel (b, oy, ox) in NHWC
// order, holding its filter window as [fy][fx][f_c] over input channels [c0, c0 + f_c),
// converted with convert(value, b), and `pad` outside the image. Rows are row_stride
// apart (0: the depth, f_h * f_w * f_c).
template <typename In, typename Out, typename Convert>
void Im2ColRows(const ConvGeometry& g, const In* input, int c0, size_t r0, size_t r1, Out pad,
                Convert convert, Out* dst, size_t row_stride = 0) {
  const int depth = g.f_h * g.f_w * g.f_c;
  const size_t stride = row_stride != 0 ? row_stride : static_cast<size_t>(depth);
  for (size_t r = r0; r < r1; ++r) {
    const int ox = static_cast<int>(r % g.out_w);
    const int oy = static_cast<int>((r / g.out_w) % g.out_h);
    const size_t b = r / g.out_w / g.out_h;
    Out* row = dst + (r - r0) * stride;
    if (g.dil_w == 1 && g.f_c == g.in_c) {
      // Each filter row's taps inside the image are one contiguous span of the input
      // (f_w pixels of all channels): one loop over the span (vectorized), padding
      // around it.
      const int ix0 = ox * g.stride_w - g.pad_w;
      const int fx_lo = std::max(0, -ix0);
      const int fx_hi = std::max(fx_lo, std::min(g.f_w, g.in_w - ix0));
      for (int fy = 0; fy < g.f_h; ++fy) {
        const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
        Out* cells = row + static_cast<size_t>(fy) * g.f_w * g.f_c;
        if (iy < 0 || iy >= g.in_h || fx_lo == fx_hi) {
          std::fill(cells, cells + static_cast<size_t>(g.f_w) * g.f_c, pad);
          continue;
        }
        std::fill(cells, cells + static_cast<size_t>(fx_lo) * g.f_c, pad);
        const In* src = input + ((b * g.in_h + iy) * g.in_w + ix0 + fx_lo) * g.in_c;
        const size_t span = static_cast<size_t>(fx_hi - fx_lo) * g.f_c;
        Out* dst_span = cells + static_cast<size_t>(fx_lo) * g.f_c;
        ConvertSpan(convert, src, span, b, dst_span);
        std::fill(dst_span + span, cells + static_cast<size_t>(g.f_w) * g.f_c, pad);
      }
      continue;
    }
    for (int fy = 0; fy < g.f_h; ++fy) {
      const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
      for (int fx = 0; fx < g.f_w; ++fx) {
        const int ix = ox * g.stride_w - g.pad_w + fx * g.dil_w;
        Out* cell = row + (fy * g.f_w + fx) * g.f_c;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::fill(cell, cell + g.f_c, pad);
          continue;
        }
        const In* src = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c + c0;
        ConvertSpan(convert, src, static_cast<size_t>(g.f_c), b, cell);
      }
    }
  }
}

// Im2ColRows(g, input, c0, r0, r1, pad, DotConvert{}, dst, row_stride): rows in the dot
// GEMM's uint8 domain, on AVX-512 inline 64 bytes a step where each filter row's in-image
// taps are one span of the input (one group, no dilation along the row); im2col_dot.cc.
void Im2ColDotRows(const ConvGeometry& g, const int8_t* input, int c0, size_t r0, size_t r1,
                   uint8_t pad, uint8_t* dst, size_t row_stride = 0);

// im2col + GEMM in blocks of at most kChunkRows output pixels, so the im2col block stays in
// cache and the whole matrix is never materialized. The blocks are split over ChunkTasks()
// tasks run on the pool; task t uses slice t of `scratch` (grown here). fill(r0, r1, buf)
// writes im2col rows, gemm(r0, r1, buf, t) multiplies them.
constexpr size_t kChunkRows = 96;

// The blocks: with threads, at least one per thread and a multiple of the thread count, of
// equal height to a GEMM tile's (16 rows on AMX, 8 on the other tiles), so that the
// threads get equal work: Inception's 8 x 8 layers were one block on one thread, its 17 x
// 17 ones three blocks and a block of one row; and DenseNet's 14 x 14 layers (196 rows)
// blocks of 64, 64, 64 and 4 rows (two threads: 128 rows against 68), now 48, 48, 48, 52.
struct ChunkPlan {
  size_t rows, chunks, tasks, per, unit;
  // Rows [Bound(c), Bound(c + 1)) are block c; at most kChunkRows of them.
  size_t Bound(size_t c) const {
    if (c >= chunks) return rows;
    if (per != 0) return std::min(rows, c * per);
    return std::min(rows, (rows * c / chunks + unit / 2) / unit * unit);
  }
};
inline ChunkPlan PlanChunks(size_t rows, pthreadpool* pool) {
  const size_t threads = parallel::NumThreads(pool);
  ChunkPlan p{rows, 1, 1, kChunkRows, gemm::CpuHasAmxInt8() ? 16u : 8u};
  if (threads > 1 && rows > 0) {
    // Bounds rounded to the unit: each block at most rows / chunks + unit rows.
    size_t chunks = (rows + kChunkRows - p.unit - 1) / (kChunkRows - p.unit);
    p.chunks = (std::max(chunks, threads) + threads - 1) / threads * threads;
    p.per = 0;
  } else {
    p.chunks = std::max<size_t>(1, (rows + kChunkRows - 1) / kChunkRows);
  }
  p.tasks = std::max<size_t>(1, std::min(p.chunks, threads > 1 ? threads * 4 : 1));
  return p;
}

inline size_t ChunkTasks(size_t rows, pthreadpool* pool) { return PlanChunks(rows, pool).tasks; }

template <typename Out, typename Fill, typename Gemm>
void ChunkedIm2ColGemm(size_t rows, int depth, int out_c, std::vector<Out>* scratch,
                       pthreadpool* pool, const Fill& fill, const Gemm& gemm) {
  const ChunkPlan plan = PlanChunks(rows, pool);
  const size_t slice = kChunkRows * static_cast<size_t>(depth);
  if (scratch->size() < plan.tasks * slice) scratch->resize(plan.tasks * slice);
  const double work = static_cast<double>(rows) * depth * out_c;
  parallel::ParallelFor(pool, plan.tasks, work, [&](size_t t) {
    Out* buf = scratch->data() + t * slice;
    // Task t: blocks [t * chunks / tasks, (t + 1) * chunks / tasks).
    const size_t first = t * plan.chunks / plan.tasks, last = (t + 1) * plan.chunks / plan.tasks;
    for (size_t ch = first; ch < last; ++ch) {
      const size_t r0 = plan.Bound(ch), r1 = plan.Bound(ch + 1);
      if (r0 >= r1) continue;
      fill(r0, r1, buf);
      gemm(r0, r1, buf, t);
    }
  });
}

// The output pixels of each output row whose filter window lies inside the image, when a
// window one pixel high makes their im2col rows the input itself: for x in [lo, hi) the
// row is the f_w * in_c values from input pixel x * stride_w - pad_w on, so those pixels
// are the input read at a stride of stride_w * in_c (overlapping where the windows do).
// Needs one group, no dilation along the row, no padding above; hi - lo below kMinRun
// (too few rows to fill the GEMM's tiles) reads as none.
struct RowWindows {
  int lo = 0, hi = 0;
  bool any() const { return hi > lo; }
  // The pixels of an output row of out_w that take im2col (their windows cross the padding).
  size_t edges(int out_w) const { return static_cast<size_t>(lo + (out_w - hi)); }
};

inline RowWindows DirectRowWindows(const ConvGeometry& g) {
  constexpr int kMinRun = 16;
  RowWindows w;
  if (g.f_h != 1 || g.groups != 1 || g.dil_w != 1 || g.pad_h != 0 || g.stride_w < 1 ||
      (g.out_h - 1) * static_cast<int64_t>(g.stride_h) >= g.in_h ||
      static_cast<int64_t>(g.stride_w) * g.in_c > INT32_MAX) {  // the GEMM's lda is an int
    return w;
  }
  w.lo = std::min(g.out_w, (g.pad_w + g.stride_w - 1) / g.stride_w);
  // Last x with x * stride_w - pad_w + f_w <= in_w.
  const int64_t last = (static_cast<int64_t>(g.in_w) + g.pad_w - g.f_w);
  w.hi = last < 0 ? w.lo : static_cast<int>(std::min<int64_t>(g.out_w, last / g.stride_w + 1));
  if (w.hi - w.lo < kMinRun) w.hi = w.lo;
  return w;
}

// Where DirectRowWindows(g) found in-image pixels [w.lo, w.hi) on every output row (a line:
// image b, row oy; l = b * out_h + oy): the offset of line l's first in-place row in the
// input, in elements; its rows are stride_w * in_c apart.
inline size_t RowWindowsOffset(const ConvGeometry& g, const RowWindows& w, size_t l) {
  const size_t b = l / g.out_h, iy = (l % g.out_h) * g.stride_h;
  return ((b * g.in_h + iy) * g.in_w + (static_cast<size_t>(w.lo) * g.stride_w - g.pad_w)) *
         g.in_c;
}

// The tasks RunRowWindows splits the lines into (each with its own scratch slice).
inline size_t RowWindowsTasks(const ConvGeometry& g, pthreadpool* pool) {
  const size_t lines = static_cast<size_t>(g.batches) * g.out_h;
  return std::min(lines, std::max<size_t>(1, parallel::NumThreads(pool)));
}

// Runs a convolution over the lines of DirectRowWindows' pixels: rows(l, pool) multiplies
// line l's in-place rows, edges(l, x0, x1, t) the pixels [x0, x1) of line l whose windows
// cross the padding (im2col in task t's scratch). One line gets the pool for its GEMM;
// several are split over the pool, a range of lines per task.
template <typename Rows, typename Edges>
void RunRowWindows(const ConvGeometry& g, const RowWindows& w, pthreadpool* pool, double work,
                   const Rows& rows, const Edges& edges) {
  const size_t lines = static_cast<size_t>(g.batches) * g.out_h;
  auto line = [&](size_t l, pthreadpool* line_pool, size_t t) {
    rows(l, line_pool);
    if (w.lo > 0) edges(l, 0, w.lo, t);
    if (w.hi < g.out_w) edges(l, w.hi, g.out_w, t);
  };
  if (lines == 1) return line(0, pool, 0);
  const size_t tasks = RowWindowsTasks(g, pool);
  parallel::ParallelFor(pool, tasks, work, [&](size_t t) {
    for (size_t l = lines * t / tasks; l < lines * (t + 1) / tasks; ++l) line(l, nullptr, t);
  });
}

// A float convolution of one group: output = input (*) the packed filter (k = f_h * f_w *
// in_c, n = out_c) through `stage`. 1x1 with stride 1 multiplies the input in place, and
// so do windows one pixel high over the pixels DirectRowWindows finds (Conv1D as
// converted: a 1 x k filter over a [1, W, C] image); layers of few input channels (a
// network's first) read their windows in place too (direct_conv_f32.h, where it applies);
// the rest reads its windows in place (FloatWindowsConv) or goes through im2col blocks in
// `scratch` (grown here). Rows split over `pool`. A residual in `stage` is indexed by
// output pixel.
// FloatConv's windows read in place from a padded copy of the input (0 around it, as
// im2col pads; no im2col rows, which copy at about L2 speed: 14% of detector_128_float's
// time on an AVX2 CPU) where one group, no dilation along the row, windows covering the
// input at least twice over (WindowsCoverImage), and gemm::FloatGemmImageRuns (k blocks
// inside filter rows: the same sums as the im2col rows'). Returns false (nothing done)
// elsewhere.
bool FloatWindowsConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                      const gemm::FloatOutputStage& stage, float* output,
                      std::vector<float>* scratch, pthreadpool* pool, gemm::GemmKernel kernel);

inline void FloatConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                      const gemm::FloatOutputStage& stage, float* output,
                      std::vector<float>* scratch, pthreadpool* pool,
                      gemm::GemmKernel kernel = gemm::GemmKernel::kAuto) {
  if (DirectFloatConvApplies(g, kernel)) {
    DirectFloatConv(g, input, packed_filter, stage, output, scratch, pool, kernel);
    return;
  }
  const int depth = g.f_h * g.f_w * g.f_c;
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  // (out == in: a 1x1 step reading through a folded PAD's bottom / right padding has more
  // output pixels than input ones, and takes the general path.)
  if (g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_h == 0 &&
      g.pad_w == 0 && g.groups == 1 && g.out_h == g.in_h && g.out_w == g.in_w) {
    gemm::FloatGemm(static_cast<int>(rows), g.out_c, depth, input, depth, packed_filter, output,
                    g.out_c, stage, pool, kernel);
    return;
  }
  if (const RowWindows w = DirectRowWindows(g); w.any()) {
    const size_t slice = w.edges(g.out_w) * depth;
    if (scratch->size() < RowWindowsTasks(g, pool) * slice) {
      scratch->resize(RowWindowsTasks(g, pool) * slice);
    }
    auto line_out = [&](size_t l, int x) { return output + (l * g.out_w + x) * g.out_c; };
    RunRowWindows(
        g, w, pool, static_cast<double>(rows) * depth * g.out_c,
        [&](size_t l, pthreadpool* line_pool) {
          gemm::FloatGemm(w.hi - w.lo, g.out_c, depth, input + RowWindowsOffset(g, w, l),
                          g.stride_w * g.in_c, packed_filter, line_out(l, w.lo), g.out_c,
                          stage.FromRow(l * g.out_w + w.lo), line_pool, kernel);
        },
        [&](size_t l, int x0, int x1, size_t t) {
          float* buf = scratch->data() + t * slice;
          const size_t r0 = l * g.out_w + x0;
          Im2ColRows(g, input, 0, r0, r0 + (x1 - x0), 0.0f, CopyValues{}, buf);
          gemm::FloatGemm(x1 - x0, g.out_c, depth, buf, depth, packed_filter, line_out(l, x0),
                          g.out_c, stage.FromRow(r0), nullptr, kernel);
        });
    return;
  }
  if (FloatWindowsConv(g, input, packed_filter, stage, output, scratch, pool, kernel)) return;
  ChunkedIm2ColGemm(
      rows, depth, g.out_c, scratch, pool,
      [&](size_t r0, size_t r1, float* buf) {
        Im2ColRows(g, input, 0, r0, r1, 0.0f, CopyValues{}, buf);
      },
      [&](size_t r0, size_t r1, const float* buf, size_t) {
        gemm::FloatGemm(static_cast<int>(r1 - r0), g.out_c, depth, buf, depth, packed_filter,
                        output + r0 * g.out_c, g.out_c, stage.FromRow(r0), nullptr, kernel);
      });
}

// A convolution on the dot GEMM's tiles reading every window in place (gemm::DotGemmImage):
// the image converted once into the GEMM's uint8 domain with the convolution's padding
// around it (h x w pixels, the image at row pad_h, column pad_w), so that each window's
// filter row is f_w * in_c contiguous bytes of it, and each output row one GEMM of out_w
// rows stride_w * in_c apart. No im2col: a 3x3 stride-1 layer's copies each byte 9 times
// (21% of unet_128_int8's time on the VNNI tiles).
struct PaddedDotImage {
  int h = 0, w = 0;
  size_t bytes(const ConvGeometry& g) const {
    return static_cast<size_t>(g.batches) * h * w * g.in_c;
  }
};
inline PaddedDotImage PadDotGeometry(const ConvGeometry& g) {
  PaddedDotImage p;
  p.h = std::max(g.in_h + g.pad_h, (g.out_h - 1) * g.stride_h + (g.f_h - 1) * g.dil_h + 1);
  p.w = std::max(g.in_w + g.pad_w, (g.out_w - 1) * g.stride_w + (g.f_w - 1) * g.dil_w + 1);
  return p;
}
// Where windows read in place from a padded copy of the input pay (PaddedDotImage's
// geometry, for every GEMM that reads them: dot, int16 and float): one group, no dilation
// along the row, and windows covering the padded image at least twice over (3x3 at stride
// 1 or 2) against the one pass that pads it. A 1x1 layer's rows, each value once, copy as
// fast in im2col blocks that stay in cache (mobilenet_v1_1.0_224 uint8, builtin kernels:
// 2% slower through a whole image).
inline bool WindowsCoverImage(const ConvGeometry& g) {
  if (g.groups != 1 || g.dil_w != 1 || g.stride_w < 1 || g.stride_h < 1 || g.out_h < 1 ||
      g.out_w < 1 || static_cast<int64_t>(g.stride_w) * g.in_c > INT32_MAX) {  // lda: an int
    return false;
  }
  const PaddedDotImage p = PadDotGeometry(g);
  return static_cast<double>(g.out_h) * g.out_w * g.f_h * g.f_w >= 2.0 * p.h * p.w;
}
// The dot GEMM's image path: there and on the VNNI tiles (AMX copies rows into its tiles
// anyway). Filter rows of a multiple of 4 bytes (the tiles' groups of k) are read in place;
// narrower ones (a first layer's 3 channels) are copied from it into im2col rows, one move
// each.
inline bool PaddedDotImageApplies(const ConvGeometry& g) {
  return WindowsCoverImage(g) && gemm::DotGemmImageRuns(g.batches * g.out_h * g.out_w,
                                                        g.group_out_c, g.f_h * g.f_w * g.f_c);
}
inline bool DotSpansApply(const ConvGeometry& g) {
  return (static_cast<int64_t>(g.f_w) * g.in_c) % 4 == 0 && PaddedDotImageApplies(g);
}
// Writes the padded image of a float input, 0 around it, to dst (p.bytes(g) floats); rows
// over the pool.
void PadFloatImage(const ConvGeometry& g, const PaddedDotImage& p, const float* input, float* dst,
                   pthreadpool* pool);
// Writes the padded image of input + 128 (DotInput), `pad` around it, to dst
// (p.bytes(g)); rows over the pool.
void PadDotImage(const ConvGeometry& g, const PaddedDotImage& p, const int8_t* input,
                 uint8_t pad, uint8_t* dst, pthreadpool* pool);
// Im2ColDotRows from the padded image (no dilation along the row): rows [r0, r1) to dst,
// row_stride bytes apart, each filter row one copy of f_w * in_c bytes.
void Im2ColPaddedRows(const ConvGeometry& g, const PaddedDotImage& p, const uint8_t* image,
                      size_t r0, size_t r1, uint8_t* dst, size_t row_stride);
// The padded image's windows as the GEMM's rows (gemm::DotImage for the dot GEMM's uint8
// image, gemm::Int16Image for the int16 GEMM's): output pixel (b, oy, ox), filter row fy at
// image b's row oy * stride_h + fy * dil_h, column ox * stride_w.
template <typename T>
inline gemm::ImageWindows<T> PaddedWindows(const ConvGeometry& g, const PaddedDotImage& p,
                                           const T* image) {
  gemm::ImageWindows<T> d;
  const size_t row_values = static_cast<size_t>(p.w) * g.in_c;
  d.base = image;
  d.out_h = g.out_h;
  d.out_w = g.out_w;
  d.pixel = static_cast<size_t>(g.stride_w) * g.in_c;
  d.line = g.stride_h * row_values;
  d.image = p.h * row_values;
  d.spans = {g.f_h, static_cast<size_t>(g.dil_h) * row_values};
  return d;
}

// A hybrid or 8-bit convolution on the int16 GEMM reading its windows in place
// (gemm::Int16GemmHybridImage, QuantizedGemmImage): where WindowsCoverImage and a filter row
// of an even number of values (the tiles' pairs; or a single filter row, any length).
// Against im2col rows of q - offset (each value converted once per window that holds it:
// 22% of espcn_x3_64_dynamic's time on an AVX2 CPU) the image is converted once.
inline bool Int16WindowsApply(const ConvGeometry& g) {
  return (g.f_h == 1 || (static_cast<int64_t>(g.f_w) * g.in_c) % 2 == 0) && WindowsCoverImage(g);
}
// The padded image of input - offset[b * offset_stride] for each image b (int16; |value -
// offset| <= 255), 0 around it, to dst (p.bytes(g) values); rows over the pool. T: int8_t
// or uint8_t.
template <typename T>
void PadInt16Image(const ConvGeometry& g, const PaddedDotImage& p, const T* input,
                   const int32_t* offset, size_t offset_stride, int16_t* dst, pthreadpool* pool);

// A grouped 8-bit convolution on the VNNI tiles with no im2col: the input padded and split
// into one image per group ([group][b][h][w][f_c], + 128, `pad` around it), so that each
// group is an ungrouped convolution of f_c channels whose windows DotGemmImage reads in
// place (a filter row f_w * f_c contiguous bytes). Per group, the group-by-group im2col
// (f_c bytes a cell, converted a cell at a time) cost three times the tiles' time on a
// ResNeXt block (8 channels a group). Where: no dilation along the row, filter
// rows of a multiple of 4 bytes, the VNNI tiles.
inline bool GroupedDotImageApplies(const ConvGeometry& g) {
  return g.groups >= 1 && g.dil_w == 1 && g.stride_w >= 1 && g.stride_h >= 1 && g.out_h >= 1 &&
         g.out_w >= 1 && (static_cast<int64_t>(g.f_w) * g.f_c) % 4 == 0 &&
         static_cast<int64_t>(g.stride_w) * g.f_c <= INT32_MAX &&
         gemm::DotGemmImageRuns(g.batches * g.out_h * g.out_w, g.group_out_c,
                                g.f_h * g.f_w * g.f_c);
}
// How many groups of fewer than 16 output channels run as one (PackDotMerged's block-
// diagonal filter): a group of 16 fills the VNNI tile's 16 columns, where a group of 8 left
// half of them idle; the same multiply-adds, half the tiles (their rescale and stores).
inline int MergedGroups(const ConvGeometry& g) {
  if (g.group_out_c <= 0 || g.group_out_c >= 16 || 16 % g.group_out_c != 0) return 1;
  const int m = 16 / g.group_out_c;
  return g.groups % m == 0 ? m : 1;
}
// g with its groups merged m at a time.
inline ConvGeometry MergeGroups(ConvGeometry g, int m) {
  g.groups /= m;
  g.f_c *= m;
  g.group_out_c *= m;
  return g;
}
// One group's geometry in its own image: an ungrouped convolution of f_c channels.
inline ConvGeometry GroupImageGeometry(const ConvGeometry& g) {
  ConvGeometry gg = g;
  gg.in_c = g.f_c;
  gg.groups = 1;
  return gg;
}
// Writes the groups' padded images (PadDotImage's, one per group, p.bytes of
// GroupImageGeometry(g) each, group after group) to dst; rows over the pool.
void PadDotGroupImages(const ConvGeometry& g, const PaddedDotImage& p, const int8_t* input,
                       uint8_t pad, uint8_t* dst, pthreadpool* pool);
// Every group of an 8-bit grouped convolution (GroupedDotImageApplies): packed[grp] the
// group's weights (PackDotWeights), stage over all out_c channels (bias: DotBias's of each
// group with a_zero = input_zero_point + 128; multiplier / shift / float_scale per
// channel), as Int8DotConv group by group. `scratch` grown here.
inline void Int8DotGroupedConv(const ConvGeometry& g, const int8_t* input, int32_t input_zero_point,
                               const int8_t* const* packed, const gemm::QuantizedOutputStage& stage,
                               int8_t* output, std::vector<uint8_t>* scratch, pthreadpool* pool) {
  const ConvGeometry gg = GroupImageGeometry(g);
  const PaddedDotImage p = PadDotGeometry(g);
  const size_t bytes = p.bytes(gg);
  if (scratch->size() < bytes * g.groups) scratch->resize(bytes * g.groups);
  PadDotGroupImages(g, p, input, static_cast<uint8_t>(input_zero_point + 128), scratch->data(),
                    pool);
  const int n = g.group_out_c, depth = g.f_h * g.f_w * g.f_c;
  const int rows = g.batches * g.out_h * g.out_w;
  for (int grp = 0; grp < g.groups; ++grp) {
    gemm::QuantizedOutputStage s = stage;
    const size_t at = static_cast<size_t>(grp) * n;
    if (s.bias != nullptr) s.bias += at;
    if (s.multiplier != nullptr) s.multiplier += at;
    if (s.shift != nullptr) s.shift += at;
    if (s.float_scale != nullptr) s.float_scale += at;
    gemm::DotGemmImage(rows, n, depth, PaddedWindows(gg, p, scratch->data() + grp * bytes),
                       packed[grp], output + at, g.out_c, s, pool);
  }
}

// One group of an 8-bit convolution (int8 activations, int8 weights) on the dot-product
// GEMM (gemm.h: DotGemm): im2col rows of input + 128 (uint8; padding is the zero point +
// 128, so it adds nothing once DotBias has folded the zero point in; on AMX the int8 rows,
// converted by DotGemmSigned's copy) at a stride of DotDepth(depth), times the group's
// weights packed by PackDotWeights; stage.bias is DotBias's (a_zero = input_zero_point +
// 128). Output columns [group * group_out_c, ...)
// of each pixel. Rows split over `pool`; `scratch` grown here.
inline void Int8DotConv(const ConvGeometry& g, const int8_t* input, int32_t input_zero_point,
                        int group, const int8_t* packed_filter,
                        const gemm::QuantizedOutputStage& stage, int8_t* output,
                        std::vector<uint8_t>* scratch, pthreadpool* pool) {
  const int depth = g.f_h * g.f_w * g.f_c;
  const int stride = gemm::DotDepth(depth);
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  const int n = g.group_out_c;
  const uint8_t pad = static_cast<uint8_t>(input_zero_point + 128);
  // 1x1, stride 1, one group, depth a multiple of 4: the rows are the input's pixels as
  // they are, one contiguous block.
  const bool pixels = g.f_h == 1 && g.f_w == 1 && g.stride_h == 1 && g.stride_w == 1 &&
                      g.pad_h == 0 && g.pad_w == 0 && g.groups == 1 && depth == stride &&
                      g.out_h == g.in_h && g.out_w == g.in_w;
  // The pixels on AMX: no conversion pass (the tiles' copy converts), all rows at once.
  if (pixels && gemm::DotGemmSigned(static_cast<int>(rows), n, depth, input, depth, packed_filter,
                                    output + static_cast<size_t>(group) * n, g.out_c, stage, pool)) {
    return;
  }
  // Windows one pixel high (Conv1D), on AMX: each output row's in-image windows are the
  // input read at a stride of stride_w * in_c, converted by the tiles' copy as above; only
  // the pixels whose window crosses the padding go through im2col.
  if (const RowWindows w = DirectRowWindows(g);
      w.any() && depth == stride && gemm::DotGemmOnAmx(w.hi - w.lo, n, depth)) {
    const size_t slice = w.edges(g.out_w) * stride;
    if (scratch->size() < RowWindowsTasks(g, pool) * slice) {
      scratch->resize(RowWindowsTasks(g, pool) * slice);
    }
    auto line_out = [&](size_t l, int x) { return output + (l * g.out_w + x) * g.out_c; };
    RunRowWindows(
        g, w, pool, static_cast<double>(rows) * depth * n,
        [&](size_t l, pthreadpool* line_pool) {
          gemm::DotGemmSigned(w.hi - w.lo, n, depth, input + RowWindowsOffset(g, w, l),
                              g.stride_w * g.in_c, packed_filter, line_out(l, w.lo), g.out_c,
                              stage, line_pool);
        },
        [&](size_t l, int x0, int x1, size_t t) {
          uint8_t* buf = scratch->data() + t * slice;
          const size_t r0 = l * g.out_w + x0;
          Im2ColDotRows(g, input, 0, r0, r0 + (x1 - x0), pad, buf, stride);
          gemm::DotGemm(x1 - x0, n, depth, buf, stride, packed_filter, line_out(l, x0), g.out_c,
                        stage, nullptr);
        });
    return;
  }
  // Elsewhere on the AVX-512 VNNI tiles: the tiles read the windows in place in the padded
  // image (PaddedDotImageApplies), or narrow filter rows copied from it.
  const bool padded = !pixels && PaddedDotImageApplies(g);
  if (padded && static_cast<size_t>(g.f_w) * g.in_c % 4 != 0 &&
      static_cast<size_t>(g.f_w) * g.in_c <= 64) {
    const PaddedDotImage p = PadDotGeometry(g);
    const size_t slices = PlanChunks(rows, pool).tasks * kChunkRows * stride;
    if (scratch->size() < slices + p.bytes(g)) scratch->resize(slices + p.bytes(g));
    const uint8_t* image = scratch->data() + slices;
    PadDotImage(g, p, input, pad, scratch->data() + slices, pool);
    ChunkedIm2ColGemm(
        rows, stride, n, scratch, pool,
        [&](size_t r0, size_t r1, uint8_t* buf) {
          Im2ColPaddedRows(g, p, image, r0, r1, buf, stride);
        },
        [&](size_t r0, size_t r1, const uint8_t* buf, size_t) {
          gemm::DotGemm(static_cast<int>(r1 - r0), n, depth, buf, stride, packed_filter,
                        output + r0 * g.out_c + static_cast<size_t>(group) * n, g.out_c, stage,
                        nullptr);
        });
    return;
  }
  if (padded && static_cast<size_t>(g.f_w) * g.in_c % 4 == 0) {
    const PaddedDotImage p = PadDotGeometry(g);
    if (scratch->size() < p.bytes(g)) scratch->resize(p.bytes(g));
    PadDotImage(g, p, input, pad, scratch->data(), pool);
    gemm::DotGemmImage(static_cast<int>(rows), n, depth, PaddedWindows(g, p, scratch->data()),
                       packed_filter, output + static_cast<size_t>(group) * n, g.out_c, stage,
                       pool);
    return;
  }
  // Too few chunks to keep the threads busy (the small late layers, whose filters are the
  // largest): the GEMM splits the output channels over the threads, below.
  const size_t threads = parallel::NumThreads(pool);
  const bool few_chunks = threads > 1 && (rows + kChunkRows - 1) / kChunkRows < 2 * threads;
  // Elsewhere on AMX: each block's im2col rows made straight into the tiles' row copy (no
  // im2col matrix in scratch, no second copy; ResNet50 int8 spent 10% in those two). Not
  // where the threads split the channels: each column block would make its rows again.
  if (!pixels && !few_chunks && gemm::DotGemmOnAmx(static_cast<int>(rows), n, depth)) {
    struct Source {
      const ConvGeometry* g;
      const int8_t* input;
      int c0;
      uint8_t pad;
    } source{&g, input, group * g.f_c, pad};
    const gemm::DotRows gather{
        [](const void* ctx, size_t r0, int count, uint8_t* dst, size_t row_stride) {
          const Source& s = *static_cast<const Source*>(ctx);
          Im2ColDotRows(*s.g, s.input, s.c0, r0, r0 + count, s.pad, dst, row_stride);
        },
        &source};
    if (gemm::DotGemmGathered(static_cast<int>(rows), n, depth, gather, packed_filter,
                              output + static_cast<size_t>(group) * n, g.out_c, stage, pool)) {
      return;
    }
  }
  // Where a block's product runs on AMX, its im2col rows stay int8 (padding the zero point)
  // and DotGemmSigned converts them on its copy into the tiles: no conversion pass. (The
  // tiles reading the im2col rows in place, with no copy, were slower: ResNet50 int8 +16%;
  // the copy's rows are hot in L1.) Elsewhere DotGemm's uint8 rows.
  auto signed_rows = [&](size_t m) { return !pixels && gemm::DotGemmOnAmx(static_cast<int>(m), n, depth); };
  auto fill = [&](size_t r0, size_t r1, uint8_t* buf, bool as_int8) {
    if (as_int8) {
      Im2ColRows(g, input, group * g.f_c, r0, r1, static_cast<int8_t>(input_zero_point),
                 CopyValues{}, reinterpret_cast<int8_t*>(buf), stride);
    } else if (pixels) {
      gemm::DotInput(input + r0 * depth, (r1 - r0) * depth, buf);
    } else {
      Im2ColDotRows(g, input, group * g.f_c, r0, r1, pad, buf, stride);
    }
  };
  auto multiply = [&](size_t r0, size_t r1, const uint8_t* buf, bool as_int8, pthreadpool* on) {
    int8_t* out = output + r0 * g.out_c + static_cast<size_t>(group) * n;
    const int m = static_cast<int>(r1 - r0);
    // signed_rows(m) is DotGemmSigned's own condition, so it takes the rows.
    if (as_int8 && gemm::DotGemmSigned(m, n, depth, reinterpret_cast<const int8_t*>(buf), stride,
                                       packed_filter, out, g.out_c, stage, on)) {
      return;
    }
    gemm::DotGemm(m, n, depth, buf, stride, packed_filter, out, g.out_c, stage, on);
  };
  // Few chunks: all rows at once, and the GEMM splits the output channels over the threads.
  if (few_chunks) {
    const bool as_int8 = signed_rows(rows);
    if (scratch->size() < rows * stride) scratch->resize(rows * stride);
    // The rows filled by all threads too (one range each), not by the caller alone.
    const size_t parts = std::min(rows, threads);
    parallel::ParallelFor(pool, parts, static_cast<double>(rows) * stride * 64, [&](size_t t) {
      const size_t r0 = rows * t / parts, r1 = rows * (t + 1) / parts;
      fill(r0, r1, scratch->data() + r0 * stride, as_int8);
    });
    multiply(0, rows, scratch->data(), as_int8, pool);
    return;
  }
  ChunkedIm2ColGemm(
      rows, stride, n, scratch, pool,
      [&](size_t r0, size_t r1, uint8_t* buf) { fill(r0, r1, buf, signed_rows(r1 - r0)); },
      [&](size_t r0, size_t r1, const uint8_t* buf, size_t) {
        multiply(r0, r1, buf, signed_rows(r1 - r0), nullptr);
      });
}

}  // namespace conv_util
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_IM2COL_H_
