// Reading MediaPipe custom-op options from node->custom_initial_data, untrusted bytes
// from the model. Two encodings occur:
//  - the pooling and transpose-conv ops store a TfLite*Params struct verbatim (a prefix
//    of 32-bit fields: padding, strides, ...); ReadIntFields copies the prefix the op
//    needs and fails when the options are shorter;
//  - the landmark/transform ops store a flexbuffer map; FlexMap verifies the buffer
//    before any field is read, so a corrupt map is an error, never an out-of-bounds read.
#ifndef TFLITE_INSPECT_LIB_CUSTOM_OPS_MEDIAPIPE_CUSTOM_OPTIONS_H_
#define TFLITE_INSPECT_LIB_CUSTOM_OPS_MEDIAPIPE_CUSTOM_OPTIONS_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "kernels/internal/flex_options.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_inspect {
namespace mediapipe {

// Copies the first `n` int32 fields of the options into `out`. False when the node
// carries fewer than 4*n bytes.
inline bool ReadIntFields(const TfLiteNode* node, int32_t* out, int n) {
  const size_t need = sizeof(int32_t) * static_cast<size_t>(n);
  if (node->custom_initial_data == nullptr || node->custom_initial_data_size < 0 ||
      static_cast<size_t>(node->custom_initial_data_size) < need) {
    return false;
  }
  std::memcpy(out, node->custom_initial_data, need);
  return true;
}

// Total padding along one axis of MediaPipe's Convolution2DTransposeBias (its kernel,
// and the GPU and XNNPACK delegates that take it): for SAME, K - (in - 1) % S - 1 (at
// least 0), the leading half first; VALID pads nothing.
inline int TransposeConvBiasPadding(int32_t padding, int filter, int in, int stride) {
  if (padding != kTfLitePaddingSame) return 0;
  const int total = filter - (in - 1) % stride - 1;
  return total > 0 ? total : 0;
}

// The prefix of TfLitePoolParams that MaxPoolingWithArgmax2D and MaxUnpooling2D store.
struct PoolOptions {
  int32_t padding = 0;
  int32_t stride_width = 0;
  int32_t stride_height = 0;
  int32_t filter_width = 0;
  int32_t filter_height = 0;
  int32_t activation = 0;
};

// Reads and checks PoolOptions (strides and filter in 1..65536, SAME or VALID padding, a
// known activation); logs "<op>: <reason>" through `context` on failure.
inline TfLiteStatus ReadPoolOptions(TfLiteContext* context, const TfLiteNode* node, const char* op,
                                    PoolOptions* o) {
  int32_t f[6];
  if (!ReadIntFields(node, f, 6)) {
    TF_LITE_KERNEL_LOG(context, "%s: custom options hold %d bytes, need 24 (TfLitePoolParams).", op,
                       node->custom_initial_data_size);
    return kTfLiteError;
  }
  *o = PoolOptions{f[0], f[1], f[2], f[3], f[4], f[5]};
  if (o->padding != kTfLitePaddingSame && o->padding != kTfLitePaddingValid) {
    TF_LITE_KERNEL_LOG(context, "%s: unknown padding %d.", op, o->padding);
    return kTfLiteError;
  }
  constexpr int32_t kMax = 1 << 16;  // keeps index arithmetic far from int overflow
  if (o->stride_width <= 0 || o->stride_height <= 0 || o->filter_width <= 0 ||
      o->filter_height <= 0 || o->stride_width > kMax || o->stride_height > kMax ||
      o->filter_width > kMax || o->filter_height > kMax) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: strides and filter must be in 1..65536 (stride %dx%d, "
                       "filter %dx%d).",
                       op, o->stride_height, o->stride_width, o->filter_height, o->filter_width);
    return kTfLiteError;
  }
  if (o->activation < kTfLiteActNone || o->activation > kTfLiteActSigmoid) {
    TF_LITE_KERNEL_LOG(context, "%s: unknown activation %d.", op, o->activation);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// A verified flexbuffer map over the node's options.
class FlexMap {
 public:
  // False (and an empty map) when the options are absent, corrupt or not a map.
  bool Parse(const TfLiteNode* node) {
    const auto* data = static_cast<const uint8_t*>(node->custom_initial_data);
    const int size = node->custom_initial_data_size;
    if (data == nullptr || size <= 0) return false;
    std::vector<uint8_t> reuse;
    if (!flexbuffers::VerifyBuffer(data, static_cast<size_t>(size), &reuse)) return false;
    flexbuffers::Reference root = flexbuffers::GetRoot(data, static_cast<size_t>(size));
    if (!root.IsMap()) return false;
    map_ = root.AsMap();
    return true;
  }
  bool Has(const char* key) const { return !map_[key].IsNull(); }
  // Numeric fields; `fallback` when the key is missing or not a number.
  // (flex_options: a float out of int32's range, or NaN, is `fallback` too.)
  int32_t Int(const char* key, int32_t fallback) const {
    flexbuffers::Reference r = map_[key];
    return r.IsNumeric() ? tflite::flex_options::Int32Or(r, fallback) : fallback;
  }
  float Float(const char* key, float fallback) const {
    flexbuffers::Reference r = map_[key];
    return r.IsNumeric() ? tflite::flex_options::FloatOr(r, fallback) : fallback;
  }
  // An int vector (typed or untyped); false when missing, not a vector, or holding a value
  // that is no int32.
  bool Ints(const char* key, std::vector<int32_t>* out) const {
    flexbuffers::Reference r = map_[key];
    out->clear();
    auto add = [out](const flexbuffers::Reference& e) {
      int32_t x = 0;
      const bool ok = tflite::flex_options::ToInt32(e, &x);
      out->push_back(x);
      return ok;
    };
    bool ok = true;
    if (r.IsTypedVector()) {
      flexbuffers::TypedVector v = r.AsTypedVector();
      for (size_t i = 0; i < v.size(); ++i) ok = add(v[i]) && ok;
      return ok;
    }
    if (r.IsFixedTypedVector()) {
      flexbuffers::FixedTypedVector v = r.AsFixedTypedVector();
      for (size_t i = 0; i < v.size(); ++i) ok = add(v[i]) && ok;
      return ok;
    }
    if (r.IsUntypedVector()) {
      flexbuffers::Vector v = r.AsVector();
      for (size_t i = 0; i < v.size(); ++i) ok = add(v[i]) && ok;
      return ok;
    }
    return false;
  }

 private:
  flexbuffers::Map map_ = flexbuffers::Map::EmptyMap();
};

}  // namespace mediapipe
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_CUSTOM_OPS_MEDIAPIPE_CUSTOM_OPTIONS_H_
