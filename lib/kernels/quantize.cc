// QUANTIZE: float32 -> uint8/int8/int16, per-tensor or per-channel (v3: one scale and
// zero point per index of the output's quantized_dimension, as reference_ops::
// PerChannelQuantize), and requantization between uint8/int8, int16 -> int8/int16/int32
// and int32 -> int8/int16 (the cases upstream's Prepare accepts). Bit-exact with
// TFLite's reference:
// AffineQuantize rounds val / scale (in float) half away from zero, adds the zero
// point and clamps; Requantize uses MultiplyByQuantizedMultiplier with the
// QuantizeMultiplier(input_scale / output_scale) multiplier.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/cppmath.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace quantize {
namespace {

struct OpData {
  int32_t output_multiplier = 0;
  int output_shift = 0;
  // Per-channel output (float input only): the channel of flat index i is
  // (i / channel_stride) % scales.size().
  std::vector<float> scales;
  std::vector<int32_t> zero_points;
  int64_t channel_stride = 1;
  // 8-bit to 8-bit: the requantized byte of every input byte (Requantize's own results,
  // so bit-exact), one lookup an element instead of a multiply and shifts.
  bool byte_table = false;
  uint8_t table[256] = {};
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

bool PerTensor(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return false;
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
  return q == nullptr || q->scale == nullptr || q->scale->size <= 1;
}

// A per-channel output of a float input: TFLite's per-channel parameters (a single zero
// point serves every channel), checked against the output's shape.
TfLiteStatus PreparePerChannel(TfLiteContext* context, const TfLiteTensor* input,
                               const TfLiteTensor* output, OpData* data) {
  const auto* q = static_cast<const TfLiteAffineQuantization*>(output->quantization.params);
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context,
                       "QUANTIZE: a per-channel quantized output needs a float32 input (got %s).",
                       TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  const int rank = NumDimensions(input);
  const int dim = q->quantized_dimension;
  if (dim < 0 || dim >= rank || SizeOfDimension(input, dim) != q->scale->size) {
    TF_LITE_KERNEL_LOG(context,
                       "QUANTIZE: %d per-channel scales do not fit quantized_dimension %d of a "
                       "rank-%d output.",
                       q->scale->size, dim, rank);
    return kTfLiteError;
  }
  const int zps = q->zero_point != nullptr ? q->zero_point->size : 0;
  TF_LITE_ENSURE_MSG(context, zps == q->scale->size || zps == 1,
                     "QUANTIZE: per-channel zero points must number one or one per scale.");
  data->scales.assign(q->scale->data, q->scale->data + q->scale->size);
  data->zero_points.resize(q->scale->size);
  for (int c = 0; c < q->scale->size; ++c) {
    TF_LITE_ENSURE_MSG(context, data->scales[c] > 0.f,
                       "QUANTIZE: the output scales must be positive.");
    data->zero_points[c] = q->zero_point->data[zps == 1 ? 0 : c];
  }
  data->channel_stride = 1;
  for (int d = dim + 1; d < rank; ++d) data->channel_stride *= SizeOfDimension(input, d);
  return kTfLiteOk;
}

template <typename In, typename Out>
void Requantize(const In* in, int64_t n, int32_t multiplier, int shift, int32_t in_zp,
                int32_t out_zp, Out* out) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  for (int64_t i = 0; i < n; ++i) {
    // Wrapping arithmetic: only the int32 cases can overflow, as upstream's would.
    const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int32_t>(in[i])) -
                                           static_cast<uint32_t>(in_zp));
    const int32_t v = WrappingAdd(MultiplyByQuantizedMultiplier(x, multiplier, shift), out_zp);
    out[i] = static_cast<Out>(std::max(std::min(v, kMax), kMin));
  }
}

