// TransformLandmarks v2 (MediaPipe): applies the top two rows of a 4x4 matrix to 2D or 3D
// landmarks. Inputs: landmarks [B, L, D] with D = 2 (x, y) or 3 (x, y, z), matrix
// [1, 4, 4] (16 floats, row-major). Output: same shape as the landmarks,
//   x' = m0 * x + m1 * y + m3,   y' = m4 * x + m5 * y + m7,   z' = z.
// No options (v2 takes D from the shape). MediaPipe's kernel transforms batch 0 only;
// here every batch row uses the same matrix, so no output is left unwritten.
#include <cstdint>

#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace mediapipe {
namespace transform_landmarks {
namespace {

constexpr char kOp[] = "TransformLandmarks";

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
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(input), 3);
  const int dims = tflite::SizeOfDimension(input, 2);
  if (dims != 2 && dims != 3) {
    TF_LITE_KERNEL_LOG(context, "%s: landmarks have %d coordinates (expected 2 or 3).", kOp, dims);
    return kTfLiteError;
  }
  if (tflite::NumElements(matrix) != 16) {
    TF_LITE_KERNEL_LOG(context, "%s: matrix shape %s is not 4x4.", kOp,
                       tflite::GetShapeDebugString(matrix->dims).c_str());
    return kTfLiteError;
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* matrix = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int dims = input->dims->data[2];
  const int64_t count = tflite::NumElements(input) / dims;
  const float* m = matrix->data.f;
  const float* in = input->data.f;
  float* out = output->data.f;
  for (int64_t i = 0; i < count; ++i) {
    const float x = in[i * dims], y = in[i * dims + 1];
    // MediaPipe's dot product with (x, y, 0, 1), in the same order.
    out[i * dims] = m[0] * x + m[1] * y + m[2] * 0.f + m[3] * 1.f;
    out[i * dims + 1] = m[4] * x + m[5] * y + m[6] * 0.f + m[7] * 1.f;
    if (dims == 3) out[i * dims + 2] = in[i * dims + 2];
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace transform_landmarks

TfLiteRegistration* RegisterTransformLandmarksV2() {
  static TfLiteRegistration r = {nullptr, nullptr, transform_landmarks::Prepare,
                                 transform_landmarks::Eval};
  return &r;
}

}  // namespace mediapipe
}  // namespace tflite_inspect
