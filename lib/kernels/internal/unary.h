// Shared implementation of the elementwise unary math kernels (ABS, NEG, EXP, LOG, SQRT,
// RSQRT, SQUARE, SIN, COS, FLOOR, CEIL, ROUND): one input, one output of the same type and
// shape, out[i] = f(in[i]) with the same <cmath> call TFLite's reference uses.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_UNARY_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_UNARY_H_

#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace unary {

inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node,
                            std::initializer_list<TfLiteType> types) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type, types));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

template <typename T, typename F>
TfLiteStatus Map(TfLiteContext* context, TfLiteNode* node, F f) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const T* in = GetTensorData<T>(input);
  T* out = GetTensorData<T>(output);
  const int64_t n = NumElements(input);
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
  return kTfLiteOk;
}

// Float-only kernels: Prepare and Eval from a float -> float function.
template <float (*F)(float)>
TfLiteStatus PrepareFloat(TfLiteContext* context, TfLiteNode* node) {
  return Prepare(context, node, {kTfLiteFloat32});
}
template <float (*F)(float)>
TfLiteStatus EvalFloat(TfLiteContext* context, TfLiteNode* node) {
  return Map<float>(context, node, F);
}

// TFLite's RoundToNearest: halves go to the even neighbour.
inline float RoundHalfToEven(float value) {
  const float floor_val = std::floor(value);
  const float diff = value - floor_val;
  if (diff < 0.5f || (diff == 0.5f && static_cast<int>(floor_val) % 2 == 0)) return floor_val;
  return floor_val + 1.0f;
}

}  // namespace unary
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_UNARY_H_
