// Kernel goldens from the real TFLite runtime. Each case is a small single-op model built
// here with the ModelBuilder; scripts/gen_kernel_goldens.py writes the models (through the
// hidden [.write_kernel_models] test below), runs them with ai-edge-litert's reference
// kernels (BUILTIN_REF) on seeded inputs and commits testdata/kernels/<case>/{model.tflite,
// input_<i>.bin, output_<i>.bin, report.json}. Our kernels must reproduce every output:
// integer outputs exactly, float outputs bit for bit unless a case names a tolerance.
// A case TFLite refuses at AllocateTensors (report.json "refused") must fail here too
// (kernels/testing/golden_test_util.h; more ops' cases: tflite_goldens_ops_test.cc).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "builder/model_builder.h"
#include "flatbuffers/flexbuffers.h"
#include "kernels/testing/conv_test_util.h"
#include "kernels/testing/golden_test_util.h"
#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

using conv_test::RandomFloats;
using conv_test::RandomInts;
using golden_test::GoldenCase;
using golden_test::WriteModels;

// Per-channel int8 weights: values in [-127, 127], scales spread over a decade.
QuantSpec ChannelScales(int channels, int dim, float base) {
  QuantSpec q;
  for (int c = 0; c < channels; ++c) q.scale.push_back(base * (1.0f + 0.37f * c));
  q.zero_point.assign(channels, 0);
  q.quantized_dimension = dim;
  return q;
}

void SingleIo(ModelBuilder& b, int in, int out) {
  b.SetInputs({in});
  b.SetOutputs({out});
}

// --- DEPTHWISE_CONV_2D hybrid (float input, int8 per-channel filter) -------------------

struct DwHybrid {
  int batch, h, w, ic, dm, k, stride, dilation;
  bool same, bias, per_channel;
  tflite::ActivationFunctionType act;
};

ModelBuilder DepthwiseHybrid(const DwHybrid& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const int oc = c.ic * c.dm;
  const int eff = (c.k - 1) * c.dilation + 1;
  const int oh = c.same ? (c.h + c.stride - 1) / c.stride : (c.h - eff + c.stride) / c.stride;
  const int ow = c.same ? (c.w + c.stride - 1) / c.stride : (c.w - eff + c.stride) / c.stride;
  QuantSpec wq = c.per_channel ? ChannelScales(oc, 3, 0.004f) : QuantSpec{{0.004f}, {0}, 3};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.h, c.w, c.ic}, "in");
  const int w = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {1, c.k, c.k, oc},
                                         RandomInts<int8_t>(rng, c.k * c.k * oc, -127, 127), "w",
                                         &wq);
  std::vector<int32_t> inputs = {in, w};
  if (c.bias) {
    inputs.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc},
                                             RandomFloats(rng, oc), "bias"));
  }
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, oh, ow, oc}, "out");
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = c.stride;
  o.dilation_h_factor = o.dilation_w_factor = c.dilation;
  o.depth_multiplier = c.dm;
  o.fused_activation_function = c.act;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, inputs, {out}, Options(o),
                c.per_channel ? 6 : 4);
  SingleIo(b, in, out);
  return b;
}

// --- CONV_2D hybrid (v2 per-tensor, v5 per-channel) --------------------------------------

ModelBuilder ConvHybrid(bool per_channel, int batch, bool same, uint32_t seed) {
  std::mt19937 rng(seed);
  const int h = 6, w = 5, ic = 3, oc = 4, k = 3;
  const int oh = same ? h : h - k + 1, ow = same ? w : w - k + 1;
  QuantSpec wq = per_channel ? ChannelScales(oc, 0, 0.003f) : QuantSpec{{0.003f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, ic}, "in");
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, k, k, ic},
                                         RandomInts<int8_t>(rng, oc * k * k * ic, -127, 127), "w",
                                         &wq);
  const int bias =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc), "bias");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batch, oh, ow, oc}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {out}, Options(o),
                per_channel ? 5 : 2);
  SingleIo(b, in, out);
  return b;
}

// --- FULLY_CONNECTED hybrid ---------------------------------------------------------------

struct FcHybrid {
  int batch, input, units;
  bool bias, asymmetric, keep_num_dims, per_channel;
  int version;
};

ModelBuilder FullyConnectedHybrid(const FcHybrid& c, uint32_t seed) {
  std::mt19937 rng(seed);
  QuantSpec wq = c.per_channel ? ChannelScales(c.units, 0, 0.002f) : QuantSpec{{0.002f}, {0}, 0};
  ModelBuilder b;
  const std::vector<int32_t> in_shape =
      c.keep_num_dims ? std::vector<int32_t>{c.batch, 1, c.input} : std::vector<int32_t>{c.batch, c.input};
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, in_shape, "in");
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c.units, c.input},
                                         RandomInts<int8_t>(rng, c.units * c.input, -127, 127),
                                         "w", &wq);
  std::vector<int32_t> inputs = {in, f};
  if (c.bias) {
    inputs.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.units},
                                             RandomFloats(rng, c.units), "bias"));
  }
  const std::vector<int32_t> out_shape =
      c.keep_num_dims ? std::vector<int32_t>{c.batch, 1, c.units} : std::vector<int32_t>{c.batch, c.units};
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "out");
  tflite::FullyConnectedOptionsT o;
  o.keep_num_dims = c.keep_num_dims;
  o.asymmetric_quantize_inputs = c.asymmetric;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, inputs, {out}, Options(o), c.version);
  SingleIo(b, in, out);
  return b;
}

// --- BATCH_MATMUL int16 (v3) and hybrid (v1, v4) --------------------------------------

struct Bmm {
  std::vector<int32_t> lhs, rhs, out;
  bool adj_x, adj_y;
};

tflite::BatchMatMulOptionsT BmmOptions(const Bmm& c, bool asymmetric) {
  tflite::BatchMatMulOptionsT o;
  o.adj_x = c.adj_x;
  o.adj_y = c.adj_y;
  o.asymmetric_quantize_inputs = asymmetric;
  return o;
}

size_t Count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// int16 x int16 (constant rhs) -> int16, zero points 0.
ModelBuilder BatchMatMulInt16(const Bmm& c, int depth, uint32_t seed) {
  std::mt19937 rng(seed);
  const QuantSpec in_q{{1.0f / 32768}, {0}, 0}, w_q{{1.0f / 16384}, {0}, 0};
  const QuantSpec out_q{{static_cast<float>(depth) / 40000}, {0}, 0};
  ModelBuilder b;
  const int x = b.AddTensor(tflite::TensorType_INT16, c.lhs, "x", &in_q);
  const int y = b.AddConstTensor<int16_t>(tflite::TensorType_INT16, c.rhs,
                                          RandomInts<int16_t>(rng, Count(c.rhs), -32768, 32767),
                                          "y", &w_q);
  const int out = b.AddTensor(tflite::TensorType_INT16, c.out, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out},
                Options(BmmOptions(c, false)), 3);
  SingleIo(b, x, out);
  return b;
}

// float x int8 (constant rhs, one scale) -> float.
ModelBuilder BatchMatMulHybrid(const Bmm& c, bool asymmetric, uint32_t seed) {
  std::mt19937 rng(seed);
  const QuantSpec w_q{{0.01f}, {0}, 0};
  ModelBuilder b;
  const int x = b.AddTensor(tflite::TensorType_FLOAT32, c.lhs, "x");
  const int y = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, c.rhs,
                                         RandomInts<int8_t>(rng, Count(c.rhs), -127, 127), "y",
                                         &w_q);
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, c.out, "out");
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out},
                Options(BmmOptions(c, asymmetric)), asymmetric ? 4 : 1);
  SingleIo(b, x, out);
  return b;
}

// --- Float layers inside dynamic-range graphs ------------------------------------------
// A float CONV_2D, FULLY_CONNECTED or BATCH_MATMUL whose output a hybrid FULLY_CONNECTED
// then quantizes: the float layer must give TFLite's builtin (Eigen) sums bit for bit,
// including the output channels past the last multiple of 8 and the matrix-vector shapes
// (m or n of 1) that Eigen sums in other orders (gemm::GemmKernel::kTfliteGemmOrder). Both
// outputs are checked; goldens from TFLite's default (optimized) kernels.

enum class FloatLayer { kConv, kFullyConnected, kBatchMatMul };

struct FloatInHybrid {
  FloatLayer layer;
  int rows;      // conv: output pixels (h x w below); FC: batches; BMM: lhs rows
  int depth;     // summed length (conv: k*k*ic)
  int channels;  // output channels / units / rhs columns
  int h, w, k;   // conv only (rows = h' * w')
};

ModelBuilder FloatLayerInHybridGraph(const FloatInHybrid& c, uint32_t seed) {
  std::mt19937 rng(seed);
  ModelBuilder b;
  int in = -1, mid = -1;
  std::vector<int32_t> inputs;
  if (c.layer == FloatLayer::kConv) {
    const int ic = c.depth / (c.k * c.k);
    in = b.AddTensor(tflite::TensorType_FLOAT32, {1, c.h, c.w, ic}, "in");
    const int f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.channels, c.k, c.k, ic},
                                          RandomFloats(rng, c.channels * c.depth), "w");
    const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.channels},
                                             RandomFloats(rng, c.channels), "bias");
    mid = b.AddTensor(tflite::TensorType_FLOAT32,
                      {1, c.h - c.k + 1, c.w - c.k + 1, c.channels}, "mid");
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_h = o.stride_w = 1;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {mid}, Options(o), 1);
  } else if (c.layer == FloatLayer::kFullyConnected) {
    in = b.AddTensor(tflite::TensorType_FLOAT32, {c.rows, c.depth}, "in");
    const int f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.channels, c.depth},
                                          RandomFloats(rng, c.channels * c.depth), "w");
    const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c.channels},
                                             RandomFloats(rng, c.channels), "bias");
    mid = b.AddTensor(tflite::TensorType_FLOAT32, {c.rows, c.channels}, "mid");
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, f, bias}, {mid},
                  Options(tflite::FullyConnectedOptionsT{}), 1);
  } else {
    in = b.AddTensor(tflite::TensorType_FLOAT32, {2, c.rows, c.depth}, "in");
    const int y = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2, c.depth, c.channels},
                                          RandomFloats(rng, 2 * c.depth * c.channels), "y");
    mid = b.AddTensor(tflite::TensorType_FLOAT32, {2, c.rows, c.channels}, "mid");
    b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {in, y}, {mid},
                  Options(tflite::BatchMatMulOptionsT{}), 1);
  }
  // The hybrid layer: every value of `mid` (flattened per row of channels) times int8 weights.
  const int units = 5;
  const QuantSpec wq{{0.01f}, {0}, 0};
  const int f2 = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {units, c.channels},
                                          RandomInts<int8_t>(rng, units * c.channels, -127, 127),
                                          "w8", &wq);
  const int rows = c.layer == FloatLayer::kConv             ? (c.h - c.k + 1) * (c.w - c.k + 1)
                   : c.layer == FloatLayer::kFullyConnected ? c.rows
                                                            : 2 * c.rows;
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {rows, units}, "out");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {mid, f2, -1}, {out},
                Options(tflite::FullyConnectedOptionsT{}), 3);
  b.SetInputs({in});
  b.SetOutputs({mid, out});
  return b;
}

// --- 16x8 CONV_2D / FULLY_CONNECTED / TRANSPOSE_CONV: int16 activations, int8 weights ----

enum class Bias16 { kNone, kInt32, kInt64 };

// Bias values for accumulator scale in_scale * w_scale[c].
int AddBias16(ModelBuilder& b, Bias16 kind, int n, std::mt19937& rng, const QuantSpec& wq) {
  if (kind == Bias16::kNone) return -1;
  QuantSpec bq;
  for (int c = 0; c < n; ++c) bq.scale.push_back(wq.scale[wq.scale.size() == 1 ? 0 : c] / 4096);
  bq.zero_point.assign(n, 0);
  const auto v = RandomInts<int32_t>(rng, n, -3000000, 3000000);
  if (kind == Bias16::kInt32) return b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {n}, v, "bias", &bq);
  return b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {n},
                                   std::vector<int64_t>(v.begin(), v.end()), "bias", &bq);
}

