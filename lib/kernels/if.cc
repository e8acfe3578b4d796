// IF (v1): runs the then- or else-subgraph on the node's inputs after the first (a bool
// scalar condition), as TFLite's kernels/if.cc: inputs are copied into the chosen
// subgraph (resized and re-allocated when their shapes changed), it is invoked, and its
// outputs are copied to the node's outputs. The outputs are dynamic when a branch's
// outputs are or when the branches' output shapes differ.
// Not supported: string, resource and variant tensors across the boundary.
#include <vector>

#include "kernels/internal/control_flow.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace if_kernel {
namespace {

TfLiteStatus Branches(TfLiteContext* context, TfLiteNode* node, Subgraph* branches[2]) {
  const auto* params = static_cast<const TfLiteIfParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_OK(context, control_flow::GetSubgraph(context, params->then_subgraph_index,
                                                       "IF then", &branches[0]));
  return control_flow::GetSubgraph(context, params->else_subgraph_index, "IF else", &branches[1]);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, node->inputs->size > 0);
  const TfLiteTensor* cond;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &cond));
  TF_LITE_ENSURE_TYPES_EQ(context, cond->type, kTfLiteBool);
  TF_LITE_ENSURE_EQ(context, NumElements(cond), 1);
  Subgraph* branches[2];
  TF_LITE_ENSURE_OK(context, Branches(context, node, branches));
  std::vector<control_flow::TensorValue> shapes;
  TF_LITE_ENSURE_OK(context, control_flow::SnapshotNode(context, node->inputs, 1, &shapes));
  bool dynamic = false;
  for (Subgraph* sg : branches) {
    TF_LITE_ENSURE_OK(
        context, control_flow::CheckTypes(context, node->inputs, 1, sg, sg->inputs(), "IF input"));
    TF_LITE_ENSURE_OK(context, control_flow::CheckTypes(context, node->outputs, 0, sg,
                                                        sg->outputs(), "IF output"));
    TF_LITE_ENSURE_OK(context, control_flow::SetInputs(context, sg, shapes, /*copy=*/false));
    for (int o : sg->outputs()) dynamic = dynamic || IsDynamicTensor(sg->tensor(o));
  }
  for (size_t i = 0; i < branches[0]->outputs().size() && !dynamic; ++i) {
    dynamic = !TfLiteIntArrayEqual(branches[0]->tensor(branches[0]->outputs()[i])->dims,
                                   branches[1]->tensor(branches[1]->outputs()[i])->dims);
  }
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, i, &output));
    if (dynamic) {
      SetTensorToDynamic(output);
    } else {
      TfLiteIntArray* dims =
          TfLiteIntArrayCopy(branches[0]->tensor(branches[0]->outputs()[i])->dims);
      TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, dims));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* cond = GetInput(context, node, 0);
  Subgraph* branches[2];
  TF_LITE_ENSURE_OK(context, Branches(context, node, branches));
  Subgraph* active = cond->data.b[0] ? branches[0] : branches[1];
  std::vector<control_flow::TensorValue> values;
  TF_LITE_ENSURE_OK(context, control_flow::SnapshotNode(context, node->inputs, 1, &values));
  TF_LITE_ENSURE_OK(context, control_flow::SetInputs(context, active, values));
  TF_LITE_ENSURE_OK(context, active->Invoke());
  control_flow::SnapshotAll(active, active->outputs(), &values);
  return control_flow::SetNodeTensors(context, node->outputs, values);
}

}  // namespace
}  // namespace if_kernel

TfLiteRegistration* Register_IF() {
  static TfLiteRegistration r = {nullptr, nullptr, if_kernel::Prepare, if_kernel::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
