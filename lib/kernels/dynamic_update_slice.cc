// DYNAMIC_UPDATE_SLICE (v1 int32 start indices, v2 int64; later versions widen the element
// types, which this kernel moves as bytes of any size): the operand with `update` written at
// `start_indices`, each clamped into [0, operand_dim - update_dim] as XLA's op does, as
// TFLite's kernels/dynamic_update_slice.cc. What KV caches and streaming models use.
//
// INT4 (packed nibbles in TFLite's kernel) cannot reach it here: the runtime has no
// read-write int4 tensors.
#include <algorithm>
#include <cstring>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "kernels/internal/shape_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace dynamic_update_slice {
namespace {

constexpr int kMaxRank = shape_util::kMaxBoxRank;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* operand;
  const TfLiteTensor* update;
  const TfLiteTensor* start_indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &operand));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &update));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &start_indices));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  // TFLite's checks, in its order (its messages name the failing condition).
  TF_LITE_ENSURE(context, NumDimensions(start_indices) == 1);
  TF_LITE_ENSURE(context, SizeOfDimension(start_indices, 0) == NumDimensions(operand));
  TF_LITE_ENSURE(context, NumDimensions(update) == NumDimensions(operand));
  for (int i = 0; i < NumDimensions(operand); ++i) {
    TF_LITE_ENSURE(context, SizeOfDimension(update, i) <= SizeOfDimension(operand, i));
  }
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE_TYPES_EQ(context, operand->type, update->type);
  TF_LITE_ENSURE(context,
                 start_indices->type == kTfLiteInt32 || start_indices->type == kTfLiteInt64);
  output->type = operand->type;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(operand->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* operand = GetInput(context, node, 0);
  const TfLiteTensor* update = GetInput(context, node, 1);
  const TfLiteTensor* indices = GetInput(context, node, 2);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int rank = NumDimensions(operand);
  TF_LITE_ENSURE(context, rank <= kMaxRank);
  int64_t start[kMaxRank];
  if (indices->type == kTfLiteInt32) {
    for (int i = 0; i < rank; ++i) start[i] = indices->data.i32[i];
  } else if (indices->type == kTfLiteInt64) {
    for (int i = 0; i < rank; ++i) start[i] = indices->data.i64[i];
  } else {
    TF_LITE_KERNEL_LOG(context,
                       "DynamicUpdateSlice only currently supports int32 or int64 indices type, "
                       "got %d.",
                       indices->type);
    return kTfLiteError;
  }
  const size_t element = TfLiteTypeGetSize(operand->type);
  if (element == 0) {
    TF_LITE_KERNEL_LOG(context,
                       "DynamicUpdateSlice only currently supports 1-bit/8-bit/16-bit/32-bit/"
                       "64-bit integer or float type, got %d.",
                       operand->type);
    return kTfLiteError;
  }
  const int64_t operand_count = NumElements(operand), update_count = NumElements(update);
  char* out = output->data.raw;
  const char* src = update->data.raw_const;
  // The update covers the operand: a plain copy, as TFLite's kernel.
  if (operand_count == update_count) {
    if (update_count > 0) std::memcpy(out, src, static_cast<size_t>(update_count) * element);
    return kTfLiteOk;
  }
  if (operand->data.raw != out) {
    std::memcpy(out, operand->data.raw_const, std::min(operand->bytes, output->bytes));
  }
  if (update_count == 0) return kTfLiteOk;
  // Starts clamped so the update lies inside the operand, then one copy per row of the
  // update's last dimension (rank >= 1 here: a rank-0 operand has one element, which the
  // update covers).
  for (int i = 0; i < rank; ++i) {
    const int64_t limit = SizeOfDimension(operand, i) - SizeOfDimension(update, i);
    start[i] = std::min<int64_t>(std::max<int64_t>(0, start[i]), limit);
  }
  const size_t run = static_cast<size_t>(SizeOfDimension(update, rank - 1)) * element;
  tflite::shape_util::ForEachBoxRow(operand->dims->data, start, update->dims->data, rank,
                                    [&](int64_t offset, int64_t r) {
                                      std::memcpy(out + offset * static_cast<int64_t>(element),
                                                  src + r * static_cast<int64_t>(run), run);
                                    });
  return kTfLiteOk;
}

}  // namespace
}  // namespace dynamic_update_slice

TfLiteRegistration* Register_DYNAMIC_UPDATE_SLICE() {
  static TfLiteRegistration r = {nullptr, nullptr, dynamic_update_slice::Prepare,
                                 dynamic_update_slice::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
