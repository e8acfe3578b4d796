// Landmarks2TransformMatrix v2 (MediaPipe): from landmarks [1, L, 3] (x, y, z; batch 0
// is read) to a 4x4 matrix [1, 4, 4] that maps output-crop pixel coordinates to input
// coordinates, as MediaPipe's face mesh uses to crop around eyes and lips.
// Options (flexbuffer map): left_rotation_idx, right_rotation_idx,
// target_rotation_radians, subset_idxs (landmark indices; an odd count repeats the last,
// which does not change the result), output_height, output_width, scale_x, scale_y.
//   r = target_rotation_radians - atan2(y_right - y_left, x_right - x_left)
//   rotate the subset's (x, y) by r; its bounding box gives the crop size (w, h) and,
//   rotated back by -r, the crop centre (cx, cy);
//   M = T(cx, cy) * R(-r) * S(scale_x * w / output_width, scale_y * h / output_height)
//       * T(-output_width / 2, -output_height / 2), written row-major.
// Computed in float with MediaPipe's operation order.
#include <cmath>
#include <cstdint>
#include <vector>

#include <cstdio>
#include <string>

#include "custom_ops/mediapipe/custom_options.h"
#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace mediapipe {
std::string ReadLandmarks2TransformOptions(const TfLiteNode* node, int num_landmarks,
                                           Landmarks2TransformOptions* o) {
  FlexMap m;
  if (!m.Parse(node)) return "custom options are not a valid flexbuffer map.";
  o->left_rotation_idx = m.Int("left_rotation_idx", -1);
  o->right_rotation_idx = m.Int("right_rotation_idx", -1);
  o->target_rotation_radians = m.Float("target_rotation_radians", 0.f);
  o->output_height = m.Int("output_height", 0);
  o->output_width = m.Int("output_width", 0);
  o->scale_x = m.Float("scale_x", 0.f);
  o->scale_y = m.Float("scale_y", 0.f);
  m.Ints("subset_idxs", &o->subset_idxs);
  auto bad_index = [&](const char* what, int32_t v) {
    return std::string(what) + " " + std::to_string(v) + " out of range (expected 0.." +
           std::to_string(num_landmarks - 1) + ").";
  };
  if (o->left_rotation_idx < 0 || o->left_rotation_idx >= num_landmarks) {
    return bad_index("left_rotation_idx", o->left_rotation_idx);
  }
  if (o->right_rotation_idx < 0 || o->right_rotation_idx >= num_landmarks) {
    return bad_index("right_rotation_idx", o->right_rotation_idx);
  }
  if (o->subset_idxs.empty()) return "subset_idxs is missing or empty.";
  for (int32_t v : o->subset_idxs) {
    if (v < 0 || v >= num_landmarks) return bad_index("subset_idxs entry", v);
  }
  if (o->output_height <= 0 || o->output_width <= 0) {
    return "output size " + std::to_string(o->output_height) + "x" + std::to_string(o->output_width) +
           " must be positive.";
  }
  if (!(o->scale_x > 0.f) || !(o->scale_y > 0.f)) {
    char buf[128];
    std::snprintf(buf, sizeof(buf), "scale_x %g and scale_y %g must be positive.", o->scale_x, o->scale_y);
    return buf;
  }
  return "";
}

namespace landmarks_to_transform_matrix {
namespace {

constexpr char kOp[] = "Landmarks2TransformMatrix";

using Options = Landmarks2TransformOptions;

TfLiteStatus ReadOptions(TfLiteContext* context, const TfLiteNode* node, int num_landmarks,
                         Options* o) {
  const std::string error = ReadLandmarks2TransformOptions(node, num_landmarks, o);
  if (error.empty()) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: %s", kOp, error.c_str());
  return kTfLiteError;
}

// Row-major 4x4, multiplied in float as MediaPipe's Mat4.
struct Mat4 {
  float m[16];
  Mat4 operator*(const Mat4& b) const {
    Mat4 r;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        float sum = 0.f;
        for (int k = 0; k < 4; ++k) sum += m[i * 4 + k] * b.m[k * 4 + j];
        r.m[i * 4 + j] = sum;
      }
    }
    return r;
  }
};

