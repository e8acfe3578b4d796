// CONV_2D: float32 (v1), uint8 (v1, per-tensor), int8 (v3, per-channel) and int16
// activations with int8 filters (16x8, v4), hybrid (v2, v5) and grouped (v6) via im2col + the packed GEMM in
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
// Grouped convolution (v6: input depth = groups * filter depth, out channels split evenly
// over the groups) runs every type group by group: im2col of the group's input channels
// times the group's filter rows, written to the group's output channels (as the reference
// kernels index in_channel + group * filter_input_depth); float where the group's direct
// convolution applies, on it (conv_util::GroupedDirectFloatConv: the same sums).
//
// Hybrid (float input and output, int8 filter; v2 per-tensor, v5 per-channel): as TFLite's
// kernel, each batch image is quantized on the fly, summed exactly in int32 (the packed GEMM's
// gemm::Int32Gemm on the im2col rows) and rescaled in float. Per-tensor scale (or per-channel scales that are all equal), not grouped: symmetric
// input quantization, out = sum * (image_scale * filter_scale) + bias (EvalHybrid); per-channel
// scales that differ, or groups: asymmetric quantization with a per-image offset, out =
// sum(w * (q - offset)) * (channel_scale * image_scale) + bias (TFLite's optimized
// HybridConvPerChannel, bit for bit). Padding contributes 0 (real zero) in both.
//
// quantized_bias_type (v8) names the bias type, which the kernel dispatches on anyway; a
// 16x8 CONV_2D without bias is refused, as TFLite refuses it.
// int8 activations take int4 filters too (v7: unpacked, then the int8 path).
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/depthwise_integer.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/hybrid_inputs.h"
#include "kernels/internal/hybrid_graph.h"
#include "kernels/internal/im2col.h"
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
  int groups = 1;
  conv_util::QuantParams quant;
  std::vector<conv_util::PackedWeights> weights;  // one per group
  std::vector<const float*> group_packed;         // weights[grp].f.data(), grouped float
  // Hybrid: per-output-channel filter scales; per_channel selects the asymmetric path.
  bool hybrid = false;
  bool hybrid_per_channel = false;
  std::vector<float> filter_scale;
  hybrid::QuantizedRows images;  // the images quantized here, where not shared
  std::vector<float> image_scale;  // per image (times the filter's scale, per tensor)
  std::vector<float> im2col_f;  // per-task im2col blocks (ChunkedIm2ColGemm)
  std::vector<int16_t> im2col_q;
  std::vector<uint8_t> im2col_u8;  // int8 on the dot-product GEMM
  std::vector<int32_t> dot_bias;
  std::vector<int32_t> sums;  // hybrid: per-task int32 sums of one chunk
  std::vector<float> multipliers;  // hybrid per channel, one group: channel * image scale
  // Hybrid on AMX (gemm::DotGemmHybrid): the image's scale for every row of a chunk, and
  // per-tensor filters' unit scales (1: the image scale already holds the filter's).
  std::vector<float> chunk_scale, unit_ones;
  std::vector<uint8_t> image_u8;  // hybrid Conv1D on AMX: the quantized image + 128
  std::vector<int16_t> image_q;   // int16 GEMM windows: the padded image of q - offset
  // One input and one output channel per group (EvalHybridDepthwiseGroups): the filter
  // packed as a depthwise one, and a row of each image's offset per batch.
  // (EvalQuantizedDepthwiseGroups too: there the zero row holds the input's zero point, and
  // the stage its requantization.)
  dwconv::Int8Sums group_sums;
  bool group_sums_ok = false;
  std::vector<uint8_t> group_zero_rows;  // dwconv::ForEachPackedRow's, int8_t or uint8_t
  dwconv::RowStage group_stage;
  // Float: the GEMM's order of sums (TFLite's builtin one in graphs with hybrid nodes).
  gemm::GemmKernel float_kernel = gemm::GemmKernel::kAuto;
};

