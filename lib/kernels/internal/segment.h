// SEGMENT_SUM and UNSORTED_SEGMENT_{SUM,MAX,MIN,PROD}, as TFLite's segment_sum.cc and
// unsorted_segment.cc: rows of data (its first dimension) combined into the output row
// their int32 segment id names; float32 or int32 data.
//   SEGMENT_SUM: ids sorted, from 0, each the last or one more; output [last id + 1, ...].
//   UNSORTED_SEGMENT_*: ids of the shape of the data's leading dimensions, each below
//   num_segments (a scalar or [1] int32), negative ids skipped; output [num_segments] + the
//   data's other dimensions, rows no id names holding the reduction's identity (0, lowest,
//   max, 1).
// TFLite's checks and messages. Its SEGMENT_SUM reads segment ids of rank above 1 past the
// data (every id a row): refused here with a message.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SEGMENT_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SEGMENT_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace segment {

enum class Kind { kSorted, kSum, kMax, kMin, kProd };

inline TfLiteStatus ResizeOutput(TfLiteContext* context, Kind kind, const TfLiteTensor* data,
                                 const TfLiteTensor* ids, const TfLiteTensor* num_segments,
                                 TfLiteTensor* output) {
  const int32_t* id = ids->data.i32;
  const int data_rank = NumDimensions(data), ids_rank = NumDimensions(ids);
  if (kind == Kind::kSorted) {
    if (ids_rank != 1 || data_rank < 1) {
      TF_LITE_KERNEL_LOG(context,
                         "SEGMENT_SUM: segment ids of rank %d for data of rank %d: one id a row "
                         "of the data (rank 1) is supported.",
                         ids_rank, data_rank);
      return kTfLiteError;
    }
    const int count = ids->dims->data[0];
    TF_LITE_ENSURE_EQ(context, count, data->dims->data[0]);
    int previous = -1;
    for (int i = 0; i < count; ++i) {
      if (i == 0) {
        TF_LITE_ENSURE_EQ(context, id[i], 0);
      } else {
        const int64_t delta = int64_t{id[i]} - previous;
        TF_LITE_ENSURE(context, delta == 0 || delta == 1);
      }
      previous = id[i];
    }
    TfLiteIntArray* shape = TfLiteIntArrayCopy(data->dims);
    shape->data[0] = previous + 1;
    return context->ResizeTensor(context, output, shape);
  }
  // The ids' shape a prefix of the data's; output [num_segments] + the rest of the data's.
  TF_LITE_ENSURE(context, ids_rank <= data_rank);
  for (int i = 0; i < ids_rank; ++i) {
    TF_LITE_ENSURE_EQ(context, ids->dims->data[i], data->dims->data[i]);
  }
  TF_LITE_ENSURE(context, (num_segments->dims->size == 1 && num_segments->dims->data[0] == 1) ||
                              num_segments->dims->size == 0);
  const int32_t num_segments_ = num_segments->data.i32[0];
  TF_LITE_ENSURE(context, num_segments_ >= 0);
  const int64_t count = NumElements(ids);
  int max_index = -1;
  for (int64_t i = 0; i < count; ++i) max_index = std::max(id[i], max_index);
  TF_LITE_ENSURE(context, max_index < num_segments_);
  // (As TFLite's newer kernel: a crafted num_segments must not size a tensor of more
  // elements than an int counts; INT32_MAX segments of 2 floats asked for 17 GB.)
  int64_t elements = num_segments_;
  for (int i = ids_rank; i < data_rank; ++i) elements *= data->dims->data[i];
  TF_LITE_ENSURE_MSG(context, elements <= INT32_MAX, "Output element count overflows int.");
  TfLiteIntArray* shape = TfLiteIntArrayCreate(data_rank - ids_rank + 1);
  shape->data[0] = num_segments_;
  for (int i = ids_rank; i < data_rank; ++i) shape->data[i - ids_rank + 1] = data->dims->data[i];
  return context->ResizeTensor(context, output, shape);
}

inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, Kind kind) {
  const bool sorted = kind == Kind::kSorted;
  TF_LITE_ENSURE_EQ(context, NumInputs(node), sorted ? 2 : 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor *data, *ids, *num_segments = nullptr;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &data));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &ids));
  if (!sorted) TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &num_segments));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE(context, data->type == kTfLiteInt32 || data->type == kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, ids->type, kTfLiteInt32);
  if (!sorted) TF_LITE_ENSURE_EQ(context, num_segments->type, kTfLiteInt32);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, data->type);
  // TFLite sizes the output at prepare only where the ids (and for SEGMENT_SUM the data)
  // are constants.
  const bool known = sorted
                         ? IsConstantOrPersistentTensor(data) && IsConstantOrPersistentTensor(ids)
                         : !IsDynamicTensor(data) && IsConstantOrPersistentTensor(ids) &&
                               IsConstantOrPersistentTensor(num_segments);
  if (!known) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, kind, data, ids, num_segments, output);
}

// a * b or a + b; int32 wraps as TFLite's does on its two's-complement targets (signed
// overflow is undefined in C++: the arithmetic is done unsigned).
template <typename T>
inline T Wrap(T a, T b, bool product) {
  if constexpr (std::is_same_v<T, int32_t>) {
    const auto ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
    return static_cast<int32_t>(product ? ua * ub : ua + ub);
  } else {
    return product ? a * b : a + b;
  }
}

template <typename T>
void Reduce(Kind kind, const T* data, const int32_t* ids, int count, size_t row, T* out,
            size_t out_rows) {
  T init = 0;
  if (kind == Kind::kMax) init = std::numeric_limits<T>::lowest();
  if (kind == Kind::kMin) init = std::numeric_limits<T>::max();
  if (kind == Kind::kProd) init = 1;
  std::fill(out, out + out_rows * row, init);
  for (int i = 0; i < count; ++i) {
    if (ids[i] < 0) continue;
    T* o = out + static_cast<size_t>(ids[i]) * row;
    const T* d = data + static_cast<size_t>(i) * row;
    switch (kind) {
      case Kind::kMax:
        for (size_t j = 0; j < row; ++j) o[j] = std::max(o[j], d[j]);
        break;
      case Kind::kMin:
        for (size_t j = 0; j < row; ++j) o[j] = std::min(o[j], d[j]);
        break;
      case Kind::kProd:
        for (size_t j = 0; j < row; ++j) o[j] = Wrap<T>(o[j], d[j], true);
        break;
      default:
        for (size_t j = 0; j < row; ++j) o[j] = Wrap<T>(o[j], d[j], false);
    }
  }
}

inline TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, Kind kind) {
  const TfLiteTensor* data = GetInput(context, node, 0);
  const TfLiteTensor* ids = GetInput(context, node, 1);
  const TfLiteTensor* num_segments = kind == Kind::kSorted ? nullptr : GetInput(context, node, 2);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, kind, data, ids, num_segments, output));
  }
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(data, 0), SizeOfDimension(ids, 0));
  // Each id names a row of the data: the product of the dimensions after the ids'.
  const auto count = static_cast<int>(NumElements(ids));
  const size_t out_rows = static_cast<size_t>(SizeOfDimension(output, 0));
  size_t row = 1;
  for (int i = NumDimensions(ids); i < NumDimensions(data); ++i) row *= SizeOfDimension(data, i);
  // (The ids were checked below out_rows when the output was sized.)
  if (data->type == kTfLiteFloat32) {
    Reduce(kind, data->data.f, ids->data.i32, count, row, output->data.f, out_rows);
  } else {
    Reduce(kind, data->data.i32, ids->data.i32, count, row, output->data.i32, out_rows);
  }
  return kTfLiteOk;
}

}  // namespace segment
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SEGMENT_H_
