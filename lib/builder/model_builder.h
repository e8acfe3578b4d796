// ModelBuilder writes .tflite files from C++ for tests: tensors with shapes, dtypes and
// quantization, constant buffers, builtin operators with options, custom operators,
// several subgraphs, signatures and metadata.
//
// It builds TFLite's object API (tflite::ModelT) and packs it, so a test can also reach
// into model() and break things on purpose (out-of-range indices, bad sizes) to test
// the loader's errors. Builders are cheap, single-threaded value objects.
//
//   ModelBuilder b;
//   int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "in");
//   int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 4}, {1, 2, 3, 4}, "w");
//   int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "out");
//   tflite::AddOptionsT add;
//   b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {out}, Options(add));
//   b.SetInputs({in}); b.SetOutputs({out});
//   std::vector<uint8_t> bytes = b.Build();
#ifndef TFLITE_INSPECT_LIB_BUILDER_MODEL_BUILDER_H_
#define TFLITE_INSPECT_LIB_BUILDER_MODEL_BUILDER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/schema/schema_generated.h"
#include "util/status.h"

namespace tflite_inspect {

struct QuantSpec {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
};

// Options of one operator: a builtin_options and/or builtin_options_2 union.
struct OpOptions {
  tflite::BuiltinOptionsUnion options;
  tflite::BuiltinOptions2Union options_2;
};

// Wraps a *OptionsT value (e.g. tflite::Conv2DOptionsT) for AddOperator. Takes a copy
// and moves it in: flatc's generated Union::Set(T&&) does `new RT(...)` with RT deduced
// from T, which does not compile for a const lvalue (RT would be const).
template <typename T>
OpOptions Options(T value) {
  OpOptions o;
  o.options.Set(std::move(value));
  return o;
}
template <typename T>
OpOptions Options2(T value) {
  OpOptions o;
  o.options_2.Set(std::move(value));
  return o;
}

class ModelBuilder {
 public:
  ModelBuilder();

  // Subgraph 0 exists from the start. New tensors and operators go to the current
  // subgraph (0 until UseSubgraph).
  int AddSubgraph(const std::string& name = "");
  void UseSubgraph(int index) { current_ = index; }
  int current_subgraph() const { return current_; }

  int AddTensor(tflite::TensorType type, std::vector<int32_t> shape,
                const std::string& name = "", const QuantSpec* quant = nullptr);
  // A constant tensor whose buffer holds `bytes` as given (no size check, on purpose).
  int AddConstTensorBytes(tflite::TensorType type, std::vector<int32_t> shape,
                          std::vector<uint8_t> bytes, const std::string& name = "",
                          const QuantSpec* quant = nullptr);
  template <typename T>
  int AddConstTensor(tflite::TensorType type, std::vector<int32_t> shape,
                     const std::vector<T>& values, const std::string& name = "",
                     const QuantSpec* quant = nullptr) {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return AddConstTensorBytes(type, std::move(shape), std::move(bytes), name, quant);
  }
  // A variable tensor (LSTM/SVDF state), optionally with an initial value buffer.
  int AddVariableTensor(tflite::TensorType type, std::vector<int32_t> shape,
                        const std::string& name = "", const QuantSpec* quant = nullptr);

  int AddOperator(tflite::BuiltinOperator op, std::vector<int32_t> inputs,
                  std::vector<int32_t> outputs, OpOptions options = {}, int version = 1);
  int AddCustomOperator(const std::string& custom_name, std::vector<int32_t> inputs,
                        std::vector<int32_t> outputs,
                        std::vector<uint8_t> custom_options = {}, int version = 1);

  void SetInputs(std::vector<int32_t> inputs);
  void SetOutputs(std::vector<int32_t> outputs);

  void AddMetadata(const std::string& name, std::vector<uint8_t> bytes);
  // Writes the "min_runtime_version" metadata as the converter does (NUL-padded to 16).
  void SetMinRuntimeVersion(const std::string& version);
  void AddSignature(const std::string& key, int subgraph,
                    std::vector<std::pair<std::string, uint32_t>> inputs,
                    std::vector<std::pair<std::string, uint32_t>> outputs);
  void SetDescription(const std::string& d) { model_.description = d; }

  // Index of the operator_codes entry for (op, custom name, version), added on demand.
  int OpCodeIndex(int32_t builtin, const std::string& custom_name, int version);
  int AddBuffer(std::vector<uint8_t> bytes);

  // Raw access for tests that need odd or broken models.
  tflite::ModelT& model() { return model_; }
  tflite::SubGraphT& subgraph(int index) { return *model_.subgraphs[index]; }

  // Serializes with the TFL3 file identifier.
  std::vector<uint8_t> Build() const;
  Status WriteFile(const std::string& path) const;

 private:
  tflite::ModelT model_;
  int current_ = 0;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BUILDER_MODEL_BUILDER_H_
