// NEG: out = -x for float32, int32 and int64 (v1), as TFLite's neg.cc
// (kernels/internal/unary.h).
#include <cstdint>
#include <type_traits>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace neg {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return unary::Prepare(context, node, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64});
}

template <typename T>
T Negate(T x) {
  // Two's complement wrap for the most negative integer (no signed overflow).
  using U = typename std::make_unsigned<T>::type;
  return static_cast<T>(U(0) - static_cast<U>(x));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteInt32:
      return unary::Map<int32_t>(context, node, Negate<int32_t>);
    case kTfLiteInt64:
      return unary::Map<int64_t>(context, node, Negate<int64_t>);
    default:
      return unary::Map<float>(context, node, [](float x) { return -x; });
  }
}

}  // namespace
}  // namespace neg

TfLiteRegistration* Register_NEG() {
  static TfLiteRegistration r = {nullptr, nullptr, neg::Prepare, neg::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
