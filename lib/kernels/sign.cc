// SIGN: out = -1, 0 or 1 by the sign of x (NaN stays NaN), as TFLite's sign.cc.
// v1 float32 and float64, v2 int32. TFLite's Prepare takes any type and its
// Eval then fails on the others; they are refused at Prepare here, with
// TFLite's message.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sign {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteFloat64 &&
      input->type != kTfLiteInt32) {
    TF_LITE_KERNEL_LOG(context, "Unsupported datatype for sign output: %s",
                       TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  return unary::Prepare(context, node, {kTfLiteFloat32, kTfLiteFloat64, kTfLiteInt32});
}

template <typename T>
T Sign(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return x;
  }
  if (x > 0) return 1;
  if (x < 0) return -1;
  return 0;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteInt32:
      return unary::Map<int32_t>(context, node, Sign<int32_t>);
    case kTfLiteFloat64:
      return unary::Map<double>(context, node, Sign<double>);
    default:
      return unary::Map<float>(context, node, Sign<float>);
  }
}

}  // namespace
}  // namespace sign

TfLiteRegistration* Register_SIGN() {
  static TfLiteRegistration r = {nullptr, nullptr, sign::Prepare, sign::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
