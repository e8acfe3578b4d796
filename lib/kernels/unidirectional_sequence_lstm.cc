// UNIDIRECTIONAL_SEQUENCE_LSTM: an LSTM run over the time axis of a 3-D input
// ([batch, time, input], or [time, batch, input] when time_major), with optional CIFG,
// peephole, layer norm and projection, and variable output/cell state tensors that
// carry over between invocations.
//   - float32 (v1): TFLite's EvalFloat / LstmStepFloat.
//   - int8 full integer ("8x8_16", v1: int8 activations and weights, int16 cell state,
//     int32 biases, 5 intermediates carrying the gate/hidden scales): bit-exact with
//     TFLite's EvalInteger8x8_16 (multipliers as PopulateQuantizedLstmParams8x8_16,
//     zero point x row sums as PopulatePrecomputedZPTimesWeightsWithBias).
//   - hybrid (v2; v3 with asymmetric_quantize_inputs): float input, states and biases,
//     int8 weights with one scale each (peephole weights int8 too), as EvalHybrid
//     (kernels/internal/lstm_hybrid.h).
//   - diagonal recurrent weights (v4): a recurrent weight tensor of rank 1 ([n_cell],
//     float) is a diagonal matrix, in the float and hybrid kernels, as TFLite decides it
//     (by rank; the diagonal_recurrent_tensors option only sets the version).
// Not implemented: int16 activations (v5, 16x8), which TFLite's builtin kernel lacks
// too (its resolvers stop at v4; only TFLite Micro runs them).
#include <cmath>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernels/internal/lstm_eval.h"
#include "kernels/internal/lstm_hybrid.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace unidirectional_sequence_lstm {
namespace {

// Input tensor indices (TFLite's lstm::full).
constexpr int kInput = 0;
constexpr int kInputWeights = 1;      // + gate: input, forget, cell, output
constexpr int kRecurrentWeights = 5;  // + gate
constexpr int kPeephole = 9;          // cell_to_input, cell_to_forget, cell_to_output
constexpr int kBias = 12;             // + gate
constexpr int kProjectionWeights = 16;
constexpr int kProjectionBias = 17;
constexpr int kOutputState = 18;
constexpr int kCellState = 19;
constexpr int kLayerNorm = 20;  // + gate

// Peephole inputs exist for input, forget and output gates only.
int PeepholeIndex(int gate) {
  return gate == lstm_eval::kInputGate    ? kPeephole
         : gate == lstm_eval::kForgetGate ? kPeephole + 1
         : gate == lstm_eval::kOutputGate ? kPeephole + 2
                                          : -1;
}

enum class Kind { kFloat, kHybrid, kInteger };

struct OpData {
  Kind kind = Kind::kFloat;
  bool use_layer_norm = false;
  bool diagonal[4] = {false, false, false, false};  // recurrent weights of rank 1
  int n_batch = 0, n_input = 0, n_cell = 0, n_output = 0, max_time = 0;
  std::vector<float> scratch_f;
  std::vector<int16_t> scratch16;
  std::vector<int8_t> scratch8;
  lstm_eval::IntegerLstmParams q;
  std::vector<int32_t> input_bias[4], recurrent_bias[4], projection_bias;
  lstm_eval::HybridLstmScratch hybrid;
  std::vector<int32_t> input_row_sums[4], recurrent_row_sums[4], projection_row_sums;
  // Float: row-parallel copies of the weight matrices (RowParallelWeights) and the data
  // they were made from.
  std::vector<float> row_parallel;
  const float* row_parallel_from[9] = {};
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

const TfLiteTensor* Opt(TfLiteContext* context, TfLiteNode* node, int index) {
  if (index < 0 || index >= node->inputs->size) return nullptr;
  return GetOptionalInputTensor(context, node, index);
}

TfLiteStatus CheckShape(TfLiteContext* context, const TfLiteTensor* t, int d0, int d1 = -1) {
  if (t == nullptr) return kTfLiteOk;
  TF_LITE_ENSURE_EQ(context, t->dims->size, d1 < 0 ? 1 : 2);
  TF_LITE_ENSURE_EQ(context, t->dims->data[0], d0);
  if (d1 >= 0) TF_LITE_ENSURE_EQ(context, t->dims->data[1], d1);
  return kTfLiteOk;
}

// The checks of TFLite's CheckInputTensorDimensions; weights are `weight_type`
// (float32 or int8), biases int32 in the integer kernel, else float32.
TfLiteStatus CheckDimensions(TfLiteContext* context, TfLiteNode* node, const OpData& d,
                             TfLiteType weight_type) {
  const bool integer = d.kind == Kind::kInteger;
  const auto* params = static_cast<TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params->cell_clip >= 0);
  TF_LITE_ENSURE(context, params->proj_clip >= 0);
  const bool use_cifg = Opt(context, node, kInputWeights) == nullptr;
  for (int g = 0; g < 4; ++g) {
    const TfLiteTensor* w = Opt(context, node, kInputWeights + g);
    const TfLiteTensor* r = Opt(context, node, kRecurrentWeights + g);
    if (g != lstm_eval::kInputGate) {
      TF_LITE_ENSURE(context, w != nullptr && r != nullptr);
    }
    TF_LITE_ENSURE_EQ(context, w == nullptr, r == nullptr);
    if (w != nullptr) TF_LITE_ENSURE_TYPES_EQ(context, w->type, weight_type);
    TF_LITE_ENSURE_OK(context, CheckShape(context, w, d.n_cell, d.n_input));
    if (r != nullptr && d.diagonal[g]) {
      // TFLite's float and hybrid kernels both read a diagonal as float.
      TF_LITE_ENSURE_TYPES_EQ(context, r->type, kTfLiteFloat32);
      TF_LITE_ENSURE_OK(context, CheckShape(context, r, d.n_cell));
    } else if (r != nullptr) {
      TF_LITE_ENSURE_TYPES_EQ(context, r->type, weight_type);
      TF_LITE_ENSURE_OK(context, CheckShape(context, r, d.n_cell, d.n_output));
    }
    const TfLiteTensor* bias = Opt(context, node, kBias + g);
    if (g == lstm_eval::kInputGate && use_cifg) {
      TF_LITE_ENSURE(context, bias == nullptr);
    } else {
      TF_LITE_ENSURE(context, bias != nullptr);
      TF_LITE_ENSURE_OK(context, CheckShape(context, bias, d.n_cell));
      TF_LITE_ENSURE_TYPES_EQ(context, bias->type, integer ? kTfLiteInt32 : kTfLiteFloat32);
    }
  }
  const TfLiteTensor* pi = Opt(context, node, kPeephole);
  const TfLiteTensor* pf = Opt(context, node, kPeephole + 1);
  const TfLiteTensor* po = Opt(context, node, kPeephole + 2);
  for (const TfLiteTensor* t : {pi, pf, po}) {
    TF_LITE_ENSURE_OK(context, CheckShape(context, t, d.n_cell));
    if (t != nullptr) TF_LITE_ENSURE_TYPES_EQ(context, t->type, integer ? kTfLiteInt16 : weight_type);
  }
  const bool all = (pi != nullptr || use_cifg) && pf != nullptr && po != nullptr;
  const bool none = pi == nullptr && pf == nullptr && po == nullptr;
  TF_LITE_ENSURE(context, all || none);
  const TfLiteTensor* proj = Opt(context, node, kProjectionWeights);
  const TfLiteTensor* proj_bias = Opt(context, node, kProjectionBias);
  TF_LITE_ENSURE_OK(context, CheckShape(context, proj, d.n_output, d.n_cell));
  TF_LITE_ENSURE_OK(context, CheckShape(context, proj_bias, d.n_output));
  TF_LITE_ENSURE(context, proj != nullptr || proj_bias == nullptr);
  if (proj != nullptr) TF_LITE_ENSURE_TYPES_EQ(context, proj->type, weight_type);
  if (proj_bias != nullptr) {
    TF_LITE_ENSURE_TYPES_EQ(context, proj_bias->type, integer ? kTfLiteInt32 : kTfLiteFloat32);
  }
  if (proj == nullptr) TF_LITE_ENSURE_EQ(context, d.n_output, d.n_cell);
  if (d.use_layer_norm) {
    for (int g = 0; g < 4; ++g) {
      const TfLiteTensor* ln = Opt(context, node, kLayerNorm + g);
      if (g == lstm_eval::kInputGate && use_cifg) {
        TF_LITE_ENSURE(context, ln == nullptr);
        continue;
      }
      TF_LITE_ENSURE(context, ln != nullptr);
      TF_LITE_ENSURE_OK(context, CheckShape(context, ln, d.n_cell));
      TF_LITE_ENSURE_TYPES_EQ(context, ln->type, integer ? kTfLiteInt16 : kTfLiteFloat32);
    }
  }
  return kTfLiteOk;
}

float ScaleOf(const TfLiteTensor* t) { return t != nullptr ? t->params.scale : 1.0f; }

// Zero point times the weights' row sums, plus the bias when given
// (TFLite's PrecomputeZeroPointTimesWeightWithBias).
void PrecomputeZpTimesWeights(int32_t zero_point, const TfLiteTensor* weights,
                              const TfLiteTensor* bias, std::vector<int32_t>* out) {
  out->clear();
  if (weights == nullptr) return;
  const int rows = weights->dims->data[0], cols = weights->dims->data[1];
  out->assign(rows, 0);
  if (bias != nullptr) std::copy_n(bias->data.i32, rows, out->data());
  if (zero_point == 0) return;
  for (int r = 0; r < rows; ++r) {
    int32_t row_sum = 0;
    for (int c = 0; c < cols; ++c) row_sum += weights->data.int8[r * cols + c];
    // int32 arithmetic that wraps, as upstream's on every target (crafted zero points).
    (*out)[r] = WrappingAdd((*out)[r], WrappingMul(row_sum, zero_point));
  }
}

// PopulateQuantizedLstmParams8x8_16 and PopulatePrecomputedZPTimesWeightsWithBias.
TfLiteStatus PrepareInteger(TfLiteContext* context, TfLiteNode* node, OpData* d,
                            const TfLiteTensor* input, const TfLiteTensor* output_state,
                            const TfLiteTensor* cell_state, const TfLiteTensor* output) {
  const auto* params = static_cast<TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  if (node->intermediates == nullptr || node->intermediates->size != 5) {
    TF_LITE_KERNEL_LOG(context, "Integer LSTM needs 5 intermediate tensors, got %d.",
                       node->intermediates == nullptr ? 0 : node->intermediates->size);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output_state->type, kTfLiteInt8);
  TF_LITE_ENSURE_TYPES_EQ(context, cell_state->type, kTfLiteInt16);
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, kTfLiteInt8);
  // Row sums of the weights (and the biases) are folded in here, at prepare: they must
  // be constants (a crafted model may point them at activations, which have no data yet).
  for (int i = 1; i < node->inputs->size && i < 24; ++i) {
    if (i == kOutputState || i == kCellState) continue;
    const TfLiteTensor* t = Opt(context, node, i);
    if (t == nullptr || IsConstantTensor(t)) continue;
    TF_LITE_KERNEL_LOG(context,
                       "UNIDIRECTIONAL_SEQUENCE_LSTM (integer): input %d ('%s') must be a "
                       "constant (weights and biases are folded in at prepare).",
                       i, t->name ? t->name : "");
    return kTfLiteError;
  }
  float intermediate_scale[5];
  int32_t intermediate_zp[5];
  for (int i = 0; i < 5; ++i) {
    intermediate_scale[i] = static_cast<float>(std::pow(2, -12));  // Q3.12 gate input
    intermediate_zp[i] = 0;
    if (i < 4 && !d->use_layer_norm) continue;
    const int t = node->intermediates->data[i];
    TF_LITE_ENSURE(context, t >= 0 && static_cast<size_t>(t) < context->tensors_size);
    const TfLiteTensor* inter = &context->tensors[t];
    const auto* aq = static_cast<const TfLiteAffineQuantization*>(inter->quantization.params);
    TF_LITE_ENSURE(context, inter->quantization.type == kTfLiteAffineQuantization &&
                                aq != nullptr && aq->scale != nullptr && aq->scale->size > 0 &&
                                aq->zero_point != nullptr && aq->zero_point->size > 0);
    intermediate_scale[i] = aq->scale->data[0];
    intermediate_zp[i] = aq->zero_point->data[0];
  }
  lstm_eval::IntegerLstmParams& q = d->q;
  int cell_scale = 0;
  TF_LITE_ENSURE(context, CheckedLog2(cell_state->params.scale, &cell_scale));
  TF_LITE_ENSURE(context, cell_scale <= -9);
  // The output takes tanh of the cell state read with 15 + log2(scale) integer bits, which
  // TFLite's integer kernels implement for 0 to 6 (they abort outside); below 2^-15 the
  // state update's rounding shift (30 + log2(scale)) also leaves its range.
  if (cell_scale < -15) {
    TF_LITE_KERNEL_LOG(context,
                       "Integer LSTM: the cell state's scale is 2^%d; the integer kernels "
                       "support 2^-15 to 2^-9 (tanh of the cell state with 0 to 6 integer bits).",
                       cell_scale);
    return kTfLiteError;
  }
  q.cell_scale = cell_scale;
  const float input_scale = input->params.scale;
  const float output_state_scale = output_state->params.scale;
  const bool use_cifg = Opt(context, node, kInputWeights) == nullptr;
  const TfLiteTensor* proj = Opt(context, node, kProjectionWeights);
  for (int g = 0; g < 4; ++g) {
    float eff_in = 1.0f, eff_rec = 1.0f, eff_cell = 1.0f, ln_scale = 1.0f;
    if (!(g == lstm_eval::kInputGate && use_cifg)) {
      eff_in = ScaleOf(Opt(context, node, kInputWeights + g)) * input_scale / intermediate_scale[g];
      eff_rec = ScaleOf(Opt(context, node, kRecurrentWeights + g)) * output_state_scale /
                intermediate_scale[g];
      const TfLiteTensor* peep =
          PeepholeIndex(g) >= 0 ? Opt(context, node, PeepholeIndex(g)) : nullptr;
      if (peep != nullptr) {
        eff_cell = static_cast<float>(std::pow(2, cell_scale) * peep->params.scale /
                                      intermediate_scale[g]);
      }
      if (d->use_layer_norm) ln_scale = ScaleOf(Opt(context, node, kLayerNorm + g));
    }
    QuantizeMultiplier(eff_in, &q.input_scale_a[g], &q.input_scale_b[g]);
    QuantizeMultiplier(eff_rec, &q.recurrent_scale_a[g], &q.recurrent_scale_b[g]);
    QuantizeMultiplier(eff_cell, &q.cell_scale_a[g], &q.cell_scale_b[g]);
    QuantizeMultiplier(ln_scale, &q.layer_norm_scale_a[g], &q.layer_norm_scale_b[g]);
    // The layer norm rescales by ln_scale * 2^12 (the shift + 12 in ApplyLayerNormInteger):
    // past a left shift of 30 bits, x * 2^shift is not an int32 product (TFLite shifts
    // anyway, undefined); the node is refused as for any multiplier out of range.
    if (q.layer_norm_scale_b[g] + 12 > 30) {
      NoteMultiplierRangeError(static_cast<double>(ln_scale) * 4096.0,
                               "needs a left shift over 30 bits");
      q.layer_norm_scale_b[g] = 30 - 12;
    }
    // TFLite casts 10000 * scale to int32 unchecked; past int32's range (a crafted scale)
    // x86's conversion gives INT32_MIN, and the guard is then 1, as for NaN.
    const float guard = 10000 * ln_scale;
    q.variance_guard[g] = guard >= 1.0f && guard < 2147483648.0f ? static_cast<int32_t>(guard) : 1;
  }
  const float eff_hidden =
      static_cast<float>(std::pow(2, -15) / intermediate_scale[4] * std::pow(2, -15));
  const float eff_proj = ScaleOf(proj) * intermediate_scale[4] / output_state_scale;
  QuantizeMultiplier(eff_hidden, &q.hidden_scale_a, &q.hidden_scale_b);
  QuantizeMultiplier(eff_proj, &q.proj_scale_a, &q.proj_scale_b);
  q.hidden_zp = intermediate_zp[4];
  q.output_state_zp = output_state->params.zero_point;
  q.quantized_cell_clip = 0;
  if (params->cell_clip > 0.0f) {
    q.quantized_cell_clip = static_cast<int16_t>(
        std::min(std::max(params->cell_clip / cell_state->params.scale, -32768.0f), 32767.0f));
  }
  q.quantized_proj_clip = 0;
  if (params->proj_clip > 0.0f) {
    q.quantized_proj_clip = static_cast<int8_t>(
        std::min(std::max(params->proj_clip / output->params.scale, -128.0f), 127.0f));
  }
  // With layer norm the gate bias is added after normalization, not in the matmul.
  for (int g = 0; g < 4; ++g) {
    const TfLiteTensor* bias = d->use_layer_norm ? nullptr : Opt(context, node, kBias + g);
    PrecomputeZpTimesWeights(-input->params.zero_point, Opt(context, node, kInputWeights + g), bias,
                             &d->input_bias[g]);
    PrecomputeZpTimesWeights(-output_state->params.zero_point,
                             Opt(context, node, kRecurrentWeights + g), nullptr,
                             &d->recurrent_bias[g]);
    q.input_effective_bias[g] = d->input_bias[g].empty() ? nullptr : d->input_bias[g].data();
    q.recurrent_effective_bias[g] =
        d->recurrent_bias[g].empty() ? nullptr : d->recurrent_bias[g].data();
  }
  PrecomputeZpTimesWeights(q.hidden_zp, proj, Opt(context, node, kProjectionBias),
                           &d->projection_bias);
  q.projection_effective_bias = d->projection_bias.empty() ? nullptr : d->projection_bias.data();
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OpData* d = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  if (node->inputs->size != 20 && node->inputs->size != 24) {
    TF_LITE_KERNEL_LOG(context, "The LSTM Full kernel expects 20 or 24 inputs. Got %d inputs",
                       node->inputs->size);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, node->outputs->size, 1);
  d->use_layer_norm = node->inputs->size == 24 && Opt(context, node, kLayerNorm + 1) != nullptr;
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kInput, &input));
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported%s.", TfLiteTypeGetName(input->type),
                       input->type,
                       input->type == kTfLiteInt16
                           ? " (int16 activations, v5, are TFLite Micro's; TFLite's kernel lacks "
                             "them too)"
                           : "");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, input->dims->size, 3);
  d->max_time = params->time_major ? input->dims->data[0] : input->dims->data[1];
  d->n_batch = params->time_major ? input->dims->data[1] : input->dims->data[0];
  d->n_input = input->dims->data[2];
  const TfLiteTensor* i2o = Opt(context, node, kInputWeights + lstm_eval::kOutputGate);
  const TfLiteTensor* r2o = Opt(context, node, kRecurrentWeights + lstm_eval::kOutputGate);
  TF_LITE_ENSURE(context, i2o != nullptr && r2o != nullptr);
  TF_LITE_ENSURE_EQ(context, i2o->dims->size, 2);
  TF_LITE_ENSURE(context, r2o->dims->size == 1 || r2o->dims->size == 2);
  d->n_cell = i2o->dims->data[0];
  d->n_output = r2o->dims->data[r2o->dims->size - 1];
  if (input->type == kTfLiteInt8) {
    d->kind = Kind::kInteger;
    TF_LITE_ENSURE_TYPES_EQ(context, i2o->type, kTfLiteInt8);
  } else if (i2o->type == kTfLiteInt8) {
    d->kind = Kind::kHybrid;
  } else if (i2o->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Hybrid LSTM with %s weights is not supported (expected int8).",
                       TfLiteTypeGetName(i2o->type));
    return kTfLiteError;
  }
  bool any_diagonal = false;
  for (int g = 0; g < 4; ++g) {
    const TfLiteTensor* r = Opt(context, node, kRecurrentWeights + g);
    d->diagonal[g] = r != nullptr && r->dims->size == 1;
    any_diagonal = any_diagonal || d->diagonal[g];
  }
  if (any_diagonal && (d->kind == Kind::kInteger || d->n_output != d->n_cell)) {
    TF_LITE_KERNEL_LOG(context,
                       "Diagonal (rank-1) recurrent weights need float or hybrid weights and "
                       "n_output == n_cell (got %s input, n_output %d, n_cell %d).",
                       TfLiteTypeGetName(input->type), d->n_output, d->n_cell);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckDimensions(context, node, *d, i2o->type));

  TfLiteTensor* output_state = GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell_state = GetVariableInput(context, node, kCellState);
  TF_LITE_ENSURE(context, output_state != nullptr && cell_state != nullptr);
  TF_LITE_ENSURE_EQ(context, NumElements(output_state), int64_t{d->n_batch} * d->n_output);
  TF_LITE_ENSURE_EQ(context, NumElements(cell_state), int64_t{d->n_batch} * d->n_cell);
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TfLiteIntArray* output_size = TfLiteIntArrayCopy(input->dims);
  output_size->data[2] = d->n_output;
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, output_size));

  const size_t gate_elems = static_cast<size_t>(d->n_batch) * d->n_cell;
  if (d->kind != Kind::kInteger) {
    TF_LITE_ENSURE_TYPES_EQ(context, output_state->type, kTfLiteFloat32);
    TF_LITE_ENSURE_TYPES_EQ(context, cell_state->type, kTfLiteFloat32);
    if (d->kind == Kind::kFloat) d->scratch_f.assign(4 * gate_elems, 0.0f);
    return kTfLiteOk;
  }
  d->scratch16.assign(4 * gate_elems, 0);
  d->scratch8.assign(gate_elems, 0);
  return PrepareInteger(context, node, d, input, output_state, cell_state, output);
}

