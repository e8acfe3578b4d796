// SVDF (v1 float32, v3 full integer): a fully connected layer factored into a feature
// matrix [num_filters, input] and a time matrix [num_filters, memory] over a variable
// state tensor [batch, num_filters * memory] that holds the last `memory` feature
// activations of every filter. Each invocation pushes one new activation per filter,
// dots each filter's memory with its time weights, sums `rank` filters per unit, adds
// the bias and applies the activation.
//   - float32: TFLite's reference EvalFloatSVDF.
//   - int8 input/output, int8 feature weights, int16 time weights and state, int32
//     bias: bit-exact with TFLite's reference EvalIntegerSVDF (state kept at the
//     state's scale, output rescaled and clamped to int8; no fused activation, as
//     upstream).
// Not implemented: hybrid float input with int8 weights (v2, v4).
#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/lstm_eval.h"
#include "kernels/internal/requantize.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_SVDF_X86 1
#endif

namespace tflite {
namespace ops {
namespace builtin {
namespace svdf {
namespace {

constexpr int kInput = 0;
constexpr int kWeightsFeature = 1;
constexpr int kWeightsTime = 2;
constexpr int kBias = 3;
constexpr int kState = 4;

struct OpData {
  int batch = 0, input_size = 0, num_filters = 0, num_units = 0, memory = 0;
  int32_t scale_1_a = 0, scale_2_a = 0;
  int scale_1_b = 0, scale_2_b = 0;
  std::vector<float> scratch_f;    // [batch, num_filters]
  std::vector<int32_t> scratch_i;  // [batch, num_filters]
  std::vector<int32_t> output_temp;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus PrepareInteger(TfLiteContext* context, const TfLiteTensor* input,
                            const TfLiteTensor* weights_feature, const TfLiteTensor* weights_time,
                            const TfLiteTensor* bias, const TfLiteTensor* state,
                            const TfLiteTensor* output, OpData* d) {
  TF_LITE_ENSURE_TYPES_EQ(context, weights_feature->type, kTfLiteInt8);
  TF_LITE_ENSURE_TYPES_EQ(context, weights_time->type, kTfLiteInt16);
  TF_LITE_ENSURE_TYPES_EQ(context, state->type, kTfLiteInt16);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteInt8);
  if (bias != nullptr) TF_LITE_ENSURE_TYPES_EQ(context, bias->type, kTfLiteInt32);
  for (const TfLiteTensor* t : {input, weights_feature, weights_time, state, output}) {
    TF_LITE_ENSURE(context, t->quantization.type == kTfLiteAffineQuantization);
    TF_LITE_ENSURE(context, t->params.scale > 0.0f);
  }
  // Products in float, as TFLite's Prepare computes them.
  const float scale_1 = input->params.scale * weights_feature->params.scale / state->params.scale;
  const float scale_2 = state->params.scale * weights_time->params.scale / output->params.scale;
  QuantizeMultiplier(static_cast<double>(scale_1), &d->scale_1_a, &d->scale_1_b);
  QuantizeMultiplier(static_cast<double>(scale_2), &d->scale_2_a, &d->scale_2_b);
  d->scratch_i.assign(static_cast<size_t>(d->batch) * d->num_filters, 0);
  d->output_temp.assign(static_cast<size_t>(d->batch) * d->num_units, 0);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OpData* d = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteSVDFParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_EQ(context, node->outputs->size, 1);
  TF_LITE_ENSURE_EQ(context, node->inputs->size, 5);
  const TfLiteTensor *input, *weights_feature, *weights_time;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInput, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kWeightsFeature, &weights_feature));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kWeightsTime, &weights_time));
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32 && weights_feature->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Hybrid SVDF (float input, %s weights) is not supported.",
                       TfLiteTypeGetName(weights_feature->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumDimensions(input), 2);
  TF_LITE_ENSURE_EQ(context, NumDimensions(weights_feature), 2);
  TF_LITE_ENSURE_EQ(context, NumDimensions(weights_time), 2);
  const int rank = params->rank;
  d->batch = input->dims->data[0];
  d->input_size = input->dims->data[1];
  d->num_filters = weights_feature->dims->data[0];
  TF_LITE_ENSURE(context, rank > 0);
  TF_LITE_ENSURE_EQ(context, d->num_filters % rank, 0);
  d->num_units = d->num_filters / rank;
  d->memory = weights_time->dims->data[1];
  TF_LITE_ENSURE(context, d->memory > 0);
  TF_LITE_ENSURE_EQ(context, weights_feature->dims->data[1], d->input_size);
  TF_LITE_ENSURE_EQ(context, weights_time->dims->data[0], d->num_filters);
  const TfLiteTensor* bias = GetOptionalInputTensor(context, node, kBias);
  if (bias != nullptr) {
    TF_LITE_ENSURE_EQ(context, NumDimensions(bias), 1);
    TF_LITE_ENSURE_EQ(context, bias->dims->data[0], d->num_units);
  }
  TfLiteTensor* state = GetVariableInput(context, node, kState);
  if (state == nullptr) {
    TF_LITE_KERNEL_LOG(context, "SVDF state (input %d) must be a variable tensor.", kState);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumDimensions(state), 2);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(state, 0), d->batch);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(state, 1), d->memory * d->num_filters);
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TfLiteIntArray* output_size = TfLiteIntArrayCreate(2);
  output_size->data[0] = d->batch;
  output_size->data[1] = d->num_units;
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, output_size));
  if (input->type == kTfLiteInt8) {
    return PrepareInteger(context, input, weights_feature, weights_time, bias, state, output, d);
  }
  TF_LITE_ENSURE_TYPES_EQ(context, weights_time->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, state->type, kTfLiteFloat32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteFloat32);
  if (bias != nullptr) TF_LITE_ENSURE_TYPES_EQ(context, bias->type, kTfLiteFloat32);
  d->scratch_f.assign(static_cast<size_t>(d->batch) * d->num_filters, 0.0f);
  return kTfLiteOk;
}

