// DEPTH_TO_SPACE (NHWC): [b, h, w, c] -> [b, h * bs, w * bs, c / (bs * bs)], as TFLite's
// reference_ops::DepthToSpace. v1: float32, uint8, int32, int64; v2: int8. Quantized
// tensors pass through unchanged (the op only moves elements).
#include "kernels/internal/space_depth.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace depth_to_space {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteDepthToSpaceParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    space_depth::CheckCommon(context, node, params->block_size, &input, &output));
  const int bs = params->block_size;
  const int channels = SizeOfDimension(input, 3);
  const int64_t block_area = static_cast<int64_t>(bs) * bs;
  TF_LITE_ENSURE_MSG(context, channels % block_area == 0,
                     "DEPTH_TO_SPACE: channels are not a multiple of block_size^2");
  const int64_t out_h = static_cast<int64_t>(SizeOfDimension(input, 1)) * bs;
  const int64_t out_w = static_cast<int64_t>(SizeOfDimension(input, 2)) * bs;
  TF_LITE_ENSURE(context, out_h <= INT32_MAX && out_w <= INT32_MAX);
  TfLiteIntArray* size = TfLiteIntArrayCreate(4);
  size->data[0] = SizeOfDimension(input, 0);
  size->data[1] = static_cast<int>(out_h);
  size->data[2] = static_cast<int>(out_w);
  size->data[3] = static_cast<int>(channels / block_area);
  return context->ResizeTensor(context, output, size);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteDepthToSpaceParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  space_depth::Shuffle(input->data.raw_const, output->data.raw, SizeOfDimension(input, 0),
                       SizeOfDimension(input, 1), SizeOfDimension(input, 2),
                       SizeOfDimension(output, 3), params->block_size,
                       TfLiteTypeGetSize(input->type), /*to_space=*/true);
  return kTfLiteOk;
}

}  // namespace
}  // namespace depth_to_space

TfLiteRegistration* Register_DEPTH_TO_SPACE() {
  static TfLiteRegistration r = {nullptr, nullptr, depth_to_space::Prepare, depth_to_space::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
