// REDUCE_ANY: logical OR of a bool tensor over the axes given by an int32
// tensor, as TFLite's reduce.cc (reference ReduceGeneric from false;
// kernels/internal/reduce.h). v1: bool input and output (TFLite's
// PrepareAllOrAny requires bool).
#include "kernels/internal/reduce.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace reduce_any {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Prepare(context, node, {kTfLiteBool});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Reduce<bool>(context, node, false, [](bool a, bool b) { return a || b; });
}

}  // namespace
}  // namespace reduce_any

TfLiteRegistration* Register_REDUCE_ANY() {
  static TfLiteRegistration r = {nullptr, nullptr, reduce_any::Prepare, reduce_any::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
