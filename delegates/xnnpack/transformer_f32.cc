#include "xnnpack/transformer_f32.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernels/internal/eigen_sum.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/gelu_f32.h"
#include "kernels/internal/logistic_f32.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/tanh_f32.h"
#include "kernels/internal/vector_math.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

// Elements per task: large enough that a task outweighs the pool's hand-off (and a multiple
// of 4: see kLogistic).
constexpr size_t kTile = 4096;

struct UnaryTask {
  UnaryF32 op;
  const float* in;
  float* out;
  size_t n;
};

void UnaryTile(void* ctx, size_t begin, size_t count) {
  const UnaryTask& t = *static_cast<const UnaryTask*>(ctx);
  const size_t end = std::min(t.n, begin + count);
  const float* in = t.in + begin;
  float* out = t.out + begin;
  const auto n = static_cast<int64_t>(end - begin);
  switch (t.op) {
    case UnaryF32::kTanh:
      tflite::tanh_f32::Tanh(in, out, n);
      break;
    case UnaryF32::kRsqrt:
      for (int64_t i = 0; i < n; ++i) out[i] = 1.0f / std::sqrt(in[i]);
      break;
    case UnaryF32::kGelu:
      tflite::vector_math::Apply(tflite::vector_math::Function::kGelu, in, n, out);
      break;
    case UnaryF32::kGeluApproximate:
      tflite::vector_math::Apply(tflite::vector_math::Function::kGeluTanh, in, n, out);
      break;
    case UnaryF32::kGeluBuiltin:
      tflite::gelu_f32::Gelu(in, out, n, /*approximate=*/false);
      break;
    case UnaryF32::kGeluApproximateBuiltin:
      tflite::gelu_f32::Gelu(in, out, n, /*approximate=*/true);
      break;
    case UnaryF32::kSoftmax:
    case UnaryF32::kSoftmaxBuiltin:
      break;  // by rows, not elementwise: XnnpackKernel's step
    case UnaryF32::kSwish:
      tflite::vector_math::Apply(tflite::vector_math::Function::kSwish, in, n, out);
      break;
    // Tiles start at multiples of 4, so only the tensor's last n % 4 values take Eigen's
    // scalar path, as in the builtin kernel.
    case UnaryF32::kLogistic:
      tflite::logistic_f32::Logistic(in, out, n);
      break;
    case UnaryF32::kSwishBuiltin:
      tflite::logistic_f32::Swish(in, out, n);
      break;
    case UnaryF32::kExp:
      tflite::vector_math::Apply(tflite::vector_math::Function::kExp, in, n, out);
      break;
    case UnaryF32::kLog:
      tflite::vector_math::Apply(tflite::vector_math::Function::kLog, in, n, out);
      break;
    case UnaryF32::kExpBuiltin:
      for (int64_t i = 0; i < n; ++i) out[i] = std::exp(in[i]);
      break;
    case UnaryF32::kLogBuiltin:
      for (int64_t i = 0; i < n; ++i) out[i] = std::log(in[i]);
      break;
    case UnaryF32::kSin:
      for (int64_t i = 0; i < n; ++i) out[i] = std::sin(in[i]);
      break;
    case UnaryF32::kCos:
      for (int64_t i = 0; i < n; ++i) out[i] = std::cos(in[i]);
      break;
  }
}

#if defined(__x86_64__) || defined(__i386__)
#define TFI_LAYER_NORM_AVX512 1
// LayerNormF32's two loops on 16 lanes (a masked tail), each operation rounded on its own
// (fp-contract off: GCC would otherwise fuse the multiply and add intrinsics).
__attribute__((target("avx512f"), optimize("fp-contract=off"))) void SquaresAvx512(
    const float* x, float m, float* sq, size_t n) {
  const __m512 mv = _mm512_set1_ps(m);
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1u);
    const __m512 d = _mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), mv);
    _mm512_mask_storeu_ps(sq + i, k, _mm512_mul_ps(d, d));
  }
}

__attribute__((target("avx512f"), optimize("fp-contract=off"))) void NormalizeAvx512(
    const float* x, float scale, float m, const float* gamma, const float* beta, float* y,
    size_t n) {
  const __m512 sv = _mm512_set1_ps(scale), mv = _mm512_set1_ps(m), neg_m = _mm512_set1_ps(-m);
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1u);
    const __m512 g = _mm512_mul_ps(sv, _mm512_maskz_loadu_ps(k, gamma + i));
    const __m512 b = beta != nullptr
                         ? _mm512_sub_ps(_mm512_maskz_loadu_ps(k, beta + i), _mm512_mul_ps(mv, g))
                         : _mm512_mul_ps(neg_m, g);
    const __m512 a = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, x + i), g);
    _mm512_mask_storeu_ps(y + i, k, _mm512_add_ps(a, b));
  }
}
// The same two loops on 8 AVX2 lanes (the tail as the scalar loops), same bits.
__attribute__((target("avx2"), optimize("fp-contract=off"))) void SquaresAvx2(const float* x,
                                                                              float m, float* sq,
                                                                              size_t n) {
  const __m256 mv = _mm256_set1_ps(m);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(x + i), mv);
    _mm256_storeu_ps(sq + i, _mm256_mul_ps(d, d));
  }
  for (; i < n; ++i) {
    const float d = x[i] - m;
    sq[i] = d * d;
  }
}

