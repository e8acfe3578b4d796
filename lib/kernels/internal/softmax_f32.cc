#include "kernels/internal/softmax_f32.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/internal/eigen_sum.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/vector_math.h"

namespace tflite {
namespace softmax_f32 {
namespace {

using vector_math::I4;
using vector_math::I8;
using vector_math::IntOf;
using vector_math::V16;
using vector_math::V4;
using vector_math::V8;

// 2^e as a float (e in [-126, 127] gives a normal power; callers keep it there).
template <typename I, typename V>
__attribute__((always_inline)) inline void Pow2(const I& e, V& v) {
  const I bits = (e + 127) << 23;
  std::memcpy(&v, &bits, sizeof v);
}

// Eigen's pexp_float, lane by lane, each multiply and add rounded on its own (the SSE build
// has no FMA). Vectors pass by reference (see vector_math.h).
template <typename V>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void PExp(V& io) {
  using I = typename IntOf<V>::type;
  const V x0 = io;
  // pmin(x0, 88.723); NaN lanes end as x0 (pmax below) whatever is computed here. Lanes
  // below -104 end as 0: clamping them at -110 keeps m (and 2^m's factors) in range.
  V x = x0 < 88.723f ? x0 : V{} + 88.723f;
  x = x > -110.0f ? x : V{} - 110.0f;
  V t = x * 1.44269504088896341f;
  t = t + 0.5f;
  // floor(t): truncate, then one less where that rounded up (t is within int32 here).
  I mi = __builtin_convertvector(t, I);
  V m = __builtin_convertvector(mi, V);
  mi = m > t ? mi - 1 : mi;
  m = __builtin_convertvector(mi, V);
  V r = m * -0.693359375f;
  r = r + x;
  V r_c2 = m * 2.12194440e-4f;
  r = r_c2 + r;
  const V r2 = r * r;
  V p_even = r2 * 1.37449637986719608306884765625e-3f;
  p_even = p_even + 4.166965186595916748046875e-2f;
  V p_odd = r2 * 8.36894474923610687255859375e-3f;
  p_odd = p_odd + 0.16666518151760101318359375f;
  p_even = r2 * p_even;
  p_even = p_even + 0.49999988079071044921875f;
  const V p_low = r + 1.0f;
  V y = r * p_odd;
  y = y + p_even;
  y = r2 * y;
  y = y + p_low;
  // pldexp: y * 2^b * 2^b * 2^b * 2^(m - 3b), b = floor(m / 4) (Eigen clamps m to
  // [-2099, 2099] first; here m is in [-159, 128], every factor a normal float).
  const I b = mi >> 2;
  V c, d;
  Pow2(b, c);
  Pow2(mi - 3 * b, d);
  V out = y * c;
  out = out * c;
  out = out * c;
  out = out * d;
  // pmax(out, x0): x0 where it is larger (+inf) or NaN; 0 below -104.
  out = out > x0 ? out : x0;
  out = x0 < -104.0f ? V{} : out;
  io = out;
}

float Max(const float* in, int depth) {
  float max = in[0];
  for (int c = 1; c < depth; ++c) max = in[c] > max ? in[c] : max;
  return max;
}

// Max on kLanes independent lanes, each started at in[0]: `v > m ? v : m` skips NaN values
// as the loop above does, and a NaN in[0] stays the result; ties of -0 and +0 may resolve
// the other way, which x - max and so the row's exponentials do not see.
template <typename V, int kLanes>
__attribute__((always_inline)) inline float VectorMax(const float* in, int depth) {
  if (depth < 2 * kLanes) return Max(in, depth);
  V m0 = V{} + in[0], m1 = m0;
  int c = 0;
  for (; c + 2 * kLanes <= depth; c += 2 * kLanes) {
    V v0, v1;
    std::memcpy(&v0, in + c, sizeof v0);
    std::memcpy(&v1, in + c + kLanes, sizeof v1);
    m0 = v0 > m0 ? v0 : m0;
    m1 = v1 > m1 ? v1 : m1;
  }
  m0 = m1 > m0 ? m1 : m0;
  float max = in[0];
  for (int l = 0; l < kLanes; ++l) max = m0[l] > max ? m0[l] : max;
  for (; c < depth; ++c) max = in[c] > max ? in[c] : max;
  return max;
}

// exp((x - max) * beta) of values [0, n) of a row; values from `exact_from` on take
// std::exp (the tensor's last size % 4).
template <typename V, int kLanes>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void ExpRow(
    const float* in, int n, float max, float beta, int exact_from, float* out) {
  int c = 0;
  const int body = std::min(n, exact_from);
  for (; c + kLanes <= body; c += kLanes) {
    V v;
    std::memcpy(&v, in + c, sizeof v);
    v = v - max;
    v = v * beta;
    PExp(v);
    std::memcpy(out + c, &v, sizeof v);
  }
  if (c < body) {  // the last body % kLanes values in one partly filled vector (lanes apart)
    const size_t left = static_cast<size_t>(body - c);
    V v = V{};
    std::memcpy(&v, in + c, left * sizeof(float));
    v = v - max;
    v = v * beta;
    PExp(v);
    std::memcpy(out + c, &v, left * sizeof(float));
    c = body;
  }
  for (; c < n; ++c) {
    float t = in[c] - max;
    t = t * beta;
    out[c] = std::exp(t);
  }
}

// Rows [0, rows) of a block (at most kBlockRows), `first`: the block's offset in the tensor.
// Phase by phase over the block (maxima, exponentials, sums and scaling), so that no
// row's exponentials wait on its own maximum load chain and the rows' long exp chains
// overlap instead of each waiting on its sum: the values are the row-by-row ones.
constexpr int kBlockRows = 8;

template <typename V, int kLanes>
__attribute__((always_inline, optimize("fp-contract=off"))) inline void BlockImpl(
    const float* in, int rows, int depth, float beta, int64_t first, int64_t exact_from,
    float* out) {
  float max[kBlockRows];
  for (int r = 0; r < rows; ++r) max[r] = VectorMax<V, kLanes>(in + r * depth, depth);
  for (int r = 0; r < rows; ++r) {
    const int64_t local = exact_from - (first + static_cast<int64_t>(r) * depth);
    ExpRow<V, kLanes>(in + r * depth, depth, max[r], beta,
                      static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(depth, local))),
                      out + r * depth);
  }
  for (int r = 0; r < rows; ++r) {
    float* o = out + r * depth;
    const float scale = 1.0f / EigenSum(o, depth, first + static_cast<int64_t>(r) * depth);
    for (int c = 0; c < depth; ++c) o[c] = o[c] * scale;
  }
}

void BlockGeneric(const float* in, int rows, int depth, float beta, int64_t first,
                  int64_t exact_from, float* out) {
  BlockImpl<V4, 4>(in, rows, depth, beta, first, exact_from, out);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"), optimize("fp-contract=off"))) void BlockAvx2(
    const float* in, int rows, int depth, float beta, int64_t first, int64_t exact_from,
    float* out) {
  BlockImpl<V8, 8>(in, rows, depth, beta, first, exact_from, out);
}
// The same lanes 16 at a time (AVX-512 implies FMA: contraction stays off).
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void BlockAvx512(
    const float* in, int rows, int depth, float beta, int64_t first, int64_t exact_from,
    float* out) {
  BlockImpl<V16, 16>(in, rows, depth, beta, first, exact_from, out);
}
#endif

}  // namespace

float EigenExp(float x) {
  V4 v = V4{} + x;
  PExp(v);
  return v[0];
}

void Softmax(const float* input, int64_t rows, int depth, float beta, float* output,
             pthreadpool* pool) {
  if (rows <= 0 || depth <= 0) return;
  auto block_fn = BlockGeneric;
#if defined(__x86_64__) || defined(__i386__)
  if (gemm::CpuHasAvx512F()) {
    block_fn = BlockAvx512;
  } else if (gemm::CpuHasAvx2()) {
    block_fn = BlockAvx2;
  }
#endif
  const int64_t exact_from = (rows * depth) & ~int64_t{3};
  const double work = static_cast<double>(rows) * depth * 16;
  const int64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
  parallel::ParallelFor(pool, static_cast<size_t>(blocks), work, [&](size_t b) {
    const int64_t row0 = static_cast<int64_t>(b) * kBlockRows;
    const int count = static_cast<int>(std::min<int64_t>(kBlockRows, rows - row0));
    const int64_t first = row0 * depth;
    block_fn(input + first, count, depth, beta, first, exact_from, output + first);
  });
}

}  // namespace softmax_f32
}  // namespace tflite
