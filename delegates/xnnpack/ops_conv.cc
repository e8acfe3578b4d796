// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV: float32, static weights and bias (model
// constants or fp16 weights the delegate dequantized), fused activations.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "custom_ops/mediapipe/custom_options.h"
#include "kernels/internal/padding.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

int Dim(const VisitContext& v, int t, int i) { return Tensor(v, t).dims->data[i]; }

// Input, static filter, optional static bias, output: all float, 4-D except the bias.
bool CheckConvTensors(VisitContext& v, int input, int filter, int bias, int output) {
  if (!CheckFloat(v, input, "input") || !CheckRank(v, input, 4, 4, "input")) return false;
  if (!CheckFloat(v, filter, "filter") || !CheckRank(v, filter, 4, 4, "filter")) return false;
  if (!IsStatic(v, filter)) return v.Refuse("the filter is not a constant");
  if (bias >= 0) {
    if (!CheckFloat(v, bias, "bias")) return false;
    if (!IsStatic(v, bias)) return v.Refuse("the bias is not a constant");
  }
  return CheckFloat(v, output, "output") && CheckRank(v, output, 4, 4, "output");
}

int OptionalInput(const TfLiteNode& node, int i) {
  return node.inputs->size > i ? node.inputs->data[i] : -1;
}

// Through a folded PAD: the tensor a convolution of geometry g reads (the PAD's input), with
// the PAD's image size and its top and left added to the padding (the taps beyond the
// bottom and right read padding as they would the PAD's). Without one, `input` as it is.
template <typename Geometry>
int ReadThroughPad(const VisitContext& v, int input, const FoldedPadding* pad, Geometry* g) {
  if (pad == nullptr) return input;
  g->in_h = Dim(v, pad->input, 1);
  g->in_w = Dim(v, pad->input, 2);
  g->pad_h += pad->top;
  g->pad_w += pad->left;
  return pad->input;
}

}  // namespace

bool VisitConv2D(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2 || node.outputs->size != 1) return v.Refuse("expects 2-3 inputs, 1 output");
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  if (!CheckConvTensors(v, input, filter, bias, output)) return false;
  const auto* p = static_cast<const TfLiteConvParams*>(node.builtin_data);
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  const int in_c = Dim(v, input, 3), out_c = Dim(v, filter, 0), filter_c = Dim(v, filter, 3);
  if (filter_c <= 0 || in_c % filter_c != 0) {
    return v.Refuse(fmt::format("input channels {} are not a multiple of the filter's {}", in_c, filter_c));
  }
  const int groups = in_c / filter_c;
  if (out_c % groups != 0) return v.Refuse("output channels are not a multiple of the groups");
  if (v.subgraph == nullptr) return true;
  const uint32_t flags = p->padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
  return Defined(v, xnn_define_convolution_2d(
                        v.subgraph, 0, 0, 0, 0, Dim(v, filter, 1), Dim(v, filter, 2),
                        p->stride_height, p->stride_width, p->dilation_height_factor,
                        p->dilation_width_factor, groups, filter_c, out_c / groups, min, max,
                        v.id(input), v.id(filter), bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID,
                        v.id(output), flags),
                 "CONV_2D");
}

namespace {

// The int8 step of a convolution of geometry `g` (CONV_2D, or FULLY_CONNECTED as 1x1): the
// requantization from the tensors, XNNPACK's scales, the weights packed for the dot GEMM.
bool PlanConvQs8Step(VisitContext& v, const tflite::conv_util::ConvGeometry& g, int input,
                     int filter, int bias, int output, TfLiteFusedActivation activation,
                     ConvStep* step, const int8_t* filter_ohwi = nullptr) {
  TfLiteTensor* tensors = v.context->tensors;
  tflite::conv_util::QuantParams quant;
  if (tflite::conv_util::PrepareConvQuant(v.context, &tensors[input], &tensors[filter],
                                          bias >= 0 ? &tensors[bias] : nullptr, &tensors[output],
                                          activation, g.out_c, &quant) != kTfLiteOk) {
    return v.Refuse("the requantization could not be derived");
  }
  const auto* fq = static_cast<const TfLiteAffineQuantization*>(tensors[filter].quantization.params);
  step->input = input;
  step->output = output;
  step->qs8 = std::make_shared<const ConvQs8>(
      g, filter_ohwi != nullptr ? filter_ohwi : static_cast<const int8_t*>(StaticData(v, filter)),
      bias >= 0 ? static_cast<const int32_t*>(StaticData(v, bias)) : nullptr, std::move(quant),
      RequantizationScales(tensors[input].params.scale, fq->scale->data, fq->scale->size,
                           tensors[output].params.scale, g.out_c));
  return true;
}

// An int8 FULLY_CONNECTED as the 1x1 convolution it is: its rows an [rows, 1] image of
// K channels, the weights [units][K] the filter [units][1][1][K].
bool PlanOwnFullyConnectedQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                              ConvStep* step) {
  if (!OwnConvQs8Wanted() || !VisitQuantizedFullyConnected(v, node, reg)) return false;
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteFullyConnectedParams*>(node.builtin_data);
  tflite::conv_util::ConvGeometry g{};
  g.in_c = g.f_c = Dim(v, filter, 1);
  g.out_c = g.group_out_c = Dim(v, filter, 0);
  if (!OwnConvQs8Layer(g.out_c, 1)) return false;
  const int64_t elements = tflite::NumElements(&Tensor(v, input));
  if (g.in_c <= 0 || elements % g.in_c != 0 || elements / g.in_c > INT32_MAX) return false;
  g.batches = 1;
  g.in_h = g.out_h = static_cast<int>(elements / g.in_c);
  g.in_w = g.out_w = g.f_h = g.f_w = g.groups = 1;
  g.stride_h = g.stride_w = g.dil_h = g.dil_w = 1;
  return step == nullptr || PlanConvQs8Step(v, g, input, filter, bias, output, p->activation, step);
}

