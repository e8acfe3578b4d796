// CONV_2D: float32 (v1), uint8 (v1, per-tensor), int8 (v3, per-channel) and int16
// activations with int8 filters (16x8, v4) via im2col + the packed GEMM in
// kernels/internal/gemm.h, in blocks of output pixels (each block's im2col rows stay in
// cache; the full im2col matrix is never built). A 1x1 stride-1 float convolution
// multiplies the input in place. Quantized results are bit-exact with TFLite's reference
// kernels: the im2col rows hold input + input_offset (so padding is 0, as the reference
// skips it) and the packed filter holds filter + filter_offset, both as int16.
//
// int16 (zero points 0) dispatches on the bias type as TFLite Micro does: an int64 bias
// takes ConvPerChannel<int64_t> (exact int64 sums, the 64-bit MultiplyByQuantizedMultiplier),
// an int32 bias or none ConvPerChannel<int32_t> (int32 sums and requantization; without
// bias the quantized_bias_type option may ask for int64, as in TFLite). Like
// TFLite's kernel it dispatches on types, not on the version the model declares (TFLite's
// converter writes v3 for some 16x8 convolutions).
//
// Not implemented: hybrid (float input, int8 filter; v2/v5), grouped convolution (v6),
// int4 filters (v7), the quantized_bias_type option (v8).
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/padding.h"
#include "kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace conv {
namespace {

struct OpData {
  TfLitePaddingValues padding{};
  int out_height = 0;
  int out_width = 0;
  bool direct = false;  // 1x1, stride 1, float: the input is the GEMM's A
  conv_util::QuantParams quant;
  conv_util::PackedWeights weights;
  std::vector<float> im2col_f;  // per-task im2col blocks (ChunkedIm2ColGemm)
  std::vector<int16_t> im2col_q;
};

struct Geometry {
  int batches, in_h, in_w, in_c, f_h, f_w, out_h, out_w, out_c;
  int stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE(context, NumInputs(node) == 2 || NumInputs(node) == 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* filter;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &filter));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;

  TF_LITE_ENSURE_EQ(context, NumDimensions(input), 4);
  TF_LITE_ENSURE_EQ(context, NumDimensions(filter), 4);
  TF_LITE_ENSURE(context, params->stride_width > 0 && params->stride_height > 0);
  TF_LITE_ENSURE(context, params->dilation_width_factor > 0 && params->dilation_height_factor > 0);
  const int channels_out = SizeOfDimension(filter, 0);
  if (SizeOfDimension(input, 3) != SizeOfDimension(filter, 3)) {
    TF_LITE_KERNEL_LOG(context,
                       "Grouped convolution not supported (input depth %d, filter depth %d).",
                       SizeOfDimension(input, 3), SizeOfDimension(filter, 3));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(conv_util::CheckActivation(context, params->activation));

  TF_LITE_ENSURE_STATUS(
      conv_util::CheckConvTypes(context, "CONV_2D", input, filter, bias, output, channels_out,
                                /*int16_int32_bias=*/true));
  if (input->type == kTfLiteInt16) {
    TF_LITE_ENSURE_STATUS(conv_util::CheckQuantizedBiasType(context, "CONV_2D",
                                                            params->quantized_bias_type, bias));
  }

  int out_h = 0, out_w = 0;
  TF_LITE_ENSURE_STATUS(conv_util::ComputeConvGeometry(context, "CONV_2D", params, input, filter,
                                                       &data->padding, &out_h, &out_w));
  data->out_height = out_h;
  data->out_width = out_w;
  if (input->type != kTfLiteFloat32) {
    TF_LITE_ENSURE_STATUS(conv_util::PrepareConvQuant(
        context, input, filter, bias, output, params->activation, channels_out, &data->quant));
  }

  const int batches = SizeOfDimension(input, 0);
  const bool one_by_one = SizeOfDimension(filter, 1) == 1 && SizeOfDimension(filter, 2) == 1 &&
                          params->stride_height == 1 && params->stride_width == 1;
  data->direct = one_by_one && input->type == kTfLiteFloat32;
  data->weights.Invalidate();

  TfLiteIntArray* out_shape = TfLiteIntArrayCreate(4);
  out_shape->data[0] = batches;
  out_shape->data[1] = out_h;
  out_shape->data[2] = out_w;
  out_shape->data[3] = channels_out;
  return context->ResizeTensor(context, output, out_shape);
}

// Rows [r0, r1) of the im2col matrix into dst: row r is output pixel (b, oy, ox) in NHWC
// order, holding its filter window as [fy][fx][in_c], converted with `convert`, and `pad`
// outside the image.
template <typename In, typename Out, typename Convert>
void Im2ColRows(const Geometry& g, const In* input, size_t r0, size_t r1, Out pad, Convert convert,
                Out* dst) {
  const int depth = g.f_h * g.f_w * g.in_c;
  for (size_t r = r0; r < r1; ++r) {
    const int ox = static_cast<int>(r % g.out_w);
    const int oy = static_cast<int>((r / g.out_w) % g.out_h);
    const size_t b = r / g.out_w / g.out_h;
    Out* row = dst + (r - r0) * depth;
    for (int fy = 0; fy < g.f_h; ++fy) {
      const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
      for (int fx = 0; fx < g.f_w; ++fx) {
        const int ix = ox * g.stride_w - g.pad_w + fx * g.dil_w;
        Out* cell = row + (fy * g.f_w + fx) * g.in_c;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::fill(cell, cell + g.in_c, pad);
          continue;
        }
        const In* src = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c;
        for (int c = 0; c < g.in_c; ++c) cell[c] = convert(src[c]);
      }
    }
  }
}