template <typename T>
const T* Data(TfLiteContext* context, TfLiteNode* node, int index) {
  const TfLiteTensor* t = Opt(context, node, index);
  return t != nullptr ? reinterpret_cast<const T*>(t->data.raw) : nullptr;
}

template <typename W, typename Weights>
void FillWeights(TfLiteContext* context, TfLiteNode* node, bool use_layer_norm, Weights* w) {
  for (int g = 0; g < 4; ++g) {
    w->gate[g].input = Data<W>(context, node, kInputWeights + g);
    w->gate[g].recurrent = Data<W>(context, node, kRecurrentWeights + g);
    w->bias[g] = reinterpret_cast<std::remove_reference_t<decltype(w->bias[g])>>(
        Data<char>(context, node, kBias + g));
    if (PeepholeIndex(g) >= 0) {
      w->peephole[g] = reinterpret_cast<std::remove_reference_t<decltype(w->peephole[g])>>(
          Data<char>(context, node, PeepholeIndex(g)));
    }
    if (use_layer_norm) {
      w->layer_norm[g] = reinterpret_cast<std::remove_reference_t<decltype(w->layer_norm[g])>>(
          Data<char>(context, node, kLayerNorm + g));
    }
  }
  w->projection = Data<W>(context, node, kProjectionWeights);
}

