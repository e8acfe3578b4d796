// CALL_ONCE (v1): invokes its init subgraph (no inputs, no outputs; typically it fills
// resource variables or hash tables) the first time a CALL_ONCE naming it runs, and never
// again in this interpreter, as TFLite's kernels/call_once.cc: signatures whose subgraphs
// each start with a CALL_ONCE of the same init share one initialization.
#include "kernels/internal/control_flow.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace call_once {
namespace {

bool Done(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteCallOnceParams*>(node->builtin_data);
  return params != nullptr && static_cast<Subgraph*>(context->impl_)
                                      ->initialized_subgraphs()
                                      .count(params->init_subgraph_index) != 0;
}

TfLiteStatus InitSubgraph(TfLiteContext* context, TfLiteNode* node, Subgraph** out) {
  const auto* params = static_cast<const TfLiteCallOnceParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  return control_flow::GetSubgraph(context, params->init_subgraph_index, "CALL_ONCE init", out);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  if (Done(context, node)) return kTfLiteOk;
  TF_LITE_ENSURE_EQ(context, node->inputs->size, 0);
  TF_LITE_ENSURE_EQ(context, node->outputs->size, 0);
  Subgraph* init;
  TF_LITE_ENSURE_OK(context, InitSubgraph(context, node, &init));
  TF_LITE_ENSURE_EQ(context, init->inputs().size(), 0);
  TF_LITE_ENSURE_EQ(context, init->outputs().size(), 0);
  return init->AllocateTensors();
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (Done(context, node)) return kTfLiteOk;
  Subgraph* init;
  TF_LITE_ENSURE_OK(context, InitSubgraph(context, node, &init));
  TF_LITE_ENSURE_OK(context, init->AllocateTensors());
  TF_LITE_ENSURE_OK(context, init->Invoke());
  static_cast<Subgraph*>(context->impl_)->initialized_subgraphs().insert(init->index());
  return kTfLiteOk;
}

}  // namespace
}  // namespace call_once

TfLiteRegistration* Register_CALL_ONCE() {
  static TfLiteRegistration r = {nullptr, nullptr, call_once::Prepare, call_once::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