// im2col + GEMM in blocks of kChunkRows output pixels, so the im2col block stays in cache
// and the whole matrix is never materialized. The pixels are split into `tasks`
// contiguous ranges run on the pool; task t uses slice t of `scratch` (grown here).
// fill(r0, r1, buf) writes im2col rows, gemm(r0, r1, buf) multiplies them.
constexpr size_t kChunkRows = 96;

template <typename Out, typename Fill, typename Gemm>
void ChunkedIm2ColGemm(size_t rows, int depth, int out_c, std::vector<Out>* scratch,
                       pthreadpool* pool, const Fill& fill, const Gemm& gemm) {
  const size_t chunks = (rows + kChunkRows - 1) / kChunkRows;
  const size_t threads = parallel::NumThreads(pool);
  const size_t tasks = std::max<size_t>(1, std::min(chunks, threads > 1 ? threads * 4 : 1));
  const size_t slice = kChunkRows * static_cast<size_t>(depth);
  if (scratch->size() < tasks * slice) scratch->resize(tasks * slice);
  const size_t chunks_per_task = (chunks + tasks - 1) / tasks;
  const double work = static_cast<double>(rows) * depth * out_c;
  parallel::ParallelFor(pool, tasks, work, [&](size_t t) {
    Out* buf = scratch->data() + t * slice;
    const size_t last = std::min(chunks, (t + 1) * chunks_per_task);
    for (size_t ch = t * chunks_per_task; ch < last; ++ch) {
      const size_t r0 = ch * kChunkRows;
      const size_t r1 = std::min(rows, r0 + kChunkRows);
      fill(r0, r1, buf);
      gemm(r0, r1, buf);
    }
  });
}

Geometry MakeGeometry(const OpData& data, const TfLiteConvParams& params, const TfLiteTensor* input,
                      const TfLiteTensor* filter) {
  Geometry g;
  g.batches = SizeOfDimension(input, 0);
  g.in_h = SizeOfDimension(input, 1);
  g.in_w = SizeOfDimension(input, 2);
  g.in_c = SizeOfDimension(input, 3);
  g.f_h = SizeOfDimension(filter, 1);
  g.f_w = SizeOfDimension(filter, 2);
  g.out_c = SizeOfDimension(filter, 0);
  g.out_h = data.out_height;
  g.out_w = data.out_width;
  g.stride_h = params.stride_height;
  g.stride_w = params.stride_width;
  g.dil_h = params.dilation_height_factor;
  g.dil_w = params.dilation_width_factor;
  g.pad_h = data.padding.height;
  g.pad_w = data.padding.width;
  return g;
}

