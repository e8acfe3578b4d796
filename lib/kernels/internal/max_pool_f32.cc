#include "kernels/internal/max_pool_f32.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"

namespace tflite {
namespace max_pool_f32 {
namespace {

// a[c] = max(a[c], b[c]) over the channels (a select the compiler turns into maxps).
inline __attribute__((always_inline)) void MaxInto(float* __restrict a, const float* __restrict b,
                                                   int n) {
  for (int c = 0; c < n; ++c) a[c] = a[c] > b[c] ? a[c] : b[c];
}

// Pixels [px0, px1) of output row `row` (b * out_h + oy); `cols` holds the column maxima.
inline __attribute__((always_inline)) void RowImpl(const Geometry& g, const float* input,
                                                   float* output, float lo, float hi, size_t row,
                                                   int px0, int px1, std::vector<float>& cols) {
  const int c_n = g.channels;
  const int b = static_cast<int>(row / g.out_h), oy = static_cast<int>(row % g.out_h);
  const int64_t y_start = static_cast<int64_t>(oy) * g.stride_h - g.pad_h;
  const int y0 = static_cast<int>(std::max<int64_t>(0, y_start));
  const int y1 = static_cast<int>(std::min<int64_t>(g.in_h, y_start + g.f_h));
  float* out_row = output + (static_cast<int64_t>(row) * g.out_w) * c_n;
  // The input columns the range's windows cover.
  const int64_t x_first = static_cast<int64_t>(px0) * g.stride_w - g.pad_w;
  const int64_t x_last = static_cast<int64_t>(px1 - 1) * g.stride_w - g.pad_w + g.f_w;
  const int ix0 = static_cast<int>(std::max<int64_t>(0, x_first));
  const int ix1 = static_cast<int>(std::min<int64_t>(g.in_w, x_last));
  // A window over padding alone: the lowest float, clamped.
  const float empty = std::min(std::max(std::numeric_limits<float>::lowest(), lo), hi);
  if (y0 >= y1 || ix0 >= ix1) {
    std::fill(out_row + static_cast<int64_t>(px0) * c_n, out_row + static_cast<int64_t>(px1) * c_n,
              empty);
    return;
  }
  const size_t width = static_cast<size_t>(ix1 - ix0) * c_n;
  if (cols.size() < width) cols.resize(width);
  float* col = cols.data();
  const float* image = input + static_cast<int64_t>(b) * g.in_h * g.in_w * c_n;
  const float* first = image + (static_cast<int64_t>(y0) * g.in_w + ix0) * c_n;
  std::copy(first, first + width, col);
  for (int iy = y0 + 1; iy < y1; ++iy) {
    MaxInto(col, image + (static_cast<int64_t>(iy) * g.in_w + ix0) * c_n, static_cast<int>(width));
  }
  for (int ox = px0; ox < px1; ++ox) {
    const int64_t x = static_cast<int64_t>(ox) * g.stride_w - g.pad_w;
    const int x_lo = static_cast<int>(std::max<int64_t>(ix0, x));
    const int x_hi = static_cast<int>(std::min<int64_t>(ix1, x + g.f_w));
    float* out = out_row + static_cast<int64_t>(ox) * c_n;
    if (x_lo >= x_hi) {
      std::fill(out, out + c_n, empty);
      continue;
    }
    std::copy(col + static_cast<size_t>(x_lo - ix0) * c_n,
              col + static_cast<size_t>(x_lo - ix0 + 1) * c_n, out);
    for (int xx = x_lo + 1; xx < x_hi; ++xx)
      MaxInto(out, col + static_cast<size_t>(xx - ix0) * c_n, c_n);
    for (int c = 0; c < c_n; ++c) {
      float v = out[c] > lo ? out[c] : lo;  // a NaN becomes lo (NaN results are unspecified)
      out[c] = v < hi ? v : hi;
    }
  }
}

using RowFn = void (*)(const Geometry&, const float*, float*, float, float, size_t, int, int,
                       std::vector<float>&);

void RowGeneric(const Geometry& g, const float* input, float* output, float lo, float hi,
                size_t row, int px0, int px1, std::vector<float>& cols) {
  RowImpl(g, input, output, lo, hi, row, px0, px1, cols);
}

#if defined(__x86_64__) || defined(__i386__)
// The same loops on 8-wide AVX lanes.
__attribute__((target("avx2"))) void RowAvx2(const Geometry& g, const float* input, float* output,
                                             float lo, float hi, size_t row, int px0, int px1,
                                             std::vector<float>& cols) {
  RowImpl(g, input, output, lo, hi, row, px0, px1, cols);
}
#endif

RowFn SelectRow() {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx2()) return RowAvx2;
#endif
  return RowGeneric;
}

}  // namespace

void MaxPool(const Geometry& g, const float* input, float* output, float lo, float hi,
             pthreadpool* pool) {
  if (g.batches <= 0 || g.out_h <= 0 || g.out_w <= 0 || g.channels <= 0) return;
  static const RowFn row_fn = SelectRow();
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h;
  const double work = static_cast<double>(rows) * g.out_w * g.channels * (g.f_h + g.f_w);
  const size_t parts = parallel::RowParts(pool, rows, g.out_w, 8);
  parallel::ParallelFor(pool, rows * parts, work, [&](size_t task) {
    thread_local std::vector<float> cols;
    const size_t row = task / parts;
    const parallel::Range px = parallel::PartOf(g.out_w, task % parts, parts);
    row_fn(g, input, output, lo, hi, row, px.begin, px.end, cols);
  });
}

}  // namespace max_pool_f32
}  // namespace tflite
