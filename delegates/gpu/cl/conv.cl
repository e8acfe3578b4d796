// Convolutions and FULLY_CONNECTED. A work-item computes 4 output channels of one
// output pixel from float4 weights laid out at prepare as [OC/4][KH][KW][IC] x 4
// (output channels innermost), so each input value feeds 4 multiply-adds and input
// channels are read 4 at a time.

// acc + sum_i in[base + i] * w[i] over `count` inputs: 4 outputs at once, the inputs
// read 4 at a time.
float4 Dot4(__global const FLT* in, int base, __global const float4* w, int count, float4 acc) {
  int i = 0;
  for (; i + 3 < count; i += 4) {
    const float4 v = LD4(in, base + i);
    acc = mad((float4)(v.x), w[i], acc);
    acc = mad((float4)(v.y), w[i + 1], acc);
    acc = mad((float4)(v.z), w[i + 2], acc);
    acc = mad((float4)(v.w), w[i + 3], acc);
  }
  for (; i < count; ++i) acc = mad((float4)(LD(in, base + i)), w[i], acc);
  return acc;
}

// geo: (KH, KW, stride_h, stride_w); pad: (pad_top, pad_left, dilation_h, dilation_w).
__kernel void conv2d(__global const FLT* in, __global const float4* w,
                     __global const float4* bias, __global FLT* out, int4 ishape, int4 oshape,
                     int4 geo, int4 pad, float lo, float hi) {
  const int ox = get_global_id(0);
  const int oyn = get_global_id(1);
  const int o4 = get_global_id(2);
  if (ox >= oshape.z || oyn >= oshape.x * oshape.y || o4 * 4 >= oshape.w) return;
  const int oy = oyn % oshape.y;
  const int n = oyn / oshape.y;
  const int ic_count = ishape.w;
  float4 acc = bias[o4];
  __global const float4* wo = w + o4 * geo.x * geo.y * ic_count;
  for (int ky = 0; ky < geo.x; ++ky) {
    const int iy = oy * geo.z - pad.x + ky * pad.z;
    if (iy < 0 || iy >= ishape.y) continue;
    for (int kx = 0; kx < geo.y; ++kx) {
      const int ix = ox * geo.w - pad.y + kx * pad.w;
      if (ix < 0 || ix >= ishape.z) continue;
      const int ibase = ((n * ishape.y + iy) * ishape.z + ix) * ic_count;
      acc = Dot4(in, ibase, wo + (ky * geo.y + kx) * ic_count, ic_count, acc);
    }
  }
  StoreC4(out, ((n * oshape.y + oy) * oshape.z + ox) * oshape.w, o4 * 4, oshape.w,
          clamp(acc, lo, hi));
}

// Depthwise: weights [KH][KW][OC rounded up to 4] and bias [OC rounded up to 4], so one
// float4 load covers the 4 output channels. With a depth multiplier > 1 the 4 output
// channels read their own input channels (oc / multiplier).
__kernel void depthwise_conv2d(__global const FLT* in, __global const float* w,
                               __global const float* bias, __global FLT* out, int4 ishape,
                               int4 oshape, int4 geo, int4 pad, int multiplier, float lo,
                               float hi) {
  const int ox = get_global_id(0);
  const int oyn = get_global_id(1);
  const int c4 = get_global_id(2);
  const int oc = c4 * 4;
  if (ox >= oshape.z || oyn >= oshape.x * oshape.y || oc >= oshape.w) return;
  const int oy = oyn % oshape.y;
  const int n = oyn / oshape.y;
  const int padded = (oshape.w + 3) & ~3;
  float4 acc = vload4(c4, bias);
  const int last = oshape.w - 1;
  for (int ky = 0; ky < geo.x; ++ky) {
    const int iy = oy * geo.z - pad.x + ky * pad.z;
    if (iy < 0 || iy >= ishape.y) continue;
    for (int kx = 0; kx < geo.y; ++kx) {
      const int ix = ox * geo.w - pad.y + kx * pad.w;
      if (ix < 0 || ix >= ishape.z) continue;
      const int ibase = ((n * ishape.y + iy) * ishape.z + ix) * ishape.w;
      float4 v;
      if (multiplier == 1) {
        v = LoadC4(in, ibase, oc, ishape.w);
      } else {
        v = (float4)(LD(in, ibase + min(oc, last) / multiplier),
                     LD(in, ibase + min(oc + 1, last) / multiplier),
                     LD(in, ibase + min(oc + 2, last) / multiplier),
                     LD(in, ibase + min(oc + 3, last) / multiplier));
      }
      acc = mad(v, vload4(0, w + (ky * geo.y + kx) * padded + oc), acc);
    }
  }
  StoreC4(out, ((n * oshape.y + oy) * oshape.z + ox) * oshape.w, oc, oshape.w,
          clamp(acc, lo, hi));
}

// out[b][o] = sum_i in[b][i] * W[o][i] + bias[o]; weights [O/4][I] x 4.
__kernel void fully_connected(__global const FLT* in, __global const float4* w,
                              __global const float4* bias, __global FLT* out, int in_depth,
                              int out_depth, int batches, float lo, float hi) {
  const int o4 = get_global_id(0);
  const int b = get_global_id(1);
  if (o4 * 4 >= out_depth || b >= batches) return;
  float4 acc = bias[o4];
  __global const float4* wo = w + o4 * in_depth;
  const int ibase = b * in_depth;
  acc = Dot4(in, ibase, wo, in_depth, acc);
  StoreC4(out, b * out_depth, o4 * 4, out_depth, clamp(acc, lo, hi));
}

// TRANSPOSE_CONV as a gather: output (oy, ox) takes input (iy, ix) through tap (ky, kx)
// when oy = iy * stride_h + ky - pad_top. Weights as conv2d's ([OC/4][KH][KW][IC] x 4).
__kernel void transpose_conv2d(__global const FLT* in, __global const float4* w,
                               __global const float4* bias, __global FLT* out, int4 ishape,
                               int4 oshape, int4 geo, int4 pad, float lo, float hi) {
  const int ox = get_global_id(0);
  const int oyn = get_global_id(1);
  const int o4 = get_global_id(2);
  if (ox >= oshape.z || oyn >= oshape.x * oshape.y || o4 * 4 >= oshape.w) return;
  const int oy = oyn % oshape.y;
  const int n = oyn / oshape.y;
  const int ic_count = ishape.w;
  float4 acc = bias[o4];
  __global const float4* wo = w + o4 * geo.x * geo.y * ic_count;
  for (int ky = 0; ky < geo.x; ++ky) {
    const int ty = oy + pad.x - ky;
    if (ty < 0 || ty % geo.z != 0) continue;
    const int iy = ty / geo.z;
    if (iy >= ishape.y) continue;
    for (int kx = 0; kx < geo.y; ++kx) {
      const int tx = ox + pad.y - kx;
      if (tx < 0 || tx % geo.w != 0) continue;
      const int ix = tx / geo.w;
      if (ix >= ishape.z) continue;
      const int ibase = ((n * ishape.y + iy) * ishape.z + ix) * ic_count;
      acc = Dot4(in, ibase, wo + (ky * geo.y + kx) * ic_count, ic_count, acc);
    }
  }
  StoreC4(out, ((n * oshape.y + oy) * oshape.z + ox) * oshape.w, o4 * 4, oshape.w,
          clamp(acc, lo, hi));
}
