// CONCATENATION, SLICE, STRIDED_SLICE, SPLIT, TRANSPOSE: this XNNPACK (2022-02) has no
// such operators, so the delegate runs them itself, between XNNPACK runtimes of the same
// partition, as strided copies (no arithmetic: results are exact). Taking them keeps a
// partition whole where TFLite's newer XNNPACK makes one, and only there: the node is
// refused where TFLite's delegate refuses it (CONCATENATION of more than 5 inputs, SPLIT
// into more than 4, SLICE sizes of -1, STRIDED_SLICE with a stride other than 1 or a
// shrink, ellipsis or new-axis mask; SPLIT_V not at all), so the partitions are TFLite's.
// Float32, or INT8 / UINT8 where every tensor has the same scale and zero point (a copy
// cannot requantize).
#include <algorithm>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "kernels/internal/fixed_copy.h"
#include "kernels/internal/parallel.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

// Row-major strides of a tensor, in elements.
void ContiguousStrides(const TfLiteIntArray& dims, ptrdiff_t* strides) {
  ptrdiff_t s = 1;
  for (int i = dims.size - 1; i >= 0; --i) {
    strides[i] = s;
    s *= dims.data[i];
  }
}

// A copy of all of `src` into `dst` at element offset `dst_offset`, `dst` having the
// shape given by dst_dims (same rank as src).
StridedCopy Embed(const VisitContext& v, int src, int dst, ptrdiff_t dst_offset) {
  StridedCopy c;
  c.src = src;
  c.dst = dst;
  const TfLiteIntArray& s = *Tensor(v, src).dims;
  c.rank = s.size;
  for (int i = 0; i < s.size; ++i) c.shape[i] = static_cast<size_t>(s.data[i]);
  ContiguousStrides(s, c.src_stride);
  ContiguousStrides(*Tensor(v, dst).dims, c.dst_stride);
  c.dst_offset = dst_offset;
  return c;
}

}  // namespace

bool ConstInts(VisitContext& v, int index, const char* what, std::vector<int64_t>* out) {
  if (index < 0 || !IsModelConstant(v, index)) {
    return v.Refuse(fmt::format("{} is not a constant of the model", what));
  }
  const TfLiteTensor& t = Tensor(v, index);
  out->clear();
  if (t.type == kTfLiteInt32) {
    const auto* p = static_cast<const int32_t*>(StaticData(v, index));
    out->assign(p, p + t.bytes / sizeof(int32_t));
  } else if (t.type == kTfLiteInt64) {
    const auto* p = static_cast<const int64_t*>(StaticData(v, index));
    out->assign(p, p + t.bytes / sizeof(int64_t));
  } else {
    return v.Refuse(fmt::format("{} is {}, expected INT32 or INT64", what, TfLiteTypeGetName(t.type)));
  }
  return true;
}