bool PlanSingleChannelDepthwiseQs8(VisitContext& v, const TfLiteNode& node,
                                   const TfLiteRegistration& reg, ConvStep* step,
                                   const FoldedPadding* pad);

}  // namespace

bool PlanOwnConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                 ConvStep* step, const FoldedPadding* pad) {
  if (node.inputs->size < 2) return false;
  if (reg.builtin_code == kTfLiteBuiltinDepthwiseConv2d) {
    return PlanSingleChannelDepthwiseQs8(v, node, reg, step, pad);
  }
  if (reg.builtin_code == kTfLiteBuiltinFullyConnected &&
      Tensor(v, node.inputs->data[0]).type == kTfLiteInt8) {
    return pad == nullptr && PlanOwnFullyConnectedQs8(v, node, reg, step);
  }
  if (reg.builtin_code != kTfLiteBuiltinConv2d) return false;
  // int8 (QS8) on the dot-product GEMM, float on the packed float GEMM; an int8 depthwise
  // convolution written with groups is the depthwise step's (PlanOwnDepthwise).
  const bool qs8 = Tensor(v, node.inputs->data[0]).type == kTfLiteInt8;
  if (qs8 && IsDepthwiseGroupsConv(v, node, reg)) return false;
  if (qs8 ? !OwnConvQs8Wanted() || !VisitQuantizedConv(v, node, reg) : !VisitConv2D(v, node, reg)) {
    return false;
  }
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteConvParams*>(node.builtin_data);
  tflite::conv_util::ConvGeometry g{};
  g.batches = Dim(v, input, 0);
  g.in_h = Dim(v, input, 1);
  g.in_w = Dim(v, input, 2);
  g.in_c = Dim(v, input, 3);
  g.out_c = Dim(v, filter, 0);
  g.f_h = Dim(v, filter, 1);
  g.f_w = Dim(v, filter, 2);
  g.f_c = Dim(v, filter, 3);
  // Grouped (in_c = groups x f_c; VisitQuantizedConv / VisitConv2D have checked the split):
  // float where each group's direct convolution applies, else XNNPACK's stays (below).
  g.groups = g.f_c > 0 ? g.in_c / g.f_c : 1;
  g.group_out_c = g.out_c / std::max(1, g.groups);
  g.out_h = Dim(v, output, 1);
  g.out_w = Dim(v, output, 2);
  g.stride_h = p->stride_height;
  g.stride_w = p->stride_width;
  g.dil_h = p->dilation_height_factor;
  g.dil_w = p->dilation_width_factor;
  if (g.f_c * g.groups != g.in_c || g.group_out_c * g.groups != g.out_c ||
      Dim(v, output, 0) != g.batches || Dim(v, output, 3) != g.out_c || g.stride_h <= 0 ||
      g.stride_w <= 0 || g.dil_h <= 0 || g.dil_w <= 0) {
    return false;
  }
  if (p->padding == kTfLitePaddingSame) {
    g.pad_h = tflite::ComputePadding(g.stride_h, g.dil_h, g.in_h, g.f_h, g.out_h);
    g.pad_w = tflite::ComputePadding(g.stride_w, g.dil_w, g.in_w, g.f_w, g.out_w);
  }
  const int read = ReadThroughPad(v, input, pad, &g);
  if (qs8 && !OwnConvQs8Layer(g.out_c, g.groups)) return false;
  if (qs8) {
    return step == nullptr || PlanConvQs8Step(v, g, read, filter, bias, output, p->activation, step);
  }
  const bool folds = v.residual_inputs != nullptr && v.residual_inputs->count(output) != 0;
  const tflite::gemm::GemmKernel kernel =
      v.builtin_bits ? tflite::gemm::GemmKernel::kTfliteGemmOrder : tflite::gemm::GemmKernel::kAuto;
  if (g.groups > 1) {
    // Without a residual to fold (the grouped step's stage has none).
    if (folds || !tflite::conv_util::GroupedDirectFloatConvApplies(g, kernel) ||
        !OwnStepWanted(true)) {
      return false;
    }
  } else if (!v.builtin_bits &&
             !OwnConvF32Wanted(g, static_cast<const float*>(StaticData(v, filter)), folds)) {
    return false;
  }
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  if (step != nullptr) {
    step->input = read;
    step->output = output;
    step->op = std::make_shared<const ConvF32>(
        g, static_cast<const float*>(StaticData(v, filter)),
        bias >= 0 ? static_cast<const float*>(StaticData(v, bias)) : nullptr, min, max, kernel);
  }
  return true;
}

