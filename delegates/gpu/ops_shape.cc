// Data movement on the GPU: RESHAPE/SQUEEZE/EXPAND_DIMS (aliases: the layout is dense
// NHWC), CONCATENATION, SLICE, STRIDED_SLICE, SPLIT(_V), TRANSPOSE, PAD(V2), RESIZE_*,
// DEPTH_TO_SPACE, SPACE_TO_DEPTH.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gpu/ops.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {
namespace gpu {
namespace {

cl_int4 Int4(int a, int b, int c, int d) {
  cl_int4 v;
  v.s[0] = a, v.s[1] = b, v.s[2] = c, v.s[3] = d;
  return v;
}

// Contiguous element strides of a right-aligned 4-D shape.
cl_int4 Strides(const cl_int4& s) {
  return Int4(s.s[1] * s.s[2] * s.s[3], s.s[2] * s.s[3], s.s[3], 1);
}

// Integer values of a constant INT32/INT64 tensor.
bool ConstInts(OpContext& c, int t, const char* what, std::vector<int64_t>* out) {
  if (t < 0) return c.Refuse(fmt::format("{} is missing", what));
  const TfLiteTensor& x = c.T(t);
  if (!IsConstant(x) || (x.type != kTfLiteInt32 && x.type != kTfLiteInt64)) {
    return c.Refuse(fmt::format("{} must be a constant INT32 or INT64 tensor", what));
  }
  out->clear();
  for (int i = 0; i < NumElements(x); ++i) {
    out->push_back(x.type == kTfLiteInt32 ? x.data.i32[i] : x.data.i64[i]);
  }
  return true;
}

bool Gather(OpContext& c, int in, int out, const cl_int4& oshape, const cl_int4& istride, int ibase) {
  return c.build->Launch("gather4",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(oshape), Arg(istride),
                          Arg(ibase)},
                         RowWork(oshape));
}

}  // namespace

bool VisitReshape(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 1) return c.Refuse("expects an input");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  if (NumElements(c.T(in)) != NumElements(c.T(out))) return c.Refuse("input and output sizes differ");
  if (c.build != nullptr) c.build->Alias(out, in);
  return true;
}

bool VisitConcatenation(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  const int out = node.outputs->data[0];
  if (!CheckActivation(c, out, "output")) return false;
  const auto* p = static_cast<const TfLiteConcatenationParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  if (p->activation != kTfLiteActNone) return c.Refuse("a fused activation on CONCATENATION is not supported");
  const int rank = c.T(out).dims->size;
  const int axis = p->axis < 0 ? p->axis + rank : p->axis;
  if (axis < 0 || axis >= rank) return c.Refuse(fmt::format("axis {} is out of range", p->axis));
  for (int i = 0; i < node.inputs->size; ++i) {
    const int t = node.inputs->data[i];
    if (t >= 0 && IsConstant(c.T(t))) {
      if (!CheckConstFloat(c, t, "input")) return false;
    } else if (!CheckActivation(c, t, "input")) {
      return false;
    }
    if (c.T(t).dims->size != rank) return c.Refuse("inputs differ in rank");
  }
  if (c.build == nullptr) return true;
  const cl_int4 so = Shape4(c.T(out));
  const cl_int4 ostride = Strides(so);
  const int axis4 = 4 - rank + axis;
  int offset = 0;
  for (int i = 0; i < node.inputs->size; ++i) {
    const int t = node.inputs->data[i];
    const cl_int4 si = Shape4(c.T(t));
    if (!c.build->Launch("scatter4",
                         {Arg(c.build->Tensor(t)), Arg(c.build->Tensor(out)), Arg(si), Arg(ostride),
                          Arg(offset * ostride.s[axis4])},
                         RowWork(si))) {
      return false;
    }
    offset += si.s[axis4];
  }
  return true;
}

