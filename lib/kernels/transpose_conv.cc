// TRANSPOSE_CONV (NHWC), float32: the gradient of CONV_2D, as TFLite's
// reference_ops::TransposeConv. Inputs: output_shape (int32 [4]), weights [out_c, kh,
// kw, in_c], input [n, h, w, in_c] and an optional float bias [out_c] (v3); fused
// clamping activation (v4). Padding is the one of a CONV_2D from the output size to
// the input. A non-constant output_shape makes the output dynamic.
//
// Computed with the shared packed GEMM: col[pixel][(oc, fy, fx)] = input[pixel] . w,
// then each col row is scattered (col2im) into the output, then bias and clamp. The
// packed weights are cached while they are constant.
//
// Quantized, bit-exact with TFLite's reference kernels (sums of (x - zp_x) * (w - zp_w)
// scattered into the output, + bias, each channel requantized with the convolution
// multipliers of PopulateConvolutionQuantizationParams, clamped to the activation range):
//   uint8 (v1; per-tensor, int32 bias): reference_ops::TransposeConv;
//   int8 (v2; per-channel or per-tensor filter, int32 bias) and int16 activations with
//   int8 weights ("16x8", v2 too as TFLite versions it by the weights; zero points 0,
//   int64 bias, int64 sums): reference_integer_ops::TransposeConv. With
//   quantized_bias_type = int32 (v5) a 16x8 kernel takes an int32 bias (or none) and sums
//   and requantizes in int32 (the reference template's int32 scratch); an int32 bias
//   without that option is refused (TFLite would read it as int64).
// Hybrid (float input, int8 weights with one scale or one per output channel; v2), as
// TFLite 2.21's: each batch of the input quantized asymmetrically
// (tensor_utils::AsymmetricQuantizeFloats, with one scale or per channel alike), exact
// int32 sums of (q - zero point) * w, each output rescaled as float(sum) * channel scale *
// input scale, + float bias, clamped. TFLite's own sums reach the same values within an
// ulp (their float order is not reproduced): checked against ai-edge-litert 2.3.0 on
// testdata/kernels/transpose_conv_hybrid_* .
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/padding.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/requantize.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace transpose_conv {
namespace {

constexpr int kOutputShape = 0, kWeights = 1, kInput = 2, kBias = 3;
// Floats of col scratch per chunk of input rows (4 MiB).
constexpr int64_t kColBudget = int64_t{1} << 20;

struct OpData {
  conv_util::PackedWeights weights;
  std::vector<float> col;
  // 8-bit activations: the input rows as int16 (x + input_offset), their int32 col rows
  // and one batch's int32 sums.
  std::vector<int16_t> rows_q;
  std::vector<int32_t> col_q;
  std::vector<int32_t> acc_q;
  conv_util::QuantParams quant;  // quantized types
  // Hybrid: the weights' scale per output channel and one batch's quantized input.
  bool hybrid = false;
  std::vector<float> filter_scale;
  hybrid::QuantizedRows image;
  bool int16_int32_acc = false;   // 16x8 with quantized_bias_type int32 (v5)
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* shape,
                          const TfLiteTensor* weights, const TfLiteTensor* input,
                          TfLiteTensor* output) {
  TF_LITE_ENSURE_EQ(context, NumElements(shape), 4);
  const int32_t* s = shape->data.i32;
  if (s[0] != SizeOfDimension(input, 0) || s[3] != SizeOfDimension(weights, 0) || s[1] <= 0 ||
      s[2] <= 0) {
    TF_LITE_KERNEL_LOG(context,
                       "TRANSPOSE_CONV: output_shape [%d, %d, %d, %d] does not fit batch %d and "
                       "%d output channels.",
                       s[0], s[1], s[2], s[3], SizeOfDimension(input, 0),
                       SizeOfDimension(weights, 0));
    return kTfLiteError;
  }
  TfLiteIntArray* dims = TfLiteIntArrayCreate(4);
  for (int i = 0; i < 4; ++i) dims->data[i] = s[i];
  return context->ResizeTensor(context, output, dims);
}

// Hybrid weights: int8 with one scale, or one per output channel on dimension 0, zero
// points 0.
TfLiteStatus PrepareHybridScales(TfLiteContext* context, const TfLiteTensor* weights,
                                 OpData* data) {
  const int channels = SizeOfDimension(weights, 0);
  const TfLiteAffineQuantization* wq = conv_util::Affine(weights);
  const int scales = wq != nullptr && wq->scale != nullptr ? wq->scale->size : 0;
  if ((scales != 1 && scales != channels) || (scales > 1 && wq->quantized_dimension != 0)) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare hybrid TRANSPOSE_CONV: int8 weights need one scale or "
                       "one per output channel on dimension 0 (expected 1 or %d, got %d).",
                       channels, scales);
    return kTfLiteError;
  }
  for (int i = 0; wq->zero_point != nullptr && i < wq->zero_point->size; ++i) {
    if (wq->zero_point->data[i] != 0) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare hybrid TRANSPOSE_CONV: int8 weights must be "
                         "symmetric (zero point %d of channel %d).",
                         wq->zero_point->data[i], i);
      return kTfLiteError;
    }
  }
  data->filter_scale.resize(channels);
  for (int c = 0; c < channels; ++c) data->filter_scale[c] = wq->scale->data[scales == 1 ? 0 : c];
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, NumInputs(node) == 3 || NumInputs(node) == 4);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  auto* data = static_cast<OpData*>(node->user_data);
  data->weights.Invalidate();
  const auto* params = static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor *shape, *weights, *input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kOutputShape, &shape));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kWeights, &weights));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInput, &input));
  const TfLiteTensor* bias =
      NumInputs(node) == 4 ? GetOptionalInputTensor(context, node, kBias) : nullptr;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteType type = input->type;
  if (type != kTfLiteFloat32 && type != kTfLiteUInt8 && type != kTfLiteInt8 &&
      type != kTfLiteInt16) {
    return conv_util::UnsupportedType(context, type);
  }
  data->hybrid = type == kTfLiteFloat32 && weights->type == kTfLiteInt8;
  if (type == kTfLiteInt16) {
    TF_LITE_ENSURE_OK(context, conv_util::CheckInt16Weights(context, "TRANSPOSE_CONV", weights));
  } else if (data->hybrid) {
    TF_LITE_ENSURE_OK(context, PrepareHybridScales(context, weights, data));
  } else if (weights->type != type) {
    return conv_util::UnsupportedType(context, weights->type);
  }
  if (output->type != type) return conv_util::UnsupportedType(context, output->type);
  TF_LITE_ENSURE_TYPES_EQ(context, shape->type, kTfLiteInt32);
  TF_LITE_ENSURE_EQ(context, NumDimensions(shape), 1);
  TF_LITE_ENSURE_EQ(context, NumDimensions(input), 4);
  TF_LITE_ENSURE_EQ(context, NumDimensions(weights), 4);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, 3), SizeOfDimension(weights, 3));
  TF_LITE_ENSURE_OK(context, conv_util::CheckActivation(context, params->activation));
  if (type != kTfLiteFloat32) {
    if (type == kTfLiteInt16) {
      TF_LITE_ENSURE_OK(context, conv_util::CheckQuantizedBiasType(
                                     context, "TRANSPOSE_CONV", params->quantized_bias_type, bias));
      data->int16_int32_acc = params->quantized_bias_type == kTfLiteInt32;
      TF_LITE_ENSURE_OK(context, conv_util::CheckInt16Bias(context, "TRANSPOSE_CONV", bias,
                                                           SizeOfDimension(weights, 0),
                                                           data->int16_int32_acc));
      TF_LITE_ENSURE_OK(context,
                        conv_util::CheckInt16ZeroPoints(context, "TRANSPOSE_CONV", input, output));
    } else {
      TF_LITE_ENSURE_OK(context,
                        conv_util::CheckQuantBias(context, bias, SizeOfDimension(weights, 0)));
    }
    TF_LITE_ENSURE_OK(context, conv_util::PrepareConvQuant(
                                   context, input, weights, bias, output, params->activation,
                                   SizeOfDimension(weights, 0), &data->quant));
  } else {
    TF_LITE_ENSURE_OK(context,
                      conv_util::CheckFloatBias(context, bias, SizeOfDimension(weights, 0)));
  }
  if (params->stride_height <= 0 || params->stride_width <= 0) {
    TF_LITE_KERNEL_LOG(context, "TRANSPOSE_CONV: strides must be positive, got %d x %d.",
                       params->stride_height, params->stride_width);
    return kTfLiteError;
  }
  if (params->padding != kTfLitePaddingSame && params->padding != kTfLitePaddingValid) {
    TF_LITE_KERNEL_LOG(context, "TRANSPOSE_CONV: unknown padding %d.", params->padding);
    return kTfLiteError;
  }
  const int64_t n = static_cast<int64_t>(SizeOfDimension(weights, 0)) *
                    SizeOfDimension(weights, 1) * SizeOfDimension(weights, 2);
  TF_LITE_ENSURE(context, n <= INT32_MAX / 2);
  if (!IsConstantOrPersistentTensor(shape)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, shape, weights, input, output);
}

