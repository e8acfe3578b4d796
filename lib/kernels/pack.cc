// PACK: N inputs of one shape stacked along a new axis, as TFLite's pack.cc.
// v1 float32/int32/int64/uint8, v2 int8, v3 int16, v4 uint32. Quantized inputs and the
// output must share scale and zero point (the op only moves elements).
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace pack {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLitePackParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_EQ(context, NumInputs(node), params->values_count);
  TF_LITE_ENSURE(context, params->values_count >= 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input0;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input0));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, input0->type,
                                          {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                           kTfLiteInt32, kTfLiteInt64, kTfLiteUInt32}));
  const int rank = NumDimensions(input0);
  int axis = 0;
  TF_LITE_ENSURE_OK(context, shape_util::NormalizeAxis(context, params->axis, rank + 1, &axis));
  for (int i = 1; i < NumInputs(node); ++i) {
    const TfLiteTensor* in;
    TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, i, &in));
    TF_LITE_ENSURE_TYPES_EQ(context, in->type, input0->type);
    TF_LITE_ENSURE_MSG(context, HaveSameShapes(in, input0), "PACK: inputs differ in shape");
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input0->type);
  if (input0->type == kTfLiteInt8 || input0->type == kTfLiteUInt8 || input0->type == kTfLiteInt16) {
    for (int i = 0; i < NumInputs(node); ++i) {
      const TfLiteTensor* in = GetInput(context, node, i);
      TF_LITE_ENSURE_MSG(context,
                         in->params.scale == output->params.scale &&
                             in->params.zero_point == output->params.zero_point,
                         "PACK: quantized inputs and output must share scale and zero point");
    }
  }
  TfLiteIntArray* shape = TfLiteIntArrayCreate(rank + 1);
  for (int d = 0, s = 0; d < rank + 1; ++d) {
    shape->data[d] = d == axis ? params->values_count : input0->dims->data[s++];
  }
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLitePackParams*>(node->builtin_data);
  const TfLiteTensor* input0 = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int rank = NumDimensions(input0);
  const int axis = params->axis < 0 ? params->axis + rank + 1 : params->axis;
  const int64_t outer = shape_util::Product(input0->dims, 0, axis);
  const size_t chunk = static_cast<size_t>(shape_util::Product(input0->dims, axis, rank)) *
                       shape_util::ElementBytes(input0->type);
  const int n = NumInputs(node);
  for (int i = 0; i < n; ++i) {
    const char* in = GetInput(context, node, i)->data.raw_const;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(output->data.raw + (o * n + i) * chunk, in + o * chunk, chunk);
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace pack

TfLiteRegistration* Register_PACK() {
  static TfLiteRegistration r = {nullptr, nullptr, pack::Prepare, pack::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
