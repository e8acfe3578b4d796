// SPLIT: inputs (axis: int32 scalar, input); num_splits equal outputs along axis, as
// TFLite's split.cc. v1 float32/uint8, v2 int8, v3 int32, v4 int16. With a non-constant
// axis the outputs are dynamic and sized in Eval.
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace split {
namespace {

TfLiteStatus ResizeOutputs(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* axis,
                           const TfLiteTensor* input, int num_splits) {
  TF_LITE_ENSURE_EQ(context, NumElements(axis), 1);
  int a = 0;
  TF_LITE_ENSURE_OK(
      context, shape_util::NormalizeAxis(context, axis->data.i32[0], NumDimensions(input), &a));
  const int size = SizeOfDimension(input, a);
  TF_LITE_ENSURE_MSG(context, size % num_splits == 0, "Not an even split");
  for (int i = 0; i < NumOutputs(node); ++i) {
    TfLiteIntArray* shape = TfLiteIntArrayCopy(input->dims);
    shape->data[a] = size / num_splits;
    TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, GetOutput(context, node, i), shape));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSplitParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE(context, params->num_splits >= 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), params->num_splits);
  const TfLiteTensor* axis;
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &axis));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt16, kTfLiteInt32}));
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  for (int i = 0; i < NumOutputs(node); ++i) {
    TfLiteTensor* out;
    TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, i, &out));
    TF_LITE_ENSURE_TYPES_EQ(context, out->type, input->type);
  }
  if (!IsConstantOrPersistentTensor(axis)) {
    for (int i = 0; i < NumOutputs(node); ++i) SetTensorToDynamic(GetOutput(context, node, i));
    return kTfLiteOk;
  }
  return ResizeOutputs(context, node, axis, input, params->num_splits);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSplitParams*>(node->builtin_data);
  const TfLiteTensor* axis = GetInput(context, node, 0);
  const TfLiteTensor* input = GetInput(context, node, 1);
  if (IsDynamicTensor(GetOutput(context, node, 0))) {
    TF_LITE_ENSURE_OK(context, ResizeOutputs(context, node, axis, input, params->num_splits));
  }
  int a = 0;
  TF_LITE_ENSURE_OK(
      context, shape_util::NormalizeAxis(context, axis->data.i32[0], NumDimensions(input), &a));
  const int64_t outer = shape_util::Product(input->dims, 0, a);
  const size_t chunk =
      static_cast<size_t>(shape_util::Product(input->dims, a, NumDimensions(input)) /
                          params->num_splits) *
      shape_util::ElementBytes(input->type);
  const char* in = input->data.raw_const;
  for (int64_t o = 0; o < outer; ++o) {
    for (int i = 0; i < params->num_splits; ++i) {
      std::memcpy(GetOutput(context, node, i)->data.raw + o * chunk, in, chunk);
      in += chunk;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace split

TfLiteRegistration* Register_SPLIT() {
  static TfLiteRegistration r = {nullptr, nullptr, split::Prepare, split::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
