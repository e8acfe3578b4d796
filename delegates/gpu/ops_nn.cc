// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED, pooling, MEAN/SUM, SOFTMAX.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "custom_ops/mediapipe/custom_options.h"
#include "gpu/ops.h"
#include "kernels/internal/padding.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {
namespace gpu {
namespace {

int Dim(const TfLiteTensor& t, int i) { return t.dims->data[i]; }

// Filter [OC][KH][KW][IC] (as CONV_2D and TRANSPOSE_CONV store it) to [OC/4][KH][KW][IC] x 4.
std::vector<float> PackOhwi(const float* w, int oc, int kh, int kw, int ic) {
  const int o4 = (oc + 3) / 4;
  std::vector<float> out(static_cast<size_t>(o4) * kh * kw * ic * 4, 0.0f);
  for (int o = 0; o < oc; ++o) {
    for (int k = 0; k < kh * kw; ++k) {
      for (int i = 0; i < ic; ++i) {
        out[((static_cast<size_t>(o / 4) * kh * kw + k) * ic + i) * 4 + o % 4] =
            w[(static_cast<size_t>(o) * kh * kw + k) * ic + i];
      }
    }
  }
  return out;
}

// Bias padded to a multiple of 4 (zeros when the node has none).
std::vector<float> PaddedBias(OpContext& c, const TfLiteNode& node, int index, int count) {
  std::vector<float> out(static_cast<size_t>((count + 3) / 4) * 4, 0.0f);
  if (node.inputs->size > index && node.inputs->data[index] >= 0) {
    const float* b = c.build->ConstFloat(node.inputs->data[index]);
    std::copy(b, b + count, out.begin());
  }
  return out;
}

bool CheckOptionalBias(OpContext& c, const TfLiteNode& node, int index, int count) {
  if (node.inputs->size <= index || node.inputs->data[index] < 0) return true;
  if (!CheckConstFloat(c, node.inputs->data[index], "bias")) return false;
  if (NumElements(c.T(node.inputs->data[index])) != count) {
    return c.Refuse("bias size does not match the output channels");
  }
  return true;
}

cl_int4 Int4(int a, int b, int x, int y) {
  cl_int4 v;
  v.s[0] = a, v.s[1] = b, v.s[2] = x, v.s[3] = y;
  return v;
}

// Input and output activations of rank 4 and a constant 4-D filter.
bool CheckConvTensors(OpContext& c, int in, int filter, int out) {
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output") ||
      !CheckConstFloat(c, filter, "filter")) {
    return false;
  }
  if (c.T(in).dims->size != 4 || c.T(filter).dims->size != 4 || c.T(out).dims->size != 4) {
    return c.Refuse("expects 4-D input, filter and output");
  }
  return true;
}

// conv2d / transpose_conv2d: OHWI filter packed for 4 output channels per work-item,
// bias (input `bias_index`, optional) padded to 4, geometry and fused clamp.
bool LaunchPackedConv(OpContext& c, const char* kernel, const TfLiteNode& node, int in, int filter, int bias_index,
                      int out, int stride_h, int stride_w, int pad_h, int pad_w, int dilation_h, int dilation_w,
                      float lo, float hi) {
  const TfLiteTensor &tf = c.T(filter), &to = c.T(out);
  const std::vector<float> w = PackOhwi(c.build->ConstFloat(filter), Dim(tf, 0), Dim(tf, 1), Dim(tf, 2), Dim(tf, 3));
  const std::vector<float> b = PaddedBias(c, node, bias_index, Dim(tf, 0));
  const cl_int4 os = Shape4(to);
  return c.build->Launch(kernel,
                         {Arg(c.build->Tensor(in)), Arg(c.build->Constant(w.data(), w.size() * 4)),
                          Arg(c.build->Constant(b.data(), b.size() * 4)), Arg(c.build->Tensor(out)),
                          Arg(Shape4(c.T(in))), Arg(os), Arg(Int4(Dim(tf, 1), Dim(tf, 2), stride_h, stride_w)),
                          Arg(Int4(pad_h, pad_w, dilation_h, dilation_w)), Arg(lo), Arg(hi)},
                         PixelWork(os));
}

}  // namespace

