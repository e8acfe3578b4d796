// SELECT: out = condition ? x : y (condition of x's shape, a scalar, or 1-D over rows), as
// TFLite's select.cc (kernels/internal/select.h). v1, v2 int8, v3 rank 5, v4 uint32.
#include "kernels/internal/select.h"

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace select {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return select_op::Prepare(context, node, /*broadcast=*/false);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return select_op::Eval(context, node, /*broadcast=*/false);
}

}  // namespace
}  // namespace select

TfLiteRegistration* Register_SELECT() {
  static TfLiteRegistration r = {nullptr, nullptr, select::Prepare, select::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
