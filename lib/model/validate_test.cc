// Malformed models: each must be refused with kInvalidModel and a message that says
// what is wrong and where, never crash. Models come from ModelBuilder, broken through
// its object API (model()) or by editing the serialized bytes.
#include "model/validate.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "model/model.h"

namespace tflite_inspect {
namespace {

using tflite::TensorType_FLOAT32;

// in (0) + w (1, constant in buffer 1) -> out (2). Buffers: 0 (sentinel), 1 (w).
ModelBuilder AddModel() {
  ModelBuilder b;
  int in = b.AddTensor(TensorType_FLOAT32, {1, 4}, "in");
  int w = b.AddConstTensor<float>(TensorType_FLOAT32, {1, 4}, {1, 2, 3, 4}, "w");
  int out = b.AddTensor(TensorType_FLOAT32, {1, 4}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, w}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

tflite::OperatorT& Op(ModelBuilder& b, int subgraph = 0, int op = 0) {
  return *b.subgraph(subgraph).operators[op];
}
tflite::TensorT& Tensor(ModelBuilder& b, int index, int subgraph = 0) {
  return *b.subgraph(subgraph).tensors[index];
}

Result<std::unique_ptr<Model>> Load(const std::vector<uint8_t>& bytes) {
  return Model::LoadBuffer(bytes.data(), bytes.size());
}

// The loader must refuse `bytes` as an invalid model, with `text` in its message.
void ExpectInvalid(const std::vector<uint8_t>& bytes, const std::string& text) {
  auto r = Load(bytes);
  INFO("message: " << r.status().message());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidModel);
  CHECK_THAT(r.status().message(), Catch::StartsWith("<buffer>: "));
  CHECK_THAT(r.status().message(), Catch::Contains(text));
}
void ExpectInvalid(const ModelBuilder& b, const std::string& text) {
  ExpectInvalid(b.Build(), text);
}

// The loader must accept `bytes`; returns the model (valid while `bytes` lives).
std::unique_ptr<Model> ExpectValid(const std::vector<uint8_t>& bytes) {
  auto r = Load(bytes);
  INFO("message: " << r.status().message());
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::vector<uint8_t> FloatBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// --- Container: size, identifier, flatbuffer -----------------------------------------

TEST_CASE("validate: truncated files fail cleanly", "[validate]") {
  const std::vector<uint8_t> full = AddModel().Build();
  REQUIRE(full.size() > 64);
  ExpectValid(full);

  for (size_t n : {size_t{0}, size_t{1}, size_t{4}, size_t{7}}) {
    CAPTURE(n);
    std::vector<uint8_t> cut(full.begin(), full.begin() + n);
    ExpectInvalid(cut, "file is " + std::to_string(n) +
                           " bytes, too small for a TFLite model (a flatbuffer needs at least 8)");
  }
  for (size_t n : {size_t{8}, size_t{12}, full.size() / 2, full.size() - 16}) {
    CAPTURE(n);
    std::vector<uint8_t> cut(full.begin(), full.begin() + n);
    ExpectInvalid(cut, "the model is not a valid flatbuffer (" + std::to_string(n) + " bytes)");
  }

  // The last bytes of this model belong to a table (no trailing padding), so losing
  // even one of them must be caught by the verifier.
  std::vector<uint8_t> minus_one(full.begin(), full.end() - 1);
  ExpectInvalid(minus_one, "the model is not a valid flatbuffer (" +
                               std::to_string(full.size() - 1) +
                               " bytes): an offset, vector or string points outside the file "
                               "or is misaligned; the file may be truncated or corrupt");

  // Every proper prefix, each in an exactly-sized allocation: refused, never a crash.
  for (size_t n = 0; n < full.size(); ++n) {
    CAPTURE(n);
    std::vector<uint8_t> cut(full.begin(), full.begin() + n);
    auto rc = Load(cut);
    REQUIRE_FALSE(rc.ok());
    CHECK(rc.status().code() == StatusCode::kInvalidModel);
    CHECK_FALSE(rc.status().message().empty());
  }
}

TEST_CASE("validate: wrong file identifier", "[validate]") {
  std::vector<uint8_t> bytes = AddModel().Build();
  std::memcpy(bytes.data() + 4, "XXXX", 4);
  auto r = Load(bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidModel);
  CHECK(r.status().message() ==
        "<buffer>: Model provided has model identifier 'XXXX', should be 'TFL3'");

  // Unprintable bytes are shown as '?'.
  bytes[4] = 0;
  bytes[5] = 0xff;
  ExpectInvalid(bytes, "has model identifier '??XX', should be 'TFL3'");
}

TEST_CASE("validate: corrupt root offset is not a valid flatbuffer", "[validate]") {
  std::vector<uint8_t> bytes = AddModel().Build();
  const uint32_t root = 0x7ffffff0;
  std::memcpy(bytes.data(), &root, 4);
  ExpectInvalid(bytes, "not a valid flatbuffer");
}

TEST_CASE("validate: no subgraphs", "[validate]") {
  ModelBuilder b = AddModel();
  b.model().subgraphs.clear();
  ExpectInvalid(b, "<buffer>: model: No subgraph in the model.");
}

TEST_CASE("validate: schema version other than 3 is a refusal, not an error",
          "[validate]") {
  ModelBuilder b = AddModel();
  b.model().version = 2;
  std::vector<uint8_t> bytes = b.Build();
  auto m = ExpectValid(bytes);
  REQUIRE(m->refusals().size() == 1);
  CHECK(m->refusals()[0] == "Model provided is schema version 2 not equal to supported version 3.");
}

// --- Operator codes -----------------------------------------------------------------

TEST_CASE("validate: operator codes", "[validate]") {
  SECTION("CUSTOM without custom_code") {
    ModelBuilder b = AddModel();
    int t = 0;
    b.AddCustomOperator("", {t}, {t});  // an empty name is packed as no string at all
    ExpectInvalid(b, "operator code 1: Operator with CUSTOM builtin_code has no custom_code.");
  }
  SECTION("version 0") {
    ModelBuilder b = AddModel();
    b.model().operator_codes[0]->version = 0;
    ExpectInvalid(b, "operator code 0 (ADD): version 0 is not a valid op version (must be >= 1)");
  }
  SECTION("negative version") {
    ModelBuilder b = AddModel();
    b.model().operator_codes[0]->version = -3;
    ExpectInvalid(b, "operator code 0 (ADD): version -3 is not a valid op version");
  }
  SECTION("negative builtin code") {
    ModelBuilder b = AddModel();
    b.model().operator_codes[0]->deprecated_builtin_code = -5;
    ExpectInvalid(b, "operator code 0: negative builtin code (builtin_code 0, "
                     "deprecated_builtin_code -5)");
  }
}

TEST_CASE("validate: opcode_index out of range", "[validate]") {
  ModelBuilder b = AddModel();
  Op(b).opcode_index = 7;
  ExpectInvalid(b, "<buffer>: subgraph 0, operator 0: opcode_index 7 is out of range: the "
                   "model has 1 operator codes");
}

// --- Tensor indices -----------------------------------------------------------------

TEST_CASE("validate: operator tensor indices", "[validate]") {
  SECTION("input out of range") {
    ModelBuilder b = AddModel();
    Op(b).inputs[1] = 57;
    auto r = Load(b.Build());
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidModel);
    CHECK(r.status().message() == "<buffer>: subgraph 0, operator 0 (ADD v1): input #1 refers "
                                  "to tensor 57, but the subgraph has 3 tensors");
  }
  SECTION("input equal to the tensor count") {
    ModelBuilder b = AddModel();
    Op(b).inputs[0] = 3;
    ExpectInvalid(b, "subgraph 0, operator 0 (ADD v1): input #0 refers to tensor 3, but the "
                     "subgraph has 3 tensors");
  }
  SECTION("negative input other than -1") {
    ModelBuilder b = AddModel();
    Op(b).inputs[1] = -2;
    ExpectInvalid(b, "input #1 refers to tensor -2, but the subgraph has 3 tensors");
  }
  SECTION("output out of range") {
    ModelBuilder b = AddModel();
    Op(b).outputs[0] = 99;
    ExpectInvalid(b, "subgraph 0, operator 0 (ADD v1): output #0 refers to tensor 99, but the "
                     "subgraph has 3 tensors");
  }
  SECTION("intermediate out of range") {
    ModelBuilder b = AddModel();
    Op(b).intermediates = {2, 4};
    ExpectInvalid(b, "subgraph 0, operator 0 (ADD v1): intermediate #1 refers to tensor 4, "
                     "but the subgraph has 3 tensors");
  }
  SECTION("-1 (optional tensor) is accepted") {
    ModelBuilder b = AddModel();
    Op(b).inputs = {0, -1};
    Op(b).outputs = {2, -1};
    Op(b).intermediates = {-1, 1};
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
  SECTION("errors name the subgraph and the custom op") {
    ModelBuilder b = AddModel();
    int s = b.AddSubgraph("second");
    b.UseSubgraph(s);
    int t = b.AddTensor(TensorType_FLOAT32, {2}, "t");
    b.AddCustomOperator("MyOp", {t}, {t}, {}, 2);
    b.AddCustomOperator("MyOp", {t}, {t + 5}, {}, 2);
    ExpectInvalid(b, "subgraph 1, operator 1 (MyOp v2 (custom)): output #0 refers to tensor 5, "
                     "but the subgraph has 1 tensors");
  }
}

TEST_CASE("validate: subgraph inputs and outputs", "[validate]") {
  SECTION("input out of range") {
    ModelBuilder b = AddModel();
    b.SetInputs({0, 5});
    ExpectInvalid(b, "<buffer>: subgraph 0: input #1 refers to tensor 5, but the subgraph has 3 "
                     "tensors");
  }
  SECTION("output out of range") {
    ModelBuilder b = AddModel();
    b.SetOutputs({3});
    ExpectInvalid(b, "<buffer>: subgraph 0: output #0 refers to tensor 3, but the subgraph has "
                     "3 tensors");
  }
  SECTION("negative output") {
    ModelBuilder b = AddModel();
    b.SetOutputs({-7});
    ExpectInvalid(b, "subgraph 0: output #0 refers to tensor -7");
  }
}

// --- Tensors and buffers ------------------------------------------------------------

TEST_CASE("validate: tensor buffer index out of range", "[validate]") {
  ModelBuilder b = AddModel();
  Tensor(b, 0).buffer = 42;
  ExpectInvalid(b, "<buffer>: subgraph 0, tensor 0 ('in'): refers to buffer 42, but the model "
                   "has 2 buffers");

  // Equal to the count is out of range too.
  ModelBuilder c = AddModel();
  Tensor(c, 2).buffer = 2;
  ExpectInvalid(c, "subgraph 0, tensor 2 ('out'): refers to buffer 2, but the model has 2 "
                   "buffers");
}

TEST_CASE("validate: buffer size must match shape x dtype", "[validate]") {
  SECTION("too small") {
    ModelBuilder b = AddModel();
    b.model().buffers[1]->data.resize(12);
    ExpectInvalid(b, "<buffer>: subgraph 0, tensor 1 ('w'): buffer 1 holds 12 bytes, but shape "
                     "[1,4] of FLOAT32 needs 16 bytes");
  }
  SECTION("too large") {
    ModelBuilder b = AddModel();
    b.model().buffers[1]->data.resize(20);
    ExpectInvalid(b, "subgraph 0, tensor 1 ('w'): buffer 1 holds 20 bytes, but shape [1,4] of "
                     "FLOAT32 needs 16 bytes");
  }
  SECTION("other dtypes") {
    ModelBuilder b;
    b.AddConstTensorBytes(tflite::TensorType_INT16, {2, 3}, std::vector<uint8_t>(6), "i16");
    ExpectInvalid(b, "subgraph 0, tensor 0 ('i16'): buffer 1 holds 6 bytes, but shape [2,3] of "
                     "INT16 needs 12 bytes");
  }
  SECTION("a scalar needs one element") {
    ModelBuilder b;
    b.AddConstTensorBytes(tflite::TensorType_INT32, {}, std::vector<uint8_t>(8), "s");
    ExpectInvalid(b, "buffer 1 holds 8 bytes, but shape [] of INT32 needs 4 bytes");
  }
  SECTION("INT4 packed and unpacked are accepted, other sizes are not") {
    for (size_t n : {size_t{3}, size_t{5}}) {  // 5 values: 3 bytes packed, 5 unpacked
      ModelBuilder b;
      b.AddConstTensorBytes(tflite::TensorType_INT4, {5}, std::vector<uint8_t>(n), "i4");
      std::vector<uint8_t> bytes = b.Build();
      ExpectValid(bytes);
    }
    ModelBuilder b;
    b.AddConstTensorBytes(tflite::TensorType_INT4, {5}, std::vector<uint8_t>(4), "i4");
    ExpectInvalid(b, "buffer 1 holds 4 bytes, but shape [5] of INT4 needs 3 bytes");
  }
  SECTION("INT2 packed (four per byte) and unpacked are accepted, other sizes are not") {
    for (size_t n : {size_t{2}, size_t{5}}) {  // 5 values: 2 bytes packed, 5 unpacked
      ModelBuilder b;
      b.AddConstTensorBytes(tflite::TensorType_INT2, {5}, std::vector<uint8_t>(n), "i2");
      std::vector<uint8_t> bytes = b.Build();
      ExpectValid(bytes);
    }
    ModelBuilder b;
    b.AddConstTensorBytes(tflite::TensorType_INT2, {5}, std::vector<uint8_t>(3), "i2");
    ExpectInvalid(b, "buffer 1 holds 3 bytes, but shape [5] of INT2 needs 2 bytes");
  }
  SECTION("strings are sized by their contents") {
    ModelBuilder b;
    b.AddConstTensorBytes(tflite::TensorType_STRING, {2}, std::vector<uint8_t>(23), "s");
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
  SECTION("byte size overflowing uint64") {
    ModelBuilder b;
    // 2^62 elements fit int64, but 16 bytes each do not fit uint64.
    b.AddConstTensorBytes(tflite::TensorType_COMPLEX128, {1 << 30, 1 << 30, 4},
                          std::vector<uint8_t>(16), "huge");
    ExpectInvalid(b, "subgraph 0, tensor 0 ('huge'): byte size of the shape overflows");
  }
}

TEST_CASE("validate: shapes", "[validate]") {
  SECTION("negative dim") {
    ModelBuilder b = AddModel();
    Tensor(b, 0).shape = {1, -1};
    ExpectInvalid(b, "<buffer>: subgraph 0, tensor 0 ('in'): dimension 1 of shape [1,-1] is "
                     "negative (-1); only shape_signature may hold -1");
  }
  SECTION("negative dim in shape_signature is fine") {
    ModelBuilder b = AddModel();
    Tensor(b, 0).shape_signature = {-1, 4};
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
  SECTION("element count overflows int64") {
    ModelBuilder b = AddModel();
    const int32_t big = std::numeric_limits<int32_t>::max();
    Tensor(b, 2).shape = {big, big, big, big, big};
    ExpectInvalid(b, "subgraph 0, tensor 2 ('out'): shape [2147483647,2147483647,2147483647,"
                     "2147483647,2147483647] has more elements than fit in int64");
  }
  SECTION("just below 2^63 elements is fine without data") {
    ModelBuilder b = AddModel();
    Tensor(b, 2).shape = {1 << 30, 1 << 30, 4};  // 2^62
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
  SECTION("a zero dim makes an empty tensor") {
    ModelBuilder b = AddModel();
    const int32_t big = std::numeric_limits<int32_t>::max();
    Tensor(b, 2).shape = {big, big, 0, big, big, big};
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
}

TEST_CASE("validate: unknown tensor type", "[validate]") {
  SECTION("type 100") {
    ModelBuilder b = AddModel();
    Tensor(b, 0).type = static_cast<tflite::TensorType>(100);
    ExpectInvalid(b, "<buffer>: subgraph 0, tensor 0 ('in'): unknown tensor type 100");
  }
  SECTION("type -1") {
    ModelBuilder b = AddModel();
    Tensor(b, 1).type = static_cast<tflite::TensorType>(-1);
    ExpectInvalid(b, "subgraph 0, tensor 1 ('w'): unknown tensor type -1");
  }
  SECTION("type one past the last") {
    ModelBuilder b = AddModel();
    Tensor(b, 0).type = static_cast<tflite::TensorType>(tflite::TensorType_MAX + 1);
    ExpectInvalid(b, "unknown tensor type " + std::to_string(tflite::TensorType_MAX + 1));
  }
}

TEST_CASE("validate: quantization", "[validate]") {
  SECTION("scale and zero_point counts differ: an error") {
    ModelBuilder b;
    QuantSpec q{{0.1f, 0.2f}, {0}, 0};
    b.AddTensor(tflite::TensorType_INT8, {2, 3}, "q", &q);
    ExpectInvalid(b, "subgraph 0, tensor 0 ('q'): quantization has 2 scales but 1 zero points");
  }
  SECTION("quantized_dimension out of range: a refusal") {
    ModelBuilder b;
    QuantSpec q{{0.1f, 0.2f}, {0, 0}, 2};
    b.AddTensor(tflite::TensorType_INT8, {2, 3}, "q", &q);
    std::vector<uint8_t> bytes = b.Build();
    auto m = ExpectValid(bytes);
    REQUIRE(m->refusals().size() == 1);
    CHECK(m->refusals()[0] == "quantized_dimension must be in range [0, 2). Was 2. Tensor 0 has "
                              "invalid quantization parameters. (subgraph 0, tensor 0 ('q'))");
  }
  SECTION("scale count differs from the quantized dimension: a refusal") {
    ModelBuilder b;
    QuantSpec q{{0.1f, 0.2f, 0.3f}, {0, 0, 0}, 0};
    b.AddTensor(tflite::TensorType_INT8, {4, 3}, "q", &q);
    std::vector<uint8_t> bytes = b.Build();
    auto m = ExpectValid(bytes);
    REQUIRE(m->refusals().size() == 1);
    CHECK_THAT(m->refusals()[0],
               Catch::StartsWith("num_scales must be 1 for per-layer quantization, or 4 for "
                                 "per-axis quantization, but got 3."));
  }
}

TEST_CASE("validate: quantization values no kernel can use are refusals", "[validate]") {
  auto refusal = [](tflite::TensorType type, QuantSpec q) {
    ModelBuilder b;
    b.AddTensor(type, {2, 3}, "q", &q);
    std::vector<uint8_t> bytes = b.Build();
    auto m = ExpectValid(bytes);
    return m->refusals().empty() ? std::string() : m->refusals()[0];
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(refusal(tflite::TensorType_INT8, {{nan}, {0}, 0}) ==
        "scale[0] is nan; scales must be finite and non-negative. Tensor 0 has invalid "
        "quantization parameters. (subgraph 0, tensor 0 ('q'))");
  CHECK_THAT(refusal(tflite::TensorType_INT8, {{inf}, {0}, 0}), Catch::StartsWith("scale[0] is inf"));
  CHECK_THAT(refusal(tflite::TensorType_INT8, {{-0.5f}, {0}, 0}), Catch::StartsWith("scale[0] is -0.5"));
  CHECK(refusal(tflite::TensorType_INT8, {{0.5f}, {1000}, 0}) ==
        "zero_point[0] is 1000, outside [-128, 127] for INT8. Tensor 0 has invalid "
        "quantization parameters. (subgraph 0, tensor 0 ('q'))");
  CHECK_THAT(refusal(tflite::TensorType_UINT8, {{0.5f}, {-1}, 0}),
             Catch::StartsWith("zero_point[0] is -1, outside [0, 255] for UINT8"));
  // -2^40 used to be truncated to 0 when copied into TfLiteAffineQuantization.
  CHECK_THAT(refusal(tflite::TensorType_INT32, {{0.5f}, {-(int64_t{1} << 40)}, 0}),
             Catch::StartsWith("zero_point[0] is -1099511627776, outside [-2147483648, "
                               "2147483647] for INT32"));
  CHECK(refusal(tflite::TensorType_INT8, {{0.f}, {-128}, 0}).empty());  // 0 is a valid scale
  CHECK(refusal(tflite::TensorType_UINT8, {{0.5f}, {255}, 0}).empty());
}

TEST_CASE("validate: dataflow no converter writes is refused, with the tensor and operators",
          "[validate]") {
  // in (0) -> ADD -> mid (3) -> ADD -> out (2), both adding the constant w (1).
  auto chain = [] {
    ModelBuilder b = AddModel();
    int mid = b.AddTensor(TensorType_FLOAT32, {1, 4}, "mid");
    Op(b).outputs = {mid};
    b.AddOperator(tflite::BuiltinOperator_ADD, {mid, 1}, {2});
    return b;
  };
  auto refusals = [](ModelBuilder& b) {
    std::vector<uint8_t> bytes = b.Build();
    auto m = ExpectValid(bytes);
    return m->refusals();
  };
  SECTION("a valid chain has none") {
    ModelBuilder b = chain();
    CHECK(refusals(b).empty());
  }
  SECTION("two producers") {
    ModelBuilder b = chain();
    Op(b, 0, 1).inputs = {0, 1};
    Op(b, 0, 1).outputs = {3};
    REQUIRE(refusals(b).size() == 1);
    CHECK(refusals(b)[0] == "Tensor 3 ('mid') of subgraph 0 is an output of operators 0 and 1; "
                            "a tensor has one producer.");
  }
  SECTION("an operator writing a constant") {
    ModelBuilder b = chain();
    Op(b, 0, 1).outputs = {1};
    REQUIRE(refusals(b).size() == 1);
    CHECK(refusals(b)[0] == "Operator 1 of subgraph 0 writes tensor 1 ('w'), which is a constant.");
  }
  SECTION("operators out of order") {
    ModelBuilder b = chain();
    std::swap(b.subgraph(0).operators[0], b.subgraph(0).operators[1]);
    REQUIRE(refusals(b).size() == 1);
    CHECK(refusals(b)[0] == "Operator 0 of subgraph 0 reads tensor 3 ('mid'), which operator 1 "
                            "writes later: the operators are not in dependency order.");
  }
  SECTION("an operator reading its own output") {
    ModelBuilder b = AddModel();
    Op(b).inputs = {0, 2};
    REQUIRE(refusals(b).size() == 1);
    CHECK_THAT(refusals(b)[0], Catch::Contains("which operator 0 writes (itself)"));
  }
  SECTION("an operator reading a tensor nothing writes") {
    // (A fuzzed model did this with a BOOL tensor: REDUCE_ANY read uninitialized bytes.)
    ModelBuilder b = chain();
    const int ghost = b.AddTensor(TensorType_FLOAT32, {1, 4}, "ghost");
    Op(b, 0, 1).inputs = {3, ghost};
    REQUIRE(refusals(b).size() == 1);
    CHECK(refusals(b)[0] == "Operator 1 of subgraph 0 (ADD) reads tensor 4 ('ghost'), which no "
                            "operator writes: it is not an input of the subgraph, a constant or "
                            "a variable.");
  }
  SECTION("what needs no writer: a variable, an empty tensor") {
    ModelBuilder b = chain();
    const int state = b.AddTensor(TensorType_FLOAT32, {1, 4}, "state");
    b.subgraph(0).tensors[state]->is_variable = true;
    const int empty = b.AddTensor(TensorType_FLOAT32, {0, 4}, "empty");
    const int sum = b.AddTensor(TensorType_FLOAT32, {0, 4}, "sum");
    b.AddOperator(tflite::BuiltinOperator_ADD, {state, empty}, {sum});
    CHECK(refusals(b).empty());
  }
  SECTION("an output nothing writes") {
    ModelBuilder b = chain();
    const int ghost = b.AddTensor(TensorType_FLOAT32, {1, 4}, "ghost");
    b.subgraph(0).outputs.push_back(ghost);
    REQUIRE(refusals(b).size() == 1);
    CHECK(refusals(b)[0] == "Output #1 of subgraph 0 is tensor 4 ('ghost'), which no operator "
                            "writes: it is not an input of the subgraph, a constant or a "
                            "variable.");
  }
}

// --- External data ------------------------------------------------------------------

TEST_CASE("validate: external buffers", "[validate]") {
  SECTION("past the end of the file") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.data.clear();
    buf.offset = 8;
    buf.size = 1 << 30;
    std::vector<uint8_t> bytes = b.Build();
    ExpectInvalid(bytes, "<buffer>: buffer 1: external data at offset 8 with size 1073741824 "
                         "ends at byte 1073741832, past the end of the file (" +
                             std::to_string(bytes.size()) + " bytes)");
  }
  SECTION("offset beyond the file") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.data.clear();
    buf.offset = uint64_t{1} << 40;
    buf.size = 16;
    ExpectInvalid(b, "buffer 1: external data at offset 1099511627776 with size 16");
  }
  SECTION("offset + size wrapping around uint64") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.data.clear();
    buf.offset = 16;
    buf.size = std::numeric_limits<uint64_t>::max() - 8;
    ExpectInvalid(b, "past the end of the file");
  }
  SECTION("ending exactly at the end of the file is accepted") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.data.clear();
    buf.offset = 2;  // placeholder, patched below
    buf.size = 16;
    std::vector<uint8_t> bytes = b.Build();
    // Append the weights after the flatbuffer and point the buffer at them.
    const uint64_t offset = bytes.size();
    std::vector<uint8_t> weights = FloatBytes({5, 6, 7, 8});
    bytes.insert(bytes.end(), weights.begin(), weights.end());
    auto* fb = tflite::GetMutableModel(bytes.data());
    REQUIRE(fb->mutable_buffers()->GetMutableObject(1)->mutate_offset(offset));
    auto m = ExpectValid(bytes);
    BufferView v = m->buffer(1);
    CHECK(v.external);
    CHECK(v.data == bytes.data() + offset);
    CHECK(v.size == 16);
    float last;
    std::memcpy(&last, v.data + 12, 4);
    CHECK(last == 8.0f);

    // One more byte would end past the file.
    REQUIRE(fb->mutable_buffers()->GetMutableObject(1)->mutate_size(17));
    ExpectInvalid(bytes, "buffer 1: external data at offset " + std::to_string(offset) +
                             " with size 17");
  }
  SECTION("inside the flatbuffer itself is accepted") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.data.clear();
    buf.offset = 8;
    buf.size = 16;
    std::vector<uint8_t> bytes = b.Build();
    auto m = ExpectValid(bytes);
    CHECK(m->buffer(1).external);
    CHECK(m->buffer(1).data == bytes.data() + 8);
  }
  SECTION("external size must still match the shape") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.data.clear();
    buf.offset = 8;
    buf.size = 12;
    ExpectInvalid(b, "subgraph 0, tensor 1 ('w'): buffer 1 holds 12 bytes, but shape [1,4] of "
                     "FLOAT32 needs 16 bytes");
  }
  SECTION("offset 1 means no external data") {
    ModelBuilder b = AddModel();
    auto& buf = *b.model().buffers[1];
    buf.offset = 1;
    buf.size = uint64_t{1} << 50;
    std::vector<uint8_t> bytes = b.Build();
    auto m = ExpectValid(bytes);
    CHECK_FALSE(m->buffer(1).external);
    CHECK(m->buffer(1).size == 16);
  }
}

TEST_CASE("validate: large custom options", "[validate]") {
  SECTION("past the end of the file") {
    ModelBuilder b = AddModel();
    Op(b).large_custom_options_offset = 1 << 20;
    Op(b).large_custom_options_size = 4;
    std::vector<uint8_t> bytes = b.Build();
    ExpectInvalid(bytes, "<buffer>: subgraph 0, operator 0 (ADD v1): large custom options at "
                         "offset 1048576 with size 4 run past the end of the file (" +
                             std::to_string(bytes.size()) + " bytes)");
  }
  SECTION("size past the end of the file") {
    ModelBuilder b = AddModel();
    Op(b).large_custom_options_offset = 8;
    Op(b).large_custom_options_size = std::numeric_limits<uint64_t>::max();
    ExpectInvalid(b, "large custom options at offset 8 with size 18446744073709551615 run past "
                     "the end of the file");
  }
  SECTION("inside the file is accepted") {
    ModelBuilder b = AddModel();
    Op(b).large_custom_options_offset = 8;
    Op(b).large_custom_options_size = 4;
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
}

// --- Subgraph references ------------------------------------------------------------

// Subgraph 0 calls `op` with `options`; subgraph 1 is a trivial branch/body.
ModelBuilder ControlFlowModel(tflite::BuiltinOperator op, OpOptions options) {
  ModelBuilder b;
  int c = b.AddTensor(tflite::TensorType_BOOL, {}, "c");
  int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  b.AddOperator(op, {c, x}, {x}, std::move(options));
  b.SetInputs({c, x});
  b.SetOutputs({x});
  b.UseSubgraph(b.AddSubgraph("branch"));
  int t = b.AddTensor(TensorType_FLOAT32, {2}, "t");
  b.SetInputs({t});
  b.SetOutputs({t});
  b.UseSubgraph(0);
  return b;
}

TEST_CASE("validate: control flow subgraph indices", "[validate]") {
  SECTION("IF: valid") {
    tflite::IfOptionsT o;
    o.then_subgraph_index = 1;
    o.else_subgraph_index = 1;
    std::vector<uint8_t> bytes = ControlFlowModel(tflite::BuiltinOperator_IF, Options(o)).Build();
    ExpectValid(bytes);
  }
  SECTION("IF: else out of range") {
    tflite::IfOptionsT o;
    o.then_subgraph_index = 1;
    o.else_subgraph_index = 5;
    ExpectInvalid(ControlFlowModel(tflite::BuiltinOperator_IF, Options(o)),
                  "<buffer>: subgraph 0, operator 0 (IF v1): else_subgraph_index is 5, but the "
                  "model has 2 subgraphs");
  }
  SECTION("IF: then negative") {
    tflite::IfOptionsT o;
    o.then_subgraph_index = -1;
    o.else_subgraph_index = 1;
    ExpectInvalid(ControlFlowModel(tflite::BuiltinOperator_IF, Options(o)),
                  "subgraph 0, operator 0 (IF v1): then_subgraph_index is -1, but the model has "
                  "2 subgraphs");
  }
  SECTION("WHILE: cond out of range") {
    tflite::WhileOptionsT o;
    o.cond_subgraph_index = 2;
    o.body_subgraph_index = 1;
    ExpectInvalid(ControlFlowModel(tflite::BuiltinOperator_WHILE, Options(o)),
                  "subgraph 0, operator 0 (WHILE v1): cond_subgraph_index is 2, but the model "
                  "has 2 subgraphs");
  }
  SECTION("WHILE: body out of range") {
    tflite::WhileOptionsT o;
    o.cond_subgraph_index = 1;
    o.body_subgraph_index = 9;
    ExpectInvalid(ControlFlowModel(tflite::BuiltinOperator_WHILE, Options(o)),
                  "(WHILE v1): body_subgraph_index is 9, but the model has 2 subgraphs");
  }
  SECTION("CALL_ONCE: init out of range") {
    tflite::CallOnceOptionsT o;
    o.init_subgraph_index = 3;
    ExpectInvalid(ControlFlowModel(tflite::BuiltinOperator_CALL_ONCE, Options(o)),
                  "(CALL_ONCE v1): init_subgraph_index is 3, but the model has 2 subgraphs");
  }
  SECTION("STABLEHLO_COMPOSITE (builtin_options_2): decomposition out of range") {
    tflite::StableHLOCompositeOptionsT o;
    o.name = "composite";
    o.decomposition_subgraph_index = 4;
    ExpectInvalid(ControlFlowModel(tflite::BuiltinOperator_STABLEHLO_COMPOSITE, Options2(o)),
                  "(STABLEHLO_COMPOSITE v1): decomposition_subgraph_index is 4, but the model "
                  "has 2 subgraphs");
  }
}

TEST_CASE("validate: subgraph call cycles are refused, through any number of subgraphs",
          "[validate]") {
  // 0 -WHILE-> 1 (cond and body); 1 -CALL_ONCE-> 2; 2 -IF-> 1: a cycle 1 -> 2 -> 1.
  ModelBuilder b;
  int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  tflite::WhileOptionsT w;
  w.cond_subgraph_index = 1;
  w.body_subgraph_index = 1;
  b.AddOperator(tflite::BuiltinOperator_WHILE, {x}, {x}, Options(w));
  b.SetInputs({x});
  b.SetOutputs({x});
  for (int s = 1; s <= 2; ++s) {
    b.UseSubgraph(b.AddSubgraph("sg" + std::to_string(s)));
    int t = b.AddTensor(TensorType_FLOAT32, {2}, "t");
    if (s == 1) {
      tflite::CallOnceOptionsT c;
      c.init_subgraph_index = 2;
      b.AddOperator(tflite::BuiltinOperator_CALL_ONCE, {}, {}, Options(c));
    } else {
      int cond = b.AddTensor(tflite::TensorType_BOOL, {}, "c");
      tflite::IfOptionsT i;
      i.then_subgraph_index = 1;
      i.else_subgraph_index = 0;
      b.AddOperator(tflite::BuiltinOperator_IF, {cond, t}, {t}, Options(i));
    }
    b.SetInputs({t});
    b.SetOutputs({t});
  }
  ExpectInvalid(b, "subgraph 1 calls itself: subgraph 1, operator 0 (CALL_ONCE v1) "
                   "init_subgraph_index -> subgraph 2, operator 0 (IF v1) then_subgraph_index "
                   "(subgraph 1)");
}

TEST_CASE("validate: control flow without its options calls subgraph 0, as the runtime reads it",
          "[validate]") {
  // 0 -WHILE-> 1 (cond and body); subgraph 1's WHILE has no options: zeroed parameters
  // name subgraph 0, a cycle 0 -> 1 -> 0. The same options table on an ADD calls nothing.
  for (bool absent : {true, false}) {
    ModelBuilder b;
    int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
    tflite::WhileOptionsT w;
    w.cond_subgraph_index = 1;
    w.body_subgraph_index = 1;
    b.AddOperator(tflite::BuiltinOperator_WHILE, {x}, {x}, Options(w));
    b.SetInputs({x});
    b.SetOutputs({x});
    b.UseSubgraph(b.AddSubgraph("sg1"));
    int t = b.AddTensor(TensorType_FLOAT32, {2}, "t");
    if (absent) {
      b.AddOperator(tflite::BuiltinOperator_WHILE, {t}, {t});
    } else {
      tflite::WhileOptionsT back;  // names subgraph 0, but ADD reads AddOptions
      b.AddOperator(tflite::BuiltinOperator_ADD, {t, t}, {t}, Options(back));
    }
    b.SetInputs({t});
    b.SetOutputs({t});
    b.UseSubgraph(0);
    if (absent) {
      ExpectInvalid(b, "subgraph 0 calls itself: subgraph 0, operator 0 (WHILE v1) "
                       "cond_subgraph_index -> subgraph 1, operator 0 (WHILE v1) "
                       "cond_subgraph_index (subgraph 0)");
    } else {
      std::vector<uint8_t> bytes = b.Build();
      ExpectValid(bytes);
    }
  }
}

TEST_CASE("validate: signature defs", "[validate]") {
  SECTION("valid") {
    ModelBuilder b = AddModel();
    b.AddSignature("serving_default", 0, {{"x", 0}}, {{"y", 2}});
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
  SECTION("subgraph_index out of range") {
    ModelBuilder b = AddModel();
    b.AddSignature("serving_default", 3, {{"x", 0}}, {{"y", 2}});
    ExpectInvalid(b, "<buffer>: signature 0 ('serving_default'): subgraph_index is 3, but the "
                     "model has 1 subgraphs");
  }
  SECTION("input tensor_index out of range") {
    ModelBuilder b = AddModel();
    b.AddSignature("serving_default", 0, {{"x", 9}}, {{"y", 2}});
    ExpectInvalid(b, "signature 0 ('serving_default'): input 'x' refers to tensor 9, but "
                     "subgraph 0 has 3 tensors");
  }
  SECTION("output tensor_index out of range, second signature") {
    ModelBuilder b = AddModel();
    b.AddSignature("a", 0, {{"x", 0}}, {{"y", 2}});
    b.AddSignature("b", 0, {{"x", 0}}, {{"y", 3}});
    ExpectInvalid(b, "signature 1 ('b'): output 'y' refers to tensor 3, but subgraph 0 has 3 "
                     "tensors");
  }
}

TEST_CASE("validate: metadata buffers", "[validate]") {
  SECTION("metadata buffer out of range") {
    ModelBuilder b = AddModel();
    auto md = std::make_unique<tflite::MetadataT>();
    md->name = "bad";
    md->buffer = 99;
    b.model().metadata.push_back(std::move(md));
    ExpectInvalid(b, "<buffer>: metadata 0 ('bad'): refers to buffer 99, but the model has 2 "
                     "buffers");
  }
  SECTION("min_runtime_version pointing nowhere") {
    ModelBuilder b = AddModel();
    b.SetMinRuntimeVersion("1.5.0");
    b.model().metadata[0]->buffer = 3;
    ExpectInvalid(b, "metadata 0 ('min_runtime_version'): refers to buffer 3, but the model "
                     "has 3 buffers");
  }
  SECTION("metadata_buffer out of range") {
    ModelBuilder b = AddModel();
    b.model().metadata_buffer = {1, 99};
    ExpectInvalid(b, "<buffer>: model: metadata_buffer #1 refers to buffer 99, but the model "
                     "has 2 buffers");
  }
  SECTION("negative metadata_buffer") {
    ModelBuilder b = AddModel();
    b.model().metadata_buffer = {-1};
    ExpectInvalid(b, "model: metadata_buffer #0 refers to buffer -1");
  }
}

// --- Sparse tensors -----------------------------------------------------------------

tflite::SparseIndexVectorUnion Int32s(std::vector<int32_t> values) {
  tflite::Int32VectorT v;
  v.values = std::move(values);
  tflite::SparseIndexVectorUnion u;
  u.Set(std::move(v));
  return u;
}

std::unique_ptr<tflite::DimensionMetadataT> Dense(int32_t size) {
  auto d = std::make_unique<tflite::DimensionMetadataT>();
  d->format = tflite::DimensionType_DENSE;
  d->dense_size = size;
  return d;
}

std::unique_ptr<tflite::DimensionMetadataT> Csr(std::vector<int32_t> segments,
                                                std::vector<int32_t> indices) {
  auto d = std::make_unique<tflite::DimensionMetadataT>();
  d->format = tflite::DimensionType_SPARSE_CSR;
  d->array_segments = Int32s(std::move(segments));
  d->array_indices = Int32s(std::move(indices));
  return d;
}

// A 4x4 float matrix in CSR with 5 non-zeros:
//   row 0: cols 0, 3   row 1: col 1   row 2: -   row 3: cols 0, 2
struct CsrModel {
  ModelBuilder b;
  int tensor;
  tflite::SparsityParametersT& sparsity() { return *Tensor(b, tensor).sparsity; }
  std::vector<uint8_t>& data() { return b.model().buffers[Tensor(b, tensor).buffer]->data; }
};

CsrModel MakeCsrModel() {
  CsrModel m;
  m.tensor = m.b.AddConstTensor<float>(TensorType_FLOAT32, {4, 4}, {1, 2, 3, 4, 5}, "sparse");
  auto sp = std::make_unique<tflite::SparsityParametersT>();
  sp->traversal_order = {0, 1};
  sp->dim_metadata.push_back(Dense(4));
  sp->dim_metadata.push_back(Csr({0, 2, 3, 3, 5}, {0, 3, 1, 0, 2}));
  Tensor(m.b, m.tensor).sparsity = std::move(sp);
  int out = m.b.AddTensor(TensorType_FLOAT32, {4, 4}, "dense");
  m.b.AddOperator(tflite::BuiltinOperator_DENSIFY, {m.tensor}, {out});
  m.b.SetOutputs({out});
  return m;
}

TEST_CASE("validate: sparse tensors", "[validate]") {
  SECTION("valid CSR is accepted (its buffer holds the non-zeros only)") {
    CsrModel m = MakeCsrModel();
    std::vector<uint8_t> bytes = m.b.Build();
    auto model = ExpectValid(bytes);
    CHECK(model->buffer(1).size == 5 * sizeof(float));
  }
  SECTION("valid block-sparse (2x2 blocks) is accepted") {
    ModelBuilder b;
    // 4x4 as a 2x2 grid of 2x2 blocks; block rows 0 and 1 hold block cols 0 and 1.
    int t = b.AddConstTensor<float>(TensorType_FLOAT32, {4, 4}, std::vector<float>(8, 1.0f),
                                    "block");
    auto sp = std::make_unique<tflite::SparsityParametersT>();
    sp->traversal_order = {0, 1, 2, 3};
    sp->block_map = {0, 1};
    sp->dim_metadata.push_back(Dense(2));
    sp->dim_metadata.push_back(Csr({0, 1, 2}, {0, 1}));
    sp->dim_metadata.push_back(Dense(2));
    sp->dim_metadata.push_back(Dense(2));
    Tensor(b, t).sparsity = std::move(sp);
    std::vector<uint8_t> bytes = b.Build();
    ExpectValid(bytes);
  }
  SECTION("uint8 index vectors are read too") {
    CsrModel m = MakeCsrModel();
    tflite::Uint8VectorT idx;
    idx.values = {0, 3, 1, 0, 9};
    m.sparsity().dim_metadata[1]->array_indices.Set(std::move(idx));
    ExpectInvalid(m.b, "dim_metadata[1] array_indices[4] = 9 is outside [0, 4)");
  }
  SECTION("traversal_order not a permutation") {
    CsrModel m = MakeCsrModel();
    m.sparsity().traversal_order = {0, 0};
    ExpectInvalid(m.b, "<buffer>: subgraph 0, tensor 0 ('sparse'): sparsity: traversal_order is "
                       "not a permutation of 0..1");
  }
  SECTION("traversal_order with an out-of-range dim") {
    CsrModel m = MakeCsrModel();
    m.sparsity().traversal_order = {0, 2};
    ExpectInvalid(m.b, "sparsity: traversal_order is not a permutation of 0..1");
  }
  SECTION("traversal_order of the wrong length") {
    CsrModel m = MakeCsrModel();
    m.sparsity().traversal_order = {0, 1, 2};
    ExpectInvalid(m.b, "sparsity: traversal_order has 3 entries, expected rank 2 + 0 block dims");
  }
  SECTION("dim_metadata of the wrong length") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata.pop_back();
    ExpectInvalid(m.b, "sparsity: dim_metadata has 1 entries, expected 2");
  }
  SECTION("dense_size differs from the shape") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[0]->dense_size = 5;
    ExpectInvalid(m.b, "sparsity: dim_metadata[0] dense_size 5 differs from the dimension size 4");
  }
  SECTION("array_segments of the wrong length") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_segments = Int32s({0, 2, 3, 5});
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] array_segments has 4 entries, expected 5");
  }
  SECTION("array_segments not starting at 0") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_segments = Int32s({1, 2, 3, 3, 5});
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] array_segments[0] is not 0");
  }
  SECTION("array_segments decreasing") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_segments = Int32s({0, 3, 2, 3, 5});
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] array_segments decrease at #2");
  }
  SECTION("array_indices count differs from the last segment") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_indices = Int32s({0, 3, 1, 0});
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] array_indices has 4 entries, but the segments "
                       "end at 5");
  }
  SECTION("array_indices out of range") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_indices = Int32s({0, 3, 1, 4, 2});
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] array_indices[3] = 4 is outside [0, 4)");
  }
  SECTION("negative array_indices") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_indices = Int32s({0, -1, 1, 0, 2});
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] array_indices[1] = -1 is outside [0, 4)");
  }
  SECTION("CSR without index arrays") {
    CsrModel m = MakeCsrModel();
    m.sparsity().dim_metadata[1]->array_indices.Reset();
    ExpectInvalid(m.b, "sparsity: dim_metadata[1] is SPARSE_CSR but lacks array_segments or "
                       "array_indices");
  }
  SECTION("buffer too small for the non-zeros") {
    CsrModel m = MakeCsrModel();
    m.data().resize(16);
    ExpectInvalid(m.b, "subgraph 0, tensor 0 ('sparse'): sparsity: buffer 1 holds 16 bytes, but "
                       "the sparse layout stores 5 values of FLOAT32 (20 bytes)");
  }
  SECTION("buffer sized for the dense shape") {
    CsrModel m = MakeCsrModel();
    m.data().resize(64);
    ExpectInvalid(m.b, "sparsity: buffer 1 holds 64 bytes, but the sparse layout stores 5 "
                       "values of FLOAT32 (20 bytes)");
  }
  SECTION("block_map naming a dim the tensor lacks") {
    CsrModel m = MakeCsrModel();
    m.sparsity().traversal_order = {0, 1, 2};
    m.sparsity().block_map = {2};
    m.sparsity().dim_metadata.push_back(Dense(2));
    ExpectInvalid(m.b, "sparsity: block_map[0] = 2 is not a dimension of rank 2");
  }
  SECTION("block size that does not divide the dim") {
    CsrModel m = MakeCsrModel();
    m.sparsity().traversal_order = {0, 1, 2};
    m.sparsity().block_map = {1};
    m.sparsity().dim_metadata.push_back(Dense(3));
    ExpectInvalid(m.b, "sparsity: block dimension 2 must be dense with a size that divides "
                       "dimension 1 (4)");
  }
}

