// TRANSPOSE of up to 6 dimensions: output dim i is input dim perm[i]. perm is a
// 1-D int32 tensor, constant or computed at run time. Any fixed-size element type
// (the op only moves elements).
#include <cstring>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace transpose {
namespace {

constexpr int kMaxDims = 6;

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* perm, TfLiteTensor* output) {
  const int dims = NumDimensions(input);
  TF_LITE_ENSURE_EQ(context, NumDimensions(perm), 1);
  TF_LITE_ENSURE_EQ(context, perm->dims->data[0], dims);
  bool seen[kMaxDims] = {false};
  for (int i = 0; i < dims; ++i) {
    const int p = perm->data.i32[i];
    if (p < 0 || p >= dims || seen[p]) {
      TF_LITE_KERNEL_LOG(context,
                         "TRANSPOSE: perm[%d] = %d is out of range or repeated "
                         "(expected a permutation of 0..%d).",
                         i, p, dims - 1);
      return kTfLiteError;
    }
    seen[p] = true;
  }
  TfLiteIntArray* out = TfLiteIntArrayCreate(dims);
  for (int i = 0; i < dims; ++i) out->data[i] = input->dims->data[perm->data.i32[i]];
  return context->ResizeTensor(context, output, out);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  const TfLiteTensor* perm;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &perm));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const int size = TfLiteTypeGetSize(input->type);
  if (input->type == kTfLiteString || !(size == 1 || size == 2 || size == 4 || size == 8)) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, output->type);
  TF_LITE_ENSURE_TYPES_EQ(context, perm->type, kTfLiteInt32);
  TF_LITE_ENSURE_MSG(context, NumDimensions(input) <= kMaxDims,
                     "Transpose op only supports 1D-6D input arrays.");
  if (!IsConstantOrPersistentTensor(perm)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, input, perm, output);
}

template <typename T>
void TransposeImpl(const TfLiteTensor* input, const int32_t* perm, TfLiteTensor* output) {
  const int dims = NumDimensions(input);
  // Input stride of each output dimension, walked with an odometer over the output.
  int64_t in_strides[kMaxDims];
  int64_t stride = 1;
  for (int d = dims - 1; d >= 0; --d) {
    in_strides[d] = stride;
    stride *= input->dims->data[d];
  }
  int64_t step[kMaxDims];
  int out_dims[kMaxDims];
  for (int i = 0; i < dims; ++i) {
    step[i] = in_strides[perm[i]];
    out_dims[i] = output->dims->data[i];
  }
  const T* in = reinterpret_cast<const T*>(input->data.raw);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int64_t count = NumElements(output);
  if (count == 0) return;
  if (dims == 0) {
    out[0] = in[0];
    return;
  }
  int idx[kMaxDims] = {0};
  int64_t in_off = 0;
  const int last = dims - 1;
  for (int64_t o = 0; o < count;) {
    // Innermost dimension in one run.
    for (int k = 0; k < out_dims[last]; ++k) out[o++] = in[in_off + k * step[last]];
    int d = last - 1;
    for (; d >= 0; --d) {
      in_off += step[d];
      if (++idx[d] < out_dims[d]) break;
      in_off -= step[d] * out_dims[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* perm = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, input, perm, output));
  }
  switch (TfLiteTypeGetSize(input->type)) {
    case 1:
      TransposeImpl<uint8_t>(input, perm->data.i32, output);
      break;
    case 2:
      TransposeImpl<uint16_t>(input, perm->data.i32, output);
      break;
    case 4:
      TransposeImpl<uint32_t>(input, perm->data.i32, output);
      break;
    case 8:
      TransposeImpl<uint64_t>(input, perm->data.i32, output);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace transpose

TfLiteRegistration* Register_TRANSPOSE() {
  static TfLiteRegistration r = {nullptr, nullptr, transpose::Prepare, transpose::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