__attribute__((target("avx2"), optimize("fp-contract=off"))) void NormalizeAvx2(
    const float* x, float scale, float m, const float* gamma, const float* beta, float* y,
    size_t n) {
  const __m256 sv = _mm256_set1_ps(scale), mv = _mm256_set1_ps(m), neg_m = _mm256_set1_ps(-m);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 g = _mm256_mul_ps(sv, _mm256_loadu_ps(gamma + i));
    const __m256 b = beta != nullptr
                         ? _mm256_sub_ps(_mm256_loadu_ps(beta + i), _mm256_mul_ps(mv, g))
                         : _mm256_mul_ps(neg_m, g);
    const __m256 a = _mm256_mul_ps(_mm256_loadu_ps(x + i), g);
    _mm256_storeu_ps(y + i, _mm256_add_ps(a, b));
  }
  for (; i < n; ++i) {
    const float g = scale * gamma[i];
    const float b = beta != nullptr ? beta[i] - m * g : -m * g;
    const float a = x[i] * g;
    y[i] = a + b;
  }
}
#endif

}  // namespace

void RunUnaryF32(UnaryF32 op, const float* in, float* out, size_t n, pthreadpool_t pool) {
  UnaryTask task{op, in, out, n};
  if (pool == nullptr || pthreadpool_get_threads_count(pool) <= 1 || n <= 2 * kTile) {
    UnaryTile(&task, 0, n);
    return;
  }
  pthreadpool_parallelize_1d_tile_1d(pool, UnaryTile, &task, n, kTile, /*flags=*/0);
}

LayerNormF32::LayerNormF32(const std::vector<int>& dims, float epsilon, const float* gamma,
                           const float* beta)
    : epsilon_(epsilon) {
  depth_ = static_cast<size_t>(dims.back());
  for (size_t d = 0; d + 1 < dims.size(); ++d) rows_ *= static_cast<size_t>(dims[d]);
  gamma_.assign(gamma, gamma + depth_);
  if (beta != nullptr) beta_.assign(beta, beta + depth_);
  squares_.resize(rows_ * depth_);
}

// fp-contract off: each product and sum rounded on its own, as the separate nodes round them.
// Blocks of up to 8 rows phase by phase (means, variances, scales, then the normalized
// rows), so that the rows' latency chains (two sums, a square root and a division each)
// overlap instead of each row waiting on its own.
__attribute__((optimize("fp-contract=off"))) void LayerNormF32::RunRows(const float* x, float* y,
                                                                       size_t r0, size_t r1) const {
  const auto n = static_cast<int64_t>(depth_);
  const auto count = static_cast<float>(depth_);
  const float* gamma = gamma_.data();
  const float* beta = beta_.empty() ? nullptr : beta_.data();
#if defined(__x86_64__) || defined(__i386__)
#ifdef TFI_LAYER_NORM_AVX512
  const bool avx512 = tflite::gemm::CpuHasAvx512F();
#else
  const bool avx512 = false;
#endif
  const bool avx2 = !avx512 && tflite::gemm::CpuHasAvx2();
#endif
  constexpr size_t kBlock = 8;
  for (size_t b0 = r0; b0 < r1; b0 += kBlock) {
    const size_t rows = std::min(kBlock, r1 - b0);
    float mean[kBlock], scale[kBlock];
    // MeanF32's sums of one contiguous run per output (the run's index as its offset).
    for (size_t k = 0; k < rows; ++k) {
      const size_t at = (b0 + k) * depth_;
      mean[k] = tflite::EigenSum(x + at, n, static_cast<int64_t>(at)) / count;
    }
    for (size_t k = 0; k < rows; ++k) {
      const size_t at = (b0 + k) * depth_;
      const float* xr = x + at;
      float* sq = squares_.data() + at;
      const float m = mean[k];
#ifdef TFI_LAYER_NORM_AVX512
      if (avx512) {
        SquaresAvx512(xr, m, sq, depth_);
      } else
#endif
#if defined(__x86_64__) || defined(__i386__)
          if (avx2) {
        SquaresAvx2(xr, m, sq, depth_);
      } else
#endif
      {
        for (size_t i = 0; i < depth_; ++i) {
          const float d = xr[i] - m;
          sq[i] = d * d;
        }
      }
      // RSQRT as the step computes it (1 / sqrt, each rounded).
      const float shifted = tflite::EigenSum(sq, n, static_cast<int64_t>(at)) / count + epsilon_;
      scale[k] = 1.0f / std::sqrt(shifted);
    }
    for (size_t k = 0; k < rows; ++k) {
      const size_t at = (b0 + k) * depth_;
      const float* xr = x + at;
      float* yr = y + at;
      const float m = mean[k], sc = scale[k];
#ifdef TFI_LAYER_NORM_AVX512
      if (avx512) {
        NormalizeAvx512(xr, sc, m, gamma, beta, yr, depth_);
        continue;
      }
#endif
#if defined(__x86_64__) || defined(__i386__)
      if (avx2) {
        NormalizeAvx2(xr, sc, m, gamma, beta, yr, depth_);
        continue;
      }
#endif
      if (beta != nullptr) {
        for (size_t i = 0; i < depth_; ++i) {
          const float g = sc * gamma[i];
          const float mg = m * g;
          const float b = beta[i] - mg;
          const float a = xr[i] * g;
          yr[i] = a + b;
        }
      } else {
        const float neg_m = -m;
        for (size_t i = 0; i < depth_; ++i) {
          const float g = sc * gamma[i];
          const float b = neg_m * g;
          const float a = xr[i] * g;
          yr[i] = a + b;
        }
      }
    }
  }
}

