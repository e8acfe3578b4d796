// im2col rows in the dot-product GEMM's uint8 domain (im2col.h: Im2ColDotRows).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/internal/dot_input_span.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/im2col.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_IM2COL_X86 1
#endif

namespace tflite {
namespace conv_util {
namespace {

#ifdef TFI_IM2COL_X86
#define TFI_IM2COL_TARGET "avx512f,avx512bw"

// n bytes of value at dst, 64 a step, the tail under a mask.
__attribute__((target(TFI_IM2COL_TARGET), always_inline)) inline void Fill(uint8_t* dst, size_t n,
                                                                          __m512i value) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) _mm512_storeu_si512(dst + i, value);
  if (i < n) _mm512_mask_storeu_epi8(dst + i, (uint64_t{1} << (n - i)) - 1, value);
}

// One group, no dilation along the row: each filter row's taps inside the image are one
// span of the input (Im2ColRows' fast case), copied inline. The pixel's position advances
// by one per row instead of two divisions per row. FILL(dst, n) writes n padding bytes,
// SPAN(src, n, dst) converts n input bytes: the AVX-512 and AVX2 functions below share this
// walk with their own primitives (which need their own target attributes).
#define TFI_IM2COL_DOT_ROWS(FILL, SPAN)                                                \
  const size_t row_bytes = static_cast<size_t>(g.f_w) * g.f_c; /* one filter row */    \
  int ox = static_cast<int>(r0 % g.out_w);                                             \
  int oy = static_cast<int>((r0 / g.out_w) % g.out_h);                                 \
  size_t b = r0 / g.out_w / g.out_h;                                                   \
  for (size_t r = r0; r < r1; ++r) {                                                   \
    uint8_t* row = dst + (r - r0) * stride;                                            \
    const int ix0 = ox * g.stride_w - g.pad_w;                                         \
    const int fx_lo = std::max(0, -ix0);                                               \
    const int fx_hi = std::max(fx_lo, std::min(g.f_w, g.in_w - ix0));                  \
    const size_t lo_bytes = static_cast<size_t>(fx_lo) * g.f_c;                        \
    const size_t span = static_cast<size_t>(fx_hi - fx_lo) * g.f_c;                    \
    for (int fy = 0; fy < g.f_h; ++fy) {                                               \
      const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;                         \
      uint8_t* cells = row + static_cast<size_t>(fy) * row_bytes;                      \
      if (iy < 0 || iy >= g.in_h || span == 0) {                                       \
        FILL(cells, row_bytes);                                                        \
        continue;                                                                      \
      }                                                                                \
      if (lo_bytes > 0) FILL(cells, lo_bytes);                                         \
      const int8_t* src = input + ((b * g.in_h + iy) * g.in_w + ix0 + fx_lo) * g.in_c; \
      SPAN(src, span, cells + lo_bytes);                                               \
      if (lo_bytes + span < row_bytes) {                                               \
        FILL(cells + lo_bytes + span, row_bytes - lo_bytes - span);                    \
      }                                                                                \
    }                                                                                  \
    if (++ox == g.out_w) {                                                             \
      ox = 0;                                                                          \
      if (++oy == g.out_h) {                                                           \
        oy = 0;                                                                        \
        ++b;                                                                           \
      }                                                                                \
    }                                                                                  \
  }

// The walk above, 64 bytes a step (padding and spans alike).
__attribute__((target(TFI_IM2COL_TARGET))) void RowsAvx512(const ConvGeometry& g,
                                                          const int8_t* input, size_t r0,
                                                          size_t r1, uint8_t pad, uint8_t* dst,
                                                          size_t stride) {
  const __m512i padv = _mm512_set1_epi8(static_cast<char>(pad));
#define TFI_FILL(p, n) Fill(p, n, padv)
  TFI_IM2COL_DOT_ROWS(TFI_FILL, gemm::DotInputSpanAvx512)
#undef TFI_FILL
}

// On AVX2 (no AVX-512): the padding by memset, the spans 32 bytes then 8 a step (the
// generic loop's DotInput call per span took a third of an int8 detector's time).
__attribute__((target("avx2"))) void RowsAvx2(const ConvGeometry& g, const int8_t* input, size_t r0,
                                              size_t r1, uint8_t pad, uint8_t* dst, size_t stride) {
#define TFI_FILL(p, n) std::memset(p, pad, n)
  TFI_IM2COL_DOT_ROWS(TFI_FILL, gemm::DotInputSpanAvx2)
#undef TFI_FILL
}
#undef TFI_IM2COL_DOT_ROWS

// Im2ColPaddedRows' filter rows of at most 64 bytes: one masked move each.
__attribute__((target(TFI_IM2COL_TARGET))) void PaddedRowsAvx512(
    const ConvGeometry& g, const PaddedDotImage& p, const uint8_t* image, size_t r0, size_t r1,
    uint8_t* dst, size_t stride) {
  const size_t n = static_cast<size_t>(g.f_w) * g.in_c;
  const __mmask64 mask = n == 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
  const size_t pixel_step = static_cast<size_t>(g.stride_w) * g.in_c;
  const size_t fy_step = static_cast<size_t>(g.dil_h) * p.w * g.in_c;
  size_t ox = r0 % g.out_w, oy = (r0 / g.out_w) % g.out_h, b = r0 / g.out_w / g.out_h;
  const uint8_t* src = image + ((b * p.h + oy * g.stride_h) * p.w) * g.in_c + ox * pixel_step;
  for (size_t r = r0; r < r1; ++r) {
    uint8_t* row = dst + (r - r0) * stride;
    for (int fy = 0; fy < g.f_h; ++fy) {
      _mm512_mask_storeu_epi8(row + fy * n, mask, _mm512_maskz_loadu_epi8(mask, src + fy * fy_step));
    }
    src += pixel_step;
    if (++ox == static_cast<size_t>(g.out_w)) {
      ox = 0;
      if (++oy == static_cast<size_t>(g.out_h)) {
        oy = 0;
        ++b;
      }
      src = image + ((b * p.h + oy * g.stride_h) * p.w) * g.in_c;
    }
  }
}
#endif  // TFI_IM2COL_X86

}  // namespace