// --- Robustness: random damage never crashes ------------------------------------------

// A model that touches most of the validator: control flow, custom op, quantization,
// sparse data, an external buffer, signatures and metadata.
std::vector<uint8_t> RichModel() {
  CsrModel m = MakeCsrModel();
  ModelBuilder& b = m.b;
  QuantSpec q{{0.5f, 0.25f}, {0, 1}, 0};
  int qt = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {2, 2}, {1, 2, 3, 4}, "q", &q);
  int c = b.AddTensor(tflite::TensorType_BOOL, {}, "c");
  int x = b.AddTensor(TensorType_FLOAT32, {1, 4}, "x");
  int ext = b.AddTensor(tflite::TensorType_UINT8, {4}, "ext");
  int eb = b.AddBuffer({});
  Tensor(b, ext).buffer = eb;
  b.model().buffers[eb]->offset = 8;
  b.model().buffers[eb]->size = 4;
  tflite::IfOptionsT if_opts;
  if_opts.then_subgraph_index = 1;
  if_opts.else_subgraph_index = 1;
  // One producer per tensor.
  int x1 = b.AddTensor(TensorType_FLOAT32, {1, 4}, "x1");
  int x2 = b.AddTensor(TensorType_FLOAT32, {1, 4}, "x2");
  int y = b.AddTensor(TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_IF, {c, x}, {x1}, Options(if_opts));
  b.AddCustomOperator("MyOp", {x1, qt, -1, ext}, {x2}, {1, 2, 3, 4});
  b.AddOperator(tflite::BuiltinOperator_GELU, {x2}, {y});
  b.SetInputs({c, x});
  b.SetOutputs({y});
  b.UseSubgraph(b.AddSubgraph("branch"));
  int t = b.AddTensor(TensorType_FLOAT32, {1, 4}, "t");
  int r = b.AddTensor(TensorType_FLOAT32, {1, 4}, "r");
  b.AddOperator(tflite::BuiltinOperator_RELU, {t}, {r});
  b.SetInputs({t});
  b.SetOutputs({r});
  b.AddSignature("serving_default", 0, {{"c", c}, {"x", x}}, {{"y", y}});
  b.SetMinRuntimeVersion("2.10.0");
  return b.Build();
}

