// SEGMENT_SUM (v1): kernels/internal/segment.h.
#include "kernels/internal/segment.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace segment_sum {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return segment::Prepare(context, node, segment::Kind::kSorted);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return segment::Eval(context, node, segment::Kind::kSorted);
}

}  // namespace
}  // namespace segment_sum

TfLiteRegistration* Register_SEGMENT_SUM() {
  static TfLiteRegistration r = {nullptr, nullptr, segment_sum::Prepare, segment_sum::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
