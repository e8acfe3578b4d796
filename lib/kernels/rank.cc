// RANK: the input's number of dimensions as an int32 scalar, as TFLite's
// rank.cc. v1; any input type. Like SHAPE, the value is written at Prepare into
// a persistent read-only tensor (the input's rank is known then even when its
// data is not), so what follows it can fold at Prepare.
#include <cstdint>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace rank {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteInt32);
  SetTensorToPersistentRo(output);
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, TfLiteIntArrayCreate(0)));
  if (output->data.i32 != nullptr) output->data.i32[0] = NumDimensions(input);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext*, TfLiteNode*) { return kTfLiteOk; }

}  // namespace
}  // namespace rank

TfLiteRegistration* Register_RANK() {
  static TfLiteRegistration r = {nullptr, nullptr, rank::Prepare, rank::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