using Geometry = conv_util::ConvGeometry;

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
  const int in_c = SizeOfDimension(input, 3), f_c = SizeOfDimension(filter, 3);
  if (f_c <= 0 || in_c <= 0 || in_c % f_c != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare CONV_2D: input depth %d is not a multiple of the filter "
                       "depth %d (grouped convolution needs groups = input depth / filter depth).",
                       in_c, f_c);
    return kTfLiteError;
  }
  data->groups = in_c / f_c;
  if (channels_out % data->groups != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare CONV_2D: %d output channels do not split into %d groups.",
                       channels_out, data->groups);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(conv_util::CheckActivation(context, params->activation));

  data->hybrid = input->type == kTfLiteFloat32 && filter->type == kTfLiteInt8;
  // A float convolution in a dynamic-range graph: TFLite's builtin sums bit for bit, since
  // the hybrid layers after it quantize what it writes (hybrid_graph.h).
  data->float_kernel = input->type == kTfLiteFloat32 && !data->hybrid &&
                               hybrid::GraphHasHybridNodes(context)
                           ? gemm::GemmKernel::kTfliteGemmOrder
                           : gemm::GemmKernel::kAuto;
  if (data->hybrid) {
    TF_LITE_ENSURE_STATUS(conv_util::CheckFloatBias(context, bias, channels_out));
    TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
    const TfLiteAffineQuantization* fq = conv_util::Affine(filter);
    if (fq == nullptr || fq->scale == nullptr ||
        (fq->scale->size != 1 && fq->scale->size != channels_out) ||
        (fq->scale->size > 1 && fq->quantized_dimension != 0)) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare hybrid CONV_2D: int8 filter needs one scale or one "
                         "per output channel on dimension 0 (expected 1 or %d, got %d).",
                         channels_out,
                         fq != nullptr && fq->scale != nullptr ? fq->scale->size : 0);
      return kTfLiteError;
    }
    data->filter_scale.resize(channels_out);
    bool differ = false;
    for (int c = 0; c < channels_out; ++c) {
      data->filter_scale[c] = fq->scale->data[fq->scale->size == 1 ? 0 : c];
      differ = differ || data->filter_scale[c] != data->filter_scale[0];
    }
    // TFLite takes the per-channel (asymmetric) path for differing scales and for groups.
    data->hybrid_per_channel = differ || data->groups != 1;
  } else {
    TF_LITE_ENSURE_STATUS(
        conv_util::CheckConvTypes(context, "CONV_2D", input, filter, bias, output, channels_out,
                                  /*int16_int32_bias=*/true, /*allow_int4=*/true));
  }
  if (input->type == kTfLiteInt16) {
    if (bias == nullptr) {  // TFLite's conv.cc ensures has_bias for 16x8
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare CONV_2D: int16 activations need a bias tensor, as "
                         "TFLite's kernel requires (got none).");
      return kTfLiteError;
    }
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
  data->weights.assign(data->groups, conv_util::PackedWeights());
  data->group_packed.assign(data->groups, nullptr);

  TfLiteIntArray* out_shape = TfLiteIntArrayCreate(4);
  out_shape->data[0] = batches;
  out_shape->data[1] = out_h;
  out_shape->data[2] = out_w;
  out_shape->data[3] = channels_out;
  return context->ResizeTensor(context, output, out_shape);
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
  g.f_c = SizeOfDimension(filter, 3);
  g.groups = data.groups;
  g.group_out_c = g.out_c / g.groups;
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

// As many groups as input channels, one output channel each (Keras' Conv2D(groups=C),
// ConvNeXt's 7x7 layers): output channel c sums the taps of input channel c alone, a
// depthwise convolution with multiplier 1, so dwconv::Int8Sums (the 8-bit depthwise
// kernels' vector sums) computes its int32 sums. They are exact (int32 additions wrap alike
// in any order), so the outputs are the group-by-group GEMM's bits. Group by group, each
// group was a one-column product over the whole image (ConvNeXt-T at one thread: dynamic
// range 661 ms, int8 581 ms; TFLite 396-437 and 409).
bool DepthwiseGroups(const Geometry& g) {
  return g.groups > 1 && g.groups == g.in_c && g.group_out_c == 1 &&
         dwconv::Int8Sums::Vectorized();
}

// Packs CONV_2D's [out_c][f_h][f_w][1] filter as the depthwise [taps][channels] (once while
// it is constant); false where Int8Sums does not take it (a crafted zero point).
template <typename F>
bool PackDepthwiseGroups(const Geometry& g, OpData* data, const TfLiteTensor* filter,
                         int32_t filter_offset) {
  if (data->group_sums.packed() && IsConstantOrPersistentTensor(filter)) {
    return data->group_sums_ok;
  }
  const int taps = g.f_h * g.f_w;
  const F* f = GetTensorData<F>(filter);
  std::vector<F> by_tap(static_cast<size_t>(taps) * g.out_c);
  for (int c = 0; c < g.out_c; ++c) {
    for (int t = 0; t < taps; ++t) by_tap[static_cast<size_t>(t) * g.out_c + c] = f[static_cast<size_t>(c) * taps + t];
  }
  data->group_sums_ok = data->group_sums.Pack(by_tap.data(), taps, g.out_c, filter_offset);
  return data->group_sums_ok;
}

// 8-bit: the sums through the depthwise kernels' requantization (TFLite's reference
// output stage per channel). False (nothing written) where this path does not apply.
template <typename T>
bool EvalQuantizedDepthwiseGroups(const Geometry& g, OpData* data, const TfLiteTensor* filter,
                                  const TfLiteTensor* bias, const T* in, T* out,
                                  pthreadpool* pool) {
  constexpr TfLiteType kFilterType = std::is_same_v<T, int8_t> ? kTfLiteInt8 : kTfLiteUInt8;
  const conv_util::QuantParams& q = data->quant;
  const int32_t zero = -q.input_offset;  // the input's zero point, read for taps outside
  if (!DepthwiseGroups(g) || filter->type != kFilterType ||
      zero < std::numeric_limits<T>::min() || zero > std::numeric_limits<T>::max() ||
      !PackDepthwiseGroups<T>(g, data, filter, static_cast<int32_t>(q.filter_offset))) {
    return false;
  }
  data->group_sums.PrepareStage(q.input_offset,
                                q.Stage(bias != nullptr ? bias->data.i32 : nullptr),
                                &data->group_stage);
  const dwconv::Window w = dwconv::WindowOf(g);
  dwconv::ForEachPackedRow<T>(
      g, in, [zero](int) { return zero; }, &data->group_zero_rows, pool,
      [&](size_t r, int, int oy, const T* image, const T* zero_row) {
        data->group_sums.RowQuantized(w, image, oy, 0, g.out_w, zero_row, data->group_stage,
                                      out + r * g.out_w * g.out_c);
      });
  return true;
}

