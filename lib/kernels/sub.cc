// SUB: out = in1 - in2 with NumPy broadcasting (rank <= 6) and a fused
// activation. float32, int32, int64; int8, uint8 and int16 bit-exact with
// TFLite's reference kernels: the general path (sub.cc PrepareGeneralSubOp's
// multipliers, left shift 20 for 8-bit and 15 for int16) and the
// pot_scale_int16 path (zero points 0, power-of-two scales).
#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace sub {

using OpData = elementwise::AddSubData;

// int16 is always quantized; zero points must fit the type (upstream checks the same).
constexpr elementwise::AddSubRules kRules = {"SUB", /*plain_int16=*/false,
                                             /*symmetric_int16=*/false,
                                             /*zero_points_in_type=*/true};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteSubParams*>(node->builtin_data);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE(context, params != nullptr);
  return elementwise::PrepareAddSub(context, node, kRules, params->activation,
                                    params->pot_scale_int16, &data->params, &data->int16_pot);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSubParams*>(node->builtin_data);
  return elementwise::EvalAddSub(context, node, kRules, params->activation, /*subtract=*/true);
}

}  // namespace sub

TfLiteRegistration* Register_SUB() {
  static TfLiteRegistration r = {elementwise::InitAddSub, elementwise::FreeAddSub, sub::Prepare,
                                 sub::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