Mat4 Translation(float x, float y) { return {{1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, 0, 0, 0, 0, 1}}; }
Mat4 Rotation(float r) {
  const float c = std::cos(r), s = std::sin(r);
  return {{c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
}
Mat4 Scale(float x, float y) { return {{x, 0, 0, 0, 0, y, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}; }

void Compute(const Options& o, const float* lm, float* out) {
  auto x = [lm](int i) { return lm[i * 3]; };
  auto y = [lm](int i) { return lm[i * 3 + 1]; };
  const float rotation =
      o.target_rotation_radians - std::atan2(y(o.right_rotation_idx) - y(o.left_rotation_idx),
                                             x(o.right_rotation_idx) - x(o.left_rotation_idx));
  // The subset rotated by `rotation` (the 3x3 rotation applied to (x, y, 1)).
  const float c = std::cos(rotation), s = std::sin(rotation);
  float min_x = 0.f, min_y = 0.f, max_x = 0.f, max_y = 0.f;
  for (size_t i = 0; i < o.subset_idxs.size(); ++i) {
    const int k = o.subset_idxs[i];
    const float rx = c * x(k) + -s * y(k) + 0.f * 1.f;
    const float ry = s * x(k) + c * y(k) + 0.f * 1.f;
    if (i == 0 || rx < min_x) min_x = rx;
    if (i == 0 || ry < min_y) min_y = ry;
    if (i == 0 || rx > max_x) max_x = rx;
    if (i == 0 || ry > max_y) max_y = ry;
  }
  const float crop_w = max_x - min_x, crop_h = max_y - min_y;
  const float mid_x = (min_x + max_x) / 2, mid_y = (min_y + max_y) / 2;
  const float ci = std::cos(-rotation), si = std::sin(-rotation);
  const float crop_x = ci * mid_x + -si * mid_y + 0.f * 1.f;
  const float crop_y = si * mid_x + ci * mid_y + 0.f * 1.f;
  const Mat4 identity = Scale(1.f, 1.f);
  const Mat4 t = identity * Translation(crop_x, crop_y) * Rotation(-rotation) *
                 Scale(o.scale_x * crop_w / o.output_width, o.scale_y * crop_h / o.output_height) *
                 Translation(-1.0f * (o.output_width / 2.0f), -1.0f * (o.output_height / 2.0f));
  for (int i = 0; i < 16; ++i) out[i] = t.m[i];
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, tflite::NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, tflite::NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, tflite::GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, tflite::GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, tflite::NumDimensions(input), 3);
  TF_LITE_ENSURE_EQ(context, tflite::SizeOfDimension(input, 2), 3);
  TF_LITE_ENSURE(context, tflite::SizeOfDimension(input, 0) >= 1);
  Options o;
  TF_LITE_ENSURE_OK(context, ReadOptions(context, node, tflite::SizeOfDimension(input, 1), &o));
  TfLiteIntArray* shape = TfLiteIntArrayCreate(3);
  shape->data[0] = 1;
  shape->data[1] = 4;
  shape->data[2] = 4;
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  Options o;
  TF_LITE_ENSURE_OK(context, ReadOptions(context, node, input->dims->data[1], &o));
  Compute(o, input->data.f, output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace landmarks_to_transform_matrix

TfLiteRegistration* RegisterLandmarks2TransformMatrixV2() {
  static TfLiteRegistration r = {nullptr, nullptr, landmarks_to_transform_matrix::Prepare,
                                 landmarks_to_transform_matrix::Eval};
  return &r;
}

}  // namespace mediapipe
}  // namespace tflite_inspect
