// RANGE: start, limit, delta scalars -> [start, start + delta, ...) up to limit, as
// TFLite's range.cc (values accumulate: v += delta). int32, float32 (v1), int64 (v2).
// With a non-constant input the output is dynamic and sized in Eval.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace range {
namespace {

template <typename T>
TfLiteStatus Size(TfLiteContext* context, T start, T limit, T delta, int64_t* size) {
  TF_LITE_ENSURE_MSG(context, delta != 0, "RANGE: delta must not be 0");
  TF_LITE_ENSURE_MSG(context, (start >= limit && delta < 0) || (start <= limit && delta > 0),
                     "RANGE: delta has the wrong sign for start and limit");
  double n;
  if (std::is_integral<T>::value) {
    // Exact ceil(|limit - start| / |delta|) in unsigned 64-bit arithmetic.
    const int64_t a = static_cast<int64_t>(start), b = static_cast<int64_t>(limit);
    const uint64_t span = a <= b ? static_cast<uint64_t>(b) - static_cast<uint64_t>(a)
                                 : static_cast<uint64_t>(a) - static_cast<uint64_t>(b);
    const int64_t d = static_cast<int64_t>(delta);
    const uint64_t step = d < 0 ? 0 - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
    n = static_cast<double>(span / step + (span % step != 0 ? 1 : 0));
  } else {
    // In T, as upstream computes it.
    n = static_cast<double>(std::ceil(std::fabs((limit - start) / delta)));
  }
  TF_LITE_ENSURE_MSG(context, n <= INT32_MAX, "RANGE: output too large");
  *size = static_cast<int64_t>(n);
  return kTfLiteOk;
}

template <typename T>
TfLiteStatus SizeOf(TfLiteContext* context, TfLiteNode* node, int64_t* size) {
  const TfLiteTensor* start = GetInput(context, node, 0);
  const TfLiteTensor* limit = GetInput(context, node, 1);
  const TfLiteTensor* delta = GetInput(context, node, 2);
  return Size<T>(context, GetTensorData<T>(start)[0], GetTensorData<T>(limit)[0],
                 GetTensorData<T>(delta)[0], size);
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = GetOutput(context, node, 0);
  int64_t size = 0;
  switch (output->type) {
    case kTfLiteInt32:
      TF_LITE_ENSURE_OK(context, SizeOf<int32_t>(context, node, &size));
      break;
    case kTfLiteInt64:
      TF_LITE_ENSURE_OK(context, SizeOf<int64_t>(context, node, &size));
      break;
    default:
      TF_LITE_ENSURE_OK(context, SizeOf<float>(context, node, &size));
      break;
  }
  TfLiteIntArray* shape = TfLiteIntArrayCreate(1);
  shape->data[0] = static_cast<int>(size);
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* in[3];
  for (int i = 0; i < 3; ++i) {
    TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, i, &in[i]));
    TF_LITE_ENSURE_EQ(context, NumElements(in[i]), 1);
  }
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, in[0]->type,
                                                   {kTfLiteInt32, kTfLiteInt64, kTfLiteFloat32}));
  TF_LITE_ENSURE_TYPES_EQ(context, in[1]->type, in[0]->type);
  TF_LITE_ENSURE_TYPES_EQ(context, in[2]->type, in[0]->type);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, in[0]->type);
  if (!shape_util::AllConstant({in[0], in[1], in[2]})) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, node);
}

template <typename T>
void Fill(const TfLiteTensor* start, const TfLiteTensor* delta, TfLiteTensor* output) {
  T value = GetTensorData<T>(start)[0];
  const T step = GetTensorData<T>(delta)[0];
  T* out = GetTensorData<T>(output);
  const int64_t n = NumElements(output);
  for (int64_t i = 0; i < n; ++i) {
    out[i] = value;
    value += step;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, node));
  const TfLiteTensor* start = GetInput(context, node, 0);
  const TfLiteTensor* delta = GetInput(context, node, 2);
  switch (output->type) {
    case kTfLiteInt32:
      Fill<int32_t>(start, delta, output);
      break;
    case kTfLiteInt64:
      Fill<int64_t>(start, delta, output);
      break;
    default:
      Fill<float>(start, delta, output);
      break;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace range

TfLiteRegistration* Register_RANGE() {
  static TfLiteRegistration r = {nullptr, nullptr, range::Prepare, range::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
