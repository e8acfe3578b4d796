// Tests that ModelBuilder writes models our own loader accepts and that every field it
// sets survives serialization: op code dedupe, large op codes, custom ops, subgraphs,
// signatures, metadata and quantization.
#include "builder/model_builder.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "model/model.h"
#include "model/op_code.h"

namespace tflite_inspect {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;

// Loads `bytes` (which must outlive the model) and fails the test with the loader's
// message when it is refused.
std::unique_ptr<Model> MustLoad(const std::vector<uint8_t>& bytes) {
  auto r = Model::LoadBuffer(bytes.data(), bytes.size());
  INFO(r.status().message());
  REQUIRE(r.ok());
  return std::move(r).value();
}

// The ADD example from model_builder.h; the smallest useful model.
ModelBuilder AddModel() {
  ModelBuilder b;
  int in = b.AddTensor(TensorType_FLOAT32, {1, 4}, "in");
  int w = b.AddConstTensor<float>(TensorType_FLOAT32, {1, 4}, {1, 2, 3, 4}, "w");
  int out = b.AddTensor(TensorType_FLOAT32, {1, 4}, "out");
  tflite::AddOptionsT add;
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {out}, Options(add));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// A file name no other test process uses at the same time.
std::string TempPath(const std::string& tag) {
  static std::atomic<int> counter{0};
  return "/tmp/tfi_builder_test_" + std::to_string(::getpid()) + "_" +
         std::to_string(counter++) + "_" + tag + ".tflite";
}

TEST_CASE("ModelBuilder: the ADD example loads and reads back", "[builder]") {
  ModelBuilder b = AddModel();
  std::vector<uint8_t> bytes = b.Build();
  REQUIRE(tflite::ModelBufferHasIdentifier(bytes.data()));
  auto m = MustLoad(bytes);
  CHECK(m->refusals().empty());
  CHECK(m->fb()->version() == 3);
  CHECK(m->source() == "<buffer>");

  const auto* sg = m->fb()->subgraphs()->Get(0);
  REQUIRE(sg->tensors()->size() == 3);
  CHECK(sg->name()->str() == "main");
  CHECK(sg->tensors()->Get(1)->name()->str() == "w");
  CHECK(sg->inputs()->size() == 1);
  CHECK(sg->inputs()->Get(0) == 0);
  CHECK(sg->outputs()->Get(0) == 2);
  REQUIRE(m->op_codes().size() == 1);
  CHECK(m->op_code_of(0, 0).builtin == tflite::BuiltinOperator_ADD);
  CHECK(sg->operators()->Get(0)->builtin_options_as_AddOptions() != nullptr);

  // Buffer 0 is the empty sentinel; the weights read back as written.
  CHECK(m->buffer(0).empty());
  BufferView w = m->buffer(sg->tensors()->Get(1)->buffer());
  REQUIRE(w.size == 4 * sizeof(float));
  CHECK_FALSE(w.external);
  float values[4];
  std::memcpy(values, w.data, sizeof(values));
  CHECK(values[0] == 1.0f);
  CHECK(values[3] == 4.0f);
}

TEST_CASE("ModelBuilder: op codes dedupe per (op, custom name, version)", "[builder]") {
  ModelBuilder b;
  int t = b.AddTensor(TensorType_FLOAT32, {4}, "t");
  int a = b.OpCodeIndex(tflite::BuiltinOperator_ADD, "", 1);
  CHECK(b.OpCodeIndex(tflite::BuiltinOperator_ADD, "", 1) == a);
  int a2 = b.OpCodeIndex(tflite::BuiltinOperator_ADD, "", 2);
  CHECK(a2 != a);
  int c = b.OpCodeIndex(tflite::BuiltinOperator_CUSTOM, "Foo", 1);
  CHECK(b.OpCodeIndex(tflite::BuiltinOperator_CUSTOM, "Bar", 1) != c);
  CHECK(b.OpCodeIndex(tflite::BuiltinOperator_CUSTOM, "Foo", 1) == c);
  CHECK(b.model().operator_codes.size() == 4);

  // Operators reuse those entries instead of adding new ones.
  b.AddOperator(tflite::BuiltinOperator_ADD, {t, t}, {t});
  b.AddOperator(tflite::BuiltinOperator_ADD, {t, t}, {t});
  b.AddOperator(tflite::BuiltinOperator_ADD, {t, t}, {t}, {}, 2);
  b.AddCustomOperator("Foo", {t}, {t});
  b.AddCustomOperator("Foo", {t}, {t});
  CHECK(b.model().operator_codes.size() == 4);
  CHECK(b.subgraph(0).operators[0]->opcode_index == static_cast<uint32_t>(a));
  CHECK(b.subgraph(0).operators[1]->opcode_index == static_cast<uint32_t>(a));
  CHECK(b.subgraph(0).operators[2]->opcode_index == static_cast<uint32_t>(a2));
  CHECK(b.subgraph(0).operators[4]->opcode_index == static_cast<uint32_t>(c));

  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);
  REQUIRE(m->op_codes().size() == 4);
  CHECK(m->op_code_of(0, 2).version == 2);
  CHECK(m->op_code_of(0, 3).custom_name == "Foo");
}

