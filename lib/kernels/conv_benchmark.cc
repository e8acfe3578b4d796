// Microbenchmarks of the heavy kernels through the real interpreter (not a test).
//   build/lib/kernels_benchmark [--benchmark_filter=...] [--benchmark_min_time=0.2]
// Each case builds a one-op model with ModelBuilder, loads it with OpTestModel (FlatBuffer
// model -> InterpreterBuilder -> AllocateTensors) using the benchmark argument as
// num_threads (1 or 2), fills the input once, and times only Invoke(). "GFLOP/s" counts
// 2 * multiply-accumulates per invoke.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "kernels/testing/op_test_util.h"

namespace {

using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT16;
using tflite::TensorType_INT32;
using tflite::TensorType_INT64;
using tflite::TensorType_INT8;
using tflite_inspect::ModelBuilder;
using tflite_inspect::OpTestModel;
using tflite_inspect::Options;
using tflite_inspect::QuantSpec;

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

std::vector<int8_t> RandomInt8(size_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

size_t Count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// Prepares the model, fills each input with random data, then times Invoke() only.
void RunModel(benchmark::State& state, const ModelBuilder& b, double macs) {
  const int threads = static_cast<int>(state.range(0));
  OpTestModel m(b, threads);
  if (m.Prepare() != kTfLiteOk) {
    state.SkipWithError(("Prepare failed: " + m.errors()).c_str());
    return;
  }
  tflite::Interpreter& interp = m.interpreter();
  for (size_t i = 0; i < interp.inputs().size(); ++i) {
    TfLiteTensor* t = interp.input_tensor(i);
    if (t->type == kTfLiteFloat32) {
      m.SetInput<float>(static_cast<int>(i), RandomFloats(t->bytes / sizeof(float), 7 + i));
    } else if (t->type == kTfLiteInt8) {
      m.SetInput<int8_t>(static_cast<int>(i), RandomInt8(t->bytes, 7 + i, -128, 127));
    } else if (t->type == kTfLiteInt16) {
      const auto bytes = RandomInt8(t->bytes, 7 + i, -128, 127);
      std::vector<int16_t> v(t->bytes / sizeof(int16_t));
      std::memcpy(v.data(), bytes.data(), v.size() * sizeof(int16_t));
      m.SetInput<int16_t>(static_cast<int>(i), v);
    }
  }
  if (m.Invoke() != kTfLiteOk) {  // Warm-up (and a check that the op runs at all).
    state.SkipWithError(("Invoke failed: " + m.errors()).c_str());
    return;
  }
  for (auto _ : state) {
    if (m.Invoke() != kTfLiteOk) {
      state.SkipWithError("Invoke failed");
      break;
    }
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2e-9 * macs, benchmark::Counter::kIsIterationInvariantRate);
}

// Float CONV_2D, SAME padding, stride 1, with bias.
void BM_Conv2DFloat(benchmark::State& state, int h, int w, int ic, int oc, int k) {
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {1, h, w, ic}, "in");
  const int wt = b.AddConstTensor<float>(TensorType_FLOAT32, {oc, k, k, ic},
                                         RandomFloats(Count({oc, k, k, ic}), 1), "w");
  const int bias = b.AddConstTensor<float>(TensorType_FLOAT32, {oc}, RandomFloats(oc, 2), "b");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, h, w, oc}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, wt, bias}, {out}, Options(o), 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * h * w * oc * k * k * ic);
}

// int8 per-channel CONV_2D (version 3), SAME padding, stride 1, with int32 bias.
void BM_Conv2DInt8(benchmark::State& state, int h, int w, int ic, int oc, int k) {
  const float in_scale = 0.05f;
  QuantSpec in_q{{in_scale}, {-3}, 0}, out_q{{0.2f}, {5}, 0}, w_q, b_q;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> sd(0.002f, 0.02f);
  for (int c = 0; c < oc; ++c) {
    w_q.scale.push_back(sd(rng));
    b_q.scale.push_back(in_scale * w_q.scale.back());
  }
  w_q.zero_point.assign(oc, 0);
  b_q.zero_point.assign(oc, 0);
  std::vector<int32_t> bias_v(oc);
  for (auto& x : bias_v) x = static_cast<int32_t>(rng() % 6001) - 3000;
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_INT8, {1, h, w, ic}, "in", &in_q);
  const int wt = b.AddConstTensor<int8_t>(TensorType_INT8, {oc, k, k, ic},
                                          RandomInt8(Count({oc, k, k, ic}), 4, -127, 127), "w",
                                          &w_q);
  const int bias = b.AddConstTensor<int32_t>(TensorType_INT32, {oc}, bias_v, "b", &b_q);
  const int out = b.AddTensor(TensorType_INT8, {1, h, w, oc}, "out", &out_q);
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, wt, bias}, {out}, Options(o), 3);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * h * w * oc * k * k * ic);
}

