// Shared pieces of the elementwise kernels (ADD, SUB, MUL, DIV, MAXIMUM,
// MINIMUM, SQUARED_DIFFERENCE and the unary activations):
//  - Prepare helpers that validate input/output counts, types and ranks and
//    size the output (NumPy broadcasting, rank <= kMaxBroadcastRank);
//  - BroadcastBinary / UnaryMap loops;
//  - the quantized arithmetic of ADD/SUB (general rescaling and the int16
//    power-of-two path) and MUL, and 8-bit lookup tables (LOGISTIC, TANH,
//    ELU, GELU), written to be bit-exact with TFLite's reference kernels
//    (same multipliers, float/double derivation and rounding).
// Everything here is header-only and stateless; errors are reported through
// the TfLiteContext and returned as kTfLiteError, never thrown.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_ELEMENTWISE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_ELEMENTWISE_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/internal/quantized_rows.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/internal/runtime_shape.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/internal/types.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace elementwise {

// TFLite's binary elementwise kernels broadcast up to rank 6.
constexpr int kMaxBroadcastRank = 6;

inline TfLiteStatus UnsupportedType(TfLiteContext* context, TfLiteType type) {
  TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(type), type);
  return kTfLiteError;
}

inline bool TypeIn(TfLiteType type, std::initializer_list<TfLiteType> types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

// Two inputs of one type, one output of the same type (unless
// output_type_must_match is false: the caller then checks it), both inputs of
// rank <= max_rank and broadcast-compatible; resizes the output to the
// broadcast shape.
inline TfLiteStatus PrepareBinary(TfLiteContext* context, TfLiteNode* node, int max_rank,
                                  const TfLiteTensor** input1, const TfLiteTensor** input2,
                                  TfLiteTensor** output, bool output_type_must_match = true) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, output));
  TF_LITE_ENSURE_TYPES_EQ(context, (*input1)->type, (*input2)->type);
  if (output_type_must_match) {
    TF_LITE_ENSURE_TYPES_EQ(context, (*output)->type, (*input1)->type);
  }
  TF_LITE_ENSURE_MSG(context,
                     NumDimensions(*input1) <= max_rank && NumDimensions(*input2) <= max_rank,
                     "input ranks %d and %d: at most %d supported", NumDimensions(*input1),
                     NumDimensions(*input2), max_rank);
  TfLiteIntArray* output_size = nullptr;
  if (HaveSameShapes(*input1, *input2)) {
    output_size = TfLiteIntArrayCopy((*input1)->dims);
  } else {
    TF_LITE_ENSURE_OK(context, CalculateShapeForBroadcast(context, *input1, *input2, &output_size));
  }
  return context->ResizeTensor(context, *output, output_size);
}

// One input, one output of the same type; the output takes the input's shape.
inline TfLiteStatus PrepareUnary(TfLiteContext* context, TfLiteNode* node,
                                 const TfLiteTensor** input, TfLiteTensor** output) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, output));
  TF_LITE_ENSURE_TYPES_EQ(context, (*output)->type, (*input)->type);
  return context->ResizeTensor(context, *output, TfLiteIntArrayCopy((*input)->dims));
}

// Prepare of a unary op that supports float32 only.
inline TfLiteStatus PrepareFloatUnary(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, PrepareUnary(context, node, &input, &output));
  if (input->type != kTfLiteFloat32) return UnsupportedType(context, input->type);
  return kTfLiteOk;
}

// --- Loops ----------------------------------------------------------------------

// out[i] = f(in[i]) for i in [0, n).
template <typename In, typename Out, typename F>
inline void UnaryMap(const In* in, Out* out, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
}