struct Geometry {
  int batches, in_h, in_w, in_c, out_h, out_w, out_c, kh, kw;
  int stride_h, stride_w, pad_h, pad_w;
};

inline void AddInto(float& o, float v) { o += v; }
inline void AddInto(int32_t& o, int32_t v) { o = WrappingAdd(o, v); }  // as the reference's

// Adds col (rows * in_w pixels starting at input row y0, each kh*kw*out_c values in
// (oc, fy, fx) order) into out (one batch).
template <typename V>
void Col2Im(const Geometry& g, const V* col, int y0, int rows, V* out) {
  const int taps = g.kh * g.kw;
  const int n = g.out_c * taps;
  for (int r = 0; r < rows; ++r) {
    // In 64 bits: a crafted stride times an input row overflows int (the output size
    // comes from the output_shape tensor, not from the stride).
    const int64_t oy0 = static_cast<int64_t>(y0 + r) * g.stride_h - g.pad_h;
    for (int x = 0; x < g.in_w; ++x) {
      const int64_t ox0 = static_cast<int64_t>(x) * g.stride_w - g.pad_w;
      const V* c = col + (static_cast<int64_t>(r) * g.in_w + x) * n;
      for (int fy = 0; fy < g.kh; ++fy) {
        const int64_t oy = oy0 + fy;
        if (oy < 0 || oy >= g.out_h) continue;
        for (int fx = 0; fx < g.kw; ++fx) {
          const int64_t ox = ox0 + fx;
          if (ox < 0 || ox >= g.out_w) continue;
          V* o = out + (static_cast<int64_t>(oy) * g.out_w + ox) * g.out_c;
          const V* src = c + fy * g.kw + fx;
          for (int oc = 0; oc < g.out_c; ++oc) AddInto(o[oc], src[oc * taps]);
        }
      }
    }
  }
}

