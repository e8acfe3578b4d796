#include "kernels/internal/softmax_f32.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/internal/eigen_exp.h"
#include "kernels/internal/eigen_sum.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/vector_math.h"

namespace tflite {
namespace softmax_f32 {
namespace {

using eigen_exp::PExp;
using vector_math::V16;
using vector_math::V4;
using vector_math::V8;

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
  // Two vectors a step: exp's polynomial is a chain of dependent operations, and two
  // independent chains keep the FP units busy (the same operations per lane).
  for (; c + 2 * kLanes <= body; c += 2 * kLanes) {
    V v0, v1;
    std::memcpy(&v0, in + c, sizeof v0);
    std::memcpy(&v1, in + c + kLanes, sizeof v1);
    v0 = v0 - max;
    v1 = v1 - max;
    v0 = v0 * beta;
    v1 = v1 * beta;
    PExp(v0);
    PExp(v1);
    std::memcpy(out + c, &v0, sizeof v0);
    std::memcpy(out + c + kLanes, &v1, sizeof v1);
  }
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