// NumPy broadcasting of shape1 and shape2 to out_shape (validated in Prepare; rank <=
// kMaxBroadcastRank) as rows: row(p1, s1, p2, s2, out, n) computes out[i] from p1[i * s1]
// and p2[i * s2] for i < n, strides 0 (a broadcast operand) or 1. Same-shape and scalar
// operands are one row; the general case walks the output in row-major order, one row
// per run of the last dimension.
template <typename In1, typename In2, typename Out, typename Row>
void BroadcastRows(const RuntimeShape& shape1, const In1* in1, const RuntimeShape& shape2,
                   const In2* in2, const RuntimeShape& out_shape, Out* out, Row row) {
  const int64_t n = out_shape.FlatSize();
  if (n == 0) return;
  const int64_t n1 = shape1.FlatSize();
  const int64_t n2 = shape2.FlatSize();
  if (n1 == n && n2 == n) {
    row(in1, 1, in2, 1, out, n);
    return;
  }
  if (n1 == 1 && n2 == n) {
    row(in1, 0, in2, 1, out, n);
    return;
  }
  if (n2 == 1 && n1 == n) {
    row(in1, 1, in2, 0, out, n);
    return;
  }
  constexpr int N = kMaxBroadcastRank;
  NdArrayDesc<N> desc1;
  NdArrayDesc<N> desc2;
  NdArrayDescsForElementwiseBroadcast(shape1, shape2, &desc1, &desc2);
  const RuntimeShape ext = RuntimeShape::ExtendedShape(N, out_shape);
  const int inner = ext.Dims(N - 1);
  const int s1 = desc1.strides[N - 1];
  const int s2 = desc2.strides[N - 1];
  int idx[N] = {0};
  int64_t o = 0;
  while (true) {
    int64_t off1 = 0;
    int64_t off2 = 0;
    for (int d = 0; d < N - 1; ++d) {
      off1 += static_cast<int64_t>(idx[d]) * desc1.strides[d];
      off2 += static_cast<int64_t>(idx[d]) * desc2.strides[d];
    }
    row(in1 + off1, s1, in2 + off2, s2, out + o, static_cast<int64_t>(inner));
    o += inner;
    int d = N - 2;
    for (; d >= 0; --d) {
      if (++idx[d] < ext.Dims(d)) break;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

// out = f(in1, in2) element by element, broadcast as BroadcastRows (the common strides
// get their own loops, which the compiler vectorizes).
template <typename In1, typename In2, typename Out, typename F>
void BroadcastBinary(const RuntimeShape& shape1, const In1* in1, const RuntimeShape& shape2,
                     const In2* in2, const RuntimeShape& out_shape, Out* out, F f) {
  BroadcastRows(shape1, in1, shape2, in2, out_shape, out,
                [&f](const In1* p1, int s1, const In2* p2, int s2, Out* o, int64_t n) {
                  if (s1 == 1 && s2 == 1) {
                    for (int64_t i = 0; i < n; ++i) o[i] = f(p1[i], p2[i]);
                  } else if (s1 == 0 && s2 == 1) {
                    const In1 a = p1[0];
                    for (int64_t i = 0; i < n; ++i) o[i] = f(a, p2[i]);
                  } else if (s1 == 1 && s2 == 0) {
                    const In2 b = p2[0];
                    for (int64_t i = 0; i < n; ++i) o[i] = f(p1[i], b);
                  } else {
                    for (int64_t i = 0; i < n; ++i) o[i] = f(p1[i * s1], p2[i * s2]);
                  }
                });
}

// Eval of a float32-only unary op: out[i] = F(in[i]).
template <float (*F)(float)>
TfLiteStatus EvalFloatUnary(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32) return UnsupportedType(context, input->type);
  UnaryMap(GetTensorData<float>(input), GetTensorData<float>(output), NumElements(input), F);
  return kTfLiteOk;
}

// --- 8-bit lookup tables (LOGISTIC, TANH) ---------------------------------------

// 256 output bytes indexed by the raw input byte (an int8 value is reinterpreted
// as uint8), filled by TFLite's LUTPopulate: dequantize, apply `f` in float,
// requantize with rounding and clamp. int8 and uint8 share the layout.
struct ByteLut {
  uint8_t table[256];
};

inline void PopulateByteLut(const TfLiteTensor* input, const TfLiteTensor* output,
                            float (*f)(float), ByteLut* lut) {
  if (input->type == kTfLiteInt8) {
    LUTPopulate<int8_t>(input->params.scale, input->params.zero_point, output->params.scale,
                        output->params.zero_point, f, reinterpret_cast<int8_t*>(lut->table));
  } else {
    LUTPopulate<uint8_t>(input->params.scale, input->params.zero_point, output->params.scale,
                         output->params.zero_point, f, lut->table);
  }
}

// out[i] = lut.table[in[i]]: 64 bytes per step with AVX-512 VBMI (two 128-entry byte
// permutes and a blend on the top bit) where the CPU has it, else 32 with AVX2 (sixteen
// 16-entry vpshufb and a tree of blends on the high nibble's bits), else a byte at a time
// (byte_table.cc).
void ApplyByteLut(const ByteLut& lut, const uint8_t* in, uint8_t* out, int64_t n);
// The AVX2 loop alone (tests): false, doing nothing, where the CPU lacks AVX2.
bool ApplyByteLutAvx2(const ByteLut& lut, const uint8_t* in, uint8_t* out, int64_t n);

inline void EvalByteLut(const ByteLut& lut, const TfLiteTensor* input, TfLiteTensor* output) {
  ApplyByteLut(lut, GetTensorData<uint8_t>(input), GetTensorData<uint8_t>(output),
               NumElements(input));
}

// output[i] = f(input[i]) for a quantized elementwise op T -> T. On 8 bits, f of each of
// the 256 bytes once and a table lookup per element: the same values, where a
// requantization per element (RELU's, LEAKY_RELU's) was most of the op's time.
template <typename T, typename F>
void QuantizedUnaryMap(const TfLiteTensor* input, TfLiteTensor* output, F f) {
  if constexpr (sizeof(T) == 1) {
    ByteLut lut;
    for (int b = 0; b < 256; ++b) lut.table[b] = static_cast<uint8_t>(f(static_cast<T>(static_cast<uint8_t>(b))));
    EvalByteLut(lut, input, output);
  } else {
    UnaryMap(GetTensorData<T>(input), GetTensorData<T>(output), NumElements(input), f);
  }
}

// --- Activation clamps ---------------------------------------------------------

template <typename T>
struct Clamp {
  T min;
  T max;
  T operator()(T x) const { return std::min(std::max(x, min), max); }
};

// Relu / Relu6 / ReluN1To1 clamp for float or int32 outputs (others: none).
template <typename T>
inline Clamp<T> ActivationClamp(TfLiteFusedActivation activation) {
  Clamp<T> c;
  CalculateActivationRange(activation, &c.min, &c.max);
  return c;
}

// BroadcastBinary over three tensors of element type T.
template <typename T, typename F>
void BroadcastTensors(const TfLiteTensor* input1, const TfLiteTensor* input2, TfLiteTensor* output,
                      F f) {
  BroadcastBinary(GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2),
                  GetTensorData<T>(input2), GetTensorShape(output), GetTensorData<T>(output), f);
}

// out = clamp(op(in1, in2)) with broadcasting: the unquantized path of ADD, SUB and MUL.
template <typename T, typename Op>
void BroadcastClamped(TfLiteFusedActivation activation, const TfLiteTensor* input1,
                      const TfLiteTensor* input2, TfLiteTensor* output, Op op) {
  const auto clamp = ActivationClamp<T>(activation);
  BroadcastTensors<T>(input1, input2, output, [clamp, op](T a, T b) { return clamp(op(a, b)); });
}

// --- Integer arithmetic without undefined behaviour on overflow ----------------

template <typename T>
inline T WrappingSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    using P = std::common_type_t<U, unsigned int>;
    return static_cast<T>(
        static_cast<U>(static_cast<P>(static_cast<U>(a)) - static_cast<P>(static_cast<U>(b))));
  } else {
    return a - b;
  }
}