// Hybrid: the sums of w * (q - offset) (taps outside the image add nothing), rescaled as
// TFLite's reference HybridConvPerChannel does for every grouped layer: float(sum) *
// channel scale * image scale + bias, clamped.
bool EvalHybridDepthwiseGroups(const Geometry& g, OpData* data, const TfLiteTensor* filter,
                               const hybrid::SharedRows& images, const float* bias, float act_min,
                               float act_max, float* out, pthreadpool* pool) {
  if (!DepthwiseGroups(g) || !data->hybrid_per_channel ||
      !PackDepthwiseGroups<int8_t>(g, data, filter, 0)) {
    return false;
  }
  const dwconv::Window w = dwconv::WindowOf(g);
  const int32_t* offset = images.offset;
  dwconv::ForEachPackedRow<int8_t>(
      g, images.values, [offset](int b) { return offset[b]; }, &data->group_zero_rows, pool,
      [&](size_t r, int b, int oy, const int8_t* image, const int8_t* zero_row) {
        std::vector<int32_t> acc(static_cast<size_t>(g.out_w) * g.out_c);
        data->group_sums.Row(w, image, oy, 0, g.out_w, -offset[b], zero_row, acc.data());
        float* row_out = out + r * g.out_w * g.out_c;
        for (int ox = 0; ox < g.out_w; ++ox) {
          hybrid::RescaleConvRow(acc.data() + static_cast<size_t>(ox) * g.out_c, g.out_c,
                                 data->filter_scale.data(), images.scale[b], bias, act_min,
                                 act_max, row_out + static_cast<size_t>(ox) * g.out_c);
        }
      });
  return true;
}

template <typename T>
void EvalQuantized(const Geometry& g, OpData* data, const TfLiteTensor* input,
                   const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
                   pthreadpool* pool) {
  const int depth = g.f_h * g.f_w * g.f_c;
  const int32_t input_offset = data->quant.input_offset;
  const T* in = GetTensorData<T>(input);
  T* out = GetTensorData<T>(output);
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  const int n = g.group_out_c;
  if (EvalQuantizedDepthwiseGroups<T>(g, data, filter, bias, in, out, pool)) return;
  if constexpr (std::is_same_v<T, int8_t>) {
    // int8 x int8 where the CPU has dot-product instructions: the same sums, 4x the
    // multiply-adds per instruction (TFLite's per-channel int8 kernels ignore the filter's
    // zero point, so these weights are used as they are).
    if ((filter->type == kTfLiteInt8 || filter->type == kTfLiteInt4) && gemm::DotGemmWanted()) {
      const int m = conv_util::MergedGroups(g);
      const conv_util::ConvGeometry gm = conv_util::MergeGroups(g, m);
      if (g.groups > 1 && conv_util::GroupedDotImageApplies(gm)) {
        // Every group at once, the windows read in place in per-group images.
        const int mn = gm.group_out_c;
        data->dot_bias.resize(static_cast<size_t>(g.out_c));
        std::vector<const int8_t*> packed(gm.groups);
        for (int j = 0; j < gm.groups; ++j) {
          conv_util::PackedWeights& w = data->weights[j];
          w.PackDotMerged(filter, n, g.f_h * g.f_w, g.f_c, m, j);
          gemm::DotBias(bias != nullptr ? bias->data.i32 + j * mn : nullptr, w.dot_sums.data(), mn,
                        -input_offset + 128, data->dot_bias.data() + j * mn);
          packed[j] = w.dot.data();
        }
        conv_util::Int8DotGroupedConv(gm, in, -input_offset, packed.data(),
                                      data->quant.Stage(data->dot_bias.data()), out,
                                      &data->im2col_u8, pool);
        return;
      }
      data->dot_bias.resize(n);
      for (int grp = 0; grp < g.groups; ++grp) {
        conv_util::PackedWeights& w = data->weights[grp];
        w.PackDot(filter, n, depth, static_cast<size_t>(grp) * n);
        gemm::DotBias(bias != nullptr ? bias->data.i32 + grp * n : nullptr, w.dot_sums.data(), n,
                      -input_offset + 128, data->dot_bias.data());
        gemm::QuantizedOutputStage stage = data->quant.Stage(data->dot_bias.data());
        stage.multiplier += grp * n;
        stage.shift += grp * n;
        conv_util::Int8DotConv(g, in, -input_offset, grp, w.dot.data(), stage, out,
                               &data->im2col_u8, pool);
      }
      return;
    }
  }
  for (int grp = 0; grp < g.groups; ++grp) {
    conv_util::PackedWeights& w = data->weights[grp];
    w.Pack(filter, n, depth, -data->quant.filter_offset, static_cast<size_t>(grp) * n);
    gemm::QuantizedOutputStage stage =
        data->quant.Stage(bias != nullptr ? bias->data.i32 + grp * n : nullptr);
    stage.multiplier += grp * n;
    stage.shift += grp * n;
    // One group: the windows read in place from a padded int16 image of input +
    // input_offset (0 around it: the zero point's, as im2col pads), converted once.
    if (conv_util::Int16WindowsApply(g)) {
      const conv_util::PaddedDotImage p = conv_util::PadDotGeometry(g);
      data->image_q.resize(p.bytes(g));
      const int32_t minus_offset = -input_offset;
      conv_util::PadInt16Image(g, p, in, &minus_offset, 0, data->image_q.data(), pool);
      gemm::QuantizedGemmImage(static_cast<int>(rows), n, depth,
                               conv_util::PaddedWindows(g, p, data->image_q.data()), w.q.data(),
                               out, g.out_c, stage, pool);
      continue;
    }
    conv_util::ChunkedIm2ColGemm(
        rows, depth, n, &data->im2col_q, pool,
        [&](size_t r0, size_t r1, int16_t* buf) {
          conv_util::Im2ColRows(
              g, in, grp * g.f_c, r0, r1, int16_t{0},
              [input_offset](T v, size_t) { return static_cast<int16_t>(v + input_offset); },
              buf);
        },
        [&](size_t r0, size_t r1, const int16_t* buf, size_t) {
          gemm::QuantizedGemm(static_cast<int>(r1 - r0), n, depth, buf, depth, w.q.data(),
                              out + r0 * g.out_c + grp * n, g.out_c, stage, nullptr);
        });
  }
}

