// Vector exp, logistic and swish for the float steps that need not carry TFLite's builtin
// bits (the XNNPACK delegate's swish in float graphs, where TFLite's default runs XNNPACK's
// own), where a loop of libm calls is the cost. (TFLite's builtin LOGISTIC and TANH bits:
// logistic_f32.h, tanh_f32.h.) One implementation on GCC vector extensions, for 4 lanes
// (any x86-64 / ARM64 CPU: SSE2 / NEON) and 8 lanes (compiled inside AVX2 functions):
// exp by Cephes' expf (range reduction by ln 2 in two constants, degree-5 polynomial,
// within 2 ulp), sigmoid = 1 / (1 + exp(-x)). Within 2.5e-7 of the exact values
// (vector_math_test).
// Apply's sigmoid and swish on AVX-512 take a division-free form of the same exp
// (vector_math.cc), within the same bound (vector_math_test).
// Arguments beyond +-88.38 are clamped (exp's results stay normal): callers that need
// denormal results, or NaN propagated, take the scalar functions for those inputs.
//
// The functions are always inlined: vectors are only ever locals, so the 8-lane forms
// compile with the caller's AVX2 target and no vector crosses a call boundary.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_VECTOR_MATH_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_VECTOR_MATH_H_

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tflite {
namespace vector_math {

typedef float V4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));
typedef float V8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));
typedef float V16 __attribute__((vector_size(64)));
typedef int32_t I16 __attribute__((vector_size(64)));

template <typename V>
struct IntOf;
template <>
struct IntOf<V4> {
  using type = I4;
};
template <>
struct IntOf<V8> {
  using type = I8;
};
template <>
struct IntOf<V16> {
  using type = I16;
};

// Exp's constants (Cephes' expf), shared with Apply's AVX2 and AVX-512 forms: log2(e), ln 2
// in a high part exact in few bits and the low rest, and the polynomial's coefficients
// from the highest power down.
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
constexpr float kExpP0 = 1.9875691500E-4f, kExpP1 = 1.3981999507E-3f, kExpP2 = 8.3334519073E-3f,
                kExpP3 = 4.1665795894E-2f, kExpP4 = 1.6666665459E-1f, kExpP5 = 5.0000001201E-1f;

// x = exp(x), in place (vectors pass by reference: by value, an 8-lane vector would change
// the calling convention between the AVX2 and the baseline code).
template <typename V>
__attribute__((always_inline)) inline void Exp(V& x) {
  using I = typename IntOf<V>::type;
  x = x < -88.3762626647949f ? V{} - 88.3762626647949f : x;
  x = x > 88.3762626647949f ? V{} + 88.3762626647949f : x;
  const V t = x * kLog2e + 0.5f;
  I n = __builtin_convertvector(t, I);  // truncation; floor below
  const V fn0 = __builtin_convertvector(n, V);
  n = fn0 > t ? n - 1 : n;
  const V fn = __builtin_convertvector(n, V);
  x = x - fn * kLn2Hi;
  x = x - fn * kLn2Lo;
  const V z = x * x;
  V y = V{} + kExpP0;
  y = y * x + kExpP1;
  y = y * x + kExpP2;
  y = y * x + kExpP3;
  y = y * x + kExpP4;
  y = y * x + kExpP5;
  y = y * z + x + 1.0f;
  // 2^n in two factors, so that n = 128 (x near 88.38) does not overflow the exponent.
  const I half = n >> 1;
  V s0, s1;
  const I e0 = (half + 127) << 23, e1 = (n - half + 127) << 23;
  std::memcpy(&s0, &e0, sizeof s0);
  std::memcpy(&s1, &e1, sizeof s1);
  x = y * s0 * s1;
}

// Log's polynomial (Cephes' logf), from the highest power down.
constexpr float kLogP[9] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                            -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                            2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};

