// UNSORTED_SEGMENT_SUM (v1): kernels/internal/segment.h.
#include "kernels/internal/segment.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace unsorted_segment_sum {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return segment::Prepare(context, node, segment::Kind::kSum);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return segment::Eval(context, node, segment::Kind::kSum);
}

}  // namespace
}  // namespace unsorted_segment_sum

TfLiteRegistration* Register_UNSORTED_SEGMENT_SUM() {
  static TfLiteRegistration r = {nullptr, nullptr, unsorted_segment_sum::Prepare,
                                 unsorted_segment_sum::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
