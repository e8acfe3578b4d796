// Shared implementation of SELECT and SELECT_V2: out = condition ? x : y, elementwise.
// SELECT (v1 semantics): x and y of one shape; the condition has that shape, is a scalar,
// or is 1-D with x.dims[0] entries (picks whole rows). SELECT_V2: the three inputs
// broadcast NumPy-style (rank <= 8). Elements are moved as bytes, so every fixed-size
// type works; the kernels list the types TFLite accepts.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SELECT_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SELECT_H_

#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace select_op {

constexpr int kMaxRank = 8;

inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, bool broadcast) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* cond;
  const TfLiteTensor* x;
  const TfLiteTensor* y;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &cond));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &x));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &y));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_TYPES_EQ(context, cond->type, kTfLiteBool);
  TF_LITE_ENSURE_OK(
      context, shape_util::CheckType(context, x->type,
                                     {kTfLiteBool, kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                      kTfLiteInt16, kTfLiteInt32, kTfLiteUInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, x->type, y->type);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, x->type);
  for (const TfLiteTensor* t : {cond, x, y}) {
    TF_LITE_ENSURE_MSG(context, NumDimensions(t) <= kMaxRank, "SELECT: rank > 8");
  }
  TfLiteIntArray* shape = nullptr;
  if (broadcast) {
    TF_LITE_ENSURE_OK(context, CalculateShapeForBroadcast(context, cond, x, y, &shape));
  } else {
    TF_LITE_ENSURE_MSG(context, HaveSameShapes(x, y), "SELECT: x and y differ in shape");
    const bool ok = HaveSameShapes(cond, x) || NumDimensions(cond) == 0 ||
                    (NumDimensions(cond) == 1 && NumDimensions(x) >= 1 &&
                     SizeOfDimension(cond, 0) == SizeOfDimension(x, 0));
    TF_LITE_ENSURE_MSG(context, ok,
                       "SELECT: condition must match x, be a scalar, or be 1-D over dim 0");
    shape = TfLiteIntArrayCopy(x->dims);
  }
  return context->ResizeTensor(context, output, shape);
}

inline TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, bool broadcast) {
  const TfLiteTensor* cond = GetInput(context, node, 0);
  const TfLiteTensor* x = GetInput(context, node, 1);
  const TfLiteTensor* y = GetInput(context, node, 2);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int rank = NumDimensions(output);
  int64_t strides[3][8];
  if (!broadcast && NumDimensions(cond) == 1 && !HaveSameShapes(cond, x)) {
    // Rank-one condition: one flag per row (dim 0), aligned to the left.
    for (int d = 0; d < rank; ++d) strides[0][d] = d == 0 ? 1 : 0;
  } else {
    shape_util::BroadcastStrides(cond->dims, output->dims->data, rank, strides[0]);
  }
  shape_util::BroadcastStrides(x->dims, output->dims->data, rank, strides[1]);
  shape_util::BroadcastStrides(y->dims, output->dims->data, rank, strides[2]);
  const size_t elem = shape_util::ElementBytes(x->type);
  const bool* c = cond->data.b;
  const char* px = x->data.raw_const;
  const char* py = y->data.raw_const;
  char* out = output->data.raw;
  shape_util::ForEachBroadcast<3>(
      output->dims->data, rank, strides, [&](int64_t i, const int64_t* off) {
        const char* src = c[off[0]] ? px + off[1] * elem : py + off[2] * elem;
        std::memcpy(out + i * elem, src, elem);
      });
  return kTfLiteOk;
}

}  // namespace select_op
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SELECT_H_
