// Prepare-time pieces shared by CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: fused
// activation checks, quantized output stages (TFLite's multiplier derivation per kernel),
// and the weight-packing cache. Header-only; errors go through the context.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_CONV_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_CONV_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/padding.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace conv_util {

inline TfLiteStatus UnsupportedType(TfLiteContext* context, TfLiteType type) {
  TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(type), type);
  return kTfLiteError;
}

// CONV_3D's and CONV_3D_TRANSPOSE's strides and dilations (TFLite divides by the strides
// unchecked: a crafted zero is refused) and activation.
inline TfLiteStatus CheckConv3DParams(TfLiteContext* context, const TfLiteConv3DParams* p);

// The kernels fuse only clamping activations (as TFLite's convolution kernels do).
inline TfLiteStatus CheckActivation(TfLiteContext* context, TfLiteFusedActivation a) {
  if (a == kTfLiteActNone || a == kTfLiteActRelu || a == kTfLiteActReluN1To1 ||
      a == kTfLiteActRelu6) {
    return kTfLiteOk;
  }
  TF_LITE_KERNEL_LOG(context, "Fused activation %d not supported.", static_cast<int>(a));
  return kTfLiteError;
}

inline TfLiteStatus CheckConv3DParams(TfLiteContext* context, const TfLiteConv3DParams* p) {
  TF_LITE_ENSURE(context, p != nullptr);
  TF_LITE_ENSURE(context, p->stride_depth > 0 && p->stride_height > 0 && p->stride_width > 0);
  TF_LITE_ENSURE(context, p->dilation_depth_factor > 0 && p->dilation_height_factor > 0 &&
                              p->dilation_width_factor > 0);
  return CheckActivation(context, p->activation);
}

inline gemm::FloatOutputStage FloatStage(TfLiteFusedActivation a, const float* bias) {
  gemm::FloatOutputStage s;
  CalculateActivationRange(a, &s.min, &s.max);
  s.bias = bias;
  return s;
}

// Per-output-channel requantization of a quantized convolution-like kernel.
struct QuantParams {
  std::vector<int32_t> multiplier;
  std::vector<int32_t> shift;
  int32_t input_offset = 0;   // -input zero point
  int32_t filter_offset = 0;  // -filter zero point (used by uint8 and per-tensor FC only)
  int32_t output_offset = 0;  // output zero point
  int32_t act_min = 0;
  int32_t act_max = 0;

  gemm::QuantizedOutputStage Stage(const int32_t* bias) const {
    gemm::QuantizedOutputStage s;
    s.bias = bias;
    s.multiplier = multiplier.data();
    s.shift = shift.data();
    s.output_offset = output_offset;
    s.act_min = act_min;
    s.act_max = act_max;
    return s;
  }

  // int16 activations with int64 bias (no offsets: 16x8 quantization is symmetric).
  gemm::Quantized16x8OutputStage Stage16x8(const int64_t* bias) const {
    gemm::Quantized16x8OutputStage s;
    s.bias = bias;
    s.multiplier = multiplier.data();
    s.shift = shift.data();
    s.act_min = act_min;
    s.act_max = act_max;
    return s;
  }
};

// The 64-bit accumulator path (int16 activations) takes left shifts up to 7 only
// (MultiplyByQuantizedMultiplier(int64_t, ...)); a larger one fails the node's Prepare
// (NoteMultiplierRangeError, reported by Subgraph::PrepareNode).
inline void NoteInt16ShiftRange(const QuantParams& q) {
  for (size_t c = 0; c < q.shift.size(); ++c) {
    if (q.shift[c] > 7) {
      NoteMultiplierRangeError(std::ldexp(q.multiplier[c] / 2147483648.0, q.shift[c]),
                               "needs a left shift over 7 bits (int16 activations)");
      return;
    }
  }
}

inline const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
}

// CONV_2D / DEPTHWISE_CONV_2D: int8 and int16 use the per-channel multipliers (double
// products), uint8 the legacy per-tensor one (float product), as TFLite's conv kernels do.
inline TfLiteStatus PrepareConvQuant(TfLiteContext* context, const TfLiteTensor* input,
                                     const TfLiteTensor* filter, const TfLiteTensor* bias,
                                     TfLiteTensor* output, TfLiteFusedActivation activation,
                                     int channels_out, QuantParams* q) {
  const TfLiteAffineQuantization* fq = Affine(filter);
  TF_LITE_ENSURE(context, fq != nullptr && fq->scale != nullptr && fq->scale->size > 0);
  TF_LITE_ENSURE(context, fq->scale->size == 1 || fq->scale->size == channels_out);
  TF_LITE_ENSURE(context, input->params.scale > 0 && output->params.scale > 0);
  q->multiplier.assign(channels_out, 0);
  q->shift.assign(channels_out, 0);
  int32_t legacy_multiplier = 0;
  int legacy_shift = 0;
  TF_LITE_ENSURE_STATUS(PopulateConvolutionQuantizationParams(
      context, input, filter, bias, output, activation, &legacy_multiplier, &legacy_shift,
      &q->act_min, &q->act_max, q->multiplier.data(), q->shift.data(), channels_out));
  if (input->type == kTfLiteUInt8) {
    q->multiplier.assign(channels_out, legacy_multiplier);
    q->shift.assign(channels_out, -legacy_shift);
    q->filter_offset = -filter->params.zero_point;
  } else {
    q->filter_offset = 0;  // TFLite's per-channel int8 / int16 kernels ignore filter zero points
  }
  q->input_offset = -input->params.zero_point;
  q->output_offset = output->params.zero_point;
  if (input->type == kTfLiteInt16) NoteInt16ShiftRange(*q);
  return kTfLiteOk;
}

