// FULLY_CONNECTED: float32 and uint8 (uint8 or int16 output) (v1), int8 with per-tensor or
// per-channel weights (v4), keep_num_dims (v5), no bias (v6), int16 activations with int8
// weights, per-tensor or per-channel (16x8, v7; zero points 0). out[b][u] = sum_i in[b][i] *
// w[u][i] + bias[u] on the packed GEMM of kernels/internal/gemm.h; quantized results are
// bit-exact with TFLite's reference FullyConnected / FullyConnectedPerChannel, which (unlike
// its convolutions) requantize with one rounding: acc * multiplier / 2^(31 - shift), halves
// up. int16 activations sum exactly in int64 whatever the bias type (int64, int32 with
// quantized_bias_type = v11, or none).
//
// Hybrid (float input and output, int8 weights with a per-tensor or per-channel scale;
// v3, v9 with asymmetric_quantize_inputs, v12 per-channel): as TFLite's hybrid kernel, each batch row is
// quantized on the fly (SymmetricQuantizeFloats, or AsymmetricQuantizeFloats with a per-row
// offset), summed exactly in int32 against the weights (minus row_sum * offset) on the
// packed GEMM (gemm::Int32Gemm), and rescaled as bias + sum * (row_scale * filter_scale)
// in float, then clamped: bit-exact with TFLite's reference kernels on testdata/kernels
// (tflite_goldens_test).
//
// int8 activations take int4 weights too (v10: unpacked, then the int8 path).
//
// Shuffled weights (v2, weights_format SHUFFLED4x16INT8): uint8 input and weights, int16
// output, and a second output (TFLite's uint8 workspace for the shuffled input, unused
// here). TFLite's kernel reads the weights in blocks of 4 units x 16 inputs, each byte xor
// 0x80, and treats both zero points as 128 whatever the tensors say; its reference only
// handles 1 or 4 batches (others leave the output unwritten), so other batch counts are
// refused. The weights are unshuffled once and run on the uint8 -> int16 path.
//
// Sparse weights (v8; TfLiteTensor::sparsity used by FC itself, not via DENSIFY) are
// densified once at Prepare (kernels/internal/sparse_to_dense.h). Float: any sparse
// format, as TFLite's reference (densify, then its dense loop): each output sums its row's
// nonzero products in column order, then adds the bias, as that loop does. int8 and
// hybrid: only 1x16 blocks (TFLite's only quantized sparse kernels), int8 with symmetric
// weights; the hybrid kernel subtracts the asymmetric-input offset term in float before
// the sums, as TFLite's sparse hybrid kernel does.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "kernels/internal/conv_util.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/hybrid.h"
#include "kernels/internal/hybrid_inputs.h"
#include "kernels/internal/hybrid_graph.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/sparse_to_dense.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace fully_connected {
namespace {

struct OpData {
  int batches = 0;
  int input_size = 0;
  int units = 0;
  conv_util::QuantParams quant;
  int32_t weights_zero_point = 0;  // subtracted while packing
  conv_util::PackedWeights weights;
  std::vector<int16_t> input_q;  // input + input_offset; hybrid: quantized rows - offset
  std::vector<uint8_t> input_u8;  // int8 on the dot-product GEMM: input + 128, rows padded
  std::vector<int32_t> dot_bias;
  std::vector<int64_t> bias64;   // int16 activations: an int32 bias widened
  // Hybrid: per-unit filter scales, quantized input rows, per-row scale and offset.
  bool hybrid = false;
  bool per_channel = false;
  std::vector<float> filter_scale;
  hybrid::QuantizedRows rows;
  std::vector<int32_t> sums;      // [batches][units] int32 sums from the GEMM
  std::vector<int32_t> row_sums;  // sparse, asymmetric inputs: each unit's weight sum
  // TFLite's FullyConnected reference requantizes with one rounding; its shuffled and
  // sparse int8 kernels use MultiplyByQuantizedMultiplier.
  bool single_rounding = true;
  // v2: the shuffled weights put back as [units][input] uint8.
  bool shuffled = false;
  std::vector<uint8_t> unshuffled;
  // v8: the sparse weights densified ([units][input]); float keeps each row's nonzeros.
  bool sparse = false;
  std::vector<int8_t> dense_q;
  std::vector<int32_t> nz_begin, nz_col;  // row u: nz_col[nz_begin[u] .. nz_begin[u + 1])
  std::vector<float> nz_val;
  // Float: the GEMM's order of sums (TFLite's builtin one in graphs with hybrid nodes).
  gemm::GemmKernel float_kernel = gemm::GemmKernel::kAuto;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// TFLite's multipliers: per-channel from double products, per-tensor via
// GetQuantizedConvolutionMultipler (float product, bias scale check).
TfLiteStatus PrepareQuant(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* filter, const TfLiteTensor* bias,
                          TfLiteTensor* output, TfLiteFusedActivation activation, OpData* data) {
  const TfLiteAffineQuantization* fq = conv_util::Affine(filter);
  TF_LITE_ENSURE(context, fq != nullptr && fq->scale != nullptr && fq->scale->size > 0);
  TF_LITE_ENSURE(context, input->params.scale > 0 && output->params.scale > 0);
  conv_util::QuantParams& q = data->quant;
  const int units = data->units;
  if (fq->scale->size > 1) {
    TF_LITE_ENSURE(context, input->type == kTfLiteInt8 || input->type == kTfLiteInt16);
    TF_LITE_ENSURE_EQ(context, fq->quantized_dimension, 0);
    TF_LITE_ENSURE_EQ(context, fq->scale->size, units);
    q.multiplier.resize(units);
    q.shift.resize(units);
    for (int u = 0; u < units; ++u) {
      const double scale = static_cast<double>(input->params.scale) *
                           static_cast<double>(fq->scale->data[u]) /
                           static_cast<double>(output->params.scale);
      int shift = 0;
      QuantizeMultiplier(scale, &q.multiplier[u], &shift);
      q.shift[u] = shift;
    }
    data->weights_zero_point = 0;  // the per-channel reference ignores it
  } else {
    double real_multiplier = 0.0;
    TF_LITE_ENSURE_STATUS(
        GetQuantizedConvolutionMultipler(context, input, filter, bias, output, &real_multiplier));
    int32_t multiplier = 0;
    int shift = 0;
    QuantizeMultiplier(real_multiplier, &multiplier, &shift);
    q.multiplier.assign(units, multiplier);
    q.shift.assign(units, shift);
    data->weights_zero_point = filter->params.zero_point;
  }
  q.input_offset = -input->params.zero_point;
  q.output_offset = output->params.zero_point;
  if (input->type == kTfLiteInt16) conv_util::NoteInt16ShiftRange(q);
  return CalculateActivationRangeQuantized(context, activation, output, &q.act_min, &q.act_max);
}

TfLiteStatus CheckTypes(TfLiteContext* context, const TfLiteTensor* input,
                        const TfLiteTensor* filter, const TfLiteTensor* bias,
                        const TfLiteTensor* output, int units) {
  switch (input->type) {
    case kTfLiteFloat32:
      if (filter->type != kTfLiteFloat32 && filter->type != kTfLiteInt8) {
        TF_LITE_KERNEL_LOG(context,
                           "Hybrid FULLY_CONNECTED (float input, %s weights) not supported.",
                           TfLiteTypeGetName(filter->type));
        return kTfLiteError;
      }
      TF_LITE_ENSURE_STATUS(conv_util::CheckFloatBias(context, bias, units));
      break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      // int8 activations also take int4 weights (v10; unpacked when packed).
      if (!(input->type == kTfLiteInt8 && filter->type == kTfLiteInt4)) {
        TF_LITE_ENSURE_TYPES_EQ(context, filter->type, input->type);
      }
      TF_LITE_ENSURE_STATUS(conv_util::CheckQuantBias(context, bias, units));
      break;
    case kTfLiteInt16:
      TF_LITE_ENSURE_STATUS(conv_util::CheckInt16Weights(context, "FULLY_CONNECTED", filter));
      TF_LITE_ENSURE_STATUS(conv_util::CheckInt16Bias(context, "FULLY_CONNECTED", bias, units,
                                                      /*allow_int32=*/true));
      TF_LITE_ENSURE_STATUS(conv_util::CheckInt16ZeroPoints(context, "FULLY_CONNECTED", input,
                                                            output));
      break;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
  if (input->type == kTfLiteUInt8 && output->type == kTfLiteInt16) {
    // uint8 x uint8 -> int16 (reference_ops::FullyConnected's int16 output).
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
    return kTfLiteOk;
  }
  if (output->type != input->type) return conv_util::UnsupportedType(context, output->type);
  return kTfLiteOk;
}

// v2: checks TFLite's shuffled layout can hold the shapes, then unshuffles the weights.
TfLiteStatus PrepareShuffled(TfLiteContext* context, const TfLiteTensor* input,
                             const TfLiteTensor* filter, const TfLiteTensor* output,
                             OpData* data) {
  if (input->type != kTfLiteUInt8 || filter->type != kTfLiteUInt8 ||
      output->type != kTfLiteInt16) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare FULLY_CONNECTED with shuffled weights: they need uint8 "
                       "input and weights and int16 output (got %s, %s, %s).",
                       TfLiteTypeGetName(input->type), TfLiteTypeGetName(filter->type),
                       TfLiteTypeGetName(output->type));
    return kTfLiteError;
  }
  const int units = data->units, k = data->input_size;
  if (units % 4 != 0 || k % 16 != 0 || (data->batches != 1 && data->batches != 4)) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare FULLY_CONNECTED with shuffled weights: TFLite's kernel "
                       "needs units a multiple of 4, input size a multiple of 16 and 1 or 4 "
                       "batches (got %d units, input size %d, %d batches).",
                       units, k, data->batches);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_MSG(context, IsConstantTensor(filter),
                     "FULLY_CONNECTED: shuffled weights must be constant");
  // The kernel subtracts 128 from input and weights (sign-bit flips), whatever the zero
  // points say.
  data->quant.input_offset = -128;
  data->weights_zero_point = 128;
  data->unshuffled.resize(static_cast<size_t>(units) * k);
  const uint8_t* w = filter->data.uint8;
  for (int u = 0; u < units; u += 4) {
    for (int d = 0; d < k; d += 16) {
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 16; ++j) {
          data->unshuffled[static_cast<size_t>(u + i) * k + d + j] = *w++ ^ 0x80;
        }
      }
    }
  }
  return kTfLiteOk;
}