// Moves every filter's memory one step to the left, the newest slot becoming zero: the
// rows are contiguous, so one move of the whole buffer, then the last slot of each row
// (it received the next row's oldest value).
template <typename T>
void ShiftState(T* state, int batch, int num_filters, int memory) {
  const size_t total = static_cast<size_t>(batch) * num_filters * memory;
  std::copy(state + 1, state + total, state);
  for (size_t row = 1; row <= static_cast<size_t>(batch) * num_filters; ++row) {
    state[row * memory - 1] = 0;
  }
}

void EvalFloat(const OpData& d, TfLiteFusedActivation activation, const float* input,
               const float* weights_feature, const float* weights_time, const float* bias,
               float* state, float* scratch, float* output) {
  const int nf = d.num_filters, mem = d.memory;
  for (int b = 0; b < d.batch; ++b) {
    for (int f = 0; f < nf; ++f) {
      float dot = 0.0f;
      for (int i = 0; i < d.input_size; ++i) {
        dot += weights_feature[f * d.input_size + i] * input[b * d.input_size + i];
      }
      state[(b * nf + f) * mem + mem - 1] = dot;
    }
  }
  for (int b = 0; b < d.batch; ++b) {
    for (int f = 0; f < nf; ++f) {
      const float* s = state + (b * nf + f) * mem;
      float dot = 0.0f;
      for (int m = 0; m < mem; ++m) dot += weights_time[f * mem + m] * s[m];
      scratch[b * nf + f] = dot;
    }
  }
  const int rank = nf / d.num_units;
  for (int b = 0; b < d.batch; ++b) {
    for (int u = 0; u < d.num_units; ++u) {
      float sum = bias != nullptr ? bias[u] : 0.0f;
      for (int r = 0; r < rank; ++r) sum += scratch[b * nf + u * rank + r];
      output[b * d.num_units + u] = lstm_eval::ApplyActivation(sum, activation);
    }
  }
  ShiftState(state, d.batch, nf, mem);
}

// sum_i w[i] * (x[i] - zp) and sum_i t[i] * s[i] in int32, wrapping as the reference's
// sums (each product fits; the adds wrap alike in any order).
int32_t FeatureDot(const int8_t* w, const int8_t* x, int32_t zp, int n) {
  int32_t dot = 0;
  for (int i = 0; i < n; ++i) dot = WrappingAdd(dot, w[i] * (x[i] - zp));
  return dot;
}
int32_t TimeDot(const int16_t* t, const int16_t* s, int n) {
  int32_t dot = 0;
  for (int i = 0; i < n; ++i) dot = WrappingAdd(dot, static_cast<int32_t>(t[i]) * s[i]);
  return dot;
}

