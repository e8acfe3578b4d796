// Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE, CALL_ONCE's one
// initialization per interpreter) and DYNAMIC_UPDATE_SLICE in a model TensorFlow's
// converter made with two signatures sharing state (scripts/gen_testdata.py), against the
// outputs of TFLite's interpreter over the same sequence of calls
// (testdata/goldens/stateful_cache.json, ai-edge-litert's builtin kernels); and crafted
// graphs that misuse the ops, each refused with a message.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/testing/op_test_util.h"
#include "nlohmann/json.hpp"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/signature_runner.h"
#include "tools/string_reporter.h"

namespace tflite_inspect {
namespace {

const auto kF32 = tflite::TensorType_FLOAT32;
const auto kI32 = tflite::TensorType_INT32;
const auto kResource = tflite::TensorType_RESOURCE;

struct Stateful {
  StringErrorReporter reporter;
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
};

std::unique_ptr<Stateful> LoadStateful() {
  auto s = std::make_unique<Stateful>();
  const std::string path = std::string(TFI_SOURCE_DIR) + "/testdata/models/stateful_cache.tflite";
  s->model = tflite::FlatBufferModel::BuildFromFile(path.c_str(), &s->reporter);
  REQUIRE(s->model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  REQUIRE(tflite::InterpreterBuilder(*s->model, resolver, &s->reporter)(&s->interpreter) ==
          kTfLiteOk);
  return s;
}

// One call of the golden sequence: inputs set, invoked, outputs compared.
void RunCall(tflite::Interpreter& interpreter, const nlohmann::json& call) {
  const std::string key = call["signature"].get<std::string>();
  tflite::SignatureRunner* runner = interpreter.GetSignatureRunner(key.c_str());
  REQUIRE(runner != nullptr);
  REQUIRE(runner->AllocateTensors() == kTfLiteOk);
  for (const auto& [name, values] : call["inputs"].items()) {
    TfLiteTensor* t = runner->input_tensor(name.c_str());
    REQUIRE(t != nullptr);
    REQUIRE(t->bytes == values.size() * 4);
    for (size_t i = 0; i < values.size(); ++i) {
      if (t->type == kTfLiteInt32) {
        t->data.i32[i] = values[i].get<int32_t>();
      } else {
        t->data.f[i] = values[i].get<float>();
      }
    }
  }
  REQUIRE(runner->Invoke() == kTfLiteOk);
  for (const auto& [name, values] : call["outputs"].items()) {
    const TfLiteTensor* t = runner->output_tensor(name.c_str());
    REQUIRE(t != nullptr);
    REQUIRE(t->bytes == values.size() * 4);
    for (size_t i = 0; i < values.size(); ++i) {
      CAPTURE(key, name, i);
      if (t->type == kTfLiteInt32) {
        CHECK(t->data.i32[i] == values[i].get<int32_t>());
      } else {
        const float want = values[i].get<float>();
        CHECK(std::fabs(t->data.f[i] - want) <= 1e-5f * std::max(1.0f, std::fabs(want)));
      }
    }
  }
}

TEST_CASE("a converted stateful model gives TFLite's outputs over a sequence of calls") {
  std::ifstream f(std::string(TFI_SOURCE_DIR) + "/testdata/goldens/stateful_cache.json");
  const nlohmann::json calls = nlohmann::json::parse(f);
  REQUIRE(calls.size() == 6);
  auto s = LoadStateful();
  // "append" and "read" share the cache and the counter; each subgraph's CALL_ONCE of the
  // initializer runs it once in the interpreter (a second initialization would reset the
  // cache before the first "read" and the count after it).
  for (const auto& call : calls) RunCall(*s->interpreter, call);
  // Another interpreter of the same model starts from the initial state.
  auto fresh = LoadStateful();
  RunCall(*fresh->interpreter, calls[0]);
}

// VAR_HANDLE "v" -> ASSIGN_VARIABLE(a) ... READ_VARIABLE -> out, built by `build` into `b`.
int VarHandle(ModelBuilder& b, const char* name, tflite::TensorType type = kResource) {
  const int h = b.AddTensor(type, {}, std::string("handle_") + name);
  tflite::VarHandleOptionsT o;
  o.shared_name = name;
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {h}, Options(o));
  return h;
}

TEST_CASE("ASSIGN_VARIABLE takes each value's shape, READ_VARIABLE gives the last") {
  ModelBuilder b;
  const int a = b.AddTensor(kF32, {2}, "a");
  const int c = b.AddTensor(kF32, {3}, "c");
  const int out = b.AddTensor(kF32, {2}, "out");
  const int h = VarHandle(b, "v");
  const int h2 = VarHandle(b, "v");  // the same variable through a second handle
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {h, a}, {});
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {h2, c}, {});
  b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {h}, {out});
  b.SetInputs({a, c});
  b.SetOutputs({out});
  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<float>(0, {1.f, 2.f});
  m.SetInput<float>(1, {3.f, 4.f, 5.f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{3});
  CHECK(m.Output<float>(0) == std::vector<float>{3.f, 4.f, 5.f});
}