// --- 8-bit quantized ADD / SUB (reference_integer_ops::AddElementwise) ----------

// ADD/SUB Prepare as upstream add.cc / sub.cc: both inputs are rescaled to
// twice the larger input scale with `left_shift` bits of headroom (20 for
// 8-bit), then to the output scale. Fills the offsets, multipliers and the
// quantized activation range of `params`.
inline TfLiteStatus PrepareQuantizedAddSub(TfLiteContext* context, const TfLiteTensor* input1,
                                           const TfLiteTensor* input2, TfLiteTensor* output,
                                           TfLiteFusedActivation activation, int left_shift,
                                           ArithmeticParams* params) {
  TF_LITE_ENSURE_MSG(
      context, input1->params.scale > 0 && input2->params.scale > 0 && output->params.scale > 0,
      "quantized inputs and output need a positive scale");
  params->input1_offset = -input1->params.zero_point;
  params->input2_offset = -input2->params.zero_point;
  params->output_offset = output->params.zero_point;
  params->left_shift = left_shift;
  // Mixed float/double arithmetic exactly as upstream, for identical results.
  const double twice_max_input_scale = 2 * std::max(input1->params.scale, input2->params.scale);
  const double real_input1_multiplier = input1->params.scale / twice_max_input_scale;
  const double real_input2_multiplier = input2->params.scale / twice_max_input_scale;
  const double real_output_multiplier =
      twice_max_input_scale / ((1 << left_shift) * output->params.scale);
  TF_LITE_ENSURE_MSG(context, real_output_multiplier < 1.0,
                     "ADD/SUB output scale too small for the input scales");
  QuantizeMultiplierSmallerThanOneExp(real_input1_multiplier, &params->input1_multiplier,
                                      &params->input1_shift);
  QuantizeMultiplierSmallerThanOneExp(real_input2_multiplier, &params->input2_multiplier,
                                      &params->input2_shift);
  QuantizeMultiplierSmallerThanOneExp(real_output_multiplier, &params->output_multiplier,
                                      &params->output_shift);
  return CalculateActivationRangeQuantized(context, activation, output,
                                           &params->quantized_activation_min,
                                           &params->quantized_activation_max);
}

