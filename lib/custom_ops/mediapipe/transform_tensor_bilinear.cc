// TransformTensorBilinear v2 (MediaPipe): samples a feature map at the positions a 4x4
// matrix maps each output pixel to (an affine crop, e.g. around an eye), bilinearly.
// Inputs: data [1, H, W, C], matrix [1, 4, 4] (16 floats, row-major). Options (flexbuffer
// map): output_height, output_width; without them the model's output shape is kept.
// Output [1, OH, OW, C]. v2 aligns pixel centres: the matrix T becomes S * T * A with
// A = translate(+0.5, +0.5) and S = translate(-0.5, -0.5). A sample point outside
// [0, W-1] x [0, H-1] gives 0; corners beyond the edge read as 0.
#include <cmath>
#include <cstdint>

#include "custom_ops/mediapipe/custom_options.h"
#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace mediapipe {
namespace transform_tensor_bilinear {
namespace {

constexpr char kOp[] = "TransformTensorBilinear";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, tflite::NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, tflite::NumOutputs(node), 1);
  const TfLiteTensor *input, *matrix;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 1, &matrix));
  TF_LITE_ENSURE_OK(context, tflite::GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, matrix->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(input), 4);
  TF_LITE_ENSURE_EQ(context, tflite::SizeOfDimension(input, 0), 1);
  if (tflite::NumElements(matrix) != 16) {
    TF_LITE_KERNEL_LOG(context, "%s: matrix shape %s is not 4x4.", kOp,
                       tflite::GetShapeDebugString(matrix->dims).c_str());
    return kTfLiteError;
  }
  const int channels = tflite::SizeOfDimension(input, 3);
  int out_h = 0, out_w = 0;
  FlexMap m;
  if (node->custom_initial_data_size > 0) {
    if (!m.Parse(node)) {
      TF_LITE_KERNEL_LOG(context, "%s: custom options are not a valid flexbuffer map.", kOp);
      return kTfLiteError;
    }
    out_h = m.Int("output_height", 0);
    out_w = m.Int("output_width", 0);
  }
  if (out_h == 0 && out_w == 0 && output->dims != nullptr && output->dims->size == 4) {
    out_h = output->dims->data[1];  // no options: the shape the model declares
    out_w = output->dims->data[2];
  }
  if (out_h <= 0 || out_w <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: output size %dx%d must be positive.", kOp, out_h, out_w);
    return kTfLiteError;
  }
  TfLiteIntArray* shape = TfLiteIntArrayCreate(4);
  shape->data[0] = 1;
  shape->data[1] = out_h;
  shape->data[2] = out_w;
  shape->data[3] = channels;
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* matrix = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int in_h = input->dims->data[1], in_w = input->dims->data[2];
  const int channels = input->dims->data[3];
  const int out_h = output->dims->data[1], out_w = output->dims->data[2];
  const float* m = matrix->data.f;
  float xt[4] = {m[0], m[1], m[2], m[3]};
  float yt[4] = {m[4], m[5], m[6], m[7]};
  // Pixel-centre correction S * T * A, computed as MediaPipe does (in double).
  xt[3] += xt[0] * 0.5 + xt[1] * 0.5 - 0.5;
  yt[3] += yt[0] * 0.5 + yt[1] * 0.5 - 0.5;
  const float* in = input->data.f;
  float* out = output->data.f;
  auto read = [&](int h, int w, int c) -> float {
    return h < 0 || w < 0 || h >= in_h || w >= in_w
               ? 0.f
               : in[(static_cast<size_t>(h) * in_w + w) * channels + c];
  };
  for (int oy = 0; oy < out_h; ++oy) {
    for (int ox = 0; ox < out_w; ++ox) {
      const float fx = static_cast<float>(ox), fy = static_cast<float>(oy);
      const float tx = xt[0] * fx + xt[1] * fy + xt[2] * 0.f + xt[3] * 1.f;
      const float ty = yt[0] * fx + yt[1] * fy + yt[2] * 0.f + yt[3] * 1.f;
      // Written so that NaN counts as out of bounds.
      const bool inside = tx >= 0.f && tx <= in_w - 1 && ty >= 0.f && ty <= in_h - 1;
      float* dst = out + (static_cast<size_t>(oy) * out_w + ox) * channels;
      if (!inside) {
        for (int c = 0; c < channels; ++c) dst[c] = 0.f;
        continue;
      }
      const int x0 = static_cast<int>(std::floor(tx)), y0 = static_cast<int>(std::floor(ty));
      const float right = tx - std::floor(tx), lower = ty - std::floor(ty);
      for (int c = 0; c < channels; ++c) {
        const float q11 = read(y0, x0, c), q21 = read(y0, x0 + 1, c);
        const float q12 = read(y0 + 1, x0, c), q22 = read(y0 + 1, x0 + 1, c);
        const float upper_v = (1.0 - right) * q11 + right * q21;
        const float lower_v = (1.0 - right) * q12 + right * q22;
        dst[c] = lower * lower_v + (1.0 - lower) * upper_v;
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace transform_tensor_bilinear

TfLiteRegistration* RegisterTransformTensorBilinearV2() {
  static TfLiteRegistration r = {nullptr, nullptr, transform_tensor_bilinear::Prepare,
                                 transform_tensor_bilinear::Eval};
  return &r;
}

}  // namespace mediapipe
}  // namespace tflite_inspect
