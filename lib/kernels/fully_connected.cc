// FULLY_CONNECTED: float32 and uint8 (uint8 or int16 output) (v1), int8 with per-tensor or
// per-channel weights (v4), keep_num_dims (v5), no bias (v6), int16 activations with int8
// weights, per-tensor or per-channel (16x8, v7; zero points 0). out[b][u] = sum_i in[b][i] *
// w[u][i] + bias[u] on the packed GEMM of kernels/internal/gemm.h; quantized results are
// bit-exact with TFLite's reference FullyConnected / FullyConnectedPerChannel, which (unlike
// its convolutions) requantize with one rounding: acc * multiplier / 2^(31 - shift), halves
// up. int16 activations sum exactly in int64 whatever the bias type (int64, int32 with
// quantized_bias_type = v11, or none).
//
// Hybrid (float input and output, int8 weights with a per-tensor or per-channel scale;
// v3, v9 with asymmetric_quantize_inputs, v12 per-channel): as TFLite's hybrid kernel, each batch row is
// quantized on the fly (SymmetricQuantizeFloats, or AsymmetricQuantizeFloats with a per-row
// offset), summed exactly in int32 against the weights (minus row_sum * offset), and
// rescaled as bias + sum * (row_scale * filter_scale) in float, then clamped: bit-exact
// with TFLite's reference kernels on testdata/kernels (tflite_goldens_test).
//
// int8 activations take int4 weights too (v10: unpacked, then the int8 path).
//
// Not implemented: shuffled 4x16 int8 weights (v2), sparse weights (v8).
#include <algorithm>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace fully_connected {
namespace {

struct OpData {
  int batches = 0;
  int input_size = 0;
  int units = 0;
  conv_util::QuantParams quant;
  int32_t weights_zero_point = 0;  // subtracted while packing
  conv_util::PackedWeights weights;
  std::vector<int16_t> input_q;  // input + input_offset
  std::vector<int64_t> bias64;   // int16 activations: an int32 bias widened
  // Hybrid: per-unit filter scales, quantized input rows, per-row scale and offset.
  bool hybrid = false;
  std::vector<float> filter_scale;
  hybrid::QuantizedRows rows;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// TFLite's multipliers: per-channel from double products, per-tensor via
// GetQuantizedConvolutionMultipler (float product, bias scale check).
TfLiteStatus PrepareQuant(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* filter, const TfLiteTensor* bias,
                          TfLiteTensor* output, TfLiteFusedActivation activation, OpData* data) {
  const TfLiteAffineQuantization* fq = conv_util::Affine(filter);
  TF_LITE_ENSURE(context, fq != nullptr && fq->scale != nullptr && fq->scale->size > 0);
  TF_LITE_ENSURE(context, input->params.scale > 0 && output->params.scale > 0);
  conv_util::QuantParams& q = data->quant;
  const int units = data->units;
  if (fq->scale->size > 1) {
    TF_LITE_ENSURE(context, input->type == kTfLiteInt8 || input->type == kTfLiteInt16);
    TF_LITE_ENSURE_EQ(context, fq->quantized_dimension, 0);
    TF_LITE_ENSURE_EQ(context, fq->scale->size, units);
    q.multiplier.resize(units);
    q.shift.resize(units);
    for (int u = 0; u < units; ++u) {
      const double scale = static_cast<double>(input->params.scale) *
                           static_cast<double>(fq->scale->data[u]) /
                           static_cast<double>(output->params.scale);
      int shift = 0;
      QuantizeMultiplier(scale, &q.multiplier[u], &shift);
      q.shift[u] = shift;
    }
    data->weights_zero_point = 0;  // the per-channel reference ignores it
  } else {
    double real_multiplier = 0.0;
    TF_LITE_ENSURE_STATUS(
        GetQuantizedConvolutionMultipler(context, input, filter, bias, output, &real_multiplier));
    int32_t multiplier = 0;
    int shift = 0;
    QuantizeMultiplier(real_multiplier, &multiplier, &shift);
    q.multiplier.assign(units, multiplier);
    q.shift.assign(units, shift);
    data->weights_zero_point = filter->params.zero_point;
  }
  q.input_offset = -input->params.zero_point;
  q.output_offset = output->params.zero_point;
  return CalculateActivationRangeQuantized(context, activation, output, &q.act_min, &q.act_max);
}

TfLiteStatus CheckTypes(TfLiteContext* context, const TfLiteTensor* input,
                        const TfLiteTensor* filter, const TfLiteTensor* bias,
                        const TfLiteTensor* output, int units) {
  switch (input->type) {
    case kTfLiteFloat32:
      if (filter->type != kTfLiteFloat32 && filter->type != kTfLiteInt8) {
        TF_LITE_KERNEL_LOG(context,
                           "Hybrid FULLY_CONNECTED (float input, %s weights) not supported.",
                           TfLiteTypeGetName(filter->type));
        return kTfLiteError;
      }
      TF_LITE_ENSURE_STATUS(conv_util::CheckFloatBias(context, bias, units));
      break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      // int8 activations also take int4 weights (v10; unpacked when packed).
      if (!(input->type == kTfLiteInt8 && filter->type == kTfLiteInt4)) {
        TF_LITE_ENSURE_TYPES_EQ(context, filter->type, input->type);
      }
      TF_LITE_ENSURE_STATUS(conv_util::CheckQuantBias(context, bias, units));
      break;
    case kTfLiteInt16:
      TF_LITE_ENSURE_STATUS(conv_util::CheckInt16Weights(context, "FULLY_CONNECTED", filter));
      TF_LITE_ENSURE_STATUS(conv_util::CheckInt16Bias(context, "FULLY_CONNECTED", bias, units,
                                                      /*allow_int32=*/true));
      TF_LITE_ENSURE_STATUS(conv_util::CheckInt16ZeroPoints(context, "FULLY_CONNECTED", input,
                                                            output));
      break;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
  if (input->type == kTfLiteUInt8 && output->type == kTfLiteInt16) {
    // uint8 x uint8 -> int16 (reference_ops::FullyConnected's int16 output).
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
    return kTfLiteOk;
  }
  if (output->type != input->type) return conv_util::UnsupportedType(context, output->type);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
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

  if (params->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) {
    TF_LITE_KERNEL_LOG(context, "Shuffled FULLY_CONNECTED weights not supported.");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(conv_util::CheckActivation(context, params->activation));
  TF_LITE_ENSURE_EQ(context, NumDimensions(filter), 2);
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  if (filter->sparsity != nullptr) {
    TF_LITE_KERNEL_LOG(context, "Sparse FULLY_CONNECTED weights not supported.");
    return kTfLiteError;
  }
  data->units = SizeOfDimension(filter, 0);
  data->input_size = SizeOfDimension(filter, 1);
  TF_LITE_ENSURE(context, data->input_size > 0);
  const int64_t total = NumElements(input);
  TF_LITE_ENSURE_EQ(context, total % data->input_size, 0);
  data->batches = static_cast<int>(total / data->input_size);
  TF_LITE_ENSURE_STATUS(CheckTypes(context, input, filter, bias, output, data->units));
  data->hybrid = input->type == kTfLiteFloat32 && filter->type == kTfLiteInt8;
  if (data->hybrid) {
    // The filter scale: one, or one per unit (quantized dimension 0).
    const TfLiteAffineQuantization* fq = conv_util::Affine(filter);
    if (fq == nullptr || fq->scale == nullptr ||
        (fq->scale->size != 1 && fq->scale->size != data->units) ||
        (fq->scale->size > 1 && fq->quantized_dimension != 0)) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare hybrid FULLY_CONNECTED: int8 weights need one scale "
                         "or one per unit on dimension 0 (expected 1 or %d, got %d).",
                         data->units, fq != nullptr && fq->scale != nullptr ? fq->scale->size : 0);
      return kTfLiteError;
    }
    data->filter_scale.resize(data->units);
    for (int u = 0; u < data->units; ++u) {
      data->filter_scale[u] = fq->scale->data[fq->scale->size == 1 ? 0 : u];
    }
  }
  if (input->type == kTfLiteInt16) {
    TF_LITE_ENSURE_STATUS(conv_util::CheckQuantizedBiasType(context, "FULLY_CONNECTED",
                                                            params->quantized_bias_type, bias));
  }
  if (input->type != kTfLiteFloat32) {
    TF_LITE_ENSURE_STATUS(
        PrepareQuant(context, input, filter, bias, output, params->activation, data));
    // int16 input is the GEMM's A as it is; 8-bit input gets its offset folded in.
    if (input->type == kTfLiteInt16) {
      data->input_q.clear();
    } else {
      data->input_q.resize(static_cast<size_t>(total));
    }
  } else {
    data->input_q.clear();
  }
  data->weights.Invalidate();

  TfLiteIntArray* out_shape;
  if (params->keep_num_dims) {
    TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, NumDimensions(input) - 1), data->input_size);
    out_shape = TfLiteIntArrayCopy(input->dims);
    out_shape->data[out_shape->size - 1] = data->units;
  } else {
    out_shape = TfLiteIntArrayCreate(2);
    out_shape->data[0] = data->batches;
    out_shape->data[1] = data->units;
  }
  return context->ResizeTensor(context, output, out_shape);
}

