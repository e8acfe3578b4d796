// A float tensor that several hybrid nodes read in one Invoke (attention's Q, K and V
// projections; the branches of an Inception block) is quantized once: the first node
// quantizes it into a copy the subgraph keeps (Subgraph::hybrid_inputs), the others read
// that copy. Each node would quantize the same values the same way (QuantizedRows'
// per-row parameters depend on the values alone), so the results are the bits each node
// computes on its own. Subgraph::TensorVersion tells whether the tensor was written since.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_INPUTS_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_INPUTS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/internal/hybrid.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace hybrid {

// A quantized tensor: rows of `stride` bytes (values XOR flip, then zeros to the stride),
// a scale and an offset per row.
struct SharedRows {
  const int8_t* values = nullptr;
  const float* scale = nullptr;
  const int32_t* offset = nullptr;
};

// The subgraph's copies: the last few tensors quantized (a handful: the readers of one
// tensor run close together).
class SharedInputs {
 public:
  struct Key {
    int tensor = -1;
    uint64_t version = 0;
    const float* data = nullptr;
    int rows = 0;
    size_t size = 0, stride = 0;
    bool asymmetric = false;
    uint8_t flip = 0;
    bool operator==(const Key& o) const {
      return tensor == o.tensor && version == o.version && data == o.data && rows == o.rows &&
             size == o.size && stride == o.stride && asymmetric == o.asymmetric && flip == o.flip;
    }
  };
  // The entry for `key`, quantizing x into it (over `pool`) unless it holds key's values
  // already.
  SharedRows Get(const Key& key, const float* x, pthreadpool* pool);

 private:
  struct Entry {
    Key key;
    uint64_t used = 0;
    std::vector<int8_t> values;
    QuantizedRows rows;
  };
  std::array<Entry, 4> entries_;
  uint64_t clock_ = 0;
};

// Tensor `tensor` (x: its data, rows x size floats) quantized as QuantizedRows::QuantizeTo(
// x, rows, size, asymmetric, dst, stride, flip) writes dst: the subgraph's shared copy,
// made now unless a node made it since the tensor was last written. False where nothing
// can be shared (not during our runtime's Invoke, a variable tensor): the caller quantizes
// on its own then.
bool QuantizeShared(TfLiteContext* context, int tensor, const float* x, int rows, size_t size,
                    bool asymmetric, size_t stride, uint8_t flip, SharedRows* out,
                    pthreadpool* pool = nullptr);

}  // namespace hybrid
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_HYBRID_INPUTS_H_
