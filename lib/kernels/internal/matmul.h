// BATCH_MATMUL's geometry and float path, shared by the builtin kernel (kernels/
// batch_matmul.cc) and the XNNPACK delegate's own step (this XNNPACK has no batched
// matrix multiply): x' is x ([..., M, K], or [..., K, M] transposed with adj_x), y' is y
// ([..., K, N], or [..., N, K] with adj_y); batch dimensions broadcast NumPy-style, ranks
// 2-5 as TFLite.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MATMUL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MATMUL_H_

#include <pthreadpool.h>

#include <cstdint>
#include <vector>

#include "kernels/internal/gemm.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace matmul {

constexpr int kMaxRank = 5;

struct Geometry {
  int rank;                                            // output rank
  int out_dims[kMaxRank];                              // output shape
  int64_t lhs_stride[kMaxRank], rhs_stride[kMaxRank];  // batch strides in matrices, 0 if bcast
  int64_t out_batches, rhs_batches;
  int m, k, n;
};

// The output's geometry; an error (logged on `context` unless it is null) for ranks outside
// [2, 5], batch dimensions that do not broadcast or contraction sizes that differ.
TfLiteStatus ComputeGeometry(TfLiteContext* context, const TfLiteBatchMatMulParams& p,
                             const TfLiteTensor* lhs, const TfLiteTensor* rhs, Geometry* g);

// The lhs and rhs batches (counted in whole matrices) that output batch `ob` reads.
void BatchSources(const Geometry& g, int64_t ob, int64_t* lhs_batch, int64_t* rhs_batch);

// x' of one lhs batch as rows [M][K]: `a` itself, or its transpose in `scratch` (adj_x).
template <typename T>
const T* LhsRows(bool adj_x, const T* a, const Geometry& g, std::vector<T>* scratch) {
  if (!adj_x) return a;
  scratch->resize(static_cast<size_t>(g.m) * g.k);
  for (int kk = 0; kk < g.k; ++kk)
    for (int mm = 0; mm < g.m; ++mm) (*scratch)[mm * g.k + kk] = a[kk * g.m + mm];
  return scratch->data();
}

// Float: y' of every rhs batch packed as gemm weights [N][K] into `packed`, one
// gemm::PackedWeightsSize(N, K) panel set per batch.
void PackFloatRhs(bool adj_y, const float* rhs, const Geometry& g,
                  gemm::CacheLineVector<float>* packed);

// Whether FloatBatches (and the delegate's strided products) run whole products on the
// pool's threads, one product a task: products too small for FloatGemm to split (it runs
// them on one thread), several of them and enough work in all (attention heads: bert_tiny's
// 64 x 64 x 64 products, two heads a layer).
bool BatchesOverThreads(int64_t batches, int m, int n, int k, pthreadpool* pool);

// Float: every output matrix x' y' on the packed GEMM (`lhs_t`: scratch). k must be > 0.
void FloatBatches(bool adj_x, const Geometry& g, const float* lhs, const float* packed, float* out,
                  std::vector<float>* lhs_t, pthreadpool* pool, gemm::GemmKernel kernel);

}  // namespace matmul
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MATMUL_H_
