// Test helpers of the tensor-family kernel tests (reshape, concatenation, pad,
// pooling, mean, softmax, quantize, transpose, strided_slice, resize_bilinear): build
// a one-op model whose inputs are constant tensors or graph inputs, run it through
// the real interpreter (OpTestModel) and return the output bytes and shape.
#ifndef TFLITE_INSPECT_LIB_KERNELS_TESTING_TENSOR_TEST_UTIL_H_
#define TFLITE_INSPECT_LIB_KERNELS_TESTING_TENSOR_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace tensor_test {

// One operator input: a constant (const_data set) or a graph input fed with `data`.
struct In {
  tflite::TensorType type;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data;
  bool is_const = false;
  float scale = 0;  // 0: not quantized
  int64_t zero_point = 0;
};

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
In Input(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
         float scale = 0, int64_t zero_point = 0) {
  return In{type, std::move(shape), Bytes(values), false, scale, zero_point};
}
template <typename T>
In Const(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
         float scale = 0, int64_t zero_point = 0) {
  return In{type, std::move(shape), Bytes(values), true, scale, zero_point};
}

struct Out {
  tflite::TensorType type;
  std::vector<int32_t> shape;
  float scale = 0;
  int64_t zero_point = 0;
};

struct OpRun {
  TfLiteStatus prepare = kTfLiteError;
  TfLiteStatus invoke = kTfLiteError;
  std::vector<uint8_t> bytes;
  std::vector<int> shape;
  std::string errors;
  template <typename T>
  std::vector<T> As() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
};

// num_threads > 1 gives the interpreter a thread pool of that many threads.
inline OpRun Run(tflite::BuiltinOperator op, const std::vector<In>& inputs, const Out& output,
                 OpOptions options = {}, int version = 1, int num_threads = 1) {
  ModelBuilder b;
  std::vector<int32_t> op_inputs, graph_inputs;
  std::vector<const In*> fed;
  auto quant = [](float scale, int64_t zp, QuantSpec* q) -> const QuantSpec* {
    if (scale == 0) return nullptr;
    q->scale = {scale};
    q->zero_point = {zp};
    return q;
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    const In& in = inputs[i];
    QuantSpec q;
    const std::string name = "in" + std::to_string(i);
    int t;
    if (in.is_const) {
      t = b.AddConstTensorBytes(in.type, in.shape, in.data, name,
                                quant(in.scale, in.zero_point, &q));
    } else {
      t = b.AddTensor(in.type, in.shape, name, quant(in.scale, in.zero_point, &q));
      graph_inputs.push_back(t);
      fed.push_back(&in);
    }
    op_inputs.push_back(t);
  }
  QuantSpec oq;
  const int out =
      b.AddTensor(output.type, output.shape, "out", quant(output.scale, output.zero_point, &oq));
  b.AddOperator(op, op_inputs, {out}, std::move(options), version);
  b.SetInputs(graph_inputs);
  b.SetOutputs({out});
  OpTestModel m(b, num_threads);
  OpRun r;
  r.prepare = m.Prepare();
  r.errors = m.errors();
  if (r.prepare != kTfLiteOk) return r;
  for (size_t i = 0; i < fed.size(); ++i) {
    if (fed[i]->type == tflite::TensorType_STRING) {
      // String inputs are sized by their contents.
      TfLiteTensor* t = m.interpreter().input_tensor(i);
      if (TfLiteTensorRealloc(fed[i]->data.size(), t) != kTfLiteOk) return r;
      std::memcpy(t->data.raw, fed[i]->data.data(), fed[i]->data.size());
    } else if (!fed[i]->data.empty()) {  // (an empty tensor needs no bytes)
      m.SetInput<uint8_t>(static_cast<int>(i), fed[i]->data);
    }
  }
  r.invoke = m.Invoke();
  r.errors = m.errors();
  if (r.invoke != kTfLiteOk) return r;
  r.bytes = m.Output<uint8_t>(0);
  r.shape = m.OutputShape(0);
  return r;
}

inline int64_t Count(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

// Row-major strides of `shape`.
inline std::vector<int64_t> Strides(const std::vector<int32_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

// Coordinates of flat index `i` in `shape`.
inline std::vector<int> Unravel(int64_t i, const std::vector<int32_t>& shape) {
  std::vector<int> c(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    c[d] = static_cast<int>(i % shape[d]);
    i /= shape[d];
  }
  return c;
}

// A TFLite string tensor buffer: count, offsets from the buffer start, then bytes.
inline std::vector<uint8_t> StringBuffer(const std::vector<std::string>& strings) {
  const size_t n = strings.size();
  std::vector<int32_t> header(n + 2);
  header[0] = static_cast<int32_t>(n);
  int32_t offset = static_cast<int32_t>(sizeof(int32_t) * (n + 2));
  for (size_t i = 0; i < n; ++i) {
    header[i + 1] = offset;
    offset += static_cast<int32_t>(strings[i].size());
  }
  header[n + 1] = offset;
  std::vector<uint8_t> bytes = Bytes(header);
  for (const auto& str : strings) bytes.insert(bytes.end(), str.begin(), str.end());
  return bytes;
}

// Strings of a buffer written by a kernel (empty on a malformed buffer).
inline std::vector<std::string> ParseStrings(const std::vector<uint8_t>& bytes) {
  std::vector<std::string> out;
  if (bytes.size() < 4) return out;
  int32_t n;
  std::memcpy(&n, bytes.data(), 4);
  if (n < 0 || bytes.size() < 4u * (n + 2)) return out;
  std::vector<int32_t> off(n + 1);
  std::memcpy(off.data(), bytes.data() + 4, 4u * (n + 1));
  for (int32_t i = 0; i < n; ++i) {
    if (off[i] > off[i + 1] || static_cast<size_t>(off[i + 1]) > bytes.size()) return {};
    out.emplace_back(reinterpret_cast<const char*>(bytes.data()) + off[i], off[i + 1] - off[i]);
  }
  return out;
}

// Independent model of TFLite's requantization (written from the definitions, not
// from lib/): QuantizeMultiplier as frexp + round to Q0.31, then the default
// "double rounding" MultiplyByQuantizedMultiplier (left shift, rounding doubling
// high multiply, rounding right shift with ties away from zero).
inline void RefQuantizeMultiplier(double m, int32_t* q, int* shift) {
  if (m == 0) {
    *q = 0;
    *shift = 0;
    return;
  }
  const double f = std::frexp(m, shift);
  int64_t fixed = static_cast<int64_t>(std::round(f * 2147483648.0));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    fixed = 0;
  }
  *q = static_cast<int32_t>(fixed);
}

inline int32_t RefMultiply(int32_t x, int32_t q, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const int64_t a = static_cast<int64_t>(x) * (int64_t{1} << left);
  const int64_t ab = a * q;
  // Doubling high multiply rounded half away from zero (gemmlowp's nudge).
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  const int64_t hi = (ab + nudge) / (int64_t{1} << 31);
  if (right == 0) return static_cast<int32_t>(hi);
  // hi / 2^right rounded half away from zero.
  const int64_t div = int64_t{1} << right;
  const int64_t mag = (hi < 0 ? -hi : hi) + div / 2;
  const int64_t r = mag / div;
  return static_cast<int32_t>(hi < 0 ? -r : r);
}

}  // namespace tensor_test
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_KERNELS_TESTING_TENSOR_TEST_UTIL_H_