// Rank-1 recurrent weights (v4) go to recurrent_diag instead of the matrix slot.
template <typename Weights>
void FillDiagonal(TfLiteContext* context, TfLiteNode* node, const OpData& d, Weights* w) {
  for (int g = 0; g < 4; ++g) {
    if (!d.diagonal[g]) continue;
    w->gate[g].recurrent = nullptr;
    w->recurrent_diag[g] = Data<float>(context, node, kRecurrentWeights + g);
  }
}

// Hybrid weights: int8 data and their scales, row sums for asymmetric inputs.
void FillHybridWeights(TfLiteContext* context, TfLiteNode* node, OpData* d, bool asymmetric,
                       lstm_eval::HybridLstmWeights* w) {
  FillWeights<int8_t>(context, node, d->use_layer_norm, w);
  FillDiagonal(context, node, *d, w);
  for (int g = 0; g < 4; ++g) {
    w->input_scale[g] = ScaleOf(Opt(context, node, kInputWeights + g));
    w->recurrent_scale[g] = ScaleOf(Opt(context, node, kRecurrentWeights + g));
    if (PeepholeIndex(g) >= 0) w->peephole_scale[g] = ScaleOf(Opt(context, node, PeepholeIndex(g)));
  }
  w->projection_scale = ScaleOf(Opt(context, node, kProjectionWeights));
  w->projection_bias = Data<float>(context, node, kProjectionBias);
  if (!asymmetric) return;
  // Recomputed per invocation (a few thousand adds), so weights never go stale.
  for (int g = 0; g < 4; ++g) {
    if (w->gate[g].input != nullptr) {
      lstm_eval::RowSums(w->gate[g].input, d->n_cell, d->n_input, &d->input_row_sums[g]);
      w->input_row_sums[g] = d->input_row_sums[g].data();
    }
    if (w->gate[g].recurrent != nullptr) {
      lstm_eval::RowSums(w->gate[g].recurrent, d->n_cell, d->n_output, &d->recurrent_row_sums[g]);
      w->recurrent_row_sums[g] = d->recurrent_row_sums[g].data();
    }
  }
  if (w->projection != nullptr) {
    lstm_eval::RowSums(w->projection, d->n_output, d->n_cell, &d->projection_row_sums);
    w->projection_row_sums = d->projection_row_sums.data();
  }
}