// int16 activations: the im2col rows hold the input as it is (zero point 0; padding 0).
void EvalInt16(const Geometry& g, OpData* data, const TfLiteConvParams& params,
               const TfLiteTensor* input, const TfLiteTensor* filter, const TfLiteTensor* bias,
               TfLiteTensor* output, pthreadpool* pool) {
  const int depth = g.f_h * g.f_w * g.f_c;
  const int16_t* in = input->data.i16;
  int16_t* out = output->data.i16;
  const bool wide = conv_util::Int16WideAccumulator(bias, params.quantized_bias_type);
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  const int n = g.group_out_c;
  for (int grp = 0; grp < g.groups; ++grp) {
    conv_util::PackedWeights& w = data->weights[grp];
    w.Pack(filter, n, depth, 0, static_cast<size_t>(grp) * n);
    const int16_t* packed = w.q.data();
    gemm::Quantized16x8OutputStage stage64 =
        data->quant.Stage16x8(wide && bias != nullptr ? bias->data.i64 + grp * n : nullptr);
    gemm::QuantizedOutputStage stage32 =
        data->quant.Stage(!wide && bias != nullptr ? bias->data.i32 + grp * n : nullptr);
    stage64.multiplier += grp * n;
    stage64.shift += grp * n;
    stage32.multiplier += grp * n;
    stage32.shift += grp * n;
    conv_util::ChunkedIm2ColGemm(
        rows, depth, n, &data->im2col_q, pool,
        [&](size_t r0, size_t r1, int16_t* buf) {
          conv_util::Im2ColRows(
              g, in, grp * g.f_c, r0, r1, int16_t{0}, [](int16_t v, size_t) { return v; }, buf);
        },
        [&](size_t r0, size_t r1, const int16_t* buf, size_t) {
          const int m = static_cast<int>(r1 - r0);
          int16_t* c = out + r0 * g.out_c + grp * n;
          if (wide) {
            gemm::QuantizedGemm16x8(m, n, depth, buf, depth, packed, c, g.out_c, stage64, nullptr);
          } else {
            gemm::QuantizedGemm(m, n, depth, buf, depth, packed, c, g.out_c, stage32, nullptr);
          }
        });
  }
}

