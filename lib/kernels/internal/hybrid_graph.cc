#include "kernels/internal/hybrid_graph.h"

#include "tensorflow/lite/builtin_ops.h"

namespace tflite {
namespace hybrid {

bool GraphHasHybridNodes(TfLiteContext* context) {
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan == nullptr || context->GetExecutionPlan(context, &plan) != kTfLiteOk ||
      plan == nullptr) {
    return true;
  }
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk) return true;
    if (node->inputs == nullptr || node->inputs->size < 2 || node->inputs->data[0] < 0 ||
        context->tensors[node->inputs->data[0]].type != kTfLiteFloat32) {
      continue;
    }
    for (int k = 1; k < node->inputs->size; ++k) {
      const int t = node->inputs->data[k];
      if (t >= 0 && (context->tensors[t].type == kTfLiteInt8 || context->tensors[t].type == kTfLiteUInt8) &&
          context->tensors[t].allocation_type == kTfLiteMmapRo) {
        return true;
      }
    }
  }
  return false;
}

bool FeedsQuantize(TfLiteContext* context, int tensor) {
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan == nullptr ||
      context->GetExecutionPlan(context, &plan) != kTfLiteOk || plan == nullptr) {
    return true;
  }
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk)
      return true;
    if (reg->builtin_code == kTfLiteBuiltinQuantize && node->inputs != nullptr &&
        node->inputs->size >= 1 && node->inputs->data[0] == tensor) {
      return true;
    }
  }
  return false;
}

}  // namespace hybrid
}  // namespace tflite
