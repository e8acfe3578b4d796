// LEAKY_RELU: x > 0 ? x : alpha * x. float32, and int8 / uint8 / int16 (zero
// points 0) bit-exact with TFLite (activations.cc LeakyReluPrepare's identity
// and alpha multipliers, reference QuantizeLeakyRelu).
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace leaky_relu {

struct OpData {
  int32_t output_multiplier_alpha = 0;
  int output_shift_alpha = 0;
  int32_t output_multiplier_identity = 0;
  int output_shift_identity = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

float Alpha(const TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteLeakyReluParams*>(node->builtin_data);
  return params != nullptr ? params->alpha : 0.2f;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
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
      // Float arithmetic, then widened: as upstream.
      const double alpha_multiplier = input->params.scale * Alpha(node) / output->params.scale;
      QuantizeMultiplier(alpha_multiplier, &data->output_multiplier_alpha,
                         &data->output_shift_alpha);
      const double identity_multiplier = input->params.scale / output->params.scale;
      QuantizeMultiplier(identity_multiplier, &data->output_multiplier_identity,
                         &data->output_shift_identity);
      return kTfLiteOk;
    }
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

template <typename T>
void EvalQuantized(const OpData& data, const TfLiteTensor* input, TfLiteTensor* output) {
  const int32_t input_offset = input->params.zero_point;
  const int32_t output_offset = output->params.zero_point;
  elementwise::QuantizedUnaryMap<T>(input, output, [&](T x) {
        const int32_t v = static_cast<int32_t>(x) - input_offset;
        const int32_t out =
            output_offset + (v >= 0
                                 ? MultiplyByQuantizedMultiplier(v, data.output_multiplier_identity,
                                                                 data.output_shift_identity)
                                 : MultiplyByQuantizedMultiplier(v, data.output_multiplier_alpha,
                                                                 data.output_shift_alpha));
        return static_cast<T>(std::min<int32_t>(
            std::numeric_limits<T>::max(), std::max<int32_t>(std::numeric_limits<T>::min(), out)));
      });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteFloat32: {
      const float alpha = Alpha(node);
      elementwise::UnaryMap(GetTensorData<float>(input), GetTensorData<float>(output),
                            NumElements(input), [alpha](float x) { return x > 0 ? x : x * alpha; });
      return kTfLiteOk;
    }
    case kTfLiteInt8:
      EvalQuantized<int8_t>(data, input, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(data, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalQuantized<int16_t>(data, input, output);
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace leaky_relu

TfLiteRegistration* Register_LEAKY_RELU() {
  static TfLiteRegistration r = {leaky_relu::Init, leaky_relu::Free, leaky_relu::Prepare,
                                 leaky_relu::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
