// BATCH_TO_SPACE_ND (3-D or 4-D NHWC), as TFLite's reference_ops::BatchToSpaceND, the
// inverse of SPACE_TO_BATCH_ND: input batch ib = (sh * block_w + sw) * out_batch + b
// goes to out[b, y * block_h + sh - crop_top, x * block_w + sw - crop_left, :], cropped
// elements dropped. v1: float32, uint8, int32, int64; v2: int8; v3: 3-D input; v4:
// int16. Non-constant block_shape/crops make the output dynamic.
#include <cstdint>
#include <cstring>

#include "kernels/internal/space_batch.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace batch_to_space_nd {
namespace {

constexpr char kOp[] = "BATCH_TO_SPACE_ND";

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* block, const TfLiteTensor* crops,
                          TfLiteTensor* output) {
  space_batch::Spatial sp;
  TF_LITE_ENSURE_OK(context, space_batch::Read(context, kOp, input, block, crops, &sp));
  const int64_t area = static_cast<int64_t>(sp.block_h) * sp.block_w;
  if (sp.batch % area != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: batch %d is not a multiple of the block area %lld.", kOp,
                       sp.batch, static_cast<long long>(area));
    return kTfLiteError;
  }
  const int64_t h = static_cast<int64_t>(sp.height) * sp.block_h - sp.top - sp.bottom;
  const int64_t w = static_cast<int64_t>(sp.width) * sp.block_w - sp.left - sp.right;
  if (h < 0 || w < 0 || h > INT32_MAX || w > INT32_MAX) {
    TF_LITE_KERNEL_LOG(context, "%s: crops are larger than the output.", kOp);
    return kTfLiteError;
  }
  return context->ResizeTensor(
      context, output,
      space_batch::OutputDims(NumDimensions(input), sp.batch / area, h, w, sp.depth));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return space_batch::Prepare(context, node, kOp, ResizeOutput);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  space_batch::EvalView v;
  TF_LITE_ENSURE_OK(context, space_batch::BeginEval(context, node, kOp, ResizeOutput, &v));
  const TfLiteTensor* input = v.input;
  TfLiteTensor* output = v.output;
  if (NumElements(output) == 0) return kTfLiteOk;
  const space_batch::Spatial& sp = v.sp;
  const int out_batch = v.out_batch, out_h = v.out_h, out_w = v.out_w;
  const size_t pixel = v.pixel;
  const char* in = input->data.raw_const;
  char* out = output->data.raw;
  for (int ib = 0; ib < sp.batch; ++ib) {
    const int b = ib % out_batch;
    const int offset = ib / out_batch;
    for (int y = 0; y < sp.height; ++y) {
      const int oy = y * sp.block_h + offset / sp.block_w - sp.top;
      if (oy < 0 || oy >= out_h) continue;
      for (int x = 0; x < sp.width; ++x) {
        const int ox = x * sp.block_w + offset % sp.block_w - sp.left;
        if (ox < 0 || ox >= out_w) continue;
        std::memcpy(out + ((static_cast<size_t>(b) * out_h + oy) * out_w + ox) * pixel,
                    in + ((static_cast<size_t>(ib) * sp.height + y) * sp.width + x) * pixel, pixel);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace batch_to_space_nd

TfLiteRegistration* Register_BATCH_TO_SPACE_ND() {
  static TfLiteRegistration r = {nullptr, nullptr, batch_to_space_nd::Prepare,
                                 batch_to_space_nd::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