bool VisitDepthwiseConv2D(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2 || node.outputs->size != 1) return v.Refuse("expects 2-3 inputs, 1 output");
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  if (!CheckConvTensors(v, input, filter, bias, output)) return false;
  const auto* p = static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  const int in_c = Dim(v, input, 3), out_c = Dim(v, filter, 3);
  if (Dim(v, filter, 0) != 1) return v.Refuse("the filter's first dimension is not 1");
  if (in_c <= 0 || out_c % in_c != 0) return v.Refuse("output channels are not a multiple of the input's");
  if (v.subgraph == nullptr) return true;
  const uint32_t flags = p->padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
  return Defined(v, xnn_define_depthwise_convolution_2d(
                        v.subgraph, 0, 0, 0, 0, Dim(v, filter, 1), Dim(v, filter, 2),
                        p->stride_height, p->stride_width, p->dilation_height_factor,
                        p->dilation_width_factor, out_c / in_c, in_c, min, max, v.id(input),
                        v.id(filter), bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID,
                        v.id(output), flags),
                 "DEPTHWISE_CONV_2D");
}

bool XnnpackHasDepthwiseF32Kernel(int taps) {
  // This XNNPACK (2022) takes its depthwise path only where a micro-kernel's tile equals
  // the filter's taps ("primary_tile == kernel_size"); its float tiles are 3, 4, 9 and 25.
  return taps == 3 || taps == 4 || taps == 9 || taps == 25;
}

bool OwnDepthwiseQs8Wanted() {
#if defined(__aarch64__)
  // The SDOT variant gives this XNNPACK's bytes under qemu but is not timed on a phone
  // against XNNPACK's own arm64 kernels: XNNPACK's by default, TFI_XNNPACK_OWN_GEMM=1 takes it.
  return OwnStepWanted(false);
#else
  return OwnStepWanted(tflite::dwconv::DotDepthwise::Available());
#endif
}

