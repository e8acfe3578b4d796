// The ADD/SUB sample delegate: which nodes it takes (and why not the others), and that
// the delegated graph computes what the CPU computes.
#include "sample/sample_delegate.h"

#include <filesystem>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "catch2/catch.hpp"
#include "runtime/delegation_record.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite_inspect {
namespace {

// in(1,2,2) -ADD c-> a -SUB c-> b -MUL c-> m -ADD(RELU) m-> out; plus an int8 ADD.
std::vector<uint8_t> SampleGraph() {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "in");
  const int c = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {1, 2, 2}, {1, -2, 3, -4}, "c");
  const int row = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2}, {1, 1}, "row");
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "a");
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "s");
  const int m = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "m");
  const int r = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "r");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2}, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {in, c}, {a}, Options(tflite::AddOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_SUB, {a, c}, {s}, Options(tflite::SubOptionsT{}));
  b.AddOperator(tflite::BuiltinOperator_MUL, {s, c}, {m}, Options(tflite::MulOptionsT{}));
  tflite::AddOptionsT relu;
  relu.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_ADD, {m, m}, {r}, Options(relu));
  b.AddOperator(tflite::BuiltinOperator_ADD, {r, row}, {out}, Options(tflite::AddOptionsT{}));
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

std::vector<float> Run(const std::vector<uint8_t>& bytes, TfLiteDelegate* delegate,
                       tflite::Interpreter** keep = nullptr,
                       std::unique_ptr<tflite::Interpreter>* holder = nullptr) {
  auto model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(bytes.data()), bytes.size());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::InterpreterBuilder builder(*model, resolver);
  if (delegate != nullptr) builder.AddDelegate(delegate);
  REQUIRE(builder(&interpreter) == kTfLiteOk);
  REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
  float* in = interpreter->typed_input_tensor<float>(0);
  for (int i = 0; i < 4; ++i) in[i] = 0.5f * static_cast<float>(i) - 1.0f;
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  const float* out = interpreter->typed_output_tensor<float>(0);
  std::vector<float> result(out, out + 4);
  if (keep != nullptr) {
    *keep = interpreter.get();
    *holder = std::move(interpreter);
  }
  return result;
}

TEST_CASE("sample delegate takes ADD/SUB chains and computes what the CPU does") {
  const auto bytes = SampleGraph();
  const auto cpu = Run(bytes, nullptr);
  auto delegate = CreateSampleDelegate({});
  tflite::Interpreter* interpreter = nullptr;
  std::unique_ptr<tflite::Interpreter> holder;
  const auto delegated = Run(bytes, delegate.get(), &interpreter, &holder);
  CHECK(delegated == cpu);
  // ADD+SUB, then MUL on the CPU, then ADD(RELU); the broadcasting ADD stays on the CPU.
  std::vector<std::string> plan;
  for (int n : interpreter->execution_plan()) plan.push_back(interpreter->primary_subgraph().OpName(n));
  CHECK(plan == std::vector<std::string>{"SampleDelegate", "MUL", "SampleDelegate", "ADD"});
  const auto& records = interpreter->primary_subgraph().delegation_records();
  REQUIRE(records.size() == 1);
  CHECK(records[0]->has_reasons);
  CHECK(records[0]->unsupported.at(2) == "only ADD and SUB are supported");
  CHECK(records[0]->unsupported.at(4) == "inputs differ in shape (broadcasting is not supported)");
  holder.reset();
}

TEST_CASE("sample delegate limits: one partition, or none below the minimum size") {
  const auto bytes = SampleGraph();
  const auto cpu = Run(bytes, nullptr);
  SECTION("max_delegated_partitions=1 keeps the larger partition") {
    auto delegate = CreateSampleDelegate({1, 0});
    tflite::Interpreter* interpreter = nullptr;
    std::unique_ptr<tflite::Interpreter> holder;
    CHECK(Run(bytes, delegate.get(), &interpreter, &holder) == cpu);
    const auto& r = *interpreter->primary_subgraph().delegation_records().at(0);
    REQUIRE(r.partitions.size() == 1);
    CHECK(r.partitions[0].nodes == std::vector<int>{0, 1});
    REQUIRE(r.dropped.size() == 1);
    CHECK(r.dropped[0].nodes == std::vector<int>{3});
    CHECK(r.dropped[0].reason ==
          "1 node(s), partition #2 by size; max_delegated_partitions=1 keeps the 1 largest");
  }
  SECTION("min_nodes_per_partition=3 leaves everything on the CPU") {
    auto delegate = CreateSampleDelegate({0, 3});
    tflite::Interpreter* interpreter = nullptr;
    std::unique_ptr<tflite::Interpreter> holder;
    CHECK(Run(bytes, delegate.get(), &interpreter, &holder) == cpu);
    const auto& r = *interpreter->primary_subgraph().delegation_records().at(0);
    CHECK(r.partitions.empty());
    CHECK(r.dropped.size() == 2);
    CHECK(r.dropped[0].reason == "2 node(s), fewer than min_nodes_per_partition=3");
  }
}

