// REDUCE_ALL: logical AND of a bool tensor over the axes given by an int32
// tensor, as TFLite's reduce.cc (reference ReduceGeneric from true;
// kernels/internal/reduce.h). v1: bool input and output (TFLite's
// PrepareAllOrAny requires bool).
#include "kernels/internal/reduce.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace reduce_all {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Prepare(context, node, {kTfLiteBool});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Reduce<bool>(context, node, true, [](bool a, bool b) { return a && b; });
}

}  // namespace
}  // namespace reduce_all

TfLiteRegistration* Register_REDUCE_ALL() {
  static TfLiteRegistration r = {nullptr, nullptr, reduce_all::Prepare, reduce_all::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
