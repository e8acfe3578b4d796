// Shared by every kernel of the GPU delegate. Tensors are dense NHWC (TFLite's own
// layout, so reshapes are free and boundary copies are plain memcpy); activations are
// stored as FLT: float, or half when FP16_STORAGE=1 (vload_half/vstore_half need no
// cl_khr_fp16). Arithmetic is float. Weights are float, laid out once at prepare.
#if FP16_STORAGE
#define FLT half
#define LD(p, i) vload_half((i), (p))
#define ST(p, i, v) vstore_half((v), (i), (p))
#define LD4(p, i) vload_half4(0, (p) + (i))
#define ST4(p, i, v) vstore_half4((v), 0, (p) + (i))
#else
#define FLT float
#define LD(p, i) ((p)[i])
#define ST(p, i, v) ((p)[i] = (v))
#define LD4(p, i) vload4(0, (p) + (i))
#define ST4(p, i, v) vstore4((v), 0, (p) + (i))
#endif

// (d0, d1, d2) of row `row` of a right-aligned 4-D `shape` whose last axis is the row:
// the index decomposition of every (last axis, the rest) kernel.
int3 RowIndex(int row, int4 shape) {
  const int d2 = row % shape.z;
  row /= shape.z;
  return (int3)(row / shape.y, row % shape.y, d2);
}

// 4 consecutive channels from `c` on, zero past `limit` (tails of C % 4 != 0).
float4 LoadC4(__global const FLT* p, int base, int c, int limit) {
  if (c + 3 < limit) return LD4(p, base + c);
  float4 v = (float4)(0.0f);
  if (c < limit) v.x = LD(p, base + c);
  if (c + 1 < limit) v.y = LD(p, base + c + 1);
  if (c + 2 < limit) v.z = LD(p, base + c + 2);
  return v;
}

void StoreC4(__global FLT* p, int base, int c, int limit, float4 v) {
  if (c + 3 < limit) {
    ST4(p, base + c, v);
    return;
  }
  if (c < limit) ST(p, base + c, v.x);
  if (c + 1 < limit) ST(p, base + c + 1, v.y);
  if (c + 2 < limit) ST(p, base + c + 2, v.z);
}

// Host floats <-> stored tensors at partition boundaries.
__kernel void to_storage(__global const float* src, __global FLT* dst, int n) {
  const int i = get_global_id(0);
  if (i < n) ST(dst, i, src[i]);
}

__kernel void from_storage(__global const FLT* src, __global float* dst, int n) {
  const int i = get_global_id(0);
  if (i < n) dst[i] = LD(src, i);
}

// Quantized tensors live on the device as real values (TFLite's
// --gpu_experimental_enable_quant): INT8/UINT8 partition inputs are dequantized on the
// way in, outputs quantized on the way out, and every quantized output inside is rounded
// to its grid, so the float kernels track the integer ones.
__kernel void dequantize_in(__global const uchar* src, __global FLT* dst, int n, float scale, int zero_point,
                            int is_signed) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const int q = is_signed ? (int)(char)src[i] : (int)src[i];
  ST(dst, i, (float)(q - zero_point) * scale);
}

__kernel void quantize_out(__global const FLT* src, __global uchar* dst, int n, float scale, int zero_point,
                           int qmin, int qmax) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const int q = clamp((int)round(LD(src, i) / scale) + zero_point, qmin, qmax);
  dst[i] = (uchar)q;
}

__kernel void fake_quant(__global FLT* x, int n, float scale, int zero_point, int qmin, int qmax) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const int q = clamp((int)round(LD(x, i) / scale) + zero_point, qmin, qmax);
  ST(x, i, (float)(q - zero_point) * scale);
}
