// Eigen's ptanh_float in its EIGEN_FAST_MATH form (the default, and what TFLite 2.21
// builds): the argument clamped to +-7.90738964 (the non-FMA bound where the quotient
// reaches 1), then x + x^3 P(x^2) over Q(x^2), a [9/8] minimax rational, every multiply
// and add rounded on its own and a true division. Checked bit for bit against ai-edge-litert
// 2.3.0 on 8 M values, its scalar tail included (testdata/kernels/tanh_float_*).
#include "kernels/internal/tanh_f32.h"

#include <algorithm>
#include <cstring>

#include "kernels/internal/gemm.h"
#include "kernels/internal/vector_math.h"

namespace tflite {
namespace tanh_f32 {
namespace {

constexpr float kClamp = 7.90738964080810547f;

// Vectors pass by reference (see vector_math.h).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Lanes(V& io) {
  // pmin / pmax with the operands as Eigen's SSE ones: a NaN argument stays NaN.
  V x = kClamp < io ? V{} + kClamp : io;
  x = x < -kClamp ? V{} - kClamp : x;
  const V x2 = x * x;
  const V x3 = x2 * x;
  V p = x2 * 1.394553628e-8f;
  p = p + 2.102733560e-5f;
  p = p * x2;
  p = p + 3.520756727e-3f;
  p = p * x2;
  p = p + 1.340216100e-1f;
  V q = x2 * 8.015776984e-7f;
  q = q + 3.326951409e-4f;
  q = q * x2;
  q = q + 2.597254514e-2f;
  q = q * x2;
  q = q + 4.673548340e-1f;
  q = q * x2;
  q = q + 1.0f;
  p = x3 * p;
  p = p + x;
  io = p / q;
}

template <typename V, int kLanes>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void Impl(const float* in,
                                                                             float* out,
                                                                             int64_t n) {
  int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    V a, b;
    std::memcpy(&a, in + i, sizeof a);
    std::memcpy(&b, in + i + kLanes, sizeof b);
    Lanes(a);
    Lanes(b);
    std::memcpy(out + i, &a, sizeof a);
    std::memcpy(out + i + kLanes, &b, sizeof b);
  }
  // One vector more before the 4-lane steps (an LSTM gate of 20 values: one, not five).
  for (; i + kLanes <= n; i += kLanes) {
    V a;
    std::memcpy(&a, in + i, sizeof a);
    Lanes(a);
    std::memcpy(out + i, &a, sizeof a);
  }
  for (; i < n; i += 4) {
    const size_t left = static_cast<size_t>(std::min<int64_t>(4, n - i));
    vector_math::V4 a = {};
    std::memcpy(&a, in + i, left * sizeof(float));
    Lanes(a);
    std::memcpy(out + i, &a, left * sizeof(float));
  }
}

void Generic(const float* in, float* out, int64_t n) { Impl<vector_math::V4, 4>(in, out, n); }

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"), optimize("fp-contract=off"))) void Avx2(const float* in, float* out,
                                                                       int64_t n) {
  Impl<vector_math::V8, 8>(in, out, n);
}
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void Avx512(const float* in,
                                                                            float* out, int64_t n) {
  Impl<vector_math::V16, 16>(in, out, n);
}
#endif

}  // namespace

void Tanh(const float* in, float* out, int64_t n) {
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) return Avx512(in, out, n);
  if (gemm::CpuHasAvx2()) return Avx2(in, out, n);
#endif
  Generic(in, out, n);
}

}  // namespace tanh_f32
}  // namespace tflite
