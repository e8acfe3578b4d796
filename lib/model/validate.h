// Structural validation of a verified TFLite flatbuffer.
//
// The flatbuffer verifier only proves that offsets stay inside the buffer. This pass
// proves what a runtime relies on next: every subgraph, tensor, buffer and opcode
// index is in range; constant buffers match shape x dtype; shapes are non-negative
// and their element counts fit int64; external buffers lie inside the file; sparse
// tensors' metadata is consistent. The first violation is returned with its location,
// e.g. "subgraph 0, operator 12 (CONV_2D v1): input #2 refers to tensor 57, but the
// subgraph has 40 tensors".
#ifndef TFLITE_INSPECT_LIB_MODEL_VALIDATE_H_
#define TFLITE_INSPECT_LIB_MODEL_VALIDATE_H_

#include <string>
#include <vector>

#include "model/op_code.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/status.h"

namespace tflite_inspect {

struct ValidationInput {
  const tflite::Model* model;
  size_t file_size;               // bytes available from the start of the model
  std::vector<OpCode> op_codes;   // resolved operator_codes, same order
};

// Returns the first structural error. `refusals` receives problems that leave the
// model readable but that TFLite's InterpreterBuilder refuses (its message text).
Status ValidateModel(const ValidationInput& in, std::vector<std::string>* refusals);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_MODEL_VALIDATE_H_
