// MIRROR_PAD: pads each dimension of the input by mirroring, as TFLite's mirror_pad.cc.
// REFLECT leaves the border element out of the mirror ([1 2 3] pad 2 -> 3 2 1 2 3 2 1),
// SYMMETRIC repeats it ([1 2 3] pad 2 -> 2 1 1 2 3 3 2). Paddings are an int32 or int64
// [rank, 2] tensor; a non-constant one makes the output dynamic. v1: float32, uint8,
// int32, int64; v2: int8; v3: int16. Elements are only copied, so quantized tensors
// pass through unchanged.
#include <cstdint>
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
namespace mirror_pad {
namespace {

// 1 for REFLECT (the border is not repeated), 0 for SYMMETRIC.
int Offset(const TfLiteMirrorPaddingParams& p) {
  return p.mode == kTfLiteMirrorPaddingReflect ? 1 : 0;
}

// Checks the paddings against the input and resizes the output.
TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteMirrorPaddingParams& p,
                          const TfLiteTensor* input, const TfLiteTensor* paddings,
                          TfLiteTensor* output) {
  const int rank = NumDimensions(input);
  const int offset = Offset(p);
  TfLiteIntArray* out = TfLiteIntArrayCreate(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t before = shape_util::IndexAt(paddings, 2 * d);
    const int64_t after = shape_util::IndexAt(paddings, 2 * d + 1);
    const int64_t n = input->dims->data[d];
    if (before < 0 || after < 0 || before > n - offset || after > n - offset) {
      TF_LITE_KERNEL_LOG(context,
                         "MIRROR_PAD: paddings [%lld, %lld] of dimension %d (size %lld) must be in "
                         "[0, %lld] for %s mode.",
                         static_cast<long long>(before), static_cast<long long>(after), d,
                         static_cast<long long>(n), static_cast<long long>(n - offset),
                         offset ? "REFLECT" : "SYMMETRIC");
      TfLiteIntArrayFree(out);
      return kTfLiteError;
    }
    out->data[d] = static_cast<int>(n + before + after);
  }
  return context->ResizeTensor(context, output, out);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const auto* params = static_cast<const TfLiteMirrorPaddingParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE(context, params->mode == kTfLiteMirrorPaddingReflect ||
                              params->mode == kTfLiteMirrorPaddingSymmetric);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  const TfLiteTensor* paddings;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &paddings));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, paddings->type, {kTfLiteInt32, kTfLiteInt64}));
  const int rank = NumDimensions(input);
  TF_LITE_ENSURE_EQ(context, NumDimensions(paddings), 2);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(paddings, 0), rank);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(paddings, 1), 2);
  if (!IsConstantOrPersistentTensor(paddings)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, *params, input, paddings, output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteMirrorPaddingParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* paddings = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, params, input, paddings, output));
  }
  const int rank = NumDimensions(input);
  if (NumElements(output) == 0) return kTfLiteOk;
  if (rank == 0) {
    std::memcpy(output->data.raw, input->data.raw_const, output->bytes);
    return kTfLiteOk;
  }
  const int offset = Offset(params);
  // Per dimension: the source index of every output index.
  std::vector<std::vector<int64_t>> src(rank);
  std::vector<int64_t> in_strides(rank);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_strides[d] = stride;
    stride *= input->dims->data[d];
  }
  for (int d = 0; d < rank; ++d) {
    const int64_t n = input->dims->data[d];
    const int64_t before = shape_util::IndexAt(paddings, 2 * d);
    src[d].resize(output->dims->data[d]);
    for (int64_t o = 0; o < output->dims->data[d]; ++o) {
      int64_t i = o - before;
      if (i < 0) i = -i - (1 - offset);
      if (i >= n) i = 2 * n - 1 - offset - i;
      src[d][o] = i * in_strides[d];
    }
  }
  const size_t elem = TfLiteTypeGetSize(input->type);
  const char* in = input->data.raw_const;
  char* out = output->data.raw;
  // Odometer over the output's leading dimensions; the innermost is one loop.
  std::vector<int> idx(rank, 0);
  const int inner = output->dims->data[rank - 1];
  const int64_t outer = NumElements(output) / inner;
  for (int64_t r = 0; r < outer; ++r) {
    int64_t base = 0;
    for (int d = 0; d < rank - 1; ++d) base += src[d][idx[d]];
    const std::vector<int64_t>& last = src[rank - 1];
    for (int x = 0; x < inner; ++x) {
      std::memcpy(out, in + (base + last[x]) * elem, elem);
      out += elem;
    }
    for (int d = rank - 2; d >= 0; --d) {
      if (++idx[d] < output->dims->data[d]) break;
      idx[d] = 0;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace mirror_pad

TfLiteRegistration* Register_MIRROR_PAD() {
  static TfLiteRegistration r = {nullptr, nullptr, mirror_pad::Prepare, mirror_pad::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