// Checks the bias of a quantized kernel: int32 with channels_out values.
inline TfLiteStatus CheckQuantBias(TfLiteContext* context, const TfLiteTensor* bias,
                                   int channels_out) {
  if (bias == nullptr) return kTfLiteOk;
  if (bias->type != kTfLiteInt32) return UnsupportedType(context, bias->type);
  TF_LITE_ENSURE_EQ(context, NumElements(bias), channels_out);
  return kTfLiteOk;
}

// int16 activations (TFLite's 16x8 quantization) are symmetric: TFLite's kernels refuse
// a non-zero input or output zero point (their int16 arithmetic has no offsets), and so
// do ours, naming the op and the values.
inline TfLiteStatus CheckInt16ZeroPoints(TfLiteContext* context, const char* op,
                                         const TfLiteTensor* input, const TfLiteTensor* output) {
  if (input->params.zero_point == 0 && output->params.zero_point == 0) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context,
                     "%s with int16 activations needs zero point 0 on input and output "
                     "(symmetric 16x8 quantization; got input zero_point %d, output zero_point "
                     "%d).",
                     op, static_cast<int>(input->params.zero_point),
                     static_cast<int>(output->params.zero_point));
  return kTfLiteError;
}

// 16x8 kernels take int8 weights only (TFLite has no int16 x int16 convolution).
inline TfLiteStatus CheckInt16Weights(TfLiteContext* context, const char* op,
                                      const TfLiteTensor* filter) {
  if (filter->type == kTfLiteInt8) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s with int16 activations needs int8 weights (got %s).", op,
                     TfLiteTypeGetName(filter->type));
  return kTfLiteError;
}

