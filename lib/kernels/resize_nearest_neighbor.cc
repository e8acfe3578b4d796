// RESIZE_NEAREST_NEIGHBOR (NHWC) to the [height, width] of the int32 `size` input, as
// TFLite's reference_ops::ResizeNearestNeighbor, with align_corners (round) and
// half_pixel_centers. v1: float32, uint8; v2: int8; v3: half_pixel_centers; v4: int16.
// The op only copies elements, so quantized tensors pass through unchanged. A
// non-constant `size` makes the output dynamic (resized in Eval).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/internal/resize.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace resize_nearest_neighbor {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteResizeNearestNeighborParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input;
  const TfLiteTensor* size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(resize::GetResizeTensors(context, node, &input, &size, &output));
  if (!IsConstantOrPersistentTensor(size)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return resize::ResizeOutput(context, "RESIZE_NEAREST_NEIGHBOR", input, size, output);
}

// Upstream's GetNearestNeighbor, float arithmetic included.
int32_t NearestNeighbor(int value, int32_t input_size, int32_t output_size, bool align_corners,
                        bool half_pixel_centers) {
  const float scale = (align_corners && output_size > 1)
                          ? (input_size - 1) / static_cast<float>(output_size - 1)
                          : input_size / static_cast<float>(output_size);
  const float offset = half_pixel_centers ? 0.5f : 0.0f;
  int32_t v = std::min(align_corners ? static_cast<int32_t>(std::round((value + offset) * scale))
                                     : static_cast<int32_t>(std::floor((value + offset) * scale)),
                       input_size - 1);
  if (half_pixel_centers) v = std::max(static_cast<int32_t>(0), v);
  return v;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteResizeNearestNeighborParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* size = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, resize::ResizeOutput(context, "RESIZE_NEAREST_NEIGHBOR", input,
                                                    size, output));
  }
  if (NumElements(input) == 0 || NumElements(output) == 0) return kTfLiteOk;
  const int batches = input->dims->data[0], in_h = input->dims->data[1];
  const int in_w = input->dims->data[2], depth = input->dims->data[3];
  const int out_h = output->dims->data[1], out_w = output->dims->data[2];
  const size_t elem = TfLiteTypeGetSize(input->type);
  const size_t pixel = elem * depth;
  std::vector<int32_t> xs(out_w);
  for (int x = 0; x < out_w; ++x) {
    xs[x] = NearestNeighbor(x, in_w, out_w, params.align_corners, params.half_pixel_centers);
  }
  const char* in = input->data.raw_const;
  char* out = output->data.raw;
  for (int b = 0; b < batches; ++b) {
    for (int y = 0; y < out_h; ++y) {
      const int32_t iy =
          NearestNeighbor(y, in_h, out_h, params.align_corners, params.half_pixel_centers);
      const char* row = in + (static_cast<size_t>(b) * in_h + iy) * in_w * pixel;
      for (int x = 0; x < out_w; ++x) {
        std::memcpy(out, row + static_cast<size_t>(xs[x]) * pixel, pixel);
        out += pixel;
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace resize_nearest_neighbor

TfLiteRegistration* Register_RESIZE_NEAREST_NEIGHBOR() {
  static TfLiteRegistration r = {nullptr, nullptr, resize_nearest_neighbor::Prepare,
                                 resize_nearest_neighbor::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
