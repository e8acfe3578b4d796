// ATAN2: out = atan2(y, x) elementwise (y the first input), float32 and float64 (v1), as
// TFLite's atan2.cc: the inputs must have the same rank and type and the output takes y's
// shape. TFLite then reads x over y's element count whatever x's dimensions are; here
// inputs of different sizes are refused at Prepare instead of read past x's end.
#include <cmath>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace atan2 {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* y;
  const TfLiteTensor* x;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &y));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &x));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_EQ(context, NumDimensions(y), NumDimensions(x));
  TF_LITE_ENSURE_TYPES_EQ(context, y->type, x->type);
  TF_LITE_ENSURE_TYPES_EQ(context, y->type, output->type);
  TF_LITE_ENSURE(context, y->type == kTfLiteFloat32 || y->type == kTfLiteFloat64);
  TF_LITE_ENSURE_MSG(context, NumElements(x) == NumElements(y),
                     "ATAN2: the inputs differ in size (TFLite would read past the smaller)");
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(y->dims));
}

template <typename T>
void Run(const TfLiteTensor* y, const TfLiteTensor* x, TfLiteTensor* output) {
  const T* py = GetTensorData<T>(y);
  const T* px = GetTensorData<T>(x);
  T* out = GetTensorData<T>(output);
  const int64_t n = NumElements(y);
  for (int64_t i = 0; i < n; ++i) out[i] = std::atan2(py[i], px[i]);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* y = GetInput(context, node, 0);
  const TfLiteTensor* x = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (y->type == kTfLiteFloat64) {
    Run<double>(y, x, output);
  } else {
    Run<float>(y, x, output);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace atan2

TfLiteRegistration* Register_ATAN2() {
  static TfLiteRegistration r = {nullptr, nullptr, atan2::Prepare, atan2::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