#ifdef TFI_SVDF_X86
// The same 16 values a step with vpmaddwd (x - zp in [-255, 255] fits int16; a pair of
// int16 products wraps as two wrapping adds would): keyword_scrambled's seven SVDF layers
// were 70% of its time in the scalar loops.
__attribute__((target("avx2"))) int32_t HorizontalSum(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}
__attribute__((target("avx2"))) int32_t FeatureDotAvx2(const int8_t* w, const int8_t* x,
                                                      int32_t zp, int n) {
  const __m256i zpv = _mm256_set1_epi16(static_cast<int16_t>(zp));
  __m256i acc = _mm256_setzero_si256();
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i wv = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + i)));
    const __m256i xv = _mm256_sub_epi16(
        _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))), zpv);
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(wv, xv));
  }
  return WrappingAdd(HorizontalSum(acc), FeatureDot(w + i, x + i, zp, n - i));
}
__attribute__((target("avx2"))) int32_t TimeDotAvx2(const int16_t* t, const int16_t* s, int n) {
  __m256i acc = _mm256_setzero_si256();
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    acc = _mm256_add_epi32(
        acc, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + i)),
                               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i))));
  }
  return WrappingAdd(HorizontalSum(acc), TimeDot(t + i, s + i, n - i));
}

// Eight filters at once: keyword_scrambled's layers have 16-96 inputs and memories of 8,
// where one dot at a time spent more on its call, reduction and scalar requantization
// than on its products. Lane l of the result is vector v[l]'s sum (int32 adds wrap, so
// any order gives the reference's sums).
__attribute__((target("avx2"))) inline __m256i LaneSums8(const __m256i (&v)[8]) {
  const __m256i t0 = _mm256_hadd_epi32(v[0], v[1]);
  const __m256i t1 = _mm256_hadd_epi32(v[2], v[3]);
  const __m256i t2 = _mm256_hadd_epi32(v[4], v[5]);
  const __m256i t3 = _mm256_hadd_epi32(v[6], v[7]);
  const __m256i u0 = _mm256_hadd_epi32(t0, t1);  // v0..v3: low halves' sums | high halves'
  const __m256i u1 = _mm256_hadd_epi32(t2, t3);  // v4..v7
  return _mm256_add_epi32(_mm256_permute2x128_si256(u0, u1, 0x20),
                          _mm256_permute2x128_si256(u0, u1, 0x31));
}

// FeatureDot of filters [0, 8) of w (rows of n) with x.
__attribute__((target("avx2"))) __m256i FeatureDots8(const int8_t* w, const int8_t* x, int32_t zp,
                                                     int n) {
  const __m256i zpv = _mm256_set1_epi16(static_cast<int16_t>(zp));
  __m256i acc[8];
  for (auto& a : acc) a = _mm256_setzero_si256();
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i xv = _mm256_sub_epi16(
        _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))), zpv);
    for (int f = 0; f < 8; ++f) {
      const __m256i wv = _mm256_cvtepi8_epi16(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + static_cast<size_t>(f) * n + i)));
      acc[f] = _mm256_add_epi32(acc[f], _mm256_madd_epi16(wv, xv));
    }
  }
  __m256i sums = LaneSums8(acc);
  if (i < n) {
    alignas(32) int32_t tail[8];
    for (int f = 0; f < 8; ++f)
      tail[f] = FeatureDot(w + static_cast<size_t>(f) * n + i, x + i, zp, n - i);
    sums = _mm256_add_epi32(sums, _mm256_load_si256(reinterpret_cast<const __m256i*>(tail)));
  }
  return sums;
}