namespace {

// The geometry of a DEPTHWISE_CONV_2D node (tensors already checked 4-D); false when the
// shapes disagree.
// `grouped`: a CONV_2D written as a depthwise convolution (IsDepthwiseGroupsConv: filter
// [C][f_h][f_w][1]), read as one with multiplier 1.
bool DepthwiseGeometry(VisitContext& v, const TfLiteNode& node, tflite::dwconv::Geometry* g,
                       bool grouped = false) {
  const int input = node.inputs->data[0], filter = node.inputs->data[1], output = node.outputs->data[0];
  TfLiteDepthwiseConvParams params{};
  if (grouped) {
    const auto* c = static_cast<const TfLiteConvParams*>(node.builtin_data);
    params.padding = c->padding;
    params.stride_width = c->stride_width;
    params.stride_height = c->stride_height;
    params.dilation_width_factor = c->dilation_width_factor;
    params.dilation_height_factor = c->dilation_height_factor;
    params.activation = c->activation;
  }
  const auto* p =
      grouped ? &params : static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
  *g = tflite::dwconv::Geometry{};
  g->batches = Dim(v, input, 0);
  g->in_h = Dim(v, input, 1);
  g->in_w = Dim(v, input, 2);
  g->in_c = Dim(v, input, 3);
  g->f_h = Dim(v, filter, 1);
  g->f_w = Dim(v, filter, 2);
  g->out_c = grouped ? Dim(v, filter, 0) : Dim(v, filter, 3);
  if (g->in_c <= 0) return false;
  g->depth_multiplier = g->out_c / g->in_c;
  g->out_h = Dim(v, output, 1);
  g->out_w = Dim(v, output, 2);
  g->stride_h = p->stride_height;
  g->stride_w = p->stride_width;
  g->dil_h = p->dilation_height_factor;
  g->dil_w = p->dilation_width_factor;
  if (g->stride_h <= 0 || g->stride_w <= 0 || g->dil_h <= 0 || g->dil_w <= 0 ||
      Dim(v, output, 0) != g->batches || Dim(v, output, 3) != g->out_c) {
    return false;
  }
  if (p->padding == kTfLitePaddingSame) {
    g->pad_h = tflite::ComputePadding(g->stride_h, g->dil_h, g->in_h, g->f_h, g->out_h);
    g->pad_w = tflite::ComputePadding(g->stride_w, g->dil_w, g->in_w, g->f_w, g->out_w);
  }
  return true;
}

// An int8 depthwise convolution of one input channel (a keyword spotter's first layer:
// micro_speech's 1 -> 8 channels over a 10 x 8 window) is the convolution of that channel
// by out_c filters: the dot-product GEMM's step (ConvQs8, the filter [1][f_h][f_w][out_c]
// transposed to [out_c][f_h][f_w][1]), requantized as XNNPACK's. This XNNPACK's QS8
// depthwise multiplies one tap at a time: micro_speech_quantized took 70 us, TFLite's 25.
bool PlanSingleChannelDepthwiseQs8(VisitContext& v, const TfLiteNode& node,
                                   const TfLiteRegistration& reg, ConvStep* step,
                                   const FoldedPadding* pad) {
  if (node.inputs->size < 2 || node.outputs->size != 1 ||
      Tensor(v, node.inputs->data[0]).type != kTfLiteInt8 || !OwnConvQs8Wanted() ||
      !VisitQuantizedConv(v, node, reg)) {
    return false;
  }
  tflite::dwconv::Geometry d;
  if (!DepthwiseGeometry(v, node, &d) || d.in_c != 1 || d.out_c < 2) return false;
  tflite::conv_util::ConvGeometry g{};
  g.batches = d.batches;
  g.in_h = d.in_h;
  g.in_w = d.in_w;
  g.in_c = g.f_c = 1;
  g.f_h = d.f_h;
  g.f_w = d.f_w;
  g.out_h = d.out_h;
  g.out_w = d.out_w;
  g.out_c = g.group_out_c = d.out_c;
  g.groups = 1;
  g.stride_h = d.stride_h;
  g.stride_w = d.stride_w;
  g.dil_h = d.dil_h;
  g.dil_w = d.dil_w;
  g.pad_h = d.pad_h;
  g.pad_w = d.pad_w;
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const int read = ReadThroughPad(v, input, pad, &g);
  if (bias >= 0 && tflite::NumElements(&Tensor(v, bias)) != g.out_c) return false;
  if (step == nullptr) return true;
  const auto* w = static_cast<const int8_t*>(StaticData(v, filter));
  const size_t taps = static_cast<size_t>(g.f_h) * g.f_w;
  std::vector<int8_t> ohwi(taps * g.out_c);
  for (size_t t = 0; t < taps; ++t) {
    for (int o = 0; o < g.out_c; ++o) ohwi[o * taps + t] = w[t * g.out_c + o];
  }
  const auto* p = static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
  return PlanConvQs8Step(v, g, read, filter, bias, output, p->activation, step, ohwi.data());
}

// int8 depthwise with multiplier 1 on DotDepthwise, requantized as XNNPACK: the node XNNPACK
// would take (VisitQuantizedConv), its requantization from the tensors as ConvQs8's.
// A depthwise convolution written as a grouped CONV_2D (ConvNeXt's, converted to int8) is
// one too, its filter [C][f_h][f_w][1] transposed to [1][f_h][f_w][C] once.
bool PlanOwnDepthwiseQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                         DepthwiseStep* step, const FoldedPadding* pad) {
  if (!OwnDepthwiseQs8Wanted() || !VisitQuantizedConv(v, node, reg)) return false;
  const bool grouped = reg.builtin_code == kTfLiteBuiltinConv2d;
  tflite::dwconv::Geometry g;
  if (!DepthwiseGeometry(v, node, &g, grouped)) return false;
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int read = ReadThroughPad(v, input, pad, &g);
  if (!tflite::dwconv::DotDepthwise::Supports(g, nullptr)) return false;
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  TfLiteTensor* tensors = v.context->tensors;
  const auto* fq = static_cast<const TfLiteAffineQuantization*>(tensors[filter].quantization.params);
  // (The filter's zero points are 0: VisitQuantizedConv refused any other.)
  if (fq == nullptr || fq->scale == nullptr || (fq->scale->size != 1 && fq->scale->size != g.out_c)) return false;
  if (bias >= 0 && tflite::NumElements(&tensors[bias]) != g.out_c) return false;
  if (step == nullptr) return true;
  const TfLiteFusedActivation activation =
      grouped ? static_cast<const TfLiteConvParams*>(node.builtin_data)->activation
              : static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data)->activation;
  tflite::conv_util::QuantParams quant;
  if (tflite::conv_util::PrepareConvQuant(v.context, &tensors[input], &tensors[filter],
                                          bias >= 0 ? &tensors[bias] : nullptr, &tensors[output],
                                          activation, g.out_c, &quant) != kTfLiteOk) {
    return v.Refuse("the requantization could not be derived");
  }
  const std::vector<float> scale =
      RequantizationScales(tensors[input].params.scale, fq->scale->data, fq->scale->size,
                           tensors[output].params.scale, g.out_c);
  tflite::gemm::QuantizedOutputStage stage =
      quant.Stage(bias >= 0 ? static_cast<const int32_t*>(StaticData(v, bias)) : nullptr);
  stage.float_scale = scale.data();  // XNNPACK's fp32 stage (multiplier and shift unread)
  *step = DepthwiseStep{};
  step->input = read;
  step->output = output;
  const auto* w = static_cast<const int8_t*>(StaticData(v, filter));
  std::vector<int8_t> by_tap;
  if (grouped) {
    const size_t taps = static_cast<size_t>(g.f_h) * g.f_w;
    by_tap.resize(taps * g.out_c);
    for (int c = 0; c < g.out_c; ++c) {
      for (size_t t = 0; t < taps; ++t) by_tap[t * g.out_c + c] = w[c * taps + t];
    }
    w = by_tap.data();
  }
  step->qs8 =
      std::make_shared<const tflite::dwconv::DotDepthwise>(g, w, -quant.input_offset, stage);
  return true;
}

}  // namespace

