// RSQRT, as TFLite's elementwise.cc: float32 (v1) 1 / std::sqrt(x); int8 (v2) per element
// v = q - input_zero_point (v < 0 fails Eval, v == 0 gives 127), 1/sqrt(v) from
// GetInvSqrtQuantizedMultiplierExp kept with 20 fraction bits, then rescaled by
// QuantizeMultiplier(1 / double(sqrt(in_scale) * out_scale)) plus the output zero point,
// clamped. Not supported: int16 (v3; TFLite's kernel has none either).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/internal/fixedpoint_transcendental.h"
#include "kernels/internal/unary.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace rsqrt {
namespace {

struct OpData {
  int32_t multiplier = 0;
  int shift = 0;
  int32_t input_offset = 0;
  int32_t output_offset = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, unary::Prepare(context, node, {kTfLiteFloat32, kTfLiteInt8}));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteInt8) return kTfLiteOk;
  TF_LITE_ENSURE_EQ(context, input->quantization.type, kTfLiteAffineQuantization);
  TF_LITE_ENSURE_EQ(context, output->quantization.type, kTfLiteAffineQuantization);
  TF_LITE_ENSURE_MSG(context, input->params.scale > 0 && output->params.scale > 0,
                     "RSQRT: quantized scales must be positive");
  auto* data = static_cast<OpData*>(node->user_data);
  data->input_offset = input->params.zero_point;
  data->output_offset = output->params.zero_point;
  const double scale =
      1. / static_cast<double>(std::sqrt(input->params.scale) * output->params.scale);
  QuantizeMultiplier(scale, &data->multiplier, &data->shift);
  // Eval rescales with shift - 20 (the fraction bits of 1/sqrt): below -31 the rounding
  // shift is undefined (upstream DCHECKs it), so such scales fail here.
  if (data->multiplier != 0 && data->shift - 20 < -31) {
    NoteMultiplierRangeError(scale, "needs a right shift over 31 bits");
  }
  return kTfLiteOk;
}

TfLiteStatus EvalInt8(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const int8_t* in = GetTensorData<int8_t>(input);
  int8_t* out = GetTensorData<int8_t>(GetOutput(context, node, 0));
  constexpr int32_t kShift = 20;  // fraction bits kept for 1/sqrt(v)
  for (int64_t i = 0; i < NumElements(input); ++i) {
    const int32_t value = in[i] - data->input_offset;
    TF_LITE_ENSURE_MSG(context, value >= 0, "Rsqrt is only defined for positive values");
    if (value == 0) {
      out[i] = 127;
      continue;
    }
    int32_t inv_sqrt_multiplier;
    int inv_sqrt_shift;
    fixedpoint_fn::GetInvSqrtQuantizedMultiplierExp(value, kReverseShift, &inv_sqrt_multiplier,
                                                    &inv_sqrt_shift);
    const int32_t inv_sqrt =
        MultiplyByQuantizedMultiplier(1, inv_sqrt_multiplier, inv_sqrt_shift + kShift);
    const int32_t result =
        MultiplyByQuantizedMultiplier(inv_sqrt, data->multiplier, data->shift - kShift) +
        data->output_offset;
    out[i] = static_cast<int8_t>(std::min<int32_t>(std::max<int32_t>(result, -128), 127));
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (GetInput(context, node, 0)->type == kTfLiteInt8) return EvalInt8(context, node);
  return unary::Map<float>(context, node, [](float x) { return 1.f / std::sqrt(x); });
}

}  // namespace
}  // namespace rsqrt

TfLiteRegistration* Register_RSQRT() {
  static TfLiteRegistration r = {rsqrt::Init, rsqrt::Free, rsqrt::Prepare, rsqrt::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
