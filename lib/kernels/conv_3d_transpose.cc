// CONV_3D_TRANSPOSE (v1): float32 3-D transposed convolution, as TFLite's
// conv3d_transpose.cc (a converted Keras Conv3DTranspose: 3-D U-Net decoders). Inputs: the
// output shape (int32 [5], NDHWC), the filter [fd][fh][fw][out_c][in_c], the input
// [b][d][h][w][in_c], an optional bias [out_c]. The padding is CONV_3D's for the output's
// size, and the input's size must be what a CONV_3D of the output would give (TFLite's
// checks and messages).
//
// Computed as TFLite's optimized kernel: each input voxel's contributions to all the taps
// ([in_c] x [in_c][fd * fh * fw * out_c], a GEMM over blocks of voxels) added into the
// output where they land (col2im), then bias and activation. Float sums in another order
// than its reference kernel (within 1e-5 on the goldens).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "kernels/internal/conv_util.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/padding.h"
#include "kernels/internal/parallel.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace conv3d_transpose {
namespace {

struct OpData {
  int pad_d = 0, pad_h = 0, pad_w = 0;
  gemm::CacheLineVector<float> packed;
  bool packed_valid = false;
  std::vector<float> cols;  // one block of voxels' contributions
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// The output's shape from the shape tensor, the padding, and TFLite's checks that the input
// is what a CONV_3D of that output would give.
TfLiteStatus ResizeOutput(TfLiteContext* context, OpData* data,
                          const TfLiteConv3DTransposeParams* params, const TfLiteTensor* shape,
                          const TfLiteTensor* filter, const TfLiteTensor* input,
                          TfLiteTensor* output) {
  const int32_t* s = shape->data.i32;
  TF_LITE_ENSURE_EQ(context, s[0], SizeOfDimension(input, 0));
  TF_LITE_ENSURE(context, SizeOfDimension(filter, 3) > 0);
  TF_LITE_ENSURE_EQ(context, s[4] % SizeOfDimension(filter, 3), 0);
  // (TFLite's kernel reads out_c from the filter: a shape of another depth would be read
  // past; refused.)
  TF_LITE_ENSURE_EQ(context, s[4], SizeOfDimension(filter, 3));
  for (int i = 1; i < 4; ++i) TF_LITE_ENSURE(context, s[i] > 0);
  int out_d, out_h, out_w;
  ComputeOutSizeAndPadding(params->padding, s[1], SizeOfDimension(filter, 0), params->stride_depth,
                           params->dilation_depth_factor, &out_d, &data->pad_d);
  ComputeOutSizeAndPadding(params->padding, s[2], SizeOfDimension(filter, 1), params->stride_height,
                           params->dilation_height_factor, &out_h, &data->pad_h);
  ComputeOutSizeAndPadding(params->padding, s[3], SizeOfDimension(filter, 2), params->stride_width,
                           params->dilation_width_factor, &out_w, &data->pad_w);
  TF_LITE_ENSURE_EQ(context, out_d, SizeOfDimension(input, 1));
  TF_LITE_ENSURE_EQ(context, out_h, SizeOfDimension(input, 2));
  TF_LITE_ENSURE_EQ(context, out_w, SizeOfDimension(input, 3));
  TfLiteIntArray* dims = TfLiteIntArrayCreate(5);
  for (int i = 0; i < 5; ++i) dims->data[i] = s[i];
  return context->ResizeTensor(context, output, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConv3DTransposeParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE(context, NumInputs(node) == 3 || NumInputs(node) == 4);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TfLiteTensor* output;
  const TfLiteTensor *shape, *filter, *input;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &shape));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &filter));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &input));
  TF_LITE_ENSURE_EQ(context, shape->dims->size, 1);
  TF_LITE_ENSURE_EQ(context, NumElements(shape), 5);
  TF_LITE_ENSURE_EQ(context, input->dims->size, 5);
  TF_LITE_ENSURE_EQ(context, filter->dims->size, 5);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, 4), SizeOfDimension(filter, 4));
  // TFLite 2.21's kernel: float32 (its 8- and 16-bit forms are not in the release this
  // project compares with).
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_TYPES_EQ(context, shape->type, kTfLiteInt32);
  TF_LITE_ENSURE_TYPES_EQ(context, filter->type, kTfLiteFloat32);
  const TfLiteTensor* bias =
      NumInputs(node) == 4 ? GetOptionalInputTensor(context, node, 3) : nullptr;
  if (bias != nullptr) {
    TF_LITE_ENSURE_TYPES_EQ(context, bias->type, input->type);
    TF_LITE_ENSURE_EQ(context, NumElements(bias), SizeOfDimension(filter, 3));
  }
  TF_LITE_ENSURE_STATUS(conv_util::CheckConv3DParams(context, params));
  for (int i = 0; i < 3; ++i) {
    TF_LITE_ENSURE(context, FitsConvWindow(SizeOfDimension(filter, i), 1));
  }
  // The GEMM's n (taps x out_c) is an int.
  TF_LITE_ENSURE(context, static_cast<int64_t>(SizeOfDimension(filter, 0)) *
                                  SizeOfDimension(filter, 1) * SizeOfDimension(filter, 2) *
                                  SizeOfDimension(filter, 3) <=
                              INT32_MAX / 2);
  data->packed_valid = false;
  if (!IsConstantOrPersistentTensor(shape)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, data, params, shape, filter, input, output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConv3DTransposeParams*>(node->builtin_data);
  const TfLiteTensor* shape = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* input = GetInput(context, node, 2);
  const TfLiteTensor* bias =
      NumInputs(node) == 4 ? GetOptionalInputTensor(context, node, 3) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, data, params, shape, filter, input, output));
  }
  const int batches = SizeOfDimension(input, 0), in_d = SizeOfDimension(input, 1);
  const int in_h = SizeOfDimension(input, 2), in_w = SizeOfDimension(input, 3);
  const int in_c = SizeOfDimension(input, 4);
  const int f_d = SizeOfDimension(filter, 0), f_h = SizeOfDimension(filter, 1);
  const int f_w = SizeOfDimension(filter, 2), out_c = SizeOfDimension(filter, 3);
  const int out_d = SizeOfDimension(output, 1), out_h = SizeOfDimension(output, 2);
  const int out_w = SizeOfDimension(output, 3);
  const int taps = f_d * f_h * f_w;
  const int n = taps * out_c;
  // The filter [taps * out_c][in_c] is the GEMM's right-hand side as packed.
  if (!data->packed_valid) {
    data->packed.resize(gemm::PackedWeightsSize(n, in_c));
    gemm::PackFloatWeights(filter->data.f, n, in_c, data->packed.data());
    data->packed_valid = IsConstantOrPersistentTensor(filter);
  }
  float* out = output->data.f;
  std::fill(out, out + NumElements(output), 0.0f);
  pthreadpool* pool = parallel::ThreadPool(context);
  const size_t voxels = static_cast<size_t>(batches) * in_d * in_h * in_w;
  // Blocks of input voxels whose contributions take about 1 MiB.
  const size_t block = std::max<size_t>(1, (size_t{1} << 18) / static_cast<size_t>(n));
  data->cols.resize(std::min(block, voxels) * n);
  const gemm::FloatOutputStage none;
  for (size_t v0 = 0; v0 < voxels; v0 += block) {
    const size_t v1 = std::min(voxels, v0 + block);
    gemm::FloatGemm(static_cast<int>(v1 - v0), n, in_c, input->data.f + v0 * in_c, in_c,
                    data->packed.data(), data->cols.data(), n, none, pool);
    for (size_t v = v0; v < v1; ++v) {
      size_t r = v;
      const int x = static_cast<int>(r % in_w);
      r /= in_w;
      const int y = static_cast<int>(r % in_h);
      r /= in_h;
      const int d = static_cast<int>(r % in_d);
      const size_t b = r / in_d;
      const float* col = data->cols.data() + (v - v0) * n;
      for (int fd = 0; fd < f_d; ++fd) {
        const int od = d * params->stride_depth - data->pad_d + fd * params->dilation_depth_factor;
        if (od < 0 || od >= out_d) continue;
        for (int fy = 0; fy < f_h; ++fy) {
          const int oy =
              y * params->stride_height - data->pad_h + fy * params->dilation_height_factor;
          if (oy < 0 || oy >= out_h) continue;
          for (int fx = 0; fx < f_w; ++fx) {
            const int ox =
                x * params->stride_width - data->pad_w + fx * params->dilation_width_factor;
            if (ox < 0 || ox >= out_w) continue;
            const float* from = col + ((fd * f_h + fy) * f_w + fx) * out_c;
            float* to = out + (((b * out_d + od) * out_h + oy) * out_w + ox) * out_c;
            for (int c = 0; c < out_c; ++c) to[c] += from[c];
          }
        }
      }
    }
  }
  float act_min, act_max;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const size_t pixels = static_cast<size_t>(NumElements(output)) / out_c;
  for (size_t p = 0; p < pixels; ++p) {
    float* row = out + p * out_c;
    for (int c = 0; c < out_c; ++c) {
      const float v = bias != nullptr ? row[c] + bias->data.f[c] : row[c];
      row[c] = std::min(act_max, std::max(act_min, v));
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace conv3d_transpose

TfLiteRegistration* Register_CONV_3D_TRANSPOSE() {
  static TfLiteRegistration r = {conv3d_transpose::Init, conv3d_transpose::Free,
                                 conv3d_transpose::Prepare, conv3d_transpose::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
