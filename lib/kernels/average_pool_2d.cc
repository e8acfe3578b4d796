// AVERAGE_POOL_2D (NHWC): float32, uint8, int8 and int16. Padded positions are not
// counted. Quantized averages round half away from zero, bit-exact with TFLite's
// reference kernels (see lib/kernels/internal/pooling.h).
#include <algorithm>
#include <type_traits>

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
// The same rows on 16 lanes (each lane's operations as above, so the same bits): in
// dynamic-range graphs float AVERAGE_POOL_2D stays on the CPU for TFLite's bits, where
// the baseline's 4 lanes took 12% of a dynamic-range Inception V3.
__attribute__((target("avx512f"))) void FloatRowAvx512(const TfLitePoolParams& params,
                                                       const pooling::PoolData& data,
                                                       const TfLiteTensor* input,
                                                       TfLiteTensor* output, size_t row) {
  pooling::PoolRow<float, float>(params, data, input, output, 0.f, FloatAdd{},
                                 FloatAverage{data.float_min, data.float_max}, row);
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
