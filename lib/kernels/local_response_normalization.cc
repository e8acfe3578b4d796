// LOCAL_RESPONSE_NORMALIZATION: over the last axis of a 4-D float32 tensor,
// out[c] = in[c] * pow(bias + alpha * sum(in[k]^2), -beta), k in [c - radius, c
// + radius) clipped to the depth, as TFLite's reference
// LocalResponseNormalization (its window ends before c + radius, unlike
// TensorFlow's; the sum in float, the power in double). v1: float32.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace local_response_normalization {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, node->builtin_data != nullptr);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_EQ(context, NumDimensions(input), 4);
  return unary::Prepare(context, node, {kTfLiteFloat32});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteLocalResponseNormParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int depth = input->dims->data[3];
  if (depth == 0) return kTfLiteOk;
  const int64_t outer = NumElements(input) / depth;
  const float* in = GetTensorData<float>(input);
  float* out = GetTensorData<float>(output);
  for (int64_t i = 0; i < outer; ++i) {
    const float* row = in + i * depth;
    for (int c = 0; c < depth; ++c) {
      // int64 bounds: a radius near INT_MAX must not overflow.
      const int64_t begin = std::max<int64_t>(0, static_cast<int64_t>(c) - params.radius);
      const int64_t end = std::min<int64_t>(depth, static_cast<int64_t>(c) + params.radius);
      float accum = 0.f;
      for (int64_t k = begin; k < end; ++k) accum += row[k] * row[k];
      // TFLite's LocalResponseNormalizationParams hold bias, alpha and beta as
      // double: the power is taken in double and rounded to float once.
      const float multiplier = static_cast<float>(
          std::pow(static_cast<double>(params.bias) + static_cast<double>(params.alpha) * accum,
                   -static_cast<double>(params.beta)));
      out[i * depth + c] = row[c] * multiplier;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace local_response_normalization

TfLiteRegistration* Register_LOCAL_RESPONSE_NORMALIZATION() {
  static TfLiteRegistration r = {nullptr, nullptr, local_response_normalization::Prepare,
                                 local_response_normalization::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