// v8: densifies the constant sparse weights; float keeps each row's nonzeros.
TfLiteStatus PrepareSparse(TfLiteContext* context, const TfLiteTensor* input,
                           const TfLiteTensor* filter, OpData* data) {
  TF_LITE_ENSURE_MSG(context, IsConstantTensor(filter),
                     "FULLY_CONNECTED: sparse weights must be constant");
  const TfLiteSparsity& sp = *filter->sparsity;
  // TFLite's other kernels (uint8, 16x8, int4) read a sparse buffer as if it were dense.
  if ((input->type != kTfLiteFloat32 && input->type != kTfLiteInt8) ||
      (filter->type != kTfLiteFloat32 && filter->type != kTfLiteInt8)) {
    TF_LITE_KERNEL_LOG(context,
                       "failed to prepare FULLY_CONNECTED with sparse weights: TFLite has sparse "
                       "kernels for float32 and int8 inputs with float32 or int8 weights (got %s "
                       "input, %s weights).",
                       TfLiteTypeGetName(input->type), TfLiteTypeGetName(filter->type));
    return kTfLiteError;
  }
  if (filter->type == kTfLiteInt8) {
    // TFLite's int8 and hybrid sparse kernels read 1x16 blocks: rows dense, block
    // columns CSR, blocks of 16.
    const bool blocks_1x16 = sp.dim_metadata_size == 3 &&
                             sp.dim_metadata[0].format == kTfLiteDimDense &&
                             sp.dim_metadata[1].format == kTfLiteDimSparseCSR &&
                             sp.dim_metadata[2].dense_size == 16;
    if (!blocks_1x16) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare FULLY_CONNECTED with sparse int8 weights: TFLite "
                         "supports 1x16 blocks only (got %d sparsity levels).",
                         sp.dim_metadata_size);
      return kTfLiteError;
    }
    if (input->type == kTfLiteInt8 && data->weights_zero_point != 0) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare FULLY_CONNECTED with sparse int8 weights: they must "
                         "be symmetric (expected zero point 0, got %d).",
                         data->weights_zero_point);
      return kTfLiteError;
    }
  }
  const size_t n = static_cast<size_t>(data->units) * data->input_size;
  const size_t elem = filter->type == kTfLiteFloat32 ? sizeof(float) : 1;
  sparsity::SparseToDense converter(filter, elem, "FULLY_CONNECTED");
  TF_LITE_ENSURE_OK(context, converter.Validate(context));
  if (filter->type == kTfLiteInt8) {
    data->dense_q.resize(n);
    return converter.Run(context, filter->data.raw_const,
                         reinterpret_cast<char*>(data->dense_q.data()), n);
  }
  std::vector<float> dense(n);
  TF_LITE_ENSURE_OK(context, converter.Run(context, filter->data.raw_const,
                                           reinterpret_cast<char*>(dense.data()), n));
  data->nz_begin.assign(1, 0);
  data->nz_col.clear();
  data->nz_val.clear();
  for (int u = 0; u < data->units; ++u) {
    for (int i = 0; i < data->input_size; ++i) {
      const float v = dense[static_cast<size_t>(u) * data->input_size + i];
      if (v == 0.0f) continue;
      data->nz_col.push_back(i);
      data->nz_val.push_back(v);
    }
    data->nz_begin.push_back(static_cast<int32_t>(data->nz_col.size()));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE(context, NumInputs(node) == 2 || NumInputs(node) == 3);
  data->shuffled = params->weights_format == kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
  // The shuffled format has TFLite's input workspace as a second output.
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), data->shuffled ? 2 : 1);
  const TfLiteTensor* input;
  const TfLiteTensor* filter;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &filter));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;

  if (!data->shuffled && params->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) {
    TF_LITE_KERNEL_LOG(context, "FULLY_CONNECTED weights format %d not supported.",
                       static_cast<int>(params->weights_format));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(conv_util::CheckActivation(context, params->activation));
  TF_LITE_ENSURE_EQ(context, NumDimensions(filter), 2);
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  data->sparse = filter->sparsity != nullptr;
  data->units = SizeOfDimension(filter, 0);
  data->input_size = SizeOfDimension(filter, 1);
  TF_LITE_ENSURE(context, data->input_size > 0);
  const int64_t total = NumElements(input);
  TF_LITE_ENSURE_EQ(context, total % data->input_size, 0);
  data->batches = static_cast<int>(total / data->input_size);
  TF_LITE_ENSURE_STATUS(CheckTypes(context, input, filter, bias, output, data->units));
  data->hybrid = input->type == kTfLiteFloat32 && filter->type == kTfLiteInt8;
  // A float layer in a dynamic-range graph: TFLite's builtin sums bit for bit, since hybrid
  // layers quantize what it writes (hybrid_graph.h).
  data->float_kernel = input->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32 &&
                               hybrid::GraphHasHybridNodes(context)
                           ? gemm::GemmKernel::kTfliteGemmOrder
                           : gemm::GemmKernel::kAuto;
  data->per_channel = false;
  if (data->hybrid) {
    // The filter scale: one, or one per unit (quantized dimension 0).
    const TfLiteAffineQuantization* fq = conv_util::Affine(filter);
    if (fq == nullptr || fq->scale == nullptr ||
        (fq->scale->size != 1 && fq->scale->size != data->units) ||
        (fq->scale->size > 1 && fq->quantized_dimension != 0)) {
      TF_LITE_KERNEL_LOG(context,
                         "failed to prepare hybrid FULLY_CONNECTED: int8 weights need one scale "
                         "or one per unit on dimension 0 (expected 1 or %d, got %d).",
                         data->units, fq != nullptr && fq->scale != nullptr ? fq->scale->size : 0);
      return kTfLiteError;
    }
    data->per_channel = fq->scale->size > 1;
    data->weights_zero_point = 0;  // symmetric weights: TFLite ignores their zero point
    data->filter_scale.resize(data->units);
    for (int u = 0; u < data->units; ++u) {
      data->filter_scale[u] = fq->scale->data[fq->scale->size == 1 ? 0 : u];
    }
  }
  if (input->type == kTfLiteInt16) {
    TF_LITE_ENSURE_STATUS(conv_util::CheckQuantizedBiasType(context, "FULLY_CONNECTED",
                                                            params->quantized_bias_type, bias));
  }
  if (input->type != kTfLiteFloat32) {
    TF_LITE_ENSURE_STATUS(
        PrepareQuant(context, input, filter, bias, output, params->activation, data));
    // int16 input is the GEMM's A as it is; 8-bit input gets its offset folded in.
    if (input->type == kTfLiteInt16) {
      data->input_q.clear();
    } else {
      data->input_q.resize(static_cast<size_t>(total));
    }
  } else {
    data->input_q.clear();
  }
  data->weights.Invalidate();
  data->single_rounding = !data->shuffled && !data->sparse;
  if (data->shuffled) TF_LITE_ENSURE_STATUS(PrepareShuffled(context, input, filter, output, data));
  if (data->sparse) TF_LITE_ENSURE_STATUS(PrepareSparse(context, input, filter, data));

  TfLiteIntArray* out_shape;
  if (params->keep_num_dims) {
    TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, NumDimensions(input) - 1), data->input_size);
    out_shape = TfLiteIntArrayCopy(input->dims);
    out_shape->data[out_shape->size - 1] = data->units;
  } else {
    out_shape = TfLiteIntArrayCreate(2);
    out_shape->data[0] = data->batches;
    out_shape->data[1] = data->units;
  }
  return context->ResizeTensor(context, output, out_shape);
}

