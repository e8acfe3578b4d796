// EXPAND_DIMS: inserts a size-1 dimension at `axis` (second input, int32 or int64
// scalar; negative counts from the end of the output shape). Any element type,
// strings too.
#include <cstring>

#include "kernels/internal/string_tensor.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace expand_dims {
namespace {

constexpr int kInput = 0;
constexpr int kAxis = 1;
constexpr int kOutput = 0;

TfLiteStatus GetAxisValue(TfLiteContext* context, const TfLiteTensor* axis, int* value) {
  TF_LITE_ENSURE_EQ(context, NumElements(axis), 1);
  switch (axis->type) {
    case kTfLiteInt32:
      *value = *axis->data.i32;
      return kTfLiteOk;
    case kTfLiteInt64:
      *value = static_cast<int>(*axis->data.i64);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "Axis type %s (%d) not supported.", TfLiteTypeGetName(axis->type),
                         axis->type);
      return kTfLiteError;
  }
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input, int axis,
                          TfLiteTensor* output) {
  const TfLiteIntArray* in = input->dims;
  const int original_axis = axis;
  if (axis < 0) axis = in->size + 1 + axis;
  if (axis < 0 || axis > in->size) {
    TF_LITE_KERNEL_LOG(context,
                       "EXPAND_DIMS: axis %d out of range for a %d-D input "
                       "(expected [%d, %d]).",
                       original_axis, in->size, -in->size - 1, in->size);
    return kTfLiteError;
  }
  TfLiteIntArray* out = TfLiteIntArrayCreate(in->size + 1);
  for (int i = 0; i < out->size; ++i) {
    out->data[i] = i < axis ? in->data[i] : i == axis ? 1 : in->data[i - 1];
  }
  return context->ResizeTensor(context, output, out);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInput, &input));
  const TfLiteTensor* axis;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kAxis, &axis));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutput, &output));
  if (input->type != kTfLiteString && TfLiteTypeGetSize(input->type) == 0) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, output->type);
  if (IsConstantOrPersistentTensor(axis)) {
    int axis_value;
    TF_LITE_ENSURE_OK(context, GetAxisValue(context, axis, &axis_value));
    return ResizeOutput(context, input, axis_value, output);
  }
  SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInput, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutput, &output));
  if (IsDynamicTensor(output)) {
    const TfLiteTensor* axis;
    TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kAxis, &axis));
    int axis_value;
    TF_LITE_ENSURE_OK(context, GetAxisValue(context, axis, &axis_value));
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, input, axis_value, output));
  }
  if (input->type == kTfLiteString) return string_tensor::Copy(context, input, output);
  TF_LITE_ENSURE_EQ(context, input->bytes, output->bytes);
  if (output->data.raw != input->data.raw && input->bytes > 0) {
    std::memcpy(output->data.raw, input->data.raw, input->bytes);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace expand_dims

TfLiteRegistration* Register_EXPAND_DIMS() {
  static TfLiteRegistration r = {nullptr, nullptr, expand_dims::Prepare, expand_dims::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
