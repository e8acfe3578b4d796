// NON_MAX_SUPPRESSION_V5 (v1): soft non-maximum suppression (Gaussian, TFLite's
// non_max_suppression.cc and Bodla et al.) of float boxes [N, 4] by their scores [N]: V4's inputs
// and a soft_nms_sigma (float scalar; 0: hard suppression); outputs the selected indices (int32
// [max_output_size]), their scores (float, decayed where soft suppression touched them), zero past
// the count, and the count.
// Quantized (int8 / int16) boxes are refused: not implemented here (kernels/internal/
// non_max_suppression.h).
#include "kernels/internal/non_max_suppression.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {

TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5() {
  static TfLiteRegistration r = {nullptr, nullptr, nms::Prepare<true>, nms::Eval<true>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
