// SUB: out = in1 - in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32, int32, int64; int8, uint8 and int16 bit-exact with
// TFLite's reference kernels: the general path (sub.cc PrepareGeneralSubOp's
// multipliers, left shift 20 for 8-bit and 15 for int16) and the
// pot_scale_int16 path (zero points 0, power-of-two scales).
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sub {

using elementwise::ActivationClamp;
using elementwise::BroadcastBinary;

struct OpData {
  ArithmeticParams params{};
  bool int16_pot = false;  // int16 pot_scale_int16 path
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

template <typename T>
TfLiteStatus PrepareGeneral(TfLiteContext* context, const TfLiteSubParams* params,
                            const TfLiteTensor* input1, const TfLiteTensor* input2,
                            TfLiteTensor* output, int left_shift, OpData* data) {
  // Zero points must be representable in T (upstream checks the same).
  for (const TfLiteTensor* t : {input1, input2, static_cast<const TfLiteTensor*>(output)}) {
    TF_LITE_ENSURE(context, t->params.zero_point >= std::numeric_limits<T>::min());
    TF_LITE_ENSURE(context, t->params.zero_point <= std::numeric_limits<T>::max());
  }
  return elementwise::PrepareQuantizedAddSub(context, input1, input2, output, params->activation,
                                             left_shift, &data->params);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteSubParams*>(node->builtin_data);
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
      return PrepareGeneral<int8_t>(context, params, input1, input2, output, 20, data);
    case kTfLiteUInt8:
      return PrepareGeneral<uint8_t>(context, params, input1, input2, output, 20, data);
    case kTfLiteInt16:
      data->int16_pot =
          params->pot_scale_int16 && elementwise::AllScalesPowerOfTwo(input1, input2, output);
      if (data->int16_pot) {
        return elementwise::PrepareInt16PotAddSub(context, input1, input2, output,
                                                  params->activation, &data->params);
      }
      return PrepareGeneral<int16_t>(context, params, input1, input2, output, 15, data);
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
                  [clamp](T a, T b) { return clamp(elementwise::WrappingSub(a, b)); });
}

template <typename T>
void EvalQuantized(const ArithmeticParams& p, const TfLiteTensor* input1,
                   const TfLiteTensor* input2, TfLiteTensor* output) {
  BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2),
                  GetTensorData<T>(input2), GetTensorShape(output), GetTensorData<T>(output),
                  [&p](T a, T b) { return elementwise::QuantizedAddSub(p, a, b, true); });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteSubParams*>(node->builtin_data);
  const auto& data = *static_cast<const OpData*>(node->user_data);
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
      EvalQuantized<int8_t>(data.params, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(data.params, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      if (data.int16_pot) {
        const ArithmeticParams& p = data.params;
        BroadcastBinary(
            GetTensorShape(input1), GetTensorData<int16_t>(input1), GetTensorShape(input2),
            GetTensorData<int16_t>(input2), GetTensorShape(output), GetTensorData<int16_t>(output),
            [&p](int16_t a, int16_t b) { return elementwise::Int16PotAddSub(p, a, b, true); });
      } else {
        EvalQuantized<int16_t>(data.params, input1, input2, output);
      }
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace sub

TfLiteRegistration* Register_SUB() {
  static TfLiteRegistration r = {sub::Init, sub::Free, sub::Prepare, sub::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