// Loading must either succeed or fail with a message; anything else (a crash, a hang,
// an empty message) is the bug these tests look for.
void LoadMustNotCrash(const std::vector<uint8_t>& bytes) {
  auto r = Load(bytes);
  if (r.ok()) {
    // Walk what the validator vouched for, as a caller would.
    const Model& m = *r.value();
    for (size_t s = 0; s < m.fb()->subgraphs()->size(); ++s) {
      const auto* ops = m.fb()->subgraphs()->Get(s)->operators();
      for (size_t o = 0; ops != nullptr && o < ops->size(); ++o) {
        (void)m.op_code_of(static_cast<int>(s), static_cast<int>(o)).display();
      }
    }
    for (uint32_t i = 0; m.fb()->buffers() && i < m.fb()->buffers()->size(); ++i) {
      BufferView v = m.buffer(i);
      if (!v.empty() && (v.data < m.bytes() || v.data + v.size > m.bytes() + m.size())) {
        FAIL("buffer " << i << " points outside the model");
      }
    }
  } else if (r.status().message().empty()) {
    FAIL("refused with an empty message, code " << static_cast<int>(r.status().code()));
  }
}

TEST_CASE("validate: the rich fuzz seed is itself valid", "[validate][robustness]") {
  std::vector<uint8_t> bytes = RichModel();
  auto m = ExpectValid(bytes);
  CHECK(m->refusals().empty());
  CHECK(m->min_runtime_version().value_or("") == "2.10.0");
}