bool IsDepthwiseGroupsConv(const VisitContext& v, const TfLiteNode& node,
                           const TfLiteRegistration& reg) {
  if (reg.builtin_code != kTfLiteBuiltinConv2d || node.inputs->size < 2 || node.outputs->size != 1) {
    return false;
  }
  const TfLiteTensor& in = Tensor(v, node.inputs->data[0]);
  const TfLiteTensor& f = Tensor(v, node.inputs->data[1]);
  return (in.type == kTfLiteFloat32 || in.type == kTfLiteInt8) && f.type == in.type &&
         in.dims != nullptr && f.dims != nullptr && in.dims->size == 4 && f.dims->size == 4 &&
         f.dims->data[3] == 1 && in.dims->data[3] > 1 && f.dims->data[0] == in.dims->data[3];
}

namespace {

// The own depthwise kernel's geometry from a node's tensors and its CONV_2D or
// DEPTHWISE_CONV_2D parameters (the same fields), padding included: false where its shape
// rules do not hold (a square filter of `filter_channels` channels, one stride, no
// dilation, at least kOwnDepthwiseMinWidth output columns).
template <typename Params>
bool OwnDepthwiseGeometry(const VisitContext& v, int input, int filter, int filter_channels,
                          int output, const Params& p, DepthwiseF32Params* d) {
  d->batches = Dim(v, input, 0);
  d->in_h = Dim(v, input, 1);
  d->in_w = Dim(v, input, 2);
  d->channels = Dim(v, input, 3);
  d->kernel = Dim(v, filter, 1);
  d->stride = p.stride_height;
  d->out_h = Dim(v, output, 1);
  d->out_w = Dim(v, output, 2);
  if (Dim(v, filter, 2) != d->kernel || filter_channels != d->channels ||
      p.stride_width != d->stride || p.dilation_height_factor != 1 ||
      p.dilation_width_factor != 1 || Dim(v, output, 0) != d->batches ||
      Dim(v, output, 3) != d->channels || d->out_w < kOwnDepthwiseMinWidth) {
    return false;
  }
  if (p.padding == kTfLitePaddingSame) {
    d->pad_top = tflite::ComputePadding(d->stride, 1, d->in_h, d->kernel, d->out_h);
    d->pad_left = tflite::ComputePadding(d->stride, 1, d->in_w, d->kernel, d->out_w);
  }
  return true;
}

// A depthwise convolution written as a grouped CONV_2D (IsDepthwiseGroupsConv), on the
// delegate's depthwise kernel with the filter transposed once: this XNNPACK runs it as
// a grouped convolution (ConvNeXt's 7x7 layers). Not in dynamic-range graphs (there a
// CONV_2D's bits are the builtin GEMM's order, not the depthwise code's) nor through a
// folded PAD.
bool PlanDepthwiseGroupsF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                            DepthwiseStep* step, const FoldedPadding* pad) {
  if (pad != nullptr || v.builtin_bits || !OwnDepthwiseF32Wanted() || !VisitConv2D(v, node, reg)) {
    return false;
  }
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteConvParams*>(node.builtin_data);
  DepthwiseF32Params d;
  // (The filter [C][kh][kw][1]: its channels are its first dimension.)
  if (!OwnDepthwiseGeometry(v, input, filter, Dim(v, filter, 0), output, *p, &d) ||
      !ActivationRange(v, p->activation, &d.min, &d.max) || !DepthwiseF32Supported(d, nullptr)) {
    return false;
  }
  if (step != nullptr) {
    const int taps = d.kernel * d.kernel;
    const auto* f = static_cast<const float*>(StaticData(v, filter));
    auto by_tap = std::make_shared<std::vector<float>>(static_cast<size_t>(taps) * d.channels);
    for (int c = 0; c < d.channels; ++c) {
      for (int t = 0; t < taps; ++t) {
        (*by_tap)[static_cast<size_t>(t) * d.channels + c] = f[static_cast<size_t>(c) * taps + t];
      }
    }
    *step = DepthwiseStep{input, filter, bias, output, d};
    step->filter_by_tap = std::move(by_tap);
  }
  return true;
}

}  // namespace

