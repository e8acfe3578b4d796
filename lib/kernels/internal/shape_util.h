// Shared helpers of the shape/data-movement kernels (SPLIT, SPLIT_V, PACK, UNPACK, GATHER,
// GATHER_ND, TILE, SLICE, ...): type checks with TFLite's message, axis normalization,
// products of dimension ranges and the "shape known now, or make the output dynamic"
// pattern. Header-only and stateless; errors go through the TfLiteContext.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SHAPE_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SHAPE_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <initializer_list>
#include <vector>

#include "kernels/internal/string_tensor.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace shape_util {

inline TfLiteStatus UnsupportedType(TfLiteContext* context, TfLiteType type) {
  TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(type), type);
  return kTfLiteError;
}

// kTfLiteOk when `type` is one of `types`, else logs TFLite's message.
inline TfLiteStatus CheckType(TfLiteContext* context, TfLiteType type,
                              std::initializer_list<TfLiteType> types) {
  if (std::find(types.begin(), types.end(), type) != types.end()) return kTfLiteOk;
  return UnsupportedType(context, type);
}

// Maps axis in [-rank, rank) to [0, rank); logs and fails otherwise.
inline TfLiteStatus NormalizeAxis(TfLiteContext* context, int64_t axis, int rank, int* out) {
  if (axis < -rank || axis >= rank) {
    TF_LITE_KERNEL_LOG(context, "axis %lld is out of range for rank %d",
                       static_cast<long long>(axis), rank);
    return kTfLiteError;
  }
  *out = static_cast<int>(axis < 0 ? axis + rank : axis);
  return kTfLiteOk;
}

// Product of dims[begin, end).
inline int64_t Product(const TfLiteIntArray* dims, int begin, int end) {
  int64_t p = 1;
  for (int i = begin; i < end; ++i) p *= dims->data[i];
  return p;
}

// The rows of a box (the elements [start, start + box) in each dimension) inside a
// row-major array of shape `dims`, rank 1 to kMaxBoxRank: calls f(offset, r) for the box's
// r-th row (a run of box[rank - 1] elements along the last dimension), offset being the
// row's first element in the array. What SLICE reads and DYNAMIC_UPDATE_SLICE writes.
constexpr int kMaxBoxRank = 8;
template <typename Start, typename F>
void ForEachBoxRow(const int* dims, const Start* start, const int* box, int rank, F&& f) {
  int64_t stride[kMaxBoxRank];
  int64_t offset = 0, s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    stride[d] = s;
    offset += static_cast<int64_t>(start[d]) * s;
    s *= dims[d];
  }
  int64_t rows = 1;
  for (int d = 0; d + 1 < rank; ++d) rows *= box[d];
  int64_t index[kMaxBoxRank] = {};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t at = offset;
    for (int d = 0; d + 1 < rank; ++d) at += index[d] * stride[d];
    f(at, r);
    for (int d = rank - 2; d >= 0; --d) {
      if (++index[d] < box[d]) break;
      index[d] = 0;
    }
  }
}

// Element size in bytes of a fixed-size type (bool counts as 1); 0 otherwise.
inline size_t ElementBytes(TfLiteType type) {
  if (type == kTfLiteBool) return sizeof(bool);
  const int size = TfLiteTypeGetSize(type);
  return size > 0 ? static_cast<size_t>(size) : 0;
}

// Reads element i of an integer tensor (int16, int32 or int64) as int64.
inline int64_t IndexAt(const TfLiteTensor* t, int64_t i) {
  switch (t->type) {
    case kTfLiteInt16:
      return t->data.i16[i];
    case kTfLiteInt64:
      return t->data.i64[i];
    default:
      return t->data.i32[i];
  }
}

// The output's shape can be computed in Prepare only if every listed tensor is constant.
inline bool AllConstant(std::initializer_list<const TfLiteTensor*> tensors) {
  for (const TfLiteTensor* t : tensors) {
    if (t != nullptr && !IsConstantOrPersistentTensor(t)) return false;
  }
  return true;
}

