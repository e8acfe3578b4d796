// Convolution2DTransposeBias (MediaPipe): TRANSPOSE_CONV with a bias, float32 NHWC.
// Inputs: data [N,H,W,I], weights [O,KH,KW,I] (OHWI), bias [O]. Options: the first three
// fields of TfLiteTransposeConvParams verbatim (padding, stride_width, stride_height).
// Output [N, S*(H-1)+KH-P, S*(W-1)+KW-P, O] where, for SAME, the total padding is
// P = max(0, K - (in-1) % S - 1) and the leading padding is P/2; VALID pads nothing.
// Each output starts at bias[o]; every input pixel scatters input*weight into the
// outputs its filter window covers.
#include <algorithm>
#include <cstdint>

#include "custom_ops/mediapipe/custom_options.h"
#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace mediapipe {
namespace transpose_conv_bias {
namespace {

constexpr char kOp[] = "Convolution2DTransposeBias";

struct Options {
  int32_t padding = 0;
  int32_t stride_width = 0;
  int32_t stride_height = 0;
};

TfLiteStatus ReadOptions(TfLiteContext* context, const TfLiteNode* node, Options* o) {
  int32_t f[3];
  if (!ReadIntFields(node, f, 3)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: custom options hold %d bytes, need 12 "
                       "(padding, stride_width, stride_height).",
                       kOp, node->custom_initial_data_size);
    return kTfLiteError;
  }
  o->padding = f[0];
  o->stride_width = f[1];
  o->stride_height = f[2];
  if (o->padding != kTfLitePaddingSame && o->padding != kTfLitePaddingValid) {
    TF_LITE_KERNEL_LOG(context, "%s: unknown padding %d.", kOp, o->padding);
    return kTfLiteError;
  }
  if (o->stride_width <= 0 || o->stride_height <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: strides must be positive (got %d, %d).", kOp, o->stride_height,
                       o->stride_width);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  using tflite::SizeOfDimension;
  TF_LITE_ENSURE_EQ(context, tflite::NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, tflite::NumOutputs(node), 1);
  Options o;
  TF_LITE_ENSURE_OK(context, ReadOptions(context, node, &o));
  const TfLiteTensor *input, *weights, *bias;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 1, &weights));
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 2, &bias));
  TF_LITE_ENSURE_OK(context, tflite::GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, weights->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, bias->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(input), 4);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(weights), 4);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(bias), 1);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, 3), SizeOfDimension(weights, 3));
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(weights, 0), SizeOfDimension(bias, 0));
  const int in_h = SizeOfDimension(input, 1), in_w = SizeOfDimension(input, 2);
  const int k_h = SizeOfDimension(weights, 1), k_w = SizeOfDimension(weights, 2);
  TF_LITE_ENSURE(context, in_h > 0 && in_w > 0 && k_h > 0 && k_w > 0);
  const int64_t out_h = int64_t{o.stride_height} * (in_h - 1) + k_h -
                        TransposeConvBiasPadding(o.padding, k_h, in_h, o.stride_height);
  const int64_t out_w = int64_t{o.stride_width} * (in_w - 1) + k_w -
                        TransposeConvBiasPadding(o.padding, k_w, in_w, o.stride_width);
  if (out_h > (1 << 24) || out_w > (1 << 24)) {
    TF_LITE_KERNEL_LOG(context, "%s: output size %lldx%lld is too large.", kOp,
                       static_cast<long long>(out_h), static_cast<long long>(out_w));
    return kTfLiteError;
  }
  TfLiteIntArray* shape = TfLiteIntArrayCreate(4);
  shape->data[0] = SizeOfDimension(input, 0);
  shape->data[1] = static_cast<int>(out_h);
  shape->data[2] = static_cast<int>(out_w);
  shape->data[3] = SizeOfDimension(weights, 0);
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  Options o;
  TF_LITE_ENSURE_OK(context, ReadOptions(context, node, &o));
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* weights = tflite::GetInput(context, node, 1);
  const TfLiteTensor* bias = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int batches = input->dims->data[0];
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  const int in_c = input->dims->data[3];
  const int k_h = weights->dims->data[1], k_w = weights->dims->data[2];
  const int out_h = output->dims->data[1], out_w = output->dims->data[2];
  const int out_c = output->dims->data[3];
  const int pad_h = TransposeConvBiasPadding(o.padding, k_h, in_h, o.stride_height) / 2;
  const int pad_w = TransposeConvBiasPadding(o.padding, k_w, in_w, o.stride_width) / 2;
  const float* in = input->data.f;
  const float* w = weights->data.f;
  float* out = output->data.f;
  for (int b = 0; b < batches; ++b) {
    float* out_b = out + static_cast<size_t>(b) * out_h * out_w * out_c;
    for (int i = 0; i < out_h * out_w; ++i) {
      std::copy(bias->data.f, bias->data.f + out_c, out_b + static_cast<size_t>(i) * out_c);
    }
    for (int iy = 0; iy < in_h; ++iy) {
      for (int ix = 0; ix < in_w; ++ix) {
        const float* px = in + ((static_cast<size_t>(b) * in_h + iy) * in_w + ix) * in_c;
        for (int fy = 0; fy < k_h; ++fy) {
          const int oy = iy * o.stride_height - pad_h + fy;
          if (oy < 0 || oy >= out_h) continue;
          for (int fx = 0; fx < k_w; ++fx) {
            const int ox = ix * o.stride_width - pad_w + fx;
            if (ox < 0 || ox >= out_w) continue;
            float* dst = out_b + (static_cast<size_t>(oy) * out_w + ox) * out_c;
            for (int oc = 0; oc < out_c; ++oc) {
              const float* wk = w + ((static_cast<size_t>(oc) * k_h + fy) * k_w + fx) * in_c;
              float acc = 0.f;
              for (int ic = 0; ic < in_c; ++ic) acc += px[ic] * wk[ic];
              dst[oc] += acc;
            }
          }
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace transpose_conv_bias

TfLiteRegistration* RegisterConvolution2DTransposeBias() {
  static TfLiteRegistration r = {nullptr, nullptr, transpose_conv_bias::Prepare,
                                 transpose_conv_bias::Eval};
  return &r;
}

}  // namespace mediapipe
}  // namespace tflite_inspect
