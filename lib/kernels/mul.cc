// MUL: out = in1 * in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32, int32, int64, unquantized int16 (wrapping, then
// clamped); int8, uint8 and quantized int16 (zero points 0) bit-exact with
// TFLite's reference kernel (mul.cc Prepare: one multiplier
// in1_scale * in2_scale / out_scale, reference MulElementwise), and int16
// inputs with an int8 / uint8 output (the Q0.15 product rescaled by 2^-8,
// equal input shapes only, as upstream).
// Not implemented: complex64 (version 6), uint32 (version 7).
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace mul {

bool IsInt16To8Bit(const TfLiteTensor* input, const TfLiteTensor* output) {
  return input->type == kTfLiteInt16 &&
         (output->type == kTfLiteInt8 || output->type == kTfLiteUInt8);
}

// int16 x int16 -> 8-bit (reference_integer_ops::Mul for int8, reference_ops::Mul
// for uint8): Q0.15 product, rounding shift by 8, clamp around the zero point.
template <typename Out>
void EvalInt16To8Bit(const ArithmeticParams& p, const TfLiteTensor* input1,
                     const TfLiteTensor* input2, TfLiteTensor* output) {
  const int32_t offset = output->params.zero_point;
  const int16_t* a = GetTensorData<int16_t>(input1);
  const int16_t* b = GetTensorData<int16_t>(input2);
  Out* out = GetTensorData<Out>(output);
  const int64_t n = NumElements(output);
  for (int64_t i = 0; i < n; ++i) {
    const int16_t product = gemmlowp::SaturatingRoundingDoublingHighMul(a[i], b[i]);
    int16_t rescaled = gemmlowp::RoundingDivideByPOT(product, 8);
    rescaled = std::min<int16_t>(p.quantized_activation_max - offset, rescaled);
    rescaled = std::max<int16_t>(p.quantized_activation_min - offset, rescaled);
    out[i] = static_cast<Out>(offset + rescaled);
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteMulParams*>(node->builtin_data);
  auto* data = static_cast<ArithmeticParams*>(node->user_data);
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(
      context, elementwise::PrepareBinary(context, node, elementwise::kMaxBroadcastRank, &input1,
                                          &input2, &output, /*output_type_must_match=*/false));
  const TfLiteFusedActivation activation = params != nullptr ? params->activation : kTfLiteActNone;
  if (IsInt16To8Bit(input1, output)) {
    TF_LITE_ENSURE_MSG(context, HaveSameShapes(input1, input2),
                       "MUL with int16 inputs and an 8-bit output needs equal input shapes");
    return CalculateActivationRangeQuantized(context, activation, output,
                                             &data->quantized_activation_min,
                                             &data->quantized_activation_max);
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input1->type);
  switch (output->type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteInt64:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      return elementwise::PrepareQuantizedMul(context, input1, input2, output, activation, data);
    case kTfLiteInt16:
      if (output->quantization.type == kTfLiteNoQuantization) return kTfLiteOk;
      // Symmetric: (a - zp) * (b - zp) could overflow int32 otherwise.
      TF_LITE_ENSURE_EQ(context, input1->params.zero_point, 0);
      TF_LITE_ENSURE_EQ(context, input2->params.zero_point, 0);
      TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
      return elementwise::PrepareQuantizedMul(context, input1, input2, output, activation, data);
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

template <typename T>
void EvalPlain(TfLiteFusedActivation activation, const TfLiteTensor* input1,
               const TfLiteTensor* input2, TfLiteTensor* output) {
  elementwise::BroadcastClamped<T>(activation, input1, input2, output,
                                   [](T a, T b) { return WrappingMul(a, b); });
}

template <typename T>
void EvalQuantized(const ArithmeticParams& p, const TfLiteTensor* input1,
                   const TfLiteTensor* input2, TfLiteTensor* output) {
  if constexpr (sizeof(T) == 1) {  // int8 / uint8: vectorized rows (quantized_rows.h)
    elementwise::BroadcastRows(
        GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2),
        GetTensorData<T>(input2), GetTensorShape(output), GetTensorData<T>(output),
        [&p](const T* a, int sa, const T* b, int sb, T* o, int64_t n) {
          elementwise::QuantizedMulRow(p, a, sa, b, sb, o, n);
        });
  } else {
    elementwise::BroadcastTensors<T>(input1, input2, output,
                                     [&p](T a, T b) { return elementwise::QuantizedMul(p, a, b); });
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteMulParams*>(node->builtin_data);
  const auto& data = *static_cast<const ArithmeticParams*>(node->user_data);
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteFusedActivation activation = params != nullptr ? params->activation : kTfLiteActNone;
  if (IsInt16To8Bit(input1, output)) {
    if (output->type == kTfLiteInt8) {
      EvalInt16To8Bit<int8_t>(data, input1, input2, output);
    } else {
      EvalInt16To8Bit<uint8_t>(data, input1, input2, output);
    }
    return kTfLiteOk;
  }
  switch (output->type) {
    case kTfLiteFloat32:
      EvalPlain<float>(activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      EvalPlain<int32_t>(activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt64:
      EvalPlain<int64_t>(activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantized<int8_t>(data, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(data, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      if (output->quantization.type == kTfLiteNoQuantization) {
        EvalPlain<int16_t>(activation, input1, input2, output);
      } else {
        EvalQuantized<int16_t>(data, input1, input2, output);
      }
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace mul

TfLiteRegistration* Register_MUL() {
  static TfLiteRegistration r = {elementwise::InitArithmetic, elementwise::FreeArithmetic,
                                 mul::Prepare, mul::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
