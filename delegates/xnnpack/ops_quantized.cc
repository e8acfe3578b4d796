// Quantized partitions: INT8 (qs8, per-tensor or per-channel weights) and UINT8 (qu8)
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED (per-channel weights as a 1x1 convolution:
// this XNNPACK has no per-channel fully connected), ADD and MUL. XNNPACK requantizes in its own way, so results
// may differ from TFLite's reference kernels by one quantization step, as TFLite's own
// XNNPACK delegate does.
#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/internal/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

int Dim(const VisitContext& v, int t, int i) { return Tensor(v, t).dims->data[i]; }

// Input and output of one quantized type, per tensor, with XNNPACK's zero-point range.
bool CheckActivations(VisitContext& v, int input, int output) {
  if (!CheckQuantized(v, input, "input") || !CheckQuantized(v, output, "output")) return false;
  if (Tensor(v, input).type != Tensor(v, output).type) return v.Refuse("input and output types differ");
  return true;
}

// XNNPACK accepts a requantization scale input*filter/output in [2^-32, 256).
bool CheckRequantization(VisitContext& v, int input, int filter, int output) {
  const TfLiteTensor& f = Tensor(v, filter);
  const auto* q = static_cast<const TfLiteAffineQuantization*>(f.quantization.params);
  const float in_scale = ScaleOf(Tensor(v, input)), out_scale = ScaleOf(Tensor(v, output));
  for (int c = 0; c < q->scale->size; ++c) {
    const double s = static_cast<double>(in_scale) * q->scale->data[c] / out_scale;
    if (!(s >= std::ldexp(1.0, -32) && s < 256.0)) {
      return v.Refuse(fmt::format("requantization scale {} is outside XNNPACK's [2^-32, 256)", s));
    }
  }
  return true;
}

// A static filter matching the input type; per-channel allowed along channel_dim (INT8).
bool CheckFilter(VisitContext& v, int input, int filter, int channel_dim) {
  if (!CheckQuantized(v, filter, "filter", channel_dim)) return false;
  if (!IsStatic(v, filter)) return v.Refuse("the filter is not a constant");
  const TfLiteTensor& in = Tensor(v, input);
  const TfLiteTensor& f = Tensor(v, filter);
  if (f.type != in.type) {
    return v.Refuse(fmt::format("{} filter with {} input", TfLiteTypeGetName(f.type), TfLiteTypeGetName(in.type)));
  }
  if (f.type == kTfLiteInt8 && !IsPerChannel(f) && ZeroPointOf(f) != 0) {
    return v.Refuse("INT8 filter with a non-zero zero point");
  }
  return true;
}

bool CheckBias(VisitContext& v, int bias) {
  if (bias < 0) return true;
  const TfLiteTensor& b = Tensor(v, bias);
  if (b.type != kTfLiteInt32) return v.Refuse(fmt::format("bias is {}, expected INT32", TfLiteTypeGetName(b.type)));
  if (!IsStatic(v, bias)) return v.Refuse("the bias is not a constant");
  if (b.quantization.type != kTfLiteAffineQuantization || b.quantization.params == nullptr) {
    return v.Refuse("the bias has no quantization");
  }
  return true;
}

}  // namespace