// TimeDot of filters [0, 8): t and s rows of n.
__attribute__((target("avx2"))) __m256i TimeDots8(const int16_t* t, const int16_t* s, int n) {
  __m256i acc[8];
  for (auto& a : acc) a = _mm256_setzero_si256();
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    for (int f = 0; f < 8; ++f) {
      const size_t o = static_cast<size_t>(f) * n + i;
      acc[f] = _mm256_add_epi32(
          acc[f], _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + o)),
                                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + o))));
    }
  }
  if (i + 8 <= n) {
    for (int f = 0; f < 8; ++f) {
      const size_t o = static_cast<size_t>(f) * n + i;
      const __m128i p = _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + o)),
                                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + o)));
      acc[f] = _mm256_add_epi32(acc[f], _mm256_inserti128_si256(_mm256_setzero_si256(), p, 0));
    }
    i += 8;
  }
  __m256i sums = LaneSums8(acc);
  if (i < n) {
    alignas(32) int32_t tail[8];
    for (int f = 0; f < 8; ++f) {
      tail[f] =
          TimeDot(t + static_cast<size_t>(f) * n + i, s + static_cast<size_t>(f) * n + i, n - i);
    }
    sums = _mm256_add_epi32(sums, _mm256_load_si256(reinterpret_cast<const __m256i*>(tail)));
  }
  return sums;
}

// The int8 SVDF's three steps, eight filters or units a step (the rest one at a time):
// the same sums and the same requantization (MultiplyByQuantizedMultiplier8 gives
// MultiplyByQuantizedMultiplier's bits) as EvalInteger's scalar loops.
__attribute__((target("avx2"))) void FeatureStepAvx2(const int8_t* weights_feature, const int8_t* x,
                                                     int32_t zp, int nf, int input_size, int mem,
                                                     int32_t mult, int shift, int16_t* state) {
  const requant::Avx2Channels ch = requant::UniformChannels(mult, shift);
  const __m256i lo = _mm256_set1_epi32(-32768), hi = _mm256_set1_epi32(32767);
  int f = 0;
  for (; f + 8 <= nf; f += 8) {
    __m256i v =
        FeatureDots8(weights_feature + static_cast<size_t>(f) * input_size, x, zp, input_size);
    v = _mm256_min_epi32(_mm256_max_epi32(requant::MultiplyByQuantizedMultiplier8(v, ch), lo), hi);
    alignas(32) int32_t out[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(out), v);
    for (int l = 0; l < 8; ++l)
      state[static_cast<size_t>(f + l) * mem + mem - 1] = static_cast<int16_t>(out[l]);
  }
  for (; f < nf; ++f) {
    int32_t dot =
        FeatureDotAvx2(weights_feature + static_cast<size_t>(f) * input_size, x, zp, input_size);
    dot = MultiplyByQuantizedMultiplier(dot, mult, shift);
    state[static_cast<size_t>(f) * mem + mem - 1] =
        static_cast<int16_t>(lstm_eval::Clamp(dot, -32768, 32767));
  }
}

__attribute__((target("avx2"))) void TimeStepAvx2(const int16_t* weights_time, const int16_t* state,
                                                  int nf, int mem, int32_t* dots) {
  int f = 0;
  for (; f + 8 <= nf; f += 8) {
    const size_t o = static_cast<size_t>(f) * mem;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dots + f),
                        TimeDots8(weights_time + o, state + o, mem));
  }
  for (; f < nf; ++f) {
    const size_t o = static_cast<size_t>(f) * mem;
    dots[f] = TimeDotAvx2(weights_time + o, state + o, mem);
  }
}

// sums[u] -> int8: requantized, plus the output zero point (wrapping), clamped.
__attribute__((target("avx2"))) void OutputStepAvx2(const int32_t* sums, int units, int32_t mult,
                                                    int shift, int32_t output_zp, int8_t* out) {
  const requant::Avx2Channels ch = requant::UniformChannels(mult, shift);
  const __m256i zpv = _mm256_set1_epi32(output_zp);
  const __m256i lo = _mm256_set1_epi32(-128), hi = _mm256_set1_epi32(127);
  int u = 0;
  for (; u + 8 <= units; u += 8) {
    __m256i v = requant::MultiplyByQuantizedMultiplier8(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums + u)), ch);
    v = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(v, zpv), lo), hi);
    alignas(32) int32_t r[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(r), v);
    for (int l = 0; l < 8; ++l) out[u + l] = static_cast<int8_t>(r[l]);
  }
  for (; u < units; ++u) {
    const int32_t scaled =
        WrappingAdd(MultiplyByQuantizedMultiplier(sums[u], mult, shift), output_zp);
    out[u] = static_cast<int8_t>(lstm_eval::Clamp(scaled, -128, 127));
  }
}
#endif

