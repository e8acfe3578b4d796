// Data movement: one generic strided gather (SLICE, STRIDED_SLICE, TRANSPOSE, SPLIT,
// DEPTH_TO_SPACE / SPACE_TO_DEPTH through 6-D views folded to strides), a strided
// scatter (CONCATENATION), PAD and table-driven RESIZE.

// out (contiguous, 4-D `oshape`) [i] = in[base + sum_k idx_k * stride_k].
__kernel void gather4(__global const FLT* in, __global FLT* out, int4 oshape, int4 istride,
                      int ibase) {
  const int d3 = get_global_id(0);
  const int rest = get_global_id(1);
  if (d3 >= oshape.w || rest >= oshape.x * oshape.y * oshape.z) return;
  const int o = rest * oshape.w + d3;
  const int3 d = RowIndex(rest, oshape);
  const int d0 = d.x, d1 = d.y, d2 = d.z;
  ST(out, o, LD(in, ibase + d0 * istride.x + d1 * istride.y + d2 * istride.z + d3 * istride.w));
}

// 6-D variant for DEPTH_TO_SPACE / SPACE_TO_DEPTH: the output viewed as
// [a][b][c][d][e][f] (dims in odims_lo = (a,b,c), odims_hi = (d,e,f)).
__kernel void gather6(__global const FLT* in, __global FLT* out, int4 odims_lo, int4 odims_hi,
                      int4 stride_lo, int4 stride_hi, int count) {
  int o = get_global_id(0);
  if (o >= count) return;
  int rest = o;
  const int f = rest % odims_hi.z;
  rest /= odims_hi.z;
  const int e = rest % odims_hi.y;
  rest /= odims_hi.y;
  const int d = rest % odims_hi.x;
  rest /= odims_hi.x;
  const int c = rest % odims_lo.z;
  rest /= odims_lo.z;
  const int b = rest % odims_lo.y;
  const int a = rest / odims_lo.y;
  ST(out, o, LD(in, a * stride_lo.x + b * stride_lo.y + c * stride_lo.z + d * stride_hi.x +
                       e * stride_hi.y + f * stride_hi.z));
}

// out[base + sum_k idx_k * stride_k] = in (contiguous, 4-D `ishape`) [i].
__kernel void scatter4(__global const FLT* in, __global FLT* out, int4 ishape, int4 ostride,
                       int obase) {
  const int d3 = get_global_id(0);
  const int rest = get_global_id(1);
  if (d3 >= ishape.w || rest >= ishape.x * ishape.y * ishape.z) return;
  const int i = rest * ishape.w + d3;
  const int3 d = RowIndex(rest, ishape);
  const int d0 = d.x, d1 = d.y, d2 = d.z;
  ST(out, obase + d0 * ostride.x + d1 * ostride.y + d2 * ostride.z + d3 * ostride.w, LD(in, i));
}

// PAD / PADV2 with a constant: `before` padding per axis (4-D, right-aligned).
__kernel void pad4(__global const FLT* in, __global FLT* out, int4 ishape, int4 oshape,
                   int4 before, float value) {
  const int d3 = get_global_id(0);
  const int rest = get_global_id(1);
  if (d3 >= oshape.w || rest >= oshape.x * oshape.y * oshape.z) return;
  const int o = rest * oshape.w + d3;
  const int3 d = RowIndex(rest, oshape);
  const int d0 = d.x, d1 = d.y, d2 = d.z;
  const int4 i = (int4)(d0, d1, d2, d3) - before;
  if (any(i < 0) || any(i >= ishape)) {
    ST(out, o, value);
    return;
  }
  ST(out, o, LD(in, ((i.x * ishape.y + i.y) * ishape.z + i.z) * ishape.w + i.w));
}

// RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR from per-row and per-column tables made on
// the host with TFLite's formulas: ys/xs hold (lower, upper) source indices and wy/wx
// the weight of `upper` (nearest: lower == upper).
__kernel void resize(__global const FLT* in, __global FLT* out, int4 ishape, int4 oshape,
                     __global const int2* ys, __global const int2* xs, __global const float* wy,
                     __global const float* wx) {
  const int ox = get_global_id(0);
  const int oyn = get_global_id(1);
  const int c = get_global_id(2) * 4;
  if (ox >= oshape.z || oyn >= oshape.x * oshape.y || c >= oshape.w) return;
  const int oy = oyn % oshape.y;
  const int n = oyn / oshape.y;
  const int2 y = ys[oy];
  const int2 x = xs[ox];
  const float fy = wy[oy];
  const float fx = wx[ox];
  const int row0 = (n * ishape.y + y.x) * ishape.z;
  const int row1 = (n * ishape.y + y.y) * ishape.z;
  const float4 v00 = LoadC4(in, (row0 + x.x) * ishape.w, c, ishape.w);
  const float4 v01 = LoadC4(in, (row0 + x.y) * ishape.w, c, ishape.w);
  const float4 v10 = LoadC4(in, (row1 + x.x) * ishape.w, c, ishape.w);
  const float4 v11 = LoadC4(in, (row1 + x.y) * ishape.w, c, ishape.w);
  const float4 r = v00 * (1.0f - fy) * (1.0f - fx) + v10 * fy * (1.0f - fx) +
                   v01 * (1.0f - fy) * fx + v11 * fy * fx;
  StoreC4(out, ((n * oshape.y + oy) * oshape.z + ox) * oshape.w, c, oshape.w, r);
}
