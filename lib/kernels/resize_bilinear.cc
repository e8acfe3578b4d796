// RESIZE_BILINEAR (NHWC) to the [height, width] of the int32 `size` input, with
// align_corners and half_pixel_centers. float32 and uint8 use TFLite's float
// reference (uint8 results are truncated, as upstream's static_cast); int8 and int16
// use the 10-bit fixed-point reference (ResizeBilinearInteger), bit for bit. Output
// rows are split over the interpreter's thread pool.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/resize.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace resize_bilinear {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input;
  const TfLiteTensor* size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(resize::GetResizeTensors(context, node, &input, &size, &output));
  if (params->half_pixel_centers && params->align_corners) {
    TF_LITE_KERNEL_LOG(context, "If half_pixel_centers is True, align_corners must be False.");
    return kTfLiteError;
  }
  if (!IsConstantOrPersistentTensor(size)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return resize::ResizeOutput(context, "RESIZE_BILINEAR", input, size, output);
}

void InterpolationFloat(int value, float scale, bool half_pixel_centers, int input_size,
                        float* scaled, int* lower, int* upper) {
  *scaled = half_pixel_centers ? (value + 0.5f) * scale - 0.5f : value * scale;
  *lower = std::max(static_cast<int32_t>(std::floor(*scaled)), static_cast<int32_t>(0));
  *upper = std::min(static_cast<int32_t>(std::ceil(*scaled)), input_size - 1);
}

struct Dims {
  int batches, in_h, in_w, depth, out_h, out_w;
  int64_t In(int b, int y, int x, int c) const {
    return ((static_cast<int64_t>(b) * in_h + y) * in_w + x) * depth + c;
  }
  int64_t Out(int b, int y, int x, int c) const {
    return ((static_cast<int64_t>(b) * out_h + y) * out_w + x) * depth + c;
  }
};

// One output pixel's channels, float reference: the same expression and evaluation order
// as upstream's (each product rounded; no fused multiply-add in either build below).
template <typename T>
inline __attribute__((always_inline)) void FloatPixelImpl(const T* p00, const T* p10,
                                                          const T* p01, const T* p11, float wy0,
                                                          float wy1, float wx0, float wx1,
                                                          int depth, T* out) {
  for (int c = 0; c < depth; ++c) {
    out[c] = static_cast<T>(p00[c] * wy0 * wx0 + p10[c] * wy1 * wx0 + p01[c] * wy0 * wx1 +
                            p11[c] * wy1 * wx1);
  }
}

// One output pixel's channels, 10-bit fixed point (ResizeBilinearInteger). Acc int32 for
// 8-bit inputs (|v| * 2^20 <= 2^27 fits), int64 for int16; (v +- 2^19) / 2^20 truncated,
// as the reference's int64 arithmetic.
template <typename Acc, typename T>
inline __attribute__((always_inline)) void IntegerPixelImpl(const T* p00, const T* p10,
                                                            const T* p01, const T* p11, Acc w00,
                                                            Acc w10, Acc w01, Acc w11, int depth,
                                                            T* out) {
  for (int c = 0; c < depth; ++c) {
    const Acc v = static_cast<Acc>(p00[c]) * w00 + static_cast<Acc>(p10[c]) * w10 +
                  static_cast<Acc>(p01[c]) * w01 + static_cast<Acc>(p11[c]) * w11;
    const Acc round = v > 0 ? Acc{1 << 19} : -Acc{1 << 19};
    out[c] = static_cast<T>((v + round) / (Acc{1} << 20));
  }
}

// One output row, separably: the two input rows weighted by wy0 / wy1 once for every
// input column (`vrow`, in_w x depth sums), then each output pixel's two columns of it
// weighted by wx0 / wx1. The same integer v as IntegerPixelImpl's four products,
// regrouped (wx0 (p00 wy0 + p10 wy1) + wx1 (p01 wy0 + p11 wy1); exact, no rounding
// before the last step), so the same bits; both loops run over contiguous values and
// vectorize, where the per-pixel loop of a few channels did not (deeplab's 33x33 -> 257x257
// upsampling of 21 channels was half of its int8 model's time).
template <typename Acc, typename T>
inline __attribute__((always_inline)) void IntegerRowImpl(const T* __restrict r0,
                                                          const T* __restrict r1, Acc wy0, Acc wy1,
                                                          int in_w, int depth, const int32_t* x0s,
                                                          const int32_t* x1s, const int32_t* wx1s,
                                                          int out_w, Acc* __restrict vrow,
                                                          T* __restrict out) {
  const size_t n = static_cast<size_t>(in_w) * depth;
  for (size_t i = 0; i < n; ++i) vrow[i] = static_cast<Acc>(r0[i]) * wy0 + static_cast<Acc>(r1[i]) * wy1;
  for (int x = 0; x < out_w; ++x) {
    const Acc* __restrict a = vrow + static_cast<size_t>(x0s[x]) * depth;
    const Acc* __restrict b = vrow + static_cast<size_t>(x1s[x]) * depth;
    const Acc wx1 = wx1s[x], wx0 = (1 << 10) - wx1;
    T* __restrict o = out + static_cast<size_t>(x) * depth;
    for (int c = 0; c < depth; ++c) {
      const Acc v = a[c] * wx0 + b[c] * wx1;
      const Acc round = v > 0 ? Acc{1 << 19} : -Acc{1 << 19};
      o[c] = static_cast<T>((v + round) / (Acc{1} << 20));
    }
  }
}

