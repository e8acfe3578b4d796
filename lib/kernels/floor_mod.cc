// FLOOR_MOD: a mod b with the sign of b, with broadcasting, as TFLite's floor_mod.cc
// (truncated std::modulus / std::fmod, then + b when the signs differ). int32, int64,
// float32 (v1); an integer zero divisor fails Eval with "Division by 0". Not
// supported: int8/int16 (v2).
#include <cmath>
#include <cstdint>

#include "kernels/internal/binary_math.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace floor_mod {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::Prepare(context, node, {kTfLiteInt32, kTfLiteInt64, kTfLiteFloat32});
}

template <typename T>
T FloorMod(T a, T b) {
  // INT_MIN % -1 overflows in C++; its true remainder is 0.
  const T trunc_mod = b == -1 ? T(0) : a % b;
  return (trunc_mod != 0) && ((b < 0) != (trunc_mod < 0)) ? trunc_mod + b : trunc_mod;
}

float FloorModFloat(float a, float b) {
  const float trunc_mod = std::fmod(a, b);
  return (trunc_mod != 0) && ((b < 0) != (trunc_mod < 0)) ? trunc_mod + b : trunc_mod;
}

template <typename T>
TfLiteStatus EvalInt(TfLiteContext* context, TfLiteNode* node) {
  if (binary_math::AnyInSecond<T>(context, node, [](T b) { return b == 0; })) {
    TF_LITE_KERNEL_LOG(context, "Division by 0");
    return kTfLiteError;
  }
  return binary_math::Broadcast<T>(context, node, FloorMod<T>);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteInt32:
      return EvalInt<int32_t>(context, node);
    case kTfLiteInt64:
      return EvalInt<int64_t>(context, node);
    default:
      return binary_math::Broadcast<float>(context, node, FloorModFloat);
  }
}

}  // namespace
}  // namespace floor_mod

TfLiteRegistration* Register_FLOOR_MOD() {
  static TfLiteRegistration r = {nullptr, nullptr, floor_mod::Prepare, floor_mod::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