// quantized_bias_type as the converter writes it: the bias type, or what the kernel should
// sum in when there is none.
tflite::TensorType BiasTypeOption(Bias16 bias, tflite::TensorType none_option) {
  return bias == Bias16::kInt32   ? tflite::TensorType_INT32
         : bias == Bias16::kInt64 ? tflite::TensorType_INT64
                                  : none_option;
}

ModelBuilder Conv16x8(Bias16 bias, tflite::TensorType bias_option, int version, uint32_t seed) {
  std::mt19937 rng(seed);
  const int h = 5, w = 6, ic = 3, oc = 4, k = 3;
  const QuantSpec in_q{{1.0f / 4096}, {0}, 0}, out_q{{1.0f / 2048}, {0}, 0};
  const QuantSpec wq = ChannelScales(oc, 0, 0.004f);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT16, {1, h, w, ic}, "in", &in_q);
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, k, k, ic},
                                         RandomInts<int8_t>(rng, oc * k * k * ic, -127, 127), "w",
                                         &wq);
  const int bi = AddBias16(b, bias, oc, rng, wq);
  const int out = b.AddTensor(tflite::TensorType_INT16, {1, h, w, oc}, "out", &out_q);
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.quantized_bias_type = BiasTypeOption(bias, bias_option);
  std::vector<int32_t> inputs = {in, f};
  if (bi >= 0) inputs.push_back(bi);
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, inputs, {out}, Options(o), version);
  SingleIo(b, in, out);
  return b;
}

ModelBuilder FullyConnected16x8(Bias16 bias, tflite::TensorType bias_option, int version,
                                uint32_t seed, bool per_channel = false) {
  std::mt19937 rng(seed);
  const int batch = 16, input = 40, units = 32;
  const QuantSpec in_q{{1.0f / 4096}, {0}, 0}, out_q{{1.0f / 2048}, {0}, 0};
  const QuantSpec wq = per_channel ? ChannelScales(units, 0, 0.002f) : QuantSpec{{0.004f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT16, {batch, input}, "in", &in_q);
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {units, input},
                                         RandomInts<int8_t>(rng, units * input, -127, 127), "w",
                                         &wq);
  const int bi = AddBias16(b, bias, units, rng, wq);
  const int out = b.AddTensor(tflite::TensorType_INT16, {batch, units}, "out", &out_q);
  tflite::FullyConnectedOptionsT o;
  o.quantized_bias_type = BiasTypeOption(bias, bias_option);
  std::vector<int32_t> inputs = {in, f};
  if (bi >= 0) inputs.push_back(bi);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, inputs, {out}, Options(o), version);
  SingleIo(b, in, out);
  return b;
}

ModelBuilder TransposeConv16x8(Bias16 bias, int version, uint32_t seed,
                               tflite::TensorType bias_option = tflite::TensorType_FLOAT32) {
  std::mt19937 rng(seed);
  const int h = 3, w = 4, ic = 3, oc = 2, k = 3, oh = 6, ow = 8;
  const QuantSpec in_q{{1.0f / 4096}, {0}, 0}, out_q{{1.0f / 1024}, {0}, 0};
  const QuantSpec wq = ChannelScales(oc, 0, 0.004f);
  ModelBuilder b;
  const int shape = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {4}, {1, oh, ow, oc}, "shape");
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, k, k, ic},
                                         RandomInts<int8_t>(rng, oc * k * k * ic, -127, 127), "w",
                                         &wq);
  const int in = b.AddTensor(tflite::TensorType_INT16, {1, h, w, ic}, "in", &in_q);
  const int bi = AddBias16(b, bias, oc, rng, wq);
  const int out = b.AddTensor(tflite::TensorType_INT16, {1, oh, ow, oc}, "out", &out_q);
  tflite::TransposeConvOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 2;
  o.quantized_bias_type = bias_option;
  std::vector<int32_t> inputs = {shape, f, in};
  if (bi >= 0) inputs.push_back(bi);
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, inputs, {out}, Options(o), version);
  SingleIo(b, in, out);
  return b;
}

// --- TRANSPOSE_CONV hybrid (float input, int8 weights; v2, as the converter writes it) ----

ModelBuilder TransposeConvHybrid(bool per_channel, bool bias, tflite::Padding padding, int stride,
                                 tflite::ActivationFunctionType act, uint32_t seed) {
  std::mt19937 rng(seed);
  const int batch = 2, h = 5, w = 4, ic = 6, oc = 5, k = 3;
  const int oh = padding == tflite::Padding_SAME ? h * stride : (h - 1) * stride + k;
  const int ow = padding == tflite::Padding_SAME ? w * stride : (w - 1) * stride + k;
  const QuantSpec wq = per_channel ? ChannelScales(oc, 0, 0.004f) : QuantSpec{{0.006f}, {0}, 0};
  ModelBuilder b;
  const int shape =
      b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {4}, {batch, oh, ow, oc}, "shape");
  const int f =
      b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, k, k, ic},
                               RandomInts<int8_t>(rng, oc * k * k * ic, -127, 127), "w", &wq);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, ic}, "in");
  std::vector<int32_t> inputs = {shape, f, in};
  if (bias) {
    inputs.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc},
                                             RandomFloats(rng, oc, -0.5f, 0.5f), "bias"));
  }
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batch, oh, ow, oc}, "out");
  tflite::TransposeConvOptionsT o;
  o.padding = padding;
  o.stride_h = o.stride_w = stride;
  o.fused_activation_function = act;
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, inputs, {out}, Options(o),
                act != tflite::ActivationFunctionType_NONE ? 4
                : bias                                     ? 3
                                                           : 2);
  SingleIo(b, in, out);
  return b;
}

// --- RFFT2D (complex64 out) read by COMPLEX_ABS, REAL and IMAG (float32 outs) -------------

ModelBuilder Rfft2dParts(std::vector<int32_t> shape, int32_t fft_h, int32_t fft_w) {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, shape, "in");
  const int len = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {2}, {fft_h, fft_w}, "len");
  std::vector<int32_t> out_shape = shape;
  out_shape[out_shape.size() - 2] = fft_h;
  out_shape[out_shape.size() - 1] = fft_w / 2 + 1;
  const int z = b.AddTensor(tflite::TensorType_COMPLEX64, out_shape, "z");
  b.AddOperator(tflite::BuiltinOperator_RFFT2D, {in, len}, {z});
  std::vector<int32_t> outs;
  for (auto op : {tflite::BuiltinOperator_COMPLEX_ABS, tflite::BuiltinOperator_REAL,
                  tflite::BuiltinOperator_IMAG}) {
    outs.push_back(b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "part"));
    b.AddOperator(op, {z}, {outs.back()});
  }
  b.SetInputs({in});
  b.SetOutputs(outs);
  return b;
}

// --- CONV_3D (float32, NDHWC input, [fd][fh][fw][in_c][out_c] filter) ------------------

struct Conv3dCase {
  std::vector<int32_t> input;   // [b, d, h, w, c]
  std::vector<int32_t> filter;  // [fd, fh, fw, c, oc]
  std::array<int, 3> stride, dilation;
  bool same, bias;
  tflite::ActivationFunctionType act;
  tflite::TensorType type = tflite::TensorType_FLOAT32;
};
ModelBuilder Conv3d(const Conv3dCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  auto out_size = [&](int in, int f, int stride, int dil) {
    const int span = (f - 1) * dil + 1;
    return c.same ? (in + stride - 1) / stride : (in - span) / stride + 1;
  };
  const int oc = c.filter[4];
  const std::vector<int32_t> out_shape = {
      c.input[0], out_size(c.input[1], c.filter[0], c.stride[0], c.dilation[0]),
      out_size(c.input[2], c.filter[1], c.stride[1], c.dilation[1]),
      out_size(c.input[3], c.filter[2], c.stride[2], c.dilation[2]), oc};
  ModelBuilder b;
  const QuantSpec q{{0.05f}, {2}, 0};
  const bool quantized = c.type == tflite::TensorType_INT8;
  const int in = b.AddTensor(c.type, c.input, "in", quantized ? &q : nullptr);
  int count = 1;
  for (int d : c.filter) count *= d;
  const int f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, c.filter,
                                        RandomFloats(rng, count, -0.5f, 0.5f), "w");
  std::vector<int32_t> inputs = {in, f};
  if (c.bias) {
    inputs.push_back(
        b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc), "bias"));
  }
  const int out = b.AddTensor(c.type, out_shape, "out", quantized ? &q : nullptr);
  tflite::Conv3DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_d = c.stride[0];
  o.stride_h = c.stride[1];
  o.stride_w = c.stride[2];
  o.dilation_d_factor = c.dilation[0];
  o.dilation_h_factor = c.dilation[1];
  o.dilation_w_factor = c.dilation[2];
  o.fused_activation_function = c.act;
  b.AddOperator(tflite::BuiltinOperator_CONV_3D, inputs, {out}, Options(o), 1);
  SingleIo(b, in, out);
  return b;
}

// CONV_3D_TRANSPOSE: the output shape a constant, filter [fd][fh][fw][out_c][in_c].
ModelBuilder Conv3dTranspose(const Conv3dCase& c, std::vector<int32_t> out_shape, uint32_t seed) {
  std::mt19937 rng(seed);
  const int oc = c.filter[3];
  ModelBuilder b;
  const QuantSpec q{{0.05f}, {2}, 0};
  const bool quantized = c.type == tflite::TensorType_INT8;
  const int shape = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {5}, out_shape, "shape");
  int count = 1;
  for (int d : c.filter) count *= d;
  const int f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, c.filter,
                                        RandomFloats(rng, count, -0.5f, 0.5f), "w");
  const int in = b.AddTensor(c.type, c.input, "in", quantized ? &q : nullptr);
  std::vector<int32_t> inputs = {shape, f, in};
  if (c.bias) {
    inputs.push_back(
        b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc), "bias"));
  }
  const int out = b.AddTensor(c.type, out_shape, "out", quantized ? &q : nullptr);
  tflite::Conv3DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_d = c.stride[0];
  o.stride_h = c.stride[1];
  o.stride_w = c.stride[2];
  o.dilation_d_factor = c.dilation[0];
  o.dilation_h_factor = c.dilation[1];
  o.dilation_w_factor = c.dilation[2];
  o.fused_activation_function = c.act;
  b.AddOperator(tflite::BuiltinOperator_CONV_3D_TRANSPOSE, inputs, {out}, Options(o), 1);
  SingleIo(b, in, out);
  return b;
}

// --- SEGMENT_SUM, UNSORTED_SEGMENT_* (constant int32 ids; data fed as the input) ------------

ModelBuilder Segment(tflite::BuiltinOperator op, tflite::TensorType type,
                     std::vector<int32_t> data_shape, std::vector<int32_t> ids,
                     int32_t num_segments) {
  ModelBuilder b;
  const int data = b.AddTensor(type, data_shape, "data");
  const int id = b.AddConstTensor<int32_t>(tflite::TensorType_INT32,
                                           {static_cast<int32_t>(ids.size())}, ids, "ids");
  std::vector<int32_t> inputs = {data, id};
  std::vector<int32_t> out_shape = data_shape;
  if (op == tflite::BuiltinOperator_SEGMENT_SUM) {
    out_shape[0] = ids.back() + 1;
  } else {
    inputs.push_back(
        b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {}, {num_segments}, "num_segments"));
    out_shape[0] = num_segments;
  }
  const int out = b.AddTensor(type, out_shape, "out");
  b.AddOperator(op, inputs, {out});
  SingleIo(b, data, out);
  return b;
}

// --- NON_MAX_SUPPRESSION_V4 / V5 (float boxes and scores fed as inputs) ------------------

ModelBuilder NonMaxSuppression(bool soft, int boxes, int max_out, float iou, float score_min,
                               float sigma) {
  ModelBuilder b;
  const int in_boxes = b.AddTensor(tflite::TensorType_FLOAT32, {boxes, 4}, "boxes");
  const int in_scores = b.AddTensor(tflite::TensorType_FLOAT32, {boxes}, "scores");
  std::vector<int32_t> inputs = {
      in_boxes, in_scores,
      b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {}, {max_out}, "max_output_size"),
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {}, {iou}, "iou_threshold"),
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {}, {score_min}, "score_threshold")};
  if (soft)
    inputs.push_back(b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {}, {sigma}, "sigma"));
  std::vector<int32_t> outputs = {b.AddTensor(tflite::TensorType_INT32, {max_out}, "indices")};
  if (soft)
    outputs.push_back(b.AddTensor(tflite::TensorType_FLOAT32, {max_out}, "selected_scores"));
  outputs.push_back(b.AddTensor(tflite::TensorType_INT32, {}, "count"));
  b.AddOperator(soft ? tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V5
                     : tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V4,
                inputs, outputs);
  b.SetInputs({in_boxes, in_scores});
  b.SetOutputs(outputs);
  return b;
}

