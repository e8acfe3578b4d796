// SPACE_TO_DEPTH (NHWC): [b, h, w, c] -> [b, h / bs, w / bs, c * bs * bs], as TFLite's
// reference_ops::SpaceToDepth. v1: float32, uint8, int32, int64; v2: int8. Quantized
// tensors pass through unchanged (the op only moves elements).
#include "kernels/internal/space_depth.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace space_to_depth {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSpaceToDepthParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    space_depth::CheckCommon(context, node, params->block_size, &input, &output));
  const int bs = params->block_size;
  const int height = SizeOfDimension(input, 1);
  const int width = SizeOfDimension(input, 2);
  TF_LITE_ENSURE_MSG(context, height % bs == 0 && width % bs == 0,
                     "SPACE_TO_DEPTH: height and width must be multiples of block_size");
  const int64_t out_c = static_cast<int64_t>(SizeOfDimension(input, 3)) * bs * bs;
  TF_LITE_ENSURE(context, out_c <= INT32_MAX);
  TfLiteIntArray* size = TfLiteIntArrayCreate(4);
  size->data[0] = SizeOfDimension(input, 0);
  size->data[1] = height / bs;
  size->data[2] = width / bs;
  size->data[3] = static_cast<int>(out_c);
  return context->ResizeTensor(context, output, size);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSpaceToDepthParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  space_depth::Shuffle(input->data.raw_const, output->data.raw, SizeOfDimension(output, 0),
                       SizeOfDimension(output, 1), SizeOfDimension(output, 2),
                       SizeOfDimension(input, 3), params->block_size,
                       TfLiteTypeGetSize(input->type), /*to_space=*/false);
  return kTfLiteOk;
}

}  // namespace
}  // namespace space_to_depth

TfLiteRegistration* Register_SPACE_TO_DEPTH() {
  static TfLiteRegistration r = {nullptr, nullptr, space_to_depth::Prepare, space_to_depth::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