void LayerNormF32::Run(const float* x, float* y, pthreadpool_t pool) const {
  // Rows in tiles of about kTile elements, when there is more than one tile.
  const size_t tile = std::max<size_t>(1, kTile / depth_);
  if (pool == nullptr || pthreadpool_get_threads_count(pool) <= 1 || rows_ <= tile) {
    RunRows(x, y, 0, rows_);
    return;
  }
  struct Task {
    const LayerNormF32* self;
    const float* x;
    float* y;
    size_t rows;
  } task{this, x, y, rows_};
  pthreadpool_parallelize_1d_tile_1d(
      pool,
      [](void* ctx, size_t begin, size_t count) {
        const Task& t = *static_cast<const Task*>(ctx);
        t.self->RunRows(t.x, t.y, begin, std::min(t.rows, begin + count));
      },
      &task, rows_, tile, /*flags=*/0);
}

void BatchMatMulF32::PackConstantRhs(const float* rhs) {
  tflite::matmul::PackFloatRhs(adj_y_, rhs, g_, &packed_);
  rhs_packed_ = true;
}

void BatchMatMulF32::Run(const float* lhs, const float* rhs, float* out, pthreadpool_t pool) {
  if (g_.k == 0) {  // an empty contraction: every sum is 0
    std::fill(out, out + g_.out_batches * g_.m * g_.n, 0.0f);
    return;
  }
  if (views_) {
    RunViews(lhs, rhs, out, pool);
    return;
  }
  if (!rhs_packed_) tflite::matmul::PackFloatRhs(adj_y_, rhs, g_, &packed_);
  tflite::matmul::FloatBatches(adj_x_, g_, lhs, packed_.data(), out, &lhs_t_, pool, kernel_);
}

void BatchMatMulF32::SetViews(std::vector<int> lhs_dims, std::vector<int64_t> lhs_strides,
                              std::vector<int> rhs_dims, std::vector<int64_t> rhs_strides,
                              std::vector<int64_t> out_strides) {
  views_ = true;
  lhs_dims_ = std::move(lhs_dims);
  lhs_strides_ = std::move(lhs_strides);
  rhs_dims_ = std::move(rhs_dims);
  rhs_strides_ = std::move(rhs_strides);
  out_strides_ = std::move(out_strides);
}

namespace {

// The element offset of an operand's matrix for the output batch `index` (NumPy
// broadcasting: the operand's dimensions align with the output's last ones; a dimension of
// 1 is read for every index).
int64_t BatchOffset(const std::vector<int>& dims, const std::vector<int64_t>& strides,
                    const int64_t* index, int out_batch_dims) {
  const int op_batch_dims = static_cast<int>(dims.size()) - 2;
  int64_t offset = 0;
  for (int d = 0; d < out_batch_dims; ++d) {
    const int od = d - (out_batch_dims - op_batch_dims);
    if (od >= 0 && dims[od] != 1) offset += index[d] * strides[od];
  }
  return offset;
}

}  // namespace

