// READ_VARIABLE (v1): the value of the resource variable its input names, as TFLite's
// kernels/read_variable.cc: a dynamic output of the variable's shape; the output's type
// must be the variable's. A variable never assigned is an error.
#include <cstring>

#include "kernels/internal/resource_id.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/experimental/resource/resource_variable.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace read_variable {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, node->inputs->size, 1);
  TF_LITE_ENSURE_EQ(context, node->outputs->size, 1);
  const TfLiteTensor* id;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &id));
  TF_LITE_ENSURE_OK(context, resource_id::Check(context, id));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  int id;
  TF_LITE_ENSURE_OK(context, resource_id::Read(context, GetInput(context, node, 0), &id));
  auto* variable =
      resource::GetResourceVariable(&static_cast<Subgraph*>(context->impl_)->resources(), id);
  TF_LITE_ENSURE(context, variable != nullptr);
  const TfLiteTensor* value = variable->GetTensor();
  TF_LITE_ENSURE(context, value != nullptr);
  TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_TYPES_EQ(context, value->type, output->type);
  TF_LITE_ENSURE_OK(context,
                    context->ResizeTensor(context, output, TfLiteIntArrayCopy(value->dims)));
  TF_LITE_ENSURE(context, output->bytes == value->bytes);
  if (value->bytes > 0) std::memcpy(output->data.raw, value->data.raw_const, value->bytes);
  return kTfLiteOk;
}

}  // namespace
}  // namespace read_variable

TfLiteRegistration* Register_READ_VARIABLE() {
  static TfLiteRegistration r = {nullptr, nullptr, read_variable::Prepare, read_variable::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
