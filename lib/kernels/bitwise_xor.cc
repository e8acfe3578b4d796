// BITWISE_XOR: a ^ b with broadcasting, as TFLite's bitwise_xor.cc: int8, int16, int32,
// uint8, uint16, uint32 (v1); both inputs and the output of one type.
#include <cstdint>

#include "kernels/internal/binary_math.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace bitwise_xor {
namespace {

// As TFLite's, Prepare takes inputs of any one type (their broadcast shape); Eval refuses
// the non-integer ones, with TFLite's message.
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::Prepare(
      context, node,
      {kTfLiteInt8, kTfLiteInt16, kTfLiteInt32, kTfLiteUInt8, kTfLiteUInt16, kTfLiteUInt32,
       kTfLiteInt64, kTfLiteUInt64, kTfLiteFloat16, kTfLiteFloat32, kTfLiteFloat64, kTfLiteBool});
}

template <typename T>
TfLiteStatus Run(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::Broadcast<T>(context, node, [](T a, T b) { return static_cast<T>(a ^ b); });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteInt8:
      return Run<int8_t>(context, node);
    case kTfLiteInt16:
      return Run<int16_t>(context, node);
    case kTfLiteInt32:
      return Run<int32_t>(context, node);
    case kTfLiteUInt8:
      return Run<uint8_t>(context, node);
    case kTfLiteUInt16:
      return Run<uint16_t>(context, node);
    case kTfLiteUInt32:
      return Run<uint32_t>(context, node);
    default:
      TF_LITE_KERNEL_LOG(context,
                         "BitwiseXor currently only supports 8-bit/16-bit/32-bit integer/unsigned "
                         "integer, got %s",
                         TfLiteTypeGetName(GetInput(context, node, 0)->type));
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace bitwise_xor

TfLiteRegistration* Register_BITWISE_XOR() {
  static TfLiteRegistration r = {nullptr, nullptr, bitwise_xor::Prepare, bitwise_xor::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
