// SHAPE: the input's dimensions as a 1-D int32 or int64 tensor (ShapeOptions.out_type),
// as TFLite's shape.cc. v1; any input type. As in TFLite the output is computed in Prepare
// into a persistent read-only tensor: the input's shape is known then even when its data
// is not, so the shape arithmetic after it folds at prepare and RESHAPE gets a static
// output (which static-shape delegates need).
#include <cstdint>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace shape {
namespace {

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node);

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const auto* params = static_cast<const TfLiteShapeParams*>(node->builtin_data);
  if (params != nullptr) TF_LITE_ENSURE_TYPES_EQ(context, output->type, params->out_type);
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, output->type, {kTfLiteInt32, kTfLiteInt64}));
  SetTensorToPersistentRo(output);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(1);
  shape->data[0] = NumDimensions(input);
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, shape));
  return Eval(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (output->data.raw == nullptr) return kTfLiteOk;  // nothing to write (zero dims)
  for (int i = 0; i < NumDimensions(input); ++i) {
    if (output->type == kTfLiteInt64) {
      output->data.i64[i] = input->dims->data[i];
    } else {
      output->data.i32[i] = input->dims->data[i];
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace shape

TfLiteRegistration* Register_SHAPE() {
  static TfLiteRegistration r = {nullptr, nullptr, shape::Prepare, shape::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