TEST_CASE("ModelBuilder: op codes above 127 use the placeholder in the int8 field",
          "[builder]") {
  ModelBuilder b;
  int x = b.AddTensor(TensorType_FLOAT32, {1, 8}, "x");
  int y = b.AddTensor(TensorType_FLOAT32, {1, 8}, "y");
  int z = b.AddTensor(TensorType_FLOAT32, {1, 8}, "z");
  b.AddOperator(tflite::BuiltinOperator_GELU, {x}, {y}, Options(tflite::GeluOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_CUMSUM, {y}, {z});  // 128: the first one over
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x}, {y});  // small codes stay as is
  b.SetInputs({x});
  b.SetOutputs({z});
  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);

  const auto* codes = m->fb()->operator_codes();
  REQUIRE(codes->size() == 3);
  CHECK(codes->Get(0)->deprecated_builtin_code() ==
        tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES);
  CHECK(codes->Get(0)->builtin_code() == tflite::BuiltinOperator_GELU);
  CHECK(codes->Get(1)->deprecated_builtin_code() == 127);
  CHECK(codes->Get(1)->builtin_code() == tflite::BuiltinOperator_CUMSUM);
  CHECK(codes->Get(2)->deprecated_builtin_code() == tflite::BuiltinOperator_CONV_2D);
  CHECK(codes->Get(2)->builtin_code() == tflite::BuiltinOperator_CONV_2D);

  // TFLite's resolution (max of both fields) yields the real code, not the placeholder.
  CHECK(ResolveOpCode(codes->Get(0)).builtin == tflite::BuiltinOperator_GELU);
  CHECK(ResolveOpCode(codes->Get(1)).builtin == tflite::BuiltinOperator_CUMSUM);
  CHECK(m->op_codes()[0].builtin == tflite::BuiltinOperator_GELU);
  CHECK(m->op_codes()[0].name() == "GELU");
  CHECK(m->op_code_of(0, 1).display() == "CUMSUM v1");
  CHECK(m->op_code_of(0, 2).builtin == tflite::BuiltinOperator_CONV_2D);
}

TEST_CASE("ModelBuilder: custom ops keep custom_code, options and version", "[builder]") {
  ModelBuilder b;
  int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  int y = b.AddTensor(TensorType_FLOAT32, {2}, "y");
  b.AddCustomOperator("MyOp", {x}, {y}, {1, 2, 3}, 3);
  b.SetInputs({x});
  b.SetOutputs({y});
  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);

  const auto* code = m->fb()->operator_codes()->Get(0);
  REQUIRE(code->custom_code() != nullptr);
  CHECK(code->custom_code()->str() == "MyOp");
  CHECK(code->version() == 3);
  CHECK(code->builtin_code() == tflite::BuiltinOperator_CUSTOM);
  const OpCode& oc = m->op_code_of(0, 0);
  CHECK(oc.is_custom());
  CHECK(oc.custom_name == "MyOp");
  CHECK(oc.version == 3);
  CHECK(oc.display() == "MyOp v3 (custom)");
  const auto* op = m->fb()->subgraphs()->Get(0)->operators()->Get(0);
  REQUIRE(op->custom_options() != nullptr);
  CHECK(std::vector<uint8_t>(op->custom_options()->begin(), op->custom_options()->end()) ==
        std::vector<uint8_t>{1, 2, 3});
}