// The same sums as FloatBatches (each output matrix one FloatGemm on the packed rhs), with
// the operands where the views say: the lhs rows read in place when their k values are
// contiguous (else gathered), the rhs packed from its strides (once while consecutive
// batches read the same matrix), the output rows written at their stride.
void BatchMatMulF32::RunViews(const float* lhs, const float* rhs, float* out, pthreadpool_t pool) {
  const int lr = static_cast<int>(lhs_dims_.size()), rr = static_cast<int>(rhs_dims_.size());
  const int64_t m_stride = adj_x_ ? lhs_strides_[lr - 1] : lhs_strides_[lr - 2];
  const int64_t lk_stride = adj_x_ ? lhs_strides_[lr - 2] : lhs_strides_[lr - 1];
  const int64_t rk_stride = adj_y_ ? rhs_strides_[rr - 1] : rhs_strides_[rr - 2];
  const int64_t n_stride = adj_y_ ? rhs_strides_[rr - 2] : rhs_strides_[rr - 1];
  const int64_t ldc = out_strides_[g_.rank - 2];
  const int batch_dims = g_.rank - 2;
  // The offsets of output batch ob's operands and output.
  auto offsets = [&](int64_t ob, int64_t* l_off, int64_t* r_off, int64_t* o_off) {
    int64_t index[tflite::matmul::kMaxRank] = {};  // the output batch's coordinates
    int64_t rem = ob;
    for (int d = batch_dims - 1; d >= 0; --d) {
      index[d] = rem % g_.out_dims[d];
      rem /= g_.out_dims[d];
    }
    *l_off = BatchOffset(lhs_dims_, lhs_strides_, index, batch_dims);
    *r_off = BatchOffset(rhs_dims_, rhs_strides_, index, batch_dims);
    *o_off = 0;
    for (int d = 0; d < batch_dims; ++d) *o_off += index[d] * out_strides_[d];
  };
  const size_t panel = tflite::gemm::PackedWeightsSize(g_.n, g_.k);
  if (lk_stride == 1 &&
      tflite::matmul::BatchesOverThreads(g_.out_batches, g_.m, g_.n, g_.k, pool)) {
    // One product a task, each on its own packed rhs: the same sums as below.
    packed_.resize(panel * static_cast<size_t>(g_.out_batches));
    tflite::parallel::ParallelFor(
        pool, static_cast<size_t>(g_.out_batches),
        static_cast<double>(g_.out_batches) * g_.m * g_.n * g_.k, [&](size_t ob) {
          int64_t l_off, r_off, o_off;
          offsets(static_cast<int64_t>(ob), &l_off, &r_off, &o_off);
          float* packed = packed_.data() + ob * panel;
          tflite::gemm::PackFloatWeightsStrided(rhs + r_off, g_.n, g_.k, n_stride, rk_stride,
                                                packed);
          tflite::gemm::FloatGemm(g_.m, g_.n, g_.k, lhs + l_off, static_cast<int>(m_stride), packed,
                                  out + o_off, static_cast<int>(ldc),
                                  tflite::gemm::FloatOutputStage(), nullptr, kernel_);
        });
    return;
  }
  packed_.resize(panel);
  int64_t index[tflite::matmul::kMaxRank] = {};  // the output batch's coordinates
  int64_t packed_from = -1;
  for (int64_t ob = 0; ob < g_.out_batches; ++ob) {
    int64_t rem = ob;
    for (int d = batch_dims - 1; d >= 0; --d) {
      index[d] = rem % g_.out_dims[d];
      rem /= g_.out_dims[d];
    }
    const int64_t r_off = BatchOffset(rhs_dims_, rhs_strides_, index, batch_dims);
    if (r_off != packed_from) {
      tflite::gemm::PackFloatWeightsStrided(rhs + r_off, g_.n, g_.k, n_stride, rk_stride,
                                            packed_.data());
      packed_from = r_off;
    }
    const float* a = lhs + BatchOffset(lhs_dims_, lhs_strides_, index, batch_dims);
    int64_t lda = m_stride;
    if (lk_stride != 1) {
      lhs_t_.resize(static_cast<size_t>(g_.m) * g_.k);
      for (int mm = 0; mm < g_.m; ++mm) {
        for (int kk = 0; kk < g_.k; ++kk) lhs_t_[mm * g_.k + kk] = a[mm * m_stride + kk * lk_stride];
      }
      a = lhs_t_.data();
      lda = g_.k;
    }
    int64_t o_off = 0;
    for (int d = 0; d < batch_dims; ++d) o_off += index[d] * out_strides_[d];
    tflite::gemm::FloatGemm(g_.m, g_.n, g_.k, a, static_cast<int>(lda), packed_.data(),
                            out + o_off, static_cast<int>(ldc), tflite::gemm::FloatOutputStage(),
                            pool, kernel_);
  }
}

}  // namespace xnnpack
}  // namespace tflite_inspect
