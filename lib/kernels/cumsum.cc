// CUMSUM: running sum along `axis` (int32 scalar), optionally exclusive and/or reversed,
// as TFLite's cumsum.cc: sequential accumulation in the element type. float32, int32,
// int64. v1.
#include <cstdint>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace cumsum {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, node->builtin_data != nullptr);
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &axis));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE_EQ(context, NumElements(axis), 1);
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

template <typename T>
void CumSum(const TfLiteTensor* input, int axis, bool exclusive, bool reverse,
            TfLiteTensor* output) {
  const T* in = GetTensorData<T>(input);
  T* out = GetTensorData<T>(output);
  const int64_t outer = shape_util::Product(input->dims, 0, axis);
  const int64_t inner = shape_util::Product(input->dims, axis + 1, NumDimensions(input));
  const int size = SizeOfDimension(input, axis);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      T acc = 0;
      for (int j = 0; j < size; ++j) {
        const int i = reverse ? size - 1 - j : j;
        const int64_t at = (o * size + i) * inner + k;
        if (exclusive) {
          out[at] = acc;
          acc += in[at];
        } else {
          acc += in[at];
          out[at] = acc;
        }
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteCumsumParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis_t = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  int axis = 0;
  TF_LITE_ENSURE_OK(context, shape_util::NormalizeAxis(context, axis_t->data.i32[0],
                                                       NumDimensions(input), &axis));
  switch (input->type) {
    case kTfLiteFloat32:
      CumSum<float>(input, axis, params->exclusive, params->reverse, output);
      break;
    case kTfLiteInt32:
      CumSum<int32_t>(input, axis, params->exclusive, params->reverse, output);
      break;
    default:
      CumSum<int64_t>(input, axis, params->exclusive, params->reverse, output);
      break;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace cumsum

TfLiteRegistration* Register_CUMSUM() {
  static TfLiteRegistration r = {nullptr, nullptr, cumsum::Prepare, cumsum::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
