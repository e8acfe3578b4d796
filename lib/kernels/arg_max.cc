// ARG_MAX: index of the first maximum along an axis, as TFLite's arg_min_max.cc
// (kernels/internal/arg_min_max.h). v1 float32/uint8/int32/int64, v2 int8, v3 bool.
#include <functional>

#include "kernels/internal/arg_min_max.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace arg_max {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteArgMaxParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  return arg_min_max::Prepare(context, node, params->output_type);
}

}  // namespace
}  // namespace arg_max

TfLiteRegistration* Register_ARG_MAX() {
  static TfLiteRegistration r = {nullptr, nullptr, arg_max::Prepare,
                                 arg_min_max::Eval<std::greater>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