// --- SCATTER_ND: constant indices (duplicates add up) and shape, updates fed --------------

ModelBuilder ScatterNd(tflite::TensorType type, std::vector<int32_t> indices_shape,
                       std::vector<int32_t> indices, std::vector<int32_t> updates_shape,
                       std::vector<int32_t> shape) {
  ModelBuilder b;
  const QuantSpec q{{0.5f}, {3}, 0};
  const bool quantized = type == tflite::TensorType_INT8 || type == tflite::TensorType_UINT8;
  const int idx =
      b.AddConstTensor<int32_t>(tflite::TensorType_INT32, indices_shape, indices, "indices");
  const int upd = b.AddTensor(type, updates_shape, "updates", quantized ? &q : nullptr);
  const int shp = b.AddConstTensor<int32_t>(tflite::TensorType_INT32,
                                            {static_cast<int32_t>(shape.size())}, shape, "shape");
  const int out = b.AddTensor(type, shape, "out", quantized ? &q : nullptr);
  b.AddOperator(tflite::BuiltinOperator_SCATTER_ND, {idx, upd, shp}, {out});
  b.SetInputs({upd});
  b.SetOutputs({out});
  return b;
}

// --- FULLY_CONNECTED int8 (v4; TFLite's reference now takes the float scales too) ---------

// uint8 x uint8 -> uint8, or -> int16 (`int16_out`, zero point 0).
ModelBuilder FullyConnectedUint8(uint32_t seed, bool int16_out = false) {
  std::mt19937 rng(seed);
  const int batch = 32, input = 64, units = 64;
  const QuantSpec in_q{{0.02f}, {128}, 0}, wq{{0.004f}, {131}, 0};
  const QuantSpec out_q = int16_out ? QuantSpec{{0.001f}, {0}, 0} : QuantSpec{{0.15f}, {120}, 0};
  const QuantSpec bq{{0.02f * 0.004f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_UINT8, {batch, input}, "in", &in_q);
  const int f = b.AddConstTensor<uint8_t>(tflite::TensorType_UINT8, {units, input},
                                          RandomInts<uint8_t>(rng, units * input, 0, 255), "w",
                                          &wq);
  const int bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {units},
                                           RandomInts<int32_t>(rng, units, -20000, 20000), "bias",
                                           &bq);
  const int out = b.AddTensor(int16_out ? tflite::TensorType_INT16 : tflite::TensorType_UINT8,
                              {batch, units}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, f, bi}, {out},
                Options(tflite::FullyConnectedOptionsT{}), 1);
  SingleIo(b, in, out);
  return b;
}

ModelBuilder FullyConnectedInt8(bool per_channel, uint32_t seed) {
  std::mt19937 rng(seed);
  const int batch = 32, input = 64, units = 64;
  const QuantSpec in_q{{0.02f}, {3}, 0}, out_q{{0.15f}, {-5}, 0};
  const QuantSpec wq = per_channel ? ChannelScales(units, 0, 0.002f) : QuantSpec{{0.004f}, {0}, 0};
  QuantSpec bq;
  for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
  bq.zero_point.assign(bq.scale.size(), 0);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT8, {batch, input}, "in", &in_q);
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {units, input},
                                         RandomInts<int8_t>(rng, units * input, -127, 127), "w",
                                         &wq);
  const int bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {units},
                                           RandomInts<int32_t>(rng, units, -20000, 20000), "bias",
                                           &bq);
  const int out = b.AddTensor(tflite::TensorType_INT8, {batch, units}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, f, bi}, {out},
                Options(tflite::FullyConnectedOptionsT{}), 4);
  SingleIo(b, in, out);
  return b;
}

// --- FULLY_CONNECTED v2: shuffled 4x16 uint8 weights, uint8 -> int16 -------------------

// TFLite's shuffled layout: for each block of 4 units, for each block of 16 inputs, the 4
// rows' 16 values, each xor 0x80 (so that read as int8 they are w - 128).
std::vector<uint8_t> Shuffle4x16(const std::vector<uint8_t>& w, int units, int input) {
  std::vector<uint8_t> out;
  out.reserve(w.size());
  for (int u = 0; u < units; u += 4) {
    for (int d = 0; d < input; d += 16) {
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 16; ++j) {
          out.push_back(static_cast<uint8_t>(w[static_cast<size_t>(u + i) * input + d + j] ^ 0x80));
        }
      }
    }
  }
  return out;
}

// Zero points 128 (the kernel assumes them), int16 output with zero point 0; the second
// output is TFLite's uint8 workspace for the shuffled input.
ModelBuilder FullyConnectedShuffled(int batch, tflite::ActivationFunctionType act, uint32_t seed) {
  std::mt19937 rng(seed);
  const int input = 48, units = 20;
  const QuantSpec in_q{{0.02f}, {128}, 0}, wq{{0.004f}, {128}, 0};
  const QuantSpec out_q{{1.0f / 1024}, {0}, 0}, bq{{0.02f * 0.004f}, {0}, 0};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_UINT8, {batch, input}, "in", &in_q);
  const auto w = RandomInts<uint8_t>(rng, units * input, 0, 255);
  const int f = b.AddConstTensor<uint8_t>(tflite::TensorType_UINT8, {units, input},
                                          Shuffle4x16(w, units, input), "w", &wq);
  const int bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {units},
                                           RandomInts<int32_t>(rng, units, -20000, 20000), "bias",
                                           &bq);
  const int out = b.AddTensor(tflite::TensorType_INT16, {batch, units}, "out", &out_q);
  const int ws = b.AddTensor(tflite::TensorType_UINT8, {batch, input}, "shuffled_input");
  tflite::FullyConnectedOptionsT o;
  o.weights_format = tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8;
  o.fused_activation_function = act;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, f, bi}, {out, ws}, Options(o), 2);
  SingleIo(b, in, out);
  return b;
}

// --- FULLY_CONNECTED v8: sparse weights (TfLiteTensor::sparsity), used by FC directly ----

enum class FcSparseKind { kFloat, kInt8, kHybrid };

// A [units, input] matrix sparse over blocks of 1 x `block` (block 1: plain CSR over the
// elements, 2 levels; otherwise 3 levels with block_map {1}); about 40% of blocks kept.
// Returns the stored values (block by block) and sets the tensor's sparsity.
template <typename T>
int AddSparseWeights(ModelBuilder& b, std::mt19937& rng, int units, int input, int block,
                     const std::vector<T>& dense, tflite::TensorType type, const QuantSpec* q) {
  std::vector<T> values;
  tflite::Int32VectorT segments, indices;
  segments.values.push_back(0);
  std::bernoulli_distribution keep(0.4);
  for (int u = 0; u < units; ++u) {
    for (int c = 0; c < input / block; ++c) {
      if (!keep(rng)) continue;
      indices.values.push_back(c);
      for (int j = 0; j < block; ++j) values.push_back(dense[static_cast<size_t>(u) * input + c * block + j]);
    }
    segments.values.push_back(static_cast<int32_t>(indices.values.size()));
  }
  const int t = b.AddConstTensor<T>(type, {units, input}, values, "w", q);
  auto sp = std::make_unique<tflite::SparsityParametersT>();
  auto rows = std::make_unique<tflite::DimensionMetadataT>();
  rows->format = tflite::DimensionType_DENSE;
  rows->dense_size = units;
  auto cols = std::make_unique<tflite::DimensionMetadataT>();
  cols->format = tflite::DimensionType_SPARSE_CSR;
  cols->array_segments.Set(std::move(segments));
  cols->array_indices.Set(std::move(indices));
  sp->dim_metadata.push_back(std::move(rows));
  sp->dim_metadata.push_back(std::move(cols));
  if (block > 1) {
    sp->traversal_order = {0, 1, 2};
    sp->block_map = {1};
    auto inner = std::make_unique<tflite::DimensionMetadataT>();
    inner->format = tflite::DimensionType_DENSE;
    inner->dense_size = block;
    sp->dim_metadata.push_back(std::move(inner));
  } else {
    sp->traversal_order = {0, 1};
  }
  b.subgraph(0).tensors[t]->sparsity = std::move(sp);
  return t;
}

ModelBuilder FullyConnectedSparse(FcSparseKind kind, int block, bool per_channel, bool asymmetric,
                                  uint32_t seed) {
  std::mt19937 rng(seed);
  const bool is_int8 = kind == FcSparseKind::kInt8;
  // int8: enough outputs that the requantization's rounding shows.
  const int batch = is_int8 ? 32 : 3, input = 64, units = is_int8 ? 64 : 12;
  ModelBuilder b;
  const QuantSpec in_q{{0.02f}, {3}, 0}, out_q{{0.1f}, {-5}, 0};
  const QuantSpec wq = per_channel ? ChannelScales(units, 0, 0.002f) : QuantSpec{{0.004f}, {0}, 0};
  const auto F = tflite::TensorType_FLOAT32;
  const int in = is_int8 ? b.AddTensor(tflite::TensorType_INT8, {batch, input}, "in", &in_q)
                         : b.AddTensor(F, {batch, input}, "in");
  int f, bi;
  if (kind == FcSparseKind::kFloat) {
    f = AddSparseWeights<float>(b, rng, units, input, block, RandomFloats(rng, units * input), F,
                                nullptr);
    bi = b.AddConstTensor<float>(F, {units}, RandomFloats(rng, units), "bias");
  } else {
    f = AddSparseWeights<int8_t>(b, rng, units, input, block,
                                 RandomInts<int8_t>(rng, units * input, -127, 127),
                                 tflite::TensorType_INT8, &wq);
    if (is_int8) {
      QuantSpec bq;
      for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
      bq.zero_point.assign(bq.scale.size(), 0);
      bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {units},
                                     RandomInts<int32_t>(rng, units, -20000, 20000), "bias", &bq);
    } else {
      bi = b.AddConstTensor<float>(F, {units}, RandomFloats(rng, units), "bias");
    }
  }
  const int out = is_int8 ? b.AddTensor(tflite::TensorType_INT8, {batch, units}, "out", &out_q)
                          : b.AddTensor(F, {batch, units}, "out");
  tflite::FullyConnectedOptionsT o;
  o.asymmetric_quantize_inputs = asymmetric;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  if (kind == FcSparseKind::kFloat) o.fused_activation_function = tflite::ActivationFunctionType_NONE;
  // op_version.cc: sparse weights are v8, unless hybrid per-channel (v12 comes first).
  const int version = kind == FcSparseKind::kHybrid && per_channel ? 12 : 8;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, f, bi}, {out}, Options(o), version);
  SingleIo(b, in, out);
  return b;
}

// --- int8 CONV_2D / DEPTHWISE_CONV_2D (per-channel), for the requantization rounding ----

ModelBuilder ConvInt8(bool depthwise, uint32_t seed) {
  std::mt19937 rng(seed);
  const int h = 12, w = 12, ic = 8, k = 3, oc = depthwise ? 8 : 16;
  const QuantSpec in_q{{0.02f}, {3}, 0}, out_q{{0.05f}, {-5}, 0};
  const QuantSpec wq = ChannelScales(oc, depthwise ? 3 : 0, 0.002f);
  QuantSpec bq;
  for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
  bq.zero_point.assign(oc, 0);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT8, {1, h, w, ic}, "in", &in_q);
  const std::vector<int32_t> f_shape = depthwise ? std::vector<int32_t>{1, k, k, oc}
                                                 : std::vector<int32_t>{oc, k, k, ic};
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, f_shape,
                                         RandomInts<int8_t>(rng, Count(f_shape), -127, 127), "w",
                                         &wq);
  const int bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {oc},
                                           RandomInts<int32_t>(rng, oc, -20000, 20000), "bias",
                                           &bq);
  const int out = b.AddTensor(tflite::TensorType_INT8, {1, h, w, oc}, "out", &out_q);
  if (depthwise) {
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = tflite::Padding_SAME;
    o.stride_h = o.stride_w = 1;
    o.depth_multiplier = 1;
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, f, bi}, {out}, Options(o), 3);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_SAME;
    o.stride_h = o.stride_w = 1;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bi}, {out}, Options(o), 3);
  }
  SingleIo(b, in, out);
  return b;
}

