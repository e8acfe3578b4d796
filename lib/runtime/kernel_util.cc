// Kernel helpers; see tensorflow/lite/kernels/kernel_util.h. Quantization
// parameter setup repeats upstream TFLite's arithmetic exactly (including
// which products are formed in float and which in double), because the
// resulting multipliers decide the bits of quantized outputs.
#include "tensorflow/lite/kernels/kernel_util.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <string>

#include "tensorflow/lite/kernels/internal/cppmath.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"

#if defined(__APPLE__)
#include "TargetConditionals.h"
#endif

namespace tflite {
namespace {

using IntArrayPtr = std::unique_ptr<TfLiteIntArray, void (*)(TfLiteIntArray*)>;

IntArrayPtr MakeIntArray(int size) {
  return IntArrayPtr(TfLiteIntArrayCreate(size), TfLiteIntArrayFree);
}

// The tensor at a graph-wide index: from the tensors array when the runtime
// exposes one, else through GetTensor (TFLite Micro style contexts).
TfLiteTensor* GetTensorAtIndex(const TfLiteContext* context, int tensor_index) {
  if (context->tensors != nullptr) {
    if (static_cast<size_t>(tensor_index) >= context->tensors_size) {
      return nullptr;
    }
    return &context->tensors[tensor_index];
  }
  if (context->GetTensor == nullptr) return nullptr;
  return context->GetTensor(context, tensor_index);
}

// Graph-wide index of position `index` in `indices`, or -1 if the position
// is out of range or holds kTfLiteOptionalTensor.
int TensorIndexAt(const TfLiteIntArray* indices, int index) {
  if (indices == nullptr || index < 0 || index >= indices->size) return -1;
  const int tensor_index = indices->data[index];
  return tensor_index == kTfLiteOptionalTensor || tensor_index < 0
             ? -1
             : tensor_index;
}

TfLiteTensor* TensorAt(const TfLiteContext* context,
                       const TfLiteIntArray* indices, int index) {
  const int tensor_index = TensorIndexAt(indices, index);
  return tensor_index < 0 ? nullptr : GetTensorAtIndex(context, tensor_index);
}

// Like TensorAt, but says why there is no tensor.
TfLiteStatus TensorAtSafe(const TfLiteContext* context,
                          const TfLiteIntArray* indices, int index,
                          TfLiteTensor** tensor) {
  auto* mutable_context = const_cast<TfLiteContext*>(context);
  const int size = indices == nullptr ? 0 : indices->size;
  if (index < 0 || index >= size) {
    TF_LITE_KERNEL_LOG(mutable_context,
                       "Invalid tensor index %d (not in [0, %d))\n", index,
                       size);
    return kTfLiteError;
  }
  if (indices->data[index] == kTfLiteOptionalTensor) {
    TF_LITE_KERNEL_LOG(mutable_context,
                       "Tensor at index %d was optional but was expected\n",
                       index);
    return kTfLiteError;
  }
  TfLiteTensor* found = GetTensorAtIndex(context, indices->data[index]);
  if (found == nullptr) {
    TF_LITE_KERNEL_LOG(mutable_context,
                       "Tensor %d (at index %d) does not exist\n",
                       indices->data[index], index);
    return kTfLiteError;
  }
  *tensor = found;
  return kTfLiteOk;
}

}  // namespace

const TfLiteTensor* GetInput(const TfLiteContext* context,
                             const TfLiteNode* node, int index) {
  return TensorAt(context, node->inputs, index);
}

TfLiteStatus GetInputSafe(const TfLiteContext* context, const TfLiteNode* node,
                          int index, const TfLiteTensor** tensor) {
  TfLiteTensor* found = nullptr;
  TF_LITE_ENSURE_STATUS(TensorAtSafe(context, node->inputs, index, &found));
  *tensor = found;
  return kTfLiteOk;
}

TfLiteTensor* GetVariableInput(TfLiteContext* context, const TfLiteNode* node,
                               int index) {
  TfLiteTensor* tensor = TensorAt(context, node->inputs, index);
  return (tensor != nullptr && tensor->is_variable) ? tensor : nullptr;
}

TfLiteTensor* GetOutput(TfLiteContext* context, const TfLiteNode* node,
                        int index) {
  return TensorAt(context, node->outputs, index);
}

TfLiteStatus GetOutputSafe(const TfLiteContext* context, const TfLiteNode* node,
                           int index, TfLiteTensor** tensor) {
  return TensorAtSafe(context, node->outputs, index, tensor);
}

const TfLiteTensor* GetOptionalInputTensor(const TfLiteContext* context,
                                           const TfLiteNode* node, int index) {
  return GetInput(context, node, index);
}

TfLiteTensor* GetTemporary(TfLiteContext* context, const TfLiteNode* node,
                           int index) {
  return TensorAt(context, node->temporaries, index);
}

TfLiteStatus GetTemporarySafe(const TfLiteContext* context,
                              const TfLiteNode* node, int index,
                              TfLiteTensor** tensor) {
  return TensorAtSafe(context, node->temporaries, index, tensor);
}

const TfLiteTensor* GetIntermediates(TfLiteContext* context,
                                     const TfLiteNode* node, int index) {
  return TensorAt(context, node->intermediates, index);
}

TfLiteStatus GetIntermediatesSafe(const TfLiteContext* context,
                                  const TfLiteNode* node, int index,
                                  TfLiteTensor** tensor) {
  return TensorAtSafe(context, node->intermediates, index, tensor);
}

TfLiteStatus PopulateConvolutionQuantizationParams(
    TfLiteContext* context, const TfLiteTensor* input,
    const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
    const TfLiteFusedActivation& activation, int32_t* multiplier, int* shift,
    int32_t* output_activation_min, int32_t* output_activation_max,
    int32_t* per_channel_multiplier, int32_t* per_channel_shift) {
  TF_LITE_ENSURE_EQ(context, filter->quantization.type,
                    kTfLiteAffineQuantization);
  const auto* affine_quantization =
      static_cast<const TfLiteAffineQuantization*>(filter->quantization.params);
  TF_LITE_ENSURE(context, affine_quantization);
  TF_LITE_ENSURE(context, affine_quantization->scale);
  return PopulateConvolutionQuantizationParams(
      context, input, filter, bias, output, activation, multiplier, shift,
      output_activation_min, output_activation_max, per_channel_multiplier,
      per_channel_shift, affine_quantization->scale->size);
}

TfLiteStatus PopulateConvolutionQuantizationParams(
    TfLiteContext* context, const TfLiteTensor* input,
    const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
    const TfLiteFusedActivation& activation, int32_t* multiplier, int* shift,
    int32_t* output_activation_min, int32_t* output_activation_max,
    int32_t* per_channel_multiplier, int32_t* per_channel_shift,
    int num_channels) {
  TF_LITE_ENSURE_EQ(context, input->quantization.type,
                    kTfLiteAffineQuantization);
  TF_LITE_ENSURE_EQ(context, filter->quantization.type,
                    kTfLiteAffineQuantization);
  const auto* affine_quantization =
      static_cast<const TfLiteAffineQuantization*>(filter->quantization.params);
  TF_LITE_ENSURE(context, affine_quantization);
  TF_LITE_ENSURE(context, affine_quantization->scale);
  const bool is_per_channel = affine_quantization->scale->size > 1;
  if (is_per_channel) {
    TF_LITE_ENSURE(context,
                   input->type == kTfLiteInt8 || input->type == kTfLiteInt16);
    TF_LITE_ENSURE(context,
                   filter->type == kTfLiteInt8 || filter->type == kTfLiteInt4);
    TF_LITE_ENSURE_EQ(context, affine_quantization->scale->size, num_channels);
    TF_LITE_ENSURE(context, affine_quantization->quantized_dimension >= 0 &&
                                affine_quantization->quantized_dimension <
                                    filter->dims->size);
    TF_LITE_ENSURE_EQ(
        context, num_channels,
        filter->dims->data[affine_quantization->quantized_dimension]);
  }

  // Per-channel multipliers; a per-tensor scale is broadcast to all channels.
  const float input_scale = input->params.scale;
  const float output_scale = output->params.scale;
  const float* filter_scales = affine_quantization->scale->data;
  for (int i = 0; i < num_channels; ++i) {
    const float scale = is_per_channel ? filter_scales[i] : filter_scales[0];
    const double effective_output_scale = static_cast<double>(input_scale) *
                                          static_cast<double>(scale) /
                                          static_cast<double>(output_scale);
    int32_t significand;
    int channel_shift;
    QuantizeMultiplier(effective_output_scale, &significand, &channel_shift);
    per_channel_multiplier[i] = significand;
    per_channel_shift[i] = channel_shift;
  }

  // Legacy per-tensor parameters, still used by the uint8 kernels.
  if (input->type == kTfLiteUInt8) {
    double real_multiplier = 0.0;
    TF_LITE_ENSURE_STATUS(GetQuantizedConvolutionMultipler(
        context, input, filter, bias, output, &real_multiplier));
    int exponent;
    QuantizeMultiplier(real_multiplier, multiplier, &exponent);
    *shift = -exponent;
  }
  if (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8 ||
      input->type == kTfLiteInt16) {
    TF_LITE_ENSURE_STATUS(CalculateActivationRangeQuantized(
        context, activation, output, output_activation_min,
        output_activation_max));
  }
  return kTfLiteOk;
}

TfLiteStatus GetQuantizedConvolutionMultipler(TfLiteContext* context,
                                              const TfLiteTensor* input,
                                              const TfLiteTensor* filter,
                                              const TfLiteTensor* bias,
                                              TfLiteTensor* output,
                                              double* multiplier) {
  const double input_product_scale = static_cast<double>(input->params.scale) *
                                     static_cast<double>(filter->params.scale);
  if (bias) {
    // Kernels add the bias as if it had scale input_product_scale; the
    // error that introduces, in output units, must stay small.
    const double bias_scale = static_cast<double>(bias->params.scale);
    const double scale_diff = std::abs(input_product_scale - bias_scale);
    const double output_scale = static_cast<double>(output->params.scale);
    TF_LITE_ENSURE(context, scale_diff / output_scale <= 0.02);
  }
  return GetQuantizedConvolutionMultipler(context, input, filter, output,
                                          multiplier);
}

TfLiteStatus GetQuantizedConvolutionMultipler(TfLiteContext* context,
                                              const TfLiteTensor* input,
                                              const TfLiteTensor* filter,
                                              TfLiteTensor* output,
                                              double* multiplier) {
  // The product is formed in float, as upstream does in this overload.
  const double input_product_scale =
      static_cast<double>(input->params.scale * filter->params.scale);
  TF_LITE_ENSURE(context, input_product_scale >= 0);
  *multiplier = input_product_scale / static_cast<double>(output->params.scale);
  return kTfLiteOk;
}

namespace {

// zero_point + round(f / scale), failing if it does not fit in int32.
TfLiteStatus Quantize(TfLiteContext* context, float scale, int32_t zero_point,
                      float f, int32_t& q) {
  const float tmp = TfLiteRound(f / scale);
  // 2^31 is exactly representable as float; INT32_MAX is not. (Named as upstream names
  // it: TF_LITE_ENSURE prints the name, and TFLite's message is
  // "no_integer_overflow_from_quantization was not true".)
  const bool no_integer_overflow_from_quantization = tmp >= -2147483648.0f && tmp < 2147483648.0f;
  TF_LITE_ENSURE(context, no_integer_overflow_from_quantization);
  const int64_t wide = static_cast<int64_t>(zero_point) + static_cast<int64_t>(tmp);
  TF_LITE_ENSURE(context, wide >= std::numeric_limits<int32_t>::min() &&
                              wide <= std::numeric_limits<int32_t>::max());
  q = static_cast<int32_t>(wide);
  return kTfLiteOk;
}

TfLiteStatus CalculateActivationRangeQuantizedImpl(
    TfLiteContext* context, TfLiteFusedActivation activation, int32_t qmin,
    int32_t qmax, TfLiteTensor* output, int32_t* act_min, int32_t* act_max) {
  const float scale = output->params.scale;
  const int32_t zero_point = output->params.zero_point;
  int32_t tmp_q;
  if (activation == kTfLiteActRelu) {
    TF_LITE_ENSURE_OK(context, Quantize(context, scale, zero_point, 0.0, tmp_q));
    *act_min = std::max(qmin, tmp_q);
    *act_max = qmax;
  } else if (activation == kTfLiteActRelu6) {
    TF_LITE_ENSURE_OK(context, Quantize(context, scale, zero_point, 0.0, tmp_q));
    *act_min = std::max(qmin, tmp_q);
    TF_LITE_ENSURE_OK(context, Quantize(context, scale, zero_point, 6.0, tmp_q));
    *act_max = std::min(qmax, tmp_q);
  } else if (activation == kTfLiteActReluN1To1) {
    TF_LITE_ENSURE_OK(context,
                      Quantize(context, scale, zero_point, -1.0, tmp_q));
    *act_min = std::max(qmin, tmp_q);
    TF_LITE_ENSURE_OK(context, Quantize(context, scale, zero_point, 1.0, tmp_q));
    *act_max = std::min(qmax, tmp_q);
  } else {
    *act_min = qmin;
    *act_max = qmax;
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus CalculateActivationRangeQuantized(TfLiteContext* context,
                                               TfLiteFusedActivation activation,
                                               TfLiteTensor* output,
                                               int32_t* act_min,
                                               int32_t* act_max) {
  int32_t qmin = 0;
  int32_t qmax = 0;
  if (output->type == kTfLiteUInt8) {
    qmin = std::numeric_limits<uint8_t>::min();
    qmax = std::numeric_limits<uint8_t>::max();
  } else if (output->type == kTfLiteInt8) {
    qmin = std::numeric_limits<int8_t>::min();
    qmax = std::numeric_limits<int8_t>::max();
  } else if (output->type == kTfLiteInt16) {
    qmin = std::numeric_limits<int16_t>::min();
    qmax = std::numeric_limits<int16_t>::max();
  } else {
    TF_LITE_ENSURE(context, false);
  }
  return CalculateActivationRangeQuantizedImpl(context, activation, qmin, qmax,
                                               output, act_min, act_max);
}

bool HaveSameShapes(const TfLiteTensor* input1, const TfLiteTensor* input2) {
  return TfLiteIntArrayEqual(input1->dims, input2->dims);
}

TfLiteStatus GetOutputShapeFromInput(TfLiteContext* context,
                                     const TfLiteTensor* input,
                                     TfLiteIntArray** output_shape) {
  if (NumDimensions(input) != 1) {
    TF_LITE_KERNEL_LOG(context,
                       "Invalid %dD input tensor (must be a 1D tensor).",
                       NumDimensions(input));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, kTfLiteInt32);
  const int output_dims = SizeOfDimension(input, 0);
  IntArrayPtr shape = MakeIntArray(output_dims);
  TF_LITE_ENSURE(context, shape != nullptr);
  for (int i = 0; i < output_dims; i++) shape->data[i] = input->data.i32[i];
  *output_shape = shape.release();
  return kTfLiteOk;
}

std::string GetShapeDebugString(const TfLiteIntArray* shape) {
  std::string str = "[";
  for (int d = 0; d < shape->size; ++d) {
    if (d > 0) str += ",";
    str += std::to_string(shape->data[d]);
  }
  return str + "]";
}

std::string GetTensorDebugString(const TfLiteTensor* tensor) {
  return std::string("{\n  type: ") + TfLiteTypeGetName(tensor->type) +
         "\n  data: {...}\n  dims: " + GetShapeDebugString(tensor->dims) +
         "\n}";
}

TfLiteStatus CalculateShapeForBroadcast(TfLiteContext* context,
                                        const TfLiteTensor* input1,
                                        const TfLiteTensor* input2,
                                        TfLiteIntArray** output_shape) {
  const int dims1 = NumDimensions(input1);
  const int dims2 = NumDimensions(input2);
  const int out_dims = std::max(dims1, dims2);
  IntArrayPtr shape = MakeIntArray(out_dims);
  TF_LITE_ENSURE(context, shape != nullptr);
  for (int i = 0; i < out_dims; ++i) {
    const int d1 = i >= dims1 ? 1 : SizeOfDimension(input1, dims1 - i - 1);
    const int d2 = i >= dims2 ? 1 : SizeOfDimension(input2, dims2 - i - 1);
    if (!(d1 == d2 || d1 == 1 || d2 == 1)) {
      TF_LITE_KERNEL_LOG(context,
                         "Given shapes, %s and %s, are not broadcastable.",
                         GetShapeDebugString(input1->dims).c_str(),
                         GetShapeDebugString(input2->dims).c_str());
      return kTfLiteError;
    }
    shape->data[out_dims - i - 1] = (d1 == 0 || d2 == 0) ? 0 : std::max(d1, d2);
  }
  *output_shape = shape.release();
  return kTfLiteOk;
}

TfLiteStatus CalculateShapeForBroadcast(TfLiteContext* context,
                                        const TfLiteTensor* input1,
                                        const TfLiteTensor* input2,
                                        const TfLiteTensor* input3,
                                        TfLiteIntArray** output_shape) {
  const int dims1 = NumDimensions(input1);
  const int dims2 = NumDimensions(input2);
  const int dims3 = NumDimensions(input3);
  const int out_dims = std::max(std::max(dims1, dims2), dims3);
  IntArrayPtr shape = MakeIntArray(out_dims);
  TF_LITE_ENSURE(context, shape != nullptr);
  for (int i = 0; i < out_dims; ++i) {
    const int d1 = i >= dims1 ? 1 : SizeOfDimension(input1, dims1 - i - 1);
    const int d2 = i >= dims2 ? 1 : SizeOfDimension(input2, dims2 - i - 1);
    const int d3 = i >= dims3 ? 1 : SizeOfDimension(input3, dims3 - i - 1);
    const int min_value = std::min(std::min(d1, d2), d3);
    int max_value = std::max(std::max(d1, d2), d3);
    if (min_value == 0) max_value = 0;  // a 0 broadcasts only against 1
    if (!(d1 == 1 || d1 == max_value) || !(d2 == 1 || d2 == max_value) ||
        !(d3 == 1 || d3 == max_value)) {
      TF_LITE_KERNEL_LOG(context,
                         "Given shapes, %s, %s and %s, are not broadcastable.",
                         GetShapeDebugString(input1->dims).c_str(),
                         GetShapeDebugString(input2->dims).c_str(),
                         GetShapeDebugString(input3->dims).c_str());
      return kTfLiteError;
    }
    shape->data[out_dims - i - 1] = max_value;
  }
  *output_shape = shape.release();
  return kTfLiteOk;
}

int TfLiteTypeGetSize(TfLiteType type) {
  const int size_bits = TfLiteTypeGetSizeBits(type);
  return size_bits % 8 == 0 ? size_bits / 8 : 0;
}

int TfLiteTypeGetSizeBits(TfLiteType type) {
  switch (type) {
    case kTfLiteInt2:
      return 2;
    case kTfLiteInt4:
    case kTfLiteUInt4:
      return 4;
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteFloat8E4M3FN:
    case kTfLiteFloat8E5M2:
      return 8;
    case kTfLiteUInt16:
    case kTfLiteInt16:
    case kTfLiteFloat16:
    case kTfLiteBFloat16:
      return 16;
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteUInt32:
      return 32;
    case kTfLiteInt64:
    case kTfLiteUInt64:
    case kTfLiteFloat64:
    case kTfLiteComplex64:
      static_assert(sizeof(std::complex<float>) == 8, "");
      return 64;
    case kTfLiteComplex128:
      static_assert(sizeof(std::complex<double>) == 16, "");
      return 128;
    case kTfLiteBool:
      return static_cast<int>(sizeof(bool) * 8);
    case kTfLiteString:
    case kTfLiteNoType:
    case kTfLiteResource:
    case kTfLiteVariant:
      break;
  }
  return 0;
}

bool IsMobilePlatform() {
#if defined(ANDROID) || defined(__ANDROID__)
  return true;
#elif defined(__APPLE__)
#if TARGET_IPHONE_SIMULATOR || TARGET_OS_IPHONE
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

bool HasUnspecifiedDimension(const TfLiteTensor* tensor) {
  const TfLiteIntArray* signature = tensor->dims_signature;
  if (signature == nullptr) return false;
  for (int i = 0; i < signature->size; ++i) {
    if (signature->data[i] == -1) return true;
  }
  return false;
}

}  // namespace tflite
