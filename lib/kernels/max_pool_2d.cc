// MAX_POOL_2D (NHWC): float32, uint8, int8 and int16 (same quantization in and out,
// as the converter produces; the max is taken on the quantized values).
#include <algorithm>
#include <limits>
#include <type_traits>

#include "kernels/internal/pooling.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace max_pool_2d {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return pooling::Prepare(context, node, "MAX_POOL_2D");
}

// The max of the raw values, then the activation clamp (float or quantized range).
struct MaxPool {
  template <typename T>
  static void Run(pthreadpool* pool, const TfLitePoolParams& params, const pooling::PoolData& data,
                  const TfLiteTensor* input, TfLiteTensor* output) {
    const auto max = [](T acc, T v) { return std::max(acc, v); };
    if constexpr (std::is_same_v<T, float>) {
      pooling::PoolLoop<float, float>(
          pool, params, data, input, output, std::numeric_limits<float>::lowest(), max,
          [&data](const float* acc, int depth, int, float* out) {
            const float lo = data.float_min, hi = data.float_max;
            for (int c = 0; c < depth; ++c) out[c] = std::min(std::max(acc[c], lo), hi);
          });
    } else {
      pooling::PoolLoop<T, T>(pool, params, data, input, output, std::numeric_limits<T>::lowest(),
                              max, [&data](const T* acc, int depth, int, T* out) {
                                const int32_t lo = data.act_min, hi = data.act_max;
                                for (int c = 0; c < depth; ++c) {
                                  const int32_t v = std::max<int32_t>(acc[c], lo);
                                  out[c] = static_cast<T>(std::min<int32_t>(v, hi));
                                }
                              });
    }
  }
};

}  // namespace
}  // namespace max_pool_2d

TfLiteRegistration* Register_MAX_POOL_2D() {
  static TfLiteRegistration r = {pooling::Init, pooling::Free, max_pool_2d::Prepare,
                                 pooling::Eval<max_pool_2d::MaxPool>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
