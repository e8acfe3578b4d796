// MaxPoolingWithArgmax2D (MediaPipe): MAX_POOL_2D that also outputs where each maximum
// was, float32 NHWC. Input [N,H,W,C]; outputs: pooled [N,OH,OW,C] and indices
// [N,OH,OW,C] (float). Options: TfLitePoolParams verbatim (padding, strides, filter,
// activation). The index is the position inside the (unclamped) filter window,
// ky * filter_width + kx, stored as a float plus 0.1 so that truncation back to int is
// exact, as MediaPipe does. Ties keep the first maximum in row-major window order.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "custom_ops/mediapipe/custom_options.h"
#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "kernels/internal/padding.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace mediapipe {
namespace max_pool_argmax {
namespace {

constexpr char kOp[] = "MaxPoolingWithArgmax2D";

struct OpData {
  int pad_height = 0;
  int pad_width = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteIntArray* Shape4(int n, int h, int w, int c) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(4);
  a->data[0] = n;
  a->data[1] = h;
  a->data[2] = w;
  a->data[3] = c;
  return a;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, tflite::NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, tflite::NumOutputs(node), 2);
  PoolOptions o;
  TF_LITE_ENSURE_OK(context, ReadPoolOptions(context, node, kOp, &o));
  const TfLiteTensor* input;
  TfLiteTensor *output, *indices;
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, tflite::GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, tflite::GetOutputSafe(context, node, 1, &indices));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, indices->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(input), 4);
  const auto padding = static_cast<TfLitePadding>(o.padding);
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  const int out_h = tflite::ComputeOutSize(padding, in_h, o.filter_height, o.stride_height);
  const int out_w = tflite::ComputeOutSize(padding, in_w, o.filter_width, o.stride_width);
  if (out_h <= 0 || out_w <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: filter %dx%d larger than input %dx%d with VALID padding.", kOp,
                       o.filter_height, o.filter_width, in_h, in_w);
    return kTfLiteError;
  }
  auto* data = static_cast<OpData*>(node->user_data);
  data->pad_height = tflite::ComputePadding(o.stride_height, 1, in_h, o.filter_height, out_h);
  data->pad_width = tflite::ComputePadding(o.stride_width, 1, in_w, o.filter_width, out_w);
  const int n = input->dims->data[0], c = input->dims->data[3];
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, Shape4(n, out_h, out_w, c)));
  return context->ResizeTensor(context, indices, Shape4(n, out_h, out_w, c));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  PoolOptions o;
  TF_LITE_ENSURE_OK(context, ReadPoolOptions(context, node, kOp, &o));
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TfLiteTensor* indices = tflite::GetOutput(context, node, 1);
  float act_min, act_max;
  tflite::CalculateActivationRange(static_cast<TfLiteFusedActivation>(o.activation), &act_min,
                                   &act_max);
  const int batches = input->dims->data[0], depth = input->dims->data[3];
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  const int out_h = output->dims->data[1], out_w = output->dims->data[2];
  const float* in = input->data.f;
  float* out = output->data.f;
  float* idx = indices->data.f;
  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int y0 = oy * o.stride_height - data->pad_height;
      const int ky_begin = std::max(0, -y0);
      const int ky_end = std::min(o.filter_height, in_h - y0);
      for (int ox = 0; ox < out_w; ++ox) {
        const int x0 = ox * o.stride_width - data->pad_width;
        const int kx_begin = std::max(0, -x0);
        const int kx_end = std::min(o.filter_width, in_w - x0);
        const size_t out_base = ((static_cast<size_t>(b) * out_h + oy) * out_w + ox) * depth;
        for (int c = 0; c < depth; ++c) {
          float max = std::numeric_limits<float>::lowest();
          int max_kx = 0, max_ky = 0;
          for (int ky = ky_begin; ky < ky_end; ++ky) {
            for (int kx = kx_begin; kx < kx_end; ++kx) {
              const float v =
                  in[((static_cast<size_t>(b) * in_h + y0 + ky) * in_w + x0 + kx) * depth + c];
              if (v > max) {
                max = v;
                max_kx = kx;
                max_ky = ky;
              }
            }
          }
          out[out_base + c] = std::min(std::max(max, act_min), act_max);
          idx[out_base + c] = static_cast<float>(max_ky * o.filter_width + max_kx) + 0.1f;
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace max_pool_argmax

TfLiteRegistration* RegisterMaxPoolingWithArgmax2D() {
  static TfLiteRegistration r = {max_pool_argmax::Init, max_pool_argmax::Free,
                                 max_pool_argmax::Prepare, max_pool_argmax::Eval};
  return &r;
}

}  // namespace mediapipe
}  // namespace tflite_inspect
