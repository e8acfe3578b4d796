// MAX_POOL_2D, AVERAGE_POOL_2D (a 1x1 stride-1 pool is a clamp, which XNNPACK needs) and
// MEAN over the spatial axes of a 4-D tensor (global average pooling). Quantized: MAX_POOL_2D
// and MEAN; this XNNPACK has no quantized average pooling.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "kernels/internal/gemm.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {

bool VisitPooling(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 1 || node.outputs->size != 1) return v.Refuse("expects 1 input, 1 output");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  const bool quantized = IsQuantized8(Tensor(v, in));
  if (quantized && reg.builtin_code == kTfLiteBuiltinAveragePool2d) {
    return v.Refuse("this XNNPACK version has no quantized AVERAGE_POOL_2D");
  }
  if (!CheckFloatOrSameQuantized(v, in, out) || !CheckRank(v, in, 4, 4, "input")) return false;
  const auto* p = static_cast<const TfLitePoolParams*>(node.builtin_data);
  float min, max;
  if (!ActivationRange(v, p->activation, &min, &max)) return false;
  if (p->filter_height < 1 || p->filter_width < 1 || p->stride_height < 1 || p->stride_width < 1) {
    return v.Refuse("invalid pool size or stride");
  }
  // TFLite's CheckPoolingParams: a stride past the window (NASNet's 1x1 stride-2 average
  // pool) stays on the CPU; this XNNPACK would refuse its definition and fail the delegate.
  if (p->filter_width < p->stride_width) {
    return v.Refuse(fmt::format("unsupported width stride {} exceeding filter width {}",
                                p->stride_width, p->filter_width));
  }
  if (p->filter_height < p->stride_height) {
    return v.Refuse(fmt::format("unsupported height stride {} exceeding filter height {}",
                                p->stride_height, p->filter_height));
  }
  const bool identity = p->filter_height == 1 && p->filter_width == 1 && p->stride_height == 1 &&
                        p->stride_width == 1;
  if (identity && quantized) return v.Refuse("a quantized 1x1 pool (XNNPACK pools are larger than 1x1)");
  if (v.subgraph == nullptr) return true;
  if (identity) return Defined(v, xnn_define_clamp(v.subgraph, min, max, v.id(in), v.id(out), 0), "pool 1x1");
  const uint32_t flags = p->padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
  if (reg.builtin_code == kTfLiteBuiltinMaxPool2d) {
    return Defined(v, xnn_define_max_pooling_2d(v.subgraph, 0, 0, 0, 0, p->filter_height,
                                                p->filter_width, p->stride_height, p->stride_width,
                                                1, 1, min, max, v.id(in), v.id(out), flags),
                   "MAX_POOL_2D");
  }
  return Defined(v, xnn_define_average_pooling_2d(v.subgraph, 0, 0, 0, 0, p->filter_height,
                                                  p->filter_width, p->stride_height,
                                                  p->stride_width, min, max, v.id(in), v.id(out),
                                                  flags),
                 "AVERAGE_POOL_2D");
}