// The exact int32 sums of 8-bit activations on the packed GEMM: each batch image's rows of
// (x + offset) as int16 times the packed (w - weight zero point), then col2im into one
// batch's int32 sums (data->acc_q). int32 additions wrap alike in any order, so the sums are
// the reference's. Rows go in chunks that keep the col scratch within kColBudget.
struct Int32Sums {
  int n = 0;      // out_c * kh * kw: one col row
  int chunk = 1;  // input rows a chunk
  bool any = false;
};

Int32Sums PrepareInt32Sums(OpData* data, const Geometry& g, const TfLiteTensor* weights,
                           int32_t weight_zero_point) {
  Int32Sums s;
  s.n = g.out_c * g.kh * g.kw;
  data->acc_q.resize(static_cast<size_t>(g.out_h) * g.out_w * g.out_c);
  s.any = s.n > 0 && g.in_c > 0 && g.in_h > 0 && g.in_w > 0;
  if (s.any) {
    data->weights.Pack(weights, s.n, g.in_c, weight_zero_point);
    const int64_t per_row = static_cast<int64_t>(g.in_w) * s.n;
    s.chunk =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(g.in_h, kColBudget / per_row)));
    data->col_q.resize(static_cast<size_t>(s.chunk) * per_row);
    data->rows_q.resize(static_cast<size_t>(s.chunk) * g.in_w * g.in_c);
  }
  return s;
}

