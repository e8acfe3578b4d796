#include "kernels/internal/depthwise_float.h"

#include <algorithm>
#include <cstring>

#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/logistic_f32.h"

namespace tflite {
namespace dwconv {
namespace {

// Where the float sums take the bias: each tap's product (rounded, no FMA) is added in
// (fy, fx) order, to the bias (`first`: TFLite's optimized kernel, used in dynamic-range
// graphs, whose hybrid layers quantize these values and turn a last-bit difference into a
// whole step) or to 0 with the bias added last (`last`: TFLite's reference kernel).
struct FloatBias {
  const float* first = nullptr;
  const float* last = nullptr;
};

// One output pixel with all bounds checks (image borders, depth multiplier > 1).
inline __attribute__((always_inline, optimize("fp-contract=off"))) void FloatPixel(
    const Geometry& g, const float* input, const float* filter,
                       const FloatBias& bias, float act_min, float act_max, int b, int oy, int ox,
                       float* acc) {
  const int dm = g.depth_multiplier;
  if (bias.first != nullptr) {
    std::copy(bias.first, bias.first + g.out_c, acc);
  } else {
    std::fill(acc, acc + g.out_c, 0.0f);
  }
  ForEachTap(g, input, filter, b, oy, ox, [&](const float* in, const float* f) {
    if (dm == 1) {
      for (int c = 0; c < g.out_c; ++c) acc[c] += in[c] * f[c];
    } else {
      for (int ic = 0; ic < g.in_c; ++ic) {
        const float v = in[ic];
        float* a = acc + ic * dm;
        const float* w = f + ic * dm;
        for (int m = 0; m < dm; ++m) a[m] += v * w[m];
      }
    }
  });
  for (int c = 0; c < g.out_c; ++c) {
    const float v = bias.last != nullptr ? acc[c] + bias.last[c] : acc[c];
    acc[c] = std::min(std::max(v, act_min), act_max);
  }
}

// Interior pixels (every x tap inside the image), depth multiplier 1: N neighbouring
// output pixels share each filter load and keep their sums for a vector of channels in
// registers over all taps: 16 channels at a time where kWide (AVX-512), then 8, then one
// by one. Same summation order as FloatPixel's (no contraction into FMA), so the same
// float results on every width.
typedef float V8 __attribute__((vector_size(32)));
typedef float V16 __attribute__((vector_size(64)));

// (Vectors are only ever locals here: passing V8 by value would change the ABI between
// the AVX2 and the baseline build of this code.)
#define TFI_LOADV(v, p) std::memcpy(&(v), (p), sizeof(v))

// Channels [c, ...) in blocks of V's lanes while whole blocks are left; returns where the
// blocks end.
template <int N, typename V>
inline __attribute__((always_inline, optimize("fp-contract=off"))) int FloatInteriorBlocks(
    const Geometry& g, const float* in_batch, const float* filter, const FloatBias& bias,
    float act_min, float act_max, int oy, int fy_lo, int fy_hi, int ox0, float* out, int c) {
  constexpr int kLanes = static_cast<int>(sizeof(V) / sizeof(float));
  const int channels = g.out_c;
  const size_t row_stride = static_cast<size_t>(g.in_w) * channels;
  const size_t step = static_cast<size_t>(g.stride_w) * channels;
  const int ix0 = ox0 * g.stride_w - g.pad_w;
  const V vmin = V{} + act_min, vmax = V{} + act_max;
  for (; c + kLanes <= channels; c += kLanes) {
    V bv = V{}, bl = V{};
    if (bias.first != nullptr) TFI_LOADV(bv, bias.first + c);
    if (bias.last != nullptr) TFI_LOADV(bl, bias.last + c);
    V a0 = bv, a1 = bv, a2 = bv, a3 = bv;
    for (int fy = fy_lo; fy < fy_hi; ++fy) {
      const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
      const float* row = in_batch + iy * row_stride + c;
      const float* frow = filter + static_cast<size_t>(fy) * g.f_w * channels + c;
      for (int fx = 0; fx < g.f_w; ++fx) {
        V f, x;
        TFI_LOADV(f, frow + static_cast<size_t>(fx) * channels);
        const float* p = row + static_cast<size_t>(ix0 + fx * g.dil_w) * channels;
        TFI_LOADV(x, p);
        a0 += x * f;
        if constexpr (N > 1) {
          TFI_LOADV(x, p + step);
          a1 += x * f;
        }
        if constexpr (N > 2) {
          TFI_LOADV(x, p + 2 * step);
          a2 += x * f;
        }
        if constexpr (N > 3) {
          TFI_LOADV(x, p + 3 * step);
          a3 += x * f;
        }
      }
    }
#define TFI_STORE(a, n)                                                     \
  do {                                                                      \
    V v = bias.last != nullptr ? (a) + bl : (a);                            \
    v = v < vmin ? vmin : v;                                                \
    v = v > vmax ? vmax : v;                                                \
    std::memcpy(out + static_cast<size_t>(n) * channels + c, &v, sizeof v); \
  } while (0)
    TFI_STORE(a0, 0);
    if constexpr (N > 1) TFI_STORE(a1, 1);
    if constexpr (N > 2) TFI_STORE(a2, 2);
    if constexpr (N > 3) TFI_STORE(a3, 3);
#undef TFI_STORE
  }
  return c;
}

template <int N, bool kWide>
inline __attribute__((always_inline, optimize("fp-contract=off"))) void FloatInterior(
    const Geometry& g, const float* in_batch, const float* filter, const FloatBias& bias,
    float act_min, float act_max, int oy, int fy_lo, int fy_hi, int ox0, float* out) {
  const int channels = g.out_c;
  const size_t row_stride = static_cast<size_t>(g.in_w) * channels;
  const int ix0 = ox0 * g.stride_w - g.pad_w;
  int c = 0;
  if constexpr (kWide) {
    c = FloatInteriorBlocks<N, V16>(g, in_batch, filter, bias, act_min, act_max, oy, fy_lo, fy_hi,
                                    ox0, out, c);
  }
  c = FloatInteriorBlocks<N, V8>(g, in_batch, filter, bias, act_min, act_max, oy, fy_lo, fy_hi,
                                 ox0, out, c);
  for (; c < channels; ++c) {
    for (int n = 0; n < N; ++n) {
      float acc = bias.first != nullptr ? bias.first[c] : 0.0f;
      for (int fy = fy_lo; fy < fy_hi; ++fy) {
        const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
        for (int fx = 0; fx < g.f_w; ++fx) {
          const int ix = ix0 + n * g.stride_w + fx * g.dil_w;
          acc += in_batch[iy * row_stride + static_cast<size_t>(ix) * channels + c] *
                 filter[(static_cast<size_t>(fy) * g.f_w + fx) * channels + c];
        }
      }
      if (bias.last != nullptr) acc += bias.last[c];
      out[static_cast<size_t>(n) * channels + c] = std::min(std::max(acc, act_min), act_max);
    }
  }
}

// Pixels [px0, px1) of output row (b, oy) (each pixel's bits do not depend on the range).
template <bool kWide>
inline __attribute__((always_inline, optimize("fp-contract=off"))) void FloatRowImpl(
    const Geometry& g, const float* input, const float* filter, const FloatBias& bias,
    float act_min, float act_max, int b, int oy, int px0, int px1, float* out_row) {
  int ox = px0;
  if (g.depth_multiplier == 1) {
    auto y_ok = [&](int fy) {
      const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
      return iy >= 0 && iy < g.in_h;
    };
    int fy_lo = 0, fy_hi = g.f_h;
    while (fy_lo < fy_hi && !y_ok(fy_lo)) ++fy_lo;
    while (fy_hi > fy_lo && !y_ok(fy_hi - 1)) --fy_hi;
    int x_lo = px0, x_hi = px1;
    while (x_lo < x_hi && x_lo * g.stride_w - g.pad_w < 0) ++x_lo;
    while (x_hi > x_lo && (x_hi - 1) * g.stride_w - g.pad_w + (g.f_w - 1) * g.dil_w >= g.in_w) {
      --x_hi;
    }
    const float* in_batch = input + static_cast<size_t>(b) * g.in_h * g.in_w * g.in_c;
    for (; ox < x_lo; ++ox) {
      FloatPixel(g, input, filter, bias, act_min, act_max, b, oy, ox,
                 out_row + static_cast<size_t>(ox) * g.out_c);
    }
    for (; ox + 4 <= x_hi; ox += 4) {
      FloatInterior<4, kWide>(g, in_batch, filter, bias, act_min, act_max, oy, fy_lo, fy_hi, ox,
                       out_row + static_cast<size_t>(ox) * g.out_c);
    }
    for (; ox < x_hi; ++ox) {
      FloatInterior<1, kWide>(g, in_batch, filter, bias, act_min, act_max, oy, fy_lo, fy_hi, ox,
                       out_row + static_cast<size_t>(ox) * g.out_c);
    }
  }
  for (; ox < px1; ++ox) {
    FloatPixel(g, input, filter, bias, act_min, act_max, b, oy, ox,
               out_row + static_cast<size_t>(ox) * g.out_c);
  }
}

__attribute__((optimize("fp-contract=off"))) void FloatRowGeneric(
    const Geometry& g, const float* input, const float* filter, const FloatBias& bias,
    float act_min, float act_max, int b, int oy, int px0, int px1, float* out_row) {
  FloatRowImpl<false>(g, input, filter, bias, act_min, act_max, b, oy, px0, px1, out_row);
}

#if defined(__x86_64__) || defined(__i386__)
// The same code with 8-wide AVX registers (no FMA: products are rounded as the reference's).
__attribute__((target("avx2"), optimize("fp-contract=off"))) void FloatRowAvx2(
    const Geometry& g, const float* input, const float* filter, const FloatBias& bias,
    float act_min, float act_max, int b, int oy, int px0, int px1, float* out_row) {
  FloatRowImpl<false>(g, input, filter, bias, act_min, act_max, b, oy, px0, px1, out_row);
}
// And 16-wide (AVX-512 has FMA: fp-contract=off keeps the products rounded). In dynamic-range
// graphs, where this code runs for TFLite's bits, the AVX2 rows took a fifth of a
// MobileNetV2's time.
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void FloatRowAvx512(
    const Geometry& g, const float* input, const float* filter, const FloatBias& bias,
    float act_min, float act_max, int b, int oy, int px0, int px1, float* out_row) {
  FloatRowImpl<true>(g, input, filter, bias, act_min, act_max, b, oy, px0, px1, out_row);
}
#endif

using FloatRowFn = void (*)(const Geometry&, const float*, const float*, const FloatBias&, float,
                            float, int, int, int, int, float*);

FloatRowFn SelectFloatRow() {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) return FloatRowAvx512;
  if (gemm::CpuHasAvx2()) return FloatRowAvx2;
#endif
  return FloatRowGeneric;
}

}  // namespace

void FloatDepthwise(const Geometry& g, const float* input, const float* filter, const float* bias_data,
                    bool bias_first, float act_min, float act_max, float* output, pthreadpool* pool,
                    bool swish) {
  const FloatRowFn row_fn = SelectFloatRow();
  FloatBias bias;
  (bias_first ? bias.first : bias.last) = bias_data;
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h;
  const double work = static_cast<double>(rows) * g.out_w * g.out_c * g.f_h * g.f_w;
  // Rows in pixel ranges where they are few (a 1 x k depthwise over a Conv1D's one row).
  const size_t parts = parallel::RowParts(pool, rows, g.out_w, 16);
  parallel::ParallelFor(pool, rows * parts, work, [&](size_t task) {
    const size_t r = task / parts;
    const int b = static_cast<int>(r) / g.out_h;
    const int oy = static_cast<int>(r) % g.out_h;
    const auto [px0, px1] = parallel::PartOf(g.out_w, task % parts, parts);
    float* row = output + r * g.out_w * static_cast<size_t>(g.out_c);
    row_fn(g, input, filter, bias, act_min, act_max, b, oy, px0, px1, row);
    if (swish) {  // the builtin LOGISTIC's bits: the tensor's last n % 4 on Eigen's scalar path
      const auto n = static_cast<int64_t>(px1 - px0) * g.out_c;
      const auto total = static_cast<int64_t>(rows) * g.out_w * g.out_c;
      const auto first = (static_cast<int64_t>(r) * g.out_w + px0) * g.out_c;
      const int64_t scalar_from = std::max(total & ~int64_t{3}, first);
      float* part_out = row + static_cast<size_t>(px0) * g.out_c;
      logistic_f32::SwishPart(part_out, part_out, n, std::max<int64_t>(0, first + n - scalar_from));
    }
  });
}


}  // namespace dwconv
}  // namespace tflite
