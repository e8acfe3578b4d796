// benchmark_model's input flags, parsed as TFLite parses them:
//   --input_layer=in1,in2 --input_layer_shape=1,224,224,3:1,10
//   --input_layer_value_range=in1,0,254:in2,1,2 --input_layer_value_files=in1:a.bin,in2:b.bin
// and the random inputs TFLite fills when no file is given (float uniform [-0.5, 0.5],
// int8 [-127, 127], uint8 [0, 254], other integers [0, 99], bool {0, 1}; a value range
// replaces the integer bounds).
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_INPUT_LAYERS_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_INPUT_LAYERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "util/status.h"

namespace tflite_inspect {

struct InputLayerInfo {
  std::string name;
  std::vector<int> shape;
  bool has_value_range = false;
  int low = 0, high = 0;
  std::string input_file_path;
};

// Empty names and shapes give no layers (inputs keep the model's shapes). Errors quote
// the flag and the item at fault.
Result<std::vector<InputLayerInfo>> ParseInputLayers(const std::string& names,
                                                     const std::string& shapes,
                                                     const std::string& value_ranges,
                                                     const std::string& value_files);

// Bytes for `t`: the file's (which must hold exactly t.bytes) or random ones.
Result<std::vector<uint8_t>> MakeInputData(const TfLiteTensor& t, const InputLayerInfo* info,
                                           uint64_t seed, int stream);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_INPUT_LAYERS_H_