// x = ln(x), in place, for positive normal floats (Cephes' logf: x = m 2^e with m in
// [sqrt(1/2), sqrt(2)), ln(m) by a degree-9 polynomial in m - 1, e ln 2 added in two
// parts); within 2 ulp there. Zero, negatives, denormals, infinities and NaN give
// meaningless values: Apply takes the scalar log for those.
template <typename V>
__attribute__((always_inline)) inline void Log(V& x) {
  using I = typename IntOf<V>::type;
  I bits;
  std::memcpy(&bits, &x, sizeof bits);
  I e = ((bits >> 23) & 0xff) - 126;
  bits = (bits & 0x807fffff) | 0x3f000000;  // the mantissa in [0.5, 1)
  V m;
  std::memcpy(&m, &bits, sizeof m);
  const I low = m < 0.707106781186547524f;
  e = low ? e - 1 : e;
  V f = low ? m + m - 1.0f : m - 1.0f;
  const V fe = __builtin_convertvector(e, V);
  const V z = f * f;
  V y = V{} + kLogP[0];
  for (int i = 1; i < 9; ++i) y = y * f + kLogP[i];
  y = y * f * z;
  y = y + fe * kLn2Lo;
  y = y - 0.5f * z;
  f = f + y;
  x = f + fe * kLn2Hi;
}

// x = 1 / (1 + exp(-x)), in place. (Apply's AVX-512 and AVX2 forms compute it
// differently, within the same bound: vector_math.cc.)
template <typename V>
__attribute__((always_inline)) inline void Sigmoid(V& x) {
  V e = -x;
  Exp(e);
  x = 1.0f / (1.0f + e);
}

// kSwish: x * sigmoid(x) (SiLU), one pass where a graph has LOGISTIC then MUL.
// kGelu: x * Phi(x) = (0.5 x) (1 + erf(x / sqrt(2))), erf(z) as z P(z^2) / Q(z^2) (a [4/5]
// rational fitted to erf on |z| <= 3.92, z clamped there: within 6e-7 of erf, so GELU
// within 6e-7 |x| of the exact value; not TFLite's builtin bits: gelu_f32.h has those).
// kGeluTanh: the tanh form, 0.5 x (1 + tanh(u)) = x * sigmoid(2u), u = sqrt(2/pi) (x +
// 0.044715 x^3). For the float graphs' GELU, where TFLite's default runs XNNPACK's.
enum class Function { kSigmoid, kSwish, kGelu, kGeluTanh, kExp, kLog };

// GELU's erf: coefficients of P and Q in w = z^2, lowest power first (Q's constant 1).
constexpr float kErfClamp = 3.92f;
constexpr float kErfP[5] = {1.12837827e+00f, 3.12692731e-01f, 6.72027962e-02f, 8.49658276e-03f,
                            3.03865424e-04f};
constexpr float kErfQ[5] = {6.10437584e-01f, 1.63087119e-01f, 2.45670964e-02f, 2.14305515e-03f,
                            1.77527804e-05f};
constexpr float kSqrtHalf = 0.70710678118654752f;
constexpr float kSqrt2OverPi = 0.79788456080286536f;
constexpr float kGeluCubic = 0.044715f;

// out[i] = f(in[i]) over whole vectors of V, then a zero-padded last vector. (The
// function is a template argument, not a callable: a lambda taking a V8 would be a call
// boundary with the baseline ABI inside an AVX2 function.)
// kExp and kLog: the arguments the vector forms take (exp: [-87, 88], the results normal;
// log: positive normal floats); the others, NaN included, get libm's value.
constexpr float kExpLow = -87.0f, kExpHigh = 88.0f;
template <Function kF>
inline bool InVectorRange(float x) {
  return kF == Function::kExp ? (x >= kExpLow && x <= kExpHigh) : (x >= FLT_MIN && x <= FLT_MAX);
}
template <Function kF>
inline float LibmValue(float x) {
  return kF == Function::kExp ? std::exp(x) : std::log(x);
}