bool PlanOwnMaxPool(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                    MaxPoolStep* step) {
  if (reg.builtin_code != kTfLiteBuiltinMaxPool2d || !OwnStepWanted(tflite::gemm::CpuHasAvx2()) ||
      node.inputs->size != 1 || node.outputs->size != 1) {
    return false;
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (in < 0 || out < 0 || Tensor(v, in).type != kTfLiteFloat32 ||
      Tensor(v, out).type != kTfLiteFloat32 || Tensor(v, in).dims == nullptr ||
      Tensor(v, in).dims->size != 4 || Tensor(v, out).dims == nullptr ||
      Tensor(v, out).dims->size != 4) {
    return false;
  }
  const auto* p = static_cast<const TfLitePoolParams*>(node.builtin_data);
  if (p == nullptr || int64_t{p->filter_height} * p->filter_width <= 1) return false;  // (a clamp)
  // Only what VisitPooling takes (its refusals keep the node on the CPU).
  VisitContext probe = v;
  probe.subgraph = nullptr;
  if (!VisitPooling(probe, node, reg)) return false;
  const int* id = Tensor(v, in).dims->data;
  const int* od = Tensor(v, out).dims->data;
  tflite::max_pool_f32::Geometry g;
  g.batches = id[0];
  g.in_h = id[1];
  g.in_w = id[2];
  g.channels = id[3];
  g.out_h = od[1];
  g.out_w = od[2];
  g.f_h = p->filter_height;
  g.f_w = p->filter_width;
  g.stride_h = p->stride_height;
  g.stride_w = p->stride_width;
  if (od[0] != g.batches || od[3] != g.channels) return false;
  if (p->padding == kTfLitePaddingSame) {  // TensorFlow's: the smaller half before
    // (In 64 bits: a crafted stride times the output size overflows int; a padding past
    // the window reads nothing, and the kernel takes windows' in-image parts only.)
    auto pad = [](int out, int stride, int f, int in) {
      const int64_t total = (int64_t{out} - 1) * stride + f - in;
      return static_cast<int>(std::min<int64_t>(std::max<int64_t>(total, 0) / 2, f));
    };
    g.pad_h = pad(g.out_h, g.stride_h, g.f_h, g.in_h);
    g.pad_w = pad(g.out_w, g.stride_w, g.f_w, g.in_w);
  }
  if (step != nullptr) {
    step->input = in;
    step->output = out;
    step->geometry = g;
    if (!ActivationRange(v, p->activation, &step->min, &step->max)) return false;
  }
  return true;
}

bool VisitMean(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 2 || node.outputs->size != 1) return v.Refuse("expects 2 inputs, 1 output");
  const int in = node.inputs->data[0], axes = node.inputs->data[1], out = node.outputs->data[0];
  if (IsQuantized8(Tensor(v, in))) {
    // XNNPACK's quantized global average pooling takes input/output scale ratios in [2^-8, 256).
    if (!CheckQuantized(v, in, "input") || !CheckQuantized(v, out, "output")) return false;
    if (Tensor(v, in).type != Tensor(v, out).type) return v.Refuse("input and output types differ");
    const double ratio = static_cast<double>(ScaleOf(Tensor(v, in))) / ScaleOf(Tensor(v, out));
    if (!(ratio >= 1.0 / 256 && ratio < 256.0)) {
      return v.Refuse(fmt::format("input/output scale ratio {} is outside XNNPACK's [2^-8, 256)", ratio));
    }
  } else if (!CheckFloat(v, in, "input") || !CheckFloat(v, out, "output")) {
    return false;
  }
  if (!CheckRank(v, in, 4, 4, "input")) return false;
  if (!IsModelConstant(v, axes) || Tensor(v, axes).type != kTfLiteInt32) {
    return v.Refuse("the axes are not an int32 constant of the model");
  }
  const TfLiteTensor& a = Tensor(v, axes);
  const auto* data = static_cast<const int32_t*>(StaticData(v, axes));
  bool h = false, w = false;
  for (size_t i = 0; i < a.bytes / sizeof(int32_t); ++i) {
    const int axis = data[i] < 0 ? data[i] + 4 : data[i];
    if (axis == 1) h = true;
    else if (axis == 2) w = true;
    else return v.Refuse(fmt::format("axis {}: only the mean over height and width is supported", data[i]));
  }
  if (!h || !w) return v.Refuse("only the mean over both height and width is supported");
  const auto* p = static_cast<const TfLiteReducerParams*>(node.builtin_data);
  const TfLiteTensor& i = Tensor(v, in);
  const TfLiteTensor& o = Tensor(v, out);
  if (!p->keep_dims && (o.dims->size != 2 || o.dims->data[0] != i.dims->data[0] ||
                        o.dims->data[1] != i.dims->data[3])) {
    return v.Refuse("keep_dims=false with an output that is not [batch, channels]");
  }
  if (v.subgraph == nullptr) return true;
  const float inf = std::numeric_limits<float>::infinity();
  if (p->keep_dims) {
    return Defined(v, xnn_define_global_average_pooling_2d(v.subgraph, -inf, inf, v.id(in), v.id(out), 0),
                   "MEAN");
  }
  // keep_dims=false: pool into an internal [N, 1, 1, C] value, then reshape to [N, C].
  const size_t pooled_dims[4] = {static_cast<size_t>(i.dims->data[0]), 1, 1, static_cast<size_t>(i.dims->data[3])};
  uint32_t pooled = XNN_INVALID_VALUE_ID;
  const xnn_status st =
      IsQuantized8(o) ? xnn_define_quantized_tensor_value(
                            v.subgraph, o.type == kTfLiteInt8 ? xnn_datatype_qint8 : xnn_datatype_quint8,
                            ZeroPointOf(o), ScaleOf(o), 4, pooled_dims, nullptr, XNN_INVALID_VALUE_ID, 0, &pooled)
                      : xnn_define_tensor_value(v.subgraph, xnn_datatype_fp32, 4, pooled_dims, nullptr,
                                                XNN_INVALID_VALUE_ID, 0, &pooled);
  if (!Defined(v, st, "MEAN's pooled value") ||
      !Defined(v, xnn_define_global_average_pooling_2d(v.subgraph, -inf, inf, v.id(in), pooled, 0), "MEAN")) {
    return false;
  }
  const size_t out_dims[2] = {pooled_dims[0], pooled_dims[3]};
  return Defined(v, xnn_define_static_reshape(v.subgraph, 2, out_dims, pooled, v.id(out), 0), "MEAN's reshape");
}

}  // namespace xnnpack
}  // namespace tflite_inspect
