// Pooling, reductions and softmax.

// geo: (KH, KW, stride_h, stride_w); pad: (pad_top, pad_left). Average divides by the
// taps inside the input, as TFLite's kernels.
__kernel void pool2d(__global const FLT* in, __global FLT* out, int4 ishape, int4 oshape,
                     int4 geo, int2 pad, int is_max, float lo, float hi) {
  const int ox = get_global_id(0);
  const int oyn = get_global_id(1);
  const int c = get_global_id(2) * 4;
  if (ox >= oshape.z || oyn >= oshape.x * oshape.y || c >= oshape.w) return;
  const int oy = oyn % oshape.y;
  const int n = oyn / oshape.y;
  float4 acc = is_max ? (float4)(-INFINITY) : (float4)(0.0f);
  int count = 0;
  for (int ky = 0; ky < geo.x; ++ky) {
    const int iy = oy * geo.z - pad.x + ky;
    if (iy < 0 || iy >= ishape.y) continue;
    for (int kx = 0; kx < geo.y; ++kx) {
      const int ix = ox * geo.w - pad.y + kx;
      if (ix < 0 || ix >= ishape.z) continue;
      const float4 v = LoadC4(in, ((n * ishape.y + iy) * ishape.z + ix) * ishape.w, c, ishape.w);
      acc = is_max ? fmax(acc, v) : acc + v;
      ++count;
    }
  }
  if (!is_max) acc = count > 0 ? acc / (float)count : (float4)(0.0f);
  StoreC4(out, ((n * oshape.y + oy) * oshape.z + ox) * oshape.w, c, oshape.w, clamp(acc, lo, hi));
}

// The coordinates of element i of a dense 4-D shape.
int4 Coords4(int i, int4 shape) {
  const int w = i % shape.w;
  i /= shape.w;
  const int z = i % shape.z;
  i /= shape.z;
  return (int4)(i / shape.y, i % shape.y, z, w);
}

// Work-group reductions, for outputs of many taps (global pooling, MEAN over an
// image): one work-group of GROUP_WIDTH (a power of two, -D at build) or fewer items
// per output, each item striding over the taps, then a tree in local memory. Every
// item of a group reaches the barriers: the kernels launch one group per output and none
// more, so none returns early (a first version that did, uniformly, hung under PoCL).
float4 GroupReduce4(float4 v, int is_max, __local float4* part) {
  const int l = get_local_id(0);
  part[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) part[l] = is_max ? fmax(part[l], part[l + s]) : part[l] + part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return part[0];
}

// pool2d with a work-group per (pixel, 4 channels) output.
__kernel void pool2d_groups(__global const FLT* in, __global FLT* out, int4 ishape, int4 oshape,
                            int4 geo, int2 pad, int is_max, float lo, float hi) {
  __local float4 part[GROUP_WIDTH];
  // One group per (pixel, 4 channels) output, none more.
  const int4 o = Coords4(get_group_id(0), (int4)(oshape.x, oshape.y, oshape.z, (oshape.w + 3) / 4));
  const int n = o.x, oy = o.y, ox = o.z, c = o.w * 4;
  const int y0 = oy * geo.z - pad.x, x0 = ox * geo.w - pad.y;
  const int ya = max(y0, 0), yb = min(y0 + geo.x, ishape.y);
  const int xa = max(x0, 0), xb = min(x0 + geo.y, ishape.z);
  const int w = max(xb - xa, 0);
  const int taps = max(yb - ya, 0) * w;
  float4 acc = is_max ? (float4)(-INFINITY) : (float4)(0.0f);
  for (int t = get_local_id(0); t < taps; t += get_local_size(0)) {
    const float4 v = LoadC4(in, ((n * ishape.y + ya + t / w) * ishape.z + xa + t % w) * ishape.w, c, ishape.w);
    acc = is_max ? fmax(acc, v) : acc + v;
  }
  acc = GroupReduce4(acc, is_max, part);
  if (get_local_id(0) == 0) {
    if (!is_max) acc = taps > 0 ? acc / (float)taps : (float4)(0.0f);
    StoreC4(out, ((n * oshape.y + oy) * oshape.z + ox) * oshape.w, c, oshape.w, clamp(acc, lo, hi));
  }
}

