// REDUCE_PROD over the axes given by an int32 tensor, as TFLite's reduce.cc (reference
// ReduceGeneric, kernels/internal/reduce.h). float32, int32, int64 (v1); not v2
// (quantized int8/int16).
#include <cstdint>

#include "kernels/internal/reduce.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace reduce_prod {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Prepare(context, node, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64});
}

template <typename T>
T Mul(T a, T b) {
  return a * b;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteFloat32:
      return reduce::Reduce<float>(context, node, 1.f, [](float a, float b) { return Mul(a, b); });
    case kTfLiteInt32:
      return reduce::Reduce<int32_t>(context, node, 1,
                                     [](int32_t a, int32_t b) { return Mul(a, b); });
    default:
      return reduce::Reduce<int64_t>(context, node, 1,
                                     [](int64_t a, int64_t b) { return Mul(a, b); });
  }
}

}  // namespace
}  // namespace reduce_prod

TfLiteRegistration* Register_REDUCE_PROD() {
  static TfLiteRegistration r = {nullptr, nullptr, reduce_prod::Prepare, reduce_prod::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
