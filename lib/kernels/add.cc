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

using OpData = elementwise::AddSubData;

// Unquantized int16 is a plain integer add; quantized int16 is symmetric.
constexpr elementwise::AddSubRules kRules = {"ADD", /*plain_int16=*/true,
                                             /*symmetric_int16=*/true,
                                             /*zero_points_in_type=*/false};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* params = static_cast<TfLiteAddParams*>(node->builtin_data);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE(context, params != nullptr);
  return elementwise::PrepareAddSub(context, node, kRules, params->activation,
                                    params->pot_scale_int16, &data->params, &data->int16_pot);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteAddParams*>(node->builtin_data);
  return elementwise::EvalAddSub(context, node, kRules, params->activation, /*subtract=*/false);
}

}  // namespace add

TfLiteRegistration* Register_ADD() {
  static TfLiteRegistration r = {elementwise::InitAddSub, elementwise::FreeAddSub, add::Prepare,
                                 add::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
