// A structure-aware mutation for .tflite flatbuffers (the invoke fuzzer's custom
// mutator): edits one field of a verified model in place, where byte mutations rarely
// reach — a dimension, a tensor type, a tensor or buffer index, a quantization scale or
// zero point, an op version or code, one field of an op's options, a byte of constant
// data. The file keeps its size and stays a valid flatbuffer, so the edit reaches
// validation, Prepare and Eval instead of the verifier.
#ifndef TFLITE_INSPECT_LIB_FUZZ_FLATBUFFER_MUTATOR_H_
#define TFLITE_INSPECT_LIB_FUZZ_FLATBUFFER_MUTATOR_H_

#include <cstddef>
#include <cstdint>

namespace tflite_inspect {
namespace fuzz {

// Mutates the model in `data` (`size` bytes) in place, choices drawn from `seed`.
// Returns `size`, or 0 when the bytes are not a verifiable model or no field could be
// changed (the caller then falls back to byte mutation).
size_t MutateFlatbufferModel(uint8_t* data, size_t size, unsigned int seed);

}  // namespace fuzz
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_FUZZ_FLATBUFFER_MUTATOR_H_