TEST_CASE("ModelBuilder: several subgraphs with control flow", "[builder]") {
  ModelBuilder b;
  // Subgraph 0 calls IF with then/else branches in subgraphs 1 and 2.
  int cond = b.AddTensor(tflite::TensorType_BOOL, {}, "cond");
  int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  int y = b.AddTensor(TensorType_FLOAT32, {2}, "y");
  tflite::IfOptionsT if_opts;
  if_opts.then_subgraph_index = 1;
  if_opts.else_subgraph_index = 2;
  b.AddOperator(tflite::BuiltinOperator_IF, {cond, x}, {y}, Options(if_opts));
  b.SetInputs({cond, x});
  b.SetOutputs({y});

  for (const char* name : {"then", "else"}) {
    int s = b.AddSubgraph(name);
    b.UseSubgraph(s);
    CHECK(b.current_subgraph() == s);
    int a = b.AddTensor(TensorType_FLOAT32, {2}, "a");
    int r = b.AddTensor(TensorType_FLOAT32, {2}, "r");
    b.AddOperator(std::string(name) == "then" ? tflite::BuiltinOperator_RELU
                                              : tflite::BuiltinOperator_TANH,
                  {a}, {r});
    b.SetInputs({a});
    b.SetOutputs({r});
  }
  b.UseSubgraph(0);

  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);
  const auto* sgs = m->fb()->subgraphs();
  REQUIRE(sgs->size() == 3);
  CHECK(sgs->Get(1)->name()->str() == "then");
  CHECK(sgs->Get(2)->name()->str() == "else");
  CHECK(sgs->Get(0)->tensors()->size() == 3);
  CHECK(sgs->Get(1)->tensors()->size() == 2);
  CHECK(m->op_code_of(1, 0).builtin == tflite::BuiltinOperator_RELU);
  CHECK(m->op_code_of(2, 0).builtin == tflite::BuiltinOperator_TANH);
  const auto* opts = sgs->Get(0)->operators()->Get(0)->builtin_options_as_IfOptions();
  REQUIRE(opts != nullptr);
  CHECK(opts->then_subgraph_index() == 1);
  CHECK(opts->else_subgraph_index() == 2);
}

TEST_CASE("ModelBuilder: signature defs", "[builder]") {
  ModelBuilder b = AddModel();
  b.AddSignature("serving_default", 0, {{"in", 0}}, {{"out", 2}});
  int s = b.AddSubgraph("second");
  b.UseSubgraph(s);
  int t = b.AddTensor(TensorType_FLOAT32, {1}, "t");
  b.SetInputs({t});
  b.SetOutputs({t});
  b.AddSignature("other", s, {{"t_in", 0}}, {{"t_out", 0}});

  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);
  const auto* sigs = m->fb()->signature_defs();
  REQUIRE(sigs != nullptr);
  REQUIRE(sigs->size() == 2);
  const auto* sig = sigs->Get(0);
  CHECK(sig->signature_key()->str() == "serving_default");
  CHECK(sig->subgraph_index() == 0);
  REQUIRE(sig->inputs()->size() == 1);
  CHECK(sig->inputs()->Get(0)->name()->str() == "in");
  CHECK(sig->inputs()->Get(0)->tensor_index() == 0);
  CHECK(sig->outputs()->Get(0)->name()->str() == "out");
  CHECK(sig->outputs()->Get(0)->tensor_index() == 2);
  CHECK(sigs->Get(1)->signature_key()->str() == "other");
  CHECK(sigs->Get(1)->subgraph_index() == 1);
}

TEST_CASE("ModelBuilder: min_runtime_version and metadata read back", "[builder]") {
  SECTION("absent unless set") {
    std::vector<uint8_t> bytes = AddModel().Build();
    auto m = MustLoad(bytes);
    CHECK_FALSE(m->min_runtime_version().has_value());
  }
  SECTION("short version, NUL-padded to 16 bytes") {
    ModelBuilder b = AddModel();
    b.SetMinRuntimeVersion("1.14.0");
    b.AddMetadata("extra", {9, 8, 7});
    std::vector<uint8_t> bytes = b.Build();
    auto m = MustLoad(bytes);
    REQUIRE(m->min_runtime_version().has_value());
    CHECK(*m->min_runtime_version() == "1.14.0");
    const auto* md = m->fb()->metadata();
    REQUIRE(md->size() == 2);
    CHECK(md->Get(0)->name()->str() == "min_runtime_version");
    CHECK(m->buffer(md->Get(0)->buffer()).size == 16);
    CHECK(md->Get(1)->name()->str() == "extra");
    CHECK(m->buffer(md->Get(1)->buffer()).size == 3);
  }
  SECTION("a version longer than the padding") {
    ModelBuilder b = AddModel();
    b.SetMinRuntimeVersion("2.16.0-rc1-extra-long");
    std::vector<uint8_t> bytes = b.Build();
    auto m = MustLoad(bytes);
    REQUIRE(m->min_runtime_version().has_value());
    CHECK(*m->min_runtime_version() == "2.16.0-rc1-extra-long");
  }
}

