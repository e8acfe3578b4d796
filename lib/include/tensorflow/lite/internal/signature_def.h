// A model's SignatureDef as the interpreter keeps it (TFLite's internal struct): the key,
// the subgraph it runs, and its input / output names mapped to that subgraph's tensors.
#ifndef TENSORFLOW_LITE_INTERNAL_SIGNATURE_DEF_H_
#define TENSORFLOW_LITE_INTERNAL_SIGNATURE_DEF_H_

#include <cstdint>
#include <map>
#include <string>

namespace tflite {
namespace internal {

struct SignatureDef {
  std::map<std::string, uint32_t> inputs;
  std::map<std::string, uint32_t> outputs;
  std::string signature_key;
  uint32_t subgraph_index = 0;
};

}  // namespace internal
}  // namespace tflite

#endif  // TENSORFLOW_LITE_INTERNAL_SIGNATURE_DEF_H_
