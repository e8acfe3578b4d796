// LOGICAL_NOT: elementwise !x of a bool tensor, as TFLite's logical.cc. v1.
#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace logical_not {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type, {kTfLiteBool}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteBool);
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int64_t n = NumElements(input);
  for (int64_t i = 0; i < n; ++i) output->data.b[i] = !input->data.b[i];
  return kTfLiteOk;
}

}  // namespace
}  // namespace logical_not

TfLiteRegistration* Register_LOGICAL_NOT() {
  static TfLiteRegistration r = {nullptr, nullptr, logical_not::Prepare, logical_not::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