TEST_CASE("ModelBuilder: quantization round-trips", "[builder]") {
  ModelBuilder b;
  QuantSpec per_tensor{{0.5f}, {-3}, 0};
  QuantSpec per_channel{{0.1f, 0.2f, 0.3f}, {0, 1, 2}, 3};
  int in = b.AddTensor(TensorType_INT8, {1, 2, 2, 3}, "in", &per_tensor);
  std::vector<int8_t> filter(3 * 1 * 1 * 3, 1);
  int w = b.AddConstTensor<int8_t>(TensorType_INT8, {3, 1, 1, 3}, filter, "w", &per_channel);
  QuantSpec per_channel_0{{0.1f, 0.2f, 0.3f}, {0, 0, 0}, 0};
  int w0 = b.AddConstTensor<int8_t>(TensorType_INT8, {3, 1, 1, 3}, filter, "w0", &per_channel_0);
  int out = b.AddTensor(TensorType_INT8, {1, 2, 2, 3}, "out", &per_tensor);
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, w, -1}, {out},
                Options(tflite::Conv2DOptionsT{}));
  b.SetInputs({in});
  b.SetOutputs({out});
  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);
  CHECK(m->refusals().empty());

  const auto* tensors = m->fb()->subgraphs()->Get(0)->tensors();
  const auto* q = tensors->Get(in)->quantization();
  REQUIRE(q != nullptr);
  REQUIRE(q->scale()->size() == 1);
  CHECK(q->scale()->Get(0) == 0.5f);
  CHECK(q->zero_point()->Get(0) == -3);
  CHECK(q->quantized_dimension() == 0);

  q = tensors->Get(w)->quantization();
  REQUIRE(q != nullptr);
  REQUIRE(q->scale()->size() == 3);
  CHECK(q->scale()->Get(2) == 0.3f);
  REQUIRE(q->zero_point()->size() == 3);
  CHECK(q->zero_point()->Get(1) == 1);
  CHECK(q->quantized_dimension() == 3);
  CHECK(tensors->Get(w0)->quantization()->quantized_dimension() == 0);

  // Tensors without a QuantSpec carry no scales.
  ModelBuilder plain = AddModel();
  std::vector<uint8_t> plain_bytes = plain.Build();
  auto pm = MustLoad(plain_bytes);
  const auto* pq = pm->fb()->subgraphs()->Get(0)->tensors()->Get(0)->quantization();
  CHECK((pq == nullptr || pq->scale() == nullptr || pq->scale()->size() == 0));
}

TEST_CASE("ModelBuilder: variable tensors", "[builder]") {
  ModelBuilder b;
  int v = b.AddVariableTensor(TensorType_FLOAT32, {1, 8}, "state");
  b.SetInputs({v});
  b.SetOutputs({v});
  std::vector<uint8_t> bytes = b.Build();
  auto m = MustLoad(bytes);
  CHECK(m->fb()->subgraphs()->Get(0)->tensors()->Get(v)->is_variable());
}

TEST_CASE("ModelBuilder: WriteFile output loads with LoadFile", "[builder]") {
  ModelBuilder b = AddModel();
  b.SetMinRuntimeVersion("2.3.0");
  const std::string path = TempPath("write");
  REQUIRE(b.WriteFile(path).ok());

  {
    auto r = Model::LoadFile(path);
    INFO(r.status().message());
    REQUIRE(r.ok());
    const Model& m = *r.value();
    CHECK(m.source() == path);
    CHECK(m.size() == b.Build().size());
    CHECK(m.fb()->subgraphs()->Get(0)->operators()->size() == 1);
    CHECK(m.min_runtime_version().value_or("") == "2.3.0");
    // The mapping is ours: constant data points into it.
    BufferView w = m.buffer(1);
    CHECK(w.data >= m.bytes());
    CHECK(w.data + w.size <= m.bytes() + m.size());
  }
  std::remove(path.c_str());

  // A folder that does not exist is an I/O error naming the path.
  const std::string bad = "/tmp/tfi-no-such-dir-" + std::to_string(::getpid()) + "/m.tflite";
  Status st = b.WriteFile(bad);
  CHECK(st.code() == StatusCode::kIoError);
  CHECK_THAT(st.message(), Catch::Contains(bad));
}

}  // namespace
}  // namespace tflite_inspect
