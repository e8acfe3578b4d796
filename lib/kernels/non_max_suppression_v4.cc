// NON_MAX_SUPPRESSION_V4 (v1): hard non-maximum suppression of float boxes [N, 4] by their scores
// [N], as TFLite's non_max_suppression.cc: inputs max_output_size (int32 scalar), iou_threshold and
// score_threshold (float scalars); outputs the selected indices (int32 [max_output_size], zero past
// the count) and their count (int32 scalar).
// Quantized (int8 / int16) boxes are refused: not implemented here (kernels/internal/
// non_max_suppression.h).
#include "kernels/internal/non_max_suppression.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {

TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V4() {
  static TfLiteRegistration r = {nullptr, nullptr, nms::Prepare<false>, nms::Eval<false>};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
