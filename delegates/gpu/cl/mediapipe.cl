// MediaPipe's face-mesh custom ops (lib/custom_ops/mediapipe has their CPU kernels and
// semantics), as TFLite's GPU delegate also runs them.

// Landmarks2TransformMatrix: one work-item builds the 4x4 matrix (it is 16 numbers).
float4 Row(const float* m, int r) { return (float4)(m[r * 4], m[r * 4 + 1], m[r * 4 + 2], m[r * 4 + 3]); }

void MatMul(const float* a, const float* b, float* out) {
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += a[i * 4 + k] * b[k * 4 + j];
      out[i * 4 + j] = sum;
    }
  }
}

__kernel void landmarks_to_matrix(__global const FLT* lm, __global const int* subset, int subset_count,
                                  int left, int right, float target, int out_h, int out_w, float scale_x,
                                  float scale_y, __global FLT* out) {
  if (get_global_id(0) != 0) return;
  const float rotation = target - atan2(LD(lm, right * 3 + 1) - LD(lm, left * 3 + 1),
                                        LD(lm, right * 3) - LD(lm, left * 3));
  const float c = cos(rotation), s = sin(rotation);
  float min_x = 0.0f, min_y = 0.0f, max_x = 0.0f, max_y = 0.0f;
  for (int i = 0; i < subset_count; ++i) {
    const int k = subset[i];
    const float x = LD(lm, k * 3), y = LD(lm, k * 3 + 1);
    const float rx = c * x + -s * y, ry = s * x + c * y;
    if (i == 0 || rx < min_x) min_x = rx;
    if (i == 0 || ry < min_y) min_y = ry;
    if (i == 0 || rx > max_x) max_x = rx;
    if (i == 0 || ry > max_y) max_y = ry;
  }
  const float crop_w = max_x - min_x, crop_h = max_y - min_y;
  const float mid_x = (min_x + max_x) / 2, mid_y = (min_y + max_y) / 2;
  const float ci = cos(-rotation), si = sin(-rotation);
  const float crop_x = ci * mid_x + -si * mid_y, crop_y = si * mid_x + ci * mid_y;
  // T(crop) * R(-rotation) * S(scale * crop / out) * T(-out / 2)
  float t[16] = {1, 0, 0, crop_x, 0, 1, 0, crop_y, 0, 0, 1, 0, 0, 0, 0, 1};
  float r[16] = {ci, -si, 0, 0, si, ci, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float sc[16] = {scale_x * crop_w / out_w, 0, 0, 0, 0, scale_y * crop_h / out_h, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float t2[16] = {1, 0, 0, -1.0f * (out_w / 2.0f), 0, 1, 0, -1.0f * (out_h / 2.0f), 0, 0, 1, 0, 0, 0, 0, 1};
  float a[16], b[16];
  MatMul(t, r, a);
  MatMul(a, sc, b);
  MatMul(b, t2, a);
  for (int i = 0; i < 16; ++i) ST(out, i, a[i]);
}

// TransformLandmarks: x' = m0 x + m1 y + m3, y' = m4 x + m5 y + m7, z' = z.
__kernel void transform_landmarks(__global const FLT* in, __global const FLT* m, __global FLT* out, int count,
                                  int dims) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const float x = LD(in, i * dims), y = LD(in, i * dims + 1);
  ST(out, i * dims, LD(m, 0) * x + LD(m, 1) * y + LD(m, 3));
  ST(out, i * dims + 1, LD(m, 4) * x + LD(m, 5) * y + LD(m, 7));
  if (dims == 3) ST(out, i * dims + 2, LD(in, i * dims + 2));
}

// TransformTensorBilinear v2: output pixel (ox, oy) samples the input at M * (ox, oy, 0, 1)
// with MediaPipe's pixel-centre correction; outside the input gives 0.
__kernel void transform_tensor_bilinear(__global const FLT* in, __global const FLT* m, __global FLT* out,
                                        int4 ishape, int4 oshape) {
  const int ox = get_global_id(0);
  const int oy = get_global_id(1);
  const int c = get_global_id(2) * 4;
  if (ox >= oshape.z || oy >= oshape.y || c >= oshape.w) return;
  const float x0 = LD(m, 0), x1 = LD(m, 1), x3 = LD(m, 3) + LD(m, 0) * 0.5f + LD(m, 1) * 0.5f - 0.5f;
  const float y0 = LD(m, 4), y1 = LD(m, 5), y3 = LD(m, 7) + LD(m, 4) * 0.5f + LD(m, 5) * 0.5f - 0.5f;
  const float tx = x0 * ox + x1 * oy + x3, ty = y0 * ox + y1 * oy + y3;
  const int obase = (oy * oshape.z + ox) * oshape.w;
  if (!(tx >= 0.0f && tx <= ishape.z - 1 && ty >= 0.0f && ty <= ishape.y - 1)) {
    StoreC4(out, obase, c, oshape.w, (float4)(0.0f));
    return;
  }
  const int xl = (int)floor(tx), yl = (int)floor(ty);
  const float right = tx - floor(tx), lower = ty - floor(ty);
  float4 q[4];
  for (int k = 0; k < 4; ++k) {
    const int yy = yl + (k >> 1), xx = xl + (k & 1);
    q[k] = (yy < ishape.y && xx < ishape.z) ? LoadC4(in, (yy * ishape.z + xx) * ishape.w, c, ishape.w)
                                            : (float4)(0.0f);
  }
  const float4 upper_v = (1.0f - right) * q[0] + right * q[1];
  const float4 lower_v = (1.0f - right) * q[2] + right * q[3];
  StoreC4(out, obase, c, oshape.w, lower * lower_v + (1.0f - lower) * upper_v);
}
