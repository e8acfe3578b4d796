// LOGICAL_OR: elementwise std::logical_or of two bool tensors with broadcasting, as TFLite's
// logical.cc (shared loop in kernels/internal/comparison.h). v1.
#include <functional>

#include "kernels/internal/comparison.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace logical_or {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return comparison::Prepare(context, node, {kTfLiteBool});
}

}  // namespace
}  // namespace logical_or

TfLiteRegistration* Register_LOGICAL_OR() {
  static TfLiteRegistration r = {nullptr, nullptr, logical_or::Prepare,
                                 comparison::Eval<std::logical_or>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