template <typename T>
void EvalQuantized(const Geometry& g, OpData* data, const TfLiteTensor* input,
                   const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
                   pthreadpool* pool) {
  const int depth = g.f_h * g.f_w * g.in_c;
  const int32_t input_offset = data->quant.input_offset;
  data->weights.Pack(filter, g.out_c, depth, -data->quant.filter_offset);
  const T* in = GetTensorData<T>(input);
  T* out = GetTensorData<T>(output);
  const gemm::QuantizedOutputStage stage =
      data->quant.Stage(bias != nullptr ? bias->data.i32 : nullptr);
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  ChunkedIm2ColGemm(
      rows, depth, g.out_c, &data->im2col_q, pool,
      [&](size_t r0, size_t r1, int16_t* buf) {
        Im2ColRows(
            g, in, r0, r1, int16_t{0},
            [input_offset](T v) { return static_cast<int16_t>(v + input_offset); }, buf);
      },
      [&](size_t r0, size_t r1, const int16_t* buf) {
        gemm::QuantizedGemm(static_cast<int>(r1 - r0), g.out_c, depth, buf, depth,
                            data->weights.q.data(), out + r0 * g.out_c, g.out_c, stage, nullptr);
      });
}

// int16 activations: the im2col rows hold the input as it is (zero point 0; padding 0).
void EvalInt16(const Geometry& g, OpData* data, const TfLiteConvParams& params,
               const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* bias,
               TfLiteTensor* output, pthreadpool* pool) {
  const int depth = g.f_h * g.f_w * g.in_c;
  data->weights.Pack(filter, g.out_c, depth, 0);
  const int16_t* in = input->data.i16;
  int16_t* out = output->data.i16;
  const int16_t* packed = data->weights.q.data();
  const bool wide = conv_util::Int16WideAccumulator(bias, params.quantized_bias_type);
  const gemm::Quantized16x8OutputStage stage64 =
      data->quant.Stage16x8(wide && bias != nullptr ? bias->data.i64 : nullptr);
  const gemm::QuantizedOutputStage stage32 =
      data->quant.Stage(!wide && bias != nullptr ? bias->data.i32 : nullptr);
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  ChunkedIm2ColGemm(
      rows, depth, g.out_c, &data->im2col_q, pool,
      [&](size_t r0, size_t r1, int16_t* buf) {
        Im2ColRows(
            g, in, r0, r1, int16_t{0}, [](int16_t v) { return v; }, buf);
      },
      [&](size_t r0, size_t r1, const int16_t* buf) {
        const int m = static_cast<int>(r1 - r0);
        if (wide) {
          gemm::QuantizedGemm16x8(m, g.out_c, depth, buf, depth, packed, out + r0 * g.out_c,
                                  g.out_c, stage64, nullptr);
        } else {
          gemm::QuantizedGemm(m, g.out_c, depth, buf, depth, packed, out + r0 * g.out_c, g.out_c,
                              stage32, nullptr);
        }
      });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  pthreadpool* pool = parallel::ThreadPool(context);
  const Geometry g = MakeGeometry(*data, *params, input, filter);
  const int depth = g.f_h * g.f_w * g.in_c;
  const int rows = g.batches * g.out_h * g.out_w;

  switch (input->type) {
    case kTfLiteFloat32: {
      data->weights.Pack(filter, g.out_c, depth, 0);
      const gemm::FloatOutputStage stage =
          conv_util::FloatStage(params->activation, bias != nullptr ? bias->data.f : nullptr);
      const float* packed = data->weights.f.data();
      float* out = output->data.f;
      if (data->direct) {  // 1x1, stride 1: the input already is the im2col matrix
        gemm::FloatGemm(rows, g.out_c, depth, input->data.f, depth, packed, out, g.out_c, stage,
                        pool);
        return kTfLiteOk;
      }
      ChunkedIm2ColGemm(
          static_cast<size_t>(rows), depth, g.out_c, &data->im2col_f, pool,
          [&](size_t r0, size_t r1, float* buf) {
            Im2ColRows(
                g, input->data.f, r0, r1, 0.0f, [](float v) { return v; }, buf);
          },
          [&](size_t r0, size_t r1, const float* buf) {
            gemm::FloatGemm(static_cast<int>(r1 - r0), g.out_c, depth, buf, depth, packed,
                            out + r0 * g.out_c, g.out_c, stage, nullptr);
          });
      return kTfLiteOk;
    }
    case kTfLiteInt8:
      EvalQuantized<int8_t>(g, data, input, filter, bias, output, pool);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantized<uint8_t>(g, data, input, filter, bias, output, pool);
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalInt16(g, data, *params, input, filter, bias, output, pool);
      return kTfLiteOk;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
}

}  // namespace
}  // namespace conv

TfLiteRegistration* Register_CONV_2D() {
  static TfLiteRegistration r = {conv::Init, conv::Free, conv::Prepare, conv::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
