// STRIDED_SLICE over up to 5 dimensions (counting axes added by new_axis_mask), with
// begin/end/ellipsis/new_axis/shrink_axis masks and the v8 `offset` mode (end is
// relative to begin). begin/end/strides are 1-D int32 tensors, constant or run-time.
// Any fixed-size element type, and strings.
// Index resolution follows upstream strided_slice.cc and strided_slice_logic.h
// (StridedSliceStartForAxis / StridedSliceEndForAxis).
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/internal/string_tensor.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace strided_slice {
namespace {

constexpr int kMaxDims = 5;

// The masks resolved against the input: one entry per effective dimension.
struct Slice {
  int dims = 0;
  int shape[kMaxDims] = {0};  // effective input shape (new axes are 1)
  int start[kMaxDims] = {0};
  int stop[kMaxDims] = {0};
  int stride[kMaxDims] = {0};
  int begin_mask = 0;
  int end_mask = 0;
  int shrink_mask = 0;
  bool offset = false;
};

struct Tensors {
  Tensors(TfLiteContext* context, TfLiteNode* node)
      : params(static_cast<const TfLiteStridedSliceParams*>(node->builtin_data)),
        input(GetInput(context, node, 0)),
        begin(GetInput(context, node, 1)),
        end(GetInput(context, node, 2)),
        strides(GetInput(context, node, 3)),
        output(GetOutput(context, node, 0)) {}
  const TfLiteStridedSliceParams* params;
  const TfLiteTensor* input;
  const TfLiteTensor* begin;
  const TfLiteTensor* end;
  const TfLiteTensor* strides;
  TfLiteTensor* output;
};

// Upstream's BuildStridedSliceParams: expands the ellipsis, inserts new axes and
// turns both into begin/end mask bits on an effective shape.
TfLiteStatus BuildSlice(TfLiteContext* context, const Tensors& t, bool with_indices, Slice* out) {
  const TfLiteStridedSliceParams& p = *t.params;
  const int input_dims = NumDimensions(t.input);
  const int begin_count = t.begin->dims->data[0];
  int num_add_axis = 0;
  for (int i = 0; i < begin_count; ++i) {
    if (!((1 << i) & p.ellipsis_mask) && ((1 << i) & p.new_axis_mask)) ++num_add_axis;
  }
  const int effective_dims = input_dims + num_add_axis;
  TF_LITE_ENSURE_MSG(context, effective_dims <= kMaxDims,
                     "StridedSlice op only supports up to 5D output including added axis.");
  int effective_ellipsis_mask = 0, effective_new_axis_mask = 0;
  int ellipsis_start_idx = effective_dims, expanded_ellipsis = 0;
  for (int i = 0; i < effective_dims;) {
    if ((1 << i) & p.ellipsis_mask) {
      ellipsis_start_idx = i;
      const int ellipsis_end_idx = std::max(
          i + 1, std::min(i + 1 + num_add_axis + input_dims - begin_count, effective_dims));
      expanded_ellipsis = ellipsis_end_idx - ellipsis_start_idx - 1;
      for (; i < ellipsis_end_idx; ++i) effective_ellipsis_mask |= (1 << i);
      continue;
    }
    if ((1 << (i - expanded_ellipsis)) & p.new_axis_mask) effective_new_axis_mask |= (1 << i);
    ++i;
  }
  *out = Slice();
  out->dims = effective_dims;
  out->offset = p.offset;
  int added_ellipsis = 0, added_axes = 0;
  for (int i = 0; i < effective_dims; ++i) {
    const bool new_axis =
        !((1 << i) & effective_ellipsis_mask) && ((1 << i) & effective_new_axis_mask);
    if (!new_axis && i - added_axes >= input_dims) {
      TF_LITE_KERNEL_LOG(context, "STRIDED_SLICE: masks do not match the input rank %d.",
                         input_dims);
      return kTfLiteError;
    }
    if ((1 << i) & effective_ellipsis_mask) {
      added_ellipsis = std::max(0, i - ellipsis_start_idx);
      out->begin_mask |= (1 << i);
      out->end_mask |= (1 << i);
      out->stride[i] = 1;
      out->shape[i] = t.input->dims->data[i - added_axes];
    } else if ((1 << i) & effective_new_axis_mask) {
      out->start[i] = 0;
      out->stop[i] = 1;
      out->stride[i] = 1;
      out->shape[i] = 1;
      ++added_axes;
    } else if (i >= begin_count + expanded_ellipsis) {
      out->stride[i] = 1;
      out->begin_mask |= (1 << i);
      out->end_mask |= (1 << i);
      out->shape[i] = t.input->dims->data[i - added_axes];
    } else {
      const int orig = i - added_ellipsis;
      TF_LITE_ENSURE(context, orig >= 0 && orig < begin_count);
      if (with_indices) {
        out->start[i] = t.begin->data.i32[orig];
        out->stop[i] = t.end->data.i32[orig];
      }
      out->stride[i] = t.strides->data.i32[orig];
      if (p.begin_mask & (1 << orig)) out->begin_mask |= (1 << i);
      if (p.end_mask & (1 << orig)) out->end_mask |= (1 << i);
      if (p.shrink_axis_mask & (1 << orig)) out->shrink_mask |= (1 << i);
      out->shape[i] = t.input->dims->data[i - added_axes];
    }
  }
  return kTfLiteOk;
}

int Clamp(int v, int lo, int hi) { return v > hi ? hi : v < lo ? lo : v; }

int StartForAxis(const Slice& s, int axis) {
  const int axis_size = s.shape[axis];
  int start = s.start[axis];
  const int stride = s.stride[axis];
  if (start < 0) start += axis_size;
  start = stride > 0 ? Clamp(start, 0, axis_size) : Clamp(start, -1, axis_size - 1);
  if (s.begin_mask & (1 << axis)) start = stride > 0 ? 0 : axis_size - 1;
  return start;
}

int EndForAxis(const Slice& s, int axis, int start) {
  const int axis_size = s.shape[axis];
  if (s.shrink_mask & (1 << axis)) return start >= axis_size ? start : start + 1;
  // In 64 bits: with `offset`, a crafted end near INT_MAX plus the start would overflow.
  int64_t end = s.stop[axis];
  if (s.offset) end += start;
  const int stride = s.stride[axis];
  if (end < 0) end += axis_size;
  end = stride > 0 ? std::clamp<int64_t>(end, 0, axis_size) : std::clamp<int64_t>(end, -1, axis_size - 1);
  if (s.end_mask & (1 << axis)) end = stride > 0 ? axis_size : -1;
  return static_cast<int>(end);
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const Tensors& t) {
  Slice slice;
  TF_LITE_ENSURE_OK(context, BuildSlice(context, t, !t.params->offset, &slice));
  std::vector<int> shape;
  for (int i = 0; i < slice.dims; ++i) {
    const int stride = slice.stride[i];
    TF_LITE_ENSURE_MSG(context, stride != 0, "stride value has to be non-zero");
    if (slice.shrink_mask & (1 << i)) continue;
    int extent;
    if (slice.offset) {
      // Upstream reads end[] at the effective index here.
      TF_LITE_ENSURE(context, i < t.end->dims->data[0]);
      extent = t.end->data.i32[i];
    } else {
      const int begin = StartForAxis(slice, i);
      extent = EndForAxis(slice, i, begin) - begin;
    }
    // TFLite's float division; a crafted `offset` extent can make it exceed int.
    const float dim = std::ceil(extent / static_cast<float>(stride));
    if (!(dim < 2147483648.0f)) {
      TF_LITE_KERNEL_LOG(context, "STRIDED_SLICE: output dimension %d would be %.0f elements", i,
                         static_cast<double>(dim));
      return kTfLiteError;
    }
    shape.push_back(dim < 0 ? 0 : static_cast<int>(dim));
  }
  TfLiteIntArray* out = TfLiteIntArrayCreate(static_cast<int>(shape.size()));
  std::copy(shape.begin(), shape.end(), out->data);
  return context->ResizeTensor(context, t.output, out);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 4);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  Tensors t(context, node);
  TF_LITE_ENSURE(context, t.params != nullptr && t.input != nullptr && t.begin != nullptr &&
                              t.end != nullptr && t.strides != nullptr && t.output != nullptr);
  TF_LITE_ENSURE_EQ(context, NumDimensions(t.begin), 1);
  TF_LITE_ENSURE_EQ(context, NumDimensions(t.end), 1);
  TF_LITE_ENSURE_EQ(context, NumDimensions(t.strides), 1);
  TF_LITE_ENSURE_EQ(context, NumElements(t.begin), NumElements(t.end));
  TF_LITE_ENSURE_EQ(context, NumElements(t.begin), NumElements(t.strides));
  TF_LITE_ENSURE_TYPES_EQ(context, t.input->type, t.output->type);
  const int size = TfLiteTypeGetSize(t.input->type);
  if (t.input->type != kTfLiteString && !(size == 1 || size == 2 || size == 4 || size == 8)) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(t.input->type),
                       t.input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, t.begin->type, kTfLiteInt32);
  TF_LITE_ENSURE_TYPES_EQ(context, t.end->type, kTfLiteInt32);
  TF_LITE_ENSURE_TYPES_EQ(context, t.strides->type, kTfLiteInt32);
  TF_LITE_ENSURE_MSG(context, NumDimensions(t.input) <= kMaxDims,
                     "StridedSlice op only supports 1D-5D input arrays.");
  TF_LITE_ENSURE_MSG(context, NumElements(t.begin) <= 16,
                     "STRIDED_SLICE: at most 16 slice specifications.");
  bool shape_known = IsConstantOrPersistentTensor(t.strides);
  shape_known &= t.params->offset ||
                 (IsConstantOrPersistentTensor(t.begin) && IsConstantOrPersistentTensor(t.end));
  if (!shape_known) {
    SetTensorToDynamic(t.output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, t);
}

// Calls fn(input_offset) for each element of the slice, in output order. Returns
// false (calling nothing) if the slice does not hold exactly out_count elements,
// which a model can cause in offset mode, where the output shape comes from `end`
// alone.
template <typename Fn>
bool ForEachSliceOffset(const Slice& s, int64_t out_count, Fn fn) {
  // Padded in front to 5 dimensions of size 1 (begin/end masks set there).
  int start[kMaxDims], stop[kMaxDims], stride[kMaxDims];
  int64_t in_stride[kMaxDims];
  const int pad = kMaxDims - s.dims;
  Slice p;
  p.dims = kMaxDims;
  p.offset = s.offset;
  for (int d = 0; d < kMaxDims; ++d) {
    const int src = d - pad;
    p.shape[d] = src < 0 ? 1 : s.shape[src];
    p.start[d] = src < 0 ? 0 : s.start[src];
    p.stop[d] = src < 0 ? 0 : s.stop[src];
    p.stride[d] = src < 0 ? 1 : s.stride[src];
  }
  p.begin_mask = (s.begin_mask << pad) | ((1 << pad) - 1);
  p.end_mask = (s.end_mask << pad) | ((1 << pad) - 1);
  p.shrink_mask = s.shrink_mask << pad;
  int64_t acc = 1;
  for (int d = kMaxDims - 1; d >= 0; --d) {
    in_stride[d] = acc;
    acc *= p.shape[d];
    start[d] = StartForAxis(p, d);
    stop[d] = EndForAxis(p, d, start[d]);
    stride[d] = p.stride[d];
  }
  auto done = [](int64_t i, int stop_i, int stride_i) {
    return stride_i > 0 ? i >= stop_i : i <= stop_i;
  };
  int64_t total = 1;
  for (int d = 0; d < kMaxDims; ++d) {
    const int64_t extent = static_cast<int64_t>(stop[d]) - start[d];
    int64_t n = stride[d] > 0 ? (extent + stride[d] - 1) / stride[d]
                              : (-extent + (-static_cast<int64_t>(stride[d])) - 1) /
                                    (-static_cast<int64_t>(stride[d]));
    total *= n < 0 ? 0 : n;
  }
  if (total != out_count) return false;
  for (int64_t i0 = start[0]; !done(i0, stop[0], stride[0]); i0 += stride[0])
    for (int64_t i1 = start[1]; !done(i1, stop[1], stride[1]); i1 += stride[1])
      for (int64_t i2 = start[2]; !done(i2, stop[2], stride[2]); i2 += stride[2])
        for (int64_t i3 = start[3]; !done(i3, stop[3], stride[3]); i3 += stride[3])
          for (int64_t i4 = start[4]; !done(i4, stop[4], stride[4]); i4 += stride[4]) {
            fn(i0 * in_stride[0] + i1 * in_stride[1] + i2 * in_stride[2] + i3 * in_stride[3] + i4);
          }
  return true;
}

template <typename T>
bool Copy(const Slice& s, const TfLiteTensor* input, TfLiteTensor* output, int64_t count) {
  const T* in = reinterpret_cast<const T*>(input->data.raw);
  T* out = reinterpret_cast<T*>(output->data.raw);
  return ForEachSliceOffset(s, count, [&](int64_t off) { *out++ = in[off]; });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  Tensors t(context, node);
  if (IsDynamicTensor(t.output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, t));
  Slice slice;
  TF_LITE_ENSURE_OK(context, BuildSlice(context, t, true, &slice));
  const int64_t count = NumElements(t.output);
  bool ok = true;
  if (t.input->type == kTfLiteString) {
    TF_LITE_ENSURE_OK(context, string_tensor::Validate(context, t.input));
    std::vector<string_tensor::StringRef> strings;
    ok = ForEachSliceOffset(
        slice, count, [&](int64_t off) { strings.push_back(string_tensor::Get(t.input, off)); });
    if (ok) TF_LITE_ENSURE_OK(context, string_tensor::Write(context, strings, t.output));
  } else if (count > 0) {
    switch (TfLiteTypeGetSize(t.input->type)) {
      case 1:
        ok = Copy<uint8_t>(slice, t.input, t.output, count);
        break;
      case 2:
        ok = Copy<uint16_t>(slice, t.input, t.output, count);
        break;
      case 4:
        ok = Copy<uint32_t>(slice, t.input, t.output, count);
        break;
      case 8:
        ok = Copy<uint64_t>(slice, t.input, t.output, count);
        break;
      default:
        TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(t.input->type),
                           t.input->type);
        return kTfLiteError;
    }
  }
  if (!ok) {
    TF_LITE_KERNEL_LOG(context,
                       "STRIDED_SLICE: the slice does not match the output shape %s "
                       "(begin/end changed after the shape was fixed?).",
                       GetShapeDebugString(t.output->dims).c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace strided_slice

TfLiteRegistration* Register_STRIDED_SLICE() {
  static TfLiteRegistration r = {nullptr, nullptr, strided_slice::Prepare, strided_slice::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