// --- Float CONV_2D 3x3 stride 1 of 32 -> 40 channels (SAME, bias, RELU) ------------------
// The shape the XNNPACK delegate's own step runs by Winograd's F(2x2, 3x3) (here the
// builtin kernel's GEMM); odd sizes leave partial 2 x 2 tiles. Also a fuzzing seed for
// that step (scripts/fuzz.sh seeds from testdata).
ModelBuilder ConvFloat3x3(uint32_t seed) {
  std::mt19937 rng(seed);
  const int h = 9, w = 11, ic = 32, oc = 40;
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, h, w, ic}, "in");
  const int f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc, 3, 3, ic},
                                        RandomFloats(rng, oc * 9 * ic, -0.2f, 0.2f), "w");
  const int bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc),
                                           "bias");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, h, w, oc}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {out}, Options(o), 1);
  b.SetInputs({in});
  b.SetOutputs({out});
  return b;
}

// --- CONV_2D with one input and one output channel per group (v6) -----------------------
// Keras' Conv2D(groups=C), ConvNeXt's 7x7 layers: the kernels compute them as depthwise
// convolutions (conv_2d.cc: DepthwiseGroups). 21 channels (a 16-lane block and a tail),
// 7x7 SAME with stride 1, or 3x3 VALID with stride 2; float, int8 per channel, hybrid.
enum class GroupsKind { kFloat, kInt8, kHybrid };

ModelBuilder ConvDepthwiseGroups(GroupsKind kind, bool wide, uint32_t seed) {
  std::mt19937 rng(seed);
  const int c = 21, h = 11, w = 13, k = wide ? 7 : 3, stride = wide ? 1 : 2;
  const int oh = wide ? h : (h - k) / stride + 1, ow = wide ? w : (w - k) / stride + 1;
  const QuantSpec in_q{{0.02f}, {3}, 0}, out_q{{0.05f}, {-5}, 0};
  const QuantSpec wq = ChannelScales(c, 0, 0.002f);
  const tflite::TensorType act = kind == GroupsKind::kInt8 ? tflite::TensorType_INT8
                                                           : tflite::TensorType_FLOAT32;
  ModelBuilder b;
  const int in = b.AddTensor(act, {1, h, w, c}, "in", kind == GroupsKind::kInt8 ? &in_q : nullptr);
  int f, bias;
  if (kind == GroupsKind::kFloat) {
    f = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c, k, k, 1},
                                RandomFloats(rng, c * k * k, -0.5f, 0.5f), "w");
    bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c}, RandomFloats(rng, c), "bias");
  } else {
    f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {c, k, k, 1},
                                 RandomInts<int8_t>(rng, c * k * k, -127, 127), "w", &wq);
    if (kind == GroupsKind::kInt8) {
      QuantSpec bq;
      for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
      bq.zero_point.assign(c, 0);
      bias = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {c},
                                       RandomInts<int32_t>(rng, c, -20000, 20000), "bias", &bq);
    } else {
      bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {c}, RandomFloats(rng, c), "bias");
    }
  }
  const int out = b.AddTensor(act, {1, oh, ow, c}, "out", kind == GroupsKind::kInt8 ? &out_q : nullptr);
  tflite::Conv2DOptionsT o;
  o.padding = wide ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = stride;
  o.fused_activation_function =
      wide ? tflite::ActivationFunctionType_RELU6 : tflite::ActivationFunctionType_NONE;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {out}, Options(o), 6);
  SingleIo(b, in, out);
  return b;
}

// Hybrid with 3 groups of 4 input and 5 output channels, 3x3 SAME, one image (the
// dot-product GEMM's path) or two.
ModelBuilder ConvGroupsHybrid(int batch, uint32_t seed) {
  std::mt19937 rng(seed);
  const int groups = 3, f_c = 4, oc = 15, h = 7, w = 9, k = 3;
  const QuantSpec wq = ChannelScales(oc, 0, 0.002f);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, groups * f_c}, "in");
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, k, k, f_c},
                                         RandomInts<int8_t>(rng, oc * k * k * f_c, -127, 127), "w",
                                         &wq);
  const int bias =
      b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc), "bias");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {batch, h, w, oc}, "out");
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {out}, Options(o), 6);
  SingleIo(b, in, out);
  return b;
}

// Grouped 8-bit or hybrid convolutions of `groups` groups of f_c input and n output
// channels, k x k filters: groups of 8 or 4 output channels run merged into groups of 16
// (conv_util::MergedGroups), every group read in place from its own padded image
// (Int8DotGroupedConv / HybridGroups); f_c of 3 (filter rows not a multiple of 4 bytes)
// and a dilation along the row take the group-by-group path.
struct GroupedConvCase {
  bool hybrid;
  int groups, f_c, n, k, stride, dilation;
  bool same;
  int h, w;
};
ModelBuilder ConvGrouped(const GroupedConvCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const int in_c = c.groups * c.f_c, oc = c.groups * c.n;
  const int span = (c.k - 1) * c.dilation + 1;
  const int oh = c.same ? (c.h + c.stride - 1) / c.stride : (c.h - span) / c.stride + 1;
  const int ow = c.same ? (c.w + c.stride - 1) / c.stride : (c.w - span) / c.stride + 1;
  const QuantSpec in_q{{0.02f}, {-7}, 0}, out_q{{0.06f}, {4}, 0};
  const QuantSpec wq = ChannelScales(oc, 0, 0.003f);
  const tflite::TensorType act = c.hybrid ? tflite::TensorType_FLOAT32 : tflite::TensorType_INT8;
  ModelBuilder b;
  const int in = b.AddTensor(act, {1, c.h, c.w, in_c}, "in", c.hybrid ? nullptr : &in_q);
  const int f = b.AddConstTensor<int8_t>(tflite::TensorType_INT8, {oc, c.k, c.k, c.f_c},
                                         RandomInts<int8_t>(rng, oc * c.k * c.k * c.f_c, -127, 127),
                                         "w", &wq);
  int bias;
  if (c.hybrid) {
    bias = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {oc}, RandomFloats(rng, oc), "bias");
  } else {
    QuantSpec bq;
    for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
    bq.zero_point.assign(oc, 0);
    bias = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {oc},
                                     RandomInts<int32_t>(rng, oc, -20000, 20000), "bias", &bq);
  }
  const int out = b.AddTensor(act, {1, oh, ow, oc}, "out", c.hybrid ? nullptr : &out_q);
  tflite::Conv2DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = o.stride_w = c.stride;
  o.dilation_h_factor = o.dilation_w_factor = c.dilation;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bias}, {out}, Options(o), 6);
  SingleIo(b, in, out);
  return b;
}

// --- int4 weights (FULLY_CONNECTED v10, CONV_2D v7): int8 activations -----------------

// `count` int4 values in [-8, 7], packed two a byte (even element in the low nibble).
std::vector<uint8_t> PackedInt4(std::mt19937& rng, size_t count) {
  const auto v = RandomInts<int8_t>(rng, count, -8, 7);
  std::vector<uint8_t> bytes((count + 1) / 2, 0);
  for (size_t i = 0; i < count; ++i) {
    bytes[i / 2] |= static_cast<uint8_t>((v[i] & 0x0F) << (i % 2 == 0 ? 0 : 4));
  }
  return bytes;
}

ModelBuilder Int4Weights(bool conv, uint32_t seed) {
  std::mt19937 rng(seed);
  const QuantSpec in_q{{0.02f}, {3}, 0}, out_q{{0.05f}, {-5}, 0};
  const int oc = 16;
  const QuantSpec wq = ChannelScales(oc, 0, 0.03f);
  QuantSpec bq;
  for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
  bq.zero_point.assign(oc, 0);
  const std::vector<int32_t> in_shape = conv ? std::vector<int32_t>{1, 8, 8, 5}
                                             : std::vector<int32_t>{8, 37};
  const std::vector<int32_t> f_shape = conv ? std::vector<int32_t>{oc, 3, 3, 5}
                                            : std::vector<int32_t>{oc, 37};
  const std::vector<int32_t> out_shape = conv ? std::vector<int32_t>{1, 8, 8, oc}
                                              : std::vector<int32_t>{8, oc};
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT8, in_shape, "in", &in_q);
  const int f = b.AddConstTensorBytes(tflite::TensorType_INT4, f_shape,
                                      PackedInt4(rng, Count(f_shape)), "w", &wq);
  const int bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {oc},
                                           RandomInts<int32_t>(rng, oc, -2000, 2000), "bias", &bq);
  const int out = b.AddTensor(tflite::TensorType_INT8, out_shape, "out", &out_q);
  if (conv) {
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_SAME;
    o.stride_h = o.stride_w = 1;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, f, bi}, {out}, Options(o), 7);
  } else {
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, f, bi}, {out},
                  Options(tflite::FullyConnectedOptionsT{}), 10);
  }
  SingleIo(b, in, out);
  return b;
}

ModelBuilder DepthwiseInt4(uint32_t seed) {
  std::mt19937 rng(seed);
  const QuantSpec in_q{{0.02f}, {3}, 0}, out_q{{0.02f}, {-5}, 0};
  const int ic = 5, dm = 2, oc = ic * dm;
  const QuantSpec wq = ChannelScales(oc, 3, 0.03f);
  QuantSpec bq;
  for (float sc : wq.scale) bq.scale.push_back(sc * 0.02f);
  bq.zero_point.assign(oc, 0);
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_INT8, {1, 7, 6, ic}, "in", &in_q);
  const int f = b.AddConstTensorBytes(tflite::TensorType_INT4, {1, 3, 3, oc},
                                      PackedInt4(rng, 3 * 3 * oc), "w", &wq);
  const int bi = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {oc},
                                           RandomInts<int32_t>(rng, oc, -2000, 2000), "bias", &bq);
  const int out = b.AddTensor(tflite::TensorType_INT8, {1, 7, 6, oc}, "out", &out_q);
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = dm;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, f, bi}, {out}, Options(o), 7);
  SingleIo(b, in, out);
  return b;
}

// --- UNIDIRECTIONAL_SEQUENCE_LSTM hybrid (v2, v3) and diagonal recurrent weights (v4) ----

struct LstmGolden {
  int batch, time, input, cell, output;
  bool hybrid, asymmetric, cifg, peephole, layer_norm, projection, diagonal, time_major;
  float cell_clip, proj_clip;
  int version;
};

// An [n] or [rows, cols] weight: int8 with one scale (hybrid) or float32, values in
// about [-0.5, 0.5].
int LstmWeight(ModelBuilder& b, std::mt19937& rng, bool hybrid, std::vector<int32_t> shape) {
  const size_t n = Count(shape);
  if (!hybrid) {
    return b.AddConstTensor<float>(tflite::TensorType_FLOAT32, shape,
                                   RandomFloats(rng, n, -0.5f, 0.5f));
  }
  const QuantSpec q{{0.5f / 127}, {0}, 0};
  return b.AddConstTensor<int8_t>(tflite::TensorType_INT8, shape,
                                  RandomInts<int8_t>(rng, n, -127, 127), "", &q);
}