template <typename V, Function kF>
__attribute__((always_inline)) inline void Map(V& x) {
  if constexpr (kF == Function::kSigmoid) {
    Sigmoid(x);
  } else if constexpr (kF == Function::kExp || kF == Function::kLog) {
    const V x0 = x;
    if constexpr (kF == Function::kExp) {
      Exp(x);
    } else {
      Log(x);
    }
    for (int l = 0; l < static_cast<int>(sizeof(V) / sizeof(float)); ++l) {
      if (!InVectorRange<kF>(x0[l])) x[l] = LibmValue<kF>(x0[l]);
    }
  } else if constexpr (kF == Function::kSwish) {
    const V x0 = x;
    Sigmoid(x);
    x = x * x0;
  } else if constexpr (kF == Function::kGelu) {
    const V half = x * 0.5f;
    V z = x * kSqrtHalf;
    // (z < -c ? -c : z), then (z > c ? c : z): NaN stays NaN.
    z = z < -kErfClamp ? V{} - kErfClamp : z;
    z = z > kErfClamp ? V{} + kErfClamp : z;
    const V w = z * z;
    V p = V{} + kErfP[4];
    for (int i = 3; i >= 0; --i) p = p * w + kErfP[i];
    V q = V{} + kErfQ[4];
    for (int i = 3; i >= 0; --i) q = q * w + kErfQ[i];
    q = q * w + 1.0f;
    x = half + half * (z * p / q);
  } else {
    const V x0 = x;
    x = x * (2.0f * kSqrt2OverPi + (2.0f * kSqrt2OverPi * kGeluCubic) * (x * x));
    Sigmoid(x);
    x = x * x0;
  }
}

template <typename V, Function kF>
__attribute__((always_inline)) inline void MapArray(const float* in, int64_t n, float* out) {
  constexpr int kLanes = sizeof(V) / sizeof(float);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    V x;
    std::memcpy(&x, in + i, sizeof x);
    Map<V, kF>(x);
    std::memcpy(out + i, &x, sizeof x);
  }
  if (i < n) {
    float tail[kLanes] = {};
    std::memcpy(tail, in + i, sizeof(float) * (n - i));
    V x;
    std::memcpy(&x, tail, sizeof x);
    Map<V, kF>(x);
    std::memcpy(tail, &x, sizeof x);
    std::memcpy(out + i, tail, sizeof(float) * (n - i));
  }
}

// out[i] = f(in[i]) for an array, 16 AVX-512 lanes where the CPU has AVX-512F, 8 AVX2 lanes
// where it has AVX2 and FMA, else 4 (vector_math.cc); the same operations on every lane.
// The notes above on clamped arguments apply, except to kExp and kLog (the EXP and LOG of
// float graphs, where TFLite's default runs XNNPACK's): arguments outside the vector
// forms' range (exp: beyond [-87, 88]; log: not a positive normal float; NaN) take
// std::exp / std::log, so infinities, zeros, denormals and NaN come out as libm's.
void Apply(Function f, const float* in, int64_t n, float* out);

// SOFTMAX over `rows` rows of `depth` values (in == out allowed): exp((x - max) * beta)
// divided by the row's sum, not TFLite's builtin bits (softmax_f32.h computes those): the
// float graphs' SOFTMAX, where TFLite's default runs XNNPACK's. Three passes over a row
// (maximum; exponentials stored and summed in vector lanes; times 1 / sum). The exp: on
// AVX2 + FMA SigmoidAvx2's magic-biased form (vector_math.cc: arguments below -87.33 give
// 0), elsewhere Exp above; arguments above 88 (a negative beta) are clamped there. Within
// 1e-5 relative of the exact softmax of the float arguments for rows of thousands of
// values (the sum in float lanes; vector_math_test).
void Softmax(const float* in, int64_t rows, int depth, float beta, float* out);

}  // namespace vector_math
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_VECTOR_MATH_H_