// Strides (in elements) of `dims` right-aligned to a rank-`rank` shape, with 0 for
// broadcast (size-1) dimensions: walking the output with these visits the input element
// each output element takes under NumPy broadcasting. `dims` must be broadcastable.
inline void BroadcastStrides(const TfLiteIntArray* dims, const int* out_dims, int rank,
                             int64_t* strides) {
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int in_d = d - (rank - dims->size);
    const int size = in_d >= 0 ? dims->data[in_d] : 1;
    strides[d] = (size == 1 && out_dims[d] != 1) ? 0 : stride;
    stride *= size;
  }
}

// Whether each of N broadcast inputs (strides from BroadcastStrides) reads the output's
// elements in order (contiguous: the output's own strides) or one value throughout (all
// 0): step[k] 1 or 0. False where some input is broadcast along part of the dimensions.
template <int N>
bool FlatSteps(const int* out_dims, int rank, const int64_t (*strides)[8], int64_t (&step)[N]) {
  for (int k = 0; k < N; ++k) {
    bool all_zero = true, contiguous = true;
    int64_t expect = 1;
    for (int d = rank - 1; d >= 0; --d) {
      // (A dimension of 1 in the output is never stepped over: its stride is moot.)
      all_zero = all_zero && (strides[k][d] == 0 || out_dims[d] == 1);
      contiguous = contiguous && (strides[k][d] == expect || out_dims[d] == 1);
      expect *= out_dims[d];
    }
    if (!all_zero && !contiguous) return false;
    step[k] = all_zero ? 0 : 1;
  }
  return true;
}

// f(s0, ..., sN-1) with each s_k a std::integral_constant<int64_t, step[k]>: loops that
// index input k at i * s_k have compile-time steps, which the compiler vectorizes.
template <int K = 0, int N, typename F, typename... S>
void WithSteps(const int64_t (&step)[N], F&& f, S... s) {
  if constexpr (K == N) {
    f(s...);
  } else if (step[K] != 0) {
    WithSteps<K + 1>(step, f, s..., std::integral_constant<int64_t, 1>());
  } else {
    WithSteps<K + 1>(step, f, s..., std::integral_constant<int64_t, 0>());
  }
}

// Calls f(out_index, in_offsets...) for every element of the rank-`rank` output, where
// each input offset follows its strides (see BroadcastStrides). Up to 8 dimensions.
template <int N, typename F>
void ForEachBroadcast(const int* out_dims, int rank, const int64_t (*strides)[8], F&& f) {
  int64_t total = 1;
  for (int d = 0; d < rank; ++d) total *= out_dims[d];
  if (total == 0) return;
  int idx[8] = {0};
  int64_t off[N] = {0};
  for (int64_t i = 0; i < total; ++i) {
    f(i, off);
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < out_dims[d]) {
        for (int k = 0; k < N; ++k) off[k] += strides[k][d];
        break;
      }
      idx[d] = 0;
      for (int k = 0; k < N; ++k) off[k] -= strides[k][d] * (out_dims[d] - 1);
    }
  }
}

// String tensors: out[i] = in[src(i)] for the `count` elements of out (whose dims are set).
template <typename Src>
TfLiteStatus GatherStrings(TfLiteContext* context, const TfLiteTensor* in, TfLiteTensor* out,
                           int64_t count, Src src) {
  namespace st = ops::builtin::string_tensor;
  TF_LITE_ENSURE_OK(context, st::Validate(context, in));
  std::vector<st::StringRef> strings;
  strings.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) strings.push_back(st::Get(in, src(i)));
  return st::Write(context, strings, out);
}

// Source element of output element i of TILE-like index maps: out dims `out_dims`, each
// coordinate taken modulo `in_dims` (row-major).
inline int64_t ModularSource(const TfLiteIntArray* in_dims, const TfLiteIntArray* out_dims,
                             int64_t i) {
  int64_t src = 0, stride = 1;
  for (int d = out_dims->size - 1; d >= 0; --d) {
    const int64_t c = i % out_dims->data[d];
    i /= out_dims->data[d];
    src += (c % in_dims->data[d]) * stride;
    stride *= in_dims->data[d];
  }
  return src;
}

}  // namespace shape_util
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SHAPE_UTIL_H_
