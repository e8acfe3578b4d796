// AVERAGE_POOL_2D (NHWC): float32, uint8, int8 and int16. Padded positions are not
// counted. Quantized averages round half away from zero, bit-exact with TFLite's
// reference kernels (see lib/kernels/internal/pooling.h).
#include <algorithm>
#include <type_traits>

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

// Sum, then divide by the count of unpadded positions (float), or round half away from
// zero (quantized), then the activation clamp.
struct AveragePool {
  template <typename T>
  static void Run(pthreadpool* pool, const TfLitePoolParams& params, const pooling::PoolData& data,
                  const TfLiteTensor* input, TfLiteTensor* output) {
    if constexpr (std::is_same_v<T, float>) {
      pooling::PoolLoop<float, float>(
          pool, params, data, input, output, 0.f, [](float acc, float v) { return acc + v; },
          [&data](const float* total, int depth, int count, float* out) {
            const float lo = data.float_min, hi = data.float_max, n = static_cast<float>(count);
            for (int c = 0; c < depth; ++c) out[c] = std::min(std::max(total[c] / n, lo), hi);
          });
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
