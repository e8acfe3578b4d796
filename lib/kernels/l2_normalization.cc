// L2_NORMALIZATION over the last dimension: out = x / max(sqrt(sum(x^2)), 1e-6), as
// TFLite's reference L2Normalization. v1: float32 and uint8; v2: int8. Quantized
// outputs have TFLite's fixed scale 1/128 (zero point 128 for uint8, 0 for int8) and
// are bit-exact with reference_ops / reference_integer_ops::L2Normalization (1/sqrt
// by GetInvSqrtQuantizedMultiplierExp). Like TFLite, the fused activation must be NONE
// and the rank at most 4.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/internal/fixedpoint_transcendental.h"
#include "kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace l2_normalization {
namespace {

constexpr float kEpsilon = 1e-6f;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const auto* params = static_cast<const TfLiteL2NormParams*>(node->builtin_data);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteUInt8 && input->type != kTfLiteInt8) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  if (output->type == kTfLiteUInt8 || output->type == kTfLiteInt8) {
    TF_LITE_ENSURE_EQ(context, output->params.scale, static_cast<float>(1. / 128.));
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, output->type == kTfLiteUInt8 ? 128 : 0);
  }
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1 && NumDimensions(input) <= 4);
  if (params != nullptr && params->activation != kTfLiteActNone) {
    TF_LITE_KERNEL_LOG(context, "L2_NORMALIZATION: fused activation %d is not supported.",
                       params->activation);
    return kTfLiteError;
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

// One row of 8-bit values; the uint8 and int8 references differ only in the final
// rescale (see the file comment).
template <typename T>
void QuantizedRow(const T* x, int depth, int32_t zero_point, T* y) {
  int32_t acc = 0;
  for (int c = 0; c < depth; ++c) {
    const int32_t d = x[c] - zero_point;
    acc += d * d;
  }
  int32_t multiplier;
  int shift;
  fixedpoint_fn::GetInvSqrtQuantizedMultiplierExp(acc, kReverseShift, &multiplier, &shift);
  for (int c = 0; c < depth; ++c) {
    const int32_t d = x[c] - zero_point;
    int32_t v;
    if (std::is_same<T, uint8_t>::value) {
      v = 128 + MultiplyByQuantizedMultiplierSmallerThanOneExp(128 * d, multiplier, shift);
      v = std::min<int32_t>(255, std::max<int32_t>(0, v));
    } else {
      v = MultiplyByQuantizedMultiplier(d, multiplier, shift + 7);
      v = std::min<int32_t>(127, std::max<int32_t>(-128, v));
    }
    y[c] = static_cast<T>(v);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int depth = input->dims->data[NumDimensions(input) - 1];
  if (depth == 0 || NumElements(input) == 0) return kTfLiteOk;
  const size_t rows = static_cast<size_t>(NumElements(input) / depth);
  const int32_t zp = input->params.zero_point;
  if (input->type == kTfLiteUInt8) {
    for (size_t r = 0; r < rows; ++r) {
      QuantizedRow(input->data.uint8 + r * depth, depth, zp, output->data.uint8 + r * depth);
    }
    return kTfLiteOk;
  }
  if (input->type == kTfLiteInt8) {
    for (size_t r = 0; r < rows; ++r) {
      QuantizedRow(input->data.int8 + r * depth, depth, zp, output->data.int8 + r * depth);
    }
    return kTfLiteOk;
  }
  const float* in = input->data.f;
  float* out = output->data.f;
  parallel::ParallelFor(parallel::ThreadPool(context), rows, static_cast<double>(rows) * depth * 3,
                        [&](size_t r) {
                          const float* x = in + r * depth;
                          float* y = out + r * depth;
                          float squared = 0;
                          for (int c = 0; c < depth; ++c) squared += x[c] * x[c];
                          const float norm = std::max(std::sqrt(squared), kEpsilon);
                          for (int c = 0; c < depth; ++c) y[c] = x[c] / norm;
                        });
  return kTfLiteOk;
}

}  // namespace
}  // namespace l2_normalization

TfLiteRegistration* Register_L2_NORMALIZATION() {
  static TfLiteRegistration r = {nullptr, nullptr, l2_normalization::Prepare,
                                 l2_normalization::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