bool PlanOwnDepthwise(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                      DepthwiseStep* step, const FoldedPadding* pad) {
  if (IsDepthwiseGroupsConv(v, node, reg)) {
    return Tensor(v, node.inputs->data[0]).type == kTfLiteInt8
               ? PlanOwnDepthwiseQs8(v, node, reg, step, pad)
               : PlanDepthwiseGroupsF32(v, node, reg, step, pad);
  }
  if (reg.builtin_code != kTfLiteBuiltinDepthwiseConv2d || node.inputs->size < 2 || node.outputs->size != 1) {
    return false;
  }
  if (Tensor(v, node.inputs->data[0]).type == kTfLiteInt8) return PlanOwnDepthwiseQs8(v, node, reg, step, pad);
  if (!VisitDepthwiseConv2D(v, node, reg)) return false;
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteDepthwiseConvParams*>(node.builtin_data);
  if (v.builtin_bits) {
    if (pad != nullptr) return false;  // FindFoldedPads folds none in such graphs
    tflite::dwconv::Geometry g;
    if (!DepthwiseGeometry(v, node, &g)) return false;
    DepthwiseF32Params d;
    if (!ActivationRange(v, p->activation, &d.min, &d.max)) return false;
    if (step != nullptr) {
      *step = DepthwiseStep{input, filter, bias, output, d};
      step->builtin = true;
      step->geometry = g;
    }
    return true;
  }
  DepthwiseF32Params d;
  if (OwnDepthwiseGeometry(v, input, filter, Dim(v, filter, 3), output, *p, &d)) {
    if (pad != nullptr) {
      d.in_h = Dim(v, pad->input, 1);
      d.in_w = Dim(v, pad->input, 2);
      d.pad_top += pad->top;
      d.pad_left += pad->left;
    }
    if (OwnDepthwiseF32Wanted() && ActivationRange(v, p->activation, &d.min, &d.max) &&
        DepthwiseF32Supported(d, nullptr)) {
      if (step != nullptr) {
        *step = DepthwiseStep{pad != nullptr ? pad->input : input, filter, bias, output, d};
      }
      return true;
    }
  }
  // A filter this XNNPACK has no depthwise micro-kernel for (1x5, 5x1, 3x5, dilated 7x7,
  // ...) would run as a grouped convolution, one output channel per group on its GEMM: 7-20x
  // slower than the builtin kernels' depthwise code (docs/performance.md). That code here.
  tflite::dwconv::Geometry g;
  if (pad != nullptr || !DepthwiseGeometry(v, node, &g) ||
      XnnpackHasDepthwiseF32Kernel(g.f_h * g.f_w) ||
      !ActivationRange(v, p->activation, &d.min, &d.max)) {
    return false;
  }
  if (step != nullptr) {
    *step = DepthwiseStep{input, filter, bias, output, d};
    step->builtin = true;
    step->geometry = g;
  }
  return true;
}

bool VisitTransposeConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 3 || node.outputs->size != 1) return v.Refuse("expects 3-4 inputs, 1 output");
  const int shape = node.inputs->data[0], filter = node.inputs->data[1];
  const int input = node.inputs->data[2], bias = OptionalInput(node, 3);
  const int output = node.outputs->data[0];
  if (!IsStatic(v, shape)) return v.Refuse("the output shape is not a constant");
  if (!CheckConvTensors(v, input, filter, bias, output)) return false;
  const auto* p = static_cast<const TfLiteTransposeConvParams*>(node.builtin_data);
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  const int kh = Dim(v, filter, 1), kw = Dim(v, filter, 2);
  const int out_h = Dim(v, output, 1), out_w = Dim(v, output, 2);
  const int in_h = Dim(v, input, 1), in_w = Dim(v, input, 2);
  // TFLite pads as a convolution from the output to the input would (transpose_conv.cc);
  // XNNPACK's output is stride*(in-1) + adjustment + K - padding.
  // In 64 bits: a crafted stride times the input size overflows int.
  auto pads = [&](int out, int in, int k, int stride, int* before, int* after, int* adjust) {
    if (stride <= 0) return false;
    int64_t total = 0;
    if (p->padding == kTfLitePaddingSame) {
      const int64_t conv_out = (int64_t{out} + stride - 1) / stride;
      total = std::max<int64_t>((conv_out - 1) * stride + k - out, 0);
    }
    const int64_t adj = out - (int64_t{stride} * (in - 1) + k - total);
    if (adj < 0 || adj >= stride || total > std::numeric_limits<int>::max()) return false;
    *before = static_cast<int>(total / 2);
    *after = static_cast<int>(total - total / 2);
    *adjust = static_cast<int>(adj);
    return true;
  };
  int top, bottom, adj_h, left, right, adj_w;
  if (!pads(out_h, in_h, kh, p->stride_height, &top, &bottom, &adj_h) ||
      !pads(out_w, in_w, kw, p->stride_width, &left, &right, &adj_w)) {
    return v.Refuse("the output size needs an adjustment XNNPACK cannot express");
  }
  if (v.subgraph == nullptr) return true;
  return Defined(v, xnn_define_deconvolution_2d(
                        v.subgraph, top, right, bottom, left, adj_h, adj_w, kh, kw,
                        p->stride_height, p->stride_width, 1, 1, 1, Dim(v, input, 3),
                        Dim(v, filter, 0), min, max, v.id(input), v.id(filter),
                        bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID, v.id(output), 0),
                 "TRANSPOSE_CONV");
}

