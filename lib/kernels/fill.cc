// FILL: a tensor of shape `dims` (1-D int32/int64) holding the scalar `value`, as TFLite's
// fill.cc. With non-constant dims the output is dynamic and sized in Eval. v1 float32/
// int32/int64, v2 bool/string, v3 int8/int16 (output quantization must equal the
// value's), v4 float16.
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace fill {
namespace {

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* dims, TfLiteTensor* output) {
  const int rank = static_cast<int>(NumElements(dims));
  TfLiteIntArray* shape = TfLiteIntArrayCreate(rank);
  for (int i = 0; i < rank; ++i) {
    const int64_t d = shape_util::IndexAt(dims, i);
    if (d < 0 || d > INT32_MAX) {
      TfLiteIntArrayFree(shape);
      TF_LITE_KERNEL_LOG(context, "Fill dimensions must be >= 0 got %lld",
                         static_cast<long long>(d));
      return kTfLiteError;
    }
    shape->data[i] = static_cast<int>(d);
  }
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* dims;
  const TfLiteTensor* value;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &dims));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &value));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, dims->type, {kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_EQ(context, NumDimensions(dims), 1);
  TF_LITE_ENSURE_EQ(context, NumDimensions(value), 0);
  TF_LITE_ENSURE_OK(
      context, shape_util::CheckType(context, value->type,
                                     {kTfLiteFloat32, kTfLiteFloat16, kTfLiteInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64, kTfLiteBool, kTfLiteString}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, value->type);
  if (value->type == kTfLiteInt8 || value->type == kTfLiteInt16) {
    TF_LITE_ENSURE_MSG(context,
                       value->params.scale == output->params.scale &&
                           value->params.zero_point == output->params.zero_point,
                       "FILL: quantized value and output must share scale and zero point");
  }
  if (!IsConstantOrPersistentTensor(dims)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, dims, output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* dims = GetInput(context, node, 0);
  const TfLiteTensor* value = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, dims, output));
  if (value->type == kTfLiteString) {
    return shape_util::GatherStrings(context, value, output, NumElements(output),
                                     [](int64_t) { return int64_t{0}; });
  }
  const size_t elem = shape_util::ElementBytes(value->type);
  const int64_t n = NumElements(output);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(output->data.raw + i * elem, value->data.raw_const, elem);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace fill

TfLiteRegistration* Register_FILL() {
  static TfLiteRegistration r = {nullptr, nullptr, fill::Prepare, fill::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