template <typename T>
void FloatPixel(const T* p00, const T* p10, const T* p01, const T* p11, float wy0, float wy1,
                float wx0, float wx1, int depth, T* out) {
  FloatPixelImpl(p00, p10, p01, p11, wy0, wy1, wx0, wx1, depth, out);
}
template <typename Acc, typename T>
void IntegerPixel(const T* p00, const T* p10, const T* p01, const T* p11, Acc w00, Acc w10,
                  Acc w01, Acc w11, int depth, T* out) {
  IntegerPixelImpl(p00, p10, p01, p11, w00, w10, w01, w11, depth, out);
}
template <typename Acc, typename T>
void IntegerRow(const T* r0, const T* r1, Acc wy0, Acc wy1, int in_w, int depth,
                const int32_t* x0s, const int32_t* x1s, const int32_t* wx1s, int out_w, Acc* vrow,
                T* out) {
  IntegerRowImpl(r0, r1, wy0, wy1, in_w, depth, x0s, x1s, wx1s, out_w, vrow, out);
}

#if defined(__x86_64__) || defined(__i386__)
// The same loops with 256-bit vectors ("avx2" without "fma": products stay rounded).
template <typename T>
__attribute__((target("avx2"))) void FloatPixelAvx2(const T* p00, const T* p10, const T* p01,
                                                    const T* p11, float wy0, float wy1,
                                                    float wx0, float wx1, int depth, T* out) {
  FloatPixelImpl(p00, p10, p01, p11, wy0, wy1, wx0, wx1, depth, out);
}
template <typename Acc, typename T>
__attribute__((target("avx2"))) void IntegerPixelAvx2(const T* p00, const T* p10, const T* p01,
                                                      const T* p11, Acc w00, Acc w10, Acc w01,
                                                      Acc w11, int depth, T* out) {
  IntegerPixelImpl(p00, p10, p01, p11, w00, w10, w01, w11, depth, out);
}
// int8 on AVX-512: the horizontal step 16 channels at a time under a mask (a pixel of 21
// channels is two steps, where the compiler's loop took 8 + 8 + 4 + 1), the rounding and
// the truncating division by 2^20 as integer operations: (v + sign(v) 2^19) / 2^20.
__attribute__((target("avx512f"))) void IntegerRowAvx512(const int8_t* r0, const int8_t* r1,
                                                         int32_t wy0, int32_t wy1, int in_w,
                                                         int depth, const int32_t* x0s,
                                                         const int32_t* x1s, const int32_t* wx1s,
                                                         int out_w, int32_t* vrow, int8_t* out) {
  const size_t n = static_cast<size_t>(in_w) * depth;
  for (size_t i = 0; i < n; ++i) vrow[i] = static_cast<int32_t>(r0[i]) * wy0 + static_cast<int32_t>(r1[i]) * wy1;
  const __m512i half = _mm512_set1_epi32(1 << 19), low = _mm512_set1_epi32((1 << 20) - 1);
  for (int x = 0; x < out_w; ++x) {
    const int32_t* a = vrow + static_cast<size_t>(x0s[x]) * depth;
    const int32_t* b = vrow + static_cast<size_t>(x1s[x]) * depth;
    const __m512i w1 = _mm512_set1_epi32(wx1s[x]), w0 = _mm512_set1_epi32((1 << 10) - wx1s[x]);
    int8_t* o = out + static_cast<size_t>(x) * depth;
    for (int c = 0; c < depth; c += 16) {
      const __mmask16 m = depth - c >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (depth - c)) - 1);
      const __m512i v = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_maskz_loadu_epi32(m, a + c), w0),
                                         _mm512_mullo_epi32(_mm512_maskz_loadu_epi32(m, b + c), w1));
      const __m512i neg = _mm512_srai_epi32(v, 31);  // -1 where v < 0 (v = 0 rounds to 0 either way)
      const __m512i t = _mm512_add_epi32(v, _mm512_sub_epi32(_mm512_xor_si512(half, neg), neg));
      const __m512i q = _mm512_srai_epi32(
          _mm512_add_epi32(t, _mm512_and_si512(_mm512_srai_epi32(t, 31), low)), 20);
      _mm512_mask_cvtepi32_storeu_epi8(o + c, m, q);
    }
  }
}

