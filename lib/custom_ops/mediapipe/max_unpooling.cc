// MaxUnpooling2D (MediaPipe): the inverse of MaxPoolingWithArgmax2D, float32 NHWC.
// Inputs: values [N,H,W,C] and indices [N,H,W,C] (float, as MaxPoolingWithArgmax2D
// writes them). Options: TfLitePoolParams verbatim. Output [N, H*filter_h, W*filter_w, C]
// (MediaPipe sizes by the filter, not the stride), zero except that each input value is
// written at its window origin (in * stride - padding) plus the window position decoded
// from its index (index / filter_w, index % filter_w). Indices come from the model's
// data: those that decode outside the output, or are not finite, are skipped;
// like MediaPipe, an index past the window that still lands inside the output is written.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "custom_ops/mediapipe/custom_options.h"
#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "kernels/internal/padding.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace mediapipe {
namespace max_unpooling {
namespace {

constexpr char kOp[] = "MaxUnpooling2D";

struct OpData {
  int pad_height = 0;
  int pad_width = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, tflite::NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, tflite::NumOutputs(node), 1);
  PoolOptions o;
  TF_LITE_ENSURE_OK(context, ReadPoolOptions(context, node, kOp, &o));
  const TfLiteTensor *input, *indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 1, &indices));
  TF_LITE_ENSURE_OK(context, tflite::GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, indices->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(input), 4);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(indices), 4);
  if (!tflite::HaveSameShapes(input, indices)) {
    TF_LITE_KERNEL_LOG(context, "%s: indices shape %s differs from input shape %s.", kOp,
                       tflite::GetShapeDebugString(indices->dims).c_str(),
                       tflite::GetShapeDebugString(input->dims).c_str());
    return kTfLiteError;
  }
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  if (int64_t{in_h} * o.filter_height > (1 << 24) || int64_t{in_w} * o.filter_width > (1 << 24)) {
    TF_LITE_KERNEL_LOG(context, "%s: output size %dx%d times filter %dx%d is too large.", kOp, in_h,
                       in_w, o.filter_height, o.filter_width);
    return kTfLiteError;
  }
  const int out_h = in_h * o.filter_height, out_w = in_w * o.filter_width;
  auto* data = static_cast<OpData*>(node->user_data);
  // MediaPipe's padding: the pooling formula with input and output sizes swapped.
  data->pad_height = tflite::ComputePadding(o.stride_height, 1, out_h, o.filter_height, in_h);
  data->pad_width = tflite::ComputePadding(o.stride_width, 1, out_w, o.filter_width, in_w);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(4);
  shape->data[0] = input->dims->data[0];
  shape->data[1] = out_h;
  shape->data[2] = out_w;
  shape->data[3] = input->dims->data[3];
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  PoolOptions o;
  TF_LITE_ENSURE_OK(context, ReadPoolOptions(context, node, kOp, &o));
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int batches = input->dims->data[0], depth = input->dims->data[3];
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  const int out_h = output->dims->data[1], out_w = output->dims->data[2];
  const float* in = input->data.f;
  const float* idx = indices->data.f;
  float* out = output->data.f;
  std::memset(out, 0, output->bytes);
  constexpr float kMaxIndex = 1 << 30;  // keeps the float -> int conversion defined
  for (int b = 0; b < batches; ++b) {
    for (int iy = 0; iy < in_h; ++iy) {
      for (int ix = 0; ix < in_w; ++ix) {
        const size_t in_base = ((static_cast<size_t>(b) * in_h + iy) * in_w + ix) * depth;
        for (int c = 0; c < depth; ++c) {
          const float f = idx[in_base + c];
          if (!std::isfinite(f) || f <= -kMaxIndex || f >= kMaxIndex) continue;
          const int k = static_cast<int>(f);
          const int oy = iy * o.stride_height - data->pad_height + k / o.filter_width;
          const int ox = ix * o.stride_width - data->pad_width + k % o.filter_width;
          if (oy < 0 || oy >= out_h || ox < 0 || ox >= out_w) continue;
          out[((static_cast<size_t>(b) * out_h + oy) * out_w + ox) * depth + c] = in[in_base + c];
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace max_unpooling

TfLiteRegistration* RegisterMaxUnpooling2D() {
  static TfLiteRegistration r = {max_unpooling::Init, max_unpooling::Free, max_unpooling::Prepare,
                                 max_unpooling::Eval};
  return &r;
}

}  // namespace mediapipe
}  // namespace tflite_inspect
