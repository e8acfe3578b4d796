// Shared implementation of SUM, REDUCE_PROD, REDUCE_MAX and REDUCE_MIN (TFLite's
// reduce.cc, reference_ops::ReduceGeneric): `axis` is an int32 tensor of dimensions to
// reduce (negative counts from the end, repeats ignored); keep_dims keeps them as 1.
// The output starts at the reducer's identity and takes every input element in row-major
// order, so float results follow TFLite's reference accumulation order. With a
// non-constant axis the output is dynamic and sized in Eval.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REDUCE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REDUCE_H_

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace reduce {

// Which input dimensions are reduced.
inline TfLiteStatus ReducedDims(TfLiteContext* context, const TfLiteTensor* input,
                                const TfLiteTensor* axis, std::vector<bool>* reduced) {
  const int rank = NumDimensions(input);
  reduced->assign(rank, false);
  for (int64_t i = 0; i < NumElements(axis); ++i) {
    int a = 0;
    TF_LITE_ENSURE_OK(context, shape_util::NormalizeAxis(context, axis->data.i32[i], rank, &a));
    (*reduced)[a] = true;
  }
  return kTfLiteOk;
}

inline TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteReducerParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis = GetInput(context, node, 1);
  std::vector<bool> reduced;
  TF_LITE_ENSURE_OK(context, ReducedDims(context, input, axis, &reduced));
  std::vector<int> dims;
  for (int d = 0; d < NumDimensions(input); ++d) {
    if (!reduced[d]) {
      dims.push_back(input->dims->data[d]);
    } else if (params->keep_dims) {
      dims.push_back(1);
    }
  }
  TfLiteIntArray* shape = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  for (size_t i = 0; i < dims.size(); ++i) shape->data[i] = dims[i];
  return context->ResizeTensor(context, GetOutput(context, node, 0), shape);
}

// Input of one of `types`; unless `rescales`, uint8/int8/int16 inputs must share scale and
// zero point with the output (those are reduced on raw values).
inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node,
                            std::initializer_list<TfLiteType> types, bool rescales = false) {
  TF_LITE_ENSURE(context, node->builtin_data != nullptr);
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &axis));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, input->type, types));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_TYPES_EQ(context, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE(context, NumDimensions(axis) <= 1);
  if (!rescales &&
      (input->type == kTfLiteUInt8 || input->type == kTfLiteInt8 || input->type == kTfLiteInt16)) {
    TF_LITE_ENSURE_MSG(context,
                       input->params.scale == output->params.scale &&
                           input->params.zero_point == output->params.zero_point,
                       "quantized input and output must share scale and zero point");
  }
  if (!IsConstantOrPersistentTensor(axis)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, node);
}

// SUM's, REDUCE_MAX's and REDUCE_MIN's reducers, (current, in) as upstream's: NaN inputs
// are skipped by the maximum and minimum.
struct Add {
  template <typename T>
  T operator()(T a, T b) const {
    return a + b;
  }
};
struct Max {
  template <typename T>
  T operator()(T a, T b) const {
    return b > a ? b : a;
  }
};
struct Min {
  template <typename T>
  T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};