// The 8-bit weights into the GEMM's layout, from the unshuffled or densified copy if any.
void PackQuantizedWeights(OpData* data, const TfLiteTensor* filter) {
  conv_util::PackedWeights& pw = data->weights;
  if (pw.valid) return;
  const int n = data->units, k = data->input_size;
  if (data->shuffled) {
    pw.q.resize(gemm::PackedQuantizedWeightsSize(n, k));
    gemm::PackUint8Weights(data->unshuffled.data(), n, k, data->weights_zero_point, pw.q.data());
    pw.valid = true;
  } else if (data->sparse) {
    pw.q.resize(gemm::PackedQuantizedWeightsSize(n, k));
    gemm::PackInt8Weights(data->dense_q.data(), n, k, data->weights_zero_point, pw.q.data());
    pw.valid = true;
  } else {
    pw.Pack(filter, n, k, data->weights_zero_point);
  }
}

// The dot-product GEMM's operands: the weights packed (once while constant) and the
// batch rows of `rows` (batches x input_size int8) + 128 in data->input_u8, rows
// DotDepth(input_size) apart, which it returns (rows null: room for them only).
int PrepareDot(OpData* data, const TfLiteTensor* filter, const int8_t* rows) {
  const int k = data->input_size, stride = gemm::DotDepth(k);
  data->weights.PackDot(filter, data->units, k);
  data->input_u8.resize(static_cast<size_t>(data->batches) * stride);
  for (int b = 0; b < data->batches && rows != nullptr; ++b) {
    gemm::DotInput(rows + static_cast<size_t>(b) * k, k,
                   data->input_u8.data() + static_cast<size_t>(b) * stride);
  }
  return stride;
}

