// ABS, as TFLite's elementwise.cc: float32 (v1); int8 (v2) and quantized int16 (v3, zero
// points 0) as |q - input_zero_point|, rescaled by QuantizeMultiplier(float(in_scale /
// out_scale)) when the scales differ, plus the output zero point, clamped; non-quantized
// int16 (v4, wraps at -32768) and int32 (v5) as plain |x|. uint8 is not supported (nor
// is it by TFLite's kernel).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace abs {
namespace {

struct OpData {
  int32_t multiplier = 0;
  int shift = 0;
  int32_t input_offset = 0;
  int32_t output_offset = 0;
  bool needs_rescale = false;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

bool IsQuantized(const TfLiteTensor* t) {
  return t->type == kTfLiteInt8 ||
         (t->type == kTfLiteInt16 && t->quantization.type != kTfLiteNoQuantization);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(
      context,
      unary::Prepare(context, node, {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16, kTfLiteInt32}));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!IsQuantized(input)) return kTfLiteOk;
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_EQ(context, input->quantization.type, kTfLiteAffineQuantization);
  TF_LITE_ENSURE_EQ(context, output->quantization.type, kTfLiteAffineQuantization);
  data->input_offset = input->params.zero_point;
  data->output_offset = output->params.zero_point;
  if (input->type == kTfLiteInt16) {
    TF_LITE_ENSURE_EQ(context, data->input_offset, 0);
    TF_LITE_ENSURE_EQ(context, data->output_offset, 0);
  }
  data->needs_rescale = input->params.scale != output->params.scale;
  if (data->needs_rescale) {
    TF_LITE_ENSURE_MSG(context, input->params.scale > 0 && output->params.scale > 0,
                       "ABS: quantized scales must be positive");
    QuantizeMultiplier(static_cast<double>(input->params.scale / output->params.scale),
                       &data->multiplier, &data->shift);
  }
  return kTfLiteOk;
}

template <typename T>
TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return unary::Map<T>(context, node, [data, lo, hi](T q) {
    const int32_t value = std::abs(static_cast<int32_t>(q) - data->input_offset);
    const int32_t out = data->needs_rescale
                            ? MultiplyByQuantizedMultiplier(value, data->multiplier, data->shift) +
                                  data->output_offset
                            : value + data->output_offset;
    return static_cast<T>(std::min(std::max(out, lo), hi));
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  switch (input->type) {
    case kTfLiteInt8:
      return EvalQuantized<int8_t>(context, node);
    case kTfLiteInt16:
      if (IsQuantized(input)) return EvalQuantized<int16_t>(context, node);
      return unary::Map<int16_t>(context, node, [](int16_t x) {
        return static_cast<int16_t>(std::abs(static_cast<int32_t>(x)));
      });
    case kTfLiteInt32:
      // Wraps for INT32_MIN as two's complement negation does.
      return unary::Map<int32_t>(context, node, [](int32_t x) {
        return x < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(x)) : x;
      });
    default:
      return unary::Map<float>(context, node, [](float x) { return std::fabs(x); });
  }
}

}  // namespace
}  // namespace abs

TfLiteRegistration* Register_ABS() {
  static TfLiteRegistration r = {abs::Init, abs::Free, abs::Prepare, abs::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
