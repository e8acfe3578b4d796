// UNSORTED_SEGMENT_MAX (v1): kernels/internal/segment.h.
#include "kernels/internal/segment.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace unsorted_segment_max {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return segment::Prepare(context, node, segment::Kind::kMax);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return segment::Eval(context, node, segment::Kind::kMax);
}

}  // namespace
}  // namespace unsorted_segment_max

TfLiteRegistration* Register_UNSORTED_SEGMENT_MAX() {
  static TfLiteRegistration r = {nullptr, nullptr, unsorted_segment_max::Prepare,
                                 unsorted_segment_max::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