// One output element of quantized ADD (subtract = false) or SUB.
template <typename T>
inline T QuantizedAddSub(const ArithmeticParams& p, T a, T b, bool subtract) {
  const int32_t input1_val = p.input1_offset + a;
  const int32_t input2_val = p.input2_offset + b;
  const int32_t shifted_input1_val = input1_val * (1 << p.left_shift);
  const int32_t shifted_input2_val = input2_val * (1 << p.left_shift);
  const int32_t scaled_input1_val = MultiplyByQuantizedMultiplierSmallerThanOneExp(
      shifted_input1_val, p.input1_multiplier, p.input1_shift);
  const int32_t scaled_input2_val = MultiplyByQuantizedMultiplierSmallerThanOneExp(
      shifted_input2_val, p.input2_multiplier, p.input2_shift);
  const int32_t raw =
      subtract ? scaled_input1_val - scaled_input2_val : scaled_input1_val + scaled_input2_val;
  const int32_t raw_output =
      MultiplyByQuantizedMultiplierSmallerThanOneExp(raw, p.output_multiplier, p.output_shift) +
      p.output_offset;
  return static_cast<T>(
      std::min(p.quantized_activation_max, std::max(p.quantized_activation_min, raw_output)));
}

// One output element of int8 SQUARED_DIFFERENCE (the ADD rescaling, then the square).
inline int8_t QuantizedSquaredDifference(const ArithmeticParams& p, int8_t a, int8_t b) {
  const int32_t shifted1 = (p.input1_offset + a) * (1 << p.left_shift);
  const int32_t shifted2 = (p.input2_offset + b) * (1 << p.left_shift);
  const int32_t scaled1 =
      MultiplyByQuantizedMultiplierSmallerThanOneExp(shifted1, p.input1_multiplier, p.input1_shift);
  const int32_t scaled2 =
      MultiplyByQuantizedMultiplierSmallerThanOneExp(shifted2, p.input2_multiplier, p.input2_shift);
  const int32_t raw_diff = scaled1 - scaled2;
  const int32_t squared = raw_diff * raw_diff;  // <= 255^2 * 2^14: fits
  const int32_t raw_output =
      MultiplyByQuantizedMultiplierSmallerThanOneExp(squared, p.output_multiplier, p.output_shift) +
      p.output_offset;
  return static_cast<int8_t>(
      std::min(p.quantized_activation_max, std::max(p.quantized_activation_min, raw_output)));
}