// One image's windows one pixel high (Conv1D) on AMX: each output row's in-image windows
// are the quantized image (+ 128) read at a stride of stride_w * in_c, as Int8DotConv
// reads int8 rows; the padding pixels through im2col and DotGemmRaw + `rescale`, which
// computes what the AMX epilogue does. stage.row_scale must hold out_w rows. False
// (nothing written) where that does not apply.
template <typename Rescale>
bool HybridRowsInPlace(const Geometry& g, int depth, int stride, const int8_t* q, uint8_t pad,
                       const int8_t* packed, gemm::HybridOutputStage stage, OpData* data,
                       const Rescale& rescale, float* out, pthreadpool* pool) {
  const conv_util::RowWindows w = conv_util::DirectRowWindows(g);
  const int n = g.group_out_c;
  if (!w.any() || depth != stride || g.batches != 1 || !gemm::DotGemmHybridRuns(w.hi - w.lo, n, depth)) {
    return false;
  }
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  data->image_u8.resize(image);
  // In spans over the pool (an image of megabytes: alone on the caller, the other threads
  // waited for it).
  const size_t parts = image >= 65536 ? 2 * parallel::NumThreads(pool) : 1;
  parallel::ParallelFor(pool, parts, static_cast<double>(image), [&](size_t t) {
    const size_t i0 = image * t / parts / 64 * 64;
    const size_t i1 = t + 1 == parts ? image : image * (t + 1) / parts / 64 * 64;
    gemm::DotInput(q + i0, i1 - i0, data->image_u8.data() + i0);
  });
  const size_t edge_rows = w.edges(g.out_w);
  const size_t tasks = conv_util::RowWindowsTasks(g, pool);
  if (data->im2col_u8.size() < tasks * edge_rows * stride) {
    data->im2col_u8.resize(tasks * edge_rows * stride);
  }
  if (data->sums.size() < tasks * edge_rows * n) data->sums.resize(tasks * edge_rows * n);
  conv_util::RunRowWindows(
      g, w, pool, static_cast<double>(g.out_h) * g.out_w * depth * n,
      [&](size_t l, pthreadpool* line_pool) {
        gemm::DotGemmHybrid(w.hi - w.lo, n, depth,
                                   data->image_u8.data() + conv_util::RowWindowsOffset(g, w, l),
                                   g.stride_w * g.in_c, packed, stage,
                                   out + (l * g.out_w + w.lo) * g.out_c, g.out_c, line_pool);
      },
      [&](size_t l, int x0, int x1, size_t t) {
        uint8_t* buf = data->im2col_u8.data() + t * edge_rows * stride;
        int32_t* sums = data->sums.data() + t * edge_rows * n;
        const size_t r0 = l * g.out_w + x0, r1 = r0 + (x1 - x0);
        conv_util::Im2ColDotRows(g, q, 0, r0, r1, pad, buf, stride);
        gemm::DotGemmRaw(x1 - x0, n, depth, buf, stride, packed, stage.dot_bias, sums, n,
                         nullptr);
        rescale(r0, r1, sums);
      });
  return true;
}

void HybridImages(const Geometry& g, OpData* data, const TfLiteTensor* filter, const int8_t* q,
                  const int32_t* offset, const float* image_scale, const float* bias_data,
                  float act_min, float act_max, float* out, pthreadpool* pool);

// A grouped hybrid convolution of one quantized image q on the dot GEMM: q padded and split
// into one image per group (merged into groups of 16 channels where narrower:
// conv_util::MergedGroups), each group's im2col rows copied from its image, f_w * f_c bytes
// a move with no conversion; then the group-by-group path's sums and rescale (TFLite's
// reference order). Group by group, converting a cell of f_c bytes at a time, a ResNeXt
// block's grouped layer took 580 us where TFLite's took well under half.
void HybridGroups(const Geometry& g, OpData* data, const TfLiteTensor* filter, const int8_t* q,
                  int32_t offset, float image_scale, const float* bias_data, float act_min,
                  float act_max, float* out, pthreadpool* pool) {
  const int m = conv_util::MergedGroups(g);
  const Geometry gm = conv_util::MergeGroups(g, m);
  const Geometry gi = conv_util::GroupImageGeometry(gm);
  const conv_util::PaddedDotImage p = conv_util::PadDotGeometry(gm);
  const size_t bytes = p.bytes(gi);
  const size_t rows = static_cast<size_t>(g.out_h) * g.out_w;
  const int n = gm.group_out_c, depth = g.f_h * g.f_w * gm.f_c;
  const int stride = gemm::DotDepth(depth);
  data->image_u8.resize(bytes * gm.groups);
  conv_util::PadDotGroupImages(gm, p, q, static_cast<uint8_t>(offset + 128), data->image_u8.data(),
                               pool);
  const size_t sums_slice = conv_util::kChunkRows * static_cast<size_t>(n);
  data->sums.resize(conv_util::ChunkTasks(rows, pool) * sums_slice);
  data->dot_bias.resize(n);
  for (int j = 0; j < gm.groups; ++j) {
    conv_util::PackedWeights& w = data->weights[j];
    w.PackDotMerged(filter, g.group_out_c, g.f_h * g.f_w, g.f_c, m, j);
    gemm::DotBias(nullptr, w.dot_sums.data(), n, offset + 128, data->dot_bias.data());
    const float* channel_scale =
        data->hybrid_per_channel ? data->filter_scale.data() + j * n : nullptr;
    const float* group_bias = bias_data != nullptr ? bias_data + j * n : nullptr;
    const uint8_t* image = data->image_u8.data() + j * bytes;
    conv_util::ChunkedIm2ColGemm(
        rows, stride, n, &data->im2col_u8, pool,
        [&](size_t r0, size_t r1, uint8_t* buf) {
          conv_util::Im2ColPaddedRows(gi, p, image, r0, r1, buf, stride);
        },
        [&](size_t r0, size_t r1, const uint8_t* buf, size_t t) {
          int32_t* sums = data->sums.data() + t * sums_slice;
          gemm::DotGemmRaw(static_cast<int>(r1 - r0), n, depth, buf, stride, w.dot.data(),
                           data->dot_bias.data(), sums, n, nullptr);
          for (size_t r = r0; r < r1; ++r) {
            hybrid::RescaleConvRow(sums + (r - r0) * n, n, channel_scale, image_scale, group_bias,
                                   act_min, act_max, out + r * g.out_c + j * n);
          }
        });
  }
}