void EvalInteger(OpData& d, const TfLiteTensor* input, const int8_t* weights_feature,
                 const int16_t* weights_time, const int32_t* bias, int16_t* state,
                 const TfLiteTensor* output) {
  const int nf = d.num_filters, mem = d.memory;
  const int32_t input_zp = input->params.zero_point;
  const int32_t output_zp = output->params.zero_point;
  const int rank = nf / d.num_units;
#ifdef TFI_SVDF_X86
  if (gemm::CpuHasAvx2() && input_zp >= -128 && input_zp <= 127) {
    for (int b = 0; b < d.batch; ++b) {
      int16_t* s = state + static_cast<size_t>(b) * nf * mem;
      FeatureStepAvx2(weights_feature, input->data.int8 + b * d.input_size, input_zp, nf,
                      d.input_size, mem, d.scale_1_a, d.scale_1_b, s);
      int32_t* dots = d.scratch_i.data() + static_cast<size_t>(b) * nf;
      TimeStepAvx2(weights_time, s, nf, mem, dots);
      int32_t* sums = d.output_temp.data() + static_cast<size_t>(b) * d.num_units;
      for (int u = 0; u < d.num_units; ++u) {
        int32_t sum = bias != nullptr ? bias[u] : 0;
        for (int r = 0; r < rank; ++r) sum = WrappingAdd(sum, dots[u * rank + r]);
        sums[u] = sum;
      }
      OutputStepAvx2(sums, d.num_units, d.scale_2_a, d.scale_2_b, output_zp,
                     output->data.int8 + b * d.num_units);
    }
    ShiftState(state, d.batch, nf, mem);
    return;
  }
#endif
  for (int b = 0; b < d.batch; ++b) {
    const int8_t* x = input->data.int8 + b * d.input_size;
    for (int f = 0; f < nf; ++f) {
      int32_t dot = FeatureDot(weights_feature + f * d.input_size, x, input_zp, d.input_size);
      dot = MultiplyByQuantizedMultiplier(dot, d.scale_1_a, d.scale_1_b);
      state[(b * nf + f) * mem + mem - 1] =
          static_cast<int16_t>(lstm_eval::Clamp(dot, -32768, 32767));
    }
  }
  for (int b = 0; b < d.batch; ++b) {
    for (int f = 0; f < nf; ++f) {
      d.scratch_i[b * nf + f] = TimeDot(weights_time + f * mem, state + (b * nf + f) * mem, mem);
    }
  }
  for (int b = 0; b < d.batch; ++b) {
    for (int u = 0; u < d.num_units; ++u) {
      int32_t sum = bias != nullptr ? bias[u] : 0;
      // int32 sums wrap, as TFLite's reference computes them on every target.
      for (int r = 0; r < rank; ++r) sum = WrappingAdd(sum, d.scratch_i[b * nf + u * rank + r]);
      const int32_t scaled =
          WrappingAdd(MultiplyByQuantizedMultiplier(sum, d.scale_2_a, d.scale_2_b), output_zp);
      output->data.int8[b * d.num_units + u] =
          static_cast<int8_t>(lstm_eval::Clamp(scaled, -128, 127));
    }
  }
  ShiftState(state, d.batch, nf, mem);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  OpData* d = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteSVDFParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, kInput);
  const TfLiteTensor* weights_feature = GetInput(context, node, kWeightsFeature);
  const TfLiteTensor* weights_time = GetInput(context, node, kWeightsTime);
  const TfLiteTensor* bias = GetOptionalInputTensor(context, node, kBias);
  TfLiteTensor* state = GetVariableInput(context, node, kState);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type == kTfLiteFloat32) {
    EvalFloat(*d, params->activation, input->data.f, weights_feature->data.f, weights_time->data.f,
              bias != nullptr ? bias->data.f : nullptr, state->data.f, d->scratch_f.data(),
              output->data.f);
  } else {
    EvalInteger(*d, input, weights_feature->data.int8, weights_time->data.i16,
                bias != nullptr ? bias->data.i32 : nullptr, state->data.i16, output);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace svdf

TfLiteRegistration* Register_SVDF() {
  static TfLiteRegistration r = {svdf::Init, svdf::Free, svdf::Prepare, svdf::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