// reduce with a work-group per output element.
__kernel void reduce_groups(__global const FLT* in, __global FLT* out, int4 ishape, int4 axes,
                            int out_count, int is_mean) {
  __local float4 part[GROUP_WIDTH];
  const int o = get_group_id(0);  // < out_count: one group per output, none more
  // The output's coordinates in the input (reduced axes of size 1).
  const int4 oi = Coords4(o, (int4)(axes.x ? 1 : ishape.x, axes.y ? 1 : ishape.y, axes.z ? 1 : ishape.z,
                                    axes.w ? 1 : ishape.w));
  const int i0 = oi.x, i1 = oi.y, i2 = oi.z, i3 = oi.w;
  // The reduced extent of each axis (1 where kept).
  const int4 r = (int4)(axes.x ? ishape.x : 1, axes.y ? ishape.y : 1, axes.z ? ishape.z : 1,
                        axes.w ? ishape.w : 1);
  const int count = r.x * r.y * r.z * r.w;
  float sum = 0.0f;
  for (int t = get_local_id(0); t < count; t += get_local_size(0)) {
    const int4 k = Coords4(t, r);
    sum += LD(in, (((axes.x ? k.x : i0) * ishape.y + (axes.y ? k.y : i1)) * ishape.z + (axes.z ? k.z : i2)) *
                      ishape.w + (axes.w ? k.w : i3));
  }
  const float total = GroupReduce4((float4)(sum, 0.0f, 0.0f, 0.0f), 0, part).x;
  if (get_local_id(0) == 0) ST(out, o, is_mean ? total / (float)count : total);
}

// MEAN / SUM over the axes flagged in `axes` (rank <= 4, right-aligned): one work-item
// per output element, in the order of the input with reduced axes of size 1.
__kernel void reduce(__global const FLT* in, __global FLT* out, int4 ishape, int4 axes,
                     int out_count, int is_mean) {
  const int o = get_global_id(0);
  if (o >= out_count) return;
  // The output's coordinates in the input (reduced axes of size 1).
  const int4 oi = Coords4(o, (int4)(axes.x ? 1 : ishape.x, axes.y ? 1 : ishape.y, axes.z ? 1 : ishape.z,
                                    axes.w ? 1 : ishape.w));
  const int i0 = oi.x, i1 = oi.y, i2 = oi.z, i3 = oi.w;
  float sum = 0.0f;
  for (int a = 0; a < (axes.x ? ishape.x : 1); ++a) {
    for (int b = 0; b < (axes.y ? ishape.y : 1); ++b) {
      for (int c = 0; c < (axes.z ? ishape.z : 1); ++c) {
        const int base = (((axes.x ? a : i0) * ishape.y + (axes.y ? b : i1)) * ishape.z +
                          (axes.z ? c : i2)) * ishape.w;
        if (axes.w) {
          for (int d = 0; d < ishape.w; ++d) sum += LD(in, base + d);
        } else {
          sum += LD(in, base + i3);
        }
      }
    }
  }
  const int count = (axes.x ? ishape.x : 1) * (axes.y ? ishape.y : 1) * (axes.z ? ishape.z : 1) *
                    (axes.w ? ishape.w : 1);
  ST(out, o, is_mean ? sum / (float)count : sum);
}

// Softmax over the last axis: one work-item per row.
__kernel void softmax(__global const FLT* in, __global FLT* out, int rows, int depth, float beta) {
  const int r = get_global_id(0);
  if (r >= rows) return;
  const int base = r * depth;
  float m = -INFINITY;
  for (int i = 0; i < depth; ++i) m = fmax(m, LD(in, base + i));
  float sum = 0.0f;
  for (int i = 0; i < depth; ++i) sum += exp((LD(in, base + i) - m) * beta);
  const float inv = 1.0f / sum;
  for (int i = 0; i < depth; ++i) ST(out, base + i, exp((LD(in, base + i) - m) * beta) * inv);
}

// softmax with a work-group per row (rows of >= kGroupReduceMin values: classifier heads).
__kernel void softmax_groups(__global const FLT* in, __global FLT* out, int rows, int depth, float beta) {
  __local float4 part[GROUP_WIDTH];
  const int base = get_group_id(0) * depth;  // one group per row, none more
  const int l = get_local_id(0), n = get_local_size(0);
  float m = -INFINITY;
  for (int i = l; i < depth; i += n) m = fmax(m, LD(in, base + i));
  m = GroupReduce4((float4)(m), 1, part).x;
  barrier(CLK_LOCAL_MEM_FENCE);  // every item has read part[0] before it is reused
  float sum = 0.0f;
  for (int i = l; i < depth; i += n) sum += exp((LD(in, base + i) - m) * beta);
  const float inv = 1.0f / GroupReduce4((float4)(sum), 0, part).x;
  for (int i = l; i < depth; i += n) ST(out, base + i, exp((LD(in, base + i) - m) * beta) * inv);
}