// int8 x int8 (weights without zero point) where the CPU has dot-product instructions:
// the same sums and stage on gemm::DotGemm. False when it does not apply.
bool EvalDot(OpData* data, const TfLiteTensor* input, const TfLiteTensor* filter,
             const TfLiteTensor* bias, TfLiteTensor* output, pthreadpool* pool) {
  if (data->shuffled || data->sparse || data->weights_zero_point != 0 ||
      (filter->type != kTfLiteInt8 && filter->type != kTfLiteInt4) || !gemm::DotGemmWanted()) {
    return false;
  }
  const int n = data->units, k = data->input_size;
  const int stride = PrepareDot(data, filter, input->data.int8);
  data->dot_bias.resize(n);
  gemm::DotBias(bias != nullptr ? bias->data.i32 : nullptr, data->weights.dot_sums.data(), n,
                -data->quant.input_offset + 128, data->dot_bias.data());
  gemm::QuantizedOutputStage stage = data->quant.Stage(data->dot_bias.data());
  stage.single_rounding = data->single_rounding;
  gemm::DotGemm(data->batches, n, k, data->input_u8.data(), stride, data->weights.dot.data(),
                output->data.int8, n, stage, pool);
  return true;
}

template <typename T, typename OutT = T>
void EvalQuantized(OpData* data, const TfLiteTensor* input, const TfLiteTensor* filter,
                   const TfLiteTensor* bias, TfLiteTensor* output, pthreadpool* pool) {
  if constexpr (std::is_same_v<T, int8_t> && std::is_same_v<OutT, int8_t>) {
    if (EvalDot(data, input, filter, bias, output, pool)) return;
  }
  PackQuantizedWeights(data, filter);
  const T* in = GetTensorData<T>(input);
  const int32_t offset = data->quant.input_offset;
  for (size_t i = 0; i < data->input_q.size(); ++i) {
    data->input_q[i] = static_cast<int16_t>(in[i] + offset);
  }
  // TFLite's reference FullyConnected (uint8, int8, per-channel) requantizes with one
  // rounding: on testdata/kernels the two-step MultiplyByQuantizedMultiplier differed on 1
  // to 4 of 2048 outputs, the single rounding on none. Shuffled and sparse: two-step.
  gemm::QuantizedOutputStage stage = data->quant.Stage(bias != nullptr ? bias->data.i32 : nullptr);
  stage.single_rounding = data->single_rounding;
  gemm::QuantizedGemm(data->batches, data->units, data->input_size, data->input_q.data(),
                      data->input_size, data->weights.q.data(), GetTensorData<OutT>(output),
                      data->units, stage, pool);
}

