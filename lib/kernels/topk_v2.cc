// TOPK_V2: the k largest entries of each last-dimension row, as TFLite's topk_v2.cc:
// outputs values (input type) and their indices (int32 or int16), sorted by value
// descending, equal values by ascending index (TFLite's TopContainer order). k is an
// int32 or int16 scalar (a non-constant k makes both outputs dynamic). v1: float32,
// uint8, int32, int64; v2: int8; v3: int16 input, k or indices. NaN (which TFLite
// leaves unspecified) sorts above every number, so the order stays a strict weak one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace topk_v2 {
namespace {

TfLiteStatus ResizeOutputs(TfLiteContext* context, const TfLiteTensor* input,
                           const TfLiteTensor* top_k, TfLiteTensor* values, TfLiteTensor* indices) {
  TF_LITE_ENSURE_EQ(context, NumElements(top_k), 1);
  const int64_t k = shape_util::IndexAt(top_k, 0);
  const int rank = NumDimensions(input);
  const int last = input->dims->data[rank - 1];
  if (k < 0 || k > last) {
    TF_LITE_KERNEL_LOG(context, "TOPK_V2: k = %lld must be in [0, %d] (the last dimension).",
                       static_cast<long long>(k), last);
    return kTfLiteError;
  }
  TfLiteIntArray* v = TfLiteIntArrayCopy(input->dims);
  v->data[rank - 1] = static_cast<int>(k);
  TfLiteIntArray* i = TfLiteIntArrayCopy(v);
  TfLiteStatus s = context->ResizeTensor(context, values, v);
  if (s != kTfLiteOk) {
    TfLiteIntArrayFree(i);
    return s;
  }
  return context->ResizeTensor(context, indices, i);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 2);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  const TfLiteTensor* top_k;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &top_k));
  TfLiteTensor* values;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &values));
  TfLiteTensor* indices;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 1, &indices));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, values->type, input->type);
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, top_k->type, {kTfLiteInt32, kTfLiteInt16}));
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, indices->type, {kTfLiteInt32, kTfLiteInt16}));
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  TF_LITE_ENSURE(context, NumDimensions(top_k) <= 1);
  if (!IsConstantOrPersistentTensor(top_k)) {
    SetTensorToDynamic(values);
    SetTensorToDynamic(indices);
    return kTfLiteOk;
  }
  return ResizeOutputs(context, input, top_k, values, indices);
}

template <typename T>
bool Greater(T a, T b) {
  return a > b;
}
template <>
bool Greater(float a, float b) {
  if (std::isnan(a)) return !std::isnan(b);
  if (std::isnan(b)) return false;
  return a > b;
}

template <typename T, typename I>
void TopK(const T* in, int rows, int n, int k, T* values, I* indices) {
  std::vector<int> order(n);
  for (int r = 0; r < rows; ++r) {
    const T* row = in + static_cast<int64_t>(r) * n;
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [row](int a, int b) {
      if (Greater(row[a], row[b])) return true;
      if (Greater(row[b], row[a])) return false;
      return a < b;
    });
    for (int j = 0; j < k; ++j) {
      values[static_cast<int64_t>(r) * k + j] = row[order[j]];
      indices[static_cast<int64_t>(r) * k + j] = static_cast<I>(order[j]);
    }
  }
}

template <typename T>
void Dispatch(const TfLiteTensor* input, int rows, int n, int k, TfLiteTensor* values,
              TfLiteTensor* indices) {
  const T* in = reinterpret_cast<const T*>(input->data.raw_const);
  T* out = reinterpret_cast<T*>(values->data.raw);
  if (indices->type == kTfLiteInt16) {
    TopK(in, rows, n, k, out, indices->data.i16);
  } else {
    TopK(in, rows, n, k, out, indices->data.i32);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* top_k = GetInput(context, node, 1);
  TfLiteTensor* values = GetOutput(context, node, 0);
  TfLiteTensor* indices = GetOutput(context, node, 1);
  if (IsDynamicTensor(values)) {
    TF_LITE_ENSURE_OK(context, ResizeOutputs(context, input, top_k, values, indices));
  }
  const int n = input->dims->data[NumDimensions(input) - 1];
  const int k = values->dims->data[NumDimensions(values) - 1];
  if (indices->type == kTfLiteInt16 && n > 32768) {
    TF_LITE_KERNEL_LOG(context, "TOPK_V2: %d columns do not fit int16 indices.", n);
    return kTfLiteError;
  }
  if (n == 0 || k == 0 || NumElements(input) == 0) return kTfLiteOk;
  const int rows = static_cast<int>(NumElements(input) / n);
  switch (input->type) {
    case kTfLiteFloat32:
      Dispatch<float>(input, rows, n, k, values, indices);
      break;
    case kTfLiteUInt8:
      Dispatch<uint8_t>(input, rows, n, k, values, indices);
      break;
    case kTfLiteInt8:
      Dispatch<int8_t>(input, rows, n, k, values, indices);
      break;
    case kTfLiteInt16:
      Dispatch<int16_t>(input, rows, n, k, values, indices);
      break;
    case kTfLiteInt32:
      Dispatch<int32_t>(input, rows, n, k, values, indices);
      break;
    case kTfLiteInt64:
      Dispatch<int64_t>(input, rows, n, k, values, indices);
      break;
    default:
      return shape_util::UnsupportedType(context, input->type);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace topk_v2

TfLiteRegistration* Register_TOPK_V2() {
  static TfLiteRegistration r = {nullptr, nullptr, topk_v2::Prepare, topk_v2::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