ModelBuilder LstmModel(const LstmGolden& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const auto F = tflite::TensorType_FLOAT32;
  ModelBuilder b;
  std::vector<int32_t> ins(24, -1);
  ins[0] = b.AddTensor(F,
                       c.time_major ? std::vector<int32_t>{c.time, c.batch, c.input}
                                    : std::vector<int32_t>{c.batch, c.time, c.input},
                       "in");
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && c.cifg) continue;
    ins[1 + g] = LstmWeight(b, rng, c.hybrid, {c.cell, c.input});
    // TFLite reads a diagonal as float in both kernels.
    ins[5 + g] = c.diagonal ? LstmWeight(b, rng, false, {c.cell})
                            : LstmWeight(b, rng, c.hybrid, {c.cell, c.output});
    ins[12 + g] = b.AddConstTensor<float>(F, {c.cell}, RandomFloats(rng, c.cell, -0.5f, 0.5f));
    if (c.layer_norm) {
      ins[20 + g] = b.AddConstTensor<float>(F, {c.cell}, RandomFloats(rng, c.cell, 0.5f, 1.5f));
    }
    if (c.peephole && g != 2) ins[9 + (g == 3 ? 2 : g)] = LstmWeight(b, rng, c.hybrid, {c.cell});
  }
  if (c.projection) {
    ins[16] = LstmWeight(b, rng, c.hybrid, {c.output, c.cell});
    ins[17] = b.AddConstTensor<float>(F, {c.output}, RandomFloats(rng, c.output, -0.2f, 0.2f));
  }
  ins[18] = b.AddVariableTensor(F, {c.batch, c.output}, "h");
  ins[19] = b.AddVariableTensor(F, {c.batch, c.cell}, "c");
  const int out = b.AddTensor(F,
                              c.time_major ? std::vector<int32_t>{c.time, c.batch, c.output}
                                           : std::vector<int32_t>{c.batch, c.time, c.output},
                              "out");
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = c.cell_clip;
  o.proj_clip = c.proj_clip;
  o.time_major = c.time_major;
  o.asymmetric_quantize_inputs = c.asymmetric;
  o.diagonal_recurrent_tensors = c.diagonal;
  b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out}, Options(o),
                c.version);
  SingleIo(b, ins[0], out);
  return b;
}

// --- UNIDIRECTIONAL_SEQUENCE_LSTM full integer (v1, "8x8_16") ---------------------------
// int8 input, output and output state, int8 weights, int32 biases, int16 cell state
// (scale 2^cell_log2), int16 peephole and layer-norm weights, 5 intermediates (the four
// gate scales used with layer norm, then the hidden state's scale), as the converter
// writes them.

struct LstmIntegerGolden {
  int batch, time, input, cell, output;
  bool cifg, peephole, layer_norm, projection;
  int cell_log2;
  float cell_clip, proj_clip;
  int output_zero_point;
  bool time_major = false;
  int hidden_zero_point = 0;
};

ModelBuilder LstmIntegerModel(const LstmIntegerGolden& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const auto I8 = tflite::TensorType_INT8;
  const auto I16 = tflite::TensorType_INT16;
  const auto I32 = tflite::TensorType_INT32;
  ModelBuilder b;
  std::vector<int32_t> ins(24, -1);
  const QuantSpec in_q{{1.0f / 64}, {-3}, 0};
  const QuantSpec w_q{{0.5f / 127}, {0}, 0};
  const QuantSpec state_q{{1.0f / 128}, {c.output_zero_point}, 0};
  const QuantSpec cell_q{{std::ldexp(1.0f, c.cell_log2)}, {0}, 0};
  const QuantSpec peep_q{{0.5f / 32767}, {0}, 0};
  const QuantSpec ln_q{{1.0f / 16384}, {0}, 0};
  const QuantSpec bias_q{{in_q.scale[0] * w_q.scale[0]}, {0}, 0};
  const QuantSpec ln_bias_q{{ln_q.scale[0] / 1024}, {0}, 0};
  auto weight = [&](std::vector<int32_t> shape) {
    return b.AddConstTensor<int8_t>(I8, shape, RandomInts<int8_t>(rng, Count(shape), -127, 127),
                                    "", &w_q);
  };
  const auto seq = [&](int n) {
    return c.time_major ? std::vector<int32_t>{c.time, c.batch, n}
                        : std::vector<int32_t>{c.batch, c.time, n};
  };
  ins[0] = b.AddTensor(I8, seq(c.input), "in", &in_q);
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && c.cifg) continue;
    ins[1 + g] = weight({c.cell, c.input});
    ins[5 + g] = weight({c.cell, c.output});
    if (c.layer_norm) {
      ins[12 + g] = b.AddConstTensor<int32_t>(I32, {c.cell},
                                              RandomInts<int32_t>(rng, c.cell, -(1 << 19), 1 << 19),
                                              "", &ln_bias_q);
      ins[20 + g] = b.AddConstTensor<int16_t>(I16, {c.cell},
                                              RandomInts<int16_t>(rng, c.cell, 8192, 24576), "",
                                              &ln_q);
    } else {
      ins[12 + g] = b.AddConstTensor<int32_t>(I32, {c.cell},
                                              RandomInts<int32_t>(rng, c.cell, -8000, 8000), "",
                                              &bias_q);
    }
    if (c.peephole && g != 2) {
      ins[9 + (g == 3 ? 2 : g)] = b.AddConstTensor<int16_t>(
          I16, {c.cell}, RandomInts<int16_t>(rng, c.cell, -32767, 32767), "", &peep_q);
    }
  }
  if (c.projection) {
    ins[16] = weight({c.output, c.cell});
    const QuantSpec proj_bias_q{{w_q.scale[0] / 128}, {0}, 0};
    ins[17] = b.AddConstTensor<int32_t>(I32, {c.output},
                                        RandomInts<int32_t>(rng, c.output, -2000, 2000), "",
                                        &proj_bias_q);
  }
  ins[18] = b.AddVariableTensor(I8, {c.batch, c.output}, "h", &state_q);
  ins[19] = b.AddVariableTensor(I16, {c.batch, c.cell}, "c", &cell_q);
  const int out = b.AddTensor(I8, seq(c.output), "out", &state_q);
  std::vector<int32_t> intermediates;
  for (int g = 0; g < 4; ++g) {
    const QuantSpec gate_q{{0.0007f * (1.0f + 0.25f * g)}, {0}, 0};
    intermediates.push_back(b.AddTensor(I16, {}, "gate" + std::to_string(g), &gate_q));
  }
  const QuantSpec hidden_q{{1.0f / 128}, {c.hidden_zero_point}, 0};
  intermediates.push_back(b.AddTensor(I8, {}, "hidden", &hidden_q));
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = c.cell_clip;
  o.proj_clip = c.proj_clip;
  o.time_major = c.time_major;
  const int op =
      b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out}, Options(o), 1);
  b.subgraph(0).operators[op]->intermediates = intermediates;
  SingleIo(b, ins[0], out);
  return b;
}

// --- SOFTMAX int8 over long rows, GELU int8 (v2) ------------------------------------------

ModelBuilder SoftmaxInt8(int rows, int depth, float input_scale, bool int16_output) {
  ModelBuilder b;
  const QuantSpec in_q{{input_scale}, {5}, 0};
  const QuantSpec out_q = int16_output ? QuantSpec{{1.0f / 65536}, {-32768}, 0}
                                       : QuantSpec{{1.0f / 256}, {-128}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT8, {rows, depth}, "in", &in_q);
  const int out = b.AddTensor(int16_output ? tflite::TensorType_INT16 : tflite::TensorType_INT8,
                              {rows, depth}, "out", &out_q);
  tflite::SoftmaxOptionsT o;
  o.beta = 1.0f;
  b.AddOperator(tflite::BuiltinOperator_SOFTMAX, {in}, {out}, Options(o), int16_output ? 2 : 1);
  SingleIo(b, in, out);
  return b;
}

// int8 LOG_SOFTMAX (v2): output scale 16 / 256, zero point 127, as TFLite requires.
ModelBuilder LogSoftmaxInt8(int rows, int depth, float input_scale) {
  ModelBuilder b;
  const QuantSpec in_q{{input_scale}, {5}, 0};
  const QuantSpec out_q{{16.0f / 256}, {127}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT8, {rows, depth}, "in", &in_q);
  const int out = b.AddTensor(tflite::TensorType_INT8, {rows, depth}, "out", &out_q);
  b.AddOperator(tflite::BuiltinOperator_LOG_SOFTMAX, {in}, {out},
                Options(tflite::LogSoftmaxOptionsT{}), 2);
  SingleIo(b, in, out);
  return b;
}

// Float SOFTMAX and MEAN as TFLite's default kernels compute them on x86 (Eigen's exp and
// sum: softmax_f32.h, eigen_sum.h); beta 20 takes exp down to its zero and denormal range.
ModelBuilder SoftmaxFloat(int rows, int depth, float beta) {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {rows, depth}, "in");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {rows, depth}, "out");
  tflite::SoftmaxOptionsT o;
  o.beta = beta;
  b.AddOperator(tflite::BuiltinOperator_SOFTMAX, {in}, {out}, Options(o), 1);
  SingleIo(b, in, out);
  return b;
}

// Float GELU (exact form) over `count` values, after a MUL by `scale` so that the inputs
// (N(0, 1)) reach erfc's outer range and the [-11, 11] clamp.
ModelBuilder GeluFloat(int rows, int count, float scale, bool approximate = false) {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "in");
  const int k = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {}, {scale}, "scale");
  const int scaled = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "scaled");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "out");
  b.AddOperator(tflite::BuiltinOperator_MUL, {in, k}, {scaled}, Options(tflite::MulOptionsT{}));
  tflite::GeluOptionsT o;
  o.approximate = approximate;
  b.AddOperator(tflite::BuiltinOperator_GELU, {scaled}, {out}, Options(o));
  SingleIo(b, in, out);
  return b;
}

// in * scale, then LOGISTIC (or `op`); with swish, the LOGISTIC times its input (MUL) as
// converted.
ModelBuilder LogisticFloat(int rows, int count, float scale, bool swish,
                           tflite::BuiltinOperator op = tflite::BuiltinOperator_LOGISTIC) {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "in");
  const int k = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {}, {scale}, "scale");
  const int scaled = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "scaled");
  const int sig = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "sigmoid");
  b.AddOperator(tflite::BuiltinOperator_MUL, {in, k}, {scaled}, Options(tflite::MulOptionsT{}));
  b.AddOperator(op, {scaled}, {sig}, OpOptions{});
  int out = sig;
  if (swish) {
    out = b.AddTensor(tflite::TensorType_FLOAT32, {rows, count}, "out");
    b.AddOperator(tflite::BuiltinOperator_MUL, {scaled, sig}, {out},
                  Options(tflite::MulOptionsT{}));
  }
  SingleIo(b, in, out);
  return b;
}

ModelBuilder MeanFloat(const std::vector<int32_t>& shape, const std::vector<int32_t>& axes,
                       bool keep_dims) {
  ModelBuilder b;
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, shape, "in");
  const int axis = b.AddConstTensor<int32_t>(tflite::TensorType_INT32,
                                             {static_cast<int32_t>(axes.size())}, axes, "axes");
  std::vector<int32_t> out_shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int32_t>(d)) != axes.end();
    if (!reduced) {
      out_shape.push_back(shape[d]);
    } else if (keep_dims) {
      out_shape.push_back(1);
    }
  }
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "out");
  tflite::ReducerOptionsT o;
  o.keep_dims = keep_dims;
  b.AddOperator(tflite::BuiltinOperator_MEAN, {in, axis}, {out}, Options(o), 1);
  SingleIo(b, in, out);
  return b;
}

ModelBuilder GeluInt8(bool approximate) {
  ModelBuilder b;
  const QuantSpec in_q{{0.05f}, {-7}, 0};
  const QuantSpec out_q{{0.03f}, {-100}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT8, {2, 3, 40}, "in", &in_q);
  const int out = b.AddTensor(tflite::TensorType_INT8, {2, 3, 40}, "out", &out_q);
  tflite::GeluOptionsT o;
  o.approximate = approximate;
  b.AddOperator(tflite::BuiltinOperator_GELU, {in}, {out}, Options(o), 2);
  SingleIo(b, in, out);
  return b;
}

// LOGISTIC / TANH int16 (the table kernels the integer LSTM uses for its gates).
ModelBuilder SigmoidInt16(tflite::BuiltinOperator op, float input_scale) {
  ModelBuilder b;
  const QuantSpec in_q{{input_scale}, {0}, 0};
  const QuantSpec out_q{{1.0f / 32768}, {0}, 0};
  const int in = b.AddTensor(tflite::TensorType_INT16, {4096}, "in", &in_q);
  const int out = b.AddTensor(tflite::TensorType_INT16, {4096}, "out", &out_q);
  b.AddOperator(op, {in}, {out}, {}, 3);
  SingleIo(b, in, out);
  return b;
}

// --- TFLite_Detection_PostProcess (custom op in TFLite's BuiltinOpResolver) --------------

struct DetectionGolden {
  tflite::TensorType type;  // boxes, scores and anchors
  int anchors, classes;
  bool background;
  int max_detections, classes_per_detection, detections_per_class;
  bool regular;
  float score_threshold, iou_threshold;
};

