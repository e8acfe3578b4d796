// GATHER_ND: indices [..., nd] address slices of params; output = indices.shape[:-1] +
// params.shape[nd:], as TFLite's gather_nd.cc. An index outside params fails Eval with a
// message. v1 float32/uint8/int32/int64, v2 string, v3 int16 params, v4 int16 indices,
// v5 bool (also int8).
#include <cstring>
#include <vector>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace gather_nd {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* params;
  const TfLiteTensor* indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &params));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &indices));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(
      context, shape_util::CheckType(context, params->type,
                                     {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64, kTfLiteBool, kTfLiteString}));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, indices->type,
                                                   {kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, params->type);
  const int params_rank = NumDimensions(params);
  const int indices_rank = NumDimensions(indices);
  TF_LITE_ENSURE_MSG(context, params_rank >= 1, "Params must be at least a vector.");
  TF_LITE_ENSURE_MSG(context, indices_rank >= 1, "Indices must be at least a vector.");
  const int nd = SizeOfDimension(indices, indices_rank - 1);
  TF_LITE_ENSURE_MSG(context, nd <= params_rank,
                     "Index innermost dimension length must be <= params rank.");
  TfLiteIntArray* shape = TfLiteIntArrayCreate(indices_rank - 1 + params_rank - nd);
  int k = 0;
  for (int i = 0; i < indices_rank - 1; ++i) shape->data[k++] = indices->dims->data[i];
  for (int i = nd; i < params_rank; ++i) shape->data[k++] = params->dims->data[i];
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* params = GetInput(context, node, 0);
  const TfLiteTensor* indices = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int indices_rank = NumDimensions(indices);
  const int nd = SizeOfDimension(indices, indices_rank - 1);
  const int64_t n = shape_util::Product(indices->dims, 0, indices_rank - 1);
  const int64_t slice = shape_util::Product(params->dims, nd, NumDimensions(params));
  // Slice number in params of every index tuple, checked first.
  std::vector<int64_t> offsets(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int j = 0; j < nd; ++j) {
      const int64_t index = shape_util::IndexAt(indices, i * nd + j);
      const int dim = SizeOfDimension(params, j);
      if (index < 0 || index >= dim) {
        TF_LITE_KERNEL_LOG(context, "GATHER_ND: index %lld is out of bounds [0, %d)",
                           static_cast<long long>(index), dim);
        return kTfLiteError;
      }
      offset = offset * dim + index;
    }
    offsets[i] = offset;
  }
  if (params->type == kTfLiteString) {
    return shape_util::GatherStrings(context, params, output, NumElements(output), [&](int64_t e) {
      return offsets[e / slice] * slice + e % slice;
    });
  }
  const size_t bytes = static_cast<size_t>(slice) * shape_util::ElementBytes(params->type);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(output->data.raw + i * bytes, params->data.raw_const + offsets[i] * bytes, bytes);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace gather_nd

TfLiteRegistration* Register_GATHER_ND() {
  static TfLiteRegistration r = {nullptr, nullptr, gather_nd::Prepare, gather_nd::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