bool VisitConv2D(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2) return c.Refuse("expects input and filter");
  const int in = node.inputs->data[0], filter = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckConvTensors(c, in, filter, out)) return false;
  const TfLiteTensor &ti = c.T(in), &tf = c.T(filter);
  if (Dim(tf, 3) != Dim(ti, 3)) return c.Refuse("grouped convolution (filter depth != input depth) is not supported");
  if (!CheckOptionalBias(c, node, 2, Dim(tf, 0))) return false;
  const auto* p = static_cast<const TfLiteConvParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  float lo, hi;
  if (!ActivationRange(c, p->activation, &lo, &hi)) return false;
  if (c.build == nullptr) return true;

  int oh = 0, ow = 0;
  const TfLitePaddingValues pad = tflite::ComputePaddingHeightWidth(
      p->stride_height, p->stride_width, p->dilation_height_factor, p->dilation_width_factor,
      Dim(ti, 1), Dim(ti, 2), Dim(tf, 1), Dim(tf, 2), p->padding, &oh, &ow);
  return LaunchPackedConv(c, "conv2d", node, in, filter, 2, out, p->stride_height, p->stride_width, pad.height,
                          pad.width, p->dilation_height_factor, p->dilation_width_factor, lo, hi);
}

bool VisitDepthwiseConv2D(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2) return c.Refuse("expects input and filter");
  const int in = node.inputs->data[0], filter = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckConvTensors(c, in, filter, out)) return false;
  const TfLiteTensor &ti = c.T(in), &tf = c.T(filter), &to = c.T(out);
  const int oc = Dim(tf, 3);
  if (oc != Dim(to, 3) || oc % Dim(ti, 3) != 0) return c.Refuse("output channels are not a multiple of input channels");
  if (!CheckOptionalBias(c, node, 2, oc)) return false;
  const auto* p = static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  float lo, hi;
  if (!ActivationRange(c, p->activation, &lo, &hi)) return false;
  if (c.build == nullptr) return true;

  int oh = 0, ow = 0;
  const TfLitePaddingValues pad = tflite::ComputePaddingHeightWidth(
      p->stride_height, p->stride_width, p->dilation_height_factor, p->dilation_width_factor,
      Dim(ti, 1), Dim(ti, 2), Dim(tf, 1), Dim(tf, 2), p->padding, &oh, &ow);
  // [1][KH][KW][OC] -> [KH][KW][OC rounded up to 4].
  const int padded = (oc + 3) / 4 * 4, taps = Dim(tf, 1) * Dim(tf, 2);
  std::vector<float> w(static_cast<size_t>(taps) * padded, 0.0f);
  const float* src = c.build->ConstFloat(filter);
  for (int k = 0; k < taps; ++k) std::copy(src + k * oc, src + (k + 1) * oc, w.begin() + k * padded);
  const std::vector<float> b = PaddedBias(c, node, 2, oc);
  const cl_int4 os = Shape4(to);
  return c.build->Launch(
      "depthwise_conv2d",
      {Arg(c.build->Tensor(in)), Arg(c.build->Constant(w.data(), w.size() * 4)),
       Arg(c.build->Constant(b.data(), b.size() * 4)), Arg(c.build->Tensor(out)), Arg(Shape4(ti)), Arg(os),
       Arg(Int4(Dim(tf, 1), Dim(tf, 2), p->stride_height, p->stride_width)),
       Arg(Int4(pad.height, pad.width, p->dilation_height_factor, p->dilation_width_factor)),
       Arg(oc / Dim(ti, 3)), Arg(lo), Arg(hi)},
      PixelWork(os));
}