// One batch image x (in_h x in_w x in_c values) into data->acc_q.
template <typename T>
void SumImage(OpData* data, const Geometry& g, const Int32Sums& s, const T* x, int32_t offset,
              pthreadpool* pool) {
  std::fill(data->acc_q.begin(), data->acc_q.end(), 0);
  for (int y0 = 0; s.any && y0 < g.in_h; y0 += s.chunk) {
    const int rows = std::min(s.chunk, g.in_h - y0);
    const size_t count = static_cast<size_t>(rows) * g.in_w * g.in_c;
    const T* row = x + static_cast<int64_t>(y0) * g.in_w * g.in_c;
    int16_t* a = data->rows_q.data();
    for (size_t i = 0; i < count; ++i) a[i] = static_cast<int16_t>(row[i] + offset);
    gemm::Int32Gemm(rows * g.in_w, s.n, g.in_c, a, g.in_c, data->weights.q.data(),
                    data->col_q.data(), s.n, pool);
    Col2Im(g, data->col_q.data(), y0, rows, data->acc_q.data());
  }
}

// 8-bit activations (uint8, int8): the int32 sums (SumImage), then bias, requantization,
// output offset and clamp per pixel (requant::OutputStageRow).
template <typename T>
void EvalQuantized8(OpData* data, const Geometry& g, const TfLiteTensor* weights, const T* input,
                    const int32_t* bias, T* output, pthreadpool* pool) {
  const conv_util::QuantParams& q = data->quant;
  const int64_t out_batch = static_cast<int64_t>(g.out_h) * g.out_w * g.out_c;
  const int64_t image = static_cast<int64_t>(g.in_h) * g.in_w * g.in_c;
  const Int32Sums sums = PrepareInt32Sums(data, g, weights, -q.filter_offset);
  const gemm::QuantizedOutputStage stage = q.Stage(bias);
  for (int b = 0; b < g.batches; ++b) {
    SumImage(data, g, sums, input + b * image, q.input_offset, pool);
    T* out = output + b * out_batch;
    for (int64_t p = 0; p < out_batch; p += g.out_c) {
      requant::OutputStageRow(data->acc_q.data() + p, g.out_c, stage, out + p);
    }
  }
}

// Hybrid: per batch, the input quantized asymmetrically, the int32 sums of q - zero point
// (SumImage), then each pixel's sums rescaled to float (hybrid::RescaleConvRow: float(sum) *
// channel scale * input scale + bias, clamped).
void EvalHybrid(OpData* data, const Geometry& g, const TfLiteTensor* weights, const float* input,
                const float* bias, float act_min, float act_max, float* output, pthreadpool* pool) {
  const int64_t out_batch = static_cast<int64_t>(g.out_h) * g.out_w * g.out_c;
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  const Int32Sums sums = PrepareInt32Sums(data, g, weights, 0);
  for (int b = 0; b < g.batches; ++b) {
    float input_scale = 1.0f;
    int32_t zero_point = 0;
    if (sums.any) {
      data->image.Quantize(input + b * image, 1, image, /*asymmetric=*/true);
      input_scale = data->image.scale[0];
      zero_point = data->image.offset[0];
    }
    SumImage(data, g, sums, data->image.values.data(), -zero_point, pool);
    float* out = output + b * out_batch;
    for (int64_t p = 0; p < out_batch; p += g.out_c) {
      hybrid::RescaleConvRow(data->acc_q.data() + p, g.out_c, data->filter_scale.data(),
                             input_scale, bias, act_min, act_max, out + p);
    }
  }
}

