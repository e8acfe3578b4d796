// SCATTER_ND (v1): a tensor of `shape` (int32 [rank]) of zeros into which each update slice
// is added at its index tuple (int32 indices [..., nd]; duplicate indices add up, bool
// updates OR), as TFLite's scatter_nd.cc and reference_ops::ScatterNd: updates float32,
// int32, int64, int8, uint8 or bool. A slice whose flat position falls outside the output
// fails Eval (TFLite checks the position, not each coordinate). A shape that is no constant
// makes the output dynamic.
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace scatter_nd {
namespace {

constexpr int kIndices = 0, kUpdates = 1, kShape = 2;

TfLiteStatus CheckShapes(TfLiteContext* context, const TfLiteTensor* indices,
                         const TfLiteTensor* updates, const TfLiteTensor* shape) {
  TF_LITE_ENSURE(context, (NumDimensions(indices) >= 1) && (NumDimensions(updates) >= 1) &&
                              (NumDimensions(shape) == 1));
  const int outer_dims = NumDimensions(indices) - 1;
  // (The updates must have the indices' outer dimensions: a crafted model with fewer had
  // the loop below read past the updates' dimensions, the invoke fuzzer's find.)
  if (NumDimensions(updates) < outer_dims) {
    TF_LITE_KERNEL_LOG(context,
                       "SCATTER_ND: the updates have %d dimensions, fewer than the indices' %d "
                       "outer dimensions.",
                       NumDimensions(updates), outer_dims);
    return kTfLiteError;
  }
  for (int i = 0; i < outer_dims; ++i) {
    TF_LITE_ENSURE_EQ(context, SizeOfDimension(indices, i), SizeOfDimension(updates, i));
  }
  const int ix = SizeOfDimension(indices, outer_dims);
  TF_LITE_ENSURE_EQ(context, NumDimensions(updates) - outer_dims, SizeOfDimension(shape, 0) - ix);
  for (int i = 0; i + outer_dims < NumDimensions(updates); ++i) {
    TF_LITE_ENSURE_EQ(context, SizeOfDimension(updates, i + outer_dims), shape->data.i32[ix + i]);
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* shape, TfLiteTensor* output) {
  const int rank = SizeOfDimension(shape, 0);
  TfLiteIntArray* dims = TfLiteIntArrayCreate(rank);
  for (int i = 0; i < rank; ++i) {
    if (shape->data.i32[i] < 0) {
      TfLiteIntArrayFree(dims);
      TF_LITE_KERNEL_LOG(context, "SCATTER_ND: negative output dimension %d.", shape->data.i32[i]);
      return kTfLiteError;
    }
    dims->data[i] = shape->data.i32[i];
  }
  return context->ResizeTensor(context, output, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor *indices, *updates, *shape;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kIndices, &indices));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kUpdates, &updates));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kShape, &shape));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (updates->type) {
    case kTfLiteFloat32:
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt64:
    case kTfLiteInt32:
    case kTfLiteBool:
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "Updates of type '%s' are not supported by scatter_nd.",
                         TfLiteTypeGetName(updates->type));
      return kTfLiteError;
  }
  if (indices->type != shape->type) {
    TF_LITE_KERNEL_LOG(context, "Indices and shape must have the same type.");
    return kTfLiteError;
  }
  if (indices->type != kTfLiteInt32) {
    TF_LITE_KERNEL_LOG(context, "Indices of type '%s' are not supported by scatter_nd.",
                       TfLiteTypeGetName(indices->type));
    return kTfLiteError;
  }
  output->type = updates->type;
  if (!IsConstantOrPersistentTensor(shape)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(context, CheckShapes(context, indices, updates, shape));
  return ResizeOutput(context, shape, output);
}

template <typename T>
TfLiteStatus Scatter(TfLiteContext* context, const TfLiteTensor* indices,
                     const TfLiteTensor* updates, TfLiteTensor* output) {
  const int outer_dims = NumDimensions(indices) - 1;
  const int nd = SizeOfDimension(indices, outer_dims);
  int64_t slices = 1, slice_size = 1;
  for (int i = 0; i < outer_dims; ++i) slices *= SizeOfDimension(indices, i);
  for (int i = outer_dims; i < NumDimensions(updates); ++i)
    slice_size *= SizeOfDimension(updates, i);
  const int64_t out_size = NumElements(output);
  // Elements under each of the first nd output dimensions.
  std::vector<int64_t> stride(nd, 0);
  int64_t remain = out_size;
  for (int i = 0; i < nd; ++i) {
    const int d = SizeOfDimension(output, i);
    stride[i] = d == 0 ? 0 : remain / d;
    remain = stride[i];
  }
  T* out = reinterpret_cast<T*>(output->data.raw);
  const T* in = reinterpret_cast<const T*>(updates->data.raw);
  if (slices * slice_size > NumElements(updates)) {
    TF_LITE_KERNEL_LOG(context, "SCATTER_ND: the updates hold fewer than %lld values.",
                       static_cast<long long>(slices * slice_size));
    return kTfLiteError;
  }
  if (out_size > 0) std::memset(out, 0, sizeof(T) * static_cast<size_t>(out_size));
  for (int64_t s = 0; s < slices; ++s) {
    int64_t to = 0;
    for (int j = 0; j < nd; ++j)
      to += static_cast<int64_t>(indices->data.i32[s * nd + j]) * stride[j];
    if (to < 0 || to + slice_size > out_size) {
      TF_LITE_KERNEL_LOG(context, "scatter_nd index out of bounds");
      return kTfLiteError;
    }
    for (int64_t j = 0; j < slice_size; ++j) {
      if constexpr (std::is_same_v<T, bool>) {
        out[to + j] = out[to + j] || in[s * slice_size + j];
      } else {
        out[to + j] += in[s * slice_size + j];
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = GetInput(context, node, kIndices);
  const TfLiteTensor* updates = GetInput(context, node, kUpdates);
  const TfLiteTensor* shape = GetInput(context, node, kShape);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, CheckShapes(context, indices, updates, shape));
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, shape, output));
  }
  switch (updates->type) {
    case kTfLiteFloat32:
      return Scatter<float>(context, indices, updates, output);
    case kTfLiteUInt8:
      return Scatter<uint8_t>(context, indices, updates, output);
    case kTfLiteInt8:
      return Scatter<int8_t>(context, indices, updates, output);
    case kTfLiteInt32:
      return Scatter<int32_t>(context, indices, updates, output);
    case kTfLiteInt64:
      return Scatter<int64_t>(context, indices, updates, output);
    default:
      return Scatter<bool>(context, indices, updates, output);
  }
}

}  // namespace
}  // namespace scatter_nd

TfLiteRegistration* Register_SCATTER_ND() {
  static TfLiteRegistration r = {nullptr, nullptr, scatter_nd::Prepare, scatter_nd::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
