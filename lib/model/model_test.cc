// Tests of Model::LoadFile / LoadBuffer on files (missing, not regular, empty, real
// third-party models), zero-copy buffer access and op code resolution.
#include "model/model.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace {

namespace fs = std::filesystem;

std::string TempPath(const std::string& tag) {
  return "/tmp/tfi_model_test_" + std::to_string(::getpid()) + "_" + tag;
}

ModelBuilder SmallModel() {
  ModelBuilder b;
  int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "in");
  int w = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 4}, {1, 2, 3, 4}, "w");
  int bias = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {3}, {7, 8, 9}, "bias");
  int sum = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "sum");
  int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {sum});
  b.AddOperator(tflite::BuiltinOperator_ADD, {sum, bias}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

TEST_CASE("LoadFile: a missing file is an I/O error naming the path", "[model]") {
  const std::string path = TempPath("does_not_exist.tflite");
  auto r = Model::LoadFile(path);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kIoError);
  CHECK_THAT(r.status().message(), Catch::Contains(path));
}

TEST_CASE("LoadFile: a directory or a device is an I/O error", "[model]") {
  auto r = Model::LoadFile("/tmp");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kIoError);
  CHECK_THAT(r.status().message(), Catch::Contains("'/tmp' is a directory"));

  // A device is no model file (a terminal would wait for typing, /dev/zero never ends);
  // pipes are read whole (mapped_file_test).
  auto dev = Model::LoadFile("/dev/null");
  REQUIRE_FALSE(dev.ok());
  CHECK(dev.status().code() == StatusCode::kIoError);
  CHECK_THAT(dev.status().message(), Catch::Contains("'/dev/null' is a character device, not a model file"));
}

TEST_CASE("LoadFile: an empty file is an invalid model", "[model]") {
  const std::string path = TempPath("empty.tflite");
  { std::ofstream f(path, std::ios::binary | std::ios::trunc); }
  auto r = Model::LoadFile(path);
  std::remove(path.c_str());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidModel);
  CHECK_THAT(r.status().message(), Catch::Contains(path));
  CHECK_THAT(r.status().message(), Catch::Contains("file is 0 bytes, too small"));
}

TEST_CASE("LoadBuffer: null data with a size is an invalid argument", "[model]") {
  auto r = Model::LoadBuffer(nullptr, 16);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  auto empty = Model::LoadBuffer(nullptr, 0);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().code() == StatusCode::kInvalidModel);
}

TEST_CASE("LoadFile: every real model under shared/models loads", "[model][real]") {
  const fs::path root = fs::path(TFI_SHARED_DIR) / "models";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    WARN("skipped: no third-party models at " << root.string()
                                              << " (TFI_SHARED_DIR has no models/ folder)");
    return;
  }
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".tflite") files.push_back(it->path());
  }
  REQUIRE_FALSE(ec);
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    WARN("skipped: " << root.string() << " holds no .tflite files");
    return;
  }

  bool saw_person_detect = false;
  for (const fs::path& file : files) {
    INFO("model: " << file.string());
    auto r = Model::LoadFile(file.string());
    INFO("status: " << r.status().message());
    REQUIRE(r.ok());
    const Model& m = *r.value();
    CHECK(m.source() == file.string());
    CHECK(m.size() == fs::file_size(file));
    CHECK(m.fb()->subgraphs()->size() > 0);

    if (file.filename() == "person_detect.tflite") {
      // Its per-channel scales sit on rank-1 bias tensors with quantized_dimension 3;
      // TFLite's InterpreterBuilder refuses those, the bytes are still fine.
      saw_person_detect = true;
      CHECK(m.refusals().size() == 14);
      for (const std::string& why : m.refusals()) {
        CHECK_THAT(why, Catch::Contains("quantized_dimension must be in range [0, 1). Was 3."));
      }
    } else {
      CHECK(m.refusals().empty());
    }

    // Every constant buffer points into the mapping (zero-copy).
    const uint32_t num_buffers = m.fb()->buffers() ? m.fb()->buffers()->size() : 0;
    for (uint32_t i = 0; i < num_buffers; ++i) {
      BufferView b = m.buffer(i);
      if (b.empty()) continue;
      CHECK(b.data >= m.bytes());
      CHECK(b.data + b.size <= m.bytes() + m.size());
    }
  }
  if (!saw_person_detect) WARN("person_detect.tflite not found under " << root.string());
}

TEST_CASE("Model: constant buffers are used in place (zero-copy)", "[model]") {
  std::vector<uint8_t> bytes = SmallModel().Build();
  auto r = Model::LoadBuffer(bytes.data(), bytes.size());
  REQUIRE(r.ok());
  const Model& m = *r.value();
  CHECK(m.bytes() == bytes.data());
  CHECK(m.size() == bytes.size());
  const uint8_t* begin = m.bytes();
  const uint8_t* end = m.bytes() + m.size();
  for (uint32_t i = 1; i < m.fb()->buffers()->size(); ++i) {
    BufferView b = m.buffer(i);
    REQUIRE_FALSE(b.empty());
    CHECK_FALSE(b.external);
    CHECK(b.data >= begin);
    CHECK(b.data + b.size <= end);
  }
  CHECK(m.buffer(1).size == 16);
  CHECK(m.buffer(2).size == 12);
  int32_t bias[3];
  std::memcpy(bias, m.buffer(2).data, sizeof(bias));
  CHECK(bias[2] == 9);
  // Out of range or the sentinel: an empty view, not a crash.
  CHECK(m.buffer(0).empty());
  CHECK(m.buffer(1000).empty());
  CHECK(m.buffer(1000).data == nullptr);
}