template <typename T, typename OutT = T>
void EvalQuantized(OpData* data, const TfLiteTensor* input, const TfLiteTensor* filter,
                   const TfLiteTensor* bias, TfLiteTensor* output, pthreadpool* pool) {
  data->weights.Pack(filter, data->units, data->input_size, data->weights_zero_point);
  const T* in = GetTensorData<T>(input);
  const int32_t offset = data->quant.input_offset;
  for (size_t i = 0; i < data->input_q.size(); ++i) {
    data->input_q[i] = static_cast<int16_t>(in[i] + offset);
  }
  // TFLite's reference FullyConnected (uint8, int8, per-channel) requantizes with one
  // rounding: on testdata/kernels the two-step MultiplyByQuantizedMultiplier differed on 1
  // to 4 of 2048 outputs, the single rounding on none.
  gemm::QuantizedOutputStage stage = data->quant.Stage(bias != nullptr ? bias->data.i32 : nullptr);
  stage.single_rounding = true;
  gemm::QuantizedGemm(data->batches, data->units, data->input_size, data->input_q.data(),
                      data->input_size, data->weights.q.data(), GetTensorData<OutT>(output),
                      data->units, stage, pool);
}

// Hybrid: quantize each batch row, int32 dot products, float rescale, clamp.
void EvalHybrid(OpData* data, const TfLiteFullyConnectedParams& params, const TfLiteTensor* input,
                const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
                pthreadpool* pool) {
  const int batches = data->batches, units = data->units, k = data->input_size;
  const bool asymmetric = params.asymmetric_quantize_inputs;
  hybrid::QuantizedRows& rows = data->rows;
  rows.Quantize(input->data.f, batches, k, asymmetric);
  float act_min, act_max;
  CalculateActivationRange(params.activation, &act_min, &act_max);
  const int8_t* w = filter->data.int8;
  const float* bias_data = bias != nullptr ? bias->data.f : nullptr;
  float* out = output->data.f;
  parallel::ParallelFor(pool, static_cast<size_t>(units),
                        static_cast<double>(batches) * units * k, [&](size_t u) {
    const int8_t* wr = w + u * static_cast<size_t>(k);
    int32_t row_sum = 0;
    if (asymmetric) {
      for (int i = 0; i < k; ++i) row_sum += wr[i];
    }
    for (int b = 0; b < batches; ++b) {
      const int8_t* q = rows.row(b, k);
      int32_t dot = 0;
      for (int i = 0; i < k; ++i) dot += static_cast<int32_t>(wr[i]) * q[i];
      dot -= row_sum * rows.offset[b];
      const float scale = rows.scale[b] * data->filter_scale[u];
      float v = bias_data != nullptr ? bias_data[u] : 0.0f;
      v += static_cast<float>(dot) * scale;
      out[static_cast<size_t>(b) * units + u] = std::min(std::max(v, act_min), act_max);
    }
  });
}