// 16x8 CONV_2D (version 4): int16 input/output (zero points 0), int8 per-channel filter,
// int64 bias, SAME padding, stride 1.
void BM_Conv2DInt16(benchmark::State& state, int h, int w, int ic, int oc, int k) {
  const float in_scale = 0.0005f;
  QuantSpec in_q{{in_scale}, {0}, 0}, out_q{{0.01f}, {0}, 0}, w_q, b_q;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> sd(0.002f, 0.02f);
  for (int c = 0; c < oc; ++c) {
    w_q.scale.push_back(sd(rng));
    b_q.scale.push_back(in_scale * w_q.scale.back());
  }
  w_q.zero_point.assign(oc, 0);
  b_q.zero_point.assign(oc, 0);
  std::vector<int64_t> bias_v(oc);
  for (auto& x : bias_v) x = static_cast<int64_t>(rng() % 600001) - 300000;
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_INT16, {1, h, w, ic}, "in", &in_q);
  const int wt = b.AddConstTensor<int8_t>(TensorType_INT8, {oc, k, k, ic},
                                          RandomInt8(Count({oc, k, k, ic}), 4, -127, 127), "w",
                                          &w_q);
  const int bias = b.AddConstTensor<int64_t>(TensorType_INT64, {oc}, bias_v, "b", &b_q);
  const int out = b.AddTensor(TensorType_INT16, {1, h, w, oc}, "out", &out_q);
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, wt, bias}, {out}, Options(o), 4);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * h * w * oc * k * k * ic);
}

// Float DEPTHWISE_CONV_2D, multiplier 1, SAME padding, stride 1, with bias.
void BM_DepthwiseFloat(benchmark::State& state, int h, int w, int c, int k) {
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {1, h, w, c}, "in");
  const int wt = b.AddConstTensor<float>(TensorType_FLOAT32, {1, k, k, c},
                                         RandomFloats(Count({1, k, k, c}), 1), "w");
  const int bias = b.AddConstTensor<float>(TensorType_FLOAT32, {c}, RandomFloats(c, 2), "b");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, h, w, c}, "out");
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, wt, bias}, {out}, Options(o), 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * h * w * c * k * k);
}

// Float FULLY_CONNECTED, batch 1, with bias.
void BM_FullyConnectedFloat(benchmark::State& state, int in_size, int out_size) {
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {1, in_size}, "in");
  const int wt = b.AddConstTensor<float>(TensorType_FLOAT32, {out_size, in_size},
                                         RandomFloats(Count({out_size, in_size}), 1), "w");
  const int bias =
      b.AddConstTensor<float>(TensorType_FLOAT32, {out_size}, RandomFloats(out_size, 2), "b");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, out_size}, "out");
  tflite::FullyConnectedOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, wt, bias}, {out}, Options(o), 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * in_size * out_size);
}

// Hybrid FULLY_CONNECTED (version 3): float input and output, int8 weights with one
// scale, float bias; each batch row is quantized on the fly.
void BM_FullyConnectedHybrid(benchmark::State& state, int batch, int in_size, int out_size) {
  QuantSpec w_q{{0.01f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {batch, in_size}, "in");
  const int wt = b.AddConstTensor<int8_t>(TensorType_INT8, {out_size, in_size},
                                          RandomInt8(Count({out_size, in_size}), 1, -127, 127),
                                          "w", &w_q);
  const int bias =
      b.AddConstTensor<float>(TensorType_FLOAT32, {out_size}, RandomFloats(out_size, 2), "b");
  const int out = b.AddTensor(TensorType_FLOAT32, {batch, out_size}, "out");
  tflite::FullyConnectedOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, wt, bias}, {out}, Options(o), 3);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * batch * in_size * out_size);
}

// Hybrid CONV_2D (version 2): float input and output, int8 filter with one scale, SAME
// padding, stride 1.
void BM_Conv2DHybrid(benchmark::State& state, int h, int w, int ic, int oc, int k) {
  QuantSpec w_q{{0.01f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(TensorType_FLOAT32, {1, h, w, ic}, "in");
  const int wt = b.AddConstTensor<int8_t>(TensorType_INT8, {oc, k, k, ic},
                                          RandomInt8(Count({oc, k, k, ic}), 4, -127, 127), "w",
                                          &w_q);
  const int bias = b.AddConstTensor<float>(TensorType_FLOAT32, {oc}, RandomFloats(oc, 2), "b");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, h, w, oc}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.dilation_h_factor = o.dilation_w_factor = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, wt, bias}, {out}, Options(o), 2);
  b.SetInputs({in});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * h * w * oc * k * k * ic);
}