namespace {

// The padded image's rows, `pad` outside the image, each in-image span of in_w * in_c
// values written by span(b, iy, out); in parts of at least 64 KiB, at most 2 a thread.
template <typename Out, typename Span>
void PadImageRows(const ConvGeometry& g, const PaddedDotImage& p, Out pad, Out* dst,
                  pthreadpool* pool, const Span& span) {
  const size_t rows = static_cast<size_t>(g.batches) * p.h;
  const size_t row_values = static_cast<size_t>(p.w) * g.in_c;
  const size_t left = static_cast<size_t>(g.pad_w) * g.in_c;
  const size_t in_row = static_cast<size_t>(g.in_w) * g.in_c;
  const size_t parts =
      std::max<size_t>(1, std::min(rows, std::min(2 * parallel::NumThreads(pool),
                                                  rows * row_values * sizeof(Out) / 65536)));
  parallel::ParallelFor(pool, parts, static_cast<double>(rows * row_values), [&](size_t t) {
    for (size_t r = rows * t / parts; r < rows * (t + 1) / parts; ++r) {
      Out* row = dst + r * row_values;
      const size_t b = r / p.h;
      const int iy = static_cast<int>(r % p.h) - g.pad_h;
      if (iy < 0 || iy >= g.in_h) {
        std::fill(row, row + row_values, pad);
        continue;
      }
      std::fill(row, row + left, pad);
      span(b, iy, row + left);
      std::fill(row + left + in_row, row + row_values, pad);
    }
  });
}

}  // namespace

