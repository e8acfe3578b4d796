// POW: a ^ b with broadcasting, as TFLite's pow.cc: float32 via std::pow, int32 via
// std::pow in double truncated to int32; a negative int32 exponent fails Eval. v1.
#include <cmath>
#include <cstdint>

#include "kernels/internal/binary_math.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace pow {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::Prepare(context, node, {kTfLiteInt32, kTfLiteFloat32});
}

// Exact integer power (wrapping like int32 arithmetic): equals the truncated double
// std::pow whenever the result fits in int32.
int32_t IntPow(int32_t base, int32_t exponent) {
  uint32_t result = 1, b = static_cast<uint32_t>(base);
  for (uint32_t e = static_cast<uint32_t>(exponent); e != 0; e >>= 1) {
    if (e & 1u) result *= b;
    b *= b;
  }
  return static_cast<int32_t>(result);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (GetInput(context, node, 0)->type == kTfLiteFloat32) {
    return binary_math::Broadcast<float>(context, node,
                                         [](float a, float b) { return std::pow(a, b); });
  }
  if (binary_math::AnyInSecond<int32_t>(context, node, [](int32_t b) { return b < 0; })) {
    TF_LITE_KERNEL_LOG(context, "POW does not support negative value for int32.");
    return kTfLiteError;
  }
  return binary_math::Broadcast<int32_t>(context, node, IntPow);
}

}  // namespace
}  // namespace pow

TfLiteRegistration* Register_POW() {
  static TfLiteRegistration r = {nullptr, nullptr, pow::Prepare, pow::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