bool VisitMediaPipeTransposeConvBias(VisitContext& v, const TfLiteNode& node) {
  if (node.inputs->size != 3 || node.outputs->size != 1) return v.Refuse("expects 3 inputs, 1 output");
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = node.inputs->data[2], output = node.outputs->data[0];
  if (bias < 0) return v.Refuse("no bias");
  if (!CheckConvTensors(v, input, filter, bias, output)) return false;
  // The first three fields of TfLiteTransposeConvParams, verbatim.
  int32_t o[3];
  if (!mediapipe::ReadIntFields(&node, o, 3)) {
    return v.Refuse(fmt::format("custom options hold {} bytes, need 12", node.custom_initial_data_size));
  }
  const int32_t padding = o[0], stride_w = o[1], stride_h = o[2];
  if (padding != kTfLitePaddingSame && padding != kTfLitePaddingValid) return v.Refuse(fmt::format("padding {}", padding));
  if (stride_w <= 0 || stride_h <= 0) return v.Refuse("strides must be positive");
  const int kh = Dim(v, filter, 1), kw = Dim(v, filter, 2);
  // MediaPipe's padding: total K - (in - 1) % S - 1 for SAME (at least 0), the leading
  // half first; XNNPACK gets it explicitly (its own SAME rule differs for odd inputs).
  // The output size in 64 bits (a crafted stride times the input size overflows int), as
  // the op's own prepare computes it.
  auto pads = [&](int out, int in, int k, int stride, int* before, int* after) {
    const int total = mediapipe::TransposeConvBiasPadding(padding, k, in, stride);
    *before = total / 2;
    *after = total - total / 2;
    return int64_t{out} == int64_t{stride} * (in - 1) + k - total;
  };
  int top, bottom, left, right;
  if (!pads(Dim(v, output, 1), Dim(v, input, 1), kh, stride_h, &top, &bottom) ||
      !pads(Dim(v, output, 2), Dim(v, input, 2), kw, stride_w, &left, &right) ||
      Dim(v, output, 3) != Dim(v, filter, 0) || Dim(v, input, 3) != Dim(v, filter, 3)) {
    return v.Refuse("the output shape is not the one the op computes");
  }
  if (v.subgraph == nullptr) return true;
  return Defined(v, xnn_define_deconvolution_2d(
                        v.subgraph, top, right, bottom, left, 0, 0, kh, kw, stride_h, stride_w,
                        1, 1, 1, Dim(v, input, 3), Dim(v, filter, 0), -INFINITY, INFINITY,
                        v.id(input), v.id(filter), v.id(bias), v.id(output), 0),
                 "Convolution2DTransposeBias");
}

namespace {

// An int8 TRANSPOSE_CONV (VisitQuantizedTransposeConv's): the requantization from the
// tensors, XNNPACK's scales, the weights packed per filter row for the dot GEMM.
bool PlanTransposeConvQs8(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                          TransposeConvStep* step) {
  if (!VisitQuantizedTransposeConv(v, node, reg)) return false;
  if (step == nullptr) return true;
  const int filter = node.inputs->data[1], input = node.inputs->data[2];
  const int bias = OptionalInput(node, 3), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteTransposeConvParams*>(node.builtin_data);
  TfLiteTensor* tensors = v.context->tensors;
  const int out_c = Dim(v, filter, 0);
  tflite::conv_util::QuantParams quant;
  if (tflite::conv_util::PrepareConvQuant(v.context, &tensors[input], &tensors[filter],
                                          bias >= 0 ? &tensors[bias] : nullptr, &tensors[output],
                                          p->activation, out_c, &quant) != kTfLiteOk) {
    return v.Refuse("the requantization could not be derived");
  }
  const auto* fq = static_cast<const TfLiteAffineQuantization*>(tensors[filter].quantization.params);
  step->input = input;
  step->output = output;
  step->qs8 = std::make_shared<const TransposeConvQs8>(
      Dim(v, input, 0), Dim(v, input, 1), Dim(v, input, 2), Dim(v, input, 3), Dim(v, filter, 1),
      Dim(v, filter, 2), out_c, static_cast<const int8_t*>(StaticData(v, filter)),
      bias >= 0 ? static_cast<const int32_t*>(StaticData(v, bias)) : nullptr,
      -quant.input_offset, quant.output_offset, quant.act_min, quant.act_max,
      RequantizationScales(tensors[input].params.scale, fq->scale->data, fq->scale->size,
                           tensors[output].params.scale, out_c));
  return true;
}

}  // namespace