void PadFloatImage(const ConvGeometry& g, const PaddedDotImage& p, const float* input, float* dst,
                   pthreadpool* pool) {
  const size_t in_row = static_cast<size_t>(g.in_w) * g.in_c;
  PadImageRows(g, p, 0.0f, dst, pool, [&](size_t b, int iy, float* out) {
    std::memcpy(out, input + (b * g.in_h + iy) * in_row, in_row * sizeof(float));
  });
}

void PadDotImage(const ConvGeometry& g, const PaddedDotImage& p, const int8_t* input, uint8_t pad,
                 uint8_t* dst, pthreadpool* pool) {
  const size_t in_row = static_cast<size_t>(g.in_w) * g.in_c;
  PadImageRows(g, p, pad, dst, pool, [&](size_t b, int iy, uint8_t* out) {
    gemm::DotInput(input + (b * g.in_h + iy) * in_row, in_row, out);
  });
}

template <typename T>
void PadInt16Image(const ConvGeometry& g, const PaddedDotImage& p, const T* input,
                   const int32_t* offset, size_t offset_stride, int16_t* dst, pthreadpool* pool) {
  const size_t in_row = static_cast<size_t>(g.in_w) * g.in_c;
  PadImageRows(g, p, int16_t{0}, dst, pool, [&](size_t b, int iy, int16_t* out) {
    // |q - offset| <= 255: int16 arithmetic (vectorizes 16 a step).
    const int16_t o = static_cast<int16_t>(offset[b * offset_stride]);
    const T* src = input + (b * g.in_h + iy) * in_row;
    for (size_t i = 0; i < in_row; ++i) out[i] = static_cast<int16_t>(src[i] - o);
  });
}

bool FloatWindowsConv(const ConvGeometry& g, const float* input, const float* packed_filter,
                      const gemm::FloatOutputStage& stage, float* output,
                      std::vector<float>* scratch, pthreadpool* pool, gemm::GemmKernel kernel) {
  const int depth = g.f_h * g.f_w * g.f_c;
  const int rows = g.batches * g.out_h * g.out_w;
  if (!WindowsCoverImage(g) || !gemm::FloatGemmImageRuns(rows, g.out_c, depth, g.f_h, kernel)) {
    return false;
  }
  const PaddedDotImage p = PadDotGeometry(g);
  scratch->resize(p.bytes(g));
  PadFloatImage(g, p, input, scratch->data(), pool);
  return gemm::FloatGemmImage(rows, g.out_c, depth, PaddedWindows(g, p, scratch->data()),
                              packed_filter, output, g.out_c, stage, pool, kernel);
}

template void PadInt16Image(const ConvGeometry&, const PaddedDotImage&, const int8_t*,
                            const int32_t*, size_t, int16_t*, pthreadpool*);
template void PadInt16Image(const ConvGeometry&, const PaddedDotImage&, const uint8_t*,
                            const int32_t*, size_t, int16_t*, pthreadpool*);

