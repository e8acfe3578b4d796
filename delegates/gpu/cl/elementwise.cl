// Unary and binary elementwise ops. `op` codes match ElementwiseOp in ops.h.
#define OP_NONE 0
#define OP_LOGISTIC 1
#define OP_TANH 2
#define OP_LEAKY_RELU 3
#define OP_ELU 4
#define OP_HARD_SWISH 5
#define OP_ABS 6
#define OP_NEG 7
#define OP_SQUARE 8
#define OP_SQRT 9
#define OP_RSQRT 10
#define OP_EXP 11
#define OP_LOG 12
#define OP_SIN 13
#define OP_COS 14
#define OP_FLOOR 15
#define OP_CEIL 16

#define OP_ADD 100
#define OP_SUB 101
#define OP_MUL 102
#define OP_DIV 103
#define OP_MAXIMUM 104
#define OP_MINIMUM 105
#define OP_SQUARED_DIFFERENCE 106
#define OP_PRELU 107
#define OP_POW 108

float4 Unary4(int op, float4 x, float alpha) {
  switch (op) {
    case OP_LOGISTIC: return 1.0f / (1.0f + exp(-x));
    case OP_TANH: return tanh(x);
    case OP_LEAKY_RELU: return select(x * alpha, x, x >= 0.0f);
    case OP_ELU: return select(exp(x) - 1.0f, x, x > 0.0f);
    case OP_HARD_SWISH: return x * clamp(x + 3.0f, 0.0f, 6.0f) * (1.0f / 6.0f);
    case OP_ABS: return fabs(x);
    case OP_NEG: return -x;
    case OP_SQUARE: return x * x;
    case OP_SQRT: return sqrt(x);
    case OP_RSQRT: return rsqrt(x);
    case OP_EXP: return exp(x);
    case OP_LOG: return log(x);
    case OP_SIN: return sin(x);
    case OP_COS: return cos(x);
    case OP_FLOOR: return floor(x);
    case OP_CEIL: return ceil(x);
    default: return x;
  }
}

// One work-item per 4 elements; the fused clamp [lo, hi] follows the op (RELU family).
__kernel void unary(__global const FLT* x, __global FLT* y, int n, int op, float alpha,
                    float lo, float hi) {
  const int i = get_global_id(0) * 4;
  if (i >= n) return;
  if (i + 3 < n) {
    ST4(y, i, clamp(Unary4(op, LD4(x, i), alpha), lo, hi));
    return;
  }
  for (int k = i; k < n; ++k) {
    ST(y, k, clamp(Unary4(op, (float4)(LD(x, k)), alpha).x, lo, hi));
  }
}

float4 Binary4(int op, float4 a, float4 b) {
  switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_MAXIMUM: return fmax(a, b);
    case OP_MINIMUM: return fmin(a, b);
    case OP_SQUARED_DIFFERENCE: return (a - b) * (a - b);
    case OP_PRELU: return select(a * b, a, a >= 0.0f);
    case OP_POW: return pow(a, b);
    default: return a;
  }
}

// Same-shape operands: 4 elements per work-item.
__kernel void binary_same(__global const FLT* a, __global const FLT* b, __global FLT* y, int n,
                          int op, float lo, float hi) {
  const int i = get_global_id(0) * 4;
  if (i >= n) return;
  if (i + 3 < n) {
    ST4(y, i, clamp(Binary4(op, LD4(a, i), LD4(b, i)), lo, hi));
    return;
  }
  for (int k = i; k < n; ++k) {
    ST(y, k, clamp(Binary4(op, (float4)(LD(a, k)), (float4)(LD(b, k))).x, lo, hi));
  }
}

// Broadcasting (rank <= 4, right-aligned to 4D): strides are 0 along broadcast axes.
// Work-item: (4 positions of the last axis, the other three axes flattened).
__kernel void binary_broadcast(__global const FLT* a, __global const FLT* b, __global FLT* y,
                               int4 shape, int4 astride, int4 bstride, int op, float lo,
                               float hi) {
  const int c = get_global_id(0) * 4;
  const int rest = get_global_id(1);
  if (c >= shape.w || rest >= shape.x * shape.y * shape.z) return;
  const int3 d = RowIndex(rest, shape);
  const int d0 = d.x, d1 = d.y, d2 = d.z;
  const int abase = d0 * astride.x + d1 * astride.y + d2 * astride.z;
  const int bbase = d0 * bstride.x + d1 * bstride.y + d2 * bstride.z;
  const int ybase = ((d0 * shape.y + d1) * shape.z + d2) * shape.w;
  float4 av, bv;
  if (astride.w == 1) {
    av = LoadC4(a, abase, c, shape.w);
  } else {
    av = (float4)(LD(a, abase));
  }
  if (bstride.w == 1) {
    bv = LoadC4(b, bbase, c, shape.w);
  } else {
    bv = (float4)(LD(b, bbase));
  }
  StoreC4(y, ybase, c, shape.w, clamp(Binary4(op, av, bv), lo, hi));
}