// Calls step(input_offset, output_offset, state_row, n_batch) for each step: all batches
// at once when time major, else one batch row at a time. Offsets in 64 bits: Prepare checked
// the element counts in 64 bits, not that their products fit an int.
template <typename Step>
void ForEachStep(const OpData& d, bool time_major, Step step) {
  const std::ptrdiff_t n_input = d.n_input, n_output = d.n_output;
  if (time_major) {
    for (std::ptrdiff_t t = 0; t < d.max_time; ++t) {
      step(t * d.n_batch * n_input, t * d.n_batch * n_output, 0, d.n_batch);
    }
    return;
  }
  for (std::ptrdiff_t b = 0; b < d.n_batch; ++b) {
    for (std::ptrdiff_t t = 0; t < d.max_time; ++t) {
      const std::ptrdiff_t offset = b * d.max_time + t;
      step(offset * n_input, offset * n_output, b, 1);
    }
  }
}

// Points w->gate_t / projection_t at row-parallel copies of the float matrices, made once
// for constant weights (again whenever a weight is not constant, or its data moved).
void RowParallelWeights(TfLiteContext* context, TfLiteNode* node, OpData* d,
                        lstm_eval::FloatLstmWeights* w) {
  const float* src[9];
  int rows[9], cols[9], index[9];
  for (int g = 0; g < 4; ++g) {
    src[2 * g] = w->gate[g].input;
    rows[2 * g] = d->n_cell;
    cols[2 * g] = d->n_input;
    index[2 * g] = kInputWeights + g;
    src[2 * g + 1] = w->gate[g].recurrent;  // null when diagonal
    rows[2 * g + 1] = d->n_cell;
    cols[2 * g + 1] = d->n_output;
    index[2 * g + 1] = kRecurrentWeights + g;
  }
  src[8] = w->projection;
  rows[8] = d->n_output;
  cols[8] = d->n_cell;
  index[8] = kProjectionWeights;
  bool fresh = !d->row_parallel.empty();
  size_t total = 0;
  for (int i = 0; i < 9; ++i) {
    if (src[i] == nullptr) continue;
    const TfLiteTensor* t = Opt(context, node, index[i]);
    const bool constant = t->allocation_type == kTfLiteMmapRo || t->allocation_type == kTfLitePersistentRo;
    fresh = fresh && constant && d->row_parallel_from[i] == src[i];
    total += static_cast<size_t>(cols[i]) * lstm_eval::RowParallelStride(rows[i]);
  }
  if (!fresh) d->row_parallel.resize(total);
  float* out = d->row_parallel.data();
  const float** dst[9];
  for (int g = 0; g < 4; ++g) {
    dst[2 * g] = &w->gate_t[g].input;
    dst[2 * g + 1] = &w->gate_t[g].recurrent;
  }
  dst[8] = &w->projection_t;
  for (int i = 0; i < 9; ++i) {
    d->row_parallel_from[i] = src[i];
    if (src[i] == nullptr) continue;
    if (!fresh) lstm_eval::TransposeForRows(src[i], rows[i], cols[i], out);
    *dst[i] = out;
    out += static_cast<size_t>(cols[i]) * lstm_eval::RowParallelStride(rows[i]);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  OpData* d = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, kInput);
  TfLiteTensor* output_state = GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell_state = GetVariableInput(context, node, kCellState);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (d->kind == Kind::kHybrid) {
    lstm_eval::HybridLstmWeights w;
    FillHybridWeights(context, node, d, params->asymmetric_quantize_inputs, &w);
    ForEachStep(*d, params->time_major, [&](std::ptrdiff_t in_off, std::ptrdiff_t out_off, std::ptrdiff_t row, int n_batch) {
      lstm_eval::LstmStepHybrid(w, *params, input->data.f + in_off, n_batch, d->n_input, d->n_cell,
                                d->n_output, output_state->data.f + row * d->n_output,
                                cell_state->data.f + row * d->n_cell, output->data.f + out_off,
                                d->n_output, &d->hybrid);
    });
    return kTfLiteOk;
  }
  if (d->kind == Kind::kFloat) {
    lstm_eval::FloatLstmWeights w;
    FillWeights<float>(context, node, d->use_layer_norm, &w);
    FillDiagonal(context, node, *d, &w);
    w.projection_bias = Data<float>(context, node, kProjectionBias);
    RowParallelWeights(context, node, d, &w);
    ForEachStep(*d, params->time_major, [&](std::ptrdiff_t in_off, std::ptrdiff_t out_off, std::ptrdiff_t row, int n_batch) {
      lstm_eval::LstmStepFloat(w, *params, input->data.f + in_off, n_batch, d->n_input, d->n_cell,
                               d->n_output, output_state->data.f + row * d->n_output,
                               cell_state->data.f + row * d->n_cell, output->data.f + out_off,
                               d->n_output, d->scratch_f.data());
    });
    return kTfLiteOk;
  }
  lstm_eval::IntegerLstmWeights w;
  FillWeights<int8_t>(context, node, d->use_layer_norm, &w);
  ForEachStep(*d, params->time_major, [&](std::ptrdiff_t in_off, std::ptrdiff_t out_off, std::ptrdiff_t row, int n_batch) {
    lstm_eval::LstmStepInteger8x8_16(
        w, d->q, input->data.int8 + in_off, n_batch, d->n_input, d->n_cell, d->n_output,
        output_state->data.int8 + row * d->n_output, cell_state->data.i16 + row * d->n_cell,
        output->data.int8 + out_off, d->scratch16.data(), d->scratch8.data());
  });
  return kTfLiteOk;
}

}  // namespace
}  // namespace unidirectional_sequence_lstm

TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM() {
  static TfLiteRegistration r = {
      unidirectional_sequence_lstm::Init, unidirectional_sequence_lstm::Free,
      unidirectional_sequence_lstm::Prepare, unidirectional_sequence_lstm::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
