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

// MEAN / SUM over the axes flagged in `axes` (rank <= 4, right-aligned): one work-item
// per output element, in the order of the input with reduced axes of size 1.
__kernel void reduce(__global const FLT* in, __global FLT* out, int4 ishape, int4 axes,
                     int out_count, int is_mean) {
  const int o = get_global_id(0);
  if (o >= out_count) return;
  const int4 oshape = (int4)(axes.x ? 1 : ishape.x, axes.y ? 1 : ishape.y, axes.z ? 1 : ishape.z,
                             axes.w ? 1 : ishape.w);
  int rest = o;
  const int i3 = rest % oshape.w;
  rest /= oshape.w;
  const int i2 = rest % oshape.z;
  rest /= oshape.z;
  const int i1 = rest % oshape.y;
  const int i0 = rest / oshape.y;
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
