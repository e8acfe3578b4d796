// MAX_POOL_2D (NHWC): float32, uint8, int8 and int16 (same quantization in and out,
// as the converter produces; the max is taken on the quantized values).
#include <algorithm>
#include <limits>

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

template <typename T>
void MaxPoolQuantized(pthreadpool* pool, const TfLitePoolParams& params,
                      const pooling::PoolData& data, const TfLiteTensor* input,
                      TfLiteTensor* output) {
  pooling::PoolLoop<T, T>(
      pool, params, data, input, output, std::numeric_limits<T>::lowest(),
      [](T acc, T v) { return std::max(acc, v); },
      [&data](T acc, int) {
        int32_t v = std::max<int32_t>(acc, data.act_min);
        return static_cast<T>(std::min<int32_t>(v, data.act_max));
      });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLitePoolParams*>(node->builtin_data);
  const auto& data = *static_cast<const pooling::PoolData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  pthreadpool* pool = parallel::ThreadPool(context);
  switch (input->type) {
    case kTfLiteFloat32:
      pooling::PoolLoop<float, float>(
          pool, params, data, input, output, std::numeric_limits<float>::lowest(),
          [](float acc, float v) { return std::max(acc, v); },
          [&data](float acc, int) {
            return std::min(std::max(acc, data.float_min), data.float_max);
          });
      return kTfLiteOk;
    case kTfLiteUInt8:
      MaxPoolQuantized<uint8_t>(pool, params, data, input, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      MaxPoolQuantized<int8_t>(pool, params, data, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      MaxPoolQuantized<int16_t>(pool, params, data, input, output);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace max_pool_2d

TfLiteRegistration* Register_MAX_POOL_2D() {
  static TfLiteRegistration r = {pooling::Init, pooling::Free, max_pool_2d::Prepare,
                                 max_pool_2d::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
