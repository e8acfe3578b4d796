// MEAN over any set of axes (int32 axis tensor, negative counts from the end,
// repeats allowed), with keep_dims. float32 as TFLite's builtin kernel (MeanFloat: its bits,
// which dynamic-range models quantize), int32/int64 (summed
// in int64, truncating division), and uint8/int8/int16 as TFLite's reference
// QuantizedMeanOrSum: the int32 sum minus zero_point * count is requantized with
// QuantizeMultiplier(input_scale / output_scale) folded with 1/count, bit for bit.
// No axes copies the input unchanged, as upstream's ReduceIsCopy.
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/internal/mean_float.h"
#include "kernels/internal/mean_quantized.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace mean {
namespace {

constexpr int kMaxDims = mean_quantized::kMaxDims;

struct OpData {
  int32_t multiplier = 0;
  int shift = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

bool IsQuantized(TfLiteType t) {
  return t == kTfLiteUInt8 || t == kTfLiteInt8 || t == kTfLiteInt16;
}

// Marks reduced dimensions; fails on an axis outside [-rank, rank).
TfLiteStatus ResolveAxes(TfLiteContext* context, const TfLiteTensor* input,
                         const TfLiteTensor* axis, bool* reduced) {
  const int rank = NumDimensions(input);
  for (int d = 0; d < rank; ++d) reduced[d] = false;
  for (int64_t i = 0; i < NumElements(axis); ++i) {
    const int a = axis->data.i32[i];
    if (a < -rank || a >= rank) {
      TF_LITE_KERNEL_LOG(context, "MEAN: axis %d out of range for a %d-D input.", a, rank);
      return kTfLiteError;
    }
    reduced[a < 0 ? a + rank : a] = true;
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteReducerParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int rank = NumDimensions(input);
  bool reduced[kMaxDims];
  TF_LITE_ENSURE_OK(context, ResolveAxes(context, input, axis, reduced));
  std::vector<int> dims;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      dims.push_back(input->dims->data[d]);
    } else if (params->keep_dims) {
      dims.push_back(1);
    }
  }
  TfLiteIntArray* out = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  std::copy(dims.begin(), dims.end(), out->data);
  return context->ResizeTensor(context, output, out);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE(context, node->builtin_data != nullptr);
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  const TfLiteTensor* axis;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &axis));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteType t = input->type;
  if (t != kTfLiteFloat32 && t != kTfLiteInt32 && t != kTfLiteInt64 && !IsQuantized(t)) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(t), t);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, t);
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE_MSG(context, NumDimensions(input) <= kMaxDims,
                     "MEAN supports inputs of at most 8 dimensions.");
  if (IsQuantized(t)) {
    TF_LITE_ENSURE(context, input->params.scale > 0.f && output->params.scale > 0.f);
    const double real_multiplier =
        static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale);
    QuantizeMultiplier(real_multiplier, &data->multiplier, &data->shift);
    TF_LITE_ENSURE_MSG(context, data->shift >= -31 && data->shift <= 30,
                       "MEAN: input/output scale ratio out of range.");
  }
  if (t == kTfLiteInt16) {
    TF_LITE_ENSURE_EQ(context, input->params.zero_point, 0);
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  if (!IsConstantOrPersistentTensor(axis)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, node);
}

// Sums the input into one accumulator per output element (mean_quantized.h's walk).
template <typename T, typename Acc>
int64_t SumInto(const TfLiteTensor* input, const bool* reduced, std::vector<Acc>* sums) {
  return mean_quantized::SumInto<T, Acc>(reinterpret_cast<const T*>(input->data.raw), input->dims->data,
                                         NumDimensions(input), reduced, sums);
}

template <typename T, typename Acc>
void MeanPlain(const TfLiteTensor* input, const bool* reduced, TfLiteTensor* output) {
  std::vector<Acc> sums;
  const int64_t count = SumInto<T, Acc>(input, reduced, &sums);
  T* out = reinterpret_cast<T*>(output->data.raw);
  for (size_t i = 0; i < sums.size(); ++i) {
    if (count == 0) {
      out[i] = std::numeric_limits<T>::quiet_NaN();  // 0 for integers
    } else {
      out[i] = static_cast<T>(sums[i] / static_cast<Acc>(count));
    }
  }
}

// Float MEAN as TFLite's builtin kernel (kernels/internal/mean_float.h).
void MeanFloat(const TfLiteTensor* input, const bool* reduced, TfLiteTensor* output) {
  const int rank = NumDimensions(input);
  const std::vector<int> dims(input->dims->data, input->dims->data + rank);
  mean_float::MeanF32(dims, std::vector<bool>(reduced, reduced + rank))
      .Run(input->data.f, output->data.f);
}

template <typename T>
void MeanQuantized(const TfLiteTensor* input, const bool* reduced, const OpData& data,
                   TfLiteTensor* output) {
  mean_quantized::Params p;
  p.multiplier = data.multiplier;
  p.shift = data.shift;
  p.input_zero_point = input->params.zero_point;
  p.output_zero_point = output->params.zero_point;
  std::vector<int64_t> sums;
  mean_quantized::Mean<T>(reinterpret_cast<const T*>(input->data.raw), input->dims->data,
                          NumDimensions(input), reduced, p, reinterpret_cast<T*>(output->data.raw), &sums);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, node));
  if (NumElements(axis) == 0) {
    TF_LITE_ENSURE_EQ(context, input->bytes, output->bytes);
    if (input->bytes > 0) std::memcpy(output->data.raw, input->data.raw, input->bytes);
    return kTfLiteOk;
  }
  bool reduced[kMaxDims];
  TF_LITE_ENSURE_OK(context, ResolveAxes(context, input, axis, reduced));
  switch (input->type) {
    case kTfLiteFloat32:
      MeanFloat(input, reduced, output);
      break;
    case kTfLiteInt32:
      MeanPlain<int32_t, int64_t>(input, reduced, output);
      break;
    case kTfLiteInt64:
      MeanPlain<int64_t, int64_t>(input, reduced, output);
      break;
    case kTfLiteUInt8:
      MeanQuantized<uint8_t>(input, reduced, data, output);
      break;
    case kTfLiteInt8:
      MeanQuantized<int8_t>(input, reduced, data, output);
      break;
    case kTfLiteInt16:
      MeanQuantized<int16_t>(input, reduced, data, output);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace mean

TfLiteRegistration* Register_MEAN() {
  static TfLiteRegistration r = {mean::Init, mean::Free, mean::Prepare, mean::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
