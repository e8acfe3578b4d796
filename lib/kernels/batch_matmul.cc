// BATCH_MATMUL, float32: out[..., m, n] = sum_k x'[..., m, k] * y'[..., k, n], where x'
// is x ([..., M, K], or [..., K, M] transposed with adj_x) and y' is y ([..., K, N], or
// [..., N, K] transposed with adj_y). Batch dims broadcast NumPy-style (ranks 2-5,
// as TFLite). Runs on the shared packed GEMM (kernels/internal/gemm.h): y' is packed as
// gemm weights [N][K] once per distinct rhs batch, cached while y is constant. The float
// sums are TFLite's builtin ones bit for bit (GemmKernel::kTfliteMatMulOrder: no FMA): in
// dynamic-range transformers the attention products feed hybrid FULLY_CONNECTED input
// quantization, where a one-ulp difference can move an input a whole step.
// v1: float32; v2: int8 (per-tensor; bit-exact with TFLite's reference: exact int32
// accumulation of (x - zp_x) * (y - zp_y), multiplier s_x * s_y / s_out from
// QuantizeMultiplier); v3: int16 (zero points 0, exact int64 sums requantized with the
// 64-bit MultiplyByQuantizedMultiplier, as the reference's BatchMatMul<int16_t, int64_t>);
// hybrid (float x, int8 y with one scale, float output; v1, v4 with
// asymmetric_quantize_inputs): each row of x' quantized as TFLite's hybrid kernel does
// (symmetric, or asymmetric with an offset), int32 dot products with y' rows, the offset
// term subtracted in float as the reference does, times row_scale * y_scale. The
// hybrid sums run on the packed int8 GEMM (gemm::Int32Gemm, raw int32 sums). int16 x int16
// products would overflow the GEMM's int32 partial sums, so y is split into its high
// (signed) and low (unsigned) bytes, two packed columns per output: sum x*y = 256 *
// sum x*hi + sum x*lo, each exact in int64 (gemm::Int64Gemm).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/matmul.h"
#include "kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace batch_matmul {
namespace {

using matmul::Geometry;

enum class Mode { kFloat, kInt8, kInt16, kHybrid };

struct OpData {
  Mode mode = Mode::kFloat;
  gemm::CacheLineVector<float> packed;  // one gemm-packed [N][K] panel set per rhs batch
  std::vector<int16_t> packed_q;  // the same for int8
  // int16: y' split into high and low bytes ([2N][K] scratch); hybrid: each y' row's sum.
  std::vector<int16_t> rhs_split;
  std::vector<int32_t> rhs_row_sum;
  bool packed_valid = false;
  // hybrid: quantized x' rows, their scales (times y's scale) and offsets.
  hybrid::QuantizedRows lhs_rows;
  // int8: requantization (same for every column); the int16 lhs scratch (int8, int16,
  // hybrid) and the hybrid int32 sums of one batch.
  std::vector<int32_t> multiplier, shift;
  std::vector<int16_t> lhs_q;
  std::vector<int32_t> sums;
  std::vector<int64_t> sums64;  // int16: [M][2N] byte-split sums of one batch
  std::vector<int8_t> rhs_q;
  std::vector<float> lhs_t;  // scratch: one lhs batch as [M][K] when adj_x
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Unsupported(TfLiteContext* context, const TfLiteTensor* lhs, const TfLiteTensor* rhs,
                         const TfLiteTensor* output) {
  TF_LITE_KERNEL_LOG(context,
                     "BATCH_MATMUL: types %s x %s -> %s not supported (float32, int8, int16, or "
                     "float32 x int8 -> float32 hybrid).",
                     TfLiteTypeGetName(lhs->type), TfLiteTypeGetName(rhs->type),
                     TfLiteTypeGetName(output->type));
  return kTfLiteError;
}

// The kernel's mode from the types, with each mode's quantization rules checked.
TfLiteStatus SelectMode(TfLiteContext* context, const TfLiteTensor* lhs, const TfLiteTensor* rhs,
                        const TfLiteTensor* output, Mode* mode) {
  if (lhs->type == kTfLiteFloat32 && rhs->type == kTfLiteInt8) {
    if (output->type != kTfLiteFloat32) return Unsupported(context, lhs, rhs, output);
    // TFLite's hybrid kernel scales by the rhs tensor's single scale.
    const auto* q = static_cast<const TfLiteAffineQuantization*>(rhs->quantization.params);
    if (rhs->quantization.type != kTfLiteAffineQuantization || q == nullptr ||
        q->scale == nullptr || q->scale->size != 1 || !(rhs->params.scale > 0)) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare hybrid BATCH_MATMUL: the int8 rhs needs one positive "
                         "scale (got %d scales).",
                         q != nullptr && q->scale != nullptr ? q->scale->size : 0);
      return kTfLiteError;
    }
    *mode = Mode::kHybrid;
    return kTfLiteOk;
  }
  if (rhs->type != lhs->type || output->type != lhs->type) {
    return Unsupported(context, lhs, rhs, output);
  }
  switch (lhs->type) {
    case kTfLiteFloat32:
      *mode = Mode::kFloat;
      return kTfLiteOk;
    case kTfLiteInt8:
      *mode = Mode::kInt8;
      return kTfLiteOk;
    case kTfLiteInt16:
      if (lhs->params.zero_point != 0 || rhs->params.zero_point != 0 ||
          output->params.zero_point != 0) {
        TF_LITE_KERNEL_LOG(context,
                           "BATCH_MATMUL with int16 inputs needs zero point 0 on both inputs and "
                           "the output (got %d, %d, %d).",
                           static_cast<int>(lhs->params.zero_point),
                           static_cast<int>(rhs->params.zero_point),
                           static_cast<int>(output->params.zero_point));
        return kTfLiteError;
      }
      *mode = Mode::kInt16;
      return kTfLiteOk;
    default:
      return Unsupported(context, lhs, rhs, output);
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  auto* data = static_cast<OpData*>(node->user_data);
  data->packed_valid = false;
  const auto* params = static_cast<const TfLiteBatchMatMulParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* lhs;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &lhs));
  const TfLiteTensor* rhs;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &rhs));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, SelectMode(context, lhs, rhs, output, &data->mode));
  Geometry g;
  TF_LITE_ENSURE_OK(context, matmul::ComputeGeometry(context, *params, lhs, rhs, &g));
  if (data->mode == Mode::kInt8 || data->mode == Mode::kInt16) {
    TF_LITE_ENSURE(context,
                   lhs->params.scale > 0 && rhs->params.scale > 0 && output->params.scale > 0);
    double real_multiplier = 0;  // (s_x * s_y formed in float, as upstream)
    TF_LITE_ENSURE_OK(
        context, GetQuantizedConvolutionMultipler(context, lhs, rhs, output, &real_multiplier));
    int32_t multiplier;
    int shift;
    QuantizeMultiplier(real_multiplier, &multiplier, &shift);
    data->multiplier.assign(g.n, multiplier);
    data->shift.assign(g.n, shift);
  }
  TfLiteIntArray* dims = TfLiteIntArrayCreate(g.rank);
  for (int d = 0; d < g.rank; ++d) dims->data[d] = g.out_dims[d];
  return context->ResizeTensor(context, output, dims);
}

