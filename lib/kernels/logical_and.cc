// LOGICAL_AND: elementwise std::logical_and of two bool tensors with broadcasting, as TFLite's
// logical.cc (shared loop in kernels/internal/comparison.h). v1.
#include <functional>

#include "kernels/internal/comparison.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace logical_and {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return comparison::Prepare(context, node, {kTfLiteBool});
}

}  // namespace
}  // namespace logical_and

TfLiteRegistration* Register_LOGICAL_AND() {
  static TfLiteRegistration r = {nullptr, nullptr, logical_and::Prepare,
                                 comparison::Eval<std::logical_and>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