TEST_CASE("resource variables misused: refused with a message, never a crash") {
  SECTION("READ_VARIABLE before any assignment") {
    ModelBuilder b;
    const int x = b.AddTensor(kF32, {1}, "x");
    const int out = b.AddTensor(kF32, {1}, "out");
    const int y = b.AddTensor(kF32, {1}, "y");
    const int h = VarHandle(b, "never_assigned");
    b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {h}, {out});
    b.AddOperator(tflite::BuiltinOperator_ADD, {x, out}, {y}, Options(tflite::AddOptionsT()));
    b.SetInputs({x});
    b.SetOutputs({y});
    OpTestModel m(b);
    REQUIRE(m.Prepare() == kTfLiteOk);
    CHECK(m.Invoke() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("variable != nullptr"));
  }
  SECTION("a RESOURCE graph input that no VAR_HANDLE wrote") {
    ModelBuilder b;
    const int h = b.AddTensor(kResource, {}, "h");
    const int out = b.AddTensor(kF32, {1}, "out");
    b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {h}, {out});
    b.SetInputs({h});
    b.SetOutputs({out});
    OpTestModel m(b);
    REQUIRE(m.Prepare() == kTfLiteOk);
    CHECK(m.Invoke() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("holds no id"));
  }
  SECTION("VAR_HANDLE writing a FLOAT32 tensor") {
    ModelBuilder b;
    const int x = b.AddTensor(kF32, {1}, "x");
    const int h = VarHandle(b, "v", kF32);
    b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {h, x}, {});
    b.SetInputs({x});
    b.SetOutputs({});
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("VAR_HANDLE: the output must be a RESOURCE tensor"));
  }
  SECTION("reading a float variable into an int32 tensor") {
    ModelBuilder b;
    const int x = b.AddTensor(kF32, {2}, "x");
    const int out = b.AddTensor(kI32, {2}, "out");
    const int h = VarHandle(b, "v");
    b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {h, x}, {});
    b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {h}, {out});
    b.SetInputs({x});
    b.SetOutputs({out});
    OpTestModel m(b);
    REQUIRE(m.Prepare() == kTfLiteOk);
    m.SetInput<float>(0, {1.f, 2.f});
    CHECK(m.Invoke() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("FLOAT32") && Catch::Contains("INT32"));
  }
  SECTION("ASSIGN_VARIABLE with a resource id of two elements") {
    ModelBuilder b;
    const int x = b.AddTensor(kF32, {1}, "x");
    const int ids = b.AddTensor(kI32, {2}, "ids");
    b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {ids, x}, {});
    b.SetInputs({ids, x});
    b.SetOutputs({});
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("NumElements(id) != 1"));
  }
}

}  // namespace
}  // namespace tflite_inspect