bool VisitQuantizedConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  const bool depthwise = reg.builtin_code == kTfLiteBuiltinDepthwiseConv2d;
  if (node.inputs->size < 2 || node.outputs->size != 1) return v.Refuse("expects 2-3 inputs, 1 output");
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = node.inputs->size > 2 ? node.inputs->data[2] : -1;
  const int output = node.outputs->data[0];
  if (!CheckActivations(v, input, output) || !CheckRank(v, input, 4, 4, "input") ||
      !CheckFilter(v, input, filter, depthwise ? 3 : 0) || !CheckRank(v, filter, 4, 4, "filter") ||
      !CheckBias(v, bias) || !CheckRequantization(v, input, filter, output)) {
    return false;
  }
  float min, max;
  TfLitePadding padding;
  int stride_h, stride_w, dil_h, dil_w;
  if (depthwise) {
    const auto* p = static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
    if (!ActivationRange(v, p->activation, &min, &max)) return false;
    padding = p->padding;
    stride_h = p->stride_height, stride_w = p->stride_width;
    dil_h = p->dilation_height_factor, dil_w = p->dilation_width_factor;
  } else {
    const auto* p = static_cast<const TfLiteConvParams*>(node.builtin_data);
    if (!ActivationRange(v, p->activation, &min, &max)) return false;
    padding = p->padding;
    stride_h = p->stride_height, stride_w = p->stride_width;
    dil_h = p->dilation_height_factor, dil_w = p->dilation_width_factor;
  }
  const int in_c = Dim(v, input, 3);
  int groups = 1;
  if (depthwise) {
    if (Dim(v, filter, 0) != 1 || Dim(v, filter, 3) % in_c != 0) return v.Refuse("unexpected filter shape");
  } else {
    // Grouped (CONV_2D v6: in_c a multiple of the filter's depth), as TFLite's delegate.
    const int filter_c = Dim(v, filter, 3);
    if (filter_c <= 0 || in_c % filter_c != 0) {
      return v.Refuse("input channels are not a multiple of the filter's");
    }
    groups = in_c / filter_c;
    if (Dim(v, filter, 0) % groups != 0)
      return v.Refuse("output channels are not a multiple of the groups");
  }
  if (v.subgraph == nullptr) return true;
  const uint32_t flags = padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
  const uint32_t b = bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID;
  if (depthwise) {
    return Defined(v, xnn_define_depthwise_convolution_2d(
                          v.subgraph, 0, 0, 0, 0, Dim(v, filter, 1), Dim(v, filter, 2), stride_h,
                          stride_w, dil_h, dil_w, Dim(v, filter, 3) / in_c, in_c, min, max,
                          v.id(input), v.id(filter), b, v.id(output), flags),
                   "quantized DEPTHWISE_CONV_2D");
  }
  return Defined(v,
                 xnn_define_convolution_2d(v.subgraph, 0, 0, 0, 0, Dim(v, filter, 1),
                                           Dim(v, filter, 2), stride_h, stride_w, dil_h, dil_w,
                                           groups, in_c / groups, Dim(v, filter, 0) / groups, min,
                                           max, v.id(input), v.id(filter), b, v.id(output), flags),
                 "quantized CONV_2D");
}

bool VisitQuantizedTransposeConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 3 || node.outputs->size != 1) return v.Refuse("expects 3-4 inputs, 1 output");
  const int shape = node.inputs->data[0], filter = node.inputs->data[1];
  const int input = node.inputs->data[2];
  const int bias = node.inputs->size > 3 ? node.inputs->data[3] : -1;
  const int output = node.outputs->data[0];
  if (!IsStatic(v, shape)) return v.Refuse("the output shape is not a constant");
  if (!CheckActivations(v, input, output) || !CheckRank(v, input, 4, 4, "input") ||
      !CheckFilter(v, input, filter, 0) || !CheckRank(v, filter, 4, 4, "filter") ||
      !CheckBias(v, bias) || !CheckRequantization(v, input, filter, output) ||
      !CheckRank(v, output, 4, 4, "output")) {
    return false;
  }
  if (Tensor(v, input).type != kTfLiteInt8) {
    return v.Refuse("UINT8 TRANSPOSE_CONV is not taken (the delegate's own transposed "
                    "convolution is int8)");
  }
  const auto* p = static_cast<const TfLiteTransposeConvParams*>(node.builtin_data);
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  const int k_h = Dim(v, filter, 1), k_w = Dim(v, filter, 2);
  for (int t : {input, filter, output}) {
    for (int d = 0; d < 4; ++d) {
      if (Dim(v, t, d) <= 0) return v.Refuse("an empty or unknown dimension");
    }
  }
  if (Dim(v, filter, 3) != Dim(v, input, 3) || Dim(v, output, 3) != Dim(v, filter, 0) ||
      Dim(v, output, 0) != Dim(v, input, 0)) {
    return v.Refuse("filter, input and output shapes do not match");
  }
  // (The builtin kernel's Prepare, which checks these, does not run on a delegated node.)
  const int out_c = Dim(v, filter, 0);
  if (bias >= 0 && tflite::NumElements(&Tensor(v, bias)) != out_c) {
    return v.Refuse("the bias does not have one value per output channel");
  }
  const auto* fq = static_cast<const TfLiteAffineQuantization*>(Tensor(v, filter).quantization.params);
  if (fq->scale == nullptr || (fq->scale->size != 1 && fq->scale->size != out_c)) {
    return v.Refuse("the filter does not have one scale, or one per output channel");
  }
  // In 64 bits: crafted sizes overflow int.
  if (p->stride_height != k_h || p->stride_width != k_w ||
      Dim(v, output, 1) != int64_t{Dim(v, input, 1)} * k_h ||
      Dim(v, output, 2) != int64_t{Dim(v, input, 2)} * k_w) {
    return v.Refuse("an int8 TRANSPOSE_CONV whose windows overlap or are padded (this XNNPACK "
                    "has no per-channel int8 deconvolution; the delegate's own takes stride = "
                    "filter size without padding)");
  }
  if (v.subgraph != nullptr) return v.Refuse("run by the delegate's own step, not XNNPACK");
  return true;
}

