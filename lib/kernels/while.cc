// WHILE (v1): loop variables (the node's inputs) go through the cond subgraph (one bool
// scalar output) and, while it is true, through the body subgraph, whose outputs become
// the next values; the final values are the node's outputs. As TFLite's kernels/while.cc,
// values are copied between subgraphs, which are resized and re-allocated when the body
// changes shapes; the node's outputs are then dynamic.
// Not supported: string, resource and variant loop variables.
#include <cstdint>
#include <vector>

#include "kernels/internal/control_flow.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace while_kernel {
namespace {

TfLiteStatus Subgraphs(TfLiteContext* context, TfLiteNode* node, Subgraph** cond, Subgraph** body) {
  const auto* params = static_cast<const TfLiteWhileParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_OK(
      context, control_flow::GetSubgraph(context, params->cond_subgraph_index, "WHILE cond", cond));
  return control_flow::GetSubgraph(context, params->body_subgraph_index, "WHILE body", body);
}

// after_invoke: the output's shape is final (a dynamic one included), and its one
// element is about to be read.
TfLiteStatus CheckCondOutput(TfLiteContext* context, Subgraph* cond, bool after_invoke = false) {
  TF_LITE_ENSURE_EQ(context, cond->outputs().size(), 1);
  const TfLiteTensor* t = cond->tensor(cond->outputs()[0]);
  TF_LITE_ENSURE(context, t != nullptr);
  TF_LITE_ENSURE_TYPES_EQ(context, t->type, kTfLiteBool);
  if (after_invoke || !IsDynamicTensor(t)) TF_LITE_ENSURE_EQ(context, NumElements(t), 1);
  if (after_invoke) TF_LITE_ENSURE(context, t->data.raw != nullptr);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, node->inputs->size, node->outputs->size);
  Subgraph *cond, *body;
  TF_LITE_ENSURE_OK(context, Subgraphs(context, node, &cond, &body));
  TF_LITE_ENSURE_OK(context, control_flow::CheckTypes(context, node->inputs, 0, cond,
                                                      cond->inputs(), "WHILE cond input"));
  TF_LITE_ENSURE_OK(context, control_flow::CheckTypes(context, node->inputs, 0, body,
                                                      body->inputs(), "WHILE body input"));
  TF_LITE_ENSURE_OK(context, control_flow::CheckTypes(context, node->outputs, 0, body,
                                                      body->outputs(), "WHILE body output"));
  std::vector<control_flow::TensorValue> shapes;
  TF_LITE_ENSURE_OK(context, control_flow::SnapshotNode(context, node->inputs, 0, &shapes));
  TF_LITE_ENSURE_OK(context, control_flow::SetInputs(context, cond, shapes, /*copy=*/false));
  TF_LITE_ENSURE_OK(context, control_flow::SetInputs(context, body, shapes, /*copy=*/false));
  TF_LITE_ENSURE_OK(context, CheckCondOutput(context, cond));
  bool dynamic = false;
  for (size_t i = 0; i < body->outputs().size(); ++i) {
    const TfLiteTensor* out = body->tensor(body->outputs()[i]);
    dynamic = dynamic || IsDynamicTensor(out) || !control_flow::SameDims(out, shapes[i].dims);
  }
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, i, &output));
    if (dynamic) {
      SetTensorToDynamic(output);
    } else {
      TF_LITE_ENSURE_OK(
          context, context->ResizeTensor(context, output,
                                         TfLiteIntArrayCopy(GetInput(context, node, i)->dims)));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  Subgraph *cond, *body;
  TF_LITE_ENSURE_OK(context, Subgraphs(context, node, &cond, &body));
  std::vector<control_flow::TensorValue> values;
  TF_LITE_ENSURE_OK(context, control_flow::SnapshotNode(context, node->inputs, 0, &values));
  // TFLite has no cap; the tools may set one (Subgraph::SetMaxWhileIterations) so that
  // a crafted loop condition fails instead of spinning forever.
  const Subgraph* self = Subgraph::FromContext(context);
  const int64_t cap = self != nullptr ? self->max_while_iterations() : 0;
  const auto* params = static_cast<const TfLiteWhileParams*>(node->builtin_data);
  // A failure inside the loop (a cancel included: a user interrupting a loop that does
  // not end) names the loop and how far it got.
  auto failed = [&](int64_t iteration, const char* what) {
    TF_LITE_KERNEL_LOG(context, "WHILE (cond subgraph %d, body subgraph %d): %s in iteration %lld",
                       params->cond_subgraph_index, params->body_subgraph_index, what,
                       static_cast<long long>(iteration));
    return kTfLiteError;
  };
  const std::vector<bool> cond_reads = control_flow::ReadInputs(cond);
  const std::vector<bool> body_reads = control_flow::ReadInputs(body);
  // Loop variables the body passes through keep their first value and, in each subgraph
  // that writes them nowhere, their first copy.
  const std::vector<bool> pass = control_flow::PassThrough(body);
  const std::vector<bool> cond_kept = control_flow::KeptInputs(cond, pass);
  control_flow::Placed cond_placed, body_placed;
  for (int64_t iteration = 0;; ++iteration) {
    // Checked here too: cond and body may have no nodes at all.
    if (self != nullptr && self->IsCancelled()) {
      TF_LITE_KERNEL_LOG(context, "Client requested cancel during Invoke()");
      return failed(iteration, "cancelled");
    }
    TF_LITE_ENSURE_OK(context, control_flow::SetInputs(context, cond, values, true, &cond_reads,
                                                       &cond_kept, &cond_placed));
    if (cond->Invoke() != kTfLiteOk) return failed(iteration, "cond failed");
    TF_LITE_ENSURE_OK(context, CheckCondOutput(context, cond, /*after_invoke=*/true));
    if (!cond->tensor(cond->outputs()[0])->data.b[0]) break;
    if (cap > 0 && iteration >= cap) {
      TF_LITE_KERNEL_LOG(context,
                         "WHILE (cond subgraph %d, body subgraph %d): still running after %lld "
                         "iterations, the iteration cap",
                         params->cond_subgraph_index, params->body_subgraph_index,
                         static_cast<long long>(cap));
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context, control_flow::SetInputs(context, body, values, true, &body_reads,
                                                       &pass, &body_placed));
    if (body->Invoke() != kTfLiteOk) return failed(iteration, "body failed");
    control_flow::SnapshotAll(body, body->outputs(), &values, &pass);
  }
  return control_flow::SetNodeTensors(context, node->outputs, values);
}

}  // namespace
}  // namespace while_kernel

TfLiteRegistration* Register_WHILE() {
  static TfLiteRegistration r = {nullptr, nullptr, while_kernel::Prepare, while_kernel::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
