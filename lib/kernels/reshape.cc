// RESHAPE (any element type, strings too): same data, new shape. The shape comes
// from the second input (a 1-D int32 tensor) when present, else from
// ReshapeOptions.new_shape; one -1 is inferred.
#include <cstring>
#include <limits>

#include "kernels/internal/string_tensor.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace reshape {
namespace {

constexpr int kInputTensor = 0;
constexpr int kShapeTensor = 1;
constexpr int kOutputTensor = 0;

bool ShapeIsVector(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* shape = GetInput(context, node, kShapeTensor);
  return shape != nullptr && shape->dims->size == 1 && shape->type == kTfLiteInt32;
}

// Caller owns the result; nullptr if neither the tensor nor the options give a shape.
TfLiteIntArray* GetOutputShape(TfLiteContext* context, TfLiteNode* node) {
  if (NumInputs(node) == 2 && ShapeIsVector(context, node)) {
    const TfLiteTensor* shape = GetInput(context, node, kShapeTensor);
    TfLiteIntArray* out = TfLiteIntArrayCreate(shape->dims->data[0]);
    for (int i = 0; i < out->size; ++i) out->data[i] = shape->data.i32[i];
    return out;
  }
  const auto* params = reinterpret_cast<const TfLiteReshapeParams*>(node->builtin_data);
  if (params == nullptr) return nullptr;
  int num_dimensions = params->num_dimensions;
  if (num_dimensions < 0 || num_dimensions > TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT) {
    return nullptr;
  }
  // Legacy models write [0] for a scalar.
  if (num_dimensions == 1 && params->shape[0] == 0) num_dimensions = 0;
  TfLiteIntArray* out = TfLiteIntArrayCreate(num_dimensions);
  for (int i = 0; i < num_dimensions; ++i) out->data[i] = params->shape[i];
  return out;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInputTensor, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutputTensor, &output));
  TfLiteIntArray* output_shape = GetOutputShape(context, node);
  if (output_shape == nullptr) {
    TF_LITE_KERNEL_LOG(context, "RESHAPE has neither a shape tensor nor new_shape options.");
    return kTfLiteError;
  }
  const int64_t num_input_elements = NumElements(input);
  int64_t num_output_elements = 1;
  int stretch_dim = -1;
  for (int i = 0; i < output_shape->size; ++i) {
    const int value = output_shape->data[i];
    if (value == -1) {
      if (stretch_dim != -1) {
        TfLiteIntArrayFree(output_shape);
        TF_LITE_KERNEL_LOG(context, "RESHAPE: more than one -1 in the new shape.");
        return kTfLiteError;
      }
      stretch_dim = i;
    } else if (value < 0) {
      TfLiteIntArrayFree(output_shape);
      TF_LITE_KERNEL_LOG(context, "RESHAPE: negative dimension %d in the new shape.", value);
      return kTfLiteError;
    } else {
      if (value > 0 && num_output_elements > std::numeric_limits<int64_t>::max() / value) {
        TfLiteIntArrayFree(output_shape);
        TF_LITE_KERNEL_LOG(context, "RESHAPE: the new shape's element count overflows.");
        return kTfLiteError;
      }
      num_output_elements *= value;
    }
  }
  if (stretch_dim != -1) {
    if (num_output_elements == 0) {
      output_shape->data[stretch_dim] = 0;
    } else {
      output_shape->data[stretch_dim] = static_cast<int>(num_input_elements / num_output_elements);
      num_output_elements *= output_shape->data[stretch_dim];
    }
  }
  if (num_input_elements != num_output_elements) {
    TF_LITE_KERNEL_LOG(context,
                       "RESHAPE: cannot reshape %lld elements into shape %s "
                       "(element counts differ).",
                       static_cast<long long>(num_input_elements),
                       GetShapeDebugString(output_shape).c_str());
    TfLiteIntArrayFree(output_shape);
    return kTfLiteError;
  }
  return context->ResizeTensor(context, output, output_shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, NumInputs(node) == 1 || NumInputs(node) == 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInputTensor, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutputTensor, &output));
  if (input->type != kTfLiteString && TfLiteTypeGetSize(input->type) == 0) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, output->type);
  const TfLiteTensor* shape = GetInput(context, node, kShapeTensor);
  const bool shape_known = NumInputs(node) == 1 || shape == nullptr ||
                           !ShapeIsVector(context, node) || IsConstantOrPersistentTensor(shape);
  if (shape_known) return ResizeOutput(context, node);
  SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInputTensor, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutputTensor, &output));
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, node));
  if (input->type == kTfLiteString) return string_tensor::Copy(context, input, output);
  TF_LITE_ENSURE_EQ(context, input->bytes, output->bytes);
  if (output->data.raw != input->data.raw && input->bytes > 0) {
    std::memcpy(output->data.raw, input->data.raw, input->bytes);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace reshape

TfLiteRegistration* Register_RESHAPE() {
  static TfLiteRegistration r = {nullptr, nullptr, reshape::Prepare, reshape::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