namespace {

// Per-channel INT8 weights: this XNNPACK's fully connected has none, its convolution has,
// so the node is a 1x1 convolution over the rows reshaped to [rows, 1, 1, K] (TFLite's
// newer XNNPACK takes such classifier heads as a fully connected layer, with the same
// per-channel fp32 requantization).
bool DefinePerChannelFullyConnected(VisitContext& v, int input, int filter, int bias, int output,
                                    float min, float max) {
  const TfLiteTensor& in = Tensor(v, input);
  const TfLiteTensor& f = Tensor(v, filter);
  const TfLiteTensor& o = Tensor(v, output);
  const auto* q = static_cast<const TfLiteAffineQuantization*>(f.quantization.params);
  const size_t n = static_cast<size_t>(f.dims->data[0]), k = static_cast<size_t>(f.dims->data[1]);
  const size_t rows = static_cast<size_t>(tflite::NumElements(&in)) / k;
  size_t x_dims[4] = {rows, 1, 1, k}, w_dims[4] = {n, 1, 1, k}, y_dims[4] = {rows, 1, 1, n};
  size_t out_dims[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < o.dims->size; ++i) out_dims[i] = static_cast<size_t>(o.dims->data[i]);
  uint32_t x = XNN_INVALID_VALUE_ID, w = XNN_INVALID_VALUE_ID, y = XNN_INVALID_VALUE_ID;
  return Defined(v, xnn_define_quantized_tensor_value(v.subgraph, xnn_datatype_qint8, ZeroPointOf(in),
                                                      ScaleOf(in), 4, x_dims, nullptr,
                                                      XNN_INVALID_VALUE_ID, 0, &x),
                 "FULLY_CONNECTED's 4-D input") &&
         Defined(v, xnn_define_channelwise_quantized_tensor_value(
                        v.subgraph, xnn_datatype_qcint8, q->scale->data, 4, 0, w_dims,
                        StaticData(v, filter), XNN_INVALID_VALUE_ID, 0, &w),
                 "FULLY_CONNECTED's 1x1 filter") &&
         Defined(v, xnn_define_quantized_tensor_value(v.subgraph, xnn_datatype_qint8, ZeroPointOf(o),
                                                      ScaleOf(o), 4, y_dims, nullptr,
                                                      XNN_INVALID_VALUE_ID, 0, &y),
                 "FULLY_CONNECTED's 4-D output") &&
         Defined(v, xnn_define_static_reshape(v.subgraph, 4, x_dims, v.id(input), x, 0),
                 "FULLY_CONNECTED's input reshape") &&
         Defined(v, xnn_define_convolution_2d(v.subgraph, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, k, n, min,
                                              max, x, w, bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID,
                                              y, 0),
                 "per-channel FULLY_CONNECTED as a 1x1 convolution") &&
         Defined(v, xnn_define_static_reshape(v.subgraph, o.dims->size, out_dims, y, v.id(output), 0),
                 "FULLY_CONNECTED's output reshape");
}

}  // namespace

bool VisitQuantizedFullyConnected(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2 || node.outputs->size != 1) return v.Refuse("expects 2-3 inputs, 1 output");
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = node.inputs->size > 2 ? node.inputs->data[2] : -1;
  const int output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteFullyConnectedParams*>(node.builtin_data);
  if (p->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) return v.Refuse("shuffled weights");
  if (!CheckActivations(v, input, output) || !CheckFilter(v, input, filter, 0) ||
      !CheckRank(v, filter, 2, 2, "weights") || !CheckBias(v, bias) ||
      !CheckRequantization(v, input, filter, output)) {
    return false;
  }
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  const bool per_channel = IsPerChannel(Tensor(v, filter));
  if (per_channel) {
    const TfLiteTensor& f = Tensor(v, filter);
    const int64_t k = f.dims->data[1], elements = tflite::NumElements(&Tensor(v, input));
    if (k <= 0 || elements % k != 0 ||
        tflite::NumElements(&Tensor(v, output)) != elements / k * f.dims->data[0] ||
        Tensor(v, output).dims->size > XNN_MAX_TENSOR_DIMS) {
      return v.Refuse("the input's size is not rows of the weights' depth");
    }
  }
  if (v.subgraph == nullptr) return true;
  if (per_channel) return DefinePerChannelFullyConnected(v, input, filter, bias, output, min, max);
  return Defined(v, xnn_define_fully_connected(v.subgraph, min, max, v.id(input), v.id(filter),
                                               bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID,
                                               v.id(output),
                                               p->keep_num_dims ? 0 : XNN_FLAG_TENSORFLOW_RESHAPE_2D),
                 "quantized FULLY_CONNECTED");
}

