// Helpers every TFLite kernel uses: tensor access by node position, shape
// queries, quantization parameter setup and broadcast shapes. Source-
// compatible with upstream tensorflow/lite/kernels/kernel_util.h; implemented
// in lib/runtime/kernel_util.cc.
//
// Tensor getters return nullptr for an out-of-range position or an omitted
// optional tensor (kTfLiteOptionalTensor); the *Safe variants instead log
// through context->ReportError and return kTfLiteError. Tensors are taken
// from context->tensors, or through context->GetTensor when that is NULL.
// Functions returning TfLiteIntArray* give the caller ownership.
//
// Not provided: CheckedShapeProduct / CheckedShapeProductToInt (absl::Span
// in their signatures) and IsTensorBackedByExternalBuffer (interpreter
// internals).
#ifndef TENSORFLOW_LITE_KERNELS_KERNEL_UTIL_H_
#define TENSORFLOW_LITE_KERNELS_KERNEL_UTIL_H_

#include <stdint.h>

#include <cstddef>
#include <limits>
#include <string>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite {

// Input `index` of `node`, or nullptr (see above).
const TfLiteTensor* GetInput(const TfLiteContext* context,
                             const TfLiteNode* node, int index);
TfLiteStatus GetInputSafe(const TfLiteContext* context, const TfLiteNode* node,
                          int index, const TfLiteTensor** tensor);

// Input `index` if it is a variable tensor, else nullptr.
TfLiteTensor* GetVariableInput(TfLiteContext* context, const TfLiteNode* node,
                               int index);

TfLiteTensor* GetOutput(TfLiteContext* context, const TfLiteNode* node,
                        int index);
TfLiteStatus GetOutputSafe(const TfLiteContext* context, const TfLiteNode* node,
                           int index, TfLiteTensor** tensor);

// Deprecated alias of GetInput (which already maps omitted inputs to nullptr).
const TfLiteTensor* GetOptionalInputTensor(const TfLiteContext* context,
                                           const TfLiteNode* node, int index);

TfLiteTensor* GetTemporary(TfLiteContext* context, const TfLiteNode* node,
                           int index);
TfLiteStatus GetTemporarySafe(const TfLiteContext* context,
                              const TfLiteNode* node, int index,
                              TfLiteTensor** tensor);

const TfLiteTensor* GetIntermediates(TfLiteContext* context,
                                     const TfLiteNode* node, int index);
TfLiteStatus GetIntermediatesSafe(const TfLiteContext* context,
                                  const TfLiteNode* node, int index,
                                  TfLiteTensor** tensor);

inline int NumDimensions(const TfLiteTensor* t) { return t->dims->size; }
inline int SizeOfDimension(const TfLiteTensor* t, int dim) {
  return t->dims->data[dim];
}

inline int NumInputs(const TfLiteNode* node) {
  return node->inputs == nullptr ? 0 : node->inputs->size;
}
inline int NumOutputs(const TfLiteNode* node) {
  return node->outputs == nullptr ? 0 : node->outputs->size;
}
inline int NumIntermediates(const TfLiteNode* node) {
  return node->intermediates->size;
}

// Product of the dimensions (1 for a scalar). Unchecked: validate shapes
// from untrusted models before relying on it.
inline int64_t NumElements(const int* dims, int num_dims) {
  int64_t count = 1;
  for (int i = 0; i < num_dims; ++i) count *= dims[i];
  return count;
}
inline int64_t NumElements(const TfLiteIntArray* dims) {
  return NumElements(dims->data, dims->size);
}
inline int64_t NumElements(const TfLiteTensor* t) {
  return NumElements(t->dims);
}

// Constant = read-only model data (kTfLiteMmapRo).
inline bool IsConstantTensor(const TfLiteTensor* tensor) {
  return tensor->allocation_type == kTfLiteMmapRo;
}

// Constant, or computed once in Prepare (kTfLitePersistentRo).
inline bool IsConstantOrPersistentTensor(const TfLiteTensor* tensor) {
  return IsConstantTensor(tensor) ||
         tensor->allocation_type == kTfLitePersistentRo;
}

// Shape known only at eval time (a non-constant tensor need not be dynamic).
inline bool IsDynamicTensor(const TfLiteTensor* tensor) {
  return tensor->allocation_type == kTfLiteDynamic;
}

// Frees the tensor's owned data and marks it kTfLiteDynamic (the kernel then
// sizes it in Eval with context->ResizeTensor).
inline void SetTensorToDynamic(TfLiteTensor* tensor) {
  if (tensor->allocation_type != kTfLiteDynamic) {
    TfLiteTensorDataFree(tensor);
    tensor->allocation_type = kTfLiteDynamic;
  }
}

// Frees the tensor's owned data and marks it kTfLitePersistentRo (filled in
// Prepare, then read-only).
inline void SetTensorToPersistentRo(TfLiteTensor* tensor) {
  if (tensor->allocation_type != kTfLitePersistentRo) {
    TfLiteTensorDataFree(tensor);
    tensor->allocation_type = kTfLitePersistentRo;
  }
}

