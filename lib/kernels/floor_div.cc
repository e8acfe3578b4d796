// FLOOR_DIV: floor(a / b) with broadcasting, as TFLite's floor_div.cc: int32 (v1) and
// float32 (v2) both via std::floor(double(a) / double(b)); a zero divisor (also in float)
// fails Eval with "Division by 0". Not supported: int8/int16 (v3).
#include <cmath>
#include <cstdint>

#include "kernels/internal/binary_math.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace floor_div {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::Prepare(context, node, {kTfLiteInt32, kTfLiteFloat32});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const bool is_float = GetInput(context, node, 0)->type == kTfLiteFloat32;
  // TFLite rejects a zero divisor for float too.
  const bool zero =
      is_float ? binary_math::AnyInSecond<float>(context, node, [](float b) { return b == 0; })
               : binary_math::AnyInSecond<int32_t>(context, node, [](int32_t b) { return b == 0; });
  if (zero) {
    TF_LITE_KERNEL_LOG(context, "Division by 0");
    return kTfLiteError;
  }
  if (is_float) {
    return binary_math::Broadcast<float>(context, node, [](float a, float b) {
      return static_cast<float>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
    });
  }
  return binary_math::Broadcast<int32_t>(context, node, [](int32_t a, int32_t b) {
    return static_cast<int32_t>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
  });
}

}  // namespace
}  // namespace floor_div

TfLiteRegistration* Register_FLOOR_DIV() {
  static TfLiteRegistration r = {nullptr, nullptr, floor_div::Prepare, floor_div::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
