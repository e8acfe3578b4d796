// RESIZE_BILINEAR (NHWC) to the [height, width] of the int32 `size` input, with
// align_corners and half_pixel_centers. float32 and uint8 use TFLite's float
// reference (uint8 results are truncated, as upstream's static_cast); int8 and int16
// use the 10-bit fixed-point reference (ResizeBilinearInteger), bit for bit. Output
// rows are split over the interpreter's thread pool.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/internal/parallel.h"
#include "kernels/internal/resize.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace resize_bilinear {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input;
  const TfLiteTensor* size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(resize::GetResizeTensors(context, node, &input, &size, &output));
  if (params->half_pixel_centers && params->align_corners) {
    TF_LITE_KERNEL_LOG(context, "If half_pixel_centers is True, align_corners must be False.");
    return kTfLiteError;
  }
  if (!IsConstantOrPersistentTensor(size)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return resize::ResizeOutput(context, "RESIZE_BILINEAR", input, size, output);
}

void InterpolationFloat(int value, float scale, bool half_pixel_centers, int input_size,
                        float* scaled, int* lower, int* upper) {
  *scaled = half_pixel_centers ? (value + 0.5f) * scale - 0.5f : value * scale;
  *lower = std::max(static_cast<int32_t>(std::floor(*scaled)), static_cast<int32_t>(0));
  *upper = std::min(static_cast<int32_t>(std::ceil(*scaled)), input_size - 1);
}

struct Dims {
  int batches, in_h, in_w, depth, out_h, out_w;
  int64_t In(int b, int y, int x, int c) const {
    return ((static_cast<int64_t>(b) * in_h + y) * in_w + x) * depth + c;
  }
  int64_t Out(int b, int y, int x, int c) const {
    return ((static_cast<int64_t>(b) * out_h + y) * out_w + x) * depth + c;
  }
};

template <typename T>
void ResizeFloat(pthreadpool* pool, const TfLiteResizeBilinearParams& p, const Dims& d, const T* in,
                 T* out) {
  float height_scale = static_cast<float>(d.in_h) / d.out_h;
  float width_scale = static_cast<float>(d.in_w) / d.out_w;
  if (p.align_corners && d.out_h > 1) {
    height_scale = static_cast<float>(d.in_h - 1) / (d.out_h - 1);
  }
  if (p.align_corners && d.out_w > 1) {
    width_scale = static_cast<float>(d.in_w - 1) / (d.out_w - 1);
  }
  const double work = static_cast<double>(d.batches) * d.out_h * d.out_w * d.depth * 4;
  parallel::ParallelFor(pool, static_cast<size_t>(d.batches) * d.out_h, work, [&](size_t row) {
    const int b = static_cast<int>(row / d.out_h);
    const int y = static_cast<int>(row % d.out_h);
    float iy;
    int y0, y1;
    InterpolationFloat(y, height_scale, p.half_pixel_centers, d.in_h, &iy, &y0, &y1);
    for (int x = 0; x < d.out_w; ++x) {
      float ix;
      int x0, x1;
      InterpolationFloat(x, width_scale, p.half_pixel_centers, d.in_w, &ix, &x0, &x1);
      for (int c = 0; c < d.depth; ++c) {
        // Same expression (and evaluation order) as upstream's reference.
        const T v = static_cast<T>(in[d.In(b, y0, x0, c)] * (1 - (iy - y0)) * (1 - (ix - x0)) +
                                   in[d.In(b, y1, x0, c)] * (iy - y0) * (1 - (ix - x0)) +
                                   in[d.In(b, y0, x1, c)] * (1 - (iy - y0)) * (ix - x0) +
                                   in[d.In(b, y1, x1, c)] * (iy - y0) * (ix - x0));
        out[d.Out(b, y, x, c)] = v;
      }
    }
  });
}