// Float input with 8-bit quantized weights.
inline bool IsHybridOp(const TfLiteTensor* input, const TfLiteTensor* weight) {
  return ((weight->type == kTfLiteUInt8 || weight->type == kTfLiteInt8) &&
          input->type == kTfLiteFloat32);
}

// Conv / depthwise conv setup: per-channel (multiplier, shift) for
// input_scale * filter_scale[c] / output_scale into the per_channel_* arrays
// (num_channels entries; defaults to the filter's scale count), the legacy
// per-tensor multiplier/shift for uint8 inputs (`shift` is negated, a right
// shift), and the quantized activation range for 8/16-bit inputs.
TfLiteStatus PopulateConvolutionQuantizationParams(
    TfLiteContext* context, const TfLiteTensor* input,
    const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
    const TfLiteFusedActivation& activation, int32_t* multiplier, int* shift,
    int32_t* output_activation_min, int32_t* output_activation_max,
    int32_t* per_channel_multiplier, int32_t* per_channel_shift);

TfLiteStatus PopulateConvolutionQuantizationParams(
    TfLiteContext* context, const TfLiteTensor* input,
    const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
    const TfLiteFusedActivation& activation, int32_t* multiplier, int* shift,
    int32_t* output_activation_min, int32_t* output_activation_max,
    int32_t* per_channel_multiplier, int32_t* per_channel_shift,
    int num_channels);

// input_scale * filter_scale / output_scale; the overload with `bias` also
// checks that the bias scale is close to input_scale * filter_scale
// (|difference| / output_scale <= 0.02). (The misspelling is upstream's.)
TfLiteStatus GetQuantizedConvolutionMultipler(TfLiteContext* context,
                                              const TfLiteTensor* input,
                                              const TfLiteTensor* filter,
                                              const TfLiteTensor* bias,
                                              TfLiteTensor* output,
                                              double* multiplier);

TfLiteStatus GetQuantizedConvolutionMultipler(TfLiteContext* context,
                                              const TfLiteTensor* input,
                                              const TfLiteTensor* filter,
                                              TfLiteTensor* output,
                                              double* multiplier);

// Quantized clamp range of `activation` for output's type (uint8, int8 or
// int16) and quantization; kTfLiteError for other types or if a bound does
// not fit in int32.
TfLiteStatus CalculateActivationRangeQuantized(TfLiteContext* context,
                                               TfLiteFusedActivation activation,
                                               TfLiteTensor* output,
                                               int32_t* act_min,
                                               int32_t* act_max);

// Clamp range of `activation` in T (Relu, Relu6, ReluN1To1; full range for
// the others).
template <typename T>
void CalculateActivationRange(TfLiteFusedActivation activation,
                              T* activation_min, T* activation_max) {
  if (activation == kTfLiteActRelu) {
    *activation_min = 0;
    *activation_max = std::numeric_limits<T>::max();
  } else if (activation == kTfLiteActRelu6) {
    *activation_min = 0;
    *activation_max = 6;
  } else if (activation == kTfLiteActReluN1To1) {
    *activation_min = -1;
    *activation_max = 1;
  } else {
    *activation_min = std::numeric_limits<T>::lowest();
    *activation_max = std::numeric_limits<T>::max();
  }
}

bool HaveSameShapes(const TfLiteTensor* input1, const TfLiteTensor* input2);

// Shape whose dims are the values of the 1-D int32 tensor `input`.
TfLiteStatus GetOutputShapeFromInput(TfLiteContext* context,
                                     const TfLiteTensor* input,
                                     TfLiteIntArray** output_shape);

// "[1,2,3]" (no spaces, like TensorFlow's shape strings).
std::string GetShapeDebugString(const TfLiteIntArray* shape);
std::string GetTensorDebugString(const TfLiteTensor* tensor);

// NumPy-style broadcast shape of the inputs (right-aligned; each dimension
// pair equal or one of them 1; a 0 against 1 gives 0). Logs and returns
// kTfLiteError if the shapes are not broadcastable.
TfLiteStatus CalculateShapeForBroadcast(TfLiteContext* context,
                                        const TfLiteTensor* input1,
                                        const TfLiteTensor* input2,
                                        TfLiteIntArray** output_shape);
TfLiteStatus CalculateShapeForBroadcast(TfLiteContext* context,
                                        const TfLiteTensor* input1,
                                        const TfLiteTensor* input2,
                                        const TfLiteTensor* input3,
                                        TfLiteIntArray** output_shape);

// Element size in bytes; 0 for strings, resources, variants and sub-byte
// types.
int TfLiteTypeGetSize(TfLiteType type);
// Element size in bits (4 for int4, 2 for int2); 0 where not fixed.
int TfLiteTypeGetSizeBits(TfLiteType type);

// Android or iOS.
bool IsMobilePlatform();

// True if dims_signature contains -1.
bool HasUnspecifiedDimension(const TfLiteTensor* tensor);

}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_KERNEL_UTIL_H_
