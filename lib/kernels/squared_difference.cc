// SQUARED_DIFFERENCE: out = (in1 - in2)^2 with NumPy broadcasting (rank <= 6).
// float32, int32 (wrapping on overflow), and int8 bit-exact with TFLite
// (squared_difference.cc Prepare: inputs rescaled to twice the larger input
// scale with left shift 7, the squared difference rescaled by
// twice_max^2 / (2^14 * out_scale)).
#include <limits>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace squared_difference {

constexpr int kLeftShift = 7;

TfLiteStatus PrepareInt8(TfLiteContext* context, const TfLiteTensor* input1,
                         const TfLiteTensor* input2, const TfLiteTensor* output,
                         ArithmeticParams* p) {
  for (const TfLiteTensor* t : {input1, input2, output}) {
    TF_LITE_ENSURE(context, t->params.zero_point >= std::numeric_limits<int8_t>::min());
    TF_LITE_ENSURE(context, t->params.zero_point <= std::numeric_limits<int8_t>::max());
    TF_LITE_ENSURE(context, t->params.scale > 0);
  }
  p->input1_offset = -input1->params.zero_point;
  p->input2_offset = -input2->params.zero_point;
  p->output_offset = output->params.zero_point;
  p->left_shift = kLeftShift;
  // Mixed float/double arithmetic exactly as upstream.
  const double twice_max_input_scale = 2 * std::max(input1->params.scale, input2->params.scale);
  const double real_input1_multiplier = input1->params.scale / twice_max_input_scale;
  const double real_input2_multiplier = input2->params.scale / twice_max_input_scale;
  const double real_output_multiplier = (twice_max_input_scale * twice_max_input_scale) /
                                        ((1 << kLeftShift * 2) * output->params.scale);
  TF_LITE_ENSURE_MSG(context, real_output_multiplier < 1.0,
                     "SQUARED_DIFFERENCE output scale too small for the input scales");
  QuantizeMultiplierSmallerThanOneExp(real_input1_multiplier, &p->input1_multiplier,
                                      &p->input1_shift);
  QuantizeMultiplierSmallerThanOneExp(real_input2_multiplier, &p->input2_multiplier,
                                      &p->input2_shift);
  QuantizeMultiplierSmallerThanOneExp(real_output_multiplier, &p->output_multiplier,
                                      &p->output_shift);
  p->quantized_activation_min = std::numeric_limits<int8_t>::min();
  p->quantized_activation_max = std::numeric_limits<int8_t>::max();
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(
      context, elementwise::PrepareBinary(context, node, elementwise::kMaxBroadcastRank, &input1,
                                          &input2, &output));
  switch (output->type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
      return kTfLiteOk;
    case kTfLiteInt8:
      return PrepareInt8(context, input1, input2, output,
                         static_cast<ArithmeticParams*>(node->user_data));
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

template <typename T>
void EvalTyped(const TfLiteTensor* input1, const TfLiteTensor* input2, TfLiteTensor* output) {
  elementwise::BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1),
                               GetTensorShape(input2), GetTensorData<T>(input2),
                               GetTensorShape(output), GetTensorData<T>(output), [](T a, T b) {
                                 const T d = elementwise::WrappingSub(a, b);
                                 return WrappingMul(d, d);
                               });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& p = *static_cast<const ArithmeticParams*>(node->user_data);
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (output->type) {
    case kTfLiteFloat32:
      EvalTyped<float>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      EvalTyped<int32_t>(input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      elementwise::BroadcastRows(
          GetTensorShape(input1), GetTensorData<int8_t>(input1), GetTensorShape(input2),
          GetTensorData<int8_t>(input2), GetTensorShape(output), GetTensorData<int8_t>(output),
          [&p](const int8_t* a, int sa, const int8_t* b, int sb, int8_t* o, int64_t n) {
            elementwise::QuantizedSquaredDifferenceRow(p, a, sa, b, sb, o, n);
          });
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, output->type);
  }
}

}  // namespace squared_difference

TfLiteRegistration* Register_SQUARED_DIFFERENCE() {
  static TfLiteRegistration r = {elementwise::InitArithmetic, elementwise::FreeArithmetic,
                                 squared_difference::Prepare, squared_difference::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