// Packs every rhs batch as gemm weights [N][K]. int8: minus the zero point, except in
// hybrid mode (TFLite's hybrid kernel uses y as it is), which also keeps each row's sum
// for the asymmetric offset term.
void PackRhs(OpData* data, const TfLiteBatchMatMulParams& p, const TfLiteTensor* rhs,
             const Geometry& g) {
  if (data->packed_valid) return;
  const size_t matrix = static_cast<size_t>(g.k) * g.n;
  if (rhs->type == kTfLiteInt8) {
    const bool hybrid = data->mode == Mode::kHybrid;
    const size_t panel_q = gemm::PackedQuantizedWeightsSize(g.n, g.k);
    data->packed_q.resize(panel_q * g.rhs_batches);
    if (hybrid) data->rhs_row_sum.assign(static_cast<size_t>(g.n) * g.rhs_batches, 0);
    for (int64_t b = 0; b < g.rhs_batches; ++b) {
      const int8_t* src = rhs->data.int8 + b * matrix;
      if (!p.adj_y) {  // [K][N] -> [N][K]
        data->rhs_q.resize(matrix);
        for (int kk = 0; kk < g.k; ++kk)
          for (int nn = 0; nn < g.n; ++nn) data->rhs_q[nn * g.k + kk] = src[kk * g.n + nn];
        src = data->rhs_q.data();
      }
      gemm::PackInt8Weights(src, g.n, g.k, hybrid ? 0 : rhs->params.zero_point,
                            data->packed_q.data() + b * panel_q);
      for (int nn = 0; hybrid && nn < g.n; ++nn) {
        int32_t& sum = data->rhs_row_sum[b * g.n + nn];
        for (int kk = 0; kk < g.k; ++kk) sum += src[static_cast<size_t>(nn) * g.k + kk];
      }
    }
    data->packed_valid = IsConstantOrPersistentTensor(rhs);
    return;
  }
  matmul::PackFloatRhs(p.adj_y, rhs->data.f, g, &data->packed);
  data->packed_valid = IsConstantOrPersistentTensor(rhs);
}