TEST_CASE("validate: random byte flips never crash", "[validate][robustness]") {
  const uint32_t seed = 20240611;
  CAPTURE(seed);
  std::mt19937 rng(seed);
  const std::vector<uint8_t> seed_bytes = RichModel();
  std::uniform_int_distribution<size_t> pos(0, seed_bytes.size() - 1);
  std::uniform_int_distribution<int> count(1, 8);
  std::uniform_int_distribution<int> byte(0, 255);
  int accepted = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    CAPTURE(iter);
    std::vector<uint8_t> bytes = seed_bytes;
    for (int k = count(rng); k > 0; --k) bytes[pos(rng)] = static_cast<uint8_t>(byte(rng));
    LoadMustNotCrash(bytes);
    accepted += Load(bytes).ok();
  }
  // Flips in data bytes keep the model valid; a fuzzer that breaks everything, or
  // nothing, is not testing much.
  INFO("accepted " << accepted << " of 2000");
  CHECK(accepted > 0);
  CHECK(accepted < 2000);
}

TEST_CASE("validate: random truncation never crashes", "[validate][robustness]") {
  const uint32_t seed = 7;
  CAPTURE(seed);
  std::mt19937 rng(seed);
  const std::vector<uint8_t> seed_bytes = RichModel();
  std::uniform_int_distribution<size_t> len(0, seed_bytes.size());
  for (int iter = 0; iter < 2000; ++iter) {
    CAPTURE(iter);
    // A fresh, exactly-sized copy so that any read past the end leaves the allocation.
    std::vector<uint8_t> bytes(seed_bytes.begin(), seed_bytes.begin() + len(rng));
    LoadMustNotCrash(bytes);
  }
}