// --- int16 ADD / SUB with power-of-two scales (pot_scale_int16) -------------------

// The LSTM-style int16 path of upstream add.cc / sub.cc: zero points 0,
// power-of-two scales, and at most one input rescaled (right-shifted) to the
// output scale. Fills input1_shift / input2_shift (<= 0) and the clamp.
inline TfLiteStatus PrepareInt16PotAddSub(TfLiteContext* context, const TfLiteTensor* input1,
                                          const TfLiteTensor* input2, TfLiteTensor* output,
                                          TfLiteFusedActivation activation,
                                          ArithmeticParams* params) {
  TF_LITE_ENSURE_EQ(context, input1->params.zero_point, 0);
  TF_LITE_ENSURE_EQ(context, input2->params.zero_point, 0);
  TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
  int log2_in1 = 0;
  int log2_in2 = 0;
  int log2_out = 0;
  TF_LITE_ENSURE(context, CheckedLog2(input1->params.scale, &log2_in1));
  TF_LITE_ENSURE(context, CheckedLog2(input2->params.scale, &log2_in2));
  TF_LITE_ENSURE(context, CheckedLog2(output->params.scale, &log2_out));
  params->input1_shift = log2_in1 - log2_out;
  params->input2_shift = log2_in2 - log2_out;
  TF_LITE_ENSURE(context, params->input1_shift == 0 || params->input2_shift == 0);
  TF_LITE_ENSURE(context, params->input1_shift <= 0);
  TF_LITE_ENSURE(context, params->input2_shift <= 0);
  return CalculateActivationRangeQuantized(context, activation, output,
                                           &params->quantized_activation_min,
                                           &params->quantized_activation_max);
}

// True when all three scales are powers of two (CheckedLog2's tolerance).
inline bool AllScalesPowerOfTwo(const TfLiteTensor* input1, const TfLiteTensor* input2,
                                const TfLiteTensor* output) {
  int unused = 0;
  return CheckedLog2(input1->params.scale, &unused) && CheckedLog2(input2->params.scale, &unused) &&
         CheckedLog2(output->params.scale, &unused);
}

// One output element of the pot int16 path. Upstream saturates the sum to
// int16 and then clamps to the activation range (a sub-range of int16), which
// equals clamping the exact int32 sum.
inline int16_t Int16PotAddSub(const ArithmeticParams& p, int16_t a, int16_t b, bool subtract) {
  const int32_t x = gemmlowp::RoundingDivideByPOT(static_cast<int32_t>(a), -p.input1_shift);
  const int32_t y = gemmlowp::RoundingDivideByPOT(static_cast<int32_t>(b), -p.input2_shift);
  const int32_t raw = subtract ? x - y : x + y;
  return static_cast<int16_t>(
      std::min(p.quantized_activation_max, std::max(p.quantized_activation_min, raw)));
}

// --- ADD / SUB Prepare ------------------------------------------------------------

inline bool IsQuantized(const TfLiteTensor* t) {
  return t->quantization.type != kTfLiteNoQuantization;
}

// Per-node state of ADD and SUB.
struct AddSubData {
  ArithmeticParams params{};
  bool int16_pot = false;  // int16 pot_scale_int16 path
};
inline void* InitAddSub(TfLiteContext*, const char*, size_t) { return new AddSubData; }
inline void FreeAddSub(TfLiteContext*, void* buffer) { delete static_cast<AddSubData*>(buffer); }

// Where upstream add.cc and sub.cc differ.
struct AddSubRules {
  const char* op;            // "ADD" or "SUB", for messages
  bool plain_int16;          // ADD: unquantized int16 is a plain integer op
  bool symmetric_int16;      // ADD: the general int16 path needs zero points 0
  bool zero_points_in_type;  // SUB: zero points must be representable in the type
};

