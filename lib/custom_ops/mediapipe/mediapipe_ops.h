// MediaPipe's TFLite custom ops (mediapipe/util/tflite/operations/), reimplemented: float32
// CPU kernels with MediaPipe's semantics, one op per file. They are not builtins, so they
// are not in BuiltinOpResolver: a caller adds them explicitly (RegisterMediaPipeOps, or
// `--custom_ops=mediapipe` in the tools).
//
// Versions, as MediaPipe's cpu_op_resolver.cc registers them:
//   MaxPoolingWithArgmax2D v1, MaxUnpooling2D v1, Convolution2DTransposeBias v1,
//   TransformTensorBilinear v2, TransformLandmarks v2, Landmarks2TransformMatrix v2.
// (v1 of the last three is a different, older layout that MediaPipe no longer registers.)
#ifndef TFLITE_INSPECT_LIB_CUSTOM_OPS_MEDIAPIPE_MEDIAPIPE_OPS_H_
#define TFLITE_INSPECT_LIB_CUSTOM_OPS_MEDIAPIPE_MEDIAPIPE_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace tflite_inspect {
namespace mediapipe {

// Each returns a pointer to a function-local static registration (never null).
TfLiteRegistration* RegisterConvolution2DTransposeBias();
TfLiteRegistration* RegisterMaxPoolingWithArgmax2D();
TfLiteRegistration* RegisterMaxUnpooling2D();
TfLiteRegistration* RegisterLandmarks2TransformMatrixV2();
TfLiteRegistration* RegisterTransformLandmarksV2();
TfLiteRegistration* RegisterTransformTensorBilinearV2();

// Landmarks2TransformMatrix's options, shared with the GPU delegate's kernel.
struct Landmarks2TransformOptions {
  int32_t left_rotation_idx = -1;
  int32_t right_rotation_idx = -1;
  float target_rotation_radians = 0.f;
  std::vector<int32_t> subset_idxs;
  int32_t output_height = 0;
  int32_t output_width = 0;
  float scale_x = 0.f;
  float scale_y = 0.f;
};
// Parses and checks the node's options against `num_landmarks`: "" when usable, else
// the reason ("subset_idxs is missing or empty.").
std::string ReadLandmarks2TransformOptions(const TfLiteNode* node, int num_landmarks,
                                           Landmarks2TransformOptions* options);

}  // namespace mediapipe

// Adds the six ops above to `resolver` (AddCustom, the versions listed above). The
// registrations are static: they outlive any resolver.
void RegisterMediaPipeOps(tflite::MutableOpResolver* resolver);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_CUSTOM_OPS_MEDIAPIPE_MEDIAPIPE_OPS_H_