// Float BATCH_MATMUL of two non-constant [batch, n, n] inputs.
void BM_BatchMatMulFloat(benchmark::State& state, int batch, int m, int k, int n) {
  ModelBuilder b;
  const int x = b.AddTensor(TensorType_FLOAT32, {batch, m, k}, "x");
  const int y = b.AddTensor(TensorType_FLOAT32, {batch, k, n}, "y");
  const int out = b.AddTensor(TensorType_FLOAT32, {batch, m, n}, "out");
  tflite::BatchMatMulOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out}, Options(o), 1);
  b.SetInputs({x, y});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * batch * m * k * n);
}

// Hybrid BATCH_MATMUL (version 1): float x [batch, m, k] times a constant int8 y
// [k, n] with one scale, float output.
void BM_BatchMatMulHybrid(benchmark::State& state, int batch, int m, int k, int n) {
  QuantSpec y_q{{0.01f}, {0}, 0};
  ModelBuilder b;
  const int x = b.AddTensor(TensorType_FLOAT32, {batch, m, k}, "x");
  const int y = b.AddConstTensor<int8_t>(TensorType_INT8, {k, n},
                                         RandomInt8(Count({k, n}), 1, -127, 127), "y", &y_q);
  const int out = b.AddTensor(TensorType_FLOAT32, {batch, m, n}, "out");
  tflite::BatchMatMulOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out}, Options(o), 1);
  b.SetInputs({x});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * batch * m * k * n);
}

// int16 BATCH_MATMUL (version 3) of two non-constant [batch, n, n] inputs, zero points 0.
void BM_BatchMatMulInt16(benchmark::State& state, int batch, int m, int k, int n) {
  QuantSpec x_q{{0.001f}, {0}, 0}, y_q{{0.002f}, {0}, 0}, out_q{{0.5f}, {0}, 0};
  ModelBuilder b;
  const int x = b.AddTensor(TensorType_INT16, {batch, m, k}, "x", &x_q);
  const int y = b.AddTensor(TensorType_INT16, {batch, k, n}, "y", &y_q);
  const int out = b.AddTensor(TensorType_INT16, {batch, m, n}, "out", &out_q);
  tflite::BatchMatMulOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out}, Options(o), 3);
  b.SetInputs({x, y});
  b.SetOutputs({out});
  RunModel(state, b, 1.0 * batch * m * k * n);
}

// Float TRANSPOSE_CONV, SAME padding, with bias (version 3 adds the bias input).
void BM_TransposeConvFloat(benchmark::State& state, int h, int w, int ic, int oh, int ow, int oc,
                           int k, int stride) {
  ModelBuilder b;
  const int shape = b.AddConstTensor<int32_t>(TensorType_INT32, {4}, {1, oh, ow, oc}, "shape");
  const int wt = b.AddConstTensor<float>(TensorType_FLOAT32, {oc, k, k, ic},
                                         RandomFloats(Count({oc, k, k, ic}), 1), "w");
  const int in = b.AddTensor(TensorType_FLOAT32, {1, h, w, ic}, "in");
  const int bias = b.AddConstTensor<float>(TensorType_FLOAT32, {oc}, RandomFloats(oc, 2), "b");
  const int out = b.AddTensor(TensorType_FLOAT32, {1, oh, ow, oc}, "out");
  tflite::TransposeConvOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = stride;
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {shape, wt, in, bias}, {out}, Options(o),
                3);
  b.SetInputs({in});
  b.SetOutputs({out});
  // Every input element meets every filter tap and output channel once.
  RunModel(state, b, 1.0 * h * w * ic * k * k * oc);
}

BENCHMARK_CAPTURE(BM_Conv2DFloat, f32_112x112x32_to_64_3x3, 112, 112, 32, 64, 3)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Conv2DFloat, f32_56x56x64_to_64_1x1, 56, 56, 64, 64, 1)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DepthwiseFloat, f32_112x112x32_3x3, 112, 112, 32, 3)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FullyConnectedFloat, f32_1x1024_to_1000, 1024, 1000)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_BatchMatMulFloat, f32_8x128x128, 8, 128, 128, 128)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TransposeConvFloat, f32_32x32x32_to_64x64x16_3x3_s2, 32, 32, 32, 64, 64, 16,
                  3, 2)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Conv2DInt8, i8_56x56x64_to_64_3x3, 56, 56, 64, 64, 3)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Conv2DInt16, i16x8_56x56x64_to_64_3x3, 56, 56, 64, 64, 3)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FullyConnectedHybrid, hybrid_1x1024_to_1000, 1, 1024, 1000)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FullyConnectedHybrid, hybrid_32x1024_to_1000, 32, 1024, 1000)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Conv2DHybrid, hybrid_56x56x64_to_64_3x3, 56, 56, 64, 64, 3)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchMatMulHybrid, hybrid_8x128x128, 8, 128, 128, 128)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchMatMulInt16, i16_8x128x128, 8, 128, 128, 128)
    ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
