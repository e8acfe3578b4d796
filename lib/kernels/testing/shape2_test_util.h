// Test helpers of the shape2-family kernel tests (densify, split, pack, gather, cast,
// comparisons, reductions, unary math, ...): a one-op model whose inputs are constants or
// graph inputs and which may have several outputs, run through the real interpreter.
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_SHAPE2_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_SHAPE2_TEST_UTIL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace shape2_test {

struct T {
  tflite::TensorType type;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data;  // inputs only
  bool is_const = false;
  float scale = 0;  // 0: not quantized
  int64_t zero_point = 0;
};

template <typename V>
std::vector<uint8_t> Bytes(const std::vector<V>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(V));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
// std::vector<bool> has no data(); bool tensors are one byte per element.
inline std::vector<uint8_t> Bools(const std::vector<int>& v) {
  return std::vector<uint8_t>(v.begin(), v.end());
}

// A TFLite string buffer: count, offsets [count + 1], then the bytes.
inline std::vector<uint8_t> StringBytes(const std::vector<std::string>& strings) {
  const size_t n = strings.size();
  std::vector<int32_t> header(n + 2);
  header[0] = static_cast<int32_t>(n);
  int32_t offset = static_cast<int32_t>(sizeof(int32_t) * (n + 2));
  for (size_t i = 0; i < n; ++i) {
    header[i + 1] = offset;
    offset += static_cast<int32_t>(strings[i].size());
  }
  header[n + 1] = offset;
  std::vector<uint8_t> bytes(sizeof(int32_t) * header.size());
  std::memcpy(bytes.data(), header.data(), bytes.size());
  for (const std::string& str : strings) bytes.insert(bytes.end(), str.begin(), str.end());
  return bytes;
}

// The strings of a TFLite string buffer (no validation: test use only).
inline std::vector<std::string> ParseStrings(const std::vector<uint8_t>& bytes) {
  std::vector<std::string> out;
  if (bytes.size() < sizeof(int32_t)) return out;
  int32_t n = 0;
  std::memcpy(&n, bytes.data(), sizeof n);
  std::vector<int32_t> offsets(n + 1);
  std::memcpy(offsets.data(), bytes.data() + sizeof(int32_t), sizeof(int32_t) * (n + 1));
  for (int32_t i = 0; i < n; ++i) {
    out.emplace_back(reinterpret_cast<const char*>(bytes.data()) + offsets[i],
                     offsets[i + 1] - offsets[i]);
  }
  return out;
}

inline T StringInput(std::vector<int32_t> shape, const std::vector<std::string>& strings,
                     bool is_const = false) {
  return T{tflite::TensorType_STRING, std::move(shape), StringBytes(strings), is_const};
}

template <typename V>
T Input(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<V>& values,
        float scale = 0, int64_t zero_point = 0) {
  return T{type, std::move(shape), Bytes(values), false, scale, zero_point};
}
template <typename V>
T Const(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<V>& values,
        float scale = 0, int64_t zero_point = 0) {
  return T{type, std::move(shape), Bytes(values), true, scale, zero_point};
}
inline T Output(tflite::TensorType type, std::vector<int32_t> shape, float scale = 0,
                int64_t zero_point = 0) {
  return T{type, std::move(shape), {}, false, scale, zero_point};
}

struct OpResult {
  TfLiteStatus prepare = kTfLiteError;
  TfLiteStatus invoke = kTfLiteError;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::vector<int>> shapes;
  std::string errors;
  bool ok() const { return prepare == kTfLiteOk && invoke == kTfLiteOk; }
  template <typename V>
  std::vector<V> As(size_t i = 0) const {
    std::vector<V> v(bytes.at(i).size() / sizeof(V));
    if (!v.empty()) std::memcpy(v.data(), bytes[i].data(), v.size() * sizeof(V));
    return v;
  }
  std::vector<int> shape(size_t i = 0) const { return shapes.at(i); }
};

inline OpResult Run(tflite::BuiltinOperator op, const std::vector<T>& inputs,
                    const std::vector<T>& outputs, OpOptions options = {}, int version = 1) {
  ModelBuilder b;
  std::vector<int32_t> op_inputs, op_outputs, graph_inputs;
  std::vector<const T*> fed;
  auto quant = [](const T& t, QuantSpec* q) -> const QuantSpec* {
    if (t.scale == 0) return nullptr;
    q->scale = {t.scale};
    q->zero_point = {t.zero_point};
    return q;
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    const T& in = inputs[i];
    QuantSpec q;
    const std::string name = "in" + std::to_string(i);
    int t;
    if (in.is_const) {
      t = b.AddConstTensorBytes(in.type, in.shape, in.data, name, quant(in, &q));
    } else {
      t = b.AddTensor(in.type, in.shape, name, quant(in, &q));
      graph_inputs.push_back(t);
      fed.push_back(&in);
    }
    op_inputs.push_back(t);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    QuantSpec q;
    op_outputs.push_back(b.AddTensor(outputs[i].type, outputs[i].shape, "out" + std::to_string(i),
                                     quant(outputs[i], &q)));
  }
  b.AddOperator(op, op_inputs, op_outputs, std::move(options), version);
  b.SetInputs(graph_inputs);
  b.SetOutputs(op_outputs);
  OpTestModel m(b);
  OpResult r;
  r.prepare = m.Prepare();
  r.errors = m.errors();
  if (r.prepare != kTfLiteOk) return r;
  for (size_t i = 0; i < fed.size(); ++i) {
    if (fed[i]->type == tflite::TensorType_STRING) {
      // String inputs are sized by their contents.
      TfLiteTensor* t = m.interpreter().input_tensor(i);
      if (TfLiteTensorRealloc(fed[i]->data.size(), t) != kTfLiteOk) return r;
      t->bytes = fed[i]->data.size();
      std::memcpy(t->data.raw, fed[i]->data.data(), fed[i]->data.size());
    } else {
      m.SetInput<uint8_t>(static_cast<int>(i), fed[i]->data);
    }
  }
  r.invoke = m.Invoke();
  r.errors = m.errors();
  if (r.invoke != kTfLiteOk) return r;
  for (size_t i = 0; i < outputs.size(); ++i) {
    r.bytes.push_back(m.Output<uint8_t>(static_cast<int>(i)));
    r.shapes.push_back(m.OutputShape(static_cast<int>(i)));
  }
  return r;
}

}  // namespace shape2_test
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_SHAPE2_TEST_UTIL_H_