void PadDotGroupImages(const ConvGeometry& g, const PaddedDotImage& p, const int8_t* input,
                       uint8_t pad, uint8_t* dst, pthreadpool* pool) {
  const size_t rows = static_cast<size_t>(g.batches) * p.h;
  const size_t f_c = static_cast<size_t>(g.f_c);
  const size_t row_bytes = static_cast<size_t>(p.w) * f_c;
  const size_t image_bytes = rows * row_bytes;
  const size_t left = static_cast<size_t>(g.pad_w) * f_c;
  const size_t span = static_cast<size_t>(g.in_w) * f_c;
  const size_t parts = std::max<size_t>(
      1, std::min(rows,
                  std::min(2 * parallel::NumThreads(pool), rows * row_bytes * g.groups / 65536)));
  parallel::ParallelFor(pool, parts, static_cast<double>(image_bytes * g.groups), [&](size_t t) {
    for (size_t r = rows * t / parts; r < rows * (t + 1) / parts; ++r) {
      const size_t b = r / p.h;
      const int iy = static_cast<int>(r % p.h) - g.pad_h;
      const bool inside = iy >= 0 && iy < g.in_h;
      const int8_t* src =
          inside ? input + ((b * g.in_h + iy) * g.in_w) * static_cast<size_t>(g.in_c) : nullptr;
      for (int grp = 0; grp < g.groups; ++grp) {
        uint8_t* row = dst + grp * image_bytes + r * row_bytes;
        if (!inside) {
          std::memset(row, pad, row_bytes);
          continue;
        }
        std::memset(row, pad, left);
        uint8_t* out = row + left;
        const int8_t* in = src + grp * f_c;
        // + 128 is a flip of each byte's top bit: 8, 4 or 1 bytes a move.
        auto flip = [&](auto word) {
          using W = decltype(word);
          constexpr W kTopBits = static_cast<W>(static_cast<W>(~W{0}) / 255 * 0x80);
          for (int x = 0; x < g.in_w; ++x, out += f_c, in += g.in_c) {
            for (size_t c = 0; c < f_c; c += sizeof(W)) {
              W v;
              std::memcpy(&v, in + c, sizeof(W));
              v = static_cast<W>(v ^ kTopBits);
              std::memcpy(out + c, &v, sizeof(W));
            }
          }
        };
        if (f_c % 8 == 0) {
          flip(uint64_t{});
        } else if (f_c % 4 == 0) {
          flip(uint32_t{});
        } else {
          flip(uint8_t{});
        }
        std::memset(row + left + span, pad, row_bytes - left - span);
      }
    }
  });
}

void Im2ColPaddedRows(const ConvGeometry& g, const PaddedDotImage& p, const uint8_t* image,
                      size_t r0, size_t r1, uint8_t* dst, size_t row_stride) {
  const size_t n = static_cast<size_t>(g.f_w) * g.in_c;
#ifdef TFI_IM2COL_X86
  static const bool avx512 = gemm::CpuHasAvx512Vnni();  // (AVX-512BW comes with it)
  if (avx512 && n <= 64) {
    PaddedRowsAvx512(g, p, image, r0, r1, dst, row_stride);
    return;
  }
#endif
  for (size_t r = r0; r < r1; ++r) {
    const size_t ox = r % g.out_w, oy = (r / g.out_w) % g.out_h, b = r / g.out_w / g.out_h;
    for (int fy = 0; fy < g.f_h; ++fy) {
      const size_t y = oy * g.stride_h + static_cast<size_t>(fy) * g.dil_h;
      std::memcpy(dst + (r - r0) * row_stride + fy * n,
                  image + ((b * p.h + y) * p.w + ox * g.stride_w) * g.in_c, n);
    }
  }
}

void Im2ColDotRows(const ConvGeometry& g, const int8_t* input, int c0, size_t r0, size_t r1,
                   uint8_t pad, uint8_t* dst, size_t row_stride) {
#ifdef TFI_IM2COL_X86
  static const bool avx512 = gemm::CpuHasAvx512Vnni();  // (AVX-512BW comes with it)
  if (avx512 && g.dil_w == 1 && g.f_c == g.in_c && c0 == 0) {
    const size_t stride = row_stride != 0 ? row_stride
                                          : static_cast<size_t>(g.f_h) * g.f_w * g.f_c;
    RowsAvx512(g, input, r0, r1, pad, dst, stride);
    return;
  }
  static const bool avx2 = gemm::CpuHasAvx2();
  if (avx2 && g.dil_w == 1 && g.f_c == g.in_c && c0 == 0) {
    const size_t stride = row_stride != 0 ? row_stride : static_cast<size_t>(g.f_h) * g.f_w * g.f_c;
    RowsAvx2(g, input, r0, r1, pad, dst, stride);
    return;
  }
#endif
  Im2ColRows(g, input, c0, r0, r1, pad, DotConvert{}, dst, row_stride);
}

}  // namespace conv_util
}  // namespace tflite
