// One LSTM time step, float and full-integer (int8 activations, int16 cell state,
// "8x8_16"), shared by the LSTM family of kernels. The integer step reproduces TFLite's
// lstm_eval.cc LstmStepInteger8x8_16 and the portable tensor_utils it calls, bit for
// bit; the float step follows LstmStepFloat (sums in float, in TFLite's order of
// operations, so results match TFLite within float rounding).
//
// Layout: weights are row-major [n_cell, n_input] / [n_cell, n_output], projection
// [n_output, n_cell]; activations are [n_batch, n] rows. Optional tensors are nullptr:
// no input gate (CIFG), no peephole, no layer norm, no projection.
//
// Header-only, no allocation; callers pass scratch buffers. Thread-compatible.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LSTM_EVAL_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LSTM_EVAL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/internal/fixedpoint_transcendental.h"
#include "kernels/internal/logistic_f32.h"
#include "kernels/internal/tanh_f32.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/fixedpoint.h"

namespace tflite {
namespace lstm_eval {

// ---------------------------------------------------------------------------------
// Float.

template <typename T>
struct GateWeights {
  const T* input = nullptr;      // [n_cell, n_input]
  const T* recurrent = nullptr;  // [n_cell, n_output]
};

struct FloatLstmWeights {
  GateWeights<float> gate[4];  // input, forget, cell, output; gate[0].input null: CIFG
  // Optional copies of gate[g].input / .recurrent / projection in the row-parallel layout
  // (TransposeForRows); used instead of the row-major matrices when set.
  GateWeights<float> gate_t[4];
  const float* projection_t = nullptr;
  const float* peephole[4] = {nullptr, nullptr, nullptr, nullptr};  // [n_cell]; [2] unused
  const float* layer_norm[4] = {nullptr, nullptr, nullptr, nullptr};
  const float* bias[4] = {nullptr, nullptr, nullptr, nullptr};
  const float* projection = nullptr;       // [n_output, n_cell]
  const float* projection_bias = nullptr;  // [n_output]
  // v4 diagonal recurrent weights: [n_cell] per gate (n_output == n_cell) in place of
  // gate[g].recurrent; the gate adds diag .* h instead of R h.
  const float* recurrent_diag[4] = {nullptr, nullptr, nullptr, nullptr};
};

enum Gate { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };

inline float ApplyActivation(float x, TfLiteFusedActivation act) {
  switch (act) {
    case kTfLiteActRelu:
      return std::max(0.0f, x);
    case kTfLiteActReluN1To1:
      return std::min(1.0f, std::max(-1.0f, x));
    case kTfLiteActRelu6:
      return std::min(6.0f, std::max(0.0f, x));
    case kTfLiteActTanh:
      return std::tanh(x);
    case kTfLiteActSigmoid:
      return 1.0f / (1.0f + std::exp(-x));
    case kTfLiteActSignBit:
      return std::signbit(x) ? 1.0f : 0.0f;
    default:
      return x;
  }
}

// out[i] = act(in[i]); tanh and logistic with the bits of TFLite's tensor_utils (Eigen's,
// as its builtin TANH and LOGISTIC: tanh_f32.h, logistic_f32.h; in and out may be the same).
inline void ApplyActivationArray(const float* in, int n, TfLiteFusedActivation act, float* out) {
  if (act == kTfLiteActTanh) {
    tanh_f32::Tanh(in, out, n);
  } else if (act == kTfLiteActSigmoid) {
    logistic_f32::Logistic(in, out, n);
  } else {
    for (int i = 0; i < n; ++i) out[i] = ApplyActivation(in[i], act);
  }
}

// result[b][r] += sum_c m[r][c] * v[b][c]
inline void MatrixBatchVectorMultiplyAccumulate(const float* m, int rows, int cols, const float* v,
                                                int n_batch, float* result) {
  for (int b = 0; b < n_batch; ++b) {
    const float* vb = v + b * cols;
    for (int r = 0; r < rows; ++r) {
      const float* mr = m + r * cols;
      float dot = 0.0f;
      for (int c = 0; c < cols; ++c) dot += mr[c] * vb[c];
      result[b * rows + r] += dot;
    }
  }
}

// The same sums computed for 8 rows at once: `mt` is the matrix transposed, [cols][rows
// rounded up to 8] (TransposeForRows). Each row's dot product is still accumulated in
// column order from 0.0f with a separate multiply and add (no FMA), so the results are
// bit-identical to the loop above, several times faster for the small matrices of LSTMs.
inline int RowParallelStride(int rows) { return (rows + 7) / 8 * 8; }

inline void TransposeForRows(const float* m, int rows, int cols, float* mt) {
  const int stride = RowParallelStride(rows);
  for (int c = 0; c < cols; ++c) {
    for (int r = 0; r < stride; ++r) mt[c * stride + r] = r < rows ? m[r * cols + c] : 0.0f;
  }
}

// NB blocks of 8 rows in one pass over the columns: 2 * NB independent sums in flight.
template <int NB>
inline void RowBlocksT(const float* mt, int stride, int rows, int r0, int cols, const float* vb,
                       float* result) {
  // 4-lane vectors: what every x86-64 and ARM64 CPU has (an 8-lane vector type without
  // AVX is lowered through the stack by GCC).
  typedef float V4 __attribute__((vector_size(16)));
  V4 dot[2 * NB];
  for (int j = 0; j < 2 * NB; ++j) dot[j] = V4{};
  const float* col = mt + r0;
  for (int c = 0; c < cols; ++c, col += stride) {
    const V4 x = V4{} + vb[c];
    for (int j = 0; j < 2 * NB; ++j) {
      V4 w;
      std::memcpy(&w, col + 4 * j, sizeof w);
      const V4 prod = w * x;
      dot[j] = dot[j] + prod;
    }
  }
  float sums[8 * NB];
  std::memcpy(sums, dot, sizeof sums);
  const int n = std::min(8 * NB, rows - r0);
  for (int i = 0; i < n; ++i) result[r0 + i] += sums[i];
}

inline void MatrixBatchVectorMultiplyAccumulateT(const float* mt, int rows, int cols,
                                                 const float* v, int n_batch, float* result) {
  const int stride = RowParallelStride(rows);
  for (int b = 0; b < n_batch; ++b) {
    const float* vb = v + b * cols;
    float* rb = result + b * rows;
    int r0 = 0;
    for (; r0 + 24 < rows; r0 += 32) RowBlocksT<4>(mt, stride, rows, r0, cols, vb, rb);
    const int left = (rows - r0 + 7) / 8;
    if (left == 3) RowBlocksT<3>(mt, stride, rows, r0, cols, vb, rb);
    if (left == 2) RowBlocksT<2>(mt, stride, rows, r0, cols, vb, rb);
    if (left == 1) RowBlocksT<1>(mt, stride, rows, r0, cols, vb, rb);
  }
}

// result[b][i] += v[i] * batch[b][i] (VectorBatchVectorCwiseProductAccumulate).
inline void DiagonalAccumulate(const float* v, int n, const float* batch, int n_batch,
                               float* result) {
  for (int b = 0; b < n_batch; ++b) {
    for (int i = 0; i < n; ++i) result[b * n + i] += v[i] * batch[b * n + i];
  }
}

// gate = (gate - mean) / stddev * layer_norm + bias per batch row (MeanStddevNormalization
// with TFLite's 1e-8 guard, then the coefficients and the bias).
inline void ApplyLayerNormFloat(const float* layer_norm, const float* bias, int n_batch,
                                int n_cell, float* gate) {
  for (int b = 0; b < n_batch; ++b) {
    float* g = gate + b * n_cell;
    float sum = 0.0f;
    for (int i = 0; i < n_cell; ++i) sum += g[i];
    const float mean = sum / n_cell;
    float sum_diff_sq = 0.0f;
    for (int i = 0; i < n_cell; ++i) sum_diff_sq += (g[i] - mean) * (g[i] - mean);
    const float stddev_inv = 1.0f / std::sqrt(sum_diff_sq / n_cell + 1e-8f);
    for (int i = 0; i < n_cell; ++i) g[i] = (g[i] - mean) * stddev_inv * layer_norm[i] + bias[i];
  }
}

// gate = bias per batch row, or 0 under layer norm (the bias comes after normalization).
inline void InitGate(const float* bias, bool layer_norm, int n_batch, int n_cell, float* gate) {
  for (int b = 0; b < n_batch; ++b) {
    for (int i = 0; i < n_cell; ++i) gate[b * n_cell + i] = layer_norm ? 0.0f : bias[i];
  }
}

// One gate: act(W x + R h (or diag .* h) + p .* c [layer-normed] + b), as
// CalculateLstmGateFloat.
// W x with the row-parallel copy when there is one.
inline void GateMatVec(const float* m, const float* mt, int rows, int cols, const float* v,
                       int n_batch, float* result) {
  if (mt != nullptr) {
    MatrixBatchVectorMultiplyAccumulateT(mt, rows, cols, v, n_batch, result);
  } else {
    MatrixBatchVectorMultiplyAccumulate(m, rows, cols, v, n_batch, result);
  }
}

inline void CalculateGateFloat(const float* input, const GateWeights<float>& weights,
                               const GateWeights<float>& weights_t, const float* output_state,
                               const float* recurrent_diag, const float* cell_state,
                               const float* peephole, const float* layer_norm, const float* bias,
                               int n_batch, int n_input, int n_output, int n_cell,
                               TfLiteFusedActivation act, float* gate) {
  InitGate(bias, layer_norm != nullptr, n_batch, n_cell, gate);
  GateMatVec(weights.input, weights_t.input, n_cell, n_input, input, n_batch, gate);
  if (recurrent_diag != nullptr) {
    DiagonalAccumulate(recurrent_diag, n_cell, output_state, n_batch, gate);
  } else {
    GateMatVec(weights.recurrent, weights_t.recurrent, n_cell, n_output, output_state, n_batch,
               gate);
  }
  if (peephole != nullptr) DiagonalAccumulate(peephole, n_cell, cell_state, n_batch, gate);
  if (layer_norm != nullptr) ApplyLayerNormFloat(layer_norm, bias, n_batch, n_cell, gate);
  ApplyActivationArray(gate, n_batch * n_cell, act, gate);
}

// cell = clip(forget .* cell + cell_gate .* input_gate), input_gate = 1 - forget under
// CIFG (UpdateLstmCellFloat; shared by the float and hybrid steps).
inline void UpdateCellFloat(const float* input_gate, const float* forget_gate,
                            const float* cell_gate, bool use_cifg, float clip, int n,
                            float* cell_state) {
  for (int i = 0; i < n; ++i) {
    const float in_gate = use_cifg ? 1.0f - forget_gate[i] : input_gate[i];
    float c = forget_gate[i] * cell_state[i] + cell_gate[i] * in_gate;
    if (clip > 0.0f) c = std::min(clip, std::max(-clip, c));
    cell_state[i] = c;
  }
}

// hidden = output_gate .* act(cell): the first step of CalculateLstmOutput (float and
// hybrid).
inline void HiddenFromCell(const float* cell_state, const float* output_gate, int n,
                           TfLiteFusedActivation act, float* hidden) {
  ApplyActivationArray(cell_state, n, act, hidden);
  for (int i = 0; i < n; ++i) hidden[i] = output_gate[i] * hidden[i];
}

// The rest of CalculateLstmOutput (float and hybrid): with projection weights,
// output_state = clip(projection_bias + P hidden), where project() adds P hidden to
// output_state rows that already hold the bias; without, output_state = hidden. Then
// each batch row of output_state goes to output + b * output_stride.
template <typename Project>
inline void EmitLstmOutput(bool has_projection, const float* projection_bias, float proj_clip,
                           const float* hidden, int n_batch, int n_output, float* output_state,
                           float* output, int output_stride, const Project& project) {
  if (has_projection) {
    for (int b = 0; b < n_batch; ++b) {
      for (int o = 0; o < n_output; ++o) {
        output_state[b * n_output + o] = projection_bias != nullptr ? projection_bias[o] : 0.0f;
      }
    }
    project();
    if (proj_clip > 0.0f) {
      for (int i = 0; i < n_batch * n_output; ++i) {
        output_state[i] = std::min(proj_clip, std::max(-proj_clip, output_state[i]));
      }
    }
  } else {
    std::copy_n(hidden, n_batch * n_output, output_state);
  }
  for (int b = 0; b < n_batch; ++b) {
    std::copy_n(output_state + b * n_output, n_output, output + b * output_stride);
  }
}

// One step for n_batch rows. output_state [n_batch, n_output] and cell_state
// [n_batch, n_cell] are updated in place; output row b goes to
// output + b * output_stride. scratch holds 4 * n_batch * n_cell floats.
inline void LstmStepFloat(const FloatLstmWeights& w,
                          const TfLiteUnidirectionalSequenceLSTMParams& p, const float* input,
                          int n_batch, int n_input, int n_cell, int n_output, float* output_state,
                          float* cell_state, float* output, int output_stride, float* scratch) {
  const bool use_cifg = w.gate[kInputGate].input == nullptr;
  float* gates[4];
  for (int g = 0; g < 4; ++g) gates[g] = scratch + g * n_batch * n_cell;
  for (int g : {kInputGate, kForgetGate, kCellGate}) {
    if (g == kInputGate && use_cifg) continue;
    CalculateGateFloat(input, w.gate[g], w.gate_t[g], output_state, w.recurrent_diag[g],
                       cell_state, g == kCellGate ? nullptr : w.peephole[g],
                       w.layer_norm[g], w.bias[g], n_batch, n_input, n_output, n_cell,
                       g == kCellGate ? p.activation : kTfLiteActSigmoid, gates[g]);
  }
  const int n = n_batch * n_cell;
  UpdateCellFloat(gates[kInputGate], gates[kForgetGate], gates[kCellGate], use_cifg, p.cell_clip,
                  n, cell_state);
  CalculateGateFloat(input, w.gate[kOutputGate], w.gate_t[kOutputGate], output_state,
                     w.recurrent_diag[kOutputGate], cell_state, w.peephole[kOutputGate],
                     w.layer_norm[kOutputGate], w.bias[kOutputGate], n_batch, n_input, n_output,
                     n_cell, kTfLiteActSigmoid, gates[kOutputGate]);
  // hidden = output_gate .* act(cell), reusing the input-gate scratch.
  float* hidden = gates[kInputGate];
  HiddenFromCell(cell_state, gates[kOutputGate], n, p.activation, hidden);
  EmitLstmOutput(w.projection != nullptr, w.projection_bias, p.proj_clip, hidden, n_batch, n_output,
                 output_state, output, output_stride, [&] {
                   GateMatVec(w.projection, w.projection_t, n_output, n_cell, hidden, n_batch,
                              output_state);
                 });
}

// ---------------------------------------------------------------------------------
// Integer 8x8_16: int8 input/output/output state/weights, int16 cell state and gates.

// Multipliers and precomputed biases (TFLite's IntegerLstmParameter).
struct IntegerLstmParams {
  int32_t input_scale_a[4] = {}, input_scale_b[4] = {};          // W x per gate
  int32_t recurrent_scale_a[4] = {}, recurrent_scale_b[4] = {};  // R h per gate
  int32_t cell_scale_a[4] = {}, cell_scale_b[4] = {};            // peephole per gate
  int32_t layer_norm_scale_a[4] = {}, layer_norm_scale_b[4] = {};
  int32_t variance_guard[4] = {};
  int32_t proj_scale_a = 0, proj_scale_b = 0;
  int32_t hidden_scale_a = 0, hidden_scale_b = 0;
  int32_t hidden_zp = 0;
  int16_t quantized_cell_clip = 0;
  int8_t quantized_proj_clip = 0;
  int32_t cell_scale = 0;  // log2 of the cell state's scale
  int32_t output_state_zp = 0;
  // Zero point times row sums (plus bias where it applies), per gate.
  const int32_t* input_effective_bias[4] = {};
  const int32_t* recurrent_effective_bias[4] = {};
  const int32_t* projection_effective_bias = nullptr;
};

struct IntegerLstmWeights {
  GateWeights<int8_t> gate[4];
  const int16_t* peephole[4] = {nullptr, nullptr, nullptr, nullptr};
  const int16_t* layer_norm[4] = {nullptr, nullptr, nullptr, nullptr};
  const int32_t* bias[4] = {nullptr, nullptr, nullptr, nullptr};
  const int8_t* projection = nullptr;
};

inline int32_t Clamp(int32_t v, int32_t lo, int32_t hi) { return std::min(hi, std::max(lo, v)); }

// output[b][r] = sat16(output + MBQM(bias[r] + sum_c x[b][c] * w[r][c]) + output_zp);
// the int8 overload saturates to int8 (portable MatrixBatchVectorMultiplyAccumulate).
template <typename Out>
inline void IntegerMatMulAccumulate(const int8_t* input, const int32_t* bias, const int8_t* weights,
                                    int32_t multiplier, int32_t shift, int n_batch, int n_input,
                                    int n_output, int32_t output_zp, Out* output) {
  const int32_t lo = std::numeric_limits<Out>::min(), hi = std::numeric_limits<Out>::max();
  for (int b = 0; b < n_batch; ++b) {
    for (int r = 0; r < n_output; ++r) {
      int32_t acc = bias[r];
      const int8_t* wr = weights + r * n_input;
      const int8_t* xb = input + b * n_input;
      // int32 sums wrap, as upstream's on every target (the bias may be anything).
      for (int c = 0; c < n_input; ++c) acc = WrappingAdd(acc, static_cast<int32_t>(xb[c]) * wr[c]);
      acc = MultiplyByQuantizedMultiplier(acc, multiplier, shift);
      acc = WrappingAdd(acc, output_zp);
      acc = WrappingAdd(acc, static_cast<int32_t>(output[b * n_output + r]));
      output[b * n_output + r] = static_cast<Out>(Clamp(acc, lo, hi));
    }
  }
}

// tensor_utils::ApplyLayerNorm (integer).
inline void ApplyLayerNormInteger(const int16_t* input, const int16_t* weights, const int32_t* bias,
                                  int32_t scale_a, int32_t scale_b, int32_t variance_limit,
                                  int n_batch, int n_input, int16_t* output) {
  static const int kTwoToPower20 = 1 << 20;
  for (int i = 0; i < n_batch; ++i) {
    int64_t sum = 0, sum_sq = 0;
    for (int j = 0; j < n_input; ++j) {
      const int32_t val = input[i * n_input + j];
      sum += val;
      sum_sq += val * val;
    }
    const int32_t mean = static_cast<int32_t>(sum * 1024 / n_input);
    const int32_t temp = kTwoToPower20 / n_input;
    const int64_t variance = sum_sq * temp - static_cast<int64_t>(mean) * mean;
    int32_t variance2 = static_cast<int32_t>(variance / kTwoToPower20);
    if (variance2 < 1) variance2 = variance_limit;
    int32_t inv_a = 0;
    int inv_b = 0;
    fixedpoint_fn::GetInvSqrtQuantizedMultiplierExp(variance2, -1, &inv_a, &inv_b);
    for (int j = 0; j < n_input; ++j) {
      const int32_t val = input[i * n_input + j];
      const int32_t shifted = 1024 * val - mean;
      const int32_t rescaled = MultiplyByQuantizedMultiplier(shifted, inv_a, inv_b);
      // int32 arithmetic (wrapping), widened afterwards, as upstream.
      const int64_t val3 = static_cast<int32_t>(static_cast<uint32_t>(rescaled) *
                                                    static_cast<uint32_t>(int32_t{weights[j]}) +
                                                static_cast<uint32_t>(bias[j]));
      const int32_t val4 = static_cast<int32_t>((val3 > 0 ? val3 + 512 : val3 - 512) / 1024);
      const int32_t val5 = MultiplyByQuantizedMultiplier(val4, scale_a, scale_b + 12);
      output[i * n_input + j] = static_cast<int16_t>(Clamp(val5, -32768, 32767));
    }
  }
}

inline void ApplySigmoidQ3(int16_t* v, int n) {
  for (int i = 0; i < n; ++i) {
    v[i] = fixedpoint_fn::Logistic(fixedpoint_fn::Fx<int16_t, 3>::FromRaw(v[i])).raw;
  }
}

template <int IntBits>
inline void ApplyTanhImpl(const int16_t* in, int n, int16_t* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = fixedpoint_fn::Tanh(fixedpoint_fn::Fx<int16_t, IntBits>::FromRaw(in[i])).raw;
  }
}

// tensor_utils::ApplyTanh: integer_bits in [0, 6]; other values leave output as is.
inline void ApplyTanhInteger(int integer_bits, const int16_t* in, int n, int16_t* out) {
  switch (integer_bits) {
    case 0:
      ApplyTanhImpl<0>(in, n, out);
      break;
    case 1:
      ApplyTanhImpl<1>(in, n, out);
      break;
    case 2:
      ApplyTanhImpl<2>(in, n, out);
      break;
    case 3:
      ApplyTanhImpl<3>(in, n, out);
      break;
    case 4:
      ApplyTanhImpl<4>(in, n, out);
      break;
    case 5:
      ApplyTanhImpl<5>(in, n, out);
      break;
    case 6:
      ApplyTanhImpl<6>(in, n, out);
      break;
    default:
      break;
  }
}

inline void CalculateGateInteger(const int8_t* input, const int8_t* output_state,
                                 const int16_t* cell_state, const IntegerLstmWeights& w,
                                 const IntegerLstmParams& q, int g, int n_batch, int n_input,
                                 int n_output, int n_cell, TfLiteFusedActivation act,
                                 int16_t* gate) {
  std::fill_n(gate, n_batch * n_cell, 0);
  IntegerMatMulAccumulate<int16_t>(input, q.input_effective_bias[g], w.gate[g].input,
                                   q.input_scale_a[g], q.input_scale_b[g], n_batch, n_input, n_cell,
                                   0, gate);
  IntegerMatMulAccumulate<int16_t>(output_state, q.recurrent_effective_bias[g], w.gate[g].recurrent,
                                   q.recurrent_scale_a[g], q.recurrent_scale_b[g], n_batch,
                                   n_output, n_cell, 0, gate);
  const int16_t* peephole = g == kCellGate ? nullptr : w.peephole[g];
  if (peephole != nullptr) {
    // Upstream passes n_output as the vector size here; kept for bit-exactness.
    const int v_size = n_output;
    int16_t* result = gate;
    const int16_t* batch_vector = cell_state;
    for (int b = 0; b < n_batch; ++b) {
      for (int v = 0; v < v_size; ++v) {
        int32_t prod = static_cast<int32_t>(peephole[v]) * *batch_vector++;
        prod = MultiplyByQuantizedMultiplier(prod, q.cell_scale_a[g], q.cell_scale_b[g]);
        *result = static_cast<int16_t>(Clamp(prod + *result, -32768, 32767));
        ++result;
      }
    }
  }
  if (w.layer_norm[g] != nullptr) {
    ApplyLayerNormInteger(gate, w.layer_norm[g], w.bias[g], q.layer_norm_scale_a[g],
                          q.layer_norm_scale_b[g], q.variance_guard[g], n_batch, n_cell, gate);
  }
  if (act == kTfLiteActSigmoid) {
    ApplySigmoidQ3(gate, n_batch * n_cell);
  } else {
    ApplyTanhInteger(3, gate, n_batch * n_cell, gate);
  }
}

// One integer step. scratch16: 4 * n_batch * n_cell int16; scratch8: n_batch * n_cell.
inline void LstmStepInteger8x8_16(const IntegerLstmWeights& w, const IntegerLstmParams& q,
                                  const int8_t* input, int n_batch, int n_input, int n_cell,
                                  int n_output, int8_t* output_state, int16_t* cell_state,
                                  int8_t* output, int16_t* scratch16, int8_t* scratch8) {
  const bool use_cifg = w.gate[kInputGate].input == nullptr;
  const int n = n_batch * n_cell;
  int16_t* gates[4];
  for (int g = 0; g < 4; ++g) gates[g] = scratch16 + g * n;
  if (!use_cifg) {
    CalculateGateInteger(input, output_state, cell_state, w, q, kInputGate, n_batch, n_input,
                         n_output, n_cell, kTfLiteActSigmoid, gates[kInputGate]);
  }
  CalculateGateInteger(input, output_state, cell_state, w, q, kForgetGate, n_batch, n_input,
                       n_output, n_cell, kTfLiteActSigmoid, gates[kForgetGate]);
  CalculateGateInteger(input, output_state, cell_state, w, q, kCellGate, n_batch, n_input, n_output,
                       n_cell, kTfLiteActTanh, gates[kCellGate]);
  // UpdateLstmCellInteger.
  int16_t* forget = gates[kForgetGate];
  for (int i = 0; i < n; ++i) {
    cell_state[i] = static_cast<int16_t>(
        gemmlowp::RoundingDivideByPOT(static_cast<int32_t>(forget[i]) * cell_state[i], 15));
  }
  const int mul_shift = 30 + q.cell_scale;
  int16_t* scratch = forget;
  for (int i = 0; i < n; ++i) {
    const int16_t in_gate =
        use_cifg ? static_cast<int16_t>(32767 - forget[i]) : gates[kInputGate][i];
    scratch[i] = static_cast<int16_t>(gemmlowp::RoundingDivideByPOT(
        static_cast<int32_t>(in_gate) * gates[kCellGate][i], mul_shift));
  }
  for (int i = 0; i < n; ++i) {
    int32_t sum = Clamp(static_cast<int32_t>(cell_state[i]) + scratch[i], -32768, 32767);
    if (q.quantized_cell_clip > 0) sum = Clamp(sum, -q.quantized_cell_clip, q.quantized_cell_clip);
    cell_state[i] = static_cast<int16_t>(sum);
  }
  CalculateGateInteger(input, output_state, cell_state, w, q, kOutputGate, n_batch, n_input,
                       n_output, n_cell, kTfLiteActSigmoid, gates[kOutputGate]);
  // CalculateLstmOutputInteger8x8_16.
  int16_t* cell_tanh = gates[kInputGate];
  ApplyTanhInteger(15 + q.cell_scale, cell_state, n, cell_tanh);
  for (int i = 0; i < n; ++i) {
    int32_t value = static_cast<int32_t>(gates[kOutputGate][i]) * cell_tanh[i];
    value = MultiplyByQuantizedMultiplier(value, q.hidden_scale_a, q.hidden_scale_b);
    value -= q.hidden_zp;  // upstream subtracts here (hidden_zp is 0 in converted models)
    scratch8[i] = static_cast<int8_t>(Clamp(value, -128, 127));
  }
  if (w.projection != nullptr) {
    std::fill_n(output_state, n_batch * n_output, 0);
    IntegerMatMulAccumulate<int8_t>(scratch8, q.projection_effective_bias, w.projection,
                                    q.proj_scale_a, q.proj_scale_b, n_batch, n_cell, n_output,
                                    q.output_state_zp, output_state);
    if (q.quantized_proj_clip > 0) {
      for (int i = 0; i < n_batch * n_output; ++i) {
        output_state[i] = static_cast<int8_t>(
            Clamp(output_state[i], -q.quantized_proj_clip, q.quantized_proj_clip));
      }
    }
  } else {
    std::copy_n(scratch8, n_batch * n_output, output_state);
  }
  std::copy_n(output_state, n_batch * n_output, output);
}

}  // namespace lstm_eval
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_LSTM_EVAL_H_
