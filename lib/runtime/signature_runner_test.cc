// Signatures (Interpreter::signature_keys / GetSignatureRunner, SignatureRunner) on a
// model made by TensorFlow's converter with two signatures on two subgraphs
// (scripts/gen_testdata.py), against TFLite's outputs for the same inputs
// (testdata/goldens/two_signatures.json, from ai-edge-litert's builtin kernels).
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "nlohmann/json.hpp"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/signature_runner.h"
#include "tools/string_reporter.h"

namespace {

const std::string kModel = std::string(TFI_SOURCE_DIR) + "/testdata/models/two_signatures.tflite";

nlohmann::json Goldens() {
  std::ifstream f(std::string(TFI_SOURCE_DIR) + "/testdata/goldens/two_signatures.json");
  return nlohmann::json::parse(f);
}

struct Loaded {
  tflite_inspect::StringErrorReporter reporter;
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
};

std::unique_ptr<Loaded> Load() {
  auto l = std::make_unique<Loaded>();
  l->model = tflite::FlatBufferModel::BuildFromFile(kModel.c_str(), &l->reporter);
  REQUIRE(l->model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  REQUIRE(tflite::InterpreterBuilder(*l->model, resolver, &l->reporter)(&l->interpreter) ==
          kTfLiteOk);
  return l;
}

void CheckOutputs(tflite::SignatureRunner* runner, const nlohmann::json& expected) {
  for (const auto& [name, values] : expected.items()) {
    const TfLiteTensor* t = runner->output_tensor(name.c_str());
    REQUIRE(t != nullptr);
    REQUIRE(t->bytes == values.size() * sizeof(float));
    for (size_t i = 0; i < values.size(); ++i) {
      const float want = values[i].get<float>();
      CAPTURE(name, i);
      CHECK(std::fabs(t->data.f[i] - want) <= 1e-5f * std::max(1.0f, std::fabs(want)));
    }
  }
}

TEST_CASE("signature keys, subgraphs and names are the model's") {
  auto l = Load();
  tflite::Interpreter& interpreter = *l->interpreter;
  const auto keys = interpreter.signature_keys();
  REQUIRE(keys.size() == 2);
  CHECK(*keys[0] == "decode");
  CHECK(*keys[1] == "encode");
  CHECK(interpreter.GetSubgraphIndexFromSignature("decode") == 0);
  CHECK(interpreter.GetSubgraphIndexFromSignature("encode") == 1);
  CHECK(interpreter.GetSubgraphIndexFromSignature("nope") == -1);
  CHECK(interpreter.GetSubgraphIndexFromSignature(nullptr) == -1);
  CHECK(interpreter.GetSignatureRunner("nope") == nullptr);
  CHECK(interpreter.GetSignatureRunner(nullptr) == nullptr);
  CHECK(interpreter.signature_inputs("nope").empty());

  tflite::SignatureRunner* decode = interpreter.GetSignatureRunner("decode");
  REQUIRE(decode != nullptr);
  CHECK(interpreter.GetSignatureRunner("decode") == decode);  // made once
  CHECK(decode->signature_key() == "decode");
  CHECK(decode->input_size() == 2);
  CHECK(decode->output_size() == 2);
  // The signature's order is by name; the subgraph's is the model's input order.
  REQUIRE(decode->input_names().size() == 2);
  CHECK(std::string(decode->input_names()[0]) == "code");
  CHECK(std::string(decode->input_names()[1]) == "extra");
  REQUIRE(decode->subgraph_input_names().size() == 2);
  CHECK(std::string(decode->subgraph_input_names()[0]) == "extra");
  CHECK(std::string(decode->subgraph_input_names()[1]) == "code");
  CHECK(std::string(decode->output_names()[0]) == "norm");
  CHECK(interpreter.signature_outputs("decode").at("out") ==
        static_cast<uint32_t>(decode->subgraph()->outputs()[1]));

  CHECK(decode->input_tensor("nope") == nullptr);
  CHECK(decode->output_tensor("nope") == nullptr);
  CHECK(decode->ResizeInputTensor("nope", {1, 3}) == kTfLiteError);
  CHECK(l->reporter.text().find("Input name nope was not found") != std::string::npos);
  CHECK(l->reporter.text().find("Output name nope was not found") != std::string::npos);
}

TEST_CASE("each signature runs its own subgraph and matches TFLite") {
  const auto goldens = Goldens();
  auto l = Load();
  tflite::Interpreter& interpreter = *l->interpreter;
  // The second subgraph alone: the primary one is never allocated.
  tflite::SignatureRunner* encode = interpreter.GetSignatureRunner("encode");
  REQUIRE(encode != nullptr);
  REQUIRE(encode->AllocateTensors() == kTfLiteOk);
  CHECK(interpreter.primary_subgraph().arena_bytes() == 0);
  for (const auto& [name, values] : goldens["encode"]["inputs"].items()) {
    TfLiteTensor* t = encode->input_tensor(name.c_str());
    REQUIRE(t != nullptr);
    REQUIRE(t->bytes == values.size() * sizeof(float));
    for (size_t i = 0; i < values.size(); ++i) t->data.f[i] = values[i].get<float>();
  }
  REQUIRE(encode->Invoke() == kTfLiteOk);
  CheckOutputs(encode, goldens["encode"]["outputs"]);

  tflite::SignatureRunner* decode = interpreter.GetSignatureRunner("decode");
  REQUIRE(decode->AllocateTensors() == kTfLiteOk);
  for (const auto& [name, values] : goldens["decode"]["inputs"].items()) {
    TfLiteTensor* t = interpreter.input_tensor_by_signature(name.c_str(), "decode");
    REQUIRE(t != nullptr);
    for (size_t i = 0; i < values.size(); ++i) t->data.f[i] = values[i].get<float>();
  }
  REQUIRE(decode->Invoke() == kTfLiteOk);
  CheckOutputs(decode, goldens["decode"]["outputs"]);
  const TfLiteTensor* norm = interpreter.output_tensor_by_signature("norm", "decode");
  REQUIRE(norm != nullptr);
  CHECK(norm->data.f[0] == Approx(goldens["decode"]["outputs"]["norm"][0].get<float>()));
}

TEST_CASE("a runner's Invoke is cancelled by the interpreter's Cancel, once") {
  auto l = Load();
  tflite::Interpreter& interpreter = *l->interpreter;
  tflite::SignatureRunner* encode = interpreter.GetSignatureRunner("encode");
  REQUIRE(encode->AllocateTensors() == kTfLiteOk);
  CHECK(encode->Cancel() == kTfLiteError);  // cancellation not enabled
  REQUIRE(interpreter.EnableCancellation() == kTfLiteOk);
  REQUIRE(encode->Cancel() == kTfLiteOk);
  // A cancel before an Invoke does not affect it (each Invoke starts uncancelled), as TFLite.
  CHECK(encode->Invoke() == kTfLiteOk);
}

}  // namespace