// Hybrid: quantize each batch row, int32 sums on the packed GEMM (A: the int8 rows, minus
// their offset unless the sparse kernel's float offset term applies), float rescale, clamp.
void EvalHybrid(TfLiteContext* context, int input_index, OpData* data,
                const TfLiteFullyConnectedParams& params, const TfLiteTensor* input,
                const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output,
                pthreadpool* pool) {
  const int batches = data->batches, units = data->units, k = data->input_size;
  const bool asymmetric = params.asymmetric_quantize_inputs;
  hybrid::QuantizedRows& rows = data->rows;
  // TFLite's sparse hybrid kernel takes the offset term out in float, before the sums;
  // the dense one sums w * q - row_sum * offset in int32, which is sum w * (q - offset).
  const bool float_offset = asymmetric && data->sparse;
  data->sums.resize(static_cast<size_t>(batches) * units);
  float act_min, act_max;
  CalculateActivationRange(params.activation, &act_min, &act_max);
  const float* bias_data = bias != nullptr ? bias->data.f : nullptr;
  float* out = output->data.f;
  if (!data->shuffled && !data->sparse && gemm::DotGemmWanted()) {
    // The same int32 sums on the dot-product GEMM: rows quantized straight to q + 128,
    // (q + 128) * w less 128 * the column sums (DotBias); each row's offset * the column
    // sums comes off in the rescale.
    // Rows another node quantized from the same tensor in this Invoke are read as they are
    // (Q, K and V projections share their input: hybrid_inputs.h).
    const int stride = PrepareDot(data, filter, nullptr);
    hybrid::SharedRows q;
    if (!hybrid::QuantizeShared(context, input_index, input->data.f, batches, k, asymmetric,
                                stride, 0x80, &q, pool)) {
      rows.QuantizeTo(input->data.f, batches, k, asymmetric,
                      reinterpret_cast<int8_t*>(data->input_u8.data()), stride, 0x80, pool);
      q = {reinterpret_cast<const int8_t*>(data->input_u8.data()), rows.scale.data(),
           rows.offset.data()};
    }
    const auto* a = reinterpret_cast<const uint8_t*>(q.values);
    const conv_util::PackedWeights& pw = data->weights;
    data->dot_bias.resize(units);
    gemm::DotBias(nullptr, pw.dot_sums.data(), units, 128, data->dot_bias.data());
    gemm::HybridOutputStage stage;
    stage.dot_bias = data->dot_bias.data();
    stage.col_sums = asymmetric ? pw.dot_sums.data() : nullptr;
    stage.row_offset = q.offset;
    stage.row_scale = q.scale;
    stage.unit_scale = data->filter_scale.data();
    stage.bias = bias_data;
    stage.act_min = act_min;
    stage.act_max = act_max;
    if (gemm::DotGemmHybrid(batches, units, k, a, stride, pw.dot.data(), stage, out, units, pool)) {
      return;
    }
    gemm::DotGemmRaw(batches, units, k, a, stride, pw.dot.data(), data->dot_bias.data(),
                     data->sums.data(), units, pool);
    hybrid::ScaleRows(data->sums.data(), units, batches, units, q.scale, stage.col_sums, q.offset,
                      data->filter_scale.data(), bias_data, act_min, act_max, out, units);
    return;
  }
  // As on the dot path, rows another node quantized from the same tensor in this Invoke
  // are read as they are (not for the sparse kernel's float offset: it keeps its own).
  hybrid::SharedRows shared;
  if (float_offset || !hybrid::QuantizeShared(context, input_index, input->data.f, batches, k,
                                              asymmetric, k, 0, &shared, pool)) {
    rows.Quantize(input->data.f, batches, k, asymmetric, pool);
    shared = {rows.values.data(), rows.scale.data(), rows.offset.data()};
  }
  PackQuantizedWeights(data, filter);
  data->input_q.resize(static_cast<size_t>(batches) * k);
  // Rows [r0, r1) of A: the int8 values less their row's offset (none for float_offset).
  const auto convert = [&](int r0, int r1) {
    for (int b = r0; b < r1; ++b) {
      const int32_t offset = float_offset ? 0 : shared.offset[b];
      const int8_t* q = shared.values + static_cast<size_t>(b) * k;
      int16_t* a = data->input_q.data() + static_cast<size_t>(b) * k;
      for (int i = 0; i < k; ++i) a[i] = static_cast<int16_t>(q[i] - offset);
    }
  };
  if (!float_offset) {
    // v = bias (or 0) + dot * (row scale * unit scale), clamped, in the GEMM's tiles. With
    // enough rows for the threads, each takes blocks of rows whole (conversion, sums,
    // rescale), so nothing but the quantization runs on one thread.
    gemm::HybridOutputStage stage;
    stage.row_scale = shared.scale;
    stage.unit_scale = data->filter_scale.data();
    stage.bias = bias_data;
    stage.act_min = act_min;
    stage.act_max = act_max;
    const auto run_rows = [&](int r0, int r1, pthreadpool* p) {
      convert(r0, r1);
      gemm::HybridOutputStage at = stage;
      at.row_scale += r0;
      gemm::Int16GemmHybrid(r1 - r0, units, k, data->input_q.data() + static_cast<size_t>(r0) * k,
                            k, data->weights.q.data(), at, out + static_cast<size_t>(r0) * units,
                            units, p);
    };
    const int threads = static_cast<int>(parallel::NumThreads(pool));
    const int per_block = 8;  // rows: two of the GEMM's 4-row tiles
    // Each block reads all the weights: only while they fit a core's L2 (256 KB here); wider
    // layers keep the GEMM's own split, which shares the weights' panels out. (On
    // transformer_128x256_dynamic, 512 KB layers, the two measured alike at two threads.)
    constexpr size_t kRowBlockWeightBytes = 256 * 1024;
    const size_t weight_bytes = data->weights.q.size() * sizeof(int16_t);
    if (threads > 1 && batches >= 2 * threads * per_block && weight_bytes <= kRowBlockWeightBytes) {
      const int blocks = std::min(4 * threads, batches / per_block);
      const double work = static_cast<double>(batches) * units * k;
      parallel::ParallelFor(pool, static_cast<size_t>(blocks), work, [&](size_t i) {
        // Block edges on the 4-row tiles (the last block takes the rest).
        const int r0 = static_cast<int>(i * batches / blocks) / 4 * 4;
        const int r1 = i + 1 == static_cast<size_t>(blocks)
                           ? batches
                           : static_cast<int>((i + 1) * batches / blocks) / 4 * 4;
        run_rows(r0, r1, nullptr);
      });
    } else {
      run_rows(0, batches, pool);
    }
    return;
  }
  convert(0, batches);
  gemm::Int32Gemm(batches, units, k, data->input_q.data(), k, data->weights.q.data(),
                  data->sums.data(), units, pool);
  data->row_sums.resize(units);
  for (int u = 0; u < units; ++u) {
    const int8_t* wr = data->dense_q.data() + static_cast<size_t>(u) * k;
    int32_t row_sum = 0;
    for (int i = 0; i < k; ++i) row_sum += wr[i];
    data->row_sums[u] = row_sum;
  }
  for (int b = 0; b < batches; ++b) {
    const int32_t* dot = data->sums.data() + static_cast<size_t>(b) * units;
    float* out_row = out + static_cast<size_t>(b) * units;
    const float offset = static_cast<float>(rows.offset[b]);
    for (int u = 0; u < units; ++u) {
      const float scale = rows.scale[b] * data->filter_scale[u];
      float v = bias_data != nullptr ? bias_data[u] : 0.0f;
      const float zp_scale = data->per_channel ? rows.scale[b] * offset * data->filter_scale[u]
                                               : scale * offset;
      v -= zp_scale * static_cast<float>(data->row_sums[u]);
      v += static_cast<float>(dot[u]) * scale;
      out_row[u] = std::min(std::max(v, act_min), act_max);
    }
  }
}

