// MAXIMUM and MINIMUM: elementwise max / min with NumPy broadcasting
// (rank <= 6), no fused activation. The comparison is on the stored values
// (quantized inputs are compared raw, as upstream), so every type is exact:
// float32, int8, uint8, int16, int32, int64. As upstream, MAXIMUM is
// `a > b ? a : b` and MINIMUM `a < b ? a : b` (a NaN in `a` loses to `b`).
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace maximum_minimum {

struct MaximumOp {
  template <typename T>
  T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};

struct MinimumOp {
  template <typename T>
  T operator()(T a, T b) const {
    return a < b ? a : b;
  }
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(
      context, elementwise::PrepareBinary(context, node, elementwise::kMaxBroadcastRank, &input1,
                                          &input2, &output));
  if (!elementwise::TypeIn(output->type, {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8, kTfLiteInt16,
                                          kTfLiteInt32, kTfLiteInt64})) {
    return elementwise::UnsupportedType(context, output->type);
  }
  return kTfLiteOk;
}

template <typename T, typename Op>
void EvalTyped(const TfLiteTensor* input1, const TfLiteTensor* input2, TfLiteTensor* output) {
  elementwise::BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1),
                               GetTensorShape(input2), GetTensorData<T>(input2),
                               GetTensorShape(output), GetTensorData<T>(output), Op());
}

template <typename Op>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (output->type) {
    case kTfLiteFloat32:
      EvalTyped<float, Op>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalTyped<int8_t, Op>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalTyped<uint8_t, Op>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalTyped<int16_t, Op>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      EvalTyped<int32_t, Op>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt64:
      EvalTyped<int64_t, Op>(input1, input2, output);
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace maximum_minimum

TfLiteRegistration* Register_MAXIMUM() {
  static TfLiteRegistration r = {nullptr, nullptr, maximum_minimum::Prepare,
                                 maximum_minimum::Eval<maximum_minimum::MaximumOp>};
  return &r;
}

TfLiteRegistration* Register_MINIMUM() {
  static TfLiteRegistration r = {nullptr, nullptr, maximum_minimum::Prepare,
                                 maximum_minimum::Eval<maximum_minimum::MinimumOp>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
