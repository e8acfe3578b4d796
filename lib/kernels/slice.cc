// SLICE: output = input[begin : begin + size] per dimension (size -1: to the end), as
// TFLite's slice.cc. begin/size are 1-D int32/int64; when either is not constant the
// output is dynamic and sized in Eval. Up to 6 dimensions. v1 float32/uint8/int32/int64/
// bool/int16, v2 int8, v3 string, v4 int16, v5 rank 5, v6 uint32.
#include <cstring>
#include <vector>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace slice {
namespace {

constexpr int kMaxDims = 6;

TfLiteStatus Bounds(TfLiteContext* context, TfLiteNode* node, std::vector<int>* begin,
                    std::vector<int>* size) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* begin_t = GetInput(context, node, 1);
  const TfLiteTensor* size_t_ = GetInput(context, node, 2);
  const int rank = NumDimensions(input);
  TF_LITE_ENSURE_EQ(context, NumElements(begin_t), rank);
  TF_LITE_ENSURE_EQ(context, NumElements(size_t_), rank);
  begin->resize(rank);
  size->resize(rank);
  for (int i = 0; i < rank; ++i) {
    const int64_t b = shape_util::IndexAt(begin_t, i);
    int64_t s = shape_util::IndexAt(size_t_, i);
    const int dim = SizeOfDimension(input, i);
    // Compared without b + s: crafted int64 values would overflow it.
    const bool begin_ok = b >= 0 && b <= dim;
    if (begin_ok && s == -1) s = dim - b;
    if (!begin_ok || s < 0 || s > dim - b) {
      TF_LITE_KERNEL_LOG(context,
                         "SLICE: begin %lld, size %lld out of range for dimension %d of size %d",
                         static_cast<long long>(b), static_cast<long long>(s), i, dim);
      return kTfLiteError;
    }
    (*begin)[i] = static_cast<int>(b);
    (*size)[i] = static_cast<int>(s);
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  std::vector<int> begin, size;
  TF_LITE_ENSURE_OK(context, Bounds(context, node, &begin, &size));
  TfLiteIntArray* shape = TfLiteIntArrayCreate(static_cast<int>(size.size()));
  for (size_t i = 0; i < size.size(); ++i) shape->data[i] = size[i];
  return context->ResizeTensor(context, GetOutput(context, node, 0), shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* begin;
  const TfLiteTensor* size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &begin));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &size));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt16, kTfLiteInt32, kTfLiteUInt32,
                                                    kTfLiteInt64, kTfLiteBool, kTfLiteString}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_OK(context,
                    shape_util::CheckType(context, begin->type, {kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, size->type, begin->type);
  TF_LITE_ENSURE_EQ(context, NumDimensions(begin), 1);
  TF_LITE_ENSURE_EQ(context, NumDimensions(size), 1);
  TF_LITE_ENSURE_MSG(context, NumDimensions(input) <= kMaxDims,
                     "Slice op only supports 1D-6D input arrays.");
  if (!shape_util::AllConstant({begin, size})) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, node));
  std::vector<int> begin, size;
  TF_LITE_ENSURE_OK(context, Bounds(context, node, &begin, &size));
  const int rank = NumDimensions(input);
  if (input->type == kTfLiteString) {
    return shape_util::GatherStrings(context, input, output, NumElements(output), [&](int64_t i) {
      int64_t src = 0, stride = 1;
      for (int d = rank - 1; d >= 0; --d) {
        src += (begin[d] + i % size[d]) * stride;
        i /= size[d];
        stride *= input->dims->data[d];
      }
      return src;
    });
  }
  const size_t elem = shape_util::ElementBytes(input->type);
  if (NumElements(output) == 0) return kTfLiteOk;
  if (rank == 0) {
    std::memcpy(output->data.raw, input->data.raw_const, elem);
    return kTfLiteOk;
  }
  // One copy per row of the innermost dimension.
  const size_t row = static_cast<size_t>(size[rank - 1]) * elem;
  char* out = output->data.raw;
  const char* in = input->data.raw_const;
  shape_util::ForEachBoxRow(input->dims->data, begin.data(), size.data(), rank,
                            [&](int64_t offset, int64_t r) {
                              std::memcpy(out + r * static_cast<int64_t>(row),
                                          in + offset * static_cast<int64_t>(elem), row);
                            });
  return kTfLiteOk;
}

}  // namespace
}  // namespace slice

TfLiteRegistration* Register_SLICE() {
  static TfLiteRegistration r = {nullptr, nullptr, slice::Prepare, slice::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