// int16 activations (16x8), as reference_integer_ops::TransposeConv: per output batch, a
// scatter of x * w sums into Acc (int64 with an int64 bias; int32 when
// quantized_bias_type is int32), then bias, requantization and clamp (offsets 0).
template <typename Acc, typename Bias>
void EvalInt16(OpData* data, const Geometry& g, const int16_t* input, const int8_t* weights,
               const Bias* bias, int16_t* output) {
  const conv_util::QuantParams& q = data->quant;
  const int64_t out_batch = static_cast<int64_t>(g.out_h) * g.out_w * g.out_c;
  std::vector<Acc> acc_buf(out_batch);
  for (int b = 0; b < g.batches; ++b) {
    std::fill(acc_buf.begin(), acc_buf.end(), 0);
    for (int y = 0; y < g.in_h; ++y) {
      for (int x = 0; x < g.in_w; ++x) {
        const int16_t* in =
            input + ((static_cast<int64_t>(b) * g.in_h + y) * g.in_w + x) * g.in_c;
        for (int fy = 0; fy < g.kh; ++fy) {
          // In 64 bits, as Col2Im.
          const int64_t oy = static_cast<int64_t>(y) * g.stride_h - g.pad_h + fy;
          if (oy < 0 || oy >= g.out_h) continue;
          for (int fx = 0; fx < g.kw; ++fx) {
            const int64_t ox = static_cast<int64_t>(x) * g.stride_w - g.pad_w + fx;
            if (ox < 0 || ox >= g.out_w) continue;
            Acc* acc = acc_buf.data() + (static_cast<int64_t>(oy) * g.out_w + ox) * g.out_c;
            for (int oc = 0; oc < g.out_c; ++oc) {
              const int8_t* wr =
                  weights + ((static_cast<int64_t>(oc) * g.kh + fy) * g.kw + fx) * g.in_c;
              // Sums wrap, as the reference's int32 accumulators do in practice (a crafted
              // model can overflow them; signed overflow would be undefined here).
              Acc sum = 0;
              for (int ic = 0; ic < g.in_c; ++ic) sum = WrappingAdd(sum, static_cast<Acc>(in[ic] * wr[ic]));
              acc[oc] = WrappingAdd(acc[oc], sum);
            }
          }
        }
      }
    }
    int16_t* out = output + b * out_batch;
    for (int64_t i = 0; i < out_batch; ++i) {
      const int oc = static_cast<int>(i % g.out_c);
      const Acc a = WrappingAdd(acc_buf[i], bias != nullptr ? static_cast<Acc>(bias[oc]) : Acc{0});
      const int32_t v = MultiplyByQuantizedMultiplier(a, q.multiplier[oc], q.shift[oc]);
      out[i] = static_cast<int16_t>(std::min(q.act_max, std::max(q.act_min, v)));
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto& params = *static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  const TfLiteTensor* shape = GetInput(context, node, kOutputShape);
  const TfLiteTensor* weights = GetInput(context, node, kWeights);
  const TfLiteTensor* input = GetInput(context, node, kInput);
  const TfLiteTensor* bias =
      NumInputs(node) == 4 ? GetOptionalInputTensor(context, node, kBias) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, shape, weights, input, output));
  }
  Geometry g;
  g.batches = SizeOfDimension(input, 0);
  g.in_h = SizeOfDimension(input, 1);
  g.in_w = SizeOfDimension(input, 2);
  g.in_c = SizeOfDimension(input, 3);
  g.out_h = SizeOfDimension(output, 1);
  g.out_w = SizeOfDimension(output, 2);
  g.out_c = SizeOfDimension(output, 3);
  g.kh = SizeOfDimension(weights, 1);
  g.kw = SizeOfDimension(weights, 2);
  g.stride_h = params.stride_height;
  g.stride_w = params.stride_width;
  int unused_h, unused_w;
  const TfLitePaddingValues pad =
      ComputePaddingHeightWidth(g.stride_h, g.stride_w, 1, 1, g.out_h, g.out_w, g.kh, g.kw,
                                params.padding, &unused_h, &unused_w);
  g.pad_h = pad.height;
  g.pad_w = pad.width;
  pthreadpool* pool = parallel::ThreadPool(context);
  switch (output->type) {
    case kTfLiteUInt8:
      EvalQuantized8(data, g, weights, input->data.uint8,
                     bias != nullptr ? bias->data.i32 : nullptr, output->data.uint8, pool);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantized8(data, g, weights, input->data.int8,
                     bias != nullptr ? bias->data.i32 : nullptr, output->data.int8, pool);
      return kTfLiteOk;
    case kTfLiteInt16:
      if (data->int16_int32_acc) {
        EvalInt16<int32_t>(data, g, input->data.i16, weights->data.int8,
                           bias != nullptr ? bias->data.i32 : nullptr, output->data.i16);
        return kTfLiteOk;
      }
      EvalInt16<int64_t>(data, g, input->data.i16, weights->data.int8,
                         bias != nullptr ? bias->data.i64 : nullptr, output->data.i16);
      return kTfLiteOk;
    default:
      break;
  }
  float act_min, act_max;
  CalculateActivationRange(params.activation, &act_min, &act_max);
  if (data->hybrid) {
    EvalHybrid(data, g, weights, input->data.f, bias != nullptr ? bias->data.f : nullptr, act_min,
               act_max, output->data.f, pool);
    return kTfLiteOk;
  }
  float* out = output->data.f;
  const int64_t out_size = NumElements(output);
  std::fill(out, out + out_size, 0.0f);
  const int n = g.out_c * g.kh * g.kw;
  if (out_size > 0 && n > 0 && g.in_c > 0 && NumElements(input) > 0) {
    data->weights.Pack(weights, n, g.in_c, 0);
    const int64_t per_row = static_cast<int64_t>(g.in_w) * n;
    const int chunk =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(g.in_h, kColBudget / per_row)));
    data->col.resize(static_cast<size_t>(chunk) * per_row);
    const int64_t out_batch = static_cast<int64_t>(g.out_h) * g.out_w * g.out_c;
    for (int b = 0; b < g.batches; ++b) {
      for (int y0 = 0; y0 < g.in_h; y0 += chunk) {
        const int rows = std::min(chunk, g.in_h - y0);
        const float* a = input->data.f + (static_cast<int64_t>(b) * g.in_h + y0) * g.in_w * g.in_c;
        gemm::FloatGemm(rows * g.in_w, n, g.in_c, a, g.in_c, data->weights.f.data(),
                        data->col.data(), n, gemm::FloatOutputStage(), pool);
        Col2Im(g, data->col.data(), y0, rows, out + b * out_batch);
      }
    }
  }
  for (int64_t i = 0; i < out_size; ++i) {
    float v = out[i] + (bias != nullptr ? bias->data.f[i % g.out_c] : 0.0f);
    out[i] = std::min(std::max(v, act_min), act_max);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace transpose_conv

TfLiteRegistration* Register_TRANSPOSE_CONV() {
  static TfLiteRegistration r = {transpose_conv::Init, transpose_conv::Free,
                                 transpose_conv::Prepare, transpose_conv::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