void InterpolationInt(int32_t value, int32_t scale_10, bool half_pixel_centers, int32_t input_size,
                      int32_t* scaled, int32_t* lower, int32_t* upper) {
  *scaled = half_pixel_centers ? value * scale_10 + scale_10 / 2 - (1 << 9) : value * scale_10;
  *lower = std::max(*scaled / (1 << 10), 0);
  *upper = std::min((*scaled + (1 << 10) - 1) / (1 << 10), input_size - 1);
}

template <typename T>
void ResizeInteger(pthreadpool* pool, const TfLiteResizeBilinearParams& p, const Dims& d,
                   const T* in, T* out) {
  int32_t height_scale_10 = ((1 << 10) * d.in_h + d.out_h / 2) / d.out_h;
  int32_t width_scale_10 = ((1 << 10) * d.in_w + d.out_w / 2) / d.out_w;
  if (p.align_corners && d.out_h > 1) {
    height_scale_10 = ((1 << 10) * (d.in_h - 1) + (d.out_h - 1) / 2) / (d.out_h - 1);
  }
  if (p.align_corners && d.out_w > 1) {
    width_scale_10 = ((1 << 10) * (d.in_w - 1) + (d.out_w - 1) / 2) / (d.out_w - 1);
  }
  const double work = static_cast<double>(d.batches) * d.out_h * d.out_w * d.depth * 4;
  parallel::ParallelFor(pool, static_cast<size_t>(d.batches) * d.out_h, work, [&](size_t row) {
    const int b = static_cast<int>(row / d.out_h);
    const int y = static_cast<int>(row % d.out_h);
    int32_t iy, y0, y1;
    InterpolationInt(y, height_scale_10, p.half_pixel_centers, d.in_h, &iy, &y0, &y1);
    const int64_t wy1 = iy - (1 << 10) * y0;
    const int64_t wy0 = (1 << 10) - wy1;
    for (int x = 0; x < d.out_w; ++x) {
      int32_t ix, x0, x1;
      InterpolationInt(x, width_scale_10, p.half_pixel_centers, d.in_w, &ix, &x0, &x1);
      const int64_t wx1 = ix - (1 << 10) * x0;
      const int64_t wx0 = (1 << 10) - wx1;
      for (int c = 0; c < d.depth; ++c) {
        const int64_t output_20 = static_cast<int64_t>(in[d.In(b, y0, x0, c)]) * wy0 * wx0 +
                                  static_cast<int64_t>(in[d.In(b, y1, x0, c)]) * wy1 * wx0 +
                                  static_cast<int64_t>(in[d.In(b, y0, x1, c)]) * wy0 * wx1 +
                                  static_cast<int64_t>(in[d.In(b, y1, x1, c)]) * wy1 * wx1;
        const int64_t round = output_20 > 0 ? (1 << 19) : -(1 << 19);
        out[d.Out(b, y, x, c)] = static_cast<T>((output_20 + round) / (1 << 20));
      }
    }
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* size = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context,
                      resize::ResizeOutput(context, "RESIZE_BILINEAR", input, size, output));
  }
  Dims d{input->dims->data[0], input->dims->data[1],  input->dims->data[2],
         input->dims->data[3], output->dims->data[1], output->dims->data[2]};
  if (NumElements(input) == 0 || NumElements(output) == 0) return kTfLiteOk;
  pthreadpool* pool = parallel::ThreadPool(context);
  switch (input->type) {
    case kTfLiteFloat32:
      ResizeFloat(pool, params, d, input->data.f, output->data.f);
      return kTfLiteOk;
    case kTfLiteUInt8:
      ResizeFloat(pool, params, d, input->data.uint8, output->data.uint8);
      return kTfLiteOk;
    case kTfLiteInt8:
      ResizeInteger(pool, params, d, input->data.int8, output->data.int8);
      return kTfLiteOk;
    case kTfLiteInt16:
      ResizeInteger(pool, params, d, input->data.i16, output->data.i16);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace resize_bilinear

TfLiteRegistration* Register_RESIZE_BILINEAR() {
  static TfLiteRegistration r = {nullptr, nullptr, resize_bilinear::Prepare, resize_bilinear::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