template <typename T>
TfLiteStatus PrepareGeneralAddSub(TfLiteContext* context, const AddSubRules& rules,
                                  const TfLiteTensor* input1, const TfLiteTensor* input2,
                                  TfLiteTensor* output, TfLiteFusedActivation activation,
                                  int left_shift, ArithmeticParams* params) {
  if (rules.zero_points_in_type) {
    for (const TfLiteTensor* t : {input1, input2, static_cast<const TfLiteTensor*>(output)}) {
      TF_LITE_ENSURE(context, t->params.zero_point >= std::numeric_limits<T>::min());
      TF_LITE_ENSURE(context, t->params.zero_point <= std::numeric_limits<T>::max());
    }
  }
  return PrepareQuantizedAddSub(context, input1, input2, output, activation, left_shift, params);
}

// ADD / SUB Prepare: two broadcastable inputs (rank <= kMaxBroadcastRank) and the output
// resized; float32, int32 and int64 need nothing more; 8-bit types take the general
// rescaling with left shift 20, int16 the pot_scale_int16 path when asked for and all
// scales are powers of two (*int16_pot), else the general one with left shift 15.
inline TfLiteStatus PrepareAddSub(TfLiteContext* context, TfLiteNode* node,
                                  const AddSubRules& rules, TfLiteFusedActivation activation,
                                  bool pot_scale_int16, ArithmeticParams* params, bool* int16_pot) {
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    PrepareBinary(context, node, kMaxBroadcastRank, &input1, &input2, &output));
  *int16_pot = false;
  switch (output->type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteInt64:
      return kTfLiteOk;
    case kTfLiteInt8:
      return PrepareGeneralAddSub<int8_t>(context, rules, input1, input2, output, activation, 20,
                                          params);
    case kTfLiteUInt8:
      return PrepareGeneralAddSub<uint8_t>(context, rules, input1, input2, output, activation, 20,
                                           params);
    case kTfLiteInt16:
      break;
    default:
      return UnsupportedType(context, output->type);
  }
  if (rules.plain_int16) {
    if (IsQuantized(input1) != IsQuantized(output)) {
      TF_LITE_KERNEL_LOG(context, "int16 %s: input and output must both be quantized or both not",
                         rules.op);
      return kTfLiteError;
    }
    if (!IsQuantized(input1)) return kTfLiteOk;  // plain integer op
  }
  if (rules.symmetric_int16) {
    TF_LITE_ENSURE_EQ(context, input1->params.zero_point, 0);
    TF_LITE_ENSURE_EQ(context, input2->params.zero_point, 0);
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  *int16_pot = pot_scale_int16 && AllScalesPowerOfTwo(input1, input2, output);
  if (*int16_pot) {
    return PrepareInt16PotAddSub(context, input1, input2, output, activation, params);
  }
  return PrepareGeneralAddSub<int16_t>(context, rules, input1, input2, output, activation, 15,
                                       params);
}

template <typename T>
void EvalQuantizedAddSub(const ArithmeticParams& p, bool subtract, const TfLiteTensor* input1,
                         const TfLiteTensor* input2, TfLiteTensor* output) {
  // int8 / uint8 / int16 (the general scales): vectorized rows (quantized_rows.h).
  if constexpr (sizeof(T) == 1 || std::is_same_v<T, int16_t>) {
    BroadcastRows(GetTensorShape(input1), GetTensorData<T>(input1), GetTensorShape(input2),
                  GetTensorData<T>(input2), GetTensorShape(output), GetTensorData<T>(output),
                  [&p, subtract](const T* a, int sa, const T* b, int sb, T* o, int64_t n) {
                    QuantizedAddSubRow(p, subtract, a, sa, b, sb, o, n);
                  });
  } else {
    BroadcastTensors<T>(input1, input2, output,
                        [&p, subtract](T a, T b) { return QuantizedAddSub(p, a, b, subtract); });
  }
}