template <typename Acc, typename T>
__attribute__((target("avx2"))) void IntegerRowAvx2(const T* r0, const T* r1, Acc wy0, Acc wy1,
                                                    int in_w, int depth, const int32_t* x0s,
                                                    const int32_t* x1s, const int32_t* wx1s,
                                                    int out_w, Acc* vrow, T* out) {
  IntegerRowImpl(r0, r1, wy0, wy1, in_w, depth, x0s, x1s, wx1s, out_w, vrow, out);
}
#endif

template <typename T>
auto SelectFloatPixel() {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx2()) return &FloatPixelAvx2<T>;
#endif
  return &FloatPixel<T>;
}
template <typename Acc, typename T>
auto SelectIntegerPixel() {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx2()) return &IntegerPixelAvx2<Acc, T>;
#endif
  return &IntegerPixel<Acc, T>;
}

template <typename Acc, typename T>
auto SelectIntegerRow() {
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (std::is_same_v<T, int8_t>) {
    if (gemm::CpuHasAvx512F()) return &IntegerRowAvx512;
  }
  if (gemm::CpuHasAvx2()) return &IntegerRowAvx2<Acc, T>;
#endif
  return &IntegerRow<Acc, T>;
}

template <typename T>
void ResizeFloat(pthreadpool* pool, const TfLiteResizeBilinearParams& p, const Dims& d, const T* in,
                 T* out) {
  float height_scale = static_cast<float>(d.in_h) / d.out_h;
  float width_scale = static_cast<float>(d.in_w) / d.out_w;
  if (p.align_corners && d.out_h > 1) {
    height_scale = static_cast<float>(d.in_h - 1) / (d.out_h - 1);
  }
  if (p.align_corners && d.out_w > 1) {
    width_scale = static_cast<float>(d.in_w - 1) / (d.out_w - 1);
  }
  // The columns' source pixels and weights, once (the same for every row).
  std::vector<int> x0s(d.out_w), x1s(d.out_w);
  std::vector<float> wx1s(d.out_w);
  for (int x = 0; x < d.out_w; ++x) {
    float ix;
    InterpolationFloat(x, width_scale, p.half_pixel_centers, d.in_w, &ix, &x0s[x], &x1s[x]);
    wx1s[x] = ix - x0s[x];
  }
  const auto pixel = SelectFloatPixel<T>();
  const double work = static_cast<double>(d.batches) * d.out_h * d.out_w * d.depth * 4;
  parallel::ParallelFor(pool, static_cast<size_t>(d.batches) * d.out_h, work, [&](size_t row) {
    const int b = static_cast<int>(row / d.out_h);
    const int y = static_cast<int>(row % d.out_h);
    float iy;
    int y0, y1;
    InterpolationFloat(y, height_scale, p.half_pixel_centers, d.in_h, &iy, &y0, &y1);
    const float wy1 = iy - y0, wy0 = 1 - wy1;
    for (int x = 0; x < d.out_w; ++x) {
      const int x0 = x0s[x], x1 = x1s[x];
      const float wx1 = wx1s[x];
      pixel(in + d.In(b, y0, x0, 0), in + d.In(b, y1, x0, 0), in + d.In(b, y0, x1, 0),
            in + d.In(b, y1, x1, 0), wy0, wy1, 1 - wx1, wx1, d.depth, out + d.Out(b, y, x, 0));
    }
  });
}

void InterpolationInt(int32_t value, int32_t scale_10, bool half_pixel_centers, int32_t input_size,
                      int32_t* scaled, int32_t* lower, int32_t* upper) {
  *scaled = half_pixel_centers ? value * scale_10 + scale_10 / 2 - (1 << 9) : value * scale_10;
  *lower = std::max(*scaled / (1 << 10), 0);
  *upper = std::min((*scaled + (1 << 10) - 1) / (1 << 10), input_size - 1);
}

