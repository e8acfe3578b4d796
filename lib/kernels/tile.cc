// TILE: output dim i = input dim i * multiples[i], as TFLite's tile.cc. multiples is a
// 1-D int32/int64 tensor; when it is not constant the output is dynamic and sized in Eval.
// v1 float32/uint8/int16/int32/int64/bool, v2 string, v3 int8.
#include <cstring>
#include <vector>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace tile {
namespace {

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* multiples, TfLiteTensor* output) {
  const int rank = NumDimensions(input);
  TF_LITE_ENSURE_EQ(context, NumElements(multiples), rank);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(rank);
  for (int i = 0; i < rank; ++i) {
    const int64_t m = shape_util::IndexAt(multiples, i);
    const int64_t d = static_cast<int64_t>(input->dims->data[i]) * m;
    if (m < 0 || d > INT32_MAX) {
      TfLiteIntArrayFree(shape);
      TF_LITE_KERNEL_LOG(context, "TILE: multiples[%d] = %lld is invalid", i,
                         static_cast<long long>(m));
      return kTfLiteError;
    }
    shape->data[i] = static_cast<int>(d);
  }
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* multiples;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &multiples));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(
      context, shape_util::CheckType(context, input->type,
                                     {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64, kTfLiteBool, kTfLiteString}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_EQ(context, NumDimensions(multiples), 1);
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, multiples->type, {kTfLiteInt32, kTfLiteInt64}));
  if (!IsConstantOrPersistentTensor(multiples)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, input, multiples, output);
}

// Writes the tiling of input dims [d, rank) at `out`; returns the bytes written.
size_t TileDim(const TfLiteTensor* input, const TfLiteTensor* multiples, int d, const char* in,
               char* out, size_t elem) {
  const int rank = NumDimensions(input);
  const int size = input->dims->data[d];
  const int64_t m = shape_util::IndexAt(multiples, d);
  size_t written = 0;
  if (d == rank - 1) {
    written = static_cast<size_t>(size) * elem;
    if (written > 0) std::memcpy(out, in, written);
  } else {
    const size_t in_stride =
        static_cast<size_t>(shape_util::Product(input->dims, d + 1, rank)) * elem;
    for (int i = 0; i < size; ++i) {
      written += TileDim(input, multiples, d + 1, in + i * in_stride, out + written, elem);
    }
  }
  for (int64_t k = 1; k < m; ++k) std::memcpy(out + k * written, out, written);
  return written * static_cast<size_t>(m);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* multiples = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, input, multiples, output));
  }
  if (input->type == kTfLiteString) {
    return shape_util::GatherStrings(context, input, output, NumElements(output), [&](int64_t i) {
      return shape_util::ModularSource(input->dims, output->dims, i);
    });
  }
  if (NumElements(output) == 0) return kTfLiteOk;
  if (NumDimensions(input) == 0) {
    std::memcpy(output->data.raw, input->data.raw_const, shape_util::ElementBytes(input->type));
    return kTfLiteOk;
  }
  TileDim(input, multiples, 0, input->data.raw_const, output->data.raw,
          shape_util::ElementBytes(input->type));
  return kTfLiteOk;
}

}  // namespace
}  // namespace tile

TfLiteRegistration* Register_TILE() {
  static TfLiteRegistration r = {nullptr, nullptr, tile::Prepare, tile::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