TEST_CASE("Model: external buffers point into the file", "[model]") {
  ModelBuilder b;
  int t = b.AddTensor(tflite::TensorType_UINT8, {8}, "ext");
  int buf = b.AddBuffer({});
  b.subgraph(0).tensors[t]->buffer = buf;
  // Any bytes inside the file will do for a uint8[8] tensor.
  b.model().buffers[buf]->offset = 16;
  b.model().buffers[buf]->size = 8;
  b.SetInputs({t});
  b.SetOutputs({t});
  std::vector<uint8_t> bytes = b.Build();
  auto r = Model::LoadBuffer(bytes.data(), bytes.size());
  INFO(r.status().message());
  REQUIRE(r.ok());
  BufferView v = r.value()->buffer(buf);
  CHECK(v.external);
  CHECK(v.data == bytes.data() + 16);
  CHECK(v.size == 8);
}

TEST_CASE("Model: op codes resolve as max(deprecated_builtin_code, builtin_code)",
          "[model]") {
  // Built by hand, as an old converter wrote it: only the int8 field is set.
  tflite::ModelT mt;
  mt.version = 3;
  mt.buffers.push_back(std::make_unique<tflite::BufferT>());
  auto old_style = std::make_unique<tflite::OperatorCodeT>();
  old_style->deprecated_builtin_code = tflite::BuiltinOperator_CONV_2D;
  old_style->builtin_code = tflite::BuiltinOperator_ADD;  // 0: not written by old converters
  old_style->version = 2;
  mt.operator_codes.push_back(std::move(old_style));
  // A new converter with a code above 127: placeholder in the int8 field.
  auto big = std::make_unique<tflite::OperatorCodeT>();
  big->deprecated_builtin_code = tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES;
  big->builtin_code = tflite::BuiltinOperator_GELU;
  mt.operator_codes.push_back(std::move(big));
  // A new converter with a small code: both fields agree.
  auto both = std::make_unique<tflite::OperatorCodeT>();
  both->deprecated_builtin_code = tflite::BuiltinOperator_RELU;
  both->builtin_code = tflite::BuiltinOperator_RELU;
  mt.operator_codes.push_back(std::move(both));

  auto sg = std::make_unique<tflite::SubGraphT>();
  for (int i = 0; i < 4; ++i) {
    auto tensor = std::make_unique<tflite::TensorT>();
    tensor->type = tflite::TensorType_FLOAT32;
    tensor->shape = {1, 4, 4, 1};
    tensor->name = "x" + std::to_string(i);
    sg->tensors.push_back(std::move(tensor));
  }
  for (uint32_t i = 0; i < 3; ++i) {
    auto op = std::make_unique<tflite::OperatorT>();
    op->opcode_index = i;
    op->inputs = {static_cast<int32_t>(i)};
    op->outputs = {static_cast<int32_t>(i + 1)};
    sg->operators.push_back(std::move(op));
  }
  sg->inputs = {0};
  sg->outputs = {3};
  mt.subgraphs.push_back(std::move(sg));

  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &mt));
  std::vector<uint8_t> bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  auto r = Model::LoadBuffer(bytes.data(), bytes.size());
  INFO(r.status().message());
  REQUIRE(r.ok());
  const Model& m = *r.value();
  REQUIRE(m.op_codes().size() == 3);
  CHECK(m.op_codes()[0].builtin == tflite::BuiltinOperator_CONV_2D);
  CHECK(m.op_codes()[0].version == 2);
  CHECK(m.op_code_of(0, 0).name() == "CONV_2D");
  CHECK(m.op_codes()[1].builtin == tflite::BuiltinOperator_GELU);
  CHECK(m.op_codes()[2].builtin == tflite::BuiltinOperator_RELU);
  CHECK(m.op_code_of(0, 2).display() == "RELU v1");
}

TEST_CASE("Model: codes this schema does not know get a placeholder name", "[model]") {
  ModelBuilder b;
  int t = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "t");
  b.AddOperator(static_cast<tflite::BuiltinOperator>(5000), {t}, {t});
  std::vector<uint8_t> bytes = b.Build();
  auto r = Model::LoadBuffer(bytes.data(), bytes.size());
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r.value()->op_codes()[0].builtin == 5000);
  CHECK(r.value()->op_codes()[0].name() == "UNKNOWN_BUILTIN_OP(5000)");
}

}  // namespace
}  // namespace tflite_inspect