// Bias of a 16x8 kernel: int64 with channels_out values; int32 too where
// `allow_int32` (TFLite's CONV_2D and FULLY_CONNECTED take it, DEPTHWISE_CONV_2D does not).
inline TfLiteStatus CheckInt16Bias(TfLiteContext* context, const char* op,
                                   const TfLiteTensor* bias, int channels_out, bool allow_int32) {
  if (bias == nullptr) return kTfLiteOk;
  if (bias->type != kTfLiteInt64 && !(allow_int32 && bias->type == kTfLiteInt32)) {
    TF_LITE_KERNEL_LOG(context, "%s with int16 activations needs an %s bias (got %s).", op,
                       allow_int32 ? "int64 or int32" : "int64", TfLiteTypeGetName(bias->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumElements(bias), channels_out);
  return kTfLiteOk;
}

// The quantized_bias_type option of a 16x8 CONV_2D / FULLY_CONNECTED (unset reads as
// kTfLiteFloat32): int32 or int64, matching the bias tensor if there is one.
inline TfLiteStatus CheckQuantizedBiasType(TfLiteContext* context, const char* op,
                                           TfLiteType type, const TfLiteTensor* bias) {
  if (type == kTfLiteFloat32 || type == kTfLiteNoType) return kTfLiteOk;
  if ((type == kTfLiteInt32 || type == kTfLiteInt64) && (bias == nullptr || bias->type == type)) {
    return kTfLiteOk;
  }
  TF_LITE_KERNEL_LOG(context, "%s quantized_bias_type %s does not fit the bias (%s).", op,
                     TfLiteTypeGetName(type),
                     bias != nullptr ? TfLiteTypeGetName(bias->type) : "none");
  return kTfLiteError;
}

// Whether a 16x8 CONV_2D / FULLY_CONNECTED sums in int64 (reference template
// AccumScalar = int64_t): with an int64 bias, or without bias when quantized_bias_type says
// int64. An int32 bias, or none, takes the int32 template, as in TFLite Micro.
inline bool Int16WideAccumulator(const TfLiteTensor* bias, TfLiteType quantized_bias_type) {
  return bias != nullptr ? bias->type == kTfLiteInt64 : quantized_bias_type == kTfLiteInt64;
}

inline TfLiteStatus CheckFloatBias(TfLiteContext* context, const TfLiteTensor* bias,
                                   int channels_out) {
  if (bias == nullptr) return kTfLiteOk;
  if (bias->type != kTfLiteFloat32) return UnsupportedType(context, bias->type);
  TF_LITE_ENSURE_EQ(context, NumElements(bias), channels_out);
  return kTfLiteOk;
}

// Type rules shared by CONV_2D and DEPTHWISE_CONV_2D: float input needs float weights
// (CONV_2D checks its hybrid case itself before calling this), 8-bit input needs weights of the same type, int16 input
// (16x8) int8 weights, zero points 0 and an int64 bias (or int32 where
// `int16_int32_bias`), the output has the input's type, and the bias matches the output
// channels.
inline TfLiteStatus CheckConvTypes(TfLiteContext* context, const char* op,
                                   const TfLiteTensor* input, const TfLiteTensor* filter,
                                   const TfLiteTensor* bias, const TfLiteTensor* output,
                                   int channels_out, bool int16_int32_bias,
                                   bool allow_int4 = false) {
  switch (input->type) {
    case kTfLiteFloat32:
      if (filter->type != kTfLiteFloat32) {
        TF_LITE_KERNEL_LOG(context, "Hybrid %s (float input, %s filter) not supported.", op,
                           TfLiteTypeGetName(filter->type));
        return kTfLiteError;
      }
      TF_LITE_ENSURE_STATUS(CheckFloatBias(context, bias, channels_out));
      break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      // int8 activations also take int4 weights (CONV_2D v7, unpacked when packed).
      if (!(filter->type == kTfLiteInt4 && input->type == kTfLiteInt8 && allow_int4)) {
        TF_LITE_ENSURE_TYPES_EQ(context, filter->type, input->type);
      }
      TF_LITE_ENSURE_STATUS(CheckQuantBias(context, bias, channels_out));
      break;
    case kTfLiteInt16:
      TF_LITE_ENSURE_STATUS(CheckInt16Weights(context, op, filter));
      TF_LITE_ENSURE_STATUS(CheckInt16Bias(context, op, bias, channels_out, int16_int32_bias));
      TF_LITE_ENSURE_STATUS(CheckInt16ZeroPoints(context, op, input, output));
      break;
    default:
      return UnsupportedType(context, input->type);
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  return kTfLiteOk;
}

// Output height/width and padding of a 2-D convolution over NHWC `input` with an
// [*, kh, kw, *] `filter`; an empty output is an error. `Params` is TfLiteConvParams or
// TfLiteDepthwiseConvParams (same field names).
template <typename Params>
TfLiteStatus ComputeConvGeometry(TfLiteContext* context, const char* op, const Params* params,
                                 const TfLiteTensor* input, const TfLiteTensor* filter,
                                 TfLitePaddingValues* padding, int* out_h, int* out_w) {
  if (!FitsConvWindow(SizeOfDimension(filter, 1), params->dilation_height_factor) ||
      !FitsConvWindow(SizeOfDimension(filter, 2), params->dilation_width_factor)) {
    TF_LITE_KERNEL_LOG(context, "%s: a %dx%d filter dilated by %dx%d spans more than 2^31 pixels.",
                       op, SizeOfDimension(filter, 1), SizeOfDimension(filter, 2),
                       params->dilation_height_factor, params->dilation_width_factor);
    return kTfLiteError;
  }
  *padding = ComputePaddingHeightWidth(
      params->stride_height, params->stride_width, params->dilation_height_factor,
      params->dilation_width_factor, SizeOfDimension(input, 1), SizeOfDimension(input, 2),
      SizeOfDimension(filter, 1), SizeOfDimension(filter, 2), params->padding, out_h, out_w);
  if (*out_h <= 0 || *out_w <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s output would be empty (%dx%d).", op, *out_h, *out_w);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Elements [first, first + count) of an INT4 tensor as int8: two values a byte, the even
// element in the low nibble (TFLite's UnpackDenseInt4IntoInt8).
inline void UnpackInt4(const TfLiteTensor* t, size_t first, size_t count, int8_t* out) {
  const uint8_t* packed = reinterpret_cast<const uint8_t*>(t->data.raw);
  for (size_t i = 0; i < count; ++i) {
    const size_t e = first + i;
    const uint8_t nibble = e % 2 == 0 ? (packed[e / 2] & 0x0F) : (packed[e / 2] >> 4);
    out[i] = static_cast<int8_t>(nibble >= 8 ? nibble - 16 : nibble);
  }
}

// Weights packed for gemm::*Gemm, kept across invocations while the weights are constant
// (model data or folded constants); repacked on every Eval otherwise.
// m groups of a grouped filter (n rows each over taps x f_c, from src) as one group of m * n
// rows over taps x m * f_c: group s's rows hold its weights at channels [s * f_c, (s + 1) *
// f_c) of each tap, zeros elsewhere (a block-diagonal filter: the same sums).
inline void MergeGroupRows(const int8_t* src, int n, int taps, int f_c, int m,
                           std::vector<int8_t>* rows) {
  const size_t k = static_cast<size_t>(taps) * f_c * m;
  rows->assign(static_cast<size_t>(n) * m * k, 0);
  for (int s = 0; s < m; ++s) {
    for (int o = 0; o < n; ++o) {
      const int8_t* from = src + (static_cast<size_t>(s) * n + o) * taps * f_c;
      int8_t* to = rows->data() + (static_cast<size_t>(s) * n + o) * k + s * f_c;
      for (int t = 0; t < taps; ++t) {
        std::copy(from + t * f_c, from + (t + 1) * f_c, to + static_cast<size_t>(t) * f_c * m);
      }
    }
  }
}

struct PackedWeights {
  gemm::CacheLineVector<float> f;
  std::vector<int16_t> q;
  gemm::CacheLineVector<int8_t> dot;  // PackDot: the dot-product GEMM's layout
  std::vector<int32_t> dot_sums;  // and the weights' column sums
  bool valid = false;

  void Invalidate() { valid = false; }

  // weights: rows [first_row, first_row + n) of a [*][k] tensor (a group of a grouped
  // convolution); zero_point subtracted for 8-bit weights.
  void Pack(const TfLiteTensor* w, int n, int k, int32_t zero_point, size_t first_row = 0) {
    if (valid) return;
    const size_t at = first_row * static_cast<size_t>(k);
    if (w->type == kTfLiteFloat32) {
      f.resize(gemm::PackedWeightsSize(n, k));
      gemm::PackFloatWeights(w->data.f + at, n, k, f.data());
    } else if (w->type == kTfLiteInt8) {
      q.resize(gemm::PackedQuantizedWeightsSize(n, k));
      gemm::PackInt8Weights(w->data.int8 + at, n, k, zero_point, q.data());
    } else if (w->type == kTfLiteInt4) {
      std::vector<int8_t> rows(static_cast<size_t>(n) * k);
      UnpackInt4(w, at, rows.size(), rows.data());
      q.resize(gemm::PackedQuantizedWeightsSize(n, k));
      gemm::PackInt8Weights(rows.data(), n, k, zero_point, q.data());
    } else {
      q.resize(gemm::PackedQuantizedWeightsSize(n, k));
      gemm::PackUint8Weights(w->data.uint8 + at, n, k, zero_point, q.data());
    }
    valid = IsConstantOrPersistentTensor(w);
  }

  // int8 / int4 weights for gemm::DotGemm (rows as Pack's).
  void PackDot(const TfLiteTensor* w, int n, int k, size_t first_row = 0) {
    if (valid) return;
    const size_t at = first_row * static_cast<size_t>(k);
    std::vector<int8_t> unpacked;
    const int8_t* rows = w->data.int8 + at;
    if (w->type == kTfLiteInt4) {
      unpacked.resize(static_cast<size_t>(n) * k);
      UnpackInt4(w, at, unpacked.size(), unpacked.data());
      rows = unpacked.data();
    }
    dot.resize(gemm::PackedDotWeightsSize(n, k));
    dot_sums.resize(n);
    gemm::PackDotWeights(rows, n, k, dot.data(), dot_sums.data());
    valid = IsConstantOrPersistentTensor(w);
  }

  // Merged group j of a grouped filter: its groups j * m .. j * m + m - 1 (n rows each over
  // taps x f_c) as one group of m * n rows over taps x m * f_c, zeros across the groups,
  // packed as PackDot: m groups convolved at once with the same sums (im2col.h:
  // MergedGroups).
  void PackDotMerged(const TfLiteTensor* w, int n, int taps, int f_c, int m, int j) {
    if (valid) return;
    const size_t group = static_cast<size_t>(n) * taps * f_c;
    const size_t at = static_cast<size_t>(j) * m * group;
    std::vector<int8_t> unpacked;
    const int8_t* src = w->data.int8 + at;
    if (w->type == kTfLiteInt4) {
      unpacked.resize(group * m);
      UnpackInt4(w, at, unpacked.size(), unpacked.data());
      src = unpacked.data();
    }
    const int k = taps * f_c * m;
    std::vector<int8_t> rows;
    MergeGroupRows(src, n, taps, f_c, m, &rows);
    dot.resize(gemm::PackedDotWeightsSize(n * m, k));
    dot_sums.resize(static_cast<size_t>(n) * m);
    gemm::PackDotWeights(rows.data(), n * m, k, dot.data(), dot_sums.data());
    valid = IsConstantOrPersistentTensor(w);
  }
};

}  // namespace conv_util
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_CONV_UTIL_H_
