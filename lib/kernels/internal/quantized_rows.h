// Rows of the quantized ADD / SUB (int8, uint8, and int16 with general scales), SQUARED_DIFFERENCE (int8) and MUL (reference_integer_ops::AddElementwise and
// MulElementwise arithmetic, ArithmeticParams from elementwise.h's Prepare helpers) for
// elementwise::BroadcastRows: out[i] from a[i * sa] and b[i * sb], strides 0 or 1. AVX2
// (16 values a step, requant:: vector requantization: the scalar bits) where the CPU has it,
// the scalar functions of elementwise.h for the rest.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_QUANTIZED_ROWS_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_QUANTIZED_ROWS_H_

#include <cstdint>

#include "tensorflow/lite/kernels/internal/types.h"

namespace tflite {
namespace elementwise {

void QuantizedAddSubRow(const ArithmeticParams& p, bool subtract, const int8_t* a, int sa,
                        const int8_t* b, int sb, int8_t* out, int64_t n);
void QuantizedAddSubRow(const ArithmeticParams& p, bool subtract, const uint8_t* a, int sa,
                        const uint8_t* b, int sb, uint8_t* out, int64_t n);
void QuantizedAddSubRow(const ArithmeticParams& p, bool subtract, const int16_t* a, int sa,
                        const int16_t* b, int sb, int16_t* out, int64_t n);
void QuantizedSquaredDifferenceRow(const ArithmeticParams& p, const int8_t* a, int sa,
                                   const int8_t* b, int sb, int8_t* out, int64_t n);
void QuantizedMulRow(const ArithmeticParams& p, const int8_t* a, int sa, const int8_t* b, int sb,
                     int8_t* out, int64_t n);
void QuantizedMulRow(const ArithmeticParams& p, const uint8_t* a, int sa, const uint8_t* b, int sb,
                     uint8_t* out, int64_t n);

}  // namespace elementwise
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_QUANTIZED_ROWS_H_