// Nodes 0 (ADD), 1 (SUB), 3 (ADD RELU) are supported; the window decides which may go.
TEST_CASE("sample delegate takes only the node window --first/last_delegate_node_index gives") {
  const auto bytes = SampleGraph();
  const auto cpu = Run(bytes, nullptr);
  const std::string window_1_3 =
      "outside the node window 1..3 (options.first_delegate_node_index, options.last_delegate_node_index)";
  SECTION("1..3: node 0 stays on the CPU") {
    auto delegate = CreateSampleDelegate({0, 0, 1, 3});
    tflite::Interpreter* interpreter = nullptr;
    std::unique_ptr<tflite::Interpreter> holder;
    CHECK(Run(bytes, delegate.get(), &interpreter, &holder) == cpu);
    const auto& r = *interpreter->primary_subgraph().delegation_records().at(0);
    REQUIRE(r.partitions.size() == 2);
    CHECK(r.partitions[0].nodes == std::vector<int>{1});
    CHECK(r.partitions[1].nodes == std::vector<int>{3});
    CHECK(r.unsupported.at(0) == window_1_3);
    CHECK(r.limits.find("nodes 1..3 only") != std::string::npos);
  }
  SECTION("0..0: the scan stops at the first supported node past the window, as TFLite's") {
    auto delegate = CreateSampleDelegate({0, 0, 0, 0});
    tflite::Interpreter* interpreter = nullptr;
    std::unique_ptr<tflite::Interpreter> holder;
    CHECK(Run(bytes, delegate.get(), &interpreter, &holder) == cpu);
    const auto& r = *interpreter->primary_subgraph().delegation_records().at(0);
    REQUIRE(r.partitions.size() == 1);
    CHECK(r.partitions[0].nodes == std::vector<int>{0});
    // Node 1 is the first supported node past 0; nodes after it are not even asked.
    for (int n : {1, 2, 3, 4}) {
      CAPTURE(n);
      CHECK(r.unsupported.at(n) == "outside the node window 0..0 (options.first_delegate_node_index, "
                                   "options.last_delegate_node_index)");
    }
  }
}

TEST_CASE("sample delegate refuses non-float inputs with the dtype") {
  ModelBuilder b;
  QuantSpec q{{0.5f}, {0}};
  const int x = b.AddTensor(tflite::TensorType_INT8, {4}, "x", &q);
  const int y = b.AddTensor(tflite::TensorType_INT8, {4}, "y", &q);
  const int z = b.AddTensor(tflite::TensorType_INT8, {4}, "z", &q);
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, y}, {z}, Options(tflite::AddOptionsT{}));
  b.SetInputs({x, y});
  b.SetOutputs({z});
  const auto bytes = b.Build();
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver)(&interpreter) == kTfLiteOk);
  auto delegate = CreateSampleDelegate({});
  REQUIRE(interpreter->ModifyGraphWithDelegate(delegate.get()) == kTfLiteOk);
  const auto& r = *interpreter->primary_subgraph().delegation_records().at(0);
  CHECK(r.unsupported.at(0) == "input 0 is INT8, only FLOAT32 is supported");
  CHECK(r.partitions.empty());
}

}  // namespace
}  // namespace tflite_inspect

namespace tflite_inspect {
namespace {

TEST_CASE("sample delegate gives the CPU's outputs on real float models", "[real]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(TFI_SHARED_DIR) / "models" / "mediapipe";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    WARN("skipped: no models at " << root.string());
    return;
  }
  int checked = 0;
  for (const char* name : {"face_detection_short_range.tflite", "pose_detection.tflite",
                           "palm_detection_lite.tflite"}) {
    const std::string path = (root / name).string();
    if (!fs::exists(path)) continue;
    CAPTURE(path);
    auto run = [&](TfLiteDelegate* delegate, int* partitions) {
      auto model = tflite::FlatBufferModel::BuildFromFile(path.c_str());
      REQUIRE(model != nullptr);
      tflite::ops::builtin::BuiltinOpResolver resolver;
      std::unique_ptr<tflite::Interpreter> interpreter;
      tflite::InterpreterBuilder builder(*model, resolver);
      if (delegate != nullptr) builder.AddDelegate(delegate);
      REQUIRE(builder(&interpreter) == kTfLiteOk);
      REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
      TfLiteTensor* in = interpreter->input_tensor(0);
      for (size_t i = 0; i < in->bytes / sizeof(float); ++i) {
        in->data.f[i] = static_cast<float>((i * 7919) % 255) / 127.5f - 1.0f;
      }
      REQUIRE(interpreter->Invoke() == kTfLiteOk);
      std::vector<std::vector<char>> outs;
      for (size_t o = 0; o < interpreter->outputs().size(); ++o) {
        const TfLiteTensor* t = interpreter->output_tensor(o);
        outs.emplace_back(t->data.raw, t->data.raw + t->bytes);
      }
      if (partitions != nullptr) {
        *partitions = 0;
        for (const auto& r : interpreter->primary_subgraph().delegation_records()) {
          *partitions += static_cast<int>(r->partitions.size());
        }
      }
      return outs;
    };
    const auto cpu = run(nullptr, nullptr);
    auto delegate = CreateSampleDelegate({});
    int partitions = 0;
    const auto delegated = run(delegate.get(), &partitions);
    CHECK(delegated == cpu);
    CHECK(partitions > 0);
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace
}  // namespace tflite_inspect
