// Shared implementation of ARG_MAX and ARG_MIN (TFLite's arg_min_max.cc): the index of
// the first extreme value along `axis` (a 1-element int32/int64 tensor), output int32 or
// int64, the axis dimension removed. With a non-constant axis the output is dynamic.
// Input types float32, uint8, int8, int32, int64, bool (raw values are compared, so
// quantized inputs need no rescaling).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_ARG_MIN_MAX_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_ARG_MIN_MAX_H_

#include <cstdint>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace arg_min_max {

inline TfLiteStatus Axis(TfLiteContext* context, const TfLiteTensor* input,
                         const TfLiteTensor* axis, int* out) {
  TF_LITE_ENSURE_EQ(context, NumElements(axis), 1);
  return shape_util::NormalizeAxis(context, shape_util::IndexAt(axis, 0), NumDimensions(input),
                                   out);
}

inline TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                                 const TfLiteTensor* axis, TfLiteTensor* output) {
  int a = 0;
  TF_LITE_ENSURE_OK(context, Axis(context, input, axis, &a));
  TfLiteIntArray* shape = TfLiteIntArrayCreate(NumDimensions(input) - 1);
  for (int d = 0, k = 0; d < NumDimensions(input); ++d) {
    if (d != a) shape->data[k++] = input->dims->data[d];
  }
  return context->ResizeTensor(context, output, shape);
}

inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, TfLiteType params_type) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &axis));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt32, kTfLiteInt64, kTfLiteBool}));
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, axis->type, {kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, output->type, {kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, params_type);
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  if (!IsConstantOrPersistentTensor(axis)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, input, axis, output);
}

template <typename T, typename Index, typename Cmp>
void ArgMinMax(const TfLiteTensor* input, int axis, Index* out, Cmp cmp) {
  const T* in = GetTensorData<T>(input);
  const int64_t outer = shape_util::Product(input->dims, 0, axis);
  const int64_t inner = shape_util::Product(input->dims, axis + 1, NumDimensions(input));
  const int size = SizeOfDimension(input, axis);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      const T* base = in + o * size * inner + k;
      T best = base[0];
      Index best_index = 0;
      for (int i = 1; i < size; ++i) {
        if (cmp(base[i * inner], best)) {
          best = base[i * inner];
          best_index = static_cast<Index>(i);
        }
      }
      out[o * inner + k] = best_index;
    }
  }
}

template <typename T, template <typename> class Cmp>
void Dispatch(const TfLiteTensor* input, int axis, TfLiteTensor* output) {
  if (output->type == kTfLiteInt64) {
    ArgMinMax<T>(input, axis, output->data.i64, Cmp<T>());
  } else {
    ArgMinMax<T>(input, axis, output->data.i32, Cmp<T>());
  }
}

// `Cmp` is std::greater (ARG_MAX) or std::less (ARG_MIN).
template <template <typename> class Cmp>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis_t = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, input, axis_t, output));
  }
  int axis = 0;
  TF_LITE_ENSURE_OK(context, Axis(context, input, axis_t, &axis));
  if (SizeOfDimension(input, axis) == 0) {
    TF_LITE_KERNEL_LOG(context, "ARG_MIN/ARG_MAX over an empty axis");
    return kTfLiteError;
  }
  switch (input->type) {
    case kTfLiteFloat32:
      Dispatch<float, Cmp>(input, axis, output);
      break;
    case kTfLiteUInt8:
      Dispatch<uint8_t, Cmp>(input, axis, output);
      break;
    case kTfLiteInt8:
      Dispatch<int8_t, Cmp>(input, axis, output);
      break;
    case kTfLiteInt32:
      Dispatch<int32_t, Cmp>(input, axis, output);
      break;
    case kTfLiteInt64:
      Dispatch<int64_t, Cmp>(input, axis, output);
      break;
    case kTfLiteBool:
      Dispatch<bool, Cmp>(input, axis, output);
      break;
    default:
      return shape_util::UnsupportedType(context, input->type);
  }
  return kTfLiteOk;
}

}  // namespace arg_min_max
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_ARG_MIN_MAX_H_