ModelBuilder DetectionPostProcess(const DetectionGolden& c, uint32_t seed) {
  std::mt19937 rng(seed);
  ModelBuilder b;
  const bool q = c.type != tflite::TensorType_FLOAT32;
  const QuantSpec box_q{{0.02f}, {c.type == tflite::TensorType_UINT8 ? 128 : 0}, 0};
  const QuantSpec score_q{{1.0f / 256}, {c.type == tflite::TensorType_UINT8 ? 0 : -128}, 0};
  const QuantSpec anchor_q{{1.0f / 256}, {0}, 0};
  const int columns = c.classes + (c.background ? 1 : 0);
  const int boxes = b.AddTensor(c.type, {1, c.anchors, 4}, "boxes", q ? &box_q : nullptr);
  const int scores = b.AddTensor(c.type, {1, c.anchors, columns}, "scores", q ? &score_q : nullptr);
  // Anchors (y, x, h, w): centers in [0.1, 0.9], sizes in [0.05, 0.4].
  std::vector<float> a;
  for (int i = 0; i < c.anchors; ++i) {
    const auto f = RandomFloats(rng, 4, 0.0f, 1.0f);
    a.insert(a.end(), {0.1f + 0.8f * f[0], 0.1f + 0.8f * f[1], 0.05f + 0.35f * f[2],
                       0.05f + 0.35f * f[3]});
  }
  int anchors;
  if (c.type == tflite::TensorType_FLOAT32) {
    anchors = b.AddConstTensor<float>(c.type, {c.anchors, 4}, a, "anchors");
  } else {
    std::vector<uint8_t> qa;
    for (float v : a) qa.push_back(static_cast<uint8_t>(std::lround(v * 256)));
    anchors = b.AddConstTensor<uint8_t>(tflite::TensorType_UINT8, {c.anchors, 4}, qa, "anchors",
                                        &anchor_q);
  }
  const auto F = tflite::TensorType_FLOAT32;
  const int n = c.max_detections * c.classes_per_detection;
  const int out_boxes = b.AddTensor(F, {1, n, 4}, "detection_boxes");
  const int out_classes = b.AddTensor(F, {1, n}, "detection_classes");
  const int out_scores = b.AddTensor(F, {1, n}, "detection_scores");
  const int out_count = b.AddTensor(F, {1}, "num_detections");
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", c.max_detections);
    fbb.Int("max_classes_per_detection", c.classes_per_detection);
    fbb.Int("detections_per_class", c.detections_per_class);
    fbb.Bool("use_regular_nms", c.regular);
    fbb.Float("nms_score_threshold", c.score_threshold);
    fbb.Float("nms_iou_threshold", c.iou_threshold);
    fbb.Int("num_classes", c.classes);
    fbb.Float("y_scale", 10.0f);
    fbb.Float("x_scale", 10.0f);
    fbb.Float("h_scale", 5.0f);
    fbb.Float("w_scale", 5.0f);
  });
  fbb.Finish();
  b.AddCustomOperator("TFLite_Detection_PostProcess", {boxes, scores, anchors},
                      {out_boxes, out_classes, out_scores, out_count}, fbb.GetBuffer());
  b.SetInputs({boxes, scores});
  b.SetOutputs({out_boxes, out_classes, out_scores, out_count});
  return b;
}

// --- REVERSE_V2 ---------------------------------------------------------------------------

ModelBuilder ReverseV2(tflite::TensorType type, std::vector<int32_t> shape,
                       std::vector<int32_t> axes, int version) {
  ModelBuilder b;
  const QuantSpec q{{0.1f}, {3}, 0};
  const bool quantized = type == tflite::TensorType_INT8;
  const int in = b.AddTensor(type, shape, "in", quantized ? &q : nullptr);
  const int axis = b.AddConstTensor<int32_t>(tflite::TensorType_INT32,
                                             {static_cast<int32_t>(axes.size())}, axes, "axis");
  const int out = b.AddTensor(type, shape, "out", quantized ? &q : nullptr);
  b.AddOperator(tflite::BuiltinOperator_REVERSE_V2, {in, axis}, {out},
                Options(tflite::ReverseV2OptionsT()), version);
  SingleIo(b, in, out);
  return b;
}

