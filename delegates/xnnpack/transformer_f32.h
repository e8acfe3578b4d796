// Float ops that transformer encoders use and this XNNPACK (2022-02) lacks, run by the
// delegate itself inside the partition, where TFLite's newer XNNPACK takes them: TANH,
// RSQRT, GELU (elementwise), MEAN over any axes (XNNPACK's pooling only expresses the
// spatial mean of an NHWC tensor) and BATCH_MATMUL. They compute with the builtin
// kernels' code (vector_math's tanh, gelu_f32, matmul's packed GEMM), so one encoder is
// one partition, as in TFLite, instead of a partition per attention or norm block.
#ifndef TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSFORMER_F32_H_
#define TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSFORMER_F32_H_

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/internal/matmul.h"
#include "kernels/internal/mean_float.h"

namespace tflite_inspect {
namespace xnnpack {

// kGelu, kGeluApproximate: vector_math's forms (a fitted erf; x * sigmoid(2u)), faster than
// the builtin kernel's bits, which kGeluBuiltin and kGeluApproximateBuiltin compute
// (gelu_f32.h; graphs with dynamic-range nodes).
// kSoftmax (over rows of the last dimension): vector_math's, as fast as TFLite's newer
// XNNPACK (this one's took 1.6x its time on an AVX2 CPU). kSoftmaxBuiltin and kLogistic:
// only in graphs with dynamic-range nodes, where they replace XNNPACK's for TFLite's
// builtin bits (softmax_f32.h, logistic_f32.h). kSwish: x * sigmoid(x), a LOGISTIC and the MUL of its input by it as one
// pass (XnnpackKernel::FindFoldedSwish); kSwishBuiltin the same with the builtin LOGISTIC's
// bits (dynamic-range graphs).
// kExp, kLog: vector_math's (within 2 ulp; libm's outside the vector forms' range), for
// the float graphs' EXP and LOG, where TFLite's default runs XNNPACK's; kExpBuiltin,
// kLogBuiltin, kSin, kCos: libm's, the builtin kernels' bits.
enum class UnaryF32 {
  kTanh,
  kRsqrt,
  kGelu,
  kGeluApproximate,
  kSoftmax,
  kSwish,
  kLogistic,
  kSwishBuiltin,
  kSoftmaxBuiltin,
  kGeluBuiltin,
  kGeluApproximateBuiltin,
  kExp,
  kLog,
  kExpBuiltin,
  kLogBuiltin,
  kSin,
  kCos
};

// out[i] = f(in[i]) for i < n, split over `pool` when there is enough work.
void RunUnaryF32(UnaryF32 op, const float* in, float* out, size_t n, pthreadpool_t pool);

// MEAN over a set of axes (kernels/internal/mean_float.h: TFLite's builtin bits).
using tflite::mean_float::MeanF32;

// Layer normalization over the last axis as TensorFlow converts Keras' LayerNormalization:
// m = MEAN(x), var = MEAN(SQUARED_DIFFERENCE(x, m)), g = RSQRT(var + epsilon) * gamma,
// y = x * g + (beta - m * g), or x * g + NEG(m) * g where the converter folded a zero beta
// away. One pass per row instead of ten nodes (each a pass over the tensor, and the
// XNNPACK ones a runtime of their own between the delegate's MEAN and RSQRT steps). The
// bits of the nodes: the means as MeanF32 sums them, RSQRT as the RSQRT step computes it,
// every multiply, add and subtract rounded on its own (XnnpackKernel::FindFoldedLayerNorms).
class LayerNormF32 {
 public:
  // dims: x's shape (last dimension >= 2); gamma, beta (null: the NEG form): last-dimension
  // vectors, copied.
  LayerNormF32(const std::vector<int>& dims, float epsilon, const float* gamma, const float* beta);
  // Not reentrant (a scratch buffer), as the delegate kernel runs one Invoke at a time.
  void Run(const float* x, float* y, pthreadpool_t pool) const;

 private:
  void RunRows(const float* x, float* y, size_t r0, size_t r1) const;

  size_t rows_ = 1, depth_ = 1;
  float epsilon_;
  std::vector<float> gamma_, beta_;
  mutable std::vector<float> squares_;
};

// BATCH_MATMUL on float32 (any adj_x / adj_y, broadcast batches): y' packed once when it
// is a constant, else on every run, the sums on the packed GEMM with `kernel`.
class BatchMatMulF32 {
 public:
  BatchMatMulF32(const tflite::matmul::Geometry& g, bool adj_x, bool adj_y,
                 tflite::gemm::GemmKernel kernel)
      : g_(g), adj_x_(adj_x), adj_y_(adj_y), kernel_(kernel) {}
  // Packs a constant rhs now; Run then ignores its rhs argument.
  void PackConstantRhs(const float* rhs);
  // The operands as strided views: element strides, one per dimension, of the lhs and rhs
  // (shapes lhs_dims, rhs_dims, as the node sees them) and of the output (its shape), for
  // operands read or written through a TRANSPOSE that is never formed. The output's last
  // stride must be 1. Not with a constant rhs.
  void SetViews(std::vector<int> lhs_dims, std::vector<int64_t> lhs_strides,
                std::vector<int> rhs_dims, std::vector<int64_t> rhs_strides,
                std::vector<int64_t> out_strides);
  void Run(const float* lhs, const float* rhs, float* out, pthreadpool_t pool);

 private:
  void RunViews(const float* lhs, const float* rhs, float* out, pthreadpool_t pool);

  tflite::matmul::Geometry g_;
  bool adj_x_, adj_y_;
  tflite::gemm::GemmKernel kernel_;
  bool rhs_packed_ = false;
  tflite::gemm::CacheLineVector<float> packed_;
  std::vector<float> lhs_t_;
  bool views_ = false;
  std::vector<int> lhs_dims_, rhs_dims_;
  std::vector<int64_t> lhs_strides_, rhs_strides_, out_strides_;
};

}  // namespace xnnpack
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_XNNPACK_TRANSFORMER_F32_H_
