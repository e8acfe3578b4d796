// UNPACK: splits the input along `axis` into `num` outputs of rank - 1, as TFLite's
// unpack.cc. v1 float32/int32, v2 int8/uint8, v3 bool, v4 int16 (also int64).
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace unpack {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteUnpackParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), params->num);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, input->type,
                                          {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                           kTfLiteInt32, kTfLiteInt64, kTfLiteBool}));
  const int rank = NumDimensions(input);
  TF_LITE_ENSURE(context, rank >= 1);
  int axis = 0;
  TF_LITE_ENSURE_OK(context, shape_util::NormalizeAxis(context, params->axis, rank, &axis));
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, axis), params->num);
  for (int i = 0; i < NumOutputs(node); ++i) {
    TfLiteTensor* out;
    TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, i, &out));
    TF_LITE_ENSURE_TYPES_EQ(context, out->type, input->type);
    TfLiteIntArray* shape = TfLiteIntArrayCreate(rank - 1);
    for (int d = 0, s = 0; d < rank; ++d) {
      if (d != axis) shape->data[s++] = input->dims->data[d];
    }
    TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, out, shape));
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteUnpackParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const int rank = NumDimensions(input);
  const int axis = params->axis < 0 ? params->axis + rank : params->axis;
  const int64_t outer = shape_util::Product(input->dims, 0, axis);
  const size_t chunk = static_cast<size_t>(shape_util::Product(input->dims, axis + 1, rank)) *
                       shape_util::ElementBytes(input->type);
  const int n = params->num;
  for (int i = 0; i < n; ++i) {
    char* out = GetOutput(context, node, i)->data.raw;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(out + o * chunk, input->data.raw_const + (o * n + i) * chunk, chunk);
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace unpack

TfLiteRegistration* Register_UNPACK() {
  static TfLiteRegistration r = {nullptr, nullptr, unpack::Prepare, unpack::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
