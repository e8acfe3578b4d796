// BITWISE_XOR: a ^ b with broadcasting, as TFLite's bitwise_xor.cc: int8, int16, int32,
// uint8, uint16, uint32 (v1); both inputs and the output of one type (other types pass
// Prepare and fail Eval, as in TFLite: binary_math::EvalSmallIntegers).
#include <cstdint>

#include "kernels/internal/binary_math.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace bitwise_xor {
namespace {

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::EvalSmallIntegers(
      context, node, "BitwiseXor", [](auto a, auto b) { return static_cast<decltype(a)>(a ^ b); });
}

}  // namespace
}  // namespace bitwise_xor

TfLiteRegistration* Register_BITWISE_XOR() {
  static TfLiteRegistration r = {nullptr, nullptr, binary_math::PrepareAnyType, bitwise_xor::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
