// One hybrid LSTM time step (float activations and states, int8 weights with one scale
// per tensor), as TFLite's lstm_eval.cc LstmStepHybrid: the input, the output state and
// the projection's input are quantized per batch row (symmetric, or asymmetric with a
// zero point when asymmetric_quantize_inputs), multiplied in int32 (exact) and rescaled
// as gate += dot * (row_scale * weight_scale); everything else (peephole, layer norm,
// activations, cell update) is the float step's arithmetic. Like TFLite, an all-zero
// input or output state skips its quantization and product (adding zero either way).
//
// Layout and optional tensors as lstm_eval.h. Header-only; the scratch is the caller's.
// Thread-compatible.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LSTM_HYBRID_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LSTM_HYBRID_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/internal/hybrid.h"
#include "kernels/internal/lstm_eval.h"

namespace tflite {
namespace lstm_eval {

struct HybridLstmWeights {
  GateWeights<int8_t> gate[4];  // gate[0].input null: CIFG
  float input_scale[4] = {1, 1, 1, 1}, recurrent_scale[4] = {1, 1, 1, 1};
  // v4 diagonal recurrent weights, float [n_cell], in place of gate[g].recurrent (TFLite
  // reads them as float in its hybrid kernel).
  const float* recurrent_diag[4] = {nullptr, nullptr, nullptr, nullptr};
  const int8_t* peephole[4] = {nullptr, nullptr, nullptr, nullptr};  // [2] unused
  float peephole_scale[4] = {1, 1, 1, 1};
  const float* layer_norm[4] = {nullptr, nullptr, nullptr, nullptr};
  const float* bias[4] = {nullptr, nullptr, nullptr, nullptr};
  const int8_t* projection = nullptr;  // [n_output, n_cell]
  float projection_scale = 1;
  const float* projection_bias = nullptr;
  // Row sums of each weight matrix, used with asymmetric inputs only (else null).
  const int32_t* input_row_sums[4] = {nullptr, nullptr, nullptr, nullptr};
  const int32_t* recurrent_row_sums[4] = {nullptr, nullptr, nullptr, nullptr};
  const int32_t* projection_row_sums = nullptr;
};

// Buffers reused across steps.
struct HybridLstmScratch {
  std::vector<float> gates;      // 4 * n_batch * n_cell
  std::vector<float> recovered;  // n_cell: peephole weights times their scale
  hybrid::QuantizedRows input, state, hidden;
};

// Sums of each row of an int8 [rows, cols] matrix (ReductionSumVector).
inline void RowSums(const int8_t* m, int rows, int cols, std::vector<int32_t>* out) {
  out->assign(rows, 0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) (*out)[r] += m[r * cols + c];
  }
}

// result[b][r] += (sum_c m[r][c] * q[b][c] - row_sums[r] * offset[b]) * scale[b] *
// m_scale: the portable MatrixBatchVectorMultiplyAccumulate, whose offset term is a float
// product folded back into the int32 sum (exact at LSTM sizes, kept for its rounding).
inline void HybridMatMulAccumulate(const int8_t* m, int rows, int cols, float m_scale,
                                   const int32_t* row_sums, const hybrid::QuantizedRows& q,
                                   int n_batch, float* result) {
  for (int b = 0; b < n_batch; ++b) {
    const float scale = q.scale[b] * m_scale;
    const float offset = static_cast<float>(q.offset[b]);
    const int8_t* v = q.row(b, cols);
    for (int r = 0; r < rows; ++r) {
      const int8_t* mr = m + r * cols;
      int32_t dot = 0;
      for (int c = 0; c < cols; ++c) dot += static_cast<int32_t>(mr[c]) * v[c];
      if (row_sums != nullptr) {
        dot = static_cast<int32_t>(static_cast<float>(dot) -
                                   static_cast<float>(row_sums[r]) * offset);
      }
      result[b * rows + r] += static_cast<float>(dot) * scale;
    }
  }
}

inline bool IsZero(const float* v, int n) {
  return std::all_of(v, v + n, [](float x) { return x == 0.0f; });
}

// What one step shares between its gates.
struct HybridStepState {
  const float* output_state;  // float h (diagonal recurrent weights read it)
  const float* cell_state;
  bool input_zero, state_zero;
  int n_batch, n_input, n_output, n_cell;
};

// CalculateLstmGateHybrid.
inline void CalculateGateHybrid(const HybridLstmWeights& w, int g, const HybridStepState& st,
                                HybridLstmScratch* s, TfLiteFusedActivation act, float* gate) {
  const int n_batch = st.n_batch, n_cell = st.n_cell;
  InitGate(w.bias[g], w.layer_norm[g] != nullptr, n_batch, n_cell, gate);
  if (!st.input_zero) {
    HybridMatMulAccumulate(w.gate[g].input, n_cell, st.n_input, w.input_scale[g],
                           w.input_row_sums[g], s->input, n_batch, gate);
  }
  if (!st.state_zero) {
    if (w.recurrent_diag[g] != nullptr) {
      DiagonalAccumulate(w.recurrent_diag[g], n_cell, st.output_state, n_batch, gate);
    } else {
      HybridMatMulAccumulate(w.gate[g].recurrent, n_cell, st.n_output, w.recurrent_scale[g],
                             w.recurrent_row_sums[g], s->state, n_batch, gate);
    }
  }
  const int8_t* peephole = g == kCellGate ? nullptr : w.peephole[g];
  if (peephole != nullptr) {
    s->recovered.resize(n_cell);
    for (int i = 0; i < n_cell; ++i) s->recovered[i] = w.peephole_scale[g] * peephole[i];
    DiagonalAccumulate(s->recovered.data(), n_cell, st.cell_state, n_batch, gate);
  }
  if (w.layer_norm[g] != nullptr) ApplyLayerNormFloat(w.layer_norm[g], w.bias[g], n_batch, n_cell, gate);
  ApplyActivationArray(gate, n_batch * n_cell, act, gate);
}

// One hybrid step for n_batch rows; states and output as LstmStepFloat.
inline void LstmStepHybrid(const HybridLstmWeights& w,
                           const TfLiteUnidirectionalSequenceLSTMParams& p, const float* input,
                           int n_batch, int n_input, int n_cell, int n_output, float* output_state,
                           float* cell_state, float* output, int output_stride,
                           HybridLstmScratch* s) {
  const bool use_cifg = w.gate[kInputGate].input == nullptr;
  const bool asymmetric = p.asymmetric_quantize_inputs;
  const int n = n_batch * n_cell;
  s->gates.resize(4 * static_cast<size_t>(n));
  float* gates[4];
  for (int g = 0; g < 4; ++g) gates[g] = s->gates.data() + g * n;
  const HybridStepState st{output_state,
                           cell_state,
                           IsZero(input, n_batch * n_input),
                           IsZero(output_state, n_batch * n_output),
                           n_batch,
                           n_input,
                           n_output,
                           n_cell};
  if (!st.input_zero) s->input.Quantize(input, n_batch, n_input, asymmetric);
  if (!st.state_zero) s->state.Quantize(output_state, n_batch, n_output, asymmetric);
  for (int g : {kInputGate, kForgetGate, kCellGate}) {
    if (g == kInputGate && use_cifg) continue;
    CalculateGateHybrid(w, g, st, s, g == kCellGate ? p.activation : kTfLiteActSigmoid, gates[g]);
  }
  UpdateCellFloat(gates[kInputGate], gates[kForgetGate], gates[kCellGate], use_cifg, p.cell_clip,
                  n, cell_state);
  CalculateGateHybrid(w, kOutputGate, st, s, kTfLiteActSigmoid, gates[kOutputGate]);
  // CalculateLstmOutputHybrid: hidden = output_gate .* act(cell), then the projection
  // on the quantized hidden (skipped when it is all zero).
  float* hidden = gates[kCellGate];
  HiddenFromCell(cell_state, gates[kOutputGate], n, p.activation, hidden);
  EmitLstmOutput(w.projection != nullptr, w.projection_bias, p.proj_clip, hidden, n_batch, n_output,
                 output_state, output, output_stride, [&] {
                   if (IsZero(hidden, n)) return;
                   s->hidden.Quantize(hidden, n_batch, n_cell, asymmetric);
                   HybridMatMulAccumulate(w.projection, n_output, n_cell, w.projection_scale,
                                          w.projection_row_sums, s->hidden, n_batch, output_state);
                 });
}

}  // namespace lstm_eval
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LSTM_HYBRID_H_
