#include "builder/model_builder.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace tflite_inspect {

ModelBuilder::ModelBuilder() {
  model_.version = 3;
  model_.description = "tflite-inspect ModelBuilder";
  model_.buffers.push_back(std::make_unique<tflite::BufferT>());  // buffer 0: empty sentinel
  AddSubgraph("main");
}

int ModelBuilder::AddSubgraph(const std::string& name) {
  auto sg = std::make_unique<tflite::SubGraphT>();
  sg->name = name;
  model_.subgraphs.push_back(std::move(sg));
  return static_cast<int>(model_.subgraphs.size()) - 1;
}

int ModelBuilder::AddBuffer(std::vector<uint8_t> bytes) {
  auto b = std::make_unique<tflite::BufferT>();
  b->data = std::move(bytes);
  model_.buffers.push_back(std::move(b));
  return static_cast<int>(model_.buffers.size()) - 1;
}

int ModelBuilder::AddTensor(tflite::TensorType type, std::vector<int32_t> shape,
                            const std::string& name, const QuantSpec* quant) {
  auto t = std::make_unique<tflite::TensorT>();
  t->type = type;
  t->shape = std::move(shape);
  t->name = name;
  t->buffer = 0;
  if (quant != nullptr) {
    t->quantization = std::make_unique<tflite::QuantizationParametersT>();
    t->quantization->scale = quant->scale;
    t->quantization->zero_point = quant->zero_point;
    t->quantization->quantized_dimension = quant->quantized_dimension;
  }
  auto& tensors = subgraph(current_).tensors;
  tensors.push_back(std::move(t));
  return static_cast<int>(tensors.size()) - 1;
}

int ModelBuilder::AddConstTensorBytes(tflite::TensorType type, std::vector<int32_t> shape,
                                      std::vector<uint8_t> bytes, const std::string& name,
                                      const QuantSpec* quant) {
  int t = AddTensor(type, std::move(shape), name, quant);
  subgraph(current_).tensors[t]->buffer = AddBuffer(std::move(bytes));
  return t;
}

int ModelBuilder::AddVariableTensor(tflite::TensorType type, std::vector<int32_t> shape,
                                    const std::string& name, const QuantSpec* quant) {
  int t = AddTensor(type, std::move(shape), name, quant);
  subgraph(current_).tensors[t]->is_variable = true;
  return t;
}

int ModelBuilder::OpCodeIndex(int32_t builtin, const std::string& custom_name, int version) {
  auto& codes = model_.operator_codes;
  for (size_t i = 0; i < codes.size(); ++i) {
    const auto& c = *codes[i];
    if (c.builtin_code == builtin && c.custom_code == custom_name && c.version == version) {
      return static_cast<int>(i);
    }
  }
  auto c = std::make_unique<tflite::OperatorCodeT>();
  c->builtin_code = static_cast<tflite::BuiltinOperator>(builtin);
  // Converters write the old int8 field too, capped at the placeholder for op codes
  // above 127, so that old runtimes still read small codes.
  c->deprecated_builtin_code = static_cast<int8_t>(
      std::min<int32_t>(builtin, tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES));
  c->custom_code = custom_name;
  c->version = version;
  codes.push_back(std::move(c));
  return static_cast<int>(codes.size()) - 1;
}

int ModelBuilder::AddOperator(tflite::BuiltinOperator op, std::vector<int32_t> inputs,
                              std::vector<int32_t> outputs, OpOptions options, int version) {
  auto o = std::make_unique<tflite::OperatorT>();
  o->opcode_index = OpCodeIndex(op, "", version);
  o->inputs = std::move(inputs);
  o->outputs = std::move(outputs);
  o->builtin_options = std::move(options.options);
  o->builtin_options_2 = std::move(options.options_2);
  auto& ops = subgraph(current_).operators;
  ops.push_back(std::move(o));
  return static_cast<int>(ops.size()) - 1;
}

int ModelBuilder::AddCustomOperator(const std::string& custom_name, std::vector<int32_t> inputs,
                                    std::vector<int32_t> outputs,
                                    std::vector<uint8_t> custom_options, int version) {
  auto o = std::make_unique<tflite::OperatorT>();
  o->opcode_index = OpCodeIndex(tflite::BuiltinOperator_CUSTOM, custom_name, version);
  o->inputs = std::move(inputs);
  o->outputs = std::move(outputs);
  o->custom_options = std::move(custom_options);
  auto& ops = subgraph(current_).operators;
  ops.push_back(std::move(o));
  return static_cast<int>(ops.size()) - 1;
}

void ModelBuilder::SetInputs(std::vector<int32_t> inputs) {
  subgraph(current_).inputs = std::move(inputs);
}
void ModelBuilder::SetOutputs(std::vector<int32_t> outputs) {
  subgraph(current_).outputs = std::move(outputs);
}

void ModelBuilder::AddMetadata(const std::string& name, std::vector<uint8_t> bytes) {
  auto md = std::make_unique<tflite::MetadataT>();
  md->name = name;
  md->buffer = AddBuffer(std::move(bytes));
  model_.metadata.push_back(std::move(md));
}

void ModelBuilder::SetMinRuntimeVersion(const std::string& version) {
  std::vector<uint8_t> bytes(std::max<size_t>(16, version.size() + 1), 0);
  std::copy(version.begin(), version.end(), bytes.begin());
  AddMetadata("min_runtime_version", std::move(bytes));
}

void ModelBuilder::AddSignature(const std::string& key, int subgraph_index,
                                std::vector<std::pair<std::string, uint32_t>> inputs,
                                std::vector<std::pair<std::string, uint32_t>> outputs) {
  auto sig = std::make_unique<tflite::SignatureDefT>();
  sig->signature_key = key;
  sig->subgraph_index = subgraph_index;
  for (auto& [name, index] : inputs) {
    auto m = std::make_unique<tflite::TensorMapT>();
    m->name = name;
    m->tensor_index = index;
    sig->inputs.push_back(std::move(m));
  }
  for (auto& [name, index] : outputs) {
    auto m = std::make_unique<tflite::TensorMapT>();
    m->name = name;
    m->tensor_index = index;
    sig->outputs.push_back(std::move(m));
  }
  model_.signature_defs.push_back(std::move(sig));
}

std::vector<uint8_t> ModelBuilder::Build() const {
  flatbuffers::FlatBufferBuilder fbb;
  auto root = tflite::Model::Pack(fbb, &model_);
  tflite::FinishModelBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

Status ModelBuilder::WriteFile(const std::string& path) const {
  std::vector<uint8_t> bytes = Build();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return IoError("cannot create '" + path + "'");
  size_t n = std::fwrite(bytes.data(), 1, bytes.size(), f);
  bool ok = std::fclose(f) == 0 && n == bytes.size();
  return ok ? Status::Ok() : IoError("cannot write '" + path + "'");
}

}  // namespace tflite_inspect
