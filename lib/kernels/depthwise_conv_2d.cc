// DEPTHWISE_CONV_2D: float32 and uint8 (v1), dilation (v2), int8 per-channel (v3), int16
// activations with int8 filters and int64 bias (16x8, v5; zero points 0), any depth
// multiplier. Direct convolution vectorized over the (contiguous) channels and split over
// output rows on the interpreter's thread pool. Quantized results are bit-exact with
// TFLite's reference kernels (taps outside the image are skipped, as there; int16 sums in
// int64 and requantizes with the 64-bit MultiplyByQuantizedMultiplier, as
// DepthwiseConvPerChannel for int16 does).
//
// The depth multiplier is taken from the shapes (filter channels / input channels), not
// from the options field, which some converters leave 0.
//
// Hybrid (float input and output, int8 filter with a scale per output channel; v6) as
// TFLite's EvalHybridPerChannel; a per-tensor filter scale (v4) is refused, as TFLite does.
//
// int8 activations take int4 filters too (v7: unpacked to int8 once).
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/depthwise_float.h"
#include "kernels/internal/depthwise_integer.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/hybrid_graph.h"
#include "kernels/internal/padding.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/requantize.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace depthwise_conv {
namespace {

struct OpData {
  TfLitePaddingValues padding{};
  // Float: the bias first, as TFLite's optimized kernel sums, in graphs with hybrid nodes.
  bool bias_first = false;
  int out_height = 0;
  int out_width = 0;
  conv_util::QuantParams quant;
  // Hybrid: per-output-channel filter scales, the quantized images, their scales/offsets.
  std::vector<float> filter_scale;
  hybrid::QuantizedRows images;
  std::vector<int8_t> filter_unpacked;  // int4 filter as int8
  // 8-bit activations: the filter packed for dwconv::Int8Sums (once while it is constant)
  // and a row of the input zero point per batch image; with a depth multiplier m > 1, the
  // input with each channel repeated m times (RepeatChannels).
  dwconv::Int8Sums sums;
  bool sums_ok = false;
  std::vector<uint8_t> zero_rows;
  std::vector<uint8_t> repeated;
  dwconv::RowStage row_stage;
};

using Geometry = dwconv::Geometry;

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// Hybrid (float input and output, int8 filter): TFLite's kernel reads one scale per output
// channel (it checks scale count == filter dims[quantized_dimension] and then indexes the
// scales by output channel), so one scale per output channel on dimension 3 it is; a
// per-tensor scale (a model labelled v4) is refused, as TFLite refuses it.
TfLiteStatus PrepareHybrid(TfLiteContext* context, const TfLiteTensor* filter,
                           const TfLiteTensor* bias, const TfLiteTensor* output, int channels_out,
                           OpData* data) {
  TF_LITE_ENSURE_STATUS(conv_util::CheckFloatBias(context, bias, channels_out));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  const TfLiteAffineQuantization* fq = conv_util::Affine(filter);
  const int scales = fq != nullptr && fq->scale != nullptr ? fq->scale->size : 0;
  if (scales != channels_out || (channels_out > 1 && fq->quantized_dimension != 3)) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare hybrid DEPTHWISE_CONV_2D: the int8 filter needs one "
                       "scale per output channel on dimension 3, as TFLite's hybrid kernel "
                       "(expected %d scales, got %d on dimension %d).",
                       channels_out, scales, fq != nullptr ? fq->quantized_dimension : 0);
    return kTfLiteError;
  }
  data->filter_scale.assign(fq->scale->data, fq->scale->data + channels_out);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  data->filter_unpacked.clear();
  data->sums = dwconv::Int8Sums();
  data->sums_ok = false;
  const auto* params = static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
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
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(filter, 0), 1);
  TF_LITE_ENSURE(context, params->stride_width > 0 && params->stride_height > 0);
  TF_LITE_ENSURE(context, params->dilation_width_factor > 0 && params->dilation_height_factor > 0);
  const int in_c = SizeOfDimension(input, 3);
  const int channels_out = SizeOfDimension(filter, 3);
  TF_LITE_ENSURE(context, in_c > 0 && channels_out % in_c == 0);
  TF_LITE_ENSURE_STATUS(conv_util::CheckActivation(context, params->activation));

  data->bias_first = input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32 &&
                     hybrid::GraphHasHybridNodes(context);
  if (input->type == kTfLiteFloat32 && filter->type == kTfLiteInt8) {
    TF_LITE_ENSURE_STATUS(PrepareHybrid(context, filter, bias, output, channels_out, data));
  } else {
    TF_LITE_ENSURE_STATUS(
        conv_util::CheckConvTypes(context, "DEPTHWISE_CONV_2D", input, filter, bias, output,
                                  channels_out, /*int16_int32_bias=*/false, /*allow_int4=*/true));
  }

  int out_h = 0, out_w = 0;
  TF_LITE_ENSURE_STATUS(conv_util::ComputeConvGeometry(context, "DEPTHWISE_CONV_2D", params, input, filter,
                                                       &data->padding, &out_h, &out_w));
  data->out_height = out_h;
  data->out_width = out_w;
  if (input->type != kTfLiteFloat32) {
    TF_LITE_ENSURE_STATUS(conv_util::PrepareConvQuant(
        context, input, filter, bias, output, params->activation, channels_out, &data->quant));
  }
  TfLiteIntArray* out_shape = TfLiteIntArrayCreate(4);
  out_shape->data[0] = SizeOfDimension(input, 0);
  out_shape->data[1] = out_h;
  out_shape->data[2] = out_w;
  out_shape->data[3] = channels_out;
  return context->ResizeTensor(context, output, out_shape);
}

