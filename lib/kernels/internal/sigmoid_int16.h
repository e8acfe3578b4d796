// int16 LOGISTIC and TANH, bit-exact with TFLite's reference_integer_ops::Logistic /
// Tanh for int16: the input is rescaled so that 3 * 4096 steps are 1.0 (the table spans
// [-10.7, 10.7]), then TFLite's 256-entry table of sigmoid(i / 24) in Q0.16 is read with
// linear interpolation (tanh(x) = 2 * sigmoid(2x) - 1 reads the same table at twice the
// rate). Zero points must be 0 and the output scale 2^-15, as TFLite requires.
//
// For a power-of-two input scale of exactly 2^-12 (LOGISTIC) or 2^-12 / 2^-11 (TANH)
// TFLite's default (optimized) kernel runs gemmlowp's fixed-point function instead,
// whose results differ from the reference's in the last bits; like the rest of this
// runtime these kernels follow the reference. Header-only; errors go through the context.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SIGMOID_INT16_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SIGMOID_INT16_H_

#include <cstdint>
#include <cstdlib>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace sigmoid_int16 {

// TFLite's sigmoid_table_uint16 (kernels/internal/common.h): round-ish 65536 *
// sigmoid(i / 24) as TFLite ships it (it is not exactly reproducible by a formula, so
// the values are TFLite's own; the last entry is clamped to 65535).
inline const uint16_t* SigmoidTable() {
  static const uint16_t kTable[256] = {
      32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
      41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
      48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
      54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
      58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
      61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
      63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
      64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
      64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
      65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
      65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
      65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
      65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
      65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
      65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
      65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
      65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
      65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
      65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
      65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};
  return kTable;
}

// Input rescaling: multiplier 0 means the power-of-two case (x * 3 << left_shift).
struct Params {
  int32_t multiplier = 0;
  int left_shift = 0;
};

// TFLite's SigmoidPrepare / TanhPrepare for int16 (`tanh` allows the power-of-two case at
// input scale 2^-11 too).
inline TfLiteStatus Prepare(TfLiteContext* context, const char* op, bool tanh,
                            const TfLiteTensor* input, const TfLiteTensor* output, Params* p) {
  if (input->params.zero_point != 0 || output->params.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s with int16 activations needs zero point 0 on input and output (got "
                       "input zero_point %d, output zero_point %d).",
                       op, static_cast<int>(input->params.zero_point),
                       static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  constexpr int kInputIntegerBits = 3;
  constexpr int kOutputFractionalBits = 15;
  int input_log2 = 0;
  bool pot = CheckedLog2(input->params.scale, &input_log2);
  p->multiplier = 0;
  p->left_shift = (15 - kInputIntegerBits) + input_log2;
  pot &= p->left_shift == 0 || (tanh && p->left_shift == 1);
  if (!pot) {
    // Rescale to 1 / (3 * 4096) per step, as large as fits 15 bits.
    double multiplier = input->params.scale * 4096.0 * 3.0;
    // Above 15 bits (an input scale over 2.67) the int32 products overflow, and past
    // 2^31 the conversion itself is undefined.
    if (!(multiplier <= 32767.0)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s int16 input scale %g is too large: its rescale multiplier %g does "
                         "not fit 15 bits.",
                         op, static_cast<double>(input->params.scale), multiplier);
      return kTfLiteError;
    }
    p->left_shift = 0;
    while (multiplier <= 32767.0 / 2.0 && p->left_shift <= 30) {
      ++p->left_shift;
      multiplier *= 2.0;
    }
    p->multiplier = static_cast<int32_t>(multiplier);
    if (p->multiplier == 0) {  // 0 marks a power-of-two scale in Logistic / Tanh
      TF_LITE_KERNEL_LOG(context,
                         "%s int16 input scale %g is too small: its rescale multiplier stays "
                         "below 1 after a 31-bit shift.",
                         op, static_cast<double>(input->params.scale));
      return kTfLiteError;
    }
  }
  int output_log2 = 0;
  if (!CheckedLog2(output->params.scale, &output_log2) || output_log2 != -kOutputFractionalBits) {
    TF_LITE_KERNEL_LOG(context, "%s int16 output scale must be 2^-15 (got %g).", op,
                       static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The rescaled input of reference_integer_ops::Logistic / Tanh.
inline int32_t Rescale(int16_t x, int32_t multiplier, int left_shift) {
  const int32_t round = left_shift > 0 ? 1 << (left_shift - 1) : 0;
  return (static_cast<int32_t>(x) * multiplier + round) >> left_shift;
}

inline void Logistic(const Params& params, int64_t n, const int16_t* in, int16_t* out) {
  const uint16_t* table = SigmoidTable();
  int32_t multiplier = params.multiplier;
  int left_shift = params.left_shift;
  if (multiplier == 0) {  // power of two
    multiplier = 3 << left_shift;
    left_shift = 0;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int32_t x = Rescale(in[i], multiplier, left_shift);
    const uint32_t ax = static_cast<uint32_t>(std::abs(x));
    const uint32_t segment = ax >> 9;  // 2^7 steps per input unit, table step 1/24 = 3/4 * 2^-5
    uint32_t result;
    if (segment >= 255) {
      result = 0x7FFFu << 10;
    } else {
      const uint32_t a = table[segment], b = table[segment + 1];
      result = (a << 9) + (ax & 0x1ff) * (b - a);  // unsigned wrap as upstream when b < a
    }
    result = x >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1;
    out[i] = static_cast<int16_t>(result >> 10);
  }
}

inline void Tanh(const Params& params, int64_t n, const int16_t* in, int16_t* out) {
  const uint16_t* table = SigmoidTable();
  int32_t multiplier = params.multiplier;
  int left_shift = params.left_shift;
  if (multiplier == 0) {  // power of two
    multiplier = 3 << left_shift;
    left_shift = 0;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int32_t x = Rescale(in[i], multiplier, left_shift);
    const uint32_t ax = static_cast<uint32_t>(std::abs(x));
    const uint32_t segment = ax >> 8;  // twice the rate of LOGISTIC: sigmoid(2x)
    int32_t result;
    if (segment >= 255) {
      result = 0xFFFF << 8;
    } else {
      const uint32_t a = table[segment], b = table[segment + 1];
      const uint8_t frac = static_cast<uint8_t>(ax & 0xFF);
      result = static_cast<int32_t>((a << 8) + frac * (b - a));
    }
    result = x >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
    out[i] = static_cast<int16_t>(result >> 8);
  }
}

}  // namespace sigmoid_int16
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SIGMOID_INT16_H_
