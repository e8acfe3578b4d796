// The one list of MediaPipe custom ops and the versions registered for each.
#include "custom_ops/mediapipe/mediapipe_ops.h"

namespace tflite_inspect {

void RegisterMediaPipeOps(tflite::MutableOpResolver* resolver) {
  if (resolver == nullptr) return;
  resolver->AddCustom("MaxPoolingWithArgmax2D", mediapipe::RegisterMaxPoolingWithArgmax2D());
  resolver->AddCustom("MaxUnpooling2D", mediapipe::RegisterMaxUnpooling2D());
  resolver->AddCustom("Convolution2DTransposeBias",
                      mediapipe::RegisterConvolution2DTransposeBias());
  resolver->AddCustom("TransformTensorBilinear", mediapipe::RegisterTransformTensorBilinearV2(),
                      /*version=*/2);
  resolver->AddCustom("TransformLandmarks", mediapipe::RegisterTransformLandmarksV2(),
                      /*version=*/2);
  resolver->AddCustom("Landmarks2TransformMatrix", mediapipe::RegisterLandmarks2TransformMatrixV2(),
                      /*version=*/2);
}

}  // namespace tflite_inspect