// int16 activations: the input is A as it is (zero point 0); the packed weights hold
// w - zero_point (per-tensor; TFLite's int16 FullyConnected applies it, the per-channel one
// ignores it). Whatever the bias type, TFLite's reference sums exactly and requantizes with
// one rounding (full 31-bit multiplier, halves up): 512 outputs per bias type on
// testdata/kernels match it, while the 64-bit MultiplyByQuantizedMultiplier differs on
// ~17% and the 32-bit one on a few.
void EvalInt16(OpData* data, const TfLiteTensor* input, const TfLiteTensor* filter,
               const TfLiteTensor* bias, TfLiteTensor* output, pthreadpool* pool) {
  data->weights.Pack(filter, data->units, data->input_size, data->weights_zero_point);
  const int64_t* bias64 = nullptr;
  if (bias != nullptr && bias->type == kTfLiteInt32) {
    data->bias64.assign(bias->data.i32, bias->data.i32 + data->units);
    bias64 = data->bias64.data();
  } else if (bias != nullptr) {
    bias64 = bias->data.i64;
  }
  gemm::Quantized16x8OutputStage stage = data->quant.Stage16x8(bias64);
  stage.single_rounding = true;
  gemm::QuantizedGemm16x8(data->batches, data->units, data->input_size, input->data.i16,
                          data->input_size, data->weights.q.data(), output->data.i16, data->units,
                          stage, pool);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  pthreadpool* pool = parallel::ThreadPool(context);
  switch (input->type) {
    case kTfLiteFloat32:
      if (data->hybrid) {
        EvalHybrid(data, *params, input, filter, bias, output, pool);
        return kTfLiteOk;
      }
      data->weights.Pack(filter, data->units, data->input_size, 0);
      gemm::FloatGemm(
          data->batches, data->units, data->input_size, input->data.f, data->input_size,
          data->weights.f.data(), output->data.f, data->units,
          conv_util::FloatStage(params->activation, bias != nullptr ? bias->data.f : nullptr),
          pool);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantized<int8_t>(data, input, filter, bias, output, pool);
      return kTfLiteOk;
    case kTfLiteUInt8:
      if (output->type == kTfLiteInt16) {
        EvalQuantized<uint8_t, int16_t>(data, input, filter, bias, output, pool);
      } else {
        EvalQuantized<uint8_t>(data, input, filter, bias, output, pool);
      }
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalInt16(data, input, filter, bias, output, pool);
      return kTfLiteOk;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
}

}  // namespace
}  // namespace fully_connected

TfLiteRegistration* Register_FULLY_CONNECTED() {
  static TfLiteRegistration r = {fully_connected::Init, fully_connected::Free,
                                 fully_connected::Prepare, fully_connected::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
