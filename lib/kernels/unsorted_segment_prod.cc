// UNSORTED_SEGMENT_PROD (v1): kernels/internal/segment.h.
#include "kernels/internal/segment.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace unsorted_segment_prod {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return segment::Prepare(context, node, segment::Kind::kProd);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return segment::Eval(context, node, segment::Kind::kProd);
}

}  // namespace
}  // namespace unsorted_segment_prod

TfLiteRegistration* Register_UNSORTED_SEGMENT_PROD() {
  static TfLiteRegistration r = {nullptr, nullptr, unsorted_segment_prod::Prepare,
                                 unsorted_segment_prod::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
