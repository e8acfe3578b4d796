// REDUCE_MAX: maximum over the axes given by an int32 tensor, as TFLite's reduce.cc (reference
// ReduceGeneric, kernels/internal/reduce.h; the output starts at
// numeric_limits::lowest()). v1 float32/int32/int64/uint8, v2 int8, v3 int16; quantized
// inputs share the output's scale and zero point.
#include <cstdint>
#include <limits>

#include "kernels/internal/reduce.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace reduce_max {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Prepare(
      context, node,
      {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16});
}

template <typename T>
TfLiteStatus Run(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Reduce<T>(context, node, std::numeric_limits<T>::lowest(), reduce::Max{});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteFloat32:
      return Run<float>(context, node);
    case kTfLiteInt32:
      return Run<int32_t>(context, node);
    case kTfLiteInt64:
      return Run<int64_t>(context, node);
    case kTfLiteUInt8:
      return Run<uint8_t>(context, node);
    case kTfLiteInt8:
      return Run<int8_t>(context, node);
    default:
      return Run<int16_t>(context, node);
  }
}

}  // namespace
}  // namespace reduce_max

TfLiteRegistration* Register_REDUCE_MAX() {
  static TfLiteRegistration r = {nullptr, nullptr, reduce_max::Prepare, reduce_max::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
