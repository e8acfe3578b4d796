// SPACE_TO_BATCH_ND (3-D or 4-D NHWC), as TFLite's reference_ops::SpaceToBatchND: pads
// the spatial dims, then moves block_h x block_w blocks into the batch:
// out[(sh * block_w + sw) * batch + b, y, x, :] = padded[b, y * block_h + sh,
// x * block_w + sw, :]. Padding is 0, or the output zero point for quantized uint8/int8.
// v1: float32, uint8, int32, int64; v2: int8; v3: 3-D input; v4: int16. Non-constant
// block_shape/paddings make the output dynamic.
#include <cstdint>
#include <cstring>

#include "kernels/internal/space_batch.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace space_to_batch_nd {
namespace {

constexpr char kOp[] = "SPACE_TO_BATCH_ND";

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* block, const TfLiteTensor* pads,
                          TfLiteTensor* output) {
  space_batch::Spatial sp;
  TF_LITE_ENSURE_OK(context, space_batch::Read(context, kOp, input, block, pads, &sp));
  const int64_t ph = static_cast<int64_t>(sp.height) + sp.top + sp.bottom;
  const int64_t pw = static_cast<int64_t>(sp.width) + sp.left + sp.right;
  if (ph % sp.block_h != 0 || pw % sp.block_w != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: padded spatial dims [%lld, %lld] are not multiples of the block "
                       "[%d, %d].",
                       kOp, static_cast<long long>(ph), static_cast<long long>(pw), sp.block_h,
                       sp.block_w);
    return kTfLiteError;
  }
  const int64_t batch = static_cast<int64_t>(sp.batch) * sp.block_h * sp.block_w;
  TF_LITE_ENSURE(context, batch <= INT32_MAX);
  return context->ResizeTensor(context, output,
                               space_batch::OutputDims(NumDimensions(input), batch, ph / sp.block_h,
                                                       pw / sp.block_w, sp.depth));
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
  const int pad_byte =
      (input->type == kTfLiteUInt8 || input->type == kTfLiteInt8) ? output->params.zero_point : 0;
  const char* in = input->data.raw_const;
  char* out = output->data.raw;
  for (int ob = 0; ob < out_batch; ++ob) {
    const int b = ob % sp.batch;
    const int shift_w = (ob / sp.batch) % sp.block_w;
    const int shift_h = (ob / sp.batch) / sp.block_w;
    for (int y = 0; y < out_h; ++y) {
      const int iy = y * sp.block_h + shift_h - sp.top;
      for (int x = 0; x < out_w; ++x) {
        const int ix = x * sp.block_w + shift_w - sp.left;
        if (iy < 0 || iy >= sp.height || ix < 0 || ix >= sp.width) {
          std::memset(out, pad_byte, pixel);
        } else {
          std::memcpy(out, in + ((static_cast<size_t>(b) * sp.height + iy) * sp.width + ix) * pixel,
                      pixel);
        }
        out += pixel;
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace space_to_batch_nd

TfLiteRegistration* Register_SPACE_TO_BATCH_ND() {
  static TfLiteRegistration r = {nullptr, nullptr, space_to_batch_nd::Prepare,
                                 space_to_batch_nd::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
