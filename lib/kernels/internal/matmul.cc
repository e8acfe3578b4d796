#include "kernels/internal/matmul.h"

#include <algorithm>

#include "kernels/internal/gemm_blocks.h"
#include "kernels/internal/parallel.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace matmul {
namespace {

// Batch dims of `t` right-aligned to `rank - 2` output batch dims: strides counted in
// whole matrices, 0 where t has size 1 (broadcast).
void BatchStrides(const TfLiteTensor* t, int rank, int64_t* strides) {
  const int trank = NumDimensions(t);
  int64_t acc = 1;
  for (int d = rank - 3; d >= 0; --d) {
    const int td = d - (rank - trank);
    const int size = td >= 0 ? t->dims->data[td] : 1;
    strides[d] = size == 1 ? 0 : acc;
    acc *= size;
  }
}

}  // namespace

TfLiteStatus ComputeGeometry(TfLiteContext* context, const TfLiteBatchMatMulParams& p,
                             const TfLiteTensor* lhs, const TfLiteTensor* rhs, Geometry* g) {
  const int lr = NumDimensions(lhs), rr = NumDimensions(rhs);
  if (lr < 2 || rr < 2 || lr > kMaxRank || rr > kMaxRank) {
    if (context != nullptr) {
      TF_LITE_KERNEL_LOG(context, "BATCH_MATMUL: input ranks must be in [2, %d], got %d and %d.",
                         kMaxRank, lr, rr);
    }
    return kTfLiteError;
  }
  g->rank = std::max(lr, rr);
  for (int d = 0; d < g->rank - 2; ++d) {
    const int ld = d - (g->rank - lr), rd = d - (g->rank - rr);
    const int ls = ld >= 0 ? lhs->dims->data[ld] : 1;
    const int rs = rd >= 0 ? rhs->dims->data[rd] : 1;
    if (ls != rs && ls != 1 && rs != 1) {
      if (context != nullptr) {
        TF_LITE_KERNEL_LOG(context,
                           "BATCH_MATMUL: batch dimension %d does not broadcast (%d vs %d).", d,
                           ls, rs);
      }
      return kTfLiteError;
    }
    g->out_dims[d] = ls == 1 ? rs : ls;
  }
  const int lrows = lhs->dims->data[lr - 2], lcols = lhs->dims->data[lr - 1];
  const int rrows = rhs->dims->data[rr - 2], rcols = rhs->dims->data[rr - 1];
  g->m = p.adj_x ? lcols : lrows;
  g->k = p.adj_x ? lrows : lcols;
  const int rk = p.adj_y ? rcols : rrows;
  g->n = p.adj_y ? rrows : rcols;
  if (rk != g->k) {
    if (context != nullptr) {
      TF_LITE_KERNEL_LOG(context, "BATCH_MATMUL: contraction sizes differ (%d vs %d).", g->k, rk);
    }
    return kTfLiteError;
  }
  g->out_dims[g->rank - 2] = g->m;
  g->out_dims[g->rank - 1] = g->n;
  BatchStrides(lhs, g->rank, g->lhs_stride);
  BatchStrides(rhs, g->rank, g->rhs_stride);
  g->out_batches = 1;
  for (int d = 0; d < g->rank - 2; ++d) g->out_batches *= g->out_dims[d];
  g->rhs_batches = 1;
  for (int d = 0; d < rr - 2; ++d) g->rhs_batches *= rhs->dims->data[d];
  return kTfLiteOk;
}

void BatchSources(const Geometry& g, int64_t ob, int64_t* lhs_batch, int64_t* rhs_batch) {
  int64_t rem = ob, li = 0, ri = 0;
  for (int d = g.rank - 3; d >= 0; --d) {
    const int64_t c = rem % g.out_dims[d];
    rem /= g.out_dims[d];
    li += c * g.lhs_stride[d];
    ri += c * g.rhs_stride[d];
  }
  *lhs_batch = li;
  *rhs_batch = ri;
}

void PackFloatRhs(bool adj_y, const float* rhs, const Geometry& g,
                  gemm::CacheLineVector<float>* packed) {
  const size_t matrix = static_cast<size_t>(g.k) * g.n;
  const size_t panel = gemm::PackedWeightsSize(g.n, g.k);
  packed->resize(panel * g.rhs_batches);
  for (int64_t b = 0; b < g.rhs_batches; ++b) {
    const float* src = rhs + b * matrix;
    if (!adj_y) {  // [K][N]
      gemm::PackFloatWeightsTransposed(src, g.n, g.k, packed->data() + b * panel);
    } else {
      gemm::PackFloatWeights(src, g.n, g.k, packed->data() + b * panel);
    }
  }
}

// Batches of fewer multiply-adds than this each go to one thread whole: a pass over the pool
// per batch costs more there than whole batches lose to imbalance (attention's 64 x 64 x 64
// heads in bert_tiny_64, split inside each product, were 5-10% slower at two threads).
constexpr double kBatchOnOneThreadMacs = 1 << 20;

bool BatchesOverThreads(int64_t batches, int m, int n, int k, pthreadpool* pool) {
  const double macs = static_cast<double>(m) * n * k;
  return batches > 1 && parallel::NumThreads(pool) > 1 && macs < kBatchOnOneThreadMacs &&
         macs * static_cast<double>(batches) >= parallel::kMinParallelWork;
}

void FloatBatches(bool adj_x, const Geometry& g, const float* lhs, const float* packed, float* out,
                  std::vector<float>* lhs_t, pthreadpool* pool, gemm::GemmKernel kernel) {
  const size_t panel = gemm::PackedWeightsSize(g.n, g.k);
  const int64_t lhs_matrix = static_cast<int64_t>(g.m) * g.k;
  const int64_t out_matrix = static_cast<int64_t>(g.m) * g.n;
  if (!adj_x && BatchesOverThreads(g.out_batches, g.m, g.n, g.k, pool)) {
    parallel::ParallelFor(pool, static_cast<size_t>(g.out_batches),
                          static_cast<double>(g.out_batches) * g.m * g.n * g.k, [&](size_t ob) {
                            int64_t li, ri;
                            BatchSources(g, static_cast<int64_t>(ob), &li, &ri);
                            gemm::FloatGemm(g.m, g.n, g.k, lhs + li * lhs_matrix, g.k,
                                            packed + ri * panel, out + ob * out_matrix, g.n,
                                            gemm::FloatOutputStage(), nullptr, kernel);
                          });
    return;
  }
  for (int64_t ob = 0; ob < g.out_batches; ++ob) {
    int64_t li, ri;
    BatchSources(g, ob, &li, &ri);
    gemm::FloatGemm(g.m, g.n, g.k, LhsRows(adj_x, lhs + li * lhs_matrix, g, lhs_t), g.k,
                    packed + ri * panel, out + ob * out_matrix, g.n, gemm::FloatOutputStage(), pool,
                    kernel);
  }
}

}  // namespace matmul
}  // namespace tflite