Geometry MakeGeometry(const OpData& data, const TfLiteDepthwiseConvParams& params,
                      const TfLiteTensor* input, const TfLiteTensor* filter) {
  Geometry g;
  g.batches = SizeOfDimension(input, 0);
  g.in_h = SizeOfDimension(input, 1);
  g.in_w = SizeOfDimension(input, 2);
  g.in_c = SizeOfDimension(input, 3);
  g.f_h = SizeOfDimension(filter, 1);
  g.f_w = SizeOfDimension(filter, 2);
  g.out_c = SizeOfDimension(filter, 3);
  g.depth_multiplier = g.out_c / g.in_c;
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


// Integer sums of every output pixel, acc[c] = sum over taps of (f + f_off) * (in +
// in_off(b)), each pixel's handed to finish(b, output_index, acc); output rows split over
// the pool. Acc is int32 for 8-bit inputs, int64 for int16 (as TFLite's reference kernels).
template <typename Acc, typename In, typename F, typename InOff, typename Finish>
void IntegerPixels(const Geometry& g, const In* input, const F* filter, Acc f_off,
                   const InOff& in_off, pthreadpool* pool, const Finish& finish) {
  const int dm = g.depth_multiplier;
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h;
  const double work = static_cast<double>(rows) * g.out_w * g.out_c * g.f_h * g.f_w;
  parallel::ParallelFor(pool, rows, work, [&](size_t r) {
    const int b = static_cast<int>(r) / g.out_h;
    const int oy = static_cast<int>(r) % g.out_h;
    const Acc offset = in_off(b);
    std::vector<Acc> acc(g.out_c);
    for (int ox = 0; ox < g.out_w; ++ox) {
      std::fill(acc.begin(), acc.end(), Acc{0});
      Acc* a = acc.data();
      dwconv::ForEachTap(g, input, filter, b, oy, ox, [&](const In* in, const F* f) {
        if (dm == 1) {
          for (int c = 0; c < g.out_c; ++c) {
            a[c] = WrappingAdd(a[c], (static_cast<Acc>(f[c]) + f_off) * (static_cast<Acc>(in[c]) + offset));
          }
        } else {
          for (int ic = 0; ic < g.in_c; ++ic) {
            const Acc v = static_cast<Acc>(in[ic]) + offset;
            for (int m = 0; m < dm; ++m) {
              a[ic * dm + m] = WrappingAdd(a[ic * dm + m], (static_cast<Acc>(f[ic * dm + m]) + f_off) * v);
            }
          }
        }
      });
      finish(b, (r * g.out_w + ox) * g.out_c, a);
    }
  });
}

// Whether the packed path takes a depth multiplier m > 1: through RepeatChannels' copy of
// the input, m times its size, which is bounded by a small multiple of the output (a
// crafted large stride would otherwise make it far larger than anything the node writes).
bool RepeatsFit(const Geometry& g) {
  if (g.depth_multiplier == 1) return true;
  const double repeated = static_cast<double>(g.batches) * g.in_h * g.in_w * g.out_c;
  const double output = static_cast<double>(g.batches) * g.out_h * g.out_w * g.out_c;
  return g.in_c * g.depth_multiplier == g.out_c && repeated <= std::max(4.0 * output, 1048576.0);
}

// Depth multiplier m > 1: output channel ic * m + k reads input channel ic, so multiplier 1
// over the input with every channel repeated m times gives the same sums. Writes that
// input into data->repeated, points *input at it and returns its geometry; g itself when
// m is 1.
template <typename In>
Geometry RepeatChannels(const Geometry& g, OpData* data, const In** input) {
  if (g.depth_multiplier == 1) return g;
  const int m = g.depth_multiplier;
  const size_t pixels = static_cast<size_t>(g.batches) * g.in_h * g.in_w;
  data->repeated.resize(pixels * g.out_c * sizeof(In));
  In* out = reinterpret_cast<In*>(data->repeated.data());
  const In* in = *input;
  for (size_t p = 0; p < pixels; ++p) {
    for (int c = 0; c < g.in_c; ++c) {
      std::fill_n(out, m, in[c]);
      out += m;
    }
    in += g.in_c;
  }
  *input = reinterpret_cast<const In*>(data->repeated.data());
  Geometry repeated = g;
  repeated.in_c = g.out_c;
  repeated.depth_multiplier = 1;
  return repeated;
}

// The packed path (8-bit activations): packs the filter (once while it is constant) and
// reports whether dwconv::Int8Sums takes this node; it does not on a CPU without its
// vector loop, nor when a crafted zero point leaves what its arithmetic covers, nor when
// a depth multiplier's repeated input would be too large (the generic loops do it then).
template <typename F>
bool PreparePacked(const Geometry& g, OpData* data, const TfLiteTensor* filter, const F* f,
                   int32_t filter_offset) {
  if (!RepeatsFit(g) || !dwconv::Int8Sums::Vectorized()) return false;
  if (!data->sums.packed() || !IsConstantOrPersistentTensor(filter)) {
    data->sums_ok = data->sums.Pack(f, g.f_h * g.f_w, g.out_c, filter_offset);
  }
  return data->sums_ok;
}

// Rows of int32 sums from the packed filter: finish(b, row, acc) gets output row `row`'s
// out_w x out_c sums.
template <typename In, typename ZeroPoint, typename Finish>
void PackedRows(const Geometry& g, OpData* data, const In* input, const ZeroPoint& zero_point,
                pthreadpool* pool, const Finish& finish) {
  const dwconv::Window w = dwconv::WindowOf(g);
  dwconv::ForEachPackedRow<In>(
      g, input, zero_point, &data->zero_rows, pool,
      [&](size_t r, int b, int oy, const In* image, const In* zero_row) {
        std::vector<int32_t> acc(static_cast<size_t>(g.out_w) * g.out_c);
        data->sums.Row(w, image, oy, 0, g.out_w, -zero_point(b), zero_row, acc.data());
        finish(b, r, acc.data());
      });
}

template <typename T>
bool FitsIn(int32_t v) {
  return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
}

// 8-bit activations with the packed sums; false when the node needs the generic loops.
template <typename In, typename F>
bool EvalPacked(const Geometry& g, OpData* data, const TfLiteTensor* filter, const In* input,
                const F* f, const int32_t* bias, In* output, pthreadpool* pool) {
  const conv_util::QuantParams& q = data->quant;
  if (!FitsIn<In>(-q.input_offset) ||
      !PreparePacked(g, data, filter, f, static_cast<int32_t>(q.filter_offset))) {
    return false;
  }
  data->sums.PrepareStage(q.input_offset, q.Stage(bias), &data->row_stage);
  const Geometry g1 = RepeatChannels(g, data, &input);
  const dwconv::Window w = dwconv::WindowOf(g1);
  dwconv::ForEachPackedRow<In>(
      g1, input, [&q](int) { return -q.input_offset; }, &data->zero_rows, pool,
      [&](size_t r, int, int oy, const In* image, const In* zero_row) {
        data->sums.RowQuantized(w, image, oy, 0, g.out_w, zero_row, data->row_stage,
                                output + r * g.out_w * static_cast<size_t>(g.out_c));
      });
  return true;
}

// Quantized: In/F are the input and filter types, Acc the accumulator, B the bias type.
template <typename Acc, typename In, typename F, typename B, typename Out>
void EvalQuantized(const Geometry& g, const conv_util::QuantParams& q, const In* input,
                   const F* filter, const B* bias, Out* output, pthreadpool* pool) {
  const Acc in_off = q.input_offset;
  IntegerPixels<Acc>(
      g, input, filter, static_cast<Acc>(q.filter_offset), [in_off](int) { return in_off; }, pool,
      [&](int, size_t out_index, const Acc* a) {
        Out* out = output + out_index;
        for (int c = 0; c < g.out_c; ++c) {
          // int32 sums wrap, as upstream's do on every target (crafted biases overflow).
          Acc v = a[c];
          if (bias != nullptr) v = WrappingAdd(v, static_cast<Acc>(bias[c]));
          int32_t scaled = MultiplyByQuantizedMultiplier(v, q.multiplier[c], q.shift[c]);
          scaled = WrappingAdd(scaled, q.output_offset);
          out[c] = static_cast<Out>(std::min(std::max(scaled, q.act_min), q.act_max));
        }
      });
}

// Hybrid, as TFLite's EvalHybridPerChannel: each batch image quantized asymmetrically
// (AsymmetricQuantizeFloats over H*W*C), int32 sums of w * (q - offset), then
// float(sum) * channel_scale * image_scale + bias, clamped (the order of float operations
// of TFLite's optimized DepthwiseConvHybridPerChannel, whose results the goldens are; see
// finish_pixel).
void EvalHybrid(const Geometry& g, OpData* data, const TfLiteDepthwiseConvParams& params,
                const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* bias,
                TfLiteTensor* output, pthreadpool* pool) {
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  hybrid::QuantizedRows& images = data->images;
  images.Quantize(input->data.f, g.batches, image, /*asymmetric=*/true);
  float act_min, act_max;
  CalculateActivationRange(params.activation, &act_min, &act_max);
  const float* scale = data->filter_scale.data();
  const float* bias_data = bias != nullptr ? bias->data.f : nullptr;
  const int32_t* offset = images.offset.data();
  // TFLite's optimized kernel rescales 4 channels at a time as float(sum) * channel_scale *
  // image_scale and the last out_c % 4 one by one as float(sum) * image_scale *
  // channel_scale (its reference kernel: sum * (channel_scale * image_scale) everywhere).
  const int c4 = g.out_c & ~3;
  auto finish_pixel = [&](int b, size_t out_index, const int32_t* a) {
    float* out = output->data.f + out_index;
    const float image_scale = images.scale[b];
    hybrid::RescaleConvRow(a, c4, scale, image_scale, bias_data, act_min, act_max, out);
    for (int c = c4; c < g.out_c; ++c) {
      float v = static_cast<float>(a[c]) * image_scale * scale[c];
      if (bias_data != nullptr) v += bias_data[c];
      out[c] = std::min(std::max(v, act_min), act_max);
    }
  };
  if (PreparePacked(g, data, filter, filter->data.int8, 0)) {
    // The images' zero points are int8 (AsymmetricQuantizeFloats' range).
    const int8_t* values = images.values.data();
    const Geometry g1 = RepeatChannels(g, data, &values);
    PackedRows<int8_t>(
        g1, data, values, [offset](int b) { return offset[b]; }, pool,
        [&](int b, size_t r, const int32_t* acc) {
          for (int ox = 0; ox < g.out_w; ++ox) {
            const size_t at = static_cast<size_t>(ox) * g.out_c;
            finish_pixel(b, (r * g.out_w) * g.out_c + at, acc + at);
          }
        });
    return;
  }
  IntegerPixels<int32_t>(
      g, images.values.data(), filter->data.int8, 0, [offset](int b) { return -offset[b]; },
      pool, finish_pixel);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  pthreadpool* pool = parallel::ThreadPool(context);
  const Geometry g = MakeGeometry(*data, *params, input, filter);
  switch (input->type) {
    case kTfLiteFloat32: {
      if (filter->type == kTfLiteInt8) {
        EvalHybrid(g, data, *params, input, filter, bias, output, pool);
        return kTfLiteOk;
      }
      float act_min, act_max;
      CalculateActivationRange(params->activation, &act_min, &act_max);
      dwconv::FloatDepthwise(g, input->data.f, filter->data.f,
                             bias != nullptr ? bias->data.f : nullptr, data->bias_first, act_min,
                             act_max, output->data.f, pool);
      return kTfLiteOk;
    }
    case kTfLiteInt8: {
      const int8_t* f = filter->data.int8;
      if (filter->type == kTfLiteInt4) {  // v7: unpacked once while the filter is constant
        if (data->filter_unpacked.empty() || !IsConstantOrPersistentTensor(filter)) {
          data->filter_unpacked.resize(static_cast<size_t>(NumElements(filter)));
          conv_util::UnpackInt4(filter, 0, data->filter_unpacked.size(),
                                data->filter_unpacked.data());
        }
        f = data->filter_unpacked.data();
      }
      if (EvalPacked(g, data, filter, input->data.int8, f,
                     bias != nullptr ? bias->data.i32 : nullptr, output->data.int8, pool)) {
        return kTfLiteOk;
      }
      EvalQuantized<int32_t>(g, data->quant, input->data.int8, f,
                             bias != nullptr ? bias->data.i32 : nullptr, output->data.int8, pool);
      return kTfLiteOk;
    }
    case kTfLiteUInt8:
      if (EvalPacked(g, data, filter, input->data.uint8, filter->data.uint8,
                     bias != nullptr ? bias->data.i32 : nullptr, output->data.uint8, pool)) {
        return kTfLiteOk;
      }
      EvalQuantized<int32_t>(g, data->quant, input->data.uint8, filter->data.uint8,
                             bias != nullptr ? bias->data.i32 : nullptr, output->data.uint8, pool);
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalQuantized<int64_t>(g, data->quant, input->data.i16, filter->data.int8,
                             bias != nullptr ? bias->data.i64 : nullptr, output->data.i16, pool);
      return kTfLiteOk;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
}

}  // namespace
}  // namespace depthwise_conv

TfLiteRegistration* Register_DEPTHWISE_CONV_2D() {
  static TfLiteRegistration r = {depthwise_conv::Init, depthwise_conv::Free,
                                 depthwise_conv::Prepare, depthwise_conv::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