template <typename T>
void ResizeInteger(pthreadpool* pool, const TfLiteResizeBilinearParams& p, const Dims& d,
                   const T* in, T* out) {
  // 8-bit sums fit int32; int16's need int64 (as the reference's).
  using Acc = std::conditional_t<sizeof(T) == 1, int32_t, int64_t>;
  int32_t height_scale_10 = ((1 << 10) * d.in_h + d.out_h / 2) / d.out_h;
  int32_t width_scale_10 = ((1 << 10) * d.in_w + d.out_w / 2) / d.out_w;
  if (p.align_corners && d.out_h > 1) {
    height_scale_10 = ((1 << 10) * (d.in_h - 1) + (d.out_h - 1) / 2) / (d.out_h - 1);
  }
  if (p.align_corners && d.out_w > 1) {
    width_scale_10 = ((1 << 10) * (d.in_w - 1) + (d.out_w - 1) / 2) / (d.out_w - 1);
  }
  std::vector<int32_t> x0s(d.out_w), x1s(d.out_w), wx1s(d.out_w);
  for (int x = 0; x < d.out_w; ++x) {
    int32_t ix;
    InterpolationInt(x, width_scale_10, p.half_pixel_centers, d.in_w, &ix, &x0s[x], &x1s[x]);
    wx1s[x] = ix - (1 << 10) * x0s[x];
  }
  const auto pixel = SelectIntegerPixel<Acc, T>();
  const auto row_fn = SelectIntegerRow<Acc, T>();
  // Separably where the input is not much wider than the output (upsampling: every input
  // column is read), else pixel by pixel.
  const bool separable = d.in_w <= 2 * d.out_w;
  const double work = static_cast<double>(d.batches) * d.out_h * d.out_w * d.depth * 4;
  parallel::ParallelFor(pool, static_cast<size_t>(d.batches) * d.out_h, work, [&](size_t row) {
    const int b = static_cast<int>(row / d.out_h);
    const int y = static_cast<int>(row % d.out_h);
    int32_t iy, y0, y1;
    InterpolationInt(y, height_scale_10, p.half_pixel_centers, d.in_h, &iy, &y0, &y1);
    const Acc wy1 = iy - (1 << 10) * y0;
    const Acc wy0 = (1 << 10) - wy1;
    if (separable) {
      thread_local std::vector<Acc> vrow;
      vrow.resize(static_cast<size_t>(d.in_w) * d.depth);
      row_fn(in + d.In(b, y0, 0, 0), in + d.In(b, y1, 0, 0), wy0, wy1, d.in_w, d.depth,
             x0s.data(), x1s.data(), wx1s.data(), d.out_w, vrow.data(), out + d.Out(b, y, 0, 0));
      return;
    }
    for (int x = 0; x < d.out_w; ++x) {
      const int32_t x0 = x0s[x], x1 = x1s[x];
      const Acc wx1 = wx1s[x];
      const Acc wx0 = (1 << 10) - wx1;
      pixel(in + d.In(b, y0, x0, 0), in + d.In(b, y1, x0, 0), in + d.In(b, y0, x1, 0),
            in + d.In(b, y1, x1, 0), wy0 * wx0, wy1 * wx0, wy0 * wx1, wy1 * wx1, d.depth,
            out + d.Out(b, y, x, 0));
    }
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* size = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context,
                      resize::ResizeOutput(context, "RESIZE_BILINEAR", input, size, output));
  }
  Dims d{input->dims->data[0], input->dims->data[1],  input->dims->data[2],
         input->dims->data[3], output->dims->data[1], output->dims->data[2]};
  if (NumElements(input) == 0 || NumElements(output) == 0) return kTfLiteOk;
  pthreadpool* pool = parallel::ThreadPool(context);
  switch (input->type) {
    case kTfLiteFloat32:
      ResizeFloat(pool, params, d, input->data.f, output->data.f);
      return kTfLiteOk;
    case kTfLiteUInt8:
      ResizeFloat(pool, params, d, input->data.uint8, output->data.uint8);
      return kTfLiteOk;
    case kTfLiteInt8:
      ResizeInteger(pool, params, d, input->data.int8, output->data.int8);
      return kTfLiteOk;
    case kTfLiteInt16:
      ResizeInteger(pool, params, d, input->data.i16, output->data.i16);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace resize_bilinear

TfLiteRegistration* Register_RESIZE_BILINEAR() {
  static TfLiteRegistration r = {nullptr, nullptr, resize_bilinear::Prepare, resize_bilinear::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
