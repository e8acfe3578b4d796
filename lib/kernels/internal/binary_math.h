// Shared implementation of FLOOR_DIV, FLOOR_MOD and POW: two inputs of one type broadcast
// NumPy-style (rank <= 8) to an output of that type. Integer kernels can first check the
// divisor / exponent tensor (TFLite rejects a zero integer divisor and negative int32
// exponents in Eval).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_BINARY_MATH_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_BINARY_MATH_H_

#include <cstdint>
#include <initializer_list>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace binary_math {

constexpr int kMaxRank = 8;

inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node,
                            std::initializer_list<TfLiteType> types) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* a;
  const TfLiteTensor* b;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &a));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &b));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, a->type, types));
  TF_LITE_ENSURE_TYPES_EQ(context, b->type, a->type);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, a->type);
  TF_LITE_ENSURE_MSG(context, NumDimensions(a) <= kMaxRank && NumDimensions(b) <= kMaxRank,
                     "inputs of rank > 8 are not supported");
  TfLiteIntArray* shape = nullptr;
  if (HaveSameShapes(a, b)) {
    shape = TfLiteIntArrayCopy(a->dims);
  } else {
    TF_LITE_ENSURE_OK(context, CalculateShapeForBroadcast(context, a, b, &shape));
  }
  return context->ResizeTensor(context, output, shape);
}

// True when some element of the second input satisfies `bad`.
template <typename T, typename Pred>
bool AnyInSecond(TfLiteContext* context, TfLiteNode* node, Pred bad) {
  const TfLiteTensor* b = GetInput(context, node, 1);
  const T* p = GetTensorData<T>(b);
  for (int64_t i = 0; i < NumElements(b); ++i) {
    if (bad(p[i])) return true;
  }
  return false;
}

template <typename T, typename F>
TfLiteStatus Broadcast(TfLiteContext* context, TfLiteNode* node, F f) {
  const TfLiteTensor* a = GetInput(context, node, 0);
  const TfLiteTensor* b = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int rank = NumDimensions(output);
  int64_t strides[2][8];
  shape_util::BroadcastStrides(a->dims, output->dims->data, rank, strides[0]);
  shape_util::BroadcastStrides(b->dims, output->dims->data, rank, strides[1]);
  const T* pa = GetTensorData<T>(a);
  const T* pb = GetTensorData<T>(b);
  T* out = GetTensorData<T>(output);
  int64_t step[2];
  if (shape_util::FlatSteps<2>(output->dims->data, rank, strides, step)) {
    const int64_t n = NumElements(output);
    shape_util::WithSteps(step, [&](auto as, auto bs) {
      for (int64_t i = 0; i < n; ++i) {
        out[i] = f(pa[i * decltype(as)::value], pb[i * decltype(bs)::value]);
      }
    });
    return kTfLiteOk;
  }
  shape_util::ForEachBroadcast<2>(
      output->dims->data, rank, strides,
      [&](int64_t i, const int64_t* off) { out[i] = f(pa[off[0]], pb[off[1]]); });
  return kTfLiteOk;
}

// Ops on the 8-, 16- and 32-bit integer types (BITWISE_XOR, RIGHT_SHIFT), as TFLite's:
// Prepare takes inputs of any one type (their broadcast shape); Eval runs f(a, b) (called
// with both values of the element type) on those types and refuses the others with
// TFLite's message naming the op (`name`: "BitwiseXor").
inline TfLiteStatus PrepareAnyType(TfLiteContext* context, TfLiteNode* node) {
  return Prepare(
      context, node,
      {kTfLiteInt8, kTfLiteInt16, kTfLiteInt32, kTfLiteUInt8, kTfLiteUInt16, kTfLiteUInt32,
       kTfLiteInt64, kTfLiteUInt64, kTfLiteFloat16, kTfLiteFloat32, kTfLiteFloat64, kTfLiteBool});
}
template <typename F>
TfLiteStatus EvalSmallIntegers(TfLiteContext* context, TfLiteNode* node, const char* name, F f) {
  const TfLiteType type = GetInput(context, node, 0)->type;
  switch (type) {
    case kTfLiteInt8:
      return Broadcast<int8_t>(context, node, f);
    case kTfLiteInt16:
      return Broadcast<int16_t>(context, node, f);
    case kTfLiteInt32:
      return Broadcast<int32_t>(context, node, f);
    case kTfLiteUInt8:
      return Broadcast<uint8_t>(context, node, f);
    case kTfLiteUInt16:
      return Broadcast<uint16_t>(context, node, f);
    case kTfLiteUInt32:
      return Broadcast<uint32_t>(context, node, f);
    default:
      TF_LITE_KERNEL_LOG(context,
                         "%s currently only supports 8-bit/16-bit/32-bit integer/unsigned "
                         "integer, got %s",
                         name, TfLiteTypeGetName(type));
      return kTfLiteError;
  }
}

}  // namespace binary_math
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_BINARY_MATH_H_
