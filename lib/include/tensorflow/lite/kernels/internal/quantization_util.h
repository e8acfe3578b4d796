// Prepare-time quantization math: turning real multipliers into fixed-point
// (multiplier, shift) pairs, softmax scaling, fake-quant nudging. Source-
// compatible with upstream tensorflow/lite/kernels/internal/quantization_util.h;
// implemented in lib/runtime/quantization_util.cc.
//
// Results are bit-exact with upstream for valid inputs. Difference: upstream
// aborts (TFLITE_CHECK) when a precondition is violated; here those checks are
// debug-only and the functions produce a defined result instead (documented
// per function), because tflite-inspect's library never aborts.
#ifndef TENSORFLOW_LITE_KERNELS_INTERNAL_QUANTIZATION_UTIL_H_
#define TENSORFLOW_LITE_KERNELS_INTERNAL_QUANTIZATION_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "tensorflow/lite/kernels/internal/compatibility.h"
#include "tensorflow/lite/kernels/internal/types.h"

namespace tflite {

// Quantization parameters of type T (with qmin raised by one if
// narrow_range) that represent [rmin, rmax] with 0 exactly representable.
// Requires rmin <= 0 <= rmax (DCHECKed).
template <typename T>
QuantizationParams ChooseQuantizationParams(double rmin, double rmax,
                                            bool narrow_range) {
  const T qmin = std::numeric_limits<T>::min() + (narrow_range ? 1 : 0);
  const T qmax = std::numeric_limits<T>::max();
  const double qmin_double = qmin;
  const double qmax_double = qmax;
  TFLITE_DCHECK_LE(rmin, 0.);
  TFLITE_DCHECK_GE(rmax, 0.);
  QuantizationParams quantization_params;
  if (rmin == rmax) {
    // Degenerate range {0}.
    quantization_params.zero_point = 0;
    quantization_params.scale = 0.;
    return quantization_params;
  }
  const double scale = (rmax - rmin) / (qmax_double - qmin_double);
  // Derive the zero point from whichever end adds the smaller rounding error.
  const double zero_point_from_min = qmin_double - rmin / scale;
  const double zero_point_from_max = qmax_double - rmax / scale;
  const double zero_point_from_min_error =
      std::abs(qmin_double) + std::abs(rmin / scale);
  const double zero_point_from_max_error =
      std::abs(qmax_double) + std::abs(rmax / scale);
  const double zero_point_double =
      zero_point_from_min_error < zero_point_from_max_error
          ? zero_point_from_min
          : zero_point_from_max;
  // Nudge to an integer in [qmin, qmax] so that real 0 is exact.
  T nudged_zero_point = 0;
  if (zero_point_double < qmin_double) {
    nudged_zero_point = qmin;
  } else if (zero_point_double > qmax_double) {
    nudged_zero_point = qmax;
  } else {
    nudged_zero_point = static_cast<T>(std::round(zero_point_double));
  }
  quantization_params.zero_point = nudged_zero_point;
  quantization_params.scale = scale;
  return quantization_params;
}

template <typename T>
QuantizationParams ChooseQuantizationParams(double rmin, double rmax) {
  return ChooseQuantizationParams<T>(rmin, rmax, false);
}

// Float -> integer conversion without undefined behaviour: truncates like
// static_cast where that is defined; NaN -> 0; out of range (incl. +-inf)
// saturates; negative -> 0 for unsigned IntOut.
template <class IntOut, class FloatIn>
IntOut SafeCast(FloatIn x) {
  static_assert(!std::numeric_limits<FloatIn>::is_integer,
                "FloatIn is integer");
  static_assert(std::numeric_limits<IntOut>::is_integer,
                "IntOut is not integer");
  static_assert(std::numeric_limits<IntOut>::radix == 2, "IntOut is base 2");
  if (std::isnan(x)) return 0;
  if (!std::numeric_limits<IntOut>::is_signed && x < 0) return 0;
  if (std::isinf(x)) {
    return x < 0 ? std::numeric_limits<IntOut>::min()
                 : std::numeric_limits<IntOut>::max();
  }
  // |x| < 2^exp; representable when exp <= the number of value bits.
  int exp = 0;
  std::frexp(x, &exp);
  if (exp <= std::numeric_limits<IntOut>::digits) return x;
  return x < 0 ? std::numeric_limits<IntOut>::min()
               : std::numeric_limits<IntOut>::max();
}

// Splits double_multiplier into a Q0.31 significand in [2^30, 2^31) (or its
// negation for negative input; 0 for 0) and an exponent `shift`, so that
// double_multiplier ~= quantized_multiplier * 2^(shift - 31). Multipliers
// below about 2^-31 flush to (0, 0). Non-finite input gives (0, 0).
void QuantizeMultiplier(double double_multiplier, int32_t* quantized_multiplier,
                        int* shift);

// QuantizeMultiplier for multipliers > 1 (shift >= 0).
void QuantizeMultiplierGreaterThanOne(double double_multiplier,
                                      int32_t* quantized_multiplier,
                                      int* left_shift);

// QuantizeMultiplier for multipliers in [0, 1); *left_shift <= 0.
void QuantizeMultiplierSmallerThanOneExp(double double_multiplier,
                                         int32_t* quantized_multiplier,
                                         int* left_shift);

// std::frexp using only integer operations: returns the fraction scaled so
// that 1 << 30 means 0.5 (result magnitude in [2^30, 2^31]) and sets *shift.
// Zero gives (0, 0); NaN gives 0 and +-inf gives INT64_MAX / INT64_MIN, all
// with *shift == INT_MAX.
int64_t IntegerFrExp(double input, int* shift);

// Inverse of IntegerFrExp (0x40000000 == 0.5 * 2^1 convention as above).
double DoubleFromFractionAndShift(int64_t fraction, int shift);

// a * b and a <=> b computed with integer operations only (for targets
// without an FPU).
double IntegerDoubleMultiply(double a, double b);
int IntegerDoubleCompare(double a, double b);

// Softmax input scaling: quantizes min(beta * input_scale *
// 2^(31 - input_integer_bits), max) as a multiplier > 1.
void PreprocessSoftmaxScaling(double beta, double input_scale,
                              int input_integer_bits,
                              int32_t* quantized_multiplier, int* left_shift);

// PreprocessSoftmaxScaling plus the reverse scaling LogSoftmax needs.
void PreprocessLogSoftmaxScalingExp(double beta, double input_scale,
                                    int input_integer_bits,
                                    int32_t* quantized_multiplier,
                                    int* left_shift,
                                    int32_t* reverse_scaling_divisor,
                                    int* reverse_scaling_left_shift);

// Largest input difference that does not overflow in
// MultiplyByQuantizedMultiplierGreaterThanOne with `input_left_shift`.
int CalculateInputRadius(int input_integer_bits, int input_left_shift,
                         int total_signed_bits = 31);

// Adjusts [min, max] so that real 0 falls on an integer of
// [quant_min, quant_max] (TensorFlow's FakeQuant nudging).
void NudgeQuantizationRange(float min, float max, int quant_min, int quant_max,
                            float* nudged_min, float* nudged_max,
                            float* nudged_scale);

// Quantize-dequantize `size` values with NudgeQuantizationRange's output.
void FakeQuantizeArray(float nudged_scale, float nudged_min, float nudged_max,
                       const float* input_data, float* output_data, float size);

// If x is (within 1e-3 in log2) a power of two, stores log2(x) and returns
// true.
bool CheckedLog2(float x, int* log2_result);

// tflite-inspect extension: crafted quantization parameters can ask for a multiplier
// the integer kernels cannot represent (not finite, a left shift over 30, a
// "greater than one" multiplier below 0.5). TFLite only DCHECKs these; here the
// functions above note the first such multiplier of the calling thread, and
// Subgraph::PrepareNode fails the node that computed it with a message.
struct MultiplierRangeError {
  bool set = false;
  double multiplier = 0.;
  const char* why = "";
};
// Clears the note and returns what it held.
MultiplierRangeError TakeMultiplierRangeError();
// Notes `multiplier` (first one wins until taken). Kernels with stricter limits than
// QuantizeMultiplier's (the 64-bit accumulator path: shift < 8) call it themselves.
void NoteMultiplierRangeError(double multiplier, const char* why);

// QuantizeMultiplier for each of `size` scales.
void QuantizeMultiplierArray(const double* effective_scales, size_t size,
                             int32_t* effective_scale_significand,
                             int* effective_shift);

}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_INTERNAL_QUANTIZATION_UTIL_H_
