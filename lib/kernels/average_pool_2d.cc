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
          [&data](float total, int count) {
            const float average = total / static_cast<float>(count);
            return std::min(std::max(average, data.float_min), data.float_max);
          });
    } else {
      pooling::PoolLoop<T, int32_t>(
          pool, params, data, input, output, 0, [](int32_t acc, T v) { return acc + v; },
          [&data](int32_t acc, int count) {
            // count >= 1 for SAME and VALID padding; the guard only keeps a bad model
            // from dividing by zero.
            if (count == 0) return static_cast<T>(0);
            acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
            acc = std::min(std::max(acc, data.act_min), data.act_max);
            return static_cast<T>(acc);
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