bool VisitQuantizedAdd(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  const bool sub = reg.builtin_code == kTfLiteBuiltinSub;
  if (node.inputs->size != 2 || node.outputs->size != 1) return v.Refuse("expects 2 inputs, 1 output");
  const int a = node.inputs->data[0], b = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckActivations(v, a, out) || !CheckQuantized(v, b, "input 1")) return false;
  if (Tensor(v, b).type != Tensor(v, a).type) return v.Refuse("inputs of different types");
  for (int t : {a, b}) {
    const double ratio = static_cast<double>(ScaleOf(Tensor(v, t))) / ScaleOf(Tensor(v, out));
    if (!(ratio >= std::ldexp(1.0, -10) && ratio < 256.0)) {
      return v.Refuse(fmt::format("input/output scale ratio {} is outside XNNPACK's [2^-10, 256)", ratio));
    }
  }
  float min, max;
  if (!ActivationRange(v, BinaryActivation(node, reg.builtin_code), &min, &max)) return false;
  if (v.subgraph == nullptr) return true;
  if (sub) {
    return Defined(v, xnn_define_subtract(v.subgraph, min, max, v.id(a), v.id(b), v.id(out), 0),
                   "quantized SUB");
  }
  return Defined(v, xnn_define_add2(v.subgraph, min, max, v.id(a), v.id(b), v.id(out), 0), "quantized ADD");
}

// XNNPACK accepts a product scale input0*input1/output in [2^-16, 256).
bool VisitQuantizedMul(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 2 || node.outputs->size != 1) return v.Refuse("expects 2 inputs, 1 output");
  const int a = node.inputs->data[0], b = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckActivations(v, a, out) || !CheckQuantized(v, b, "input 1")) return false;
  if (Tensor(v, b).type != Tensor(v, a).type) return v.Refuse("inputs of different types");
  for (int t : {a, b, out}) {
    if (!CheckRank(v, t, 0, XNN_MAX_TENSOR_DIMS, "a tensor")) return false;
  }
  const double product = static_cast<double>(ScaleOf(Tensor(v, a))) * ScaleOf(Tensor(v, b)) /
                         ScaleOf(Tensor(v, out));
  if (!(product >= std::ldexp(1.0, -16) && product < 256.0)) {
    return v.Refuse(fmt::format("product/output scale {} is outside XNNPACK's [2^-16, 256)", product));
  }
  const auto* p = static_cast<const TfLiteMulParams*>(node.builtin_data);
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  if (v.subgraph == nullptr) return true;
  return Defined(v, xnn_define_multiply2(v.subgraph, min, max, v.id(a), v.id(b), v.id(out), 0), "quantized MUL");
}

bool PlanOwnBinaryQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      BinaryQs8Step* step) {
  const int op = reg.builtin_code;
  if ((op != kTfLiteBuiltinMul && op != kTfLiteBuiltinAdd && op != kTfLiteBuiltinSub) ||
      node.inputs->size != 2 || node.outputs->size != 1) {
    return false;
  }
  int a = node.inputs->data[0], b = node.inputs->data[1];
  const int out = node.outputs->data[0];
  if (Tensor(v, a).type != kTfLiteInt8 || !OwnBinaryQs8Wanted() ||
      !(op == kTfLiteBuiltinMul ? VisitQuantizedMul(v, node, reg) : VisitQuantizedAdd(v, node, reg))) {
    return false;
  }
  // The product and the sum commute; other broadcasts stay with XNNPACK.
  size_t period = 0;
  if (!SameShapeOrChannelVector(v, out, op != kTfLiteBuiltinSub, &a, &b, &period)) return false;
  if (step == nullptr) return true;
  const TfLiteTensor &ta = Tensor(v, a), &tb = Tensor(v, b), &to = Tensor(v, out);
  BinaryQs8Params p;
  if (op == kTfLiteBuiltinMul) {
    p.a_zero_point = ta.params.zero_point;
    p.b_zero_point = tb.params.zero_point;
    p.output_zero_point = to.params.zero_point;
    p.scale = ta.params.scale * tb.params.scale / to.params.scale;  // float, as XNNPACK's
  } else if (!AddQs8Params(ta.params.scale, ta.params.zero_point, tb.params.scale, tb.params.zero_point,
                           to.params.scale, to.params.zero_point, op == kTfLiteBuiltinSub, &p)) {
    return false;  // (VisitQuantizedAdd checked the same limits)
  }
  // The fused activation's float range quantized as XNNPACK quantizes it.
  float min, max;
  if (!ActivationRange(v, BinaryActivation(node, op), &min, &max)) return false;
  p.output_min = XnnpackQuantize(min, to.params.scale, to.params.zero_point);
  p.output_max = XnnpackQuantize(max, to.params.scale, to.params.zero_point);
  const TfLiteIntArray* dout = to.dims;
  size_t elements = 1;
  for (int i = 0; i < dout->size; ++i) elements *= static_cast<size_t>(dout->data[i]);
  *step = BinaryQs8Step{a, b, out, elements, period, p};
  return true;
}

