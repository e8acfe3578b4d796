// Test helpers for delegates: small single-op models from the model builder, a run of a
// model with or without a delegate on seeded inputs, and the project's float rule
// |got - ref| <= tol * max(1, max|ref|) per output. Header-only; tests only.
#ifndef TFLITE_INSPECT_LIB_TESTING_DELEGATE_CHECK_H_
#define TFLITE_INSPECT_LIB_TESTING_DELEGATE_CHECK_H_

#include <cmath>
#include <map>
#include <memory>
#include <random>
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
namespace testing {

struct Outcome {
  std::vector<std::vector<float>> outputs;
  int delegate_nodes = 0;  // DELEGATE nodes in the plan
  int cpu_nodes = 0;
  std::map<int, std::string> refused;  // node -> reason, from the delegation record
  std::vector<std::string> log;        // the delegation record's log lines
};

// Runs `bytes` (float inputs from a seeded normal distribution) on our CPU kernels, or
// with `delegate` applied first; `resolver` defaults to the builtin ops.
inline Outcome RunWith(const std::vector<uint8_t>& bytes, TfLiteDelegate* delegate, int threads = 1,
                       const tflite::OpResolver* resolver = nullptr) {
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  REQUIRE(model != nullptr);
  tflite::ops::builtin::BuiltinOpResolver builtins;
  std::unique_ptr<tflite::Interpreter> interpreter;
  REQUIRE(tflite::InterpreterBuilder(*model, resolver != nullptr ? *resolver : builtins)(&interpreter, threads) ==
          kTfLiteOk);
  if (delegate != nullptr) REQUIRE(interpreter->ModifyGraphWithDelegate(delegate) == kTfLiteOk);
  REQUIRE(interpreter->AllocateTensors() == kTfLiteOk);
  std::mt19937 rng(11);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  for (size_t i = 0; i < interpreter->inputs().size(); ++i) {
    TfLiteTensor* t = interpreter->input_tensor(i);
    for (size_t k = 0; k < t->bytes / sizeof(float); ++k) t->data.f[k] = dist(rng);
  }
  REQUIRE(interpreter->Invoke() == kTfLiteOk);
  Outcome o;
  for (size_t i = 0; i < interpreter->outputs().size(); ++i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    o.outputs.emplace_back(t->data.f, t->data.f + t->bytes / sizeof(float));
  }
  for (int n : interpreter->execution_plan()) {
    if (interpreter->node_and_registration(n)->first.delegate) ++o.delegate_nodes;
    else ++o.cpu_nodes;
  }
  for (const auto& r : interpreter->primary_subgraph().delegation_records()) {
    o.refused = r->unsupported;
    o.log = r->log;
  }
  return o;
}

// Every output within tol * max(1, max|ref|) of the reference (`loose` instead of
// `tol` for output `loose_output`).
inline void ExpectClose(const Outcome& ref, const Outcome& got, float tol = 1e-4f, int loose_output = -1,
                        float loose = 0) {
  REQUIRE(ref.outputs.size() == got.outputs.size());
  for (size_t i = 0; i < ref.outputs.size(); ++i) {
    REQUIRE(ref.outputs[i].size() == got.outputs[i].size());
    float max_ref = 0;
    for (float v : ref.outputs[i]) max_ref = std::max(max_ref, std::fabs(v));
    const float limit = (static_cast<int>(i) == loose_output ? loose : tol) * std::max(1.0f, max_ref);
    for (size_t k = 0; k < ref.outputs[i].size(); ++k) {
      if (!(std::fabs(ref.outputs[i][k] - got.outputs[i][k]) <= limit)) {
        CAPTURE(i, k, ref.outputs[i][k], got.outputs[i][k], limit);
        FAIL("delegate output differs from the CPU");
      }
    }
  }
}

// Deterministic weights: multiples of `scale` in [-8, 8] * scale.
inline std::vector<float> Ramp(size_t n, float scale = 0.1f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(static_cast<int>(i % 17) - 8);
  return v;
}

inline int Count(const std::vector<int32_t>& shape) {
  int n = 1;
  for (int d : shape) n *= d;
  return n;
}

// CONV_2D or DEPTHWISE_CONV_2D with constant Ramp weights (and bias unless `bias` false).
inline std::vector<uint8_t> ConvModel(tflite::BuiltinOperator op, std::vector<int32_t> in_shape,
                                      std::vector<int32_t> filter_shape, std::vector<int32_t> out_shape,
                                      OpOptions options, bool bias = true) {
  using tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, in_shape, "in");
  const int f = b.AddConstTensor<float>(TensorType_FLOAT32, filter_shape, Ramp(Count(filter_shape)), "f");
  const bool dw = op == tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
  const int bias_channels = dw ? filter_shape[3] : filter_shape[0];
  const int bi = bias ? b.AddConstTensor<float>(TensorType_FLOAT32, {bias_channels}, Ramp(bias_channels, 0.5f), "b") : -1;
  const int out = b.AddTensor(TensorType_FLOAT32, out_shape, "out");
  b.AddOperator(op, {in, f, bi}, {out}, options, dw ? 2 : 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

inline OpOptions ConvOptions(tflite::Padding pad, int stride, int dilation,
                             tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE) {
  tflite::Conv2DOptionsT o;
  o.padding = pad;
  o.stride_w = o.stride_h = stride;
  o.dilation_w_factor = o.dilation_h_factor = dilation;
  o.fused_activation_function = act;
  return Options(o);
}

// in (runtime) op c (constant Ramp * 0.3) -> out.
inline std::vector<uint8_t> BinaryModel(tflite::BuiltinOperator op, std::vector<int32_t> a_shape,
                                        std::vector<int32_t> b_shape, std::vector<int32_t> out_shape,
                                        OpOptions options = {}) {
  using tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int a = b.AddTensor(TensorType_FLOAT32, a_shape, "a");
  const int c = b.AddConstTensor<float>(TensorType_FLOAT32, b_shape, Ramp(Count(b_shape), 0.3f), "c");
  const int out = b.AddTensor(TensorType_FLOAT32, out_shape, "out");
  b.AddOperator(op, {a, c}, {out}, options);
  b.SetInputs({a});
  b.SetOutputs({out});
  return b.Build();
}

inline std::vector<uint8_t> UnaryModel(tflite::BuiltinOperator op, OpOptions options = {},
                                       std::vector<int32_t> shape = {2, 3, 5},
                                       std::vector<int32_t> out_shape = {}) {
  using tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, shape, "in");
  const int out = b.AddTensor(TensorType_FLOAT32, out_shape.empty() ? shape : out_shape, "out");
  b.AddOperator(op, {in}, {out}, options);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

// TRANSPOSE_CONV 1x4x5x3 -> 2 channels, 3x3 Ramp filter, bias, stride 2, `pad`.
inline std::vector<uint8_t> TransposeConvModel(tflite::Padding pad) {
  using tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {1, 4, 5, 3}, "in");
  const std::vector<int32_t> out_shape =
      pad == tflite::Padding_SAME ? std::vector<int32_t>{1, 8, 10, 2} : std::vector<int32_t>{1, 9, 11, 2};
  const int shape = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {4}, out_shape, "shape");
  const int f = b.AddConstTensor<float>(TensorType_FLOAT32, {2, 3, 3, 3}, Ramp(54), "f");
  const int bias = b.AddConstTensor<float>(TensorType_FLOAT32, {2}, {0.5f, -0.25f}, "b");
  const int out = b.AddTensor(TensorType_FLOAT32, out_shape, "out");
  tflite::TransposeConvOptionsT t;
  t.padding = pad;
  t.stride_w = t.stride_h = 2;
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {shape, f, in, bias}, {out}, Options(t), 3);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

// FULLY_CONNECTED [2, 3, 10] x [7, 10] + bias, RELU, with or without keep_num_dims.
inline std::vector<uint8_t> FullyConnectedModel(bool keep_num_dims) {
  using tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {2, 3, 10}, "in");
  const int w = b.AddConstTensor<float>(TensorType_FLOAT32, {7, 10}, Ramp(70), "w");
  const int bias = b.AddConstTensor<float>(TensorType_FLOAT32, {7}, Ramp(7), "b");
  const int out = b.AddTensor(TensorType_FLOAT32,
                              keep_num_dims ? std::vector<int32_t>{2, 3, 7} : std::vector<int32_t>{6, 7}, "out");
  tflite::FullyConnectedOptionsT o;
  o.keep_num_dims = keep_num_dims;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, w, bias}, {out}, Options(o), keep_num_dims ? 5 : 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Build();
}

}  // namespace testing
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TESTING_DELEGATE_CHECK_H_