// Hybrid: quantize each batch image, im2col of (q - offset) (0 outside the image), int32
// sums with the group's int8 filter rows on the packed GEMM (into the task's slice of
// data->sums), float rescale, bias, clamp.
void EvalHybrid(TfLiteContext* context, int input_index, const Geometry& g, OpData* data,
                const TfLiteConvParams& params, const TfLiteTensor* input,
                const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
                pthreadpool* pool) {
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  // Images another node quantized from the same tensor in this Invoke are read as they are
  // (an Inception block's branches share their input: hybrid_inputs.h).
  hybrid::SharedRows images;
  if (!hybrid::QuantizeShared(context, input_index, input->data.f, g.batches, image,
                              data->hybrid_per_channel, image, 0, &images, pool)) {
    data->images.Quantize(input->data.f, g.batches, image, data->hybrid_per_channel, pool);
    images = {data->images.values.data(), data->images.scale.data(), data->images.offset.data()};
  }
  data->image_scale.assign(images.scale, images.scale + g.batches);
  if (!data->hybrid_per_channel) {
    for (float& sc : data->image_scale) sc *= data->filter_scale[0];
  }
  const float* image_scale = data->image_scale.data();
  float act_min, act_max;
  CalculateActivationRange(params.activation, &act_min, &act_max);
  const float* bias_data = bias != nullptr ? bias->data.f : nullptr;
  float* out = output->data.f;
  if (EvalHybridDepthwiseGroups(g, data, filter, images, bias_data, act_min, act_max, out, pool)) {
    return;
  }
  // Several images where the CPU has dot-product instructions: one at a time on the dot
  // GEMM's paths (each has its own zero point, which pads its windows), rather than all on
  // the int16 GEMM (a dilated Conv1D runs as SPACE_TO_BATCH_ND -> CONV_2D over `dilation`
  // images: 4x slower there).
  if (g.batches > 1 && gemm::DotGemmWanted()) {
    Geometry one = g;
    one.batches = 1;
    const size_t image_out = static_cast<size_t>(g.out_h) * g.out_w * g.out_c;
    for (int b = 0; b < g.batches; ++b) {
      HybridImages(one, data, filter, images.values + b * image, images.offset + b, image_scale + b,
                   bias_data, act_min, act_max, out + b * image_out, pool);
    }
    return;
  }
  HybridImages(g, data, filter, images.values, images.offset, image_scale, bias_data, act_min,
               act_max, out, pool);
}