bool ComposeMulOfTable(const BinaryQs8Step& mul, const std::map<int, ByteTableStep>& tables,
                       ByteTableStep* fused) {
  if (mul.period != 0 || mul.params.op != BinaryQs8Op::kMul) return false;
  for (const bool table_is_b : {true, false}) {
    const int x = table_is_b ? mul.a : mul.b;
    const auto t = tables.find(table_is_b ? mul.b : mul.a);
    if (t == tables.end() || t->second.input != x || t->second.elements != mul.elements) continue;
    ByteTableStep out;
    out.input = x;
    out.output = mul.output;
    out.elements = mul.elements;
    for (int i = 0; i < 256; ++i) {
      const int8_t xi = static_cast<int8_t>(static_cast<uint8_t>(i));
      const int8_t fi = static_cast<int8_t>(t->second.lut.table[i]);
      out.lut.table[i] = static_cast<uint8_t>(
          table_is_b ? BinaryQs8One(mul.params, xi, fi) : BinaryQs8One(mul.params, fi, xi));
    }
    *fused = out;
    return true;
  }
  return false;
}

bool IsOwnQuantizedMean(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (reg.builtin_code != kTfLiteBuiltinMean || node.inputs->size < 1 || node.inputs->data[0] < 0 ||
      !IsQuantized8(Tensor(v, node.inputs->data[0]))) {
    return false;
  }
  VisitContext probe = v;  // XNNPACK's global average pooling first
  probe.subgraph = nullptr;
  return !VisitMean(probe, node, reg);
}

bool PlanMeanQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&, MeanQs8Step* step) {
  if (node.inputs->size != 2 || node.outputs->size != 1) return v.Refuse("expects 2 inputs, 1 output");
  const int in = node.inputs->data[0], axes = node.inputs->data[1], out = node.outputs->data[0];
  if (in < 0 || out < 0 || !CheckQuantized(v, in, "input") || !CheckQuantized(v, out, "output")) return false;
  const TfLiteTensor& x = Tensor(v, in);
  const TfLiteTensor& y = Tensor(v, out);
  if (x.type != y.type) return v.Refuse("input and output types differ");
  if (!CheckRank(v, in, 1, std::min<int>(XNN_MAX_TENSOR_DIMS, tflite::mean_quantized::kMaxDims), "input")) {
    return false;
  }
  const int rank = x.dims->size;
  std::vector<bool> axis_reduced;
  if (!ReducedAxes(v, axes, rank, &axis_reduced)) return false;
  std::vector<char> reduced(axis_reduced.begin(), axis_reduced.end());
  int64_t kept = 1;
  for (int d = 0; d < rank; ++d) kept *= reduced[d] ? 1 : x.dims->data[d];
  if (tflite::NumElements(&y) != kept) {
    return v.Refuse("the output's size is not the input's without the reduced axes");
  }
  // The builtin kernel's requantization (MEAN's Prepare).
  tflite::mean_quantized::Params p;
  tflite::QuantizeMultiplier(static_cast<double>(ScaleOf(x)) / static_cast<double>(ScaleOf(y)), &p.multiplier,
                             &p.shift);
  if (p.shift < -31 || p.shift > 30) return v.Refuse("the input/output scale ratio is out of range");
  p.input_zero_point = ZeroPointOf(x);
  p.output_zero_point = ZeroPointOf(y);
  if (step != nullptr) {
    *step = MeanQs8Step{};
    step->input = in;
    step->output = out;
    step->dims.assign(x.dims->data, x.dims->data + rank);
    step->reduced = std::move(reduced);
    step->params = p;
    step->uint8 = x.type == kTfLiteUInt8;
    step->sums = std::make_shared<std::vector<int64_t>>();
  }
  return true;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