bool PlanOwnTransposeConv(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                          TransposeConvStep* step) {
  const bool custom = reg.builtin_code == kTfLiteBuiltinCustom && reg.custom_name != nullptr &&
                      std::strcmp(reg.custom_name, "Convolution2DTransposeBias") == 0;
  if (!custom && reg.builtin_code != kTfLiteBuiltinTransposeConv) return false;
  if (!custom && node.inputs->size > 2 && IsQuantized8(Tensor(v, node.inputs->data[2]))) {
    return PlanTransposeConvQs8(v, node, reg, step);
  }
  if (!(custom ? VisitMediaPipeTransposeConvBias(v, node) : VisitTransposeConv(v, node, reg))) return false;
  // Tensors and strides (the visitor checked counts, types and the output shape).
  const int input = node.inputs->data[custom ? 0 : 2], filter = node.inputs->data[1];
  const int bias = custom ? node.inputs->data[2] : OptionalInput(node, 3), output = node.outputs->data[0];
  int stride_h, stride_w;
  if (custom) {
    int32_t o[3];
    mediapipe::ReadIntFields(&node, o, 3);
    stride_w = o[1];
    stride_h = o[2];
  } else {
    const auto* p = static_cast<const TfLiteTransposeConvParams*>(node.builtin_data);
    if (p->activation != kTfLiteActNone) return false;
    stride_h = p->stride_height;
    stride_w = p->stride_width;
  }
  const int out_c = Dim(v, filter, 0), k_h = Dim(v, filter, 1), k_w = Dim(v, filter, 2);
  const int in_h = Dim(v, input, 1), in_w = Dim(v, input, 2);
  if (stride_h != k_h || stride_w != k_w || Dim(v, output, 1) != in_h * k_h ||
      Dim(v, output, 2) != in_w * k_w || k_w * out_c > kOwnTransposeConvMaxColumns) {
    return false;
  }
  if (step != nullptr) {
    step->input = input;
    step->output = output;
    step->op = std::make_shared<const TransposeConvF32>(
        Dim(v, input, 0), in_h, in_w, Dim(v, input, 3), k_h, k_w, out_c,
        static_cast<const float*>(StaticData(v, filter)),
        bias >= 0 ? static_cast<const float*>(StaticData(v, bias)) : nullptr);
  }
  return true;
}

bool VisitFullyConnected(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size < 2 || node.outputs->size != 1) return v.Refuse("expects 2-3 inputs, 1 output");
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteFullyConnectedParams*>(node.builtin_data);
  if (p->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) {
    return v.Refuse("shuffled weights are not supported");
  }
  if (!CheckFloat(v, input, "input") || !CheckFloat(v, filter, "weights") ||
      !CheckRank(v, filter, 2, 2, "weights") || !CheckFloat(v, output, "output")) {
    return false;
  }
  if (!IsStatic(v, filter)) return v.Refuse("the weights are not a constant");
  if (bias >= 0 && (!CheckFloat(v, bias, "bias") || !IsStatic(v, bias))) {
    return v.reason.empty() ? v.Refuse("the bias is not a constant") : false;
  }
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  const TfLiteTensor& in = Tensor(v, input);
  // Without keep_num_dims TFLite (and XNNPACK, with the flag) reshapes the input to
  // [-1, input_channels]; with it the last dimension must match.
  if (p->keep_num_dims && in.dims->data[in.dims->size - 1] != Tensor(v, filter).dims->data[1]) {
    return v.Refuse("the input's last dimension differs from the weights'");
  }
  if (v.subgraph == nullptr) return true;
  return Defined(v, xnn_define_fully_connected(
                        v.subgraph, min, max, v.id(input), v.id(filter),
                        bias >= 0 ? v.id(bias) : XNN_INVALID_VALUE_ID, v.id(output),
                        p->keep_num_dims ? 0 : XNN_FLAG_TENSORFLOW_RESHAPE_2D),
                 "FULLY_CONNECTED");
}

bool PlanOwnFullyConnected(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                           FullyConnectedStep* step) {
  if (reg.builtin_code != kTfLiteBuiltinFullyConnected ||
      !(OwnFullyConnectedF32Wanted() || v.builtin_bits) || !VisitFullyConnected(v, node, reg)) {
    return false;
  }
  const int input = node.inputs->data[0], filter = node.inputs->data[1];
  const int bias = OptionalInput(node, 2), output = node.outputs->data[0];
  const auto* p = static_cast<const TfLiteFullyConnectedParams*>(node.builtin_data);
  const TfLiteTensor& w = Tensor(v, filter);
  const int out_c = w.dims->data[0], in_c = w.dims->data[1];
  const TfLiteTensor& in = Tensor(v, input);
  const TfLiteTensor& out = Tensor(v, output);
  if (in_c <= 0 || out_c <= 0) return false;
  int64_t in_elements = 1, out_elements = 1;
  for (int i = 0; i < in.dims->size; ++i) in_elements *= in.dims->data[i];
  for (int i = 0; i < out.dims->size; ++i) out_elements *= out.dims->data[i];
  const int64_t rows = in_elements / in_c;
  if (rows * in_c != in_elements || rows * out_c != out_elements || rows > INT32_MAX) return false;
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  if (step != nullptr) {
    step->input = input;
    step->output = output;
    step->op = std::make_shared<const FullyConnectedF32>(
        static_cast<int>(rows), in_c, out_c, static_cast<const float*>(StaticData(v, filter)),
        bias >= 0 ? static_cast<const float*>(StaticData(v, bias)) : nullptr, min, max,
        v.builtin_bits ? tflite::gemm::GemmKernel::kTfliteGemmOrder : tflite::gemm::GemmKernel::kAuto);
  }
  return true;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