// Requantize of each of the 256 input bytes (In: int8 or uint8), to int8 or uint8.
template <typename In>
void BuildByteTable(bool out_signed, const OpData& d, int32_t in_zp, int32_t out_zp,
                    uint8_t* table) {
  In bytes[256];
  for (int b = 0; b < 256; ++b) bytes[b] = static_cast<In>(static_cast<uint8_t>(b));
  if (out_signed) {
    Requantize(bytes, 256, d.output_multiplier, d.output_shift, in_zp, out_zp,
               reinterpret_cast<int8_t*>(table));
  } else {
    Requantize(bytes, 256, d.output_multiplier, d.output_shift, in_zp, out_zp, table);
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_MSG(context, output->quantization.type == kTfLiteAffineQuantization,
                     "QUANTIZE: the output needs affine quantization parameters.");
  data->scales.clear();
  if (!PerTensor(output)) {
    TF_LITE_ENSURE_STATUS(PreparePerChannel(context, input, output, data));
  } else {
    TF_LITE_ENSURE_MSG(context, output->params.scale > 0.f,
                       "QUANTIZE: the output scale must be positive.");
  }
  const TfLiteType in = input->type;
  const TfLiteType out = output->type;
  bool ok;
  if (in == kTfLiteFloat32) {
    ok = out == kTfLiteUInt8 || out == kTfLiteInt8 || out == kTfLiteInt16;
  } else if (in == kTfLiteInt16) {
    ok = out == kTfLiteInt8 || out == kTfLiteInt16 || out == kTfLiteInt32;
  } else if (in == kTfLiteInt32) {
    ok = out == kTfLiteInt8 || out == kTfLiteInt16;
  } else if (in == kTfLiteInt8 || in == kTfLiteUInt8) {
    ok = out == kTfLiteInt8 || out == kTfLiteUInt8;
  } else {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(in), in);
    return kTfLiteError;
  }
  if (!ok) {
    TF_LITE_KERNEL_LOG(context, "QUANTIZE: output type %s not supported for input type %s.",
                       TfLiteTypeGetName(out), TfLiteTypeGetName(in));
    return kTfLiteError;
  }
  if (in != kTfLiteFloat32) {
    TF_LITE_ENSURE_MSG(context, PerTensor(input),
                       "QUANTIZE: per-channel quantized inputs are not supported.");
    const double effective_scale =
        static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale);
    QuantizeMultiplier(effective_scale, &data->output_multiplier, &data->output_shift);
    // MultiplyByQuantizedMultiplier's range (a ratio of at most 2^30 either way).
    TF_LITE_ENSURE_MSG(context, data->output_shift >= -31 && data->output_shift <= 30,
                       "QUANTIZE: input/output scale ratio out of range.");
  }
  if (in == kTfLiteInt16 && out == kTfLiteInt16) {
    TF_LITE_ENSURE_EQ(context, input->params.zero_point, 0);
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  data->byte_table = false;
  if ((in == kTfLiteInt8 || in == kTfLiteUInt8) && (out == kTfLiteInt8 || out == kTfLiteUInt8)) {
    const int32_t in_zp = input->params.zero_point, out_zp = output->params.zero_point;
    if (in == kTfLiteInt8) {
      BuildByteTable<int8_t>(out == kTfLiteInt8, *data, in_zp, out_zp, data->table);
    } else {
      BuildByteTable<uint8_t>(out == kTfLiteInt8, *data, in_zp, out_zp, data->table);
    }
    data->byte_table = true;
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

template <typename Out>
Out QuantizeValue(float value, float scale, int32_t zero_point) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  const float r = TfLiteRound(value / scale);
  // The float -> int32 conversion is only defined in range; out of range (and NaN)
  // saturates, which is where upstream's clamp ends up for any sane zero point.
  if (r >= 2147483648.f) return static_cast<Out>(kMax);
  if (!(r >= -2147483648.f)) return static_cast<Out>(kMin);
  return static_cast<Out>(
      std::max<int64_t>(std::min<int64_t>(static_cast<int64_t>(r) + zero_point, kMax), kMin));
}

#if defined(__x86_64__) || defined(__i386__)
// 8 values of AffineQuantize's loop at a time: the same division, hybrid::RoundHalfAway's
// steps, the clamp; returns how many values it did.
template <typename Out>
__attribute__((target("avx2"))) int64_t AffineQuantizeAvx2(const float* in, int64_t n,
                                                           float scale, int32_t lo, int32_t hi,
                                                           int32_t zero_point, Out* out) {
  const __m256 vscale = _mm256_set1_ps(scale);
  const __m256 fmin = _mm256_set1_ps(-2147483520.0f), fmax = _mm256_set1_ps(2147483520.0f);
  const __m256 half = _mm256_set1_ps(0.5f), minus_half = _mm256_set1_ps(-0.5f);
  const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  const __m256i zp = _mm256_set1_epi32(zero_point);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_div_ps(_mm256_loadu_ps(in + i), vscale);
    x = _mm256_min_ps(_mm256_max_ps(x, fmin), fmax);  // NaN -> the lower bound
    const __m256i t = _mm256_cvttps_epi32(x);
    const __m256 frac = _mm256_sub_ps(x, _mm256_cvtepi32_ps(t));
    const __m256i up = _mm256_castps_si256(_mm256_cmp_ps(frac, half, _CMP_GE_OQ));
    const __m256i down = _mm256_castps_si256(_mm256_cmp_ps(frac, minus_half, _CMP_LE_OQ));
    __m256i q = _mm256_add_epi32(_mm256_sub_epi32(t, up), down);
    q = _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(q, vlo), vhi), zp);
    int32_t v[8];
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(v), q);
    for (int l = 0; l < 8; ++l) out[i + l] = static_cast<Out>(v[l]);
  }
  return i;
}
#endif

