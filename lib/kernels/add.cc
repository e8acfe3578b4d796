// ADD: out = in1 + in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32, int32, int64 and unquantized int16 (wrapping, then
// clamped, as upstream); int8, uint8 and quantized int16 bit-exact with
// TFLite's reference kernels: the general path (add.cc Prepare's multipliers,
// left shift 20 for 8-bit and 15 for int16, int16 zero points 0) and the
// pot_scale_int16 path (power-of-two scales, one input right-shifted).
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace add {

using elementwise::ActivationClamp;
using elementwise::BroadcastBinary;

struct OpData {
  ArithmeticParams params{};
  bool int16_pot = false;  // int16 pot_scale_int16 path
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

bool IsQuantized(const TfLiteTensor* t) { return t->quantization.type != kTfLiteNoQuantization; }

TfLiteStatus PrepareInt16(TfLiteContext* context, const TfLiteAddParams* params,
                          const TfLiteTensor* input1, const TfLiteTensor* input2,
                          TfLiteTensor* output, OpData* data) {
  TF_LITE_ENSURE_MSG(context, IsQuantized(input1) == IsQuantized(output),
                     "int16 ADD: input and output must both be quantized or both not");
  if (!IsQuantized(input1)) return kTfLiteOk;  // plain integer add
  // Quantized int16 is symmetric.
  TF_LITE_ENSURE_EQ(context, input1->params.zero_point, 0);
  TF_LITE_ENSURE_EQ(context, input2->params.zero_point, 0);
  TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
  data->int16_pot =
      params->pot_scale_int16 && elementwise::AllScalesPowerOfTwo(input1, input2, output);
  if (data->int16_pot) {
    return elementwise::PrepareInt16PotAddSub(context, input1, input2, output, params->activation,
                                              &data->params);
  }
  return elementwise::PrepareQuantizedAddSub(context, input1, input2, output, params->activation,
                                             15, &data->params);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteAddParams*>(node->builtin_data);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(
      context, elementwise::PrepareBinary(context, node, elementwise::kMaxBroadcastRank, &input1,
                                          &input2, &output));
  data->int16_pot = false;
  switch (output->type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteInt64:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      return elementwise::PrepareQuantizedAddSub(context, input1, input2, output,
                                                 params->activation, 20, &data->params);
    case kTfLiteInt16:
      return PrepareInt16(context, params, input1, input2, output, data);
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

template <typename T>
void EvalPlain(TfLiteFusedActivation activation, const TfLiteTensor* input1,
               const TfLiteTensor* input2, TfLiteTensor* output) {
  const auto clamp = ActivationClamp<T>(activation);
  BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2),
                  GetTensorData<T>(input2), GetTensorShape(output), GetTensorData<T>(output),
                  [clamp](T a, T b) { return clamp(WrappingAdd(a, b)); });
}

template <typename T, typename F>
void EvalWith(const TfLiteTensor* input1, const TfLiteTensor* input2, TfLiteTensor* output, F f) {
  BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2),
                  GetTensorData<T>(input2), GetTensorShape(output), GetTensorData<T>(output), f);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteAddParams*>(node->builtin_data);
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const ArithmeticParams& p = data.params;
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (output->type) {
    case kTfLiteFloat32:
      EvalPlain<float>(params->activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      EvalPlain<int32_t>(params->activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt64:
      EvalPlain<int64_t>(params->activation, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalWith<int8_t>(input1, input2, output, [&p](int8_t a, int8_t b) {
        return elementwise::QuantizedAddSub(p, a, b, false);
      });
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalWith<uint8_t>(input1, input2, output, [&p](uint8_t a, uint8_t b) {
        return elementwise::QuantizedAddSub(p, a, b, false);
      });
      return kTfLiteOk;
    case kTfLiteInt16:
      if (!IsQuantized(output)) {
        EvalPlain<int16_t>(params->activation, input1, input2, output);
      } else if (data.int16_pot) {
        EvalWith<int16_t>(input1, input2, output, [&p](int16_t a, int16_t b) {
          return elementwise::Int16PotAddSub(p, a, b, false);
        });
      } else {
        EvalWith<int16_t>(input1, input2, output, [&p](int16_t a, int16_t b) {
          return elementwise::QuantizedAddSub(p, a, b, false);
        });
      }
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace add

TfLiteRegistration* Register_ADD() {
  static TfLiteRegistration r = {add::Init, add::Free, add::Prepare, add::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