// v8 float: each output sums its row's nonzero products in column order from 0, then adds
// the bias and clamps, as TFLite's reference loop over the densified weights (its zero
// products add nothing).
void EvalSparseFloat(const OpData* data, const TfLiteFullyConnectedParams& params,
                     const TfLiteTensor* input, const TfLiteTensor* bias, TfLiteTensor* output,
                     pthreadpool* pool) {
  const int batches = data->batches, units = data->units, k = data->input_size;
  float act_min, act_max;
  CalculateActivationRange(params.activation, &act_min, &act_max);
  const float* in = input->data.f;
  const float* bias_data = bias != nullptr ? bias->data.f : nullptr;
  float* out = output->data.f;
  parallel::ParallelFor(pool, static_cast<size_t>(units),
                        static_cast<double>(batches) * data->nz_col.size(), [&](size_t u) {
    for (int b = 0; b < batches; ++b) {
      const float* row = in + static_cast<size_t>(b) * k;
      float total = 0.0f;
      for (int32_t i = data->nz_begin[u]; i < data->nz_begin[u + 1]; ++i) {
        total += row[data->nz_col[i]] * data->nz_val[i];
      }
      const float v = total + (bias_data != nullptr ? bias_data[u] : 0.0f);
      out[static_cast<size_t>(b) * units + u] = std::min(std::max(v, act_min), act_max);
    }
  });
}

