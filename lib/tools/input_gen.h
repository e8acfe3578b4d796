// Seeded, reproducible inputs for running a model without real data: float tensors
// Gaussian (mean 0, std 1), int8/uint8/int16/uint16 uniform over the type's range,
// int32/int64/uint32 uniform in [0, 15], bool 0/1. Input i uses its own stream derived
// from (seed, i), so adding an input does not change the others. The generator is
// xoshiro256** seeded by splitmix64 (fully specified, identical on every platform).
#ifndef TFLITE_INSPECT_LIB_TOOLS_INPUT_GEN_H_
#define TFLITE_INSPECT_LIB_TOOLS_INPUT_GEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "util/status.h"

namespace tflite_inspect {

// Bytes for `tensor` (its type and current shape).
Status GenerateInput(const TfLiteTensor& tensor, uint64_t seed, int stream,
                     std::vector<uint8_t>* bytes);
// How GenerateInput fills `type`, for reports ("gaussian(0,1)", "uniform[-128,127]").
std::string InputDistribution(TfLiteType type);

// Copies min(n, t->bytes) input bytes into tensor t. A bool tensor's bytes become 0 / 1
// (non-zero is true), as the interpreter builder does for bool constants: kernels read
// them as bool, and a byte other than 0 or 1 (a user's input file) would be undefined.
void CopyInputBytes(TfLiteTensor* t, const uint8_t* src, size_t n);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_INPUT_GEN_H_
