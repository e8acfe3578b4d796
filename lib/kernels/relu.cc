// RELU, RELU6, RELU_N1_TO_1 and RELU_0_TO_1: clamps of one input to
// [0, inf), [0, 6], [-1, 1] and [0, 1]. float32, and int8 / uint8 (all four)
// and int16 (RELU, RELU6; zero points 0) bit-exact with TFLite
// (activations.cc ReluPrepare's input/output rescale, then QuantizedReluX's
// clamp bounds).
#include <cmath>
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace relu {

struct OpData {
  int32_t output_multiplier = 0;
  int output_shift = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus PrepareCommon(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, elementwise::PrepareUnary(context, node, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteInt16:
      TF_LITE_ENSURE_EQ(context, input->params.zero_point, 0);
      TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
      [[fallthrough]];
    case kTfLiteInt8:
    case kTfLiteUInt8: {
      TF_LITE_ENSURE_MSG(context, input->params.scale > 0 && output->params.scale > 0,
                         "quantized input and output need a positive scale");
      // float / float, then widened: as upstream.
      const double real_multiplier = input->params.scale / output->params.scale;
      QuantizeMultiplier(real_multiplier, &data->output_multiplier, &data->output_shift);
      return kTfLiteOk;
    }
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

template <typename T>
void EvalQuantized(float act_min, float act_max, const OpData& data, const TfLiteTensor* input,
                   TfLiteTensor* output) {
  const float scale = output->params.scale;
  const int32_t zero_point = output->params.zero_point;
  const int32_t qmin =
      std::max<int32_t>(std::numeric_limits<T>::min(),
                        zero_point + static_cast<int32_t>(std::roundf(act_min / scale)));
  const int32_t qmax =
      act_max == std::numeric_limits<float>::infinity()
          ? static_cast<int32_t>(std::numeric_limits<T>::max())
          : std::min<int32_t>(std::numeric_limits<T>::max(),
                              zero_point + static_cast<int32_t>(std::roundf(act_max / scale)));
  const int32_t input_offset = input->params.zero_point;
  auto relu = [&](T x) {
    int32_t v = zero_point + MultiplyByQuantizedMultiplier(static_cast<int32_t>(x) - input_offset,
                                                           data.output_multiplier, data.output_shift);
    return static_cast<T>(std::min(qmax, std::max(qmin, v)));
  };
  elementwise::QuantizedUnaryMap<T>(input, output, relu);
}

// int16 is accepted by RELU and RELU6 only, as upstream.
template <bool kInt16>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareCommon(context, node));
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  if (!kInt16 && input->type == kTfLiteInt16) {
    return elementwise::UnsupportedType(context, input->type);
  }
  return kTfLiteOk;
}

template <int kMin, int kMax>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  // kMax < 0 means no upper bound (RELU).
  const float act_min = static_cast<float>(kMin);
  const float act_max =
      kMax < 0 ? std::numeric_limits<float>::infinity() : static_cast<float>(kMax);
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      elementwise::UnaryMap(
          GetTensorData<float>(input), GetTensorData<float>(output), NumElements(input),
          [act_min, act_max](float x) { return std::min(std::max(x, act_min), act_max); });
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantized<int8_t>(act_min, act_max, data, input, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(act_min, act_max, data, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalQuantized<int16_t>(act_min, act_max, data, input, output);
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace relu

TfLiteRegistration* Register_RELU() {
  static TfLiteRegistration r = {relu::Init, relu::Free, relu::Prepare<true>, relu::Eval<0, -1>};
  return &r;
}

TfLiteRegistration* Register_RELU6() {
  static TfLiteRegistration r = {relu::Init, relu::Free, relu::Prepare<true>, relu::Eval<0, 6>};
  return &r;
}

TfLiteRegistration* Register_RELU_N1_TO_1() {
  static TfLiteRegistration r = {relu::Init, relu::Free, relu::Prepare<false>, relu::Eval<-1, 1>};
  return &r;
}

TfLiteRegistration* Register_RELU_0_TO_1() {
  static TfLiteRegistration r = {relu::Init, relu::Free, relu::Prepare<false>, relu::Eval<0, 1>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