bool VisitSliceLike(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  const int code = reg.builtin_code;
  const int in = code == kTfLiteBuiltinSplit ? (node.inputs->size > 1 ? node.inputs->data[1] : -1)
                                             : node.inputs->data[0];
  if (!CheckActivation(c, in, "input")) return false;
  for (int i = 0; i < node.outputs->size; ++i) {
    if (!CheckActivation(c, node.outputs->data[i], "output")) return false;
  }
  const TfLiteTensor& ti = c.T(in);
  const int rank = ti.dims->size;
  const cl_int4 si = Shape4(ti);
  const cl_int4 stride = Strides(si);
  const int pad = 4 - rank;

  if (code == kTfLiteBuiltinSplit || code == kTfLiteBuiltinSplitV) {
    std::vector<int64_t> axis_v;
    if (!ConstInts(c, node.inputs->data[code == kTfLiteBuiltinSplit ? 0 : 2], "axis", &axis_v)) return false;
    if (axis_v.size() != 1) return c.Refuse("axis must be a scalar");
    const int64_t axis64 = axis_v[0] < 0 ? axis_v[0] + rank : axis_v[0];
    if (axis64 < 0 || axis64 >= rank) return c.Refuse("axis is out of range");
    const int axis = static_cast<int>(axis64);
    if (c.build == nullptr) return true;
    int offset = 0;
    for (int i = 0; i < node.outputs->size; ++i) {
      const int out = node.outputs->data[i];
      const cl_int4 so = Shape4(c.T(out));
      if (!Gather(c, in, out, so, stride, offset * stride.s[pad + axis])) return false;
      offset += so.s[pad + axis];
    }
    return true;
  }

  const int out = node.outputs->data[0];
  std::vector<int64_t> begin, end_or_size, steps(rank, 1);
  if (!ConstInts(c, node.inputs->size > 1 ? node.inputs->data[1] : -1, "begin", &begin) ||
      !ConstInts(c, node.inputs->size > 2 ? node.inputs->data[2] : -1,
                 code == kTfLiteBuiltinSlice ? "size" : "end", &end_or_size)) {
    return false;
  }
  if (static_cast<int>(begin.size()) != rank || static_cast<int>(end_or_size.size()) != rank) {
    return c.Refuse("begin/end do not match the input rank");
  }
  // Positions in int64 (the constants are any int64 a crafted model holds), checked
  // against the dimension before they are narrowed.
  std::vector<int> start(rank), count(rank);
  if (code == kTfLiteBuiltinSlice) {
    for (int k = 0; k < rank; ++k) {
      const int64_t dim = si.s[pad + k];
      if (begin[k] < 0 || begin[k] >= dim) return c.Refuse("empty or out-of-range slice");
      const int64_t size = end_or_size[k] < 0 ? dim - begin[k] : end_or_size[k];
      if (size <= 0 || size > dim - begin[k]) return c.Refuse("empty or out-of-range slice");
      start[k] = static_cast<int>(begin[k]);
      count[k] = static_cast<int>(size);
    }
  } else {
    const auto* p = static_cast<const TfLiteStridedSliceParams*>(node.builtin_data);
    if (p == nullptr) return c.Refuse("no parameters");
    if (p->ellipsis_mask != 0 || p->new_axis_mask != 0) return c.Refuse("ellipsis and new-axis masks are not supported");
    if (p->offset) return c.Refuse("offset=true is not supported");
    if (!ConstInts(c, node.inputs->size > 3 ? node.inputs->data[3] : -1, "strides", &steps)) return false;
    if (static_cast<int>(steps.size()) != rank) return c.Refuse("strides do not match the input rank");
    for (int k = 0; k < rank; ++k) {
      const int64_t dim = si.s[pad + k];
      const int64_t s = steps[k];
      if (s == 0) return c.Refuse("a stride is 0");
      auto clampi = [&](int64_t v) {
        if (v < 0) v = v < -dim ? -dim - 1 : v + dim;  // no overflow near INT64_MIN
        return s > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
      };
      int64_t b = (p->begin_mask >> k) & 1 ? (s > 0 ? 0 : dim - 1) : clampi(begin[k]);
      int64_t e = (p->end_mask >> k) & 1 ? (s > 0 ? dim : -1) : clampi(end_or_size[k]);
      if ((p->shrink_axis_mask >> k) & 1) {
        if (s < 0) return c.Refuse("shrink axis with a negative stride is not supported");
        if (begin[k] < -dim || begin[k] >= dim) return c.Refuse("empty or out-of-range slice");
        b = begin[k] < 0 ? begin[k] + dim : begin[k];
        e = b + 1;
      }
      // b and e lie in [-1, dim]; a step beyond the dimension takes one element.
      int64_t n = 0;
      if (s > 0 && e > b) n = (e - b - 1) / s + 1;
      if (s < 0 && b > e) n = (b - e - 1) / (s == INT64_MIN ? INT64_MAX : -s) + 1;
      if (b < 0 || b >= dim || n <= 0) return c.Refuse("empty or out-of-range slice");
      start[k] = static_cast<int>(b);
      count[k] = static_cast<int>(n);
      // One element: the step is never taken (and may not fit the kernel's int strides).
      steps[k] = n == 1 ? 0 : s;
    }
  }
  int total = 1;
  for (int k = 0; k < rank; ++k) {
    if (count[k] <= 0 || start[k] < 0 || start[k] >= si.s[pad + k]) return c.Refuse("empty or out-of-range slice");
    total *= count[k];
  }
  if (total != NumElements(c.T(out))) return c.Refuse("the slice does not match the output size");
  if (c.build == nullptr) return true;
  cl_int4 oshape = Int4(1, 1, 1, 1), istride = Int4(0, 0, 0, 0);
  int base = 0;
  for (int k = 0; k < rank; ++k) {
    oshape.s[pad + k] = count[k];
    istride.s[pad + k] = stride.s[pad + k] * static_cast<int>(steps[k]);
    base += start[k] * stride.s[pad + k];
  }
  return Gather(c, in, out, oshape, istride, base);
}

