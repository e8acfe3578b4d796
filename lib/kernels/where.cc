// WHERE: the coordinates of the non-zero (true) elements of the condition, as
// an int64 [num_true, rank] tensor in row-major order, as TFLite's where.cc
// (reference SelectTrueCoords). v1 bool, v2 float32, int32, int64, int8, uint8,
// uint32. A constant condition sizes the output at Prepare; otherwise the
// output is dynamic and sized in Eval. A scalar condition fails Eval with
// TFLite's message.
#include <cstdint>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace where {
namespace {

template <typename T>
int64_t CountTrue(const TfLiteTensor* cond) {
  const T* data = GetTensorData<T>(cond);
  const int64_t n = NumElements(cond);
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += data[i] != T(0) ? 1 : 0;
  return count;
}

// Calls f.template operator()<T>() with T the condition's element type.
template <typename F>
auto Dispatch(TfLiteType type, F f) {
  switch (type) {
    case kTfLiteBool:
      // As bytes: a crafted constant can hold values other than 0 and 1, which are not
      // valid bools (any non-zero byte counts as true).
      return f(uint8_t());
    case kTfLiteFloat32:
      return f(float());
    case kTfLiteInt64:
      return f(int64_t());
    case kTfLiteInt32:
      return f(int32_t());
    case kTfLiteInt8:
      return f(int8_t());
    case kTfLiteUInt8:
      return f(uint8_t());
    default:
      return f(uint32_t());
  }
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* cond, TfLiteTensor* output) {
  const int64_t true_count =
      Dispatch(cond->type, [cond](auto t) { return CountTrue<decltype(t)>(cond); });
  TfLiteIntArray* shape = TfLiteIntArrayCreate(2);
  shape->data[0] = static_cast<int>(true_count);
  shape->data[1] = NumDimensions(cond);
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* cond;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &cond));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (cond->type) {
    case kTfLiteBool:
    case kTfLiteFloat32:
    case kTfLiteInt64:
    case kTfLiteInt32:
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteUInt32:
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "Condition tensor has unsupported type: '%s'.",
                         TfLiteTypeGetName(cond->type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteInt64);
  if (!IsConstantOrPersistentTensor(cond)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, cond, output);
}

template <typename T>
void SelectTrueCoords(const TfLiteTensor* cond, int64_t* out) {
  const int rank = NumDimensions(cond);
  const T* data = GetTensorData<T>(cond);
  const int64_t n = NumElements(cond);
  for (int64_t i = 0; i < n; ++i) {
    if (data[i] == T(0)) continue;
    int64_t rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      out[d] = rest % cond->dims->data[d];
      rest /= cond->dims->data[d];
    }
    out += rank;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* cond = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, cond, output));
  if (NumDimensions(cond) == 0) {
    TF_LITE_KERNEL_LOG(context, "Where op requires condition w/ rank > 0");
    return kTfLiteError;
  }
  int64_t* out = GetTensorData<int64_t>(output);
  Dispatch(cond->type, [cond, out](auto t) { SelectTrueCoords<decltype(t)>(cond, out); });
  return kTfLiteOk;
}

}  // namespace
}  // namespace where

TfLiteRegistration* Register_WHERE() {
  static TfLiteRegistration r = {nullptr, nullptr, where::Prepare, where::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
