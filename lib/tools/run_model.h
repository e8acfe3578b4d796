// Runs a model once on given or generated inputs and returns every input and output
// tensor: what `tflite-inspect run` writes to disk and what end-to-end tests compare
// with goldens from the real TFLite runtime.
#ifndef TFLITE_INSPECT_LIB_TOOLS_RUN_MODEL_H_
#define TFLITE_INSPECT_LIB_TOOLS_RUN_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/core/c/common.h"
#include "tools/delegate_provider.h"
#include "tools/resource_limits.h"
#include "util/status.h"

namespace tflite_inspect {

struct RunOptions {
  std::string graph;
  // Raw little-endian bytes, one file per input in the order of the subgraph's inputs.
  // Empty: inputs are generated from `seed` (tools/input_gen.h).
  std::vector<std::string> input_files;
  uint64_t seed = 1;
  int num_threads = 1;
  // Made and applied in order after building (tools/session.h).
  DelegatePlan delegates;
  ResourceLimits limits;  // --max_arena_mb, --max_while_iterations
  // The signature to run (its subgraph, inputs and outputs); "": the first subgraph.
  std::string signature;
};

struct TensorDump {
  int index = 0;   // position in the subgraph's inputs or outputs
  int tensor = 0;  // tensor id
  std::string name;
  TfLiteType type = kTfLiteNoType;
  std::vector<int> shape;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int quantized_dimension = 0;
  std::vector<uint8_t> data;
  std::string source;  // inputs: the file, or the generator's distribution and seed
};

struct RunResult {
  std::vector<TensorDump> inputs, outputs;
  size_t arena_bytes = 0;
  std::vector<AppliedDelegate> delegates;
  std::vector<std::string> delegate_log;  // TFLite's "Replacing N out of M node(s) ..." lines
};

// Loads, builds (with `resolver`), allocates, fills inputs, invokes. Errors carry the
// runtime's own messages.
Result<RunResult> RunModel(const RunOptions& options, const tflite::OpResolver& resolver);

// Writes DIR/output_<i>.bin, DIR/input_<i>.bin for generated inputs, and
// DIR/outputs.json (names, dtypes, shapes, quantization of inputs and outputs).
Status WriteRunResult(const RunResult& result, const std::string& dir);
nlohmann::json RunResultToJson(const RunResult& result);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_RUN_MODEL_H_
