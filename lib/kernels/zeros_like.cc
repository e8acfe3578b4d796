// ZEROS_LIKE: zeros of the input's shape and type (int32, int64, float32), as TFLite's
// zeros_like.cc. v1.
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace zeros_like {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteInt32, kTfLiteInt64, kTfLiteFloat32}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = GetOutput(context, node, 0);
  // All-zero bits are 0 for these integer types and +0.0f for float.
  if (output->bytes > 0) std::memset(output->data.raw, 0, output->bytes);
  return kTfLiteOk;
}

}  // namespace
}  // namespace zeros_like

TfLiteRegistration* Register_ZEROS_LIKE() {
  static TfLiteRegistration r = {nullptr, nullptr, zeros_like::Prepare, zeros_like::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
