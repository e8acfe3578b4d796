// MediaPipe's face-mesh custom ops on the GPU: Landmarks2TransformMatrix,
// TransformLandmarks, TransformTensorBilinear (v2, as MediaPipe registers them; their
// semantics and CPU kernels are in lib/custom_ops/mediapipe). Convolution2DTransposeBias
// is with the convolutions (ops_nn.cc).
#include <fmt/format.h>

#include <string>

#include "custom_ops/mediapipe/mediapipe_ops.h"
#include "gpu/ops.h"

namespace tflite_inspect {
namespace gpu {
namespace {

// A float32 4x4 matrix [1, 4, 4] produced at run time (or constant).
bool CheckMatrix(OpContext& c, int t) {
  if (!CheckActivation(c, t, "matrix")) return false;
  if (c.T(t).type != kTfLiteFloat32 || NumElements(c.T(t)) != 16) return c.Refuse("matrix is not a FLOAT32 4x4");
  return true;
}

bool Version2(OpContext& c, const TfLiteRegistration& reg) {
  return reg.version == 2 || c.Refuse(fmt::format("version {} is not supported (only 2)", reg.version));
}

}  // namespace

bool VisitLandmarksToMatrix(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (!Version2(c, reg)) return false;
  if (node.inputs->size != 1 || node.outputs->size != 1) return c.Refuse("expects 1 input and 1 output");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "landmarks") || !CheckMatrix(c, out)) return false;
  const TfLiteTensor& lm = c.T(in);
  if (lm.type != kTfLiteFloat32 || lm.dims->size != 3 || lm.dims->data[2] != 3) {
    return c.Refuse("landmarks must be FLOAT32 [batch, count, 3]");
  }
  mediapipe::Landmarks2TransformOptions o;
  const std::string error = mediapipe::ReadLandmarks2TransformOptions(&node, lm.dims->data[1], &o);
  if (!error.empty()) return c.Refuse(error);
  if (c.build == nullptr) return true;
  return c.build->Launch(
      "landmarks_to_matrix",
      {Arg(c.build->Tensor(in)),
       Arg(c.build->Constant(o.subset_idxs.data(), o.subset_idxs.size() * sizeof(int32_t))),
       Arg(static_cast<int>(o.subset_idxs.size())), Arg(o.left_rotation_idx), Arg(o.right_rotation_idx),
       Arg(o.target_rotation_radians), Arg(o.output_height), Arg(o.output_width), Arg(o.scale_x), Arg(o.scale_y),
       Arg(c.build->Tensor(out))},
      {1});
}

bool VisitTransformLandmarks(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (!Version2(c, reg)) return false;
  if (node.inputs->size != 2 || node.outputs->size != 1) return c.Refuse("expects landmarks and a matrix");
  const int in = node.inputs->data[0], matrix = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "landmarks") || !CheckMatrix(c, matrix) || !CheckActivation(c, out, "output")) {
    return false;
  }
  const TfLiteTensor& lm = c.T(in);
  if (lm.type != kTfLiteFloat32 || lm.dims->size != 3 || (lm.dims->data[2] != 2 && lm.dims->data[2] != 3)) {
    return c.Refuse("landmarks must be FLOAT32 [batch, count, 2 or 3]");
  }
  if (c.build == nullptr) return true;
  const int dims = lm.dims->data[2];
  const int count = NumElements(lm) / dims;
  return c.build->Launch("transform_landmarks",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(matrix)), Arg(c.build->Tensor(out)),
                          Arg(count), Arg(dims)},
                         {static_cast<size_t>(count)});
}

bool VisitTransformTensorBilinear(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (!Version2(c, reg)) return false;
  if (node.inputs->size != 2 || node.outputs->size != 1) return c.Refuse("expects data and a matrix");
  const int in = node.inputs->data[0], matrix = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckMatrix(c, matrix) || !CheckActivation(c, out, "output")) {
    return false;
  }
  const TfLiteTensor &ti = c.T(in), &to = c.T(out);
  if (ti.type != kTfLiteFloat32 || ti.dims->size != 4 || ti.dims->data[0] != 1 || to.dims->size != 4) {
    return c.Refuse("input must be FLOAT32 [1, H, W, C]");
  }
  if (c.build == nullptr) return true;
  const cl_int4 os = Shape4(to);
  return c.build->Launch("transform_tensor_bilinear",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(matrix)), Arg(c.build->Tensor(out)),
                          Arg(Shape4(ti)), Arg(os)},
                         {static_cast<size_t>(os.s[2]), static_cast<size_t>(os.s[1]),
                          static_cast<size_t>((os.s[3] + 3) / 4)});
}

}  // namespace gpu
}  // namespace tflite_inspect
