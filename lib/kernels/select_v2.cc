// SELECT_V2: out = condition ? x : y with NumPy broadcasting of all three inputs, as
// TFLite's select.cc (kernels/internal/select.h). v1, v2 uint32.
#include "kernels/internal/select.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace select_v2 {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return select_op::Prepare(context, node, /*broadcast=*/true);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return select_op::Eval(context, node, /*broadcast=*/true);
}

}  // namespace
}  // namespace select_v2

TfLiteRegistration* Register_SELECT_V2() {
  static TfLiteRegistration r = {nullptr, nullptr, select_v2::Prepare, select_v2::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
