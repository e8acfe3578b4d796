// Shared implementation of the comparison kernels (EQUAL, NOT_EQUAL, LESS, LESS_EQUAL,
// GREATER, GREATER_EQUAL) and the binary logical kernels (LOGICAL_AND, LOGICAL_OR): two
// inputs of one type broadcast NumPy-style to a bool output (rank <= 8).
//
// uint8/int8 inputs are compared after TFLite's rescaling (reference_ops::
// ComparisonWithScaling): (q - zero_point) << 8, times the input's scale as a
// QuantizeMultiplierSmallerThanOneExp multiplier, so inputs with different scales compare
// by real value with TFLite's exact rounding. Other types (bool, float32, int16, int32,
// int64) compare raw values, strings as byte strings; each kernel lists the types TFLite
// accepts for it.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_COMPARISON_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_COMPARISON_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace comparison {

constexpr int kMaxRank = 8;

// Two inputs of one type in `types`, a bool output of the broadcast shape.
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
  TF_LITE_ENSURE_TYPES_EQ(context, a->type, b->type);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteBool);
  TF_LITE_ENSURE_MSG(context, NumDimensions(a) <= kMaxRank && NumDimensions(b) <= kMaxRank,
                     "comparison inputs of rank > 8 are not supported");
  if (a->type == kTfLiteUInt8 || a->type == kTfLiteInt8) {
    for (const TfLiteTensor* t : {a, b}) {
      TF_LITE_ENSURE_MSG(context, t->params.scale > 0 && t->params.scale < 1,
                         "quantized comparison needs input scales in (0, 1)");
    }
  }
  TfLiteIntArray* shape = nullptr;
  if (HaveSameShapes(a, b)) {
    shape = TfLiteIntArrayCopy(a->dims);
  } else {
    TF_LITE_ENSURE_OK(context, CalculateShapeForBroadcast(context, a, b, &shape));
  }
  return context->ResizeTensor(context, output, shape);
}

// out[i] = op(load_a(a[ia]), load_b(b[ib])) over the broadcast output.
template <typename T, typename Load, typename Op>
void Broadcast(const TfLiteTensor* a, const TfLiteTensor* b, TfLiteTensor* output, Load load_a,
               Load load_b, Op op) {
  const int rank = NumDimensions(output);
  int64_t strides[2][8];
  shape_util::BroadcastStrides(a->dims, output->dims->data, rank, strides[0]);
  shape_util::BroadcastStrides(b->dims, output->dims->data, rank, strides[1]);
  const T* pa = reinterpret_cast<const T*>(a->data.raw_const);
  const T* pb = reinterpret_cast<const T*>(b->data.raw_const);
  bool* out = output->data.b;
  int64_t step[2];
  if (shape_util::FlatSteps<2>(output->dims->data, rank, strides, step)) {
    // Same shapes or a single value (x > 0): one pass, compile-time steps.
    const int64_t n = NumElements(output);
    shape_util::WithSteps(step, [&](auto as, auto bs) {
      for (int64_t i = 0; i < n; ++i) {
        out[i] = op(load_a(pa[i * decltype(as)::value]), load_b(pb[i * decltype(bs)::value]));
      }
    });
    return;
  }
  shape_util::ForEachBroadcast<2>(
      output->dims->data, rank, strides,
      [&](int64_t i, const int64_t* off) { out[i] = op(load_a(pa[off[0]]), load_b(pb[off[1]])); });
}

struct Raw {
  template <typename T>
  T operator()(T v) const {
    return v;
  }
};

// TFLite's rescaled value of a uint8/int8 element (see the file comment).
struct Rescaled {
  explicit Rescaled(const TfLiteTensor* t) : zero_point(t->params.zero_point) {
    QuantizeMultiplierSmallerThanOneExp(t->params.scale, &multiplier, &shift);
  }
  template <typename T>
  int32_t operator()(T v) const {
    const int32_t shifted = (static_cast<int32_t>(v) - zero_point) * (1 << 8);
    return MultiplyByQuantizedMultiplierSmallerThanOneExp(shifted, multiplier, shift);
  }
  int32_t zero_point;
  int32_t multiplier = 0;
  int shift = 0;
};

// String tensors compare as byte strings (std::string_view).
template <template <typename> class Op>
TfLiteStatus CompareStrings(TfLiteContext* context, const TfLiteTensor* a, const TfLiteTensor* b,
                            TfLiteTensor* output) {
  namespace st = ops::builtin::string_tensor;
  TF_LITE_ENSURE_OK(context, st::Validate(context, a));
  TF_LITE_ENSURE_OK(context, st::Validate(context, b));
  const int rank = NumDimensions(output);
  int64_t strides[2][8];
  shape_util::BroadcastStrides(a->dims, output->dims->data, rank, strides[0]);
  shape_util::BroadcastStrides(b->dims, output->dims->data, rank, strides[1]);
  bool* out = output->data.b;
  const Op<std::string_view> op;
  shape_util::ForEachBroadcast<2>(
      output->dims->data, rank, strides, [&](int64_t i, const int64_t* off) {
        const st::StringRef x = st::Get(a, off[0]), y = st::Get(b, off[1]);
        out[i] = op(std::string_view(x.data, x.len), std::string_view(y.data, y.len));
      });
  return kTfLiteOk;
}

// Evaluates a comparison `Op` (a functor template like std::less) for the input type;
// `kStrings`: string inputs too (EQUAL, NOT_EQUAL).
template <template <typename> class Op, bool kStrings = false>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* a = GetInput(context, node, 0);
  const TfLiteTensor* b = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  switch (a->type) {
    case kTfLiteBool:
      Broadcast<bool>(a, b, output, Raw(), Raw(), Op<bool>());
      break;
    case kTfLiteFloat32:
      Broadcast<float>(a, b, output, Raw(), Raw(), Op<float>());
      break;
    case kTfLiteInt16:
      Broadcast<int16_t>(a, b, output, Raw(), Raw(), Op<int16_t>());
      break;
    case kTfLiteInt32:
      Broadcast<int32_t>(a, b, output, Raw(), Raw(), Op<int32_t>());
      break;
    case kTfLiteInt64:
      Broadcast<int64_t>(a, b, output, Raw(), Raw(), Op<int64_t>());
      break;
    case kTfLiteUInt8:
      Broadcast<uint8_t>(a, b, output, Rescaled(a), Rescaled(b), Op<int32_t>());
      break;
    case kTfLiteInt8:
      Broadcast<int8_t>(a, b, output, Rescaled(a), Rescaled(b), Op<int32_t>());
      break;
    case kTfLiteString:
      if constexpr (kStrings) return CompareStrings<Op>(context, a, b, output);
      return shape_util::UnsupportedType(context, a->type);
    default:
      return shape_util::UnsupportedType(context, a->type);
  }
  return kTfLiteOk;
}

}  // namespace comparison
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_COMPARISON_H_
