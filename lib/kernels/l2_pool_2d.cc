// L2_POOL_2D (NHWC): sqrt(sum of squares / count) over each window (padding
// cells not counted), then the fused activation, as TFLite's pooling.cc
// (reference L2Pool). v1: float32 only; TFLite's Prepare takes 8-bit inputs and
// its Eval then refuses them, here they are refused at Prepare with TFLite's
// message.
#include <cmath>

#include "kernels/internal/pooling.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace l2_pool_2d {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %d not currently supported.", input->type);
    return kTfLiteError;
  }
  return pooling::Prepare(context, node, "L2_POOL_2D");
}

struct L2Pool {
  template <typename T>
  static void Run(pthreadpool* pool, const TfLitePoolParams& params, const pooling::PoolData& data,
                  const TfLiteTensor* input, TfLiteTensor* output) {
    pooling::PoolLoop<float, float>(
        pool, params, data, input, output, 0.0f, [](float acc, float v) { return acc + v * v; },
        [&data](const float* sum_squares, int depth, int count, float* out) {
          for (int c = 0; c < depth; ++c) {
            const float l2 = std::sqrt(sum_squares[c] / count);
            out[c] = std::min(std::max(l2, data.float_min), data.float_max);
          }
        });
  }
};

}  // namespace
}  // namespace l2_pool_2d

TfLiteRegistration* Register_L2_POOL_2D() {
  static TfLiteRegistration r = {pooling::Init, pooling::Free, l2_pool_2d::Prepare,
                                 pooling::Eval<l2_pool_2d::L2Pool>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