// out[j] = reducer(out[j], in[i]) over an input of shape dims[0..rank) in row-major order,
// reduced[d] the reduced axes, out (out_count elements, Acc typed) starting at init. Also
// the XNNPACK delegate's own SUM / REDUCE_MAX / REDUCE_MIN step: the builtin kernels' bits.
template <typename In, typename Acc, typename Reducer>
void ReduceArray(const In* in, const int* dims, int rank, const std::vector<bool>& reduced,
                 Acc* out, int64_t out_count, Acc init, Reducer reducer) {
  // Output stride of each input dimension (0 for reduced ones), and the walk's index: on
  // the stack up to rank 8 (every Invoke comes here; no allocation there).
  constexpr int kStackRank = 8;
  int64_t stride_buf[kStackRank] = {};
  int idx_buf[kStackRank] = {};
  std::vector<int64_t> stride_heap;
  std::vector<int> idx_heap;
  if (rank > kStackRank) {
    stride_heap.assign(rank, 0);
    idx_heap.assign(rank, 0);
  }
  int64_t* out_stride = rank > kStackRank ? stride_heap.data() : stride_buf;
  int* idx = rank > kStackRank ? idx_heap.data() : idx_buf;
  int64_t stride = 1;
  int64_t in_count = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_count *= dims[d];
    if (!reduced[d]) {
      out_stride[d] = stride;
      stride *= dims[d];
    }
  }
  for (int64_t j = 0; j < out_count; ++j) out[j] = init;
  // Reduced dimensions all trailing (a layer norm's MEAN over the last axis): each output
  // takes one contiguous run, in the same order as the general walk below.
  int first_reduced = rank;
  while (first_reduced > 0 && reduced[first_reduced - 1]) --first_reduced;
  if (out_count > 0 && std::none_of(reduced.begin(), reduced.begin() + first_reduced,
                                    [](bool r) { return r; })) {
    const int64_t inner = in_count / out_count;
    for (int64_t j = 0; j < out_count; ++j) {
      Acc acc = init;
      const In* row = in + j * inner;
      for (int64_t i = 0; i < inner; ++i) acc = reducer(acc, row[i]);
      out[j] = acc;
    }
    return;
  }
  // The reduced dimensions one contiguous block with dimensions after it (a global pooling
  // over the rows of [1, W, C], a MEAN over H and W of NHWC): for each output row, the
  // block's rows folded into it one at a time. Each output sees its inputs in the same
  // order as in the walk below; the loop over a row vectorizes.
  // (Only where the last dimension is kept.)
  int last_reduced = rank;
  while (last_reduced > 0 && !reduced[last_reduced - 1]) --last_reduced;
  int block_start = last_reduced;
  while (block_start > 0 && reduced[block_start - 1]) --block_start;
  if (out_count > 0 && first_reduced == rank && last_reduced > 0 &&
      std::none_of(reduced.begin(), reduced.begin() + block_start, [](bool r) { return r; })) {
    int64_t mid = 1, inner = 1;
    for (int d = block_start; d < last_reduced; ++d) mid *= dims[d];
    for (int d = last_reduced; d < rank; ++d) inner *= dims[d];
    const int64_t outer = out_count / inner;
    for (int64_t o = 0; o < outer; ++o) {
      Acc* row_out = out + o * inner;
      for (int64_t r = 0; r < mid; ++r) {
        const In* row = in + (o * mid + r) * inner;
        for (int64_t c = 0; c < inner; ++c) row_out[c] = reducer(row_out[c], row[c]);
      }
    }
    return;
  }
  int64_t o = 0;
  for (int64_t i = 0; i < in_count; ++i) {
    out[o] = reducer(out[o], in[i]);
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < dims[d]) {
        o += out_stride[d];
        break;
      }
      o -= out_stride[d] * (dims[d] - 1);
      idx[d] = 0;
    }
  }
}

// ReduceArray over the node's input into out (the output's element count), the axes from
// its axis tensor.
template <typename In, typename Acc, typename Reducer>
TfLiteStatus ReduceInto(TfLiteContext* context, TfLiteNode* node, Acc* out, Acc init,
                        Reducer reducer) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis = GetInput(context, node, 1);
  std::vector<bool> reduced;
  TF_LITE_ENSURE_OK(context, ReducedDims(context, input, axis, &reduced));
  ReduceArray<In, Acc>(GetTensorData<In>(input), input->dims->data, NumDimensions(input), reduced,
                       out, NumElements(GetOutput(context, node, 0)), init, reducer);
  return kTfLiteOk;
}

// Reduction straight into the output tensor, in the element type T.
template <typename T, typename Reducer>
TfLiteStatus Reduce(TfLiteContext* context, TfLiteNode* node, T init, Reducer reducer) {
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, node));
  return ReduceInto<T, T>(context, node, GetTensorData<T>(output), init, reducer);
}

}  // namespace reduce
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REDUCE_H_
