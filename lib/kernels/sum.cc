// SUM over the axes given by an int32 tensor, as TFLite's reduce.cc EvalSum with the
// reference kernels (kernels/internal/reduce.h): float32, int32, int64 and uint8 (v1),
// int8 (v2). 8-bit inputs whose scale and zero point equal the output's are summed in the
// element type (wrapping, as ReduceGeneric does); otherwise as QuantizedMeanOrSum: raw
// values summed in int32, then round(sum * s + bias) + output zero point with
// s = input_scale / output_scale and bias = -input_zero_point * s * count, in float, and
// truncated to the element type without clamping.
#include <cstdint>
#include <vector>

#include "kernels/internal/reduce.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/cppmath.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sum {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return reduce::Prepare(context, node,
                         {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteUInt8, kTfLiteInt8},
                         /*rescales=*/true);
}

template <typename T>
TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->params.scale == output->params.scale &&
      input->params.zero_point == output->params.zero_point) {
    return reduce::Reduce<T>(context, node, T(0), reduce::Add{});
  }
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, reduce::ResizeOutput(context, node));
  const int64_t out_count = NumElements(output);
  T* out = GetTensorData<T>(output);
  for (int64_t j = 0; j < out_count; ++j) out[j] = T(0);
  for (int d = 0; d < NumDimensions(input); ++d) {
    if (SizeOfDimension(input, d) == 0) return kTfLiteOk;
  }
  std::vector<int32_t> sum(out_count);
  auto add = [](int32_t acc, T v) -> int32_t { return acc + v; };
  const TfLiteStatus status = reduce::ReduceInto<T, int32_t>(context, node, sum.data(), 0, add);
  TF_LITE_ENSURE_OK(context, status);
  const size_t count = static_cast<size_t>(out_count == 0 ? 0 : NumElements(input) / out_count);
  const float scale = input->params.scale / output->params.scale;
  const float bias = -input->params.zero_point * scale * count;
  for (int64_t j = 0; j < out_count; ++j) {
    const int32_t value =
        static_cast<int32_t>(TfLiteRound(sum[j] * scale + bias)) + output->params.zero_point;
    out[j] = static_cast<T>(value);
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (GetInput(context, node, 0)->type) {
    case kTfLiteFloat32:
      return reduce::Reduce<float>(context, node, 0.f, reduce::Add{});
    case kTfLiteInt32:
      return reduce::Reduce<int32_t>(context, node, 0, reduce::Add{});
    case kTfLiteUInt8:
      return EvalQuantized<uint8_t>(context, node);
    case kTfLiteInt8:
      return EvalQuantized<int8_t>(context, node);
    default:
      return reduce::Reduce<int64_t>(context, node, 0, reduce::Add{});
  }
}

}  // namespace
}  // namespace sum

TfLiteRegistration* Register_SUM() {
  static TfLiteRegistration r = {nullptr, nullptr, sum::Prepare, sum::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