const GoldenCase kCases[] = {
    {"depthwise_hybrid_per_channel_same",
     [] {
       return DepthwiseHybrid({1, 5, 6, 3, 2, 3, 1, 1, true, true, true,
                               tflite::ActivationFunctionType_NONE},
                              101);
     },
     0},
    // Golden from TFLite's reference kernel: its optimized hybrid depthwise (the default,
    // whose rescale order the runtime follows) crashes on this case in ai-edge-litert
    // 2.3.0; the reference multiplies the two scales first, an ulp apart.
    {"depthwise_hybrid_per_channel_dilated",
     [] {
       return DepthwiseHybrid({4, 9, 8, 4, 1, 3, 2, 2, false, false, true,
                               tflite::ActivationFunctionType_RELU6},
                              102);
     },
     1e-6},
    {"depthwise_hybrid_per_tensor",  // v4: TFLite needs a scale per channel
     [] {
       return DepthwiseHybrid({1, 4, 4, 3, 1, 3, 1, 1, true, true, false,
                               tflite::ActivationFunctionType_NONE},
                              103);
     },
     0},
    // Float layers in dynamic-range graphs (FloatLayerInHybridGraph): output channels in
    // blocks of 8 plus 4 plus 3, rows not a multiple of 4, matrix-vector products.
    {"float_conv_in_hybrid_graph_11_channels",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kConv, 0, 27, 11, 9, 11, 3}, 451);
     },
     0},
    {"float_conv_in_hybrid_graph_22_channels",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kConv, 0, 22, 22, 5, 6, 1}, 452);
     },
     0},
    {"float_conv_in_hybrid_graph_one_pixel",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kConv, 0, 37, 13, 1, 1, 1}, 453);
     },
     0},
    // A first layer (3 input channels, 16 outputs): the direct few-channel kernel in
    // TFLite's order (direct_conv_f32.h).
    {"float_conv_in_hybrid_graph_first_layer",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kConv, 0, 27, 16, 13, 17, 3}, 458);
     },
     0},
    {"float_conv_in_hybrid_graph_one_channel",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kConv, 0, 18, 1, 6, 5, 3}, 454);
     },
     0},
    {"float_fully_connected_in_hybrid_graph",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kFullyConnected, 7, 45, 30, 0, 0, 0}, 455);
     },
     0},
    {"float_fully_connected_in_hybrid_graph_batch_1",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kFullyConnected, 1, 45, 12, 0, 0, 0}, 456);
     },
     0},
    {"float_batch_matmul_in_hybrid_graph",
     [] {
       return FloatLayerInHybridGraph({FloatLayer::kBatchMatMul, 5, 12, 11, 0, 0, 0}, 457);
     },
     0},
    {"conv_hybrid_per_tensor", [] { return ConvHybrid(false, 2, true, 201); }, 0},
    {"conv_hybrid_per_channel", [] { return ConvHybrid(true, 4, false, 202); }, 0},
    {"fully_connected_hybrid",
     [] {
       return FullyConnectedHybrid({3, 40, 7, true, false, false, false, 3}, 301);
     },
     0},
    {"fully_connected_hybrid_asymmetric",
     [] {
       return FullyConnectedHybrid({6, 40, 7, true, true, false, false, 9}, 302);
     },
     0},
    {"fully_connected_hybrid_no_bias_keep_dims",  // v6 (no bias) with keep_num_dims (v5)
     [] {
       return FullyConnectedHybrid({2, 33, 5, false, false, true, false, 6}, 303);
     },
     0},
    {"fully_connected_hybrid_per_channel",
     [] {
       return FullyConnectedHybrid({3, 40, 7, true, true, false, true, 12}, 304);
     },
     0},
    {"fully_connected_hybrid_per_channel_symmetric",
     [] {
       return FullyConnectedHybrid({4, 24, 9, true, false, false, true, 12}, 305);
     },
     0},
    {"batch_matmul_int16",
     [] {
       return BatchMatMulInt16({{2, 3, 5}, {5, 4}, {2, 3, 4}, false, false}, 5, 401);
     },
     0},
    {"batch_matmul_int16_adjoint_broadcast",
     [] {
       return BatchMatMulInt16({{2, 1, 6, 3}, {3, 4, 6}, {2, 3, 3, 4}, true, true}, 6, 402);
     },
     0},
    {"batch_matmul_hybrid",
     [] {
       return BatchMatMulHybrid({{2, 3, 16}, {16, 5}, {2, 3, 5}, false, false}, false, 403);
     },
     0},
    {"batch_matmul_hybrid_asymmetric",
     [] {
       return BatchMatMulHybrid({{2, 3, 16}, {2, 16, 5}, {2, 3, 5}, false, false}, true, 404);
     },
     0},
    {"batch_matmul_hybrid_asymmetric_adjoint",
     [] {
       return BatchMatMulHybrid({{2, 12, 4}, {6, 12}, {2, 4, 6}, true, true}, true, 405);
     },
     0},
    {"conv_16x8_int64_bias",
     [] { return Conv16x8(Bias16::kInt64, tflite::TensorType_FLOAT32, 1, 501); }, 0},
    {"conv_16x8_int32_bias_v8",
     [] { return Conv16x8(Bias16::kInt32, tflite::TensorType_FLOAT32, 8, 502); }, 0},
    {"conv_16x8_no_bias",
     [] { return Conv16x8(Bias16::kNone, tflite::TensorType_FLOAT32, 1, 503); }, 0},
    {"conv_16x8_no_bias_int64_option_v8",
     [] { return Conv16x8(Bias16::kNone, tflite::TensorType_INT64, 8, 504); }, 0},
    {"fully_connected_16x8_int64_bias",
     [] { return FullyConnected16x8(Bias16::kInt64, tflite::TensorType_FLOAT32, 4, 511); }, 0},
    {"fully_connected_16x8_int32_bias_v11",
     [] { return FullyConnected16x8(Bias16::kInt32, tflite::TensorType_FLOAT32, 11, 512); }, 0},
    {"fully_connected_16x8_no_bias",
     [] { return FullyConnected16x8(Bias16::kNone, tflite::TensorType_FLOAT32, 6, 513); }, 0},
    {"fully_connected_16x8_no_bias_int64_option_v11",
     [] { return FullyConnected16x8(Bias16::kNone, tflite::TensorType_INT64, 11, 514); }, 0},
    {"fully_connected_16x8_per_channel_int64_bias",
     [] { return FullyConnected16x8(Bias16::kInt64, tflite::TensorType_FLOAT32, 4, 515, true); },
     0},
    {"fully_connected_16x8_per_channel_int32_bias_v11",
     [] { return FullyConnected16x8(Bias16::kInt32, tflite::TensorType_FLOAT32, 11, 516, true); },
     0},
    {"conv_int8_per_channel", [] { return ConvInt8(false, 541); }, 0},
    // Float: the GEMM's fused multiply-adds, within 1e-5 of the reference's sums.
    {"conv_float_3x3_32_to_40", [] { return ConvFloat3x3(544); }, 1e-5},
    {"conv_groups_depthwise_float_7x7",
     [] { return ConvDepthwiseGroups(GroupsKind::kFloat, true, 545); }, 1e-5},
    {"conv_groups_depthwise_float_3x3_stride_2",
     [] { return ConvDepthwiseGroups(GroupsKind::kFloat, false, 546); }, 1e-5},
    {"conv_groups_depthwise_int8_7x7",
     [] { return ConvDepthwiseGroups(GroupsKind::kInt8, true, 547); }, 0},
    {"conv_groups_depthwise_int8_3x3_stride_2",
     [] { return ConvDepthwiseGroups(GroupsKind::kInt8, false, 548); }, 0},
    {"conv_groups_depthwise_hybrid_7x7",
     [] { return ConvDepthwiseGroups(GroupsKind::kHybrid, true, 549); }, 0},
    {"conv_groups_depthwise_hybrid_3x3_stride_2",
     [] { return ConvDepthwiseGroups(GroupsKind::kHybrid, false, 550); }, 0},
    {"conv_groups_hybrid_one_image", [] { return ConvGroupsHybrid(1, 551); }, 0},
    {"conv_groups_hybrid_two_images", [] { return ConvGroupsHybrid(2, 552); }, 0},
    {"conv_groups_int8_8_channels_merged_by_2",
     [] {
       return ConvGrouped({false, 8, 8, 8, 3, 1, 1, true, 9, 11}, 553);
     },
     0},
    {"conv_groups_int8_4_channels_merged_by_4_stride_2",
     [] {
       return ConvGrouped({false, 8, 4, 4, 3, 2, 1, true, 12, 10}, 554);
     },
     0},
    {"conv_groups_int8_16_channels_valid",
     [] {
       return ConvGrouped({false, 3, 16, 16, 3, 1, 1, false, 8, 9}, 555);
     },
     0},
    {"conv_groups_int8_3_channels_per_group",
     [] {
       return ConvGrouped({false, 4, 3, 6, 3, 1, 1, true, 7, 8}, 556);
     },
     0},
    {"conv_groups_int8_dilated",
     [] {
       return ConvGrouped({false, 4, 8, 8, 3, 1, 2, true, 10, 10}, 557);
     },
     0},
    {"conv_groups_int8_pointwise_shuffle",
     [] {
       return ConvGrouped({false, 4, 12, 8, 1, 1, 1, true, 6, 7}, 558);
     },
     0},
    {"conv_groups_hybrid_8_channels_merged_by_2",
     [] {
       return ConvGrouped({true, 6, 8, 8, 3, 2, 1, true, 11, 9}, 559);
     },
     0},
    {"conv_groups_hybrid_4_channels_merged_by_4",
     [] {
       return ConvGrouped({true, 4, 4, 4, 3, 1, 1, false, 8, 8}, 560);
     },
     0},
    {"lstm_int8_basic",
     [] {
       return LstmIntegerModel({2, 4, 5, 6, 6, false, false, false, false, -11, 0, 0, 0}, 611);
     },
     0},
    {"lstm_int8_cifg_peephole_projection_layer_norm",
     [] {
       return LstmIntegerModel({2, 5, 4, 8, 5, true, true, true, true, -13, 0.8f, 0.5f, 2}, 612);
     },
     0},
    {"lstm_int8_time_major_state_zero_point",
     [] {
       return LstmIntegerModel(
           {3, 4, 6, 5, 5, false, false, false, false, -12, 0, 0, -5, true, 0}, 614);
     },
     0},
    {"lstm_int8_projection_hidden_zero_point",
     [] {
       return LstmIntegerModel(
           {2, 3, 5, 6, 4, false, true, false, true, -15, 0, 0, 7, false, 3}, 615);
     },
     0},
    {"lstm_int8_peephole_clip_coarse_cell",
     [] {
       return LstmIntegerModel({1, 6, 3, 7, 7, false, true, false, false, -10, 1.5f, 0, 0}, 613);
     },
     0},
    // 1000-class rows: TFLite's reference kernel aborts here, so the golden comes from its
    // default (optimized) kernel, as scripts/gen_kernel_goldens.py notes in report.json.
    {"softmax_float_1000_classes", [] { return SoftmaxFloat(2, 1000, 1.0f); }, 0},
    {"softmax_float_rows_of_10_beta_20", [] { return SoftmaxFloat(7, 10, 20.0f); }, 0},
    {"softmax_float_rows_of_3", [] { return SoftmaxFloat(5, 3, 1.0f); }, 0},
    {"softmax_float_rows_of_129", [] { return SoftmaxFloat(3, 129, 1.0f); }, 0},
    // 4101 and 4099 values: the last n % 4 on Eigen's scalar path (std::exp), the rest packets.
    {"gelu_float_3x1367", [] { return GeluFloat(3, 1367, 1.0f); }, 0},
    {"gelu_float_4099_scaled_by_4", [] { return GeluFloat(1, 4099, 4.0f); }, 0},
    // The tanh form: Eigen's tanh and its clamp (+-7.9), the last n % 4 values on Eigen's
    // scalar path.
    {"gelu_float_approximate_3x1367_scaled_by_3", [] { return GeluFloat(3, 1367, 3.0f, true); }, 0},
    // Float LOGISTIC: Eigen's packets and (the last n % 4 values) its scalar path, inputs
    // past both cut-offs (-104, 16.64).
    {"logistic_float_3x1367_scaled_by_4", [] { return LogisticFloat(3, 1367, 4.0f, false); }, 0},
    {"logistic_float_4099_scaled_by_40", [] { return LogisticFloat(1, 4099, 40.0f, false); }, 0},
    {"logistic_float_1x7", [] { return LogisticFloat(1, 7, 8.0f, false); }, 0},
    {"swish_float_2x1001_scaled_by_6", [] { return LogisticFloat(2, 1001, 6.0f, true); }, 0},
    // Float TANH: Eigen's rational, inputs past its clamp (+-7.907); last n % 4 values on
    // the scalar path.
    {"tanh_float_3x1367_scaled_by_3",
     [] { return LogisticFloat(3, 1367, 3.0f, false, tflite::BuiltinOperator_TANH); }, 0},
    {"tanh_float_1x7_scaled_by_9",
     [] { return LogisticFloat(1, 7, 9.0f, false, tflite::BuiltinOperator_TANH); }, 0},
    {"mean_float_innermost_37",
     [] {
       return MeanFloat({3, 5, 37}, {2}, true);
     },
     0},
    {"mean_float_innermost_two_axes",
     [] {
       return MeanFloat({2, 6, 23}, {1, 2}, false);
     },
     0},
    {"mean_float_spatial",
     [] {
       return MeanFloat({1, 7, 5, 13}, {1, 2}, false);
     },
     0},
    {"mean_float_outer_axis",
     [] {
       return MeanFloat({9, 4, 6}, {0}, true);
     },
     0},
    {"softmax_int8_1000_classes", [] { return SoftmaxInt8(2, 1000, 0.11f, false); }, 0},
    {"softmax_int8_300_small_scale", [] { return SoftmaxInt8(3, 300, 0.02f, false); }, 0},
    {"softmax_int8_100_classes", [] { return SoftmaxInt8(4, 100, 0.11f, false); }, 0},
    // Logits with a scale of 90 (a random-weight EfficientNetV2-S int8): beta * scale is
    // capped, the left shift is 31 and only a row's maxima count.
    {"softmax_int8_huge_scale", [] { return SoftmaxInt8(6, 10, 90.0f, false); }, 0},
    {"softmax_int8_huge_scale_int16_output", [] { return SoftmaxInt8(6, 10, 90.0f, true); }, 0},
    {"log_softmax_int8_huge_scale", [] { return LogSoftmaxInt8(6, 10, 90.0f); }, 0},
    {"log_softmax_int8_scale_0_1", [] { return LogSoftmaxInt8(4, 33, 0.1f); }, 0},
    {"detection_postprocess_fast",
     [] {
       return DetectionPostProcess({tflite::TensorType_FLOAT32, 60, 4, true, 6, 1, 100, false,
                                    -1.0f, 0.5f}, 621);
     },
     0},
    {"detection_postprocess_fast_two_classes_no_background",
     [] {
       return DetectionPostProcess({tflite::TensorType_FLOAT32, 50, 5, false, 4, 2, 100, false,
                                    -1.5f, 0.4f}, 622);
     },
     0},
    {"detection_postprocess_regular",
     [] {
       return DetectionPostProcess({tflite::TensorType_FLOAT32, 60, 3, true, 8, 1, 3, true,
                                    0.0f, 0.5f}, 623);
     },
     0},
    {"detection_postprocess_uint8",
     [] {
       return DetectionPostProcess({tflite::TensorType_UINT8, 50, 3, true, 5, 1, 100, false,
                                    0.2f, 0.6f}, 624);
     },
     0},
    {"detection_postprocess_uint8_regular",
     [] {
       return DetectionPostProcess({tflite::TensorType_UINT8, 50, 3, true, 6, 1, 4, true,
                                    0.3f, 0.5f}, 625);
     },
     0},
    {"reverse_v2_float_last_axis",
     [] {
       return ReverseV2(tflite::TensorType_FLOAT32, {2, 3, 5}, {-1}, 1);
     },
     0},
    {"reverse_v2_int8_middle_axis",
     [] {
       return ReverseV2(tflite::TensorType_INT8, {2, 4, 3}, {1}, 2);
     },
     0},
    {"reverse_v2_int32_two_axes",
     [] {
       return ReverseV2(tflite::TensorType_INT32, {3, 2, 4}, {2, 1}, 3);
     },
     0},
    {"gelu_int8", [] { return GeluInt8(false); }, 0},
    {"logistic_int16_q3_12",
     [] { return SigmoidInt16(tflite::BuiltinOperator_LOGISTIC, 1.0f / 4096); }, 0},
    {"tanh_int16_q3_12", [] { return SigmoidInt16(tflite::BuiltinOperator_TANH, 1.0f / 4096); }, 0},
    {"tanh_int16_q4_11", [] { return SigmoidInt16(tflite::BuiltinOperator_TANH, 1.0f / 2048); }, 0},
    {"gelu_int8_approximate", [] { return GeluInt8(true); }, 0},
    {"depthwise_int8_per_channel", [] { return ConvInt8(true, 542); }, 0},
    {"fully_connected_int4_weights", [] { return Int4Weights(false, 551); }, 0},
    {"conv_int4_weights", [] { return Int4Weights(true, 552); }, 0},
    // ai-edge-litert 2.3.0's reference resolver lacks DEPTHWISE_CONV_2D v7: this golden
    // comes from its optimized kernel, which rounds 13 of 420 outputs one step off the
    // reference arithmetic (an independent numpy model of the reference agrees with us).
    {"depthwise_int4_weights", [] { return DepthwiseInt4(553); }, 0, 1},
    {"fully_connected_uint8", [] { return FullyConnectedUint8(533); }, 0},
    {"fully_connected_uint8_int16_output", [] { return FullyConnectedUint8(534, true); }, 0},
    {"fully_connected_int8", [] { return FullyConnectedInt8(false, 531); }, 0},
    {"fully_connected_int8_per_channel", [] { return FullyConnectedInt8(true, 532); }, 0},
    {"fully_connected_shuffled_batch1",
     [] { return FullyConnectedShuffled(1, tflite::ActivationFunctionType_NONE, 561); }, 0},
    {"fully_connected_shuffled_batch4_relu",
     [] { return FullyConnectedShuffled(4, tflite::ActivationFunctionType_RELU, 562); }, 0},
    {"fully_connected_sparse_float_csr",
     [] { return FullyConnectedSparse(FcSparseKind::kFloat, 1, false, false, 571); }, 0},
    {"fully_connected_sparse_float_block1x4",
     [] { return FullyConnectedSparse(FcSparseKind::kFloat, 4, false, false, 572); }, 0},
    {"fully_connected_sparse_int8_block1x16",
     [] { return FullyConnectedSparse(FcSparseKind::kInt8, 16, false, false, 573); }, 0},
    {"fully_connected_sparse_int8_block1x16_per_channel",
     [] { return FullyConnectedSparse(FcSparseKind::kInt8, 16, true, false, 574); }, 0},
    {"fully_connected_sparse_hybrid_block1x16",
     [] { return FullyConnectedSparse(FcSparseKind::kHybrid, 16, false, false, 575); }, 0},
    {"fully_connected_sparse_hybrid_block1x16_asymmetric_per_channel",
     [] { return FullyConnectedSparse(FcSparseKind::kHybrid, 16, true, true, 576); }, 0},
    {"transpose_conv_16x8_int64_bias", [] { return TransposeConv16x8(Bias16::kInt64, 3, 521); }, 0},
    {"transpose_conv_16x8_no_bias", [] { return TransposeConv16x8(Bias16::kNone, 2, 522); }, 0},
    {"transpose_conv_16x8_int32_bias_v5",
     [] { return TransposeConv16x8(Bias16::kInt32, 5, 523, tflite::TensorType_INT32); }, 0},
    {"transpose_conv_16x8_no_bias_int32_option_v5",
     [] { return TransposeConv16x8(Bias16::kNone, 5, 524, tflite::TensorType_INT32); }, 0},
    // Hybrid TRANSPOSE_CONV: exact int32 sums rescaled once; TFLite's sums differ from
    // them by about an ulp (its float order is not reproduced), hence 1e-6.
    {"transpose_conv_hybrid_per_channel_same",
     [] {
       return TransposeConvHybrid(true, false, tflite::Padding_SAME, 2,
                                  tflite::ActivationFunctionType_NONE, 581);
     },
     1e-6},
    {"transpose_conv_hybrid_per_tensor_valid_bias_relu",
     [] {
       return TransposeConvHybrid(false, true, tflite::Padding_VALID, 3,
                                  tflite::ActivationFunctionType_RELU, 582);
     },
     1e-6},
    // RFFT2D in double precision rounded to float, as TFLite's: within an ulp or so.
    {"rfft2d_crop_rows_pad_columns",
     [] {
       return Rfft2dParts({2, 6, 10}, 4, 16);
     },
     1e-6},
    {"rfft2d_pad_rows_crop_columns",
     [] {
       return Rfft2dParts({3, 5, 70}, 8, 64);
     },
     1e-6},
    {"rfft2d_stft_frames",
     [] {
       return Rfft2dParts({1, 7, 512}, 1, 512);
     },
     1e-6},
    {"rfft2d_fft_length_not_power_of_two",
     [] {
       return Rfft2dParts({1, 4, 12}, 4, 12);
     },
     0},
    // CONV_3D: float sums in another order than TFLite's im2col GEMM (within 1e-5).
    {"conv3d_video_first_layer",
     [] {
       return Conv3d({{1, 5, 12, 13, 3},
                      {3, 3, 3, 3, 16},
                      {1, 2, 2},
                      {1, 1, 1},
                      true,
                      true,
                      tflite::ActivationFunctionType_RELU},
                     801);
     },
     1e-5},
    {"conv3d_valid_dilated_depth_and_height",
     [] {
       return Conv3d({{1, 7, 9, 6, 8},
                      {2, 3, 2, 8, 12},
                      {2, 1, 1},
                      {2, 2, 1},
                      false,
                      true,
                      tflite::ActivationFunctionType_NONE},
                     802);
     },
     1e-5},
    {"conv3d_pointwise_no_bias_two_batches",
     [] {
       return Conv3d({{2, 3, 4, 5, 24},
                      {1, 1, 1, 24, 20},
                      {1, 1, 1},
                      {1, 1, 1},
                      true,
                      false,
                      tflite::ActivationFunctionType_RELU6},
                     803);
     },
     1e-5},
    {"conv3d_temporal_3x1x1",
     [] {
       return Conv3d({{1, 8, 6, 6, 24},
                      {3, 1, 1, 24, 24},
                      {1, 1, 1},
                      {1, 1, 1},
                      false,
                      true,
                      tflite::ActivationFunctionType_RELU},
                     804);
     },
     1e-5},
    {"conv3d_dilated_width_same",
     [] {
       return Conv3d({{1, 4, 7, 11, 5},
                      {2, 2, 3, 5, 7},
                      {1, 1, 2},
                      {1, 1, 2},
                      true,
                      true,
                      tflite::ActivationFunctionType_RELU_N1_TO_1},
                     805);
     },
     1e-5},
    {"conv3d_transpose_upsample_by_2_same",
     [] {
       return Conv3dTranspose({{1, 3, 4, 5, 16},
                               {3, 3, 3, 8, 16},
                               {2, 2, 2},
                               {1, 1, 1},
                               true,
                               true,
                               tflite::ActivationFunctionType_RELU},
                              {1, 6, 8, 10, 8}, 807);
     },
     1e-5},
    {"conv3d_transpose_valid_no_bias",
     [] {
       return Conv3dTranspose({{2, 3, 3, 4, 6},
                               {2, 3, 2, 5, 6},
                               {1, 2, 1},
                               {1, 1, 1},
                               false,
                               false,
                               tflite::ActivationFunctionType_NONE},
                              {2, 4, 7, 5, 5}, 808);
     },
     1e-5},
    {"conv3d_transpose_dilated",
     [] {
       return Conv3dTranspose({{1, 4, 5, 5, 4},
                               {2, 2, 2, 3, 4},
                               {1, 1, 1},
                               {2, 1, 2},
                               false,
                               true,
                               tflite::ActivationFunctionType_RELU6},
                              {1, 6, 6, 7, 3}, 809);
     },
     1e-5},
    {"conv3d_transpose_input_not_the_shapes_conv_3d",
     [] {
       return Conv3dTranspose({{1, 3, 4, 5, 16},
                               {3, 3, 3, 8, 16},
                               {2, 2, 2},
                               {1, 1, 1},
                               true,
                               true,
                               tflite::ActivationFunctionType_NONE},
                              {1, 6, 9, 12, 8}, 810);
     },
     0},
    {"conv3d_transpose_int8",
     [] {
       return Conv3dTranspose({{1, 2, 2, 2, 4},
                               {2, 2, 2, 4, 4},
                               {2, 2, 2},
                               {1, 1, 1},
                               true,
                               false,
                               tflite::ActivationFunctionType_NONE,
                               tflite::TensorType_INT8},
                              {1, 4, 4, 4, 4}, 811);
     },
     0},
    {"segment_sum_float",
     [] {
       return Segment(tflite::BuiltinOperator_SEGMENT_SUM, tflite::TensorType_FLOAT32, {7, 3, 4},
                      {0, 0, 1, 2, 2, 2, 3}, 0);
     },
     1e-6},
    {"segment_sum_ids_skip_refused",
     [] {
       return Segment(tflite::BuiltinOperator_SEGMENT_SUM, tflite::TensorType_FLOAT32, {4, 2},
                      {0, 2, 2, 3}, 0);
     },
     0},
    {"unsorted_segment_sum_negative_ids",
     [] {
       return Segment(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, tflite::TensorType_FLOAT32,
                      {9, 5}, {3, -1, 0, 3, 5, 0, -2, 1, 3}, 7);
     },
     1e-6},
    {"unsorted_segment_max_float",
     [] {
       return Segment(tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX, tflite::TensorType_FLOAT32,
                      {8, 2, 3}, {1, 1, 4, 0, 4, 1, 2, 0}, 6);
     },
     0},
    {"unsorted_segment_min_int32",
     [] {
       return Segment(tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN, tflite::TensorType_INT32,
                      {6, 4}, {2, 0, 2, 2, 0, 3}, 5);
     },
     0},
    {"unsorted_segment_prod_int32",
     [] {
       return Segment(tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD, tflite::TensorType_INT32,
                      {5, 3}, {1, 0, 1, 1, 2}, 3);
     },
     0},
    {"unsorted_segment_sum_ids_of_rank_2",
     [] {
       ModelBuilder b;
       const int data = b.AddTensor(tflite::TensorType_FLOAT32, {3, 2, 4}, "data");
       const int id =
           b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {3, 2}, {0, 1, 1, 2, 0, 2}, "ids");
       const int n = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {}, {3}, "num_segments");
       const int out = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "out");
       b.AddOperator(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, {data, id, n}, {out});
       SingleIo(b, data, out);
       return b;
     },
     1e-6},
    {"unsorted_segment_max_id_out_of_range_refused",
     [] {
       return Segment(tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX, tflite::TensorType_FLOAT32,
                      {3, 2}, {0, 4, 1}, 4);
     },
     0},
    {"conv3d_int8_input_refused",
     [] {
       return Conv3d({{1, 2, 3, 3, 2},
                      {1, 1, 1, 2, 2},
                      {1, 1, 1},
                      {1, 1, 1},
                      true,
                      false,
                      tflite::ActivationFunctionType_NONE,
                      tflite::TensorType_INT8},
                     806);
     },
     0},
    {"non_max_suppression_v4", [] { return NonMaxSuppression(false, 40, 10, 0.3f, -0.2f, 0); }, 0},
    {"non_max_suppression_v4_fewer_candidates",
     [] { return NonMaxSuppression(false, 12, 20, 0.5f, 0.3f, 0); }, 0},
    {"non_max_suppression_v5_soft",
     [] { return NonMaxSuppression(true, 40, 12, 0.6f, -1.0f, 0.5f); }, 0},
    {"non_max_suppression_v5_hard", [] { return NonMaxSuppression(true, 30, 8, 0.4f, 0.0f, 0.0f); },
     0},
    {"scatter_nd_float_rows",
     [] {
       return ScatterNd(tflite::TensorType_FLOAT32, {5, 1}, {4, 3, 1, 7, 3}, {5, 6}, {8, 6});
     },
     0},
    {"scatter_nd_int32_elements",
     [] {
       return ScatterNd(tflite::TensorType_INT32, {2, 2, 2}, {0, 1, 2, 2, 1, 0, 2, 2}, {2, 2},
                        {3, 3});
     },
     0},
    // LSTM: the gate activations have TFLite's bits (Eigen's tanh and logistic, as
    // tensor_utils.h), but the float sums do not all follow its order (its float gate
    // products go through optimized_ops::FullyConnected, ours sum k in order): outputs
    // differ by 1-3 ulps (3e-8 to 9e-8 here), hence 1e-6 (trained_lstm vs TFLite's golden:
    // 1.8e-7). The quantized parts (per-row input and state quantization, int32 products,
    // row sums) follow TFLite's hybrid kernel exactly.
    // {batch, time, input, cell, output, hybrid, asymmetric, cifg, peephole, layer_norm,
    //  projection, diagonal, time_major, cell_clip, proj_clip, version}
    {"lstm_hybrid",
     [] {
       return LstmModel({2, 4, 5, 6, 6, true, false, false, false, false, false, false, false, 0,
                         0, 2},
                        601);
     },
     1e-6},
    {"lstm_hybrid_asymmetric_peephole_projection",
     [] {
       return LstmModel({3, 4, 5, 6, 4, true, true, false, true, false, true, false, false, 3.0f,
                         0.5f, 3},
                        602);
     },
     1e-6},
    {"lstm_hybrid_cifg_layer_norm_time_major",
     [] {
       return LstmModel({2, 3, 4, 5, 5, true, true, true, false, true, false, false, true, 0, 0,
                         3},
                        603);
     },
     1e-6},
    {"lstm_hybrid_diagonal",
     [] {
       return LstmModel({2, 4, 5, 6, 6, true, false, false, true, false, false, true, false, 0, 0,
                         4},
                        604);
     },
     1e-6},
    {"lstm_float_diagonal",
     [] {
       return LstmModel({2, 4, 5, 6, 6, false, false, false, false, false, false, true, true, 0,
                         0, 4},
                        605);
     },
     1e-6},
};