// QuantizeValue over a tensor (hybrid::RoundHalfAway is std::round's result, and its clamp
// gives QuantizeValue's saturation and NaN -> the lowest value).
template <typename Out>
void AffineQuantize(const float* in, int64_t n, float scale, int32_t zero_point, Out* out) {
  // Clamped before the zero point is added, so that everything stays in int32.
  const int32_t lo = static_cast<int32_t>(std::numeric_limits<Out>::min()) - zero_point;
  const int32_t hi = static_cast<int32_t>(std::numeric_limits<Out>::max()) - zero_point;
  int64_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx2()) i = AffineQuantizeAvx2(in, n, scale, lo, hi, zero_point, out);
#endif
  for (; i < n; ++i) {
    const int32_t q = hybrid::RoundHalfAway(in[i] / scale);
    out[i] = static_cast<Out>(std::max(std::min(q, hi), lo) + zero_point);
  }
}

template <typename Out>
void PerChannelQuantize(const float* in, int64_t n, const OpData& d, Out* out) {
  const int64_t channels = static_cast<int64_t>(d.scales.size());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = (i / d.channel_stride) % channels;
    out[i] = QuantizeValue<Out>(in[i], d.scales[c], d.zero_points[c]);
  }
}

template <typename In>
void RequantizeTo(const TfLiteTensor* input, const OpData& d, TfLiteTensor* output) {
  const int64_t n = NumElements(input);
  const In* in = reinterpret_cast<const In*>(input->data.raw);
  const int32_t izp = input->params.zero_point, ozp = output->params.zero_point;
  if (d.byte_table && sizeof(In) == 1) {
    uint8_t* out = reinterpret_cast<uint8_t*>(output->data.raw);
    for (int64_t i = 0; i < n; ++i) out[i] = d.table[static_cast<uint8_t>(in[i])];
    return;
  }
  switch (output->type) {
    case kTfLiteUInt8:
      Requantize(in, n, d.output_multiplier, d.output_shift, izp, ozp, output->data.uint8);
      break;
    case kTfLiteInt8:
      Requantize(in, n, d.output_multiplier, d.output_shift, izp, ozp, output->data.int8);
      break;
    case kTfLiteInt16:
      Requantize(in, n, d.output_multiplier, d.output_shift, izp, ozp, output->data.i16);
      break;
    default:  // int32 (from int16), checked in Prepare
      Requantize(in, n, d.output_multiplier, d.output_shift, izp, ozp, output->data.i32);
      break;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int64_t n = NumElements(input);
  switch (input->type) {
    case kTfLiteFloat32: {
      if (!data.scales.empty()) {
        if (output->type == kTfLiteUInt8) {
          PerChannelQuantize(input->data.f, n, data, output->data.uint8);
        } else if (output->type == kTfLiteInt8) {
          PerChannelQuantize(input->data.f, n, data, output->data.int8);
        } else {
          PerChannelQuantize(input->data.f, n, data, output->data.i16);
        }
        return kTfLiteOk;
      }
      const float scale = output->params.scale;
      const int32_t zp = output->params.zero_point;
      if (output->type == kTfLiteUInt8) {
        AffineQuantize(input->data.f, n, scale, zp, output->data.uint8);
      } else if (output->type == kTfLiteInt8) {
        AffineQuantize(input->data.f, n, scale, zp, output->data.int8);
      } else {
        AffineQuantize(input->data.f, n, scale, zp, output->data.i16);
      }
      return kTfLiteOk;
    }
    case kTfLiteUInt8:
      RequantizeTo<uint8_t>(input, data, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      RequantizeTo<int8_t>(input, data, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      RequantizeTo<int16_t>(input, data, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      RequantizeTo<int32_t>(input, data, output);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace quantize

TfLiteRegistration* Register_QUANTIZE() {
  static TfLiteRegistration r = {quantize::Init, quantize::Free, quantize::Prepare, quantize::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