bool VisitTranspose(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 2) return c.Refuse("expects input and permutation");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  std::vector<int64_t> perm;
  if (!ConstInts(c, node.inputs->data[1], "permutation", &perm)) return false;
  const int rank = c.T(in).dims->size;
  if (static_cast<int>(perm.size()) != rank) return c.Refuse("permutation does not match the rank");
  unsigned seen = 0;  // rank <= 4 (CheckActivation)
  for (int64_t v : perm) {
    if (v < 0 || v >= rank || (seen >> v) & 1u) return c.Refuse("the permutation is not one of 0..rank-1");
    seen |= 1u << v;
  }
  if (c.build == nullptr) return true;
  const int pad = 4 - rank;
  const cl_int4 stride = Strides(Shape4(c.T(in)));
  cl_int4 istride = Int4(0, 0, 0, 0);
  for (int k = 0; k < rank; ++k) istride.s[pad + k] = stride.s[pad + static_cast<int>(perm[k])];
  return Gather(c, in, out, Shape4(c.T(out)), istride, 0);
}

bool VisitPad(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size < 2) return c.Refuse("expects input and paddings");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  std::vector<int64_t> pads;
  if (!ConstInts(c, node.inputs->data[1], "paddings", &pads)) return false;
  const int rank = c.T(in).dims->size;
  if (static_cast<int>(pads.size()) != 2 * rank) return c.Refuse("paddings do not match the rank");
  float value = 0.0f;
  if (reg.builtin_code == kTfLiteBuiltinPadv2 && node.inputs->size > 2 && node.inputs->data[2] >= 0) {
    const TfLiteTensor& v = c.T(node.inputs->data[2]);
    if (!IsConstant(v) || v.type != kTfLiteFloat32) return c.Refuse("the pad value must be a constant FLOAT32");
    value = v.data.f[0];
  }
  for (int64_t p : pads) {
    if (p < 0) return c.Refuse("negative paddings are not supported");
  }
  if (c.build == nullptr) return true;
  cl_int4 before = Int4(0, 0, 0, 0);
  for (int k = 0; k < rank; ++k) before.s[4 - rank + k] = static_cast<int>(pads[2 * k]);
  const cl_int4 so = Shape4(c.T(out));
  return c.build->Launch("pad4",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(Shape4(c.T(in))), Arg(so),
                          Arg(before), Arg(value)},
                         RowWork(so));
}