// One int8 output matrix: lhs (adj_x-transposed) with its zero point folded into int16.
void EvalInt8Batch(OpData* data, const TfLiteBatchMatMulParams& p, const int8_t* a,
                   int32_t a_zero_point, const int16_t* packed, TfLiteTensor* output,
                   int64_t out_offset, const Geometry& g, pthreadpool* pool) {
  data->lhs_q.resize(static_cast<size_t>(g.m) * g.k);
  for (int mm = 0; mm < g.m; ++mm)
    for (int kk = 0; kk < g.k; ++kk) {
      const int8_t v = p.adj_x ? a[kk * g.m + mm] : a[mm * g.k + kk];
      data->lhs_q[mm * g.k + kk] = static_cast<int16_t>(v - a_zero_point);
    }
  gemm::QuantizedOutputStage stage;
  stage.multiplier = data->multiplier.data();
  stage.shift = data->shift.data();
  stage.output_offset = output->params.zero_point;
  stage.act_min = -128;
  stage.act_max = 127;
  gemm::QuantizedGemm(g.m, g.n, g.k, data->lhs_q.data(), g.k, packed,
                      output->data.int8 + out_offset, g.n, stage, pool);
}

// int16: y' of every rhs batch split into bytes and packed as 2N gemm columns: column n
// holds the signed high bytes of y' row n, column N + n the unsigned low bytes (see
// gemm::Int64Gemm), kept while y is constant.
void PackRhsInt16(OpData* data, const TfLiteBatchMatMulParams& p, const TfLiteTensor* rhs,
                  const Geometry& g, pthreadpool* pool) {
  if (data->packed_valid) return;
  const size_t matrix = static_cast<size_t>(g.k) * g.n;
  const size_t panel = gemm::PackedQuantizedWeightsSize(2 * g.n, g.k);
  data->packed_q.resize(panel * g.rhs_batches);
  data->rhs_split.resize(2 * matrix * g.rhs_batches);
  // Batches split on the pool: with a run-time y this runs on every invocation.
  parallel::ParallelFor(pool, g.rhs_batches, 8.0 * matrix * g.rhs_batches, [&](size_t b) {
    const int16_t* src = rhs->data.i16 + b * matrix;
    int16_t* hi = data->rhs_split.data() + 2 * matrix * b;
    int16_t* lo = hi + matrix;
    for (int nn = 0; nn < g.n; ++nn)
      for (int kk = 0; kk < g.k; ++kk) {
        const int16_t v = p.adj_y ? src[nn * g.k + kk] : src[kk * g.n + nn];
        hi[nn * g.k + kk] = static_cast<int16_t>(v >> 8);
        lo[nn * g.k + kk] = static_cast<int16_t>(v & 0xff);
      }
    gemm::PackInt16Weights(hi, 2 * g.n, g.k, data->packed_q.data() + b * panel);
  });
  data->packed_valid = IsConstantOrPersistentTensor(rhs);
}

// int16: exact int64 sums (256 * high-byte sums + low-byte sums, on the packed GEMM),
// 64-bit requantization (zero points are 0).
void EvalInt16Batch(OpData* data, const int16_t* a, const int16_t* packed, int16_t* out,
                    const Geometry& g, pthreadpool* pool) {
  data->sums64.resize(static_cast<size_t>(g.m) * 2 * g.n);
  gemm::Int64Gemm(g.m, 2 * g.n, g.k, a, g.k, packed, data->sums64.data(), 2 * g.n, pool);
  parallel::ParallelFor(pool, g.m, 8.0 * g.m * g.n, [&](size_t mm) {
    const int64_t* hi = data->sums64.data() + mm * 2 * g.n;
    const int64_t* lo = hi + g.n;
    for (int nn = 0; nn < g.n; ++nn) {
      const int64_t acc = hi[nn] * 256 + lo[nn];
      const int32_t v = MultiplyByQuantizedMultiplier(acc, data->multiplier[nn], data->shift[nn]);
      out[mm * g.n + nn] = static_cast<int16_t>(std::min(32767, std::max(-32768, v)));
    }
  });
}