// The hybrid convolution of g.batches quantized images q (zero points `offset`, scales
// `image_scale` with the per-tensor filter scale folded in) into out.
void HybridImages(const Geometry& g, OpData* data, const TfLiteTensor* filter, const int8_t* q,
                  const int32_t* offset, const float* image_scale, const float* bias_data,
                  float act_min, float act_max, float* out, pthreadpool* pool) {
  const int depth = g.f_h * g.f_w * g.f_c;
  const size_t rows = static_cast<size_t>(g.batches) * g.out_h * g.out_w;
  const size_t pixels = static_cast<size_t>(g.out_h) * g.out_w;
  const int n = g.group_out_c;
  const size_t sums_slice = conv_util::kChunkRows * static_cast<size_t>(n);
  data->sums.resize(conv_util::ChunkTasks(rows, pool) * sums_slice);
  // One image where the CPU has dot-product instructions: the same int32 sums on
  // gemm::DotGemmRaw, from im2col rows of q + 128 (padding offset + 128, which the column
  // bias cancels, as the reference's 0 of q - offset adds nothing).
  const bool dot = g.batches == 1 && gemm::DotGemmWanted();
  const int stride = gemm::DotDepth(depth);
  // Grouped: TFLite runs them on its reference HybridConvPerChannel, which multiplies the
  // sum by the channel scale, then by the image scale (testdata/kernels/conv_groups_*).
  const bool reference_order = g.groups > 1;
  // Grouped: on the dot GEMM's merged groups also on AVX2 without dot products (its AVX2
  // tile): the group-by-group path below converts a cell of f_c values at a time into its
  // int16 im2col rows (resnext_grouped_64_dynamic 1870 -> 1200 us at one thread on an
  // AVX2-only EPYC). The same int32 sums, the same rescale.
  if (g.groups > 1 && g.dil_w == 1 && g.batches == 1 && (dot || gemm::CpuHasAvx2())) {
    HybridGroups(g, data, filter, q, offset[0], image_scale[0], bias_data, act_min, act_max, out,
                 pool);
    return;
  }
  for (int grp = 0; grp < g.groups; ++grp) {
    conv_util::PackedWeights& w = data->weights[grp];
    const float* channel_scale =
        data->hybrid_per_channel ? data->filter_scale.data() + grp * n : nullptr;
    const float* group_bias = bias_data != nullptr ? bias_data + grp * n : nullptr;
    // Per channel, one group: float(sum) * (channel_scale * image_scale), the product of the
    // scales first, as TFLite's optimized HybridConvPerChannel computes it (its reference
    // kernel multiplies them one after the other; the goldens are the optimized kernel's).
    if (channel_scale != nullptr && !reference_order) {
      data->multipliers.resize(static_cast<size_t>(g.batches) * n);
      for (int b = 0; b < g.batches; ++b) {
        for (int c = 0; c < n; ++c) {
          data->multipliers[static_cast<size_t>(b) * n + c] = channel_scale[c] * image_scale[b];
        }
      }
    }
    auto rescale = [&](size_t r0, size_t r1, const int32_t* sums) {
      for (size_t r = r0; r < r1; ++r) {
        float* row_out = out + r * g.out_c + grp * n;
        if (channel_scale != nullptr && reference_order) {
          hybrid::RescaleConvRow(sums + (r - r0) * n, n, channel_scale, image_scale[r / pixels],
                                 group_bias, act_min, act_max, row_out);
        } else if (channel_scale != nullptr) {
          hybrid::RescaleRow(sums + (r - r0) * n, n, data->multipliers.data() + (r / pixels) * n,
                             group_bias, act_min, act_max, row_out);
        } else {
          hybrid::RescaleConvRow(sums + (r - r0) * n, n, nullptr, image_scale[r / pixels],
                                 group_bias, act_min, act_max, row_out);
        }
      }
    };
    if (dot) {
      w.PackDot(filter, n, depth, static_cast<size_t>(grp) * n);
      data->dot_bias.resize(n);
      gemm::DotBias(nullptr, w.dot_sums.data(), n, offset[0] + 128, data->dot_bias.data());
      const uint8_t pad = static_cast<uint8_t>(offset[0] + 128);
      // A row scale for every row of a chunk, or of an output row (HybridRowsInPlace).
      data->chunk_scale.assign(std::max<size_t>(conv_util::kChunkRows, g.out_w), image_scale[0]);
      if (channel_scale == nullptr) data->unit_ones.assign(n, 1.0f);
      gemm::HybridOutputStage hybrid_stage;
      hybrid_stage.dot_bias = data->dot_bias.data();
      hybrid_stage.row_scale = data->chunk_scale.data();
      hybrid_stage.unit_scale = channel_scale != nullptr ? channel_scale : data->unit_ones.data();
      hybrid_stage.bias = group_bias;
      hybrid_stage.act_min = act_min;
      hybrid_stage.act_max = act_max;
      // On the VNNI tiles the windows read in place in the padded quantized image
      // (im2col.h: DotSpansApply), as int8 layers read theirs.
      if (!reference_order && depth == stride && conv_util::DotSpansApply(g)) {
        const conv_util::PaddedDotImage p = conv_util::PadDotGeometry(g);
        data->image_u8.resize(p.bytes(g));
        conv_util::PadDotImage(g, p, q, pad, data->image_u8.data(), pool);
        // The row scale of every output pixel (one image).
        if (data->chunk_scale.size() < rows) data->chunk_scale.resize(rows, image_scale[0]);
        hybrid_stage.row_scale = data->chunk_scale.data();
        gemm::DotGemmHybridImage(static_cast<int>(rows), n, depth,
                                 conv_util::PaddedWindows(g, p, data->image_u8.data()),
                                 w.dot.data(), hybrid_stage, out + grp * n, g.out_c, pool);
        continue;
      }
      // (The AMX epilogue multiplies the scales first: not for grouped layers.)
      if (!reference_order && HybridRowsInPlace(g, depth, stride, q, pad, w.dot.data(),
                                                hybrid_stage, data, rescale, out, pool)) {
        continue;
      }
      conv_util::ChunkedIm2ColGemm(
          rows, stride, n, &data->im2col_u8, pool,
          [&](size_t r0, size_t r1, uint8_t* buf) {
            conv_util::Im2ColDotRows(g, q, grp * g.f_c, r0, r1, pad, buf, stride);
          },
          [&](size_t r0, size_t r1, const uint8_t* buf, size_t t) {
            // The rescale on the AMX blocks where they apply: the same products and sums as
            // `rescale` (float(sum) * (image scale * channel scale) + bias, each rounded).
            if (!reference_order &&
                gemm::DotGemmHybrid(static_cast<int>(r1 - r0), n, depth, buf, stride, w.dot.data(),
                                    hybrid_stage, out + r0 * g.out_c + grp * n, g.out_c, nullptr)) {
              return;
            }
            int32_t* sums = data->sums.data() + t * sums_slice;
            gemm::DotGemmRaw(static_cast<int>(r1 - r0), n, depth, buf, stride, w.dot.data(),
                             data->dot_bias.data(), sums, n, nullptr);
            rescale(r0, r1, sums);
          });
      continue;
    }
    w.Pack(filter, n, depth, 0, static_cast<size_t>(grp) * n);
    // One group: the windows read in place from a padded int16 image of q - offset (0
    // around it, as im2col's padding), the rescale in the tiles (row scale the image's,
    // unit scale the channel's: the product `multipliers` and RescaleConvRow form).
    if (!reference_order && conv_util::Int16WindowsApply(g)) {
      const conv_util::PaddedDotImage p = conv_util::PadDotGeometry(g);
      data->image_q.resize(p.bytes(g));
      conv_util::PadInt16Image(g, p, q, offset, 1, data->image_q.data(), pool);
      data->chunk_scale.resize(rows);
      for (size_t r = 0; r < rows; ++r) data->chunk_scale[r] = image_scale[r / pixels];
      if (channel_scale == nullptr) data->unit_ones.assign(n, 1.0f);
      gemm::HybridOutputStage stage;
      stage.row_scale = data->chunk_scale.data();
      stage.unit_scale = channel_scale != nullptr ? channel_scale : data->unit_ones.data();
      stage.bias = group_bias;
      stage.act_min = act_min;
      stage.act_max = act_max;
      gemm::Int16GemmHybridImage(static_cast<int>(rows), n, depth,
                                 conv_util::PaddedWindows(g, p, data->image_q.data()), w.q.data(),
                                 stage, out, g.out_c, pool);
      continue;
    }
    conv_util::ChunkedIm2ColGemm(
        rows, depth, n, &data->im2col_q, pool,
        [&](size_t r0, size_t r1, int16_t* buf) {
          conv_util::Im2ColRows(
              g, q, grp * g.f_c, r0, r1, int16_t{0},
              [offset](int8_t v, size_t b) { return static_cast<int16_t>(v - offset[b]); }, buf);
        },
        [&](size_t r0, size_t r1, const int16_t* buf, size_t t) {
          int32_t* sums = data->sums.data() + t * sums_slice;
          gemm::Int32Gemm(static_cast<int>(r1 - r0), n, depth, buf, depth, w.q.data(), sums, n,
                          nullptr);
          rescale(r0, r1, sums);
        });
  }
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
  const int depth = g.f_h * g.f_w * g.f_c;
  const int rows = g.batches * g.out_h * g.out_w;

  switch (input->type) {
    case kTfLiteFloat32: {
      if (data->hybrid) {
        EvalHybrid(context, node->inputs->data[0], g, data, *params, input, filter, bias, output,
                   pool);
        return kTfLiteOk;
      }
      float* out = output->data.f;
      const int n = g.group_out_c;
      if (g.groups > 1 && conv_util::GroupedDirectFloatConvApplies(g, data->float_kernel)) {
        // Each group's windows read in place from an image of its channels.
        // (group_packed: no allocation per Invoke.)
        for (int grp = 0; grp < g.groups; ++grp) {
          data->weights[grp].Pack(filter, n, depth, 0, static_cast<size_t>(grp) * n);
          data->group_packed[grp] = data->weights[grp].f.data();
        }
        conv_util::GroupedDirectFloatConv(
            g, input->data.f, data->group_packed.data(),
            conv_util::FloatStage(params->activation, bias != nullptr ? bias->data.f : nullptr),
            out, &data->im2col_f, pool, data->float_kernel);
        return kTfLiteOk;
      }
      for (int grp = 0; grp < g.groups; ++grp) {
        conv_util::PackedWeights& w = data->weights[grp];
        w.Pack(filter, n, depth, 0, static_cast<size_t>(grp) * n);
        const gemm::FloatOutputStage stage = conv_util::FloatStage(
            params->activation, bias != nullptr ? bias->data.f + grp * n : nullptr);
        const float* packed = w.f.data();
        if (g.groups == 1) {
          conv_util::FloatConv(g, input->data.f, packed, stage, out, &data->im2col_f, pool,
                               data->float_kernel);
          return kTfLiteOk;
        }
        conv_util::ChunkedIm2ColGemm(
            static_cast<size_t>(rows), depth, n, &data->im2col_f, pool,
            [&](size_t r0, size_t r1, float* buf) {
              conv_util::Im2ColRows(g, input->data.f, grp * g.f_c, r0, r1, 0.0f,
                                    conv_util::CopyValues{}, buf);
            },
            [&](size_t r0, size_t r1, const float* buf, size_t) {
              gemm::FloatGemm(static_cast<int>(r1 - r0), n, depth, buf, depth, packed,
                              out + r0 * g.out_c + grp * n, g.out_c, stage, nullptr,
                              data->float_kernel);
            });
      }
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
