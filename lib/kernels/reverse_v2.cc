// REVERSE_V2: reverses the input along the axes of the second input (int32, each in
// [-rank, rank), negative from the end; repeated or, as in TFLite, non-adjacent axes are
// refused). Any fixed-size element
// type (v1 float32 / uint8 / int16 / int32 / int64 / bool, v2 int8, v3 several axes), as
// TFLite's reverse.cc; the bytes are moved, so every type reverses exactly.
#include <cstdint>
#include <cstring>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace reverse_v2 {
namespace {

// The dims to reverse as a flag per dim; false with a message on a bad axis.
TfLiteStatus ReversedDims(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* axis, std::vector<bool>* reversed) {
  const int rank = NumDimensions(input);
  reversed->assign(rank, false);
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE(context, NumDimensions(axis) <= 1);
  for (int64_t i = 0; i < NumElements(axis); ++i) {
    int a = axis->data.i32[i];
    if (a < -rank || a >= rank) {
      TF_LITE_KERNEL_LOG(context, "REVERSE_V2: axis %d out of range for a %d-D input.", a, rank);
      return kTfLiteError;
    }
    if (a < 0) a += rank;
    if ((*reversed)[a]) {
      TF_LITE_KERNEL_LOG(context, "REVERSE_V2: axis %d given twice.", a);
      return kTfLiteError;
    }
    (*reversed)[a] = true;
  }
  // As TFLite's kernel: several axes must be adjacent dims.
  int first = -1, last = -1, count = 0;
  for (int d = 0; d < rank; ++d) {
    if (!(*reversed)[d]) continue;
    if (first < 0) first = d;
    last = d;
    ++count;
  }
  if (count > 0 && last - first + 1 != count) {
    TF_LITE_KERNEL_LOG(context, "Non-contiguous `axes` not supported");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &axis));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  if (input->type == kTfLiteString || TfLiteTypeGetSize(input->type) == 0) {
    TF_LITE_KERNEL_LOG(context, "REVERSE_V2: type %s not supported.", TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  if (IsConstantOrPersistentTensor(axis)) {
    std::vector<bool> reversed;
    TF_LITE_ENSURE_OK(context, ReversedDims(context, input, axis, &reversed));
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  std::vector<bool> reversed;
  TF_LITE_ENSURE_OK(context, ReversedDims(context, input, axis, &reversed));
  const int rank = NumDimensions(input);
  const size_t element = TfLiteTypeGetSize(input->type);
  const int64_t count = NumElements(input);
  if (count == 0) return kTfLiteOk;
  // Row-major walk over the output; the source index mirrors the reversed dims. The
  // innermost dim is copied as a block when it is not reversed.
  const int inner = rank == 0 ? 1 : SizeOfDimension(input, rank - 1);
  const bool inner_reversed = rank > 0 && reversed[rank - 1];
  std::vector<int64_t> stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * SizeOfDimension(input, d + 1);
  const auto* src = reinterpret_cast<const uint8_t*>(input->data.raw);
  auto* dst = reinterpret_cast<uint8_t*>(output->data.raw);
  std::vector<int> index(rank, 0);
  for (int64_t row = 0; row < count / inner; ++row) {
    int64_t offset = 0;
    for (int d = 0; d + 1 < rank; ++d) {
      const int i = reversed[d] ? SizeOfDimension(input, d) - 1 - index[d] : index[d];
      offset += i * stride[d];
    }
    uint8_t* out_row = dst + static_cast<size_t>(row) * inner * element;
    const uint8_t* in_row = src + static_cast<size_t>(offset) * element;
    if (!inner_reversed) {
      std::memcpy(out_row, in_row, static_cast<size_t>(inner) * element);
    } else {
      for (int c = 0; c < inner; ++c) {
        std::memcpy(out_row + static_cast<size_t>(c) * element,
                    in_row + static_cast<size_t>(inner - 1 - c) * element, element);
      }
    }
    for (int d = rank - 2; d >= 0; --d) {  // next row index
      if (++index[d] < SizeOfDimension(input, d)) break;
      index[d] = 0;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace reverse_v2

TfLiteRegistration* Register_REVERSE_V2() {
  static TfLiteRegistration r = {nullptr, nullptr, reverse_v2::Prepare, reverse_v2::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
