// The test delegate: it claims the ops it is told to, partitions like any delegate,
// and gives results identical to the CPU's because it runs the CPU kernels it replaced;
// checked on every model in ../shared/models that the CPU runs.
#include "sample/test_delegate.h"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "runtime/delegation_record.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite_inspect {
namespace {

namespace fs = std::filesystem;

TEST_CASE("ParseOpList trims and drops empty items") {
  CHECK(ParseOpList(" ADD, CONV_2D,,MyOp ") == std::vector<std::string>{"ADD", "CONV_2D", "MyOp"});
  CHECK(ParseOpList("").empty());
}

// Runs `path` once with seeded inputs; with the delegate when given.
std::vector<std::vector<char>> RunModel(const std::string& path, TfLiteDelegate* delegate,
                                        std::unique_ptr<tflite::Interpreter>* keep = nullptr) {
  auto model = tflite::FlatBufferModel::BuildFromFile(path.c_str());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::InterpreterBuilder builder(*model, resolver);
  if (delegate != nullptr) builder.AddDelegate(delegate);
  REQUIRE(builder(&interpreter) == kTfLiteOk);
  REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
  std::mt19937 rng(7);
  for (size_t i = 0; i < interpreter->inputs().size(); ++i) {
    TfLiteTensor* t = interpreter->input_tensor(i);
    if (t->type == kTfLiteFloat32) {
      std::normal_distribution<float> dist(0.0f, 1.0f);
      for (size_t k = 0; k < t->bytes / 4; ++k) t->data.f[k] = dist(rng);
    } else {
      for (size_t k = 0; k < t->bytes; ++k) t->data.raw[k] = static_cast<char>(rng() % 7);
    }
  }
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  std::vector<std::vector<char>> outputs;
  for (size_t i = 0; i < interpreter->outputs().size(); ++i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    outputs.emplace_back(t->data.raw, t->data.raw + t->bytes);
  }
  if (keep != nullptr) *keep = std::move(interpreter);
  return outputs;
}

TEST_CASE("test delegate results equal the CPU's on the real models", "[real]") {
  const fs::path root = fs::path(TFI_SHARED_DIR) / "models";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    WARN("skipped: no models at " << root.string());
    return;
  }
  // Models the CPU runs without custom ops (the MediaPipe custom ops need --custom_ops).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"mediapipe/face_detection_short_range.tflite", "CONV_2D,DEPTHWISE_CONV_2D,ADD,RELU"},
      {"mediapipe/pose_detection.tflite", "CONV_2D,ADD,RESHAPE,CONCATENATION"},
      {"tflm/hello_world_int8.tflite", "FULLY_CONNECTED"},
      {"tflm/trained_lstm_int8.tflite", "UNIDIRECTIONAL_SEQUENCE_LSTM,FULLY_CONNECTED"},
  };
  int checked = 0;
  for (const auto& [rel, ops] : cases) {
    const std::string path = (root / rel).string();
    if (!fs::exists(path)) continue;
    CAPTURE(path, ops);
    const auto cpu = RunModel(path, nullptr);
    TestDelegateOptions options;
    options.ops = ParseOpList(ops);
    auto delegate = CreateTestDelegate(options);
    std::unique_ptr<tflite::Interpreter> interpreter;
    const auto delegated = RunModel(path, delegate.get(), &interpreter);
    CHECK(delegated == cpu);
    const auto& records = interpreter->primary_subgraph().delegation_records();
    REQUIRE(records.size() == 1);
    CHECK(records[0]->status == kTfLiteOk);
    CHECK_FALSE(records[0]->partitions.empty());
    interpreter.reset();
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace
}  // namespace tflite_inspect
