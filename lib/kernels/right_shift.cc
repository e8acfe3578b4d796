// RIGHT_SHIFT: a >> b with broadcasting, as TFLite's right_shift.cc: int8, int16, int32,
// uint8, uint16, uint32 (v1), both inputs and the output of one type (other types pass
// Prepare and fail Eval, as in TFLite: binary_math::EvalSmallIntegers); the shift is
// clamped to [0, bits - 1] (no undefined shifts), and signed values shift arithmetically.
#include <cstdint>

#include "kernels/internal/binary_math.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace right_shift {
namespace {

template <typename T>
T RightShift(T a, T b) {
  constexpr int kMaxShift = static_cast<int>(sizeof(T)) * 8 - 1;
  const int shift = b < 0 ? 0 : (b > kMaxShift ? kMaxShift : static_cast<int>(b));
  return static_cast<T>(a >> shift);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return binary_math::EvalSmallIntegers(context, node, "RightShift",
                                        [](auto a, auto b) { return RightShift(a, b); });
}

}  // namespace
}  // namespace right_shift

TfLiteRegistration* Register_RIGHT_SHIFT() {
  static TfLiteRegistration r = {nullptr, nullptr, binary_math::PrepareAnyType, right_shift::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