bool VisitTransposeConv(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 3) return c.Refuse("expects output shape, filter and input");
  const int filter = node.inputs->data[1], in = node.inputs->data[2], out = node.outputs->data[0];
  if (!CheckConvTensors(c, in, filter, out)) return false;
  const TfLiteTensor &ti = c.T(in), &tf = c.T(filter), &to = c.T(out);
  if (Dim(tf, 3) != Dim(ti, 3) || Dim(tf, 0) != Dim(to, 3)) return c.Refuse("filter does not match input/output channels");
  if (!CheckOptionalBias(c, node, 3, Dim(tf, 0))) return false;
  const auto* p = static_cast<const TfLiteTransposeConvParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  float lo, hi;
  if (!ActivationRange(c, p->activation, &lo, &hi)) return false;
  if (c.build == nullptr) return true;

  // As TFLite's kernel: padding from the output size, as if the output were the input.
  int unused_h = 0, unused_w = 0;
  const TfLitePaddingValues pad = tflite::ComputePaddingHeightWidth(
      p->stride_height, p->stride_width, 1, 1, Dim(to, 1), Dim(to, 2), Dim(tf, 1), Dim(tf, 2),
      p->padding, &unused_h, &unused_w);
  return LaunchPackedConv(c, "transpose_conv2d", node, in, filter, 3, out, p->stride_height, p->stride_width,
                          pad.height, pad.width, 1, 1, lo, hi);
}

// MediaPipe's Convolution2DTransposeBias (TFLite's GPU delegate takes it too): data,
// OHWI weights, bias; options (padding, stride_w, stride_h) as raw int32s. The total
// padding is MediaPipe's max(0, K - (in-1) % S - 1), the leading half of it first.
bool VisitTransposeConvBias(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 3) return c.Refuse("expects data, weights and bias");
  const int in = node.inputs->data[0], filter = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckConvTensors(c, in, filter, out)) return false;
  const TfLiteTensor &ti = c.T(in), &tf = c.T(filter), &to = c.T(out);
  if (Dim(tf, 3) != Dim(ti, 3) || Dim(tf, 0) != Dim(to, 3)) return c.Refuse("filter does not match input/output channels");
  if (!CheckOptionalBias(c, node, 2, Dim(tf, 0))) return false;
  int32_t o[3];
  if (!mediapipe::ReadIntFields(&node, o, 3)) return c.Refuse("custom options hold fewer than 12 bytes");
  const int32_t padding = o[0], stride_w = o[1], stride_h = o[2];
  if ((padding != kTfLitePaddingSame && padding != kTfLitePaddingValid) || stride_w <= 0 || stride_h <= 0) {
    return c.Refuse("invalid padding or strides in the custom options");
  }
  if (c.build == nullptr) return true;
  const float inf = std::numeric_limits<float>::infinity();
  return LaunchPackedConv(c, "transpose_conv2d", node, in, filter, 2, out, stride_h, stride_w,
                          mediapipe::TransposeConvBiasPadding(padding, Dim(tf, 1), Dim(ti, 1), stride_h) / 2,
                          mediapipe::TransposeConvBiasPadding(padding, Dim(tf, 2), Dim(ti, 2), stride_w) / 2, 1,
                          1, -inf, inf);
}

bool VisitFullyConnected(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2) return c.Refuse("expects input and weights");
  const int in = node.inputs->data[0], weights = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output") ||
      !CheckConstFloat(c, weights, "weights")) {
    return false;
  }
  const TfLiteTensor &ti = c.T(in), &tw = c.T(weights);
  if (tw.dims->size != 2) return c.Refuse("expects 2-D weights");
  const int depth = Dim(tw, 1), units = Dim(tw, 0);
  const int total = NumElements(ti);
  if (depth <= 0 || total % depth != 0) return c.Refuse("input size is not a multiple of the weights' depth");
  if (NumElements(c.T(out)) != total / depth * units) return c.Refuse("output size does not match");
  if (!CheckOptionalBias(c, node, 2, units)) return false;
  const auto* p = static_cast<const TfLiteFullyConnectedParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  if (p->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) return c.Refuse("shuffled weights are not supported");
  float lo, hi;
  if (!ActivationRange(c, p->activation, &lo, &hi)) return false;
  if (c.build == nullptr) return true;

  const std::vector<float> w = PackOhwi(c.build->ConstFloat(weights), units, 1, 1, depth);
  const std::vector<float> b = PaddedBias(c, node, 2, units);
  const int batches = total / depth;
  return c.build->Launch(
      "fully_connected",
      {Arg(c.build->Tensor(in)), Arg(c.build->Constant(w.data(), w.size() * 4)),
       Arg(c.build->Constant(b.data(), b.size() * 4)), Arg(c.build->Tensor(out)), Arg(depth), Arg(units),
       Arg(batches), Arg(lo), Arg(hi)},
      {static_cast<size_t>((units + 3) / 4), static_cast<size_t>(batches)});
}