bool VisitResize(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 2) return c.Refuse("expects input and size");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  if (c.T(in).dims->size != 4 || c.T(out).dims->size != 4) return c.Refuse("expects 4-D input and output");
  bool align = false, half = false;
  const bool bilinear = reg.builtin_code == kTfLiteBuiltinResizeBilinear;
  if (node.builtin_data == nullptr) return c.Refuse("no parameters");
  if (bilinear) {
    const auto* p = static_cast<const TfLiteResizeBilinearParams*>(node.builtin_data);
    align = p->align_corners, half = p->half_pixel_centers;
  } else {
    const auto* p = static_cast<const TfLiteResizeNearestNeighborParams*>(node.builtin_data);
    align = p->align_corners, half = p->half_pixel_centers;
  }
  if (c.build == nullptr) return true;
  const cl_int4 si = Shape4(c.T(in)), so = Shape4(c.T(out));
  // Per-axis tables with TFLite's reference formulas (resize_bilinear.cc,
  // resize_nearest_neighbor.cc in lib/kernels).
  auto table = [&](int in_size, int out_size, std::vector<cl_int2>* idx, std::vector<float>* wts) {
    const float scale = (align && out_size > 1) ? static_cast<float>(in_size - 1) / (out_size - 1)
                                                : static_cast<float>(in_size) / out_size;
    for (int o = 0; o < out_size; ++o) {
      cl_int2 v;
      float w = 0.0f;
      if (bilinear) {
        const float s = half ? (o + 0.5f) * scale - 0.5f : o * scale;
        const int lower = std::max(static_cast<int>(std::floor(s)), 0);
        const int upper = std::min(static_cast<int>(std::ceil(s)), in_size - 1);
        v.s[0] = lower, v.s[1] = upper;
        w = s - lower;
      } else {
        const float offset = half ? 0.5f : 0.0f;
        int i = std::min(align ? static_cast<int>(std::round((o + offset) * scale))
                               : static_cast<int>(std::floor((o + offset) * scale)),
                         in_size - 1);
        if (half) i = std::max(0, i);
        v.s[0] = v.s[1] = i;
      }
      idx->push_back(v);
      wts->push_back(w);
    }
  };
  std::vector<cl_int2> ys, xs;
  std::vector<float> wy, wx;
  table(si.s[1], so.s[1], &ys, &wy);
  table(si.s[2], so.s[2], &xs, &wx);
  return c.build->Launch(
      "resize",
      {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(si), Arg(so),
       Arg(c.build->Constant(ys.data(), ys.size() * sizeof(cl_int2))),
       Arg(c.build->Constant(xs.data(), xs.size() * sizeof(cl_int2))),
       Arg(c.build->Constant(wy.data(), wy.size() * sizeof(float))),
       Arg(c.build->Constant(wx.data(), wx.size() * sizeof(float)))},
      PixelWork(so));
}

bool VisitSpaceDepth(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 1) return c.Refuse("expects 1 input");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  if (c.T(in).dims->size != 4) return c.Refuse("expects a 4-D input");
  if (node.builtin_data == nullptr) return c.Refuse("no parameters");
  const bool to_space = reg.builtin_code == kTfLiteBuiltinDepthToSpace;
  const int bs = to_space ? static_cast<const TfLiteDepthToSpaceParams*>(node.builtin_data)->block_size
                          : static_cast<const TfLiteSpaceToDepthParams*>(node.builtin_data)->block_size;
  if (bs < 1) return c.Refuse("block size must be positive");
  if (c.build == nullptr) return true;
  const cl_int4 si = Shape4(c.T(in));
  const int n = si.s[0], h = si.s[1], w = si.s[2], ch = si.s[3];
  cl_int4 lo, hi, slo, shi;
  if (to_space) {
    // Output [N][H][bs][W][bs][C/bs^2] reads input (n, h, w, (by*bs + bx)*OC + c).
    const int oc = ch / (bs * bs);
    lo = Int4(n, h, bs, 0), hi = Int4(w, bs, oc, 0);
    slo = Int4(h * w * ch, w * ch, bs * oc, 0), shi = Int4(ch, oc, 1, 0);
  } else {
    // Output [N][H/bs][W/bs][bs][bs][C] reads input (n, oh*bs + by, ow*bs + bx, c).
    lo = Int4(n, h / bs, w / bs, 0), hi = Int4(bs, bs, ch, 0);
    slo = Int4(h * w * ch, bs * w * ch, bs * ch, 0), shi = Int4(w * ch, ch, 1, 0);
  }
  const int count = NumElements(c.T(out));
  return c.build->Launch("gather6",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(lo), Arg(hi), Arg(slo),
                          Arg(shi), Arg(count)},
                         {static_cast<size_t>(count)});
}

}  // namespace gpu
}  // namespace tflite_inspect