TEST_CASE("kernels match TFLite's reference kernels on the testdata/kernels goldens") {
  golden_test::CheckCases(kCases, 1);
}

TEST_CASE("kernels match the testdata/kernels goldens on two threads") {
  golden_test::CheckCases(kCases, 2);
}

TEST_CASE("hybrid DEPTHWISE_CONV_2D with one filter scale is refused with the reason") {
  OpTestModel m(DepthwiseHybrid({1, 4, 4, 3, 1, 3, 1, 1, true, true, false,
                                 tflite::ActivationFunctionType_NONE},
                                103));
  CHECK(m.Prepare() != kTfLiteOk);
  CHECK_THAT(m.errors(), Catch::Contains("one scale per output channel on dimension 3") &&
                             Catch::Contains("expected 3 scales, got 1"));
}

TEST_CASE("REVERSE_V2 refuses axes that are not adjacent, with TFLite's message") {
  OpTestModel m(ReverseV2(tflite::TensorType_INT32, {3, 2, 4}, {0, 2}, 3));
  CHECK(m.Prepare() != kTfLiteOk);
  CHECK_THAT(m.errors(), Catch::Contains("Non-contiguous `axes` not supported"));
}

TEST_CASE("FULLY_CONNECTED shuffled weights outside TFLite's batch counts are refused") {
  OpTestModel m(FullyConnectedShuffled(2, tflite::ActivationFunctionType_NONE, 561));
  CHECK(m.Prepare() != kTfLiteOk);
  CHECK_THAT(m.errors(), Catch::Contains("1 or 4 batches") && Catch::Contains("2 batches"));
}

TEST_CASE("FULLY_CONNECTED sparse int8 weights need TFLite's 1x16 blocks") {
  for (FcSparseKind kind : {FcSparseKind::kInt8, FcSparseKind::kHybrid}) {
    OpTestModel m(FullyConnectedSparse(kind, 1, false, false, 573));
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("1x16 blocks only") &&
                               Catch::Contains("got 2 sparsity levels"));
  }
}

// Writes each case's model.tflite (run by scripts/gen_kernel_goldens.py).
TEST_CASE("write kernel golden models", "[.write_kernel_models]") { WriteModels(kCases); }

}  // namespace
}  // namespace tflite_inspect
