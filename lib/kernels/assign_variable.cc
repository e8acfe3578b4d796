// ASSIGN_VARIABLE (v1): stores its value input in the resource variable its first input
// names (created on first assignment), as TFLite's kernels/assign_variable.cc. No
// outputs: the node has a side effect, so the runtime never skips or folds it.
#include "kernels/internal/resource_id.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/experimental/resource/resource_variable.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace assign_variable {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 0);
  const TfLiteTensor* id;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &id));
  TF_LITE_ENSURE_OK(context, resource_id::Check(context, id));
  const TfLiteTensor* value;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &value));
  // A string's bytes are offsets into its own buffer, and resources and variants are
  // handles: a flat copy of them would read back as garbage.
  TF_LITE_ENSURE_MSG(context,
                     value->type != kTfLiteString && value->type != kTfLiteResource &&
                         value->type != kTfLiteVariant,
                     "ASSIGN_VARIABLE: variables of STRING, RESOURCE or VARIANT values are not "
                     "supported");
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  int id;
  TF_LITE_ENSURE_OK(context, resource_id::Read(context, GetInput(context, node, 0), &id));
  auto& resources = static_cast<Subgraph*>(context->impl_)->resources();
  TF_LITE_ENSURE_OK(context, resource::CreateResourceVariableIfNotAvailable(&resources, id));
  auto* variable = resource::GetResourceVariable(&resources, id);
  TF_LITE_ENSURE(context, variable != nullptr);
  TF_LITE_ENSURE_OK(context, variable->AssignFrom(GetInput(context, node, 1)));
  return kTfLiteOk;
}

}  // namespace
}  // namespace assign_variable

TfLiteRegistration* Register_ASSIGN_VARIABLE() {
  static TfLiteRegistration r = {nullptr, nullptr, assign_variable::Prepare, assign_variable::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