namespace {

bool Axis(VisitContext& v, int64_t axis, int rank, int* out) {
  if (axis < -rank || axis >= rank) return v.Refuse(fmt::format("axis {} is out of range for rank {}", axis, rank));
  *out = static_cast<int>(axis < 0 ? axis + rank : axis);
  return true;
}

// Every data tensor float32, or quantized like `like` (the node's first data input).
bool CheckAll(VisitContext& v, const TfLiteIntArray& list, int from, int to, const char* what, int like) {
  for (int i = from; i < to; ++i) {
    const int t = list.data[i];
    if (!(like >= 0 && IsQuantized8(Tensor(v, like)) ? CheckFloatOrSameQuantized(v, like, t)
                                                      : CheckFloat(v, t, what)) ||
        !CheckRank(v, t, 1, XNN_MAX_TENSOR_DIMS, what)) {
      return false;
    }
  }
  return true;
}

bool SameDimsExcept(const TfLiteTensor& a, const TfLiteTensor& b, int axis) {
  if (a.dims->size != b.dims->size) return false;
  for (int i = 0; i < a.dims->size; ++i) {
    if (i != axis && a.dims->data[i] != b.dims->data[i]) return false;
  }
  return true;
}

bool VisitConcatenation(VisitContext& v, const TfLiteNode& node, std::vector<StridedCopy>* copies) {
  const auto* p = static_cast<const TfLiteConcatenationParams*>(node.builtin_data);
  if (p->activation != kTfLiteActNone) return v.Refuse("fused activation on CONCATENATION");
  if (node.inputs->size < 2 || node.inputs->size > 5) {
    return v.Refuse(fmt::format("{} inputs; TFLite's XNNPACK delegate concatenates 2 to 5",
                                node.inputs->size));
  }
  const int out = node.outputs->data[0];
  const TfLiteTensor& o = Tensor(v, out);
  int axis;
  if (!Axis(v, p->axis, o.dims->size, &axis)) return false;
  ptrdiff_t offset = 0, out_strides[XNN_MAX_TENSOR_DIMS];
  ContiguousStrides(*o.dims, out_strides);
  for (int i = 0; i < node.inputs->size; ++i) {
    const TfLiteTensor& in = Tensor(v, node.inputs->data[i]);
    if (!SameDimsExcept(in, o, axis)) return v.Refuse(fmt::format("input {} does not match the output's shape", i));
    if (copies != nullptr) copies->push_back(Embed(v, node.inputs->data[i], out, offset * out_strides[axis]));
    offset += in.dims->data[axis];
  }
  if (offset != o.dims->data[axis]) return v.Refuse("the inputs do not add up to the output along the axis");
  return true;
}

// SPLIT: output k is the slab of the input after the outputs before it.
bool VisitSplit(VisitContext& v, const TfLiteNode& node, int in, int64_t axis_value,
                std::vector<StridedCopy>* copies) {
  const TfLiteTensor& i = Tensor(v, in);
  int axis;
  if (!Axis(v, axis_value, i.dims->size, &axis)) return false;
  ptrdiff_t in_strides[XNN_MAX_TENSOR_DIMS], offset = 0;
  ContiguousStrides(*i.dims, in_strides);
  for (int k = 0; k < node.outputs->size; ++k) {
    const int out = node.outputs->data[k];
    const TfLiteTensor& o = Tensor(v, out);
    if (!SameDimsExcept(o, i, axis)) return v.Refuse(fmt::format("output {} does not match the input's shape", k));
    if (copies != nullptr) {
      StridedCopy c;
      c.src = in;
      c.dst = out;
      c.rank = o.dims->size;
      for (int d = 0; d < c.rank; ++d) {
        c.shape[d] = static_cast<size_t>(o.dims->data[d]);
        c.src_stride[d] = in_strides[d];
      }
      ContiguousStrides(*o.dims, c.dst_stride);
      c.src_offset = offset * in_strides[axis];
      copies->push_back(c);
    }
    offset += o.dims->data[axis];
  }
  if (offset != i.dims->data[axis]) return v.Refuse("the outputs do not add up to the input along the axis");
  return true;
}

// SLICE and STRIDED_SLICE as a start and a step per input dimension; the output's
// (static) shape gives the counts, checked against what the op's arguments mean.
bool SliceCopy(VisitContext& v, int in, int out, const std::vector<int64_t>& start,
               const std::vector<int64_t>& step, const std::vector<int64_t>& count,
               std::vector<StridedCopy>* copies) {
  const TfLiteTensor& i = Tensor(v, in);
  const TfLiteTensor& o = Tensor(v, out);
  if (!std::equal(count.begin(), count.end(), o.dims->data, o.dims->data + o.dims->size) ||
      static_cast<int>(count.size()) != o.dims->size) {
    return v.Refuse("the slice does not match the output's shape");
  }
  if (copies == nullptr) return true;
  StridedCopy c;
  c.src = in;
  c.dst = out;
  c.rank = i.dims->size;
  ptrdiff_t in_strides[XNN_MAX_TENSOR_DIMS];
  ContiguousStrides(*i.dims, in_strides);
  ptrdiff_t dst = 1;
  for (int d = c.rank - 1; d >= 0; --d) {
    c.shape[d] = static_cast<size_t>(count[d]);
    c.src_stride[d] = in_strides[d] * step[d];
    c.src_offset += start[d] * in_strides[d];
    c.dst_stride[d] = dst;
    dst *= count[d];
  }
  copies->push_back(c);
  return true;
}

bool VisitSlice(VisitContext& v, const TfLiteNode& node, std::vector<StridedCopy>* copies) {
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  std::vector<int64_t> begin, size;
  if (!ConstInts(v, node.inputs->data[1], "begin", &begin) || !ConstInts(v, node.inputs->data[2], "size", &size)) {
    return false;
  }
  const TfLiteTensor& i = Tensor(v, in);
  const int rank = i.dims->size;
  if (static_cast<int>(begin.size()) != rank || static_cast<int>(size.size()) != rank) {
    return v.Refuse("begin and size do not match the input's rank");
  }
  std::vector<int64_t> step(rank, 1);
  for (int d = 0; d < rank; ++d) {
    const int64_t dim = i.dims->data[d];
    // TFLite's delegate refuses size -1 ("to the end") too.
    if (size[d] <= 0) return v.Refuse(fmt::format("size {} must be positive", size[d]));
    // (size > dim - begin rather than begin + size > dim: crafted int64 values overflow.)
    if (begin[d] < 0 || begin[d] > dim || size[d] > dim - begin[d]) {
      return v.Refuse(fmt::format("slice out of range in dimension {}", d));
    }
  }
  return SliceCopy(v, in, out, begin, step, size, copies);
}

int64_t Clamp(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : x > hi ? hi : x; }

// Stride 1, no masks but begin / end: TFLite's StridedSliceStartForAxis / EndForAxis.
bool VisitStridedSlice(VisitContext& v, const TfLiteNode& node, std::vector<StridedCopy>* copies) {
  const auto* p = static_cast<const TfLiteStridedSliceParams*>(node.builtin_data);
  if (p->ellipsis_mask != 0 || p->new_axis_mask != 0 || p->shrink_axis_mask != 0 || p->offset) {
    return v.Refuse("ellipsis_mask, new_axis_mask, shrink_axis_mask and offset are not supported");
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  std::vector<int64_t> begin, end, strides;
  if (!ConstInts(v, node.inputs->data[1], "begin", &begin) || !ConstInts(v, node.inputs->data[2], "end", &end) ||
      !ConstInts(v, node.inputs->data[3], "strides", &strides)) {
    return false;
  }
  const TfLiteTensor& i = Tensor(v, in);
  const int rank = i.dims->size;
  if (static_cast<int>(begin.size()) != rank || end.size() != begin.size() || strides.size() != begin.size()) {
    return v.Refuse("begin, end and strides do not match the input's rank");
  }
  std::vector<int64_t> count(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t dim = i.dims->data[d];
    if (strides[d] != 1) return v.Refuse(fmt::format("stride at dimension {}, {}, must be 1", d, strides[d]));
    int64_t b = Clamp(begin[d] < 0 ? begin[d] + dim : begin[d], 0, dim);
    if (p->begin_mask & (1 << d)) b = 0;
    int64_t e = Clamp(end[d] < 0 ? end[d] + dim : end[d], 0, dim);
    if (p->end_mask & (1 << d)) e = dim;
    count[d] = std::max<int64_t>(0, e - b);
    if (count[d] == 0) return v.Refuse("empty slice");
    begin[d] = b;
  }
  return SliceCopy(v, in, out, begin, strides, count, copies);
}

bool VisitTranspose(VisitContext& v, const TfLiteNode& node, std::vector<StridedCopy>* copies) {
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  std::vector<int64_t> perm;
  if (!ConstInts(v, node.inputs->data[1], "perm", &perm)) return false;
  const TfLiteTensor& i = Tensor(v, in);
  const TfLiteTensor& o = Tensor(v, out);
  const int rank = i.dims->size;
  if (static_cast<int>(perm.size()) != rank || o.dims->size != rank) return v.Refuse("perm does not match the input's rank");
  std::vector<bool> seen(rank, false);
  for (int d = 0; d < rank; ++d) {
    if (perm[d] < 0 || perm[d] >= rank || seen[perm[d]]) return v.Refuse("perm is not a permutation");
    seen[perm[d]] = true;
    if (o.dims->data[d] != i.dims->data[perm[d]]) return v.Refuse("the output's shape does not match perm");
  }
  if (copies == nullptr) return true;
  StridedCopy c;
  c.src = in;
  c.dst = out;
  c.rank = rank;
  ptrdiff_t in_strides[XNN_MAX_TENSOR_DIMS];
  ContiguousStrides(*i.dims, in_strides);
  ContiguousStrides(*o.dims, c.dst_stride);
  for (int d = 0; d < rank; ++d) {
    c.shape[d] = static_cast<size_t>(o.dims->data[d]);
    c.src_stride[d] = in_strides[perm[d]];
  }
  copies->push_back(c);
  return true;
}

// Drops unit dimensions and merges dimensions contiguous in both tensors, so most
// copies become a few long memcpy's.
void Simplify(StridedCopy* c) {
  int r = 0;
  for (int d = 0; d < c->rank; ++d) {
    if (c->shape[d] == 1) continue;
    if (r > 0 && c->src_stride[r - 1] == c->src_stride[d] * static_cast<ptrdiff_t>(c->shape[d]) &&
        c->dst_stride[r - 1] == c->dst_stride[d] * static_cast<ptrdiff_t>(c->shape[d])) {
      c->shape[r - 1] *= c->shape[d];
      c->src_stride[r - 1] = c->src_stride[d];
      c->dst_stride[r - 1] = c->dst_stride[d];
      continue;
    }
    c->shape[r] = c->shape[d];
    c->src_stride[r] = c->src_stride[d];
    c->dst_stride[r] = c->dst_stride[d];
    ++r;
  }
  c->rank = r;
}

}  // namespace

bool IsGlueOp(int builtin_code) {
  switch (builtin_code) {
    case kTfLiteBuiltinConcatenation:
    case kTfLiteBuiltinSlice:
    case kTfLiteBuiltinStridedSlice:
    case kTfLiteBuiltinSplit:
    case kTfLiteBuiltinTranspose:
      return true;
    default:
      return false;
  }
}

namespace {

// Float in and out, or 8-bit with the output quantized as the input (a copy cannot
// requantize): the element size; 0 for anything else.
size_t CopiedElementSize(const TfLiteTensor& ti, const TfLiteTensor& to) {
  if (ti.type == kTfLiteFloat32 && to.type == kTfLiteFloat32) return 4;
  const bool bytes = (ti.type == kTfLiteInt8 || ti.type == kTfLiteUInt8) && to.type == ti.type &&
                     ti.params.scale == to.params.scale &&
                     ti.params.zero_point == to.params.zero_point;
  return bytes ? 1 : 0;
}

// A 4-D strided copy from tensor src to tensor dst.
StridedCopy Copy4D(int src, int dst, size_t element_size, const size_t (&shape)[4],
                   const ptrdiff_t (&src_stride)[4], const ptrdiff_t (&dst_stride)[4]) {
  StridedCopy copy;
  copy.src = src;
  copy.dst = dst;
  copy.element_size = element_size;
  copy.rank = 4;
  for (int i = 0; i < 4; ++i) {
    copy.shape[i] = shape[i];
    copy.src_stride[i] = src_stride[i];
    copy.dst_stride[i] = dst_stride[i];
  }
  return copy;
}

}  // namespace

bool DepthToSpaceCopy(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      StridedCopy* copy) {
  if (reg.builtin_code != kTfLiteBuiltinDepthToSpace || node.inputs->size != 1 ||
      node.outputs->size != 1 || node.inputs->data[0] < 0 || node.builtin_data == nullptr ||
      !VisitShape(v, node, reg)) {
    return false;
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  const TfLiteTensor& ti = Tensor(v, in);
  const size_t element_size = CopiedElementSize(ti, Tensor(v, out));
  if (element_size == 0) return false;
  const TfLiteIntArray& d = *ti.dims;
  const auto bs = static_cast<size_t>(
      static_cast<const TfLiteDepthToSpaceParams*>(node.builtin_data)->block_size);
  if (d.size != 4 || bs < 2 || d.data[3] % static_cast<int>(bs * bs) != 0) return false;
  if (copy != nullptr) {
    // space[(b, y), dy, x, (dx, c)] = depth[(b, y), x, (dy, dx, c)]: four dimensions, rows of
    // bs * c contiguous values on both sides.
    const auto bh = static_cast<size_t>(d.data[0]) * d.data[1], w = static_cast<size_t>(d.data[2]);
    const size_t c = static_cast<size_t>(d.data[3]) / (bs * bs);
    const size_t shape[4] = {bh, bs, w, bs * c};
    const ptrdiff_t src_stride[4] = {static_cast<ptrdiff_t>(w * bs * bs * c),
                                     static_cast<ptrdiff_t>(bs * c),
                                     static_cast<ptrdiff_t>(bs * bs * c), 1};
    const ptrdiff_t dst_stride[4] = {static_cast<ptrdiff_t>(bs * w * bs * c),
                                     static_cast<ptrdiff_t>(w * bs * c),
                                     static_cast<ptrdiff_t>(bs * c), 1};
    *copy = Copy4D(in, out, element_size, shape, src_stride, dst_stride);
  }
  return true;
}

bool SpaceToDepthCopy(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      StridedCopy* copy) {
  if (reg.builtin_code != kTfLiteBuiltinSpaceToDepth) return false;
  if (node.inputs->size != 1 || node.outputs->size != 1 || node.inputs->data[0] < 0 ||
      node.builtin_data == nullptr) {
    return v.Refuse("SPACE_TO_DEPTH expects 1 input, 1 output and its parameters");
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  const TfLiteTensor& ti = Tensor(v, in);
  const TfLiteTensor& to = Tensor(v, out);
  const size_t element_size = CopiedElementSize(ti, to);
  if (element_size == 0) {
    return v.Refuse("SPACE_TO_DEPTH of other than float32, or 8-bit quantized as its input");
  }
  const int bs = static_cast<const TfLiteSpaceToDepthParams*>(node.builtin_data)->block_size;
  const TfLiteIntArray& d = *ti.dims;
  if (d.size != 4 || to.dims->size != 4 || bs < 2 || d.data[1] % bs != 0 || d.data[2] % bs != 0 ||
      to.dims->data[0] != d.data[0] || to.dims->data[1] != d.data[1] / bs ||
      to.dims->data[2] != d.data[2] / bs ||
      static_cast<int64_t>(to.dims->data[3]) != int64_t{bs} * bs * d.data[3]) {
    return v.Refuse(
        "SPACE_TO_DEPTH: a 4-D input whose height and width the block size (at "
        "least 2) divides, and the output of its blocks");
  }
  if (copy != nullptr) {
    // depth[(b, y), x, dy, (dx, c)] = space[(b, y), dy, x, (dx, c)]: runs of bs * c values
    // contiguous on both sides.
    const auto b = static_cast<size_t>(bs);
    const size_t by = static_cast<size_t>(d.data[0]) * (d.data[1] / bs);
    const size_t w = static_cast<size_t>(d.data[2]), c = static_cast<size_t>(d.data[3]);
    const size_t shape[4] = {by, w / b, b, b * c};
    const ptrdiff_t src_stride[4] = {static_cast<ptrdiff_t>(b * w * c),
                                     static_cast<ptrdiff_t>(b * c), static_cast<ptrdiff_t>(w * c),
                                     1};
    const ptrdiff_t dst_stride[4] = {static_cast<ptrdiff_t>(w * b * c),
                                     static_cast<ptrdiff_t>(b * b * c),
                                     static_cast<ptrdiff_t>(b * c), 1};
    *copy = Copy4D(in, out, element_size, shape, src_stride, dst_stride);
  }
  return true;
}

bool FloatReshapeCopy(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      StridedCopy* copy) {
  if ((reg.builtin_code != kTfLiteBuiltinReshape && reg.builtin_code != kTfLiteBuiltinSqueeze) ||
      node.inputs->size < 1 || node.outputs->size != 1 || node.inputs->data[0] < 0 ||
      Tensor(v, node.inputs->data[0]).type != kTfLiteFloat32 || !VisitShape(v, node, reg)) {
    return false;
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  const int64_t elements = tflite::NumElements(&Tensor(v, out));
  if (elements != tflite::NumElements(&Tensor(v, in))) return false;
  if (copy != nullptr) {
    *copy = StridedCopy{};
    copy->src = in;
    copy->dst = out;
    copy->rank = 1;
    copy->shape[0] = static_cast<size_t>(elements);
    copy->src_stride[0] = copy->dst_stride[0] = 1;
  }
  return true;
}

bool TransposePermutation(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                          std::vector<int>* perm) {
  if (reg.builtin_code != kTfLiteBuiltinTranspose || !VisitGlue(v, node, reg, nullptr)) return false;
  std::vector<int64_t> p;
  if (!ConstInts(v, node.inputs->data[1], "perm", &p)) return false;
  perm->assign(p.begin(), p.end());  // checked a permutation of the rank by VisitGlue
  return true;
}

bool VisitGlue(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
               std::vector<StridedCopy>* copies) {
  if (node.inputs->size < 1 || node.outputs->size < 1) return v.Refuse("expects inputs and outputs");
  const size_t first = copies != nullptr ? copies->size() : 0;
  bool ok;
  switch (reg.builtin_code) {
    case kTfLiteBuiltinConcatenation:
      ok = CheckAll(v, *node.inputs, 0, node.inputs->size, "input", node.inputs->data[0]) &&
           CheckAll(v, *node.outputs, 0, 1, "output", node.inputs->data[0]) &&
           VisitConcatenation(v, node, copies);
      break;
    case kTfLiteBuiltinSplit: {
      if (node.outputs->size < 2 || node.outputs->size > 4) {
        return v.Refuse(fmt::format("{} outputs; TFLite's XNNPACK delegate splits into 2 to 4",
                                    node.outputs->size));
      }
      std::vector<int64_t> axis;
      ok = node.inputs->size == 2 && CheckAll(v, *node.inputs, 1, 2, "input", node.inputs->data[1]) &&
           CheckAll(v, *node.outputs, 0, node.outputs->size, "output", node.inputs->data[1]) &&
           ConstInts(v, node.inputs->data[0], "axis", &axis) && axis.size() == 1 &&
           VisitSplit(v, node, node.inputs->data[1], axis[0], copies);
      break;
    }
    case kTfLiteBuiltinSlice:
      ok = node.inputs->size == 3 && CheckAll(v, *node.inputs, 0, 1, "input", node.inputs->data[0]) &&
           CheckAll(v, *node.outputs, 0, 1, "output", node.inputs->data[0]) && VisitSlice(v, node, copies);
      break;
    case kTfLiteBuiltinStridedSlice:
      ok = node.inputs->size == 4 && CheckAll(v, *node.inputs, 0, 1, "input", node.inputs->data[0]) &&
           CheckAll(v, *node.outputs, 0, 1, "output", node.inputs->data[0]) && VisitStridedSlice(v, node, copies);
      break;
    case kTfLiteBuiltinTranspose:
      ok = node.inputs->size == 2 && CheckAll(v, *node.inputs, 0, 1, "input", node.inputs->data[0]) &&
           CheckAll(v, *node.outputs, 0, 1, "output", node.inputs->data[0]) && VisitTranspose(v, node, copies);
      break;
    default:
      return v.Refuse("not a copy op");
  }
  if (!ok) {
    if (v.reason.empty()) v.reason = "unexpected inputs (count, or an axis that is not one value)";
    return false;
  }
  if (copies != nullptr) {
    const size_t element_size = Tensor(v, node.outputs->data[0]).type == kTfLiteFloat32 ? 4 : 1;
    for (size_t k = first; k < copies->size(); ++k) {
      (*copies)[k].element_size = element_size;
      Simplify(&(*copies)[k]);
    }
  }
  return true;
}

namespace {

// Rows [k0, k1) of the copy (a row: the last dimension; rows counted over the outer
// dimensions in order).
template <typename T>
void CopyRows(const StridedCopy& c, const T* src, T* dst, size_t k0, size_t k1) {
  src += c.src_offset;
  dst += c.dst_offset;
  if (c.rank == 0) {
    *dst = *src;
    return;
  }
  const int last = c.rank - 1;
  const bool rows = c.src_stride[last] == 1 && c.dst_stride[last] == 1;
  // Short rows at two fixed strides (a concatenation of 4-channel images: 16 bytes a row)
  // as inlined copies of a known size, not a memcpy call and the index walk per row.
  if (rows && c.rank == 2) {
    const size_t row_bytes = c.shape[1] * sizeof(T);
    const auto* s = reinterpret_cast<const char*>(src + c.src_stride[0] * static_cast<ptrdiff_t>(k0));
    auto* d = reinterpret_cast<char*>(dst + c.dst_stride[0] * static_cast<ptrdiff_t>(k0));
    const ptrdiff_t ss = c.src_stride[0] * static_cast<ptrdiff_t>(sizeof(T));
    const ptrdiff_t ds = c.dst_stride[0] * static_cast<ptrdiff_t>(sizeof(T));
    return tflite::fixed_copy::WithCopy(row_bytes, [&](auto copy) {
      for (size_t k = k0; k < k1; ++k, s += ss, d += ds) copy(d, s);
    });
  }
  // The outer index of row k0, and both pointers moved there.
  size_t index[XNN_MAX_TENSOR_DIMS] = {0};
  size_t rest = k0;
  for (int d = last - 1; d >= 0; --d) {
    index[d] = rest % c.shape[d];
    rest /= c.shape[d];
    src += c.src_stride[d] * static_cast<ptrdiff_t>(index[d]);
    dst += c.dst_stride[d] * static_cast<ptrdiff_t>(index[d]);
  }
  // Each row copied, then the index moved on; short rows as copies of a known size
  // (DEPTH_TO_SPACE's: a block row of one channel, 12 bytes).
  auto walk = [&](auto copy_row) {
    for (size_t k = k0; k < k1; ++k) {
      copy_row(src, dst);
      // Next index over the outer dimensions, moving both pointers by their strides.
      for (int d = last - 1; d >= 0; --d) {
        src += c.src_stride[d];
        dst += c.dst_stride[d];
        if (++index[d] < c.shape[d]) break;
        src -= c.src_stride[d] * static_cast<ptrdiff_t>(c.shape[d]);
        dst -= c.dst_stride[d] * static_cast<ptrdiff_t>(c.shape[d]);
        index[d] = 0;
      }
    }
  };
  if (!rows) {
    return walk([&](const T* s, T* d) {
      for (size_t e = 0; e < c.shape[last]; ++e)
        d[e * c.dst_stride[last]] = s[e * c.src_stride[last]];
    });
  }
  tflite::fixed_copy::WithCopy(c.shape[last] * sizeof(T),
                               [&](auto copy) { walk([&copy](const T* s, T* d) { copy(d, s); }); });
}

// A transpose of the last two dimensions (the one before last contiguous in src, the last
// in dst): planes [p0, p1) of the dimensions before them, each in 8 x 8 tiles, so that a
// tile's reads and writes each touch 8 cache lines rather than striding over the plane
// (attention's K^T: 4x faster than element by element on 64 x 64 planes).
template <typename T>
void TransposePlanes(const StridedCopy& c, const T* src, T* dst, size_t p0, size_t p1) {
  constexpr size_t kTile = 8;
  const int r = c.rank;
  const size_t rows = c.shape[r - 2], cols = c.shape[r - 1];
  const ptrdiff_t s_col = c.src_stride[r - 1], d_row = c.dst_stride[r - 2];
  for (size_t p = p0; p < p1; ++p) {
    const T* s = src + c.src_offset;
    T* d = dst + c.dst_offset;
    size_t rest = p;
    for (int k = r - 3; k >= 0; --k) {
      const auto at = static_cast<ptrdiff_t>(rest % c.shape[k]);
      rest /= c.shape[k];
      s += c.src_stride[k] * at;
      d += c.dst_stride[k] * at;
    }
    for (size_t i0 = 0; i0 < rows; i0 += kTile) {
      const size_t i1 = std::min(rows, i0 + kTile);
      for (size_t j0 = 0; j0 < cols; j0 += kTile) {
        const size_t j1 = std::min(cols, j0 + kTile);
        for (size_t j = j0; j < j1; ++j) {
          const T* sj = s + static_cast<ptrdiff_t>(j) * s_col;
          for (size_t i = i0; i < i1; ++i) d[static_cast<ptrdiff_t>(i) * d_row + j] = sj[i];
        }
      }
    }
  }
}

template <typename T>
void CopyElements(const StridedCopy& c, const T* src, T* dst, pthreadpool_t pool) {
  size_t outer = 1;
  for (int d = 0; d + 1 < c.rank; ++d) outer *= c.shape[d];
  // (Also where one side is narrow: NCHW -> NHWC of a 3-channel image, 224 x 3 planes, ran
  // element by element at 1 ns an element, 4% of a PyTorch-exported MobileNetV2.)
  if (c.rank >= 2 && c.dst_stride[c.rank - 1] == 1 && c.src_stride[c.rank - 1] != 1 &&
      c.src_stride[c.rank - 2] == 1 && c.shape[c.rank - 2] >= 2 && c.shape[c.rank - 1] >= 2 &&
      c.shape[c.rank - 2] * c.shape[c.rank - 1] >= 16) {
    const size_t planes = outer / c.shape[c.rank - 2];
    const size_t parts = std::min(planes, tflite::parallel::NumThreads(pool));
    const double bytes = static_cast<double>(outer) * c.shape[c.rank - 1] * sizeof(T);
    tflite::parallel::ParallelFor(pool, parts, 2.0 * bytes, [&](size_t t) {
      TransposePlanes(c, src, dst, planes * t / parts, planes * (t + 1) / parts);
    });
    return;
  }
  const size_t bytes = outer * (c.rank > 0 ? c.shape[c.rank - 1] : 1) * sizeof(T);
  // Large copies (DenseNet's concatenations: megabytes a layer) split over the threads in
  // whole rows; small ones stay on the calling thread (ParallelFor's threshold on the bytes
  // read and written).
  const size_t parts = std::min(outer, tflite::parallel::NumThreads(pool));
  tflite::parallel::ParallelFor(pool, parts, 2.0 * static_cast<double>(bytes), [&](size_t t) {
    CopyRows(c, src, dst, outer * t / parts, outer * (t + 1) / parts);
  });
}

}  // namespace

void RunCopy(const StridedCopy& c, const void* src, void* dst, pthreadpool_t pool) {
  if (c.element_size == 1) {
    CopyElements(c, static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), pool);
  } else {
    CopyElements(c, static_cast<const float*>(src), static_cast<float*>(dst), pool);
  }
}

}  // namespace xnnpack
}  // namespace tflite_inspect