// Hybrid: rows of x' quantized, int32 sums on the packed GEMM; the offset term is
// subtracted as the reference's `total -= row_sum * float(offset)` (float arithmetic,
// truncated back to int32), then out = (row_scale * y_scale) * float(total).
void EvalHybridBatch(OpData* data, const TfLiteBatchMatMulParams& p, const float* a,
                     const int16_t* packed, const int32_t* row_sum, float y_scale, float* out,
                     const Geometry& g, pthreadpool* pool) {
  hybrid::QuantizedRows& rows = data->lhs_rows;
  rows.Quantize(a, g.m, g.k, p.asymmetric_quantize_inputs);
  for (float& sc : rows.scale) sc *= y_scale;
  data->lhs_q.assign(rows.values.begin(), rows.values.end());
  data->sums.resize(static_cast<size_t>(g.m) * g.n);
  gemm::Int32Gemm(g.m, g.n, g.k, data->lhs_q.data(), g.k, packed, data->sums.data(), g.n, pool);
  for (int mm = 0; mm < g.m; ++mm) {
    const float offset = static_cast<float>(rows.offset[mm]);
    const int32_t* dot = data->sums.data() + static_cast<size_t>(mm) * g.n;
    for (int nn = 0; nn < g.n; ++nn) {
      const int32_t total = static_cast<int32_t>(static_cast<float>(dot[nn]) -
                                                 static_cast<float>(row_sum[nn]) * offset);
      out[mm * g.n + nn] = rows.scale[mm] * static_cast<float>(total);
    }
  }
}

// An empty contraction (k == 0): every sum is 0.
void FillEmptyContraction(TfLiteTensor* output) {
  const int64_t n = NumElements(output);
  switch (output->type) {
    case kTfLiteInt8:  // requantizes to the output zero point (int8 activation range)
      std::fill(output->data.int8, output->data.int8 + n,
                static_cast<int8_t>(std::min(127, std::max(-128, output->params.zero_point))));
      break;
    case kTfLiteInt16:
      std::fill(output->data.i16, output->data.i16 + n, int16_t{0});
      break;
    default:
      std::fill(output->data.f, output->data.f + n, 0.0f);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto& params = *static_cast<const TfLiteBatchMatMulParams*>(node->builtin_data);
  const TfLiteTensor* lhs = GetInput(context, node, 0);
  const TfLiteTensor* rhs = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  Geometry g;
  TF_LITE_ENSURE_OK(context, matmul::ComputeGeometry(context, params, lhs, rhs, &g));
  if (NumElements(output) == 0) return kTfLiteOk;
  if (g.k == 0) {
    FillEmptyContraction(output);
    return kTfLiteOk;
  }
  const Mode mode = data->mode;
  pthreadpool* pool = parallel::ThreadPool(context);
  if (mode == Mode::kInt16) {
    PackRhsInt16(data, params, rhs, g, pool);
  } else {
    PackRhs(data, params, rhs, g);
  }
  if (mode == Mode::kFloat) {
    matmul::FloatBatches(params.adj_x, g, lhs->data.f, data->packed.data(), output->data.f,
                         &data->lhs_t, pool, gemm::GemmKernel::kTfliteMatMulOrder);
    return kTfLiteOk;
  }
  const size_t panel = mode == Mode::kInt16 ? gemm::PackedQuantizedWeightsSize(2 * g.n, g.k)
                                            : gemm::PackedQuantizedWeightsSize(g.n, g.k);
  const int64_t lhs_matrix = static_cast<int64_t>(g.m) * g.k;
  const int64_t out_matrix = static_cast<int64_t>(g.m) * g.n;
  for (int64_t ob = 0; ob < g.out_batches; ++ob) {
    int64_t li, ri;
    matmul::BatchSources(g, ob, &li, &ri);
    switch (mode) {
      case Mode::kInt8:
        EvalInt8Batch(data, params, lhs->data.int8 + li * lhs_matrix, lhs->params.zero_point,
                      data->packed_q.data() + ri * panel, output, ob * out_matrix, g, pool);
        break;
      case Mode::kInt16:
        EvalInt16Batch(data,
                       matmul::LhsRows(params.adj_x, lhs->data.i16 + li * lhs_matrix, g, &data->lhs_q),
                       data->packed_q.data() + ri * panel, output->data.i16 + ob * out_matrix, g,
                       pool);
        break;
      case Mode::kHybrid:
        EvalHybridBatch(data, params,
                        matmul::LhsRows(params.adj_x, lhs->data.f + li * lhs_matrix, g, &data->lhs_t),
                        data->packed_q.data() + ri * panel, data->rhs_row_sum.data() + ri * g.n, rhs->params.scale,
                        output->data.f + ob * out_matrix, g, pool);
        break;
      case Mode::kFloat:  // above
        break;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace batch_matmul

TfLiteRegistration* Register_BATCH_MATMUL() {
  static TfLiteRegistration r = {batch_matmul::Init, batch_matmul::Free, batch_matmul::Prepare,
                                 batch_matmul::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