bool VisitPooling(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 1) return c.Refuse("expects 1 input");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  const TfLiteTensor &ti = c.T(in), &to = c.T(out);
  if (ti.dims->size != 4 || to.dims->size != 4) return c.Refuse("expects 4-D input and output");
  const auto* p = static_cast<const TfLitePoolParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  float lo, hi;
  if (!ActivationRange(c, p->activation, &lo, &hi)) return false;
  if (c.build == nullptr) return true;

  int oh = 0, ow = 0;
  const TfLitePaddingValues pad = tflite::ComputePaddingHeightWidth(
      p->stride_height, p->stride_width, 1, 1, Dim(ti, 1), Dim(ti, 2), p->filter_height,
      p->filter_width, p->padding, &oh, &ow);
  cl_int2 pad2;
  pad2.s[0] = pad.height, pad2.s[1] = pad.width;
  const cl_int4 os = Shape4(to);
  const std::vector<KernelArg> args = {
      Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(Shape4(ti)), Arg(os),
      Arg(Int4(p->filter_height, p->filter_width, p->stride_height, p->stride_width)),
      Arg(pad2), Arg(reg.builtin_code == kTfLiteBuiltinMaxPool2d ? 1 : 0), Arg(lo), Arg(hi)};
  if (static_cast<int64_t>(p->filter_height) * p->filter_width >= kGroupReduceMin) {
    return c.build->LaunchGroups("pool2d_groups", args,
                                 static_cast<size_t>(os.s[0]) * os.s[1] * os.s[2] * ((os.s[3] + 3) / 4));
  }
  return c.build->Launch("pool2d", args, PixelWork(os));
}

bool VisitMean(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 2) return c.Refuse("expects input and axes");
  const int in = node.inputs->data[0], axes = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  const TfLiteTensor& ta = c.T(axes);
  if (!IsConstant(ta) || ta.type != kTfLiteInt32) return c.Refuse("axes must be a constant INT32 tensor");
  const TfLiteTensor& ti = c.T(in);
  const int rank = ti.dims->size;
  cl_int4 flags;
  flags.s[0] = flags.s[1] = flags.s[2] = flags.s[3] = 0;
  for (int i = 0; i < NumElements(ta); ++i) {
    int a = ta.data.i32[i];
    if (a < 0) a += rank;
    if (a < 0 || a >= rank) return c.Refuse(fmt::format("axis {} is out of range", ta.data.i32[i]));
    flags.s[4 - rank + a] = 1;
  }
  if (c.build == nullptr) return true;
  const int count = NumElements(c.T(out));
  const std::vector<KernelArg> args = {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(Shape4(ti)),
                                       Arg(flags), Arg(count), Arg(reg.builtin_code == kTfLiteBuiltinMean ? 1 : 0)};
  if (NumElements(ti) / std::max(count, 1) >= kGroupReduceMin) {
    return c.build->LaunchGroups("reduce_groups", args, static_cast<size_t>(count));
  }
  return c.build->Launch("reduce", args, {static_cast<size_t>(count)});
}

bool VisitSoftmax(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 1) return c.Refuse("expects 1 input");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  const auto* p = static_cast<const TfLiteSoftmaxParams*>(node.builtin_data);
  if (p == nullptr) return c.Refuse("no parameters");
  if (c.build == nullptr) return true;
  const TfLiteTensor& ti = c.T(in);
  const int depth = ti.dims->data[ti.dims->size - 1];
  const int rows = NumElements(ti) / depth;
  const std::vector<KernelArg> args = {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(rows), Arg(depth),
                                       Arg(p->beta)};
  if (depth >= kGroupReduceMin) return c.build->LaunchGroups("softmax_groups", args, static_cast<size_t>(rows));
  return c.build->Launch("softmax", args, {static_cast<size_t>(rows)});
}

}  // namespace gpu
}  // namespace tflite_inspect
