// UNSORTED_SEGMENT_MIN (v1): kernels/internal/segment.h.
#include "kernels/internal/segment.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace unsorted_segment_min {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return segment::Prepare(context, node, segment::Kind::kMin);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return segment::Eval(context, node, segment::Kind::kMin);
}

}  // namespace
}  // namespace unsorted_segment_min

TfLiteRegistration* Register_UNSORTED_SEGMENT_MIN() {
  static TfLiteRegistration r = {nullptr, nullptr, unsorted_segment_min::Prepare,
                                 unsorted_segment_min::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
