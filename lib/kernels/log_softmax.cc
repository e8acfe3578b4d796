// LOG_SOFTMAX over the last dimension.
//   float32 (v1): out = x - max - log(sum(exp(x - max))).
//   uint8 (v1) and int8 (v2): bit-exact with TFLite's reference kernels
//   (reference_ops::LogSoftmax for uint8, reference_integer_ops::LogSoftmax for int8):
//   input differences rescaled to Q5.26, exps summed in Q12.19, log of the sum in
//   Q5.26, output in Q4.27 rounded to the fixed output quantization TFLite requires
//   (scale 16/256, zero point 255 for uint8, 127 for int8). TFLite's default
//   (optimized) kernel uses a float lookup table instead and can differ by a step.
// Rows are split over the interpreter's thread pool.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/internal/parallel.h"
#include "kernels/internal/softmax_fixedpoint.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace log_softmax {
namespace {

// Integer bits of the fixed-point stages; they must agree with Prepare.
constexpr int kScaledDiffIntegerBits = 5;
constexpr int kAccumulationIntegerBits = 12;
constexpr int kOutputIntegerBits = 4;

struct OpData {
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
  int32_t reverse_scaling_divisor = 0;
  int reverse_scaling_right_shift = 0;
  int diff_min = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteUInt8 &&
      input->type != kTfLiteInt8) {
    TF_LITE_KERNEL_LOG(context, "Only float32, uint8 and int8 are supported currently, got %s.",
                       TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, output->type);
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  if (input->type != kTfLiteFloat32) {
    // TFLite fixes the output quantization: [-16, 0) in steps of 1/16.
    const int want_zero_point = input->type == kTfLiteUInt8 ? 255 : 127;
    if (output->params.scale != 16.0 / 256) {
      TF_LITE_KERNEL_LOG(context, "output->params.scale != 16.0 / 256 (%g != %g)",
                         static_cast<double>(output->params.scale), 16.0 / 256);
      return kTfLiteError;
    }
    if (output->params.zero_point != want_zero_point) {
      TF_LITE_KERNEL_LOG(context, "output->params.zero_point != %d (%d != %d)", want_zero_point,
                         output->params.zero_point, want_zero_point);
      return kTfLiteError;
    }
    if (!(input->params.scale > 0)) {
      TF_LITE_KERNEL_LOG(context, "failed to prepare LOG_SOFTMAX: input scale must be > 0, got %g",
                         static_cast<double>(input->params.scale));
      return kTfLiteError;
    }
    auto* data = static_cast<OpData*>(node->user_data);
    int reverse_scaling_left_shift;
    PreprocessLogSoftmaxScalingExp(/*beta=*/1.0, static_cast<double>(input->params.scale),
                                   kScaledDiffIntegerBits, &data->input_multiplier,
                                   &data->input_left_shift, &data->reverse_scaling_divisor,
                                   &reverse_scaling_left_shift);
    data->reverse_scaling_right_shift = -reverse_scaling_left_shift;
    data->diff_min = -CalculateInputRadius(kScaledDiffIntegerBits, data->input_left_shift);
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

// One row of the quantized reference (T = uint8_t or int8_t; zero point 255 / 127,
// the type's maximum).
template <typename T>
void QuantizedRow(const OpData& d, const T* x, T* y, int depth) {
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  const int32_t max_in_row = std::max<int32_t>(kMin, *std::max_element(x, x + depth));
  int32_t sum_of_exps = 0;  // Q12.19
  for (int c = 0; c < depth; ++c) {
    const int32_t diff = static_cast<int32_t>(x[c]) - max_in_row;
    if (diff >= d.diff_min) {
      const int32_t diff_q5 = MultiplyByQuantizedMultiplier(diff, d.input_multiplier,
                                                            d.input_left_shift);
      sum_of_exps = fixed_point::Add(
          sum_of_exps, fixed_point::Pot<-kAccumulationIntegerBits>(
                           fixed_point::ExpOnNegativeValues<kScaledDiffIntegerBits>(diff_q5)));
    }
  }
  const int32_t log_sum_q5 =
      fixed_point::LogXForXGreaterThanOrEqualTo1<kScaledDiffIntegerBits,
                                                 kAccumulationIntegerBits>(sum_of_exps);
  // The smallest Q5.26 value plus the log-sum, back in input steps: differences at or
  // below it would saturate to the output minimum anyway.
  const int32_t shifted_log_sum_q5 = WrappingAdd(log_sum_q5, std::numeric_limits<int32_t>::min());
  const int32_t adjusted_diff_min =
      std::max(d.diff_min - 1, MultiplyByQuantizedMultiplier(shifted_log_sum_q5,
                                                             d.reverse_scaling_divisor,
                                                             -d.reverse_scaling_right_shift));
  for (int c = 0; c < depth; ++c) {
    const int32_t diff = static_cast<int32_t>(x[c]) - max_in_row;
    if (diff > adjusted_diff_min) {
      const int32_t diff_q5 = MultiplyByQuantizedMultiplier(diff, d.input_multiplier,
                                                            d.input_left_shift);
      const int32_t out =
          gemmlowp::RoundingDivideByPOT(fixed_point::Sub(diff_q5, log_sum_q5),
                                        31 - kScaledDiffIntegerBits - kOutputIntegerBits) +
          kMax;
      y[c] = static_cast<T>(std::max(kMin, std::min(kMax, out)));
    } else {
      y[c] = static_cast<T>(kMin);
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int depth = input->dims->data[NumDimensions(input) - 1];
  if (depth == 0 || NumElements(input) == 0) return kTfLiteOk;
  const size_t rows = static_cast<size_t>(NumElements(input) / depth);
  const double cost = static_cast<double>(rows) * depth * 8;
  const OpData& d = *static_cast<const OpData*>(node->user_data);
  switch (input->type) {
    case kTfLiteFloat32: {
      const float* in = input->data.f;
      float* out = output->data.f;
      parallel::ParallelFor(parallel::ThreadPool(context), rows, cost, [&](size_t r) {
        const float* x = in + r * depth;
        float* y = out + r * depth;
        const float max = *std::max_element(x, x + depth);
        float sum = 0;
        for (int c = 0; c < depth; ++c) sum += std::exp(x[c] - max);
        const float log_sum = std::log(sum);
        for (int c = 0; c < depth; ++c) y[c] = x[c] - max - log_sum;
      });
      return kTfLiteOk;
    }
    case kTfLiteUInt8: {
      const uint8_t* in = input->data.uint8;
      uint8_t* out = output->data.uint8;
      parallel::ParallelFor(parallel::ThreadPool(context), rows, cost, [&](size_t r) {
        QuantizedRow<uint8_t>(d, in + r * depth, out + r * depth, depth);
      });
      return kTfLiteOk;
    }
    case kTfLiteInt8: {
      const int8_t* in = input->data.int8;
      int8_t* out = output->data.int8;
      parallel::ParallelFor(parallel::ThreadPool(context), rows, cost, [&](size_t r) {
        QuantizedRow<int8_t>(d, in + r * depth, out + r * depth, depth);
      });
      return kTfLiteOk;
    }
    default:
      TF_LITE_KERNEL_LOG(context, "Only float32, uint8 and int8 are supported currently, got %s.",
                         TfLiteTypeGetName(input->type));
      return kTfLiteError;
  }
}

}  // namespace
}  // namespace log_softmax

TfLiteRegistration* Register_LOG_SOFTMAX() {
  static TfLiteRegistration r = {log_softmax::Init, log_softmax::Free, log_softmax::Prepare,
                                 log_softmax::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
