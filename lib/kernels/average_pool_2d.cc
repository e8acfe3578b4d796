// AVERAGE_POOL_2D (NHWC): float32, uint8, int8 and int16. Padded positions are not
// counted. Quantized averages round half away from zero, bit-exact with TFLite's
// reference kernels (see lib/kernels/internal/pooling.h).
#include <algorithm>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/pooling.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace average_pool_2d {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return pooling::Prepare(context, node, "AVERAGE_POOL_2D");
}

// Float: the window's values added in (fy, fx) order, divided by the count of unpadded
// positions, clamped (TFLite's builtin kernels' operations, element by element).
struct FloatAdd {
  __attribute__((always_inline)) float operator()(float acc, float v) const { return acc + v; }
};
struct FloatAverage {
  float lo, hi;
  __attribute__((always_inline)) void operator()(const float* __restrict total, int depth,
                                                 int count, float* __restrict out) const {
    const float n = static_cast<float>(count);
    for (int c = 0; c < depth; ++c) out[c] = std::min(std::max(total[c] / n, lo), hi);
  }
};

void FloatRow(const TfLitePoolParams& params, const pooling::PoolData& data,
              const TfLiteTensor* input, TfLiteTensor* output, size_t row) {
  pooling::PoolRow<float, float>(params, data, input, output, 0.f, FloatAdd{},
                                 FloatAverage{data.float_min, data.float_max}, row);
}
#if defined(__x86_64__) || defined(__i386__)
// The same rows on 16 lanes, 64 channels at a time in registers (each lane's operations
// as above: 0 + the window's values in (fy, fx) order, / count, max with lo, min with hi;
// so the same bits): in dynamic-range graphs float AVERAGE_POOL_2D stays on the CPU for
// TFLite's bits, where the baseline's 4 lanes took 12% of a dynamic-range Inception V3,
// and accumulators in memory (a load and a store per tap) 3.7% on AVX-512.
// std::min(std::max(total / n, lo), hi): max(lo, v) and min(hi, v) keep v where it is NaN
// and -0 against a bound of +0, as the comparisons there do.
__attribute__((target("avx512f"), always_inline)) inline __m512 AverageOf(__m512 total, __m512 n,
                                                                         __m512 lo, __m512 hi) {
  return _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_div_ps(total, n)));
}
__attribute__((target("avx512f"))) void FloatRowAvx512(const TfLitePoolParams& params,
                                                       const pooling::PoolData& data,
                                                       const TfLiteTensor* input,
                                                       TfLiteTensor* output, size_t row) {
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  const int depth = input->dims->data[3];
  const int out_h = output->dims->data[1], out_w = output->dims->data[2];
  const int b = static_cast<int>(row / out_h), oy = static_cast<int>(row % out_h);
  const int y0 = oy * params.stride_height - data.pad_height;
  const int fy_start = std::max(0, -y0), fy_end = std::min(params.filter_height, in_h - y0);
  const __m512 lo = _mm512_set1_ps(data.float_min), hi = _mm512_set1_ps(data.float_max);
  auto mask = [](int left) {
    return left >= 16 ? static_cast<__mmask16>(0xFFFF)
                      : static_cast<__mmask16>(left > 0 ? (1u << left) - 1 : 0u);
  };
  for (int ox = 0; ox < out_w; ++ox) {
    const int x0 = ox * params.stride_width - data.pad_width;
    const int fx_start = std::max(0, -x0), fx_end = std::min(params.filter_width, in_w - x0);
    const int count = std::max(0, fy_end - fy_start) * std::max(0, fx_end - fx_start);
    const __m512 n = _mm512_set1_ps(static_cast<float>(count));
    float* o = output->data.f + ((static_cast<int64_t>(b) * out_h + oy) * out_w + ox) * depth;
    for (int c = 0; c < depth; c += 64) {
      const __mmask16 m0 = mask(depth - c), m1 = mask(depth - c - 16), m2 = mask(depth - c - 32),
                      m3 = mask(depth - c - 48);
      __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
      for (int fy = fy_start; fy < fy_end; ++fy) {
        for (int fx = fx_start; fx < fx_end; ++fx) {
          const float* px =
              input->data.f + ((static_cast<int64_t>(b) * in_h + y0 + fy) * in_w + x0 + fx) * depth + c;
          a0 = _mm512_add_ps(a0, _mm512_maskz_loadu_ps(m0, px));
          a1 = _mm512_add_ps(a1, _mm512_maskz_loadu_ps(m1, px + 16));
          a2 = _mm512_add_ps(a2, _mm512_maskz_loadu_ps(m2, px + 32));
          a3 = _mm512_add_ps(a3, _mm512_maskz_loadu_ps(m3, px + 48));
        }
      }
      _mm512_mask_storeu_ps(o + c, m0, AverageOf(a0, n, lo, hi));
      _mm512_mask_storeu_ps(o + c + 16, m1, AverageOf(a1, n, lo, hi));
      _mm512_mask_storeu_ps(o + c + 32, m2, AverageOf(a2, n, lo, hi));
      _mm512_mask_storeu_ps(o + c + 48, m3, AverageOf(a3, n, lo, hi));
    }
  }
}
#endif

// Sum, then divide by the count of unpadded positions (float), or round half away from
// zero (quantized), then the activation clamp.
struct AveragePool {
  template <typename T>
  static void Run(pthreadpool* pool, const TfLitePoolParams& params, const pooling::PoolData& data,
                  const TfLiteTensor* input, TfLiteTensor* output) {
    if constexpr (std::is_same_v<T, float>) {
      auto* row_fn = FloatRow;
#if defined(__x86_64__) || defined(__i386__)
      if (gemm::CpuHasAvx512F()) row_fn = FloatRowAvx512;
#endif
      parallel::ParallelFor(pool, pooling::PoolRows(input, output),
                            pooling::PoolWork(params, output),
                            [&](size_t row) { row_fn(params, data, input, output, row); });
    } else {
      pooling::PoolLoop<T, int32_t>(
          pool, params, data, input, output, 0, [](int32_t acc, T v) { return acc + v; },
          [&data](const int32_t* acc, int depth, int count, T* out) {
            pooling::RoundedAverageRow(acc, depth, count, data.act_min, data.act_max, out);
          });
    }
  }
};

}  // namespace
}  // namespace average_pool_2d

TfLiteRegistration* Register_AVERAGE_POOL_2D() {
  static TfLiteRegistration r = {pooling::Init, pooling::Free, average_pool_2d::Prepare,
                                 pooling::Eval<average_pool_2d::AveragePool>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