// int16 activations: the input is A as it is (zero point 0); the packed weights hold
// w - zero_point (per-tensor; TFLite's int16 FullyConnected applies it, the per-channel one
// ignores it). Whatever the bias type, TFLite's reference sums exactly and requantizes with
// one rounding (full 31-bit multiplier, halves up): 512 outputs per bias type on
// testdata/kernels match it, while the 64-bit MultiplyByQuantizedMultiplier differs on
// ~17% and the 32-bit one on a few.
void EvalInt16(OpData* data, const TfLiteTensor* input, const TfLiteTensor* filter,
               const TfLiteTensor* bias, TfLiteTensor* output, pthreadpool* pool) {
  data->weights.Pack(filter, data->units, data->input_size, data->weights_zero_point);
  const int64_t* bias64 = nullptr;
  if (bias != nullptr && bias->type == kTfLiteInt32) {
    data->bias64.assign(bias->data.i32, bias->data.i32 + data->units);
    bias64 = data->bias64.data();
  } else if (bias != nullptr) {
    bias64 = bias->data.i64;
  }
  gemm::Quantized16x8OutputStage stage = data->quant.Stage16x8(bias64);
  stage.single_rounding = true;
  gemm::QuantizedGemm16x8(data->batches, data->units, data->input_size, input->data.i16,
                          data->input_size, data->weights.q.data(), output->data.i16, data->units,
                          stage, pool);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  pthreadpool* pool = parallel::ThreadPool(context);
  // The shapes Prepare sized its buffers for must still hold (a tensor resized since,
  // e.g. by control flow, without this node being prepared again, would be read past).
  const int64_t rows = static_cast<int64_t>(data->batches);
  if (NumElements(input) != rows * data->input_size || NumElements(output) != rows * data->units) {
    TF_LITE_KERNEL_LOG(context,
                       "FULLY_CONNECTED: input of %lld and output of %lld elements, prepared for "
                       "%lld and %lld (%d rows of %d inputs, %d units).",
                       static_cast<long long>(NumElements(input)),
                       static_cast<long long>(NumElements(output)),
                       static_cast<long long>(rows * data->input_size),
                       static_cast<long long>(rows * data->units), data->batches, data->input_size,
                       data->units);
    return kTfLiteError;
  }
  switch (input->type) {
    case kTfLiteFloat32:
      if (data->hybrid) {
        EvalHybrid(context, node->inputs->data[0], data, *params, input, filter, bias, output,
                   pool);
        return kTfLiteOk;
      }
      if (data->sparse) {
        EvalSparseFloat(data, *params, input, bias, output, pool);
        return kTfLiteOk;
      }
      data->weights.Pack(filter, data->units, data->input_size, 0);
      gemm::FloatGemm(
          data->batches, data->units, data->input_size, input->data.f, data->input_size,
          data->weights.f.data(), output->data.f, data->units,
          conv_util::FloatStage(params->activation, bias != nullptr ? bias->data.f : nullptr),
          pool, data->float_kernel);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantized<int8_t>(data, input, filter, bias, output, pool);
      return kTfLiteOk;
    case kTfLiteUInt8:
      if (output->type == kTfLiteInt16) {
        EvalQuantized<uint8_t, int16_t>(data, input, filter, bias, output, pool);
      } else {
        EvalQuantized<uint8_t>(data, input, filter, bias, output, pool);
      }
      return kTfLiteOk;
    case kTfLiteInt16:
      EvalInt16(data, input, filter, bias, output, pool);
      return kTfLiteOk;
    default:
      return conv_util::UnsupportedType(context, input->type);
  }
}

}  // namespace
}  // namespace fully_connected

TfLiteRegistration* Register_FULLY_CONNECTED() {
  static TfLiteRegistration r = {fully_connected::Init, fully_connected::Free,
                                 fully_connected::Prepare, fully_connected::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
