// BROADCAST_TO: input broadcast (NumPy rules, right-aligned) to the shape given by a 1-D
// int32/int64 tensor of at most 8 entries, as TFLite's broadcast_to.cc. With a
// non-constant shape the output is dynamic and sized in Eval. Any fixed-size element
// type. v2 (v1 was withdrawn upstream), v3 int8/int16.
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace broadcast_to {
namespace {

constexpr int kMaxDims = 8;

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* shape, TfLiteTensor* output) {
  const int rank = static_cast<int>(NumElements(shape));
  TF_LITE_ENSURE_MSG(context, rank <= kMaxDims, "BroadcastTo only supports 1-8D tensor.");
  TF_LITE_ENSURE_MSG(context, NumDimensions(input) <= rank,
                     "Output shape must be broadcastable from input shape.");
  TfLiteIntArray* dims = TfLiteIntArrayCreate(rank);
  const int offset = rank - NumDimensions(input);
  for (int i = 0; i < rank; ++i) {
    const int64_t d = shape_util::IndexAt(shape, i);
    const int in = i >= offset ? input->dims->data[i - offset] : 1;
    if (d < 0 || d > INT32_MAX || !(in == 1 || in == d)) {
      TfLiteIntArrayFree(dims);
      TF_LITE_KERNEL_LOG(context, "Output shape must be broadcastable from input shape.");
      return kTfLiteError;
    }
    dims->data[i] = static_cast<int>(d);
  }
  return context->ResizeTensor(context, output, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &shape));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (shape_util::ElementBytes(input->type) == 0) {
    return shape_util::UnsupportedType(context, input->type);
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, shape->type, {kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_EQ(context, NumDimensions(shape), 1);
  TF_LITE_ENSURE_MSG(context, NumDimensions(input) <= kMaxDims,
                     "BroadcastTo only supports 1-8D tensor.");
  if (!IsConstantOrPersistentTensor(shape)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, input, shape, output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* shape = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, input, shape, output));
  }
  const int rank = NumDimensions(output);
  const size_t elem = shape_util::ElementBytes(input->type);
  int64_t strides[1][8];
  shape_util::BroadcastStrides(input->dims, output->dims->data, rank, strides[0]);
  const char* in = input->data.raw_const;
  char* out = output->data.raw;
  shape_util::ForEachBroadcast<1>(output->dims->data, rank, strides,
                                  [&](int64_t i, const int64_t* off) {
                                    std::memcpy(out + i * elem, in + off[0] * elem, elem);
                                  });
  return kTfLiteOk;
}

}  // namespace
}  // namespace broadcast_to

TfLiteRegistration* Register_BROADCAST_TO() {
  static TfLiteRegistration r = {nullptr, nullptr, broadcast_to::Prepare, broadcast_to::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
