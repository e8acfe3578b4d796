// SOFTMAX over the last dimension with `beta`: float32 (TFLite's default kernel's bits:
// kernels/internal/softmax_f32.h), and quantized uint8 -> uint8,
// int8 -> int8 and int8 -> int16, bit-exact with TFLite's reference kernel
// (reference_ops::Softmax: input differences scaled to Q5.26, gemmlowp fixed-point
// exp, sum in Q12.19, fixed-point reciprocal). Output quantization must be the
// fixed one TFLite requires: scale 1/256 (1/65536 for int16), zero point at the type's
// minimum (0 for uint8). int16 -> int16 (v3, ranks 1-4, zero points 0, output scale
// 1/32768) is reference_ops::SoftmaxInt16: differences scaled so that [-65535, 0] is
// [-10, 0], exp and 1/(1+x) from 513-entry interpolated tables (LUTPopulate in double, as
// TFLite builds them), sum in Q16.15. Rows are split over the interpreter's thread pool.
//
// Long 8-bit rows: the reference kernel is undefined where a row's Q12.19 sum of exps
// exceeds 2^8 (2^16 for int16 output; it TFLITE_CHECKs the exponent and aborts), which
// an ImageNet head (1000 classes) reaches. Rows longer than that bound are computed as
// TFLite's default (optimized) kernel computes every row: a 256-entry float table of
// exp(-scale * beta * d), a float sum in row order, round(e * 1 / (sum * out_scale)).
// The choice is by row length, not by value, so a model runs one kernel throughout.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/internal/parallel.h"
#include "kernels/internal/softmax_f32.h"
#include "kernels/internal/softmax_fixedpoint.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace softmax {
namespace {

constexpr int kScaledDiffIntegerBits = 5;
constexpr int kAccumulationIntegerBits = 12;

struct OpData {
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
  int diff_min = 0;
  // Rows longer than this use the table kernel (see the header comment).
  int max_reference_depth = 0;
  float exp_table[256] = {};  // exp(-input_scale * beta * d) at [255 - d], d in [0, 255]
  // The reference's Q0.31 exp of every 8-bit difference -d, d in [0, 255] (ExpOfDiff,
  // tabulated: an 8-bit row's differences take only these values).
  int32_t exp_q31[256] = {};
  float output_scale = 0.f;
  int32_t output_zero_point = 0;
  // int16: exp on [-10, 0] and 1 / (1 + x) on [0, 1], both to [-1, 1] (TFLite's tables).
  int16_t exp_lut[513] = {};
  int16_t one_over_one_plus_x_lut[513] = {};
};

// int16 -> int16: TFLite's tables and input multiplier. The multiplier comes from the
// float product scale * beta, rescaled in double, exactly as TFLite computes it.
TfLiteStatus PrepareInt16(TfLiteContext* context, const TfLiteSoftmaxParams& params,
                          const TfLiteTensor* input, const TfLiteTensor* output, OpData* data) {
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteInt16);
  if (input->params.zero_point != 0 || output->params.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "SOFTMAX with int16 activations needs zero point 0 on input and output "
                       "(got input zero_point %d, output zero_point %d).",
                       static_cast<int>(input->params.zero_point),
                       static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_NEAR(context, output->params.scale, 1.f / 32768, 0.001f * 1.f / 32768);
  if (NumDimensions(input) > 4) {
    TF_LITE_KERNEL_LOG(context,
                       "Only 1D, 2D, 3D and 4D tensors supported for int16 input with int16 "
                       "output, got %dD.",
                       NumDimensions(input));
    return kTfLiteError;
  }
  const int32_t range = std::numeric_limits<int16_t>::max() - std::numeric_limits<int16_t>::min();
  LUTPopulate<int16_t>(
      10.0 / range, std::numeric_limits<int16_t>::max(), 2.0 / range, 0,
      [](double value) { return std::exp(value); }, data->exp_lut);
  LUTPopulate<int16_t>(
      1.0 / range, std::numeric_limits<int16_t>::min(), 2.0 / range, 0,
      [](double value) { return 1.0 / (1.0 + value); }, data->one_over_one_plus_x_lut);
  const double input_scale_beta_rescale =
      static_cast<double>(input->params.scale * params.beta) / (10.0 / 65535.0);
  QuantizeMultiplier(input_scale_beta_rescale, &data->input_multiplier, &data->input_left_shift);
  return kTfLiteOk;
}

// exp(input - max) in Q0.31, or 0 below diff_min (where it does not count).
inline int32_t ExpOfDiff(int32_t diff, const OpData& d) {
  const int32_t rescaled =
      MultiplyByQuantizedMultiplierGreaterThanOne(diff, d.input_multiplier, d.input_left_shift);
  return fixed_point::ExpOnNegativeValues<kScaledDiffIntegerBits>(rescaled);
}

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const auto* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteType in = input->type;
  if (in != kTfLiteFloat32 && in != kTfLiteUInt8 && in != kTfLiteInt8 && in != kTfLiteInt16) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(in), in);
    return kTfLiteError;
  }
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  // The 8- and 16-bit kernels build tables and multipliers from beta * input scale: a
  // crafted infinite or NaN factor made NaN table entries that the int8 rows converted to
  // int (undefined; the invoke fuzzer's finding).
  if (in != kTfLiteFloat32 && !(std::isfinite(params->beta) && std::isfinite(input->params.scale) &&
                                std::isfinite(params->beta * input->params.scale))) {
    TF_LITE_KERNEL_LOG(context,
                       "SOFTMAX: beta (%g) times the input scale (%g) must be finite for a "
                       "quantized input.",
                       static_cast<double>(params->beta), static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  if (in == kTfLiteInt16) {
    TF_LITE_ENSURE_STATUS(PrepareInt16(context, *params, input, output, data));
    return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
  }
  if (in == kTfLiteInt8 && output->type == kTfLiteInt16) {
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, -32768);
    TF_LITE_ENSURE_NEAR(context, output->params.scale, 1.f / 65536, 0.001f * 1.f / 65536);
  } else {
    TF_LITE_ENSURE_TYPES_EQ(context, output->type, in);
    if (in == kTfLiteInt8) {
      TF_LITE_ENSURE_EQ(context, output->params.zero_point, -128);
      TF_LITE_ENSURE_NEAR(context, output->params.scale, 1.f / 256, 0.001f * 1.f / 256);
    } else if (in == kTfLiteUInt8) {
      TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
      TF_LITE_ENSURE_NEAR(context, output->params.scale, 1.f / 256, 0.001f * 1.f / 256);
    }
  }
  if (in != kTfLiteFloat32) {
    TF_LITE_ENSURE(context, input->params.scale > 0.f && params->beta > 0.f);
    PreprocessSoftmaxScaling(params->beta, input->params.scale, kScaledDiffIntegerBits,
                             &data->input_multiplier, &data->input_left_shift);
    // beta * input_scale must reach 2^-26 (upstream CHECKs this in
    // QuantizeMultiplierGreaterThanOne).
    TF_LITE_ENSURE_MSG(context, data->input_left_shift >= 0,
                       "SOFTMAX: beta * input scale is too small.");
    data->diff_min = -1 * CalculateInputRadius(kScaledDiffIntegerBits, data->input_left_shift);
    // The sum of exps is at most the row length (the row's maximum contributes 1).
    data->max_reference_depth = output->type == kTfLiteInt16 ? (1 << 12) - 1 : 1 << 8;
    const float table_scale = -input->params.scale * params->beta;
    for (int d = 0; d <= 255; ++d) data->exp_table[255 - d] = std::exp(table_scale * d);
    // Differences below diff_min do not count (and would overflow the rescale).
    for (int d = 0; d <= 255; ++d) {
      data->exp_q31[d] = -d >= data->diff_min ? ExpOfDiff(-d, *data) : 0;
    }
    data->output_scale = output->params.scale;
    data->output_zero_point = output->params.zero_point;
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

// One row; false if the row overflows the Q12.19 sum (upstream TFLITE_CHECKs the
// resulting exponent; only rows of more than 4095 elements can break it).
template <typename In, typename Out>
bool SoftmaxQuantizedRow(const In* in, int depth, const OpData& d, Out* out) {
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min();
  constexpr int32_t kOutMax = std::numeric_limits<Out>::max();
  In max_in_row = std::numeric_limits<In>::min();
  for (int c = 0; c < depth; ++c) max_in_row = std::max(max_in_row, in[c]);
  int32_t sum_of_exps = 0;  // Q12.19
  for (int c = 0; c < depth; ++c) {
    const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
    if (diff >= d.diff_min) {
      sum_of_exps = fixed_point::Add(
          sum_of_exps, fixed_point::Pot<-kAccumulationIntegerBits>(d.exp_q31[-diff]));
    }
  }
  int num_bits_over_unit;
  const int32_t shifted_scale =
      fixed_point::GetReciprocal(sum_of_exps, kAccumulationIntegerBits, &num_bits_over_unit);
  const int exponent = num_bits_over_unit + 31 - static_cast<int>(sizeof(Out) * 8);
  if (exponent < 0 || exponent > 31) return false;
  for (int c = 0; c < depth; ++c) {
    const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
    if (diff >= d.diff_min) {
      const int32_t unsat = gemmlowp::RoundingDivideByPOT(
          fixed_point::Mul(shifted_scale, d.exp_q31[-diff]), exponent);
      const int32_t shifted = unsat + kOutMin;
      out[c] = static_cast<Out>(std::max(std::min(shifted, kOutMax), kOutMin));
    } else {
      out[c] = static_cast<Out>(kOutMin);
    }
  }
  return true;
}

// One int16 row (reference_ops::SoftmaxInt16); the exps are kept in `out` meanwhile.
void SoftmaxInt16Row(const int16_t* in, int depth, const OpData& d, int16_t* out) {
  int16_t max_in_row = std::numeric_limits<int16_t>::min();
  for (int c = 0; c < depth; ++c) max_in_row = std::max(max_in_row, in[c]);
  int32_t sum_of_exps = 0;  // Q16.15
  for (int c = 0; c < depth; ++c) {
    const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
    // [-65535, 0] is [-10, 0]; recentered to [-32768, 32767] for the table.
    const int32_t scaled = MultiplyByQuantizedMultiplier(diff, d.input_multiplier,
                                                         d.input_left_shift);
    const int32_t sym = std::min(std::max(scaled + 32767, int32_t{-32768}), int32_t{32767});
    out[c] = LUTLookup(static_cast<int16_t>(sym), d.exp_lut);
    sum_of_exps += out[c];
  }
  // 1 / sum: normalize the sum to [1, 2) in Q1.14 (x = sum - 1 in [0, 1), recentered),
  // then the 1 / (1 + x) table.
  const int headroom_plus_one = CountLeadingZeros(static_cast<uint32_t>(sum_of_exps));
  const int32_t shifted_sum = static_cast<int32_t>(
      ((static_cast<int64_t>(sum_of_exps) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
  const int32_t sym_shifted_sum = shifted_sum + (-((1 << 15) + (1 << 16)));
  const int16_t reciprocal_q015 = LUTLookup(
      static_cast<int16_t>(std::min(std::max(sym_shifted_sum, int32_t{-32768}), int32_t{32767})),
      d.one_over_one_plus_x_lut);
  const int right_shift = 31 - headroom_plus_one;
  const int64_t round = int64_t{1} << (right_shift - 1);
  for (int c = 0; c < depth; ++c) {
    const int32_t result = static_cast<int32_t>(
        (static_cast<int64_t>(out[c]) * reciprocal_q015 + round) >> right_shift);
    out[c] = static_cast<int16_t>(std::min(std::max(result, int32_t{0}), int32_t{32767}));
  }
}

// One row as TFLite's optimized kernel (optimized_ops::Softmax with its float table).
template <typename In, typename Out>
void SoftmaxTableRow(const In* in, int depth, const OpData& d, Out* out) {
  int32_t max_in_row = std::numeric_limits<In>::min();
  for (int c = 0; c < depth; ++c) max_in_row = std::max(max_in_row, static_cast<int32_t>(in[c]));
  // Index 255 - max + x: x - max is in [-255, 0].
  const float* table = d.exp_table + 255 - max_in_row;
  float sum = 0.f;
  for (int c = 0; c < depth; ++c) sum += table[in[c]];
  const float inv_sum = 1.0f / (sum * d.output_scale);
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min();
  constexpr int32_t kOutMax = std::numeric_limits<Out>::max();
  for (int c = 0; c < depth; ++c) {
    const float rescaled = table[in[c]] * inv_sum;
    // TFLite's x86 build truncates rescaled + 0.5 for uint8 and rounds half away from
    // zero otherwise (QuantizeSoftmaxOutput).
    const int32_t q = std::is_same<Out, uint8_t>::value
                          ? static_cast<int32_t>(rescaled + 0.5f)
                          : static_cast<int32_t>(std::round(rescaled)) + d.output_zero_point;
    out[c] = static_cast<Out>(std::max(std::min(q, kOutMax), kOutMin));
  }
}

template <typename In, typename Out>
bool SoftmaxQuantized(pthreadpool* pool, const In* in, int64_t outer, int depth, const OpData& d,
                      Out* out) {
  std::atomic<bool> ok{true};
  const double work = static_cast<double>(outer) * depth * 32;
  if (depth > d.max_reference_depth) {
    parallel::ParallelFor(pool, static_cast<size_t>(outer), work, [&](size_t i) {
      SoftmaxTableRow(in + i * depth, depth, d, out + i * depth);
    });
    return true;
  }
  parallel::ParallelFor(pool, static_cast<size_t>(outer), work, [&](size_t i) {
    if (!SoftmaxQuantizedRow(in + i * depth, depth, d, out + i * depth)) ok = false;
  });
  return ok;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int depth = input->dims->data[input->dims->size - 1];
  if (NumElements(input) == 0 || depth == 0) return kTfLiteOk;
  const int64_t outer = NumElements(input) / depth;
  pthreadpool* pool = parallel::ThreadPool(context);
  bool ok = true;
  switch (input->type) {
    case kTfLiteFloat32:
      softmax_f32::Softmax(input->data.f, outer, depth, params->beta, output->data.f, pool);
      break;
    case kTfLiteUInt8:
      ok = SoftmaxQuantized(pool, input->data.uint8, outer, depth, data, output->data.uint8);
      break;
    case kTfLiteInt8:
      if (output->type == kTfLiteInt16) {
        ok = SoftmaxQuantized(pool, input->data.int8, outer, depth, data, output->data.i16);
      } else {
        ok = SoftmaxQuantized(pool, input->data.int8, outer, depth, data, output->data.int8);
      }
      break;
    case kTfLiteInt16: {
      const int16_t* in = input->data.i16;
      int16_t* out = output->data.i16;
      parallel::ParallelFor(pool, static_cast<size_t>(outer),
                            static_cast<double>(outer) * depth * 8, [&](size_t i) {
                              SoftmaxInt16Row(in + i * depth, depth, data, out + i * depth);
                            });
      break;
    }
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
  if (!ok) {
    TF_LITE_KERNEL_LOG(context, "SOFTMAX: quantized rows of %d elements overflow the sum.", depth);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace softmax

TfLiteRegistration* Register_SOFTMAX() {
  static TfLiteRegistration r = {softmax::Init, softmax::Free, softmax::Prepare, softmax::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