TEST_CASE("validate: random flips of int32 fields to extreme values never crash",
          "[validate][robustness]") {
  // Aligned 4-byte writes of boundary values hit offsets, lengths, indices and dims
  // far more often than single random bytes do.
  const uint32_t seed = 99991;
  CAPTURE(seed);
  std::mt19937 rng(seed);
  const std::vector<uint8_t> seed_bytes = RichModel();
  const int32_t values[] = {-1, 0, 1, 2, 3, 127, 128, 255, 0x7fffffff,
                            static_cast<int32_t>(0x80000000), 0x10000, -2};
  std::uniform_int_distribution<size_t> word(2, seed_bytes.size() / 4 - 1);
  std::uniform_int_distribution<size_t> value(0, sizeof(values) / sizeof(values[0]) - 1);
  std::uniform_int_distribution<size_t> cut(0, 16);
  for (int iter = 0; iter < 2000; ++iter) {
    CAPTURE(iter);
    std::vector<uint8_t> bytes = seed_bytes;
    std::memcpy(bytes.data() + 4 * word(rng), &values[value(rng)], 4);
    if (iter % 4 == 0) bytes.resize(bytes.size() - cut(rng));
    LoadMustNotCrash(bytes);
  }
}

}  // namespace
}  // namespace tflite_inspect