template <typename T>
void EvalPlainAddSub(TfLiteFusedActivation activation, bool subtract, const TfLiteTensor* input1,
                     const TfLiteTensor* input2, TfLiteTensor* output) {
  BroadcastClamped<T>(activation, input1, input2, output, [subtract](T a, T b) {
    return subtract ? WrappingSub(a, b) : WrappingAdd(a, b);
  });
}

// ADD / SUB Eval on what PrepareAddSub filled in node->user_data (an AddSubData).
inline TfLiteStatus EvalAddSub(TfLiteContext* context, TfLiteNode* node, const AddSubRules& rules,
                               TfLiteFusedActivation activation, bool subtract) {
  const auto& data = *static_cast<const AddSubData*>(node->user_data);
  const ArithmeticParams& p = data.params;
  const TfLiteTensor* input1;
  const TfLiteTensor* input2;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &input2));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (output->type) {
    case kTfLiteFloat32:
      EvalPlainAddSub<float>(activation, subtract, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt32:
      EvalPlainAddSub<int32_t>(activation, subtract, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt64:
      EvalPlainAddSub<int64_t>(activation, subtract, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      EvalQuantizedAddSub<int8_t>(p, subtract, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      EvalQuantizedAddSub<uint8_t>(p, subtract, input1, input2, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      if (rules.plain_int16 && !IsQuantized(output)) {
        EvalPlainAddSub<int16_t>(activation, subtract, input1, input2, output);
      } else if (data.int16_pot) {
        BroadcastTensors<int16_t>(input1, input2, output, [&p, subtract](int16_t a, int16_t b) {
          return Int16PotAddSub(p, a, b, subtract);
        });
      } else {
        EvalQuantizedAddSub<int16_t>(p, subtract, input1, input2, output);
      }
      return kTfLiteOk;
    default:
      return UnsupportedType(context, output->type);
  }
}

// --- 8-bit quantized MUL (reference_integer_ops::MulElementwise) ----------------

// MUL Prepare as upstream mul.cc: one multiplier in1_scale * in2_scale /
// out_scale, computed in float as upstream does, then QuantizeMultiplier.
inline TfLiteStatus PrepareQuantizedMul(TfLiteContext* context, const TfLiteTensor* input1,
                                        const TfLiteTensor* input2, TfLiteTensor* output,
                                        TfLiteFusedActivation activation,
                                        ArithmeticParams* params) {
  TF_LITE_ENSURE_MSG(
      context, input1->params.scale > 0 && input2->params.scale > 0 && output->params.scale > 0,
      "quantized inputs and output need a positive scale");
  params->input1_offset = -input1->params.zero_point;
  params->input2_offset = -input2->params.zero_point;
  params->output_offset = output->params.zero_point;
  const double real_multiplier = input1->params.scale * input2->params.scale / output->params.scale;
  QuantizeMultiplier(real_multiplier, &params->output_multiplier, &params->output_shift);
  TF_LITE_ENSURE_MSG(context, params->output_shift >= -31 && params->output_shift <= 30,
                     "MUL rescale factor %g out of range", real_multiplier);
  return CalculateActivationRangeQuantized(context, activation, output,
                                           &params->quantized_activation_min,
                                           &params->quantized_activation_max);
}

template <typename T>
inline T QuantizedMul(const ArithmeticParams& p, T a, T b) {
  const int32_t input1_val = p.input1_offset + a;
  const int32_t input2_val = p.input2_offset + b;
  const int32_t raw_output =
      p.output_offset +
      MultiplyByQuantizedMultiplier(input1_val * input2_val, p.output_multiplier, p.output_shift);
  return static_cast<T>(
      std::min(p.quantized_activation_max, std::max(p.quantized_activation_min, raw_output)));
}

// Per-node state of the binary kernels: ArithmeticParams filled in Prepare.
inline void* InitArithmetic(TfLiteContext*, const char*, size_t) { return new ArithmeticParams{}; }
inline void FreeArithmetic(TfLiteContext*, void* buffer) {
  delete static_cast<ArithmeticParams*>(buffer);
}

}  // namespace elementwise
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_ELEMENTWISE_H_
