#include "kernels/internal/hybrid_inputs.h"

#include <memory>

#include "tensorflow/lite/core/subgraph.h"

namespace tflite {
namespace hybrid {

SharedRows SharedInputs::Get(const Key& key, const float* x, pthreadpool* pool) {
  Entry* entry = nullptr;
  for (Entry& e : entries_) {
    if (e.key == key) {
      entry = &e;
      break;
    }
  }
  if (entry == nullptr) {
    // An older version of this tensor if there is one (stale now), else the least
    // recently used entry.
    entry = &entries_[0];
    for (Entry& e : entries_) {
      if (e.key.tensor == key.tensor && e.key.version != key.version) {
        entry = &e;
        break;
      }
      if (e.used < entry->used) entry = &e;
    }
    // Zeros beyond each row's values, as a node's own (zero-filled) buffer holds.
    if (entry->key.rows != key.rows || entry->key.stride != key.stride ||
        entry->key.size != key.size) {
      entry->values.assign(static_cast<size_t>(key.rows) * key.stride, 0);
    }
    entry->key = key;
    entry->rows.QuantizeTo(x, key.rows, key.size, key.asymmetric, entry->values.data(), key.stride,
                           key.flip, pool);
  }
  entry->used = ++clock_;
  return SharedRows{entry->values.data(), entry->rows.scale.data(), entry->rows.offset.data()};
}

bool QuantizeShared(TfLiteContext* context, int tensor, const float* x, int rows, size_t size,
                    bool asymmetric, size_t stride, uint8_t flip, SharedRows* out,
                    pthreadpool* pool) {
  Subgraph* subgraph = Subgraph::FromContext(context);
  if (subgraph == nullptr || rows <= 0 || size == 0 || stride < size) return false;
  const uint64_t version = subgraph->TensorVersion(tensor);
  if (version == 0) return false;
  std::shared_ptr<SharedInputs>& shared = subgraph->hybrid_inputs();
  if (shared == nullptr) shared = std::make_shared<SharedInputs>();
  SharedInputs::Key key;
  key.tensor = tensor;
  key.version = version;
  key.data = x;
  key.rows = rows;
  key.size = size;
  key.stride = stride;
  key.asymmetric = asymmetric;
  key.flip = flip;
  *out = shared->Get(key, x, pool);
  return true;
}

}  // namespace hybrid
}  // namespace tflite
