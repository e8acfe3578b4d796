// SPLIT_V: inputs (input, size_splits: 1-D int32/int64, axis: int32 scalar); output i
// takes size_splits[i] slices along axis, one entry may be -1 (the rest), as TFLite's
// split_v.cc. v1 float32/uint8/int16/int32/int64, v2 int8. With non-constant
// size_splits or axis the outputs are dynamic and sized in Eval.
#include <cstring>
#include <vector>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace split_v {
namespace {

// Sizes along the axis of every output, with the -1 entry resolved.
TfLiteStatus SplitSizes(TfLiteContext* context, TfLiteNode* node, int* axis,
                        std::vector<int64_t>* sizes) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* size_splits = GetInput(context, node, 1);
  const TfLiteTensor* axis_t = GetInput(context, node, 2);
  TF_LITE_ENSURE_EQ(context, NumElements(axis_t), 1);
  TF_LITE_ENSURE_OK(
      context, shape_util::NormalizeAxis(context, axis_t->data.i32[0], NumDimensions(input), axis));
  const int64_t n = NumElements(size_splits);
  TF_LITE_ENSURE_EQ(context, n, NumOutputs(node));
  sizes->resize(n);
  int64_t sum = 0;
  int minus_one = -1;
  for (int64_t i = 0; i < n; ++i) {
    (*sizes)[i] = shape_util::IndexAt(size_splits, i);
    if ((*sizes)[i] == -1) {
      TF_LITE_ENSURE_MSG(context, minus_one < 0, "SPLIT_V: more than one -1 in size_splits");
      minus_one = static_cast<int>(i);
    } else {
      TF_LITE_ENSURE_MSG(context, (*sizes)[i] >= 0, "SPLIT_V: negative size in size_splits");
      sum += (*sizes)[i];
    }
  }
  const int64_t dim = SizeOfDimension(input, *axis);
  if (minus_one >= 0) {
    TF_LITE_ENSURE_MSG(context, sum <= dim, "SPLIT_V: size_splits exceed the dimension");
    (*sizes)[minus_one] = dim - sum;
  } else {
    TF_LITE_ENSURE_MSG(context, sum == dim,
                       "The sum of size_splits must be equal to the dimension value.");
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutputs(TfLiteContext* context, TfLiteNode* node) {
  int axis = 0;
  std::vector<int64_t> sizes;
  TF_LITE_ENSURE_OK(context, SplitSizes(context, node, &axis, &sizes));
  const TfLiteTensor* input = GetInput(context, node, 0);
  for (int i = 0; i < NumOutputs(node); ++i) {
    TfLiteIntArray* shape = TfLiteIntArrayCopy(input->dims);
    shape->data[axis] = static_cast<int>(sizes[i]);
    TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, GetOutput(context, node, i), shape));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE(context, NumOutputs(node) >= 1);
  const TfLiteTensor* input;
  const TfLiteTensor* size_splits;
  const TfLiteTensor* axis;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &size_splits));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &axis));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_EQ(context, NumDimensions(size_splits), 1);
  TF_LITE_ENSURE_OK(
      context, shape_util::CheckType(context, size_splits->type, {kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  for (int i = 0; i < NumOutputs(node); ++i) {
    TfLiteTensor* out;
    TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, i, &out));
    TF_LITE_ENSURE_TYPES_EQ(context, out->type, input->type);
  }
  if (!shape_util::AllConstant({size_splits, axis})) {
    for (int i = 0; i < NumOutputs(node); ++i) SetTensorToDynamic(GetOutput(context, node, i));
    return kTfLiteOk;
  }
  return ResizeOutputs(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (IsDynamicTensor(GetOutput(context, node, 0))) {
    TF_LITE_ENSURE_OK(context, ResizeOutputs(context, node));
  }
  int axis = 0;
  std::vector<int64_t> sizes;
  TF_LITE_ENSURE_OK(context, SplitSizes(context, node, &axis, &sizes));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const int64_t outer = shape_util::Product(input->dims, 0, axis);
  const size_t inner =
      static_cast<size_t>(shape_util::Product(input->dims, axis + 1, NumDimensions(input)) *
                          shape_util::ElementBytes(input->type));
  const char* in = input->data.raw_const;
  for (int64_t o = 0; o < outer; ++o) {
    for (int i = 0; i < NumOutputs(node); ++i) {
      const size_t chunk = static_cast<size_t>(sizes[i]) * inner;
      std::memcpy(GetOutput(context, node, i)->data.raw + o * chunk, in, chunk);
      in += chunk;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace split_v

TfLiteRegistration* Register_SPLIT_V() {
  static TfLiteRegistration r = {nullptr, nullptr, split_v::Prepare, split_v::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
