#include <limits>
#include <string>

#include <fmt/format.h>

#include "delegate/fused_activation.h"
#include "gpu/ops.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {
namespace gpu {

bool IsConstant(const TfLiteTensor& t) {
  return (t.allocation_type == kTfLiteMmapRo || t.allocation_type == kTfLitePersistentRo) &&
         t.data.raw != nullptr;
}

bool IsQuantized8(const TfLiteTensor& t) {
  return (t.type == kTfLiteInt8 || t.type == kTfLiteUInt8) && t.quantization.type == kTfLiteAffineQuantization &&
         t.quantization.params != nullptr &&
         static_cast<const TfLiteAffineQuantization*>(t.quantization.params)->scale != nullptr &&
         static_cast<const TfLiteAffineQuantization*>(t.quantization.params)->scale->size > 0;
}

bool PerTensorQuant(const TfLiteTensor& t, float* scale, int* zero_point) {
  if (!IsQuantized8(t)) return false;
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  if (q->scale->size != 1) return false;
  *scale = q->scale->data[0];
  *zero_point = q->zero_point != nullptr && q->zero_point->size > 0 ? q->zero_point->data[0] : 0;
  return *scale > 0;
}

bool CheckActivation(OpContext& c, int tensor, const char* what) {
  if (tensor < 0 || tensor >= static_cast<int>(c.context->tensors_size)) {
    return c.Refuse(fmt::format("{} is missing", what));
  }
  const TfLiteTensor& t = c.T(tensor);
  if (t.type != kTfLiteFloat32) {
    float scale;
    int zp;
    if (!PerTensorQuant(t, &scale, &zp)) {
      return c.Refuse(fmt::format("{} is {}{}; the GPU delegate computes FLOAT32 tensors (and per-tensor "
                                  "quantized INT8/UINT8 ones in float)",
                                  what, TfLiteTypeGetName(t.type), IsQuantized8(t) ? " with per-channel scales" : ""));
    }
    if (!c.enable_quant) {
      return c.Refuse(fmt::format("{} is {}: quantized nodes need options.enable_quant=true", what,
                                  TfLiteTypeGetName(t.type)));
    }
  }
  if (t.dims == nullptr || t.dims->size < 1 || t.dims->size > 4) {
    return c.Refuse(fmt::format("{} has rank {}; the GPU delegate handles rank 1 to 4", what,
                                t.dims == nullptr ? -1 : t.dims->size));
  }
  if (t.allocation_type == kTfLiteDynamic) return c.Refuse(fmt::format("{} has a dynamic shape", what));
  for (int i = 0; i < t.dims->size; ++i) {
    if (t.dims->data[i] <= 0) return c.Refuse(fmt::format("{} has an empty or unknown dimension", what));
  }
  return true;
}

bool CheckConstFloat(OpContext& c, int tensor, const char* what) {
  if (tensor < 0 || tensor >= static_cast<int>(c.context->tensors_size)) {
    return c.Refuse(fmt::format("{} is missing", what));
  }
  const TfLiteTensor& t = c.T(tensor);
  if (!IsConstant(t)) {
    return c.Refuse(fmt::format("{} is not constant; the GPU delegate needs constant {}", what, what));
  }
  if (t.type == kTfLiteFloat32 || t.type == kTfLiteFloat16) return true;
  // Quantized weights and bias are dequantized once, at prepare (TFLite's
  // --gpu_experimental_enable_quant).
  const bool quantized = IsQuantized8(t) || (t.type == kTfLiteInt32 && t.quantization.type == kTfLiteAffineQuantization &&
                                             t.quantization.params != nullptr);
  if (quantized && c.enable_quant) return true;
  if (quantized) {
    return c.Refuse(fmt::format("{} is quantized {}: quantized nodes need options.enable_quant=true", what,
                                TfLiteTypeGetName(t.type)));
  }
  return c.Refuse(fmt::format("{} is {}; the GPU delegate takes FLOAT32 or FLOAT16 {}", what,
                              TfLiteTypeGetName(t.type), what));
}

bool ActivationRange(OpContext& c, TfLiteFusedActivation act, float* lo, float* hi) {
  if (tflite_inspect::FusedActivationClamp(act, lo, hi)) return true;
  return c.Refuse(fmt::format("fused activation {} is not supported",
                              tflite_inspect::FusedActivationName(act)));
}

cl_int4 Shape4(const TfLiteTensor& t) {
  cl_int4 s;
  s.s[0] = s.s[1] = s.s[2] = s.s[3] = 1;
  const int rank = t.dims != nullptr ? t.dims->size : 0;
  for (int i = 0; i < rank && i < 4; ++i) s.s[4 - rank + i] = t.dims->data[i];
  return s;
}

int NumElements(const TfLiteTensor& t) {
  int n = 1;
  for (int i = 0; t.dims != nullptr && i < t.dims->size; ++i) n *= t.dims->data[i];
  return n;
}

std::vector<size_t> PixelWork(const cl_int4& o) {
  return {static_cast<size_t>(o.s[2]), static_cast<size_t>(o.s[0] * o.s[1]),
          static_cast<size_t>((o.s[3] + 3) / 4)};
}

std::vector<size_t> RowWork(const cl_int4& s, int per_item) {
  return {static_cast<size_t>((s.s[3] + per_item - 1) / per_item),
          static_cast<size_t>(s.s[0] * s.s[1] * s.s[2])};
}

bool VisitDequantize(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 1 || node.outputs->size != 1) return c.Refuse("expects 1 input and 1 output");
  const TfLiteTensor& in = c.T(node.inputs->data[0]);
  if (c.T(node.outputs->data[0]).type != kTfLiteFloat32) return c.Refuse("output is not FLOAT32");
  // The fp16-weights pattern: a constant FLOAT16 tensor made FLOAT32 once, at prepare;
  // its consumers then read it as a constant.
  if (in.type == kTfLiteFloat16 && IsConstant(in)) return true;
  // A quantized activation: on the device it already holds real values.
  if (!IsConstant(in) && IsQuantized8(in)) {
    if (!CheckActivation(c, node.inputs->data[0], "input") || !CheckActivation(c, node.outputs->data[0], "output")) {
      return false;
    }
    if (c.build != nullptr) c.build->Alias(node.outputs->data[0], node.inputs->data[0]);
    return true;
  }
  return c.Refuse(fmt::format("only DEQUANTIZE of constant FLOAT16 weights or of a quantized activation runs on "
                              "the GPU (input is {}{})",
                              IsConstant(in) ? "constant " : "", TfLiteTypeGetName(in.type)));
}

bool VisitQuantize(OpContext& c, const TfLiteNode& node, const TfLiteRegistration&) {
  // Float (or another quantization) to INT8/UINT8: a copy; the rounding to the output's
  // grid follows every quantized output (gpu_delegate.cc).
  if (node.inputs->size != 1 || node.outputs->size != 1) return c.Refuse("expects 1 input and 1 output");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  if (!IsQuantized8(c.T(out))) return c.Refuse("output is not INT8/UINT8");
  if (c.build == nullptr) return true;
  const int n = NumElements(c.T(in));
  const float inf = std::numeric_limits<float>::infinity();
  return c.build->Launch("unary",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(n), Arg(0), Arg(0.0f),
                          Arg(-inf), Arg(inf)},
                         {static_cast<size_t>((n + 3) / 4)});
}

bool VisitDensify(OpContext& c, const TfLiteNode& node) {
  // Sparse constant weights made dense once, at prepare (the runtime folds constant-only
  // nodes before a static-shape delegate sees the graph); consumers read the result.
  if (node.inputs->size != 1 || node.outputs->size != 1) return c.Refuse("expects 1 input and 1 output");
  const TfLiteTensor& out = c.T(node.outputs->data[0]);
  if (!IsConstant(c.T(node.inputs->data[0])) || !IsConstant(out)) {
    return c.Refuse("only DENSIFY of constant weights, folded at prepare, runs on the GPU");
  }
  if (out.type != kTfLiteFloat32 && out.type != kTfLiteFloat16) return c.Refuse("output is not FLOAT32 or FLOAT16");
  return true;
}

bool VisitNode(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  for (int i = 0; i < node.outputs->size; ++i) {
    if (node.outputs->data[i] < 0) return c.Refuse("an output is missing");
  }
  switch (reg.builtin_code) {
    case kTfLiteBuiltinConv2d:
      return VisitConv2D(c, node, reg);
    case kTfLiteBuiltinDepthwiseConv2d:
      return VisitDepthwiseConv2D(c, node, reg);
    case kTfLiteBuiltinTransposeConv:
      return VisitTransposeConv(c, node, reg);
    case kTfLiteBuiltinFullyConnected:
      return VisitFullyConnected(c, node, reg);
    case kTfLiteBuiltinMaxPool2d:
    case kTfLiteBuiltinAveragePool2d:
      return VisitPooling(c, node, reg);
    case kTfLiteBuiltinMean:
    case kTfLiteBuiltinSum:
      return VisitMean(c, node, reg);
    case kTfLiteBuiltinSoftmax:
      return VisitSoftmax(c, node, reg);
    case kTfLiteBuiltinLogistic:
    case kTfLiteBuiltinTanh:
    case kTfLiteBuiltinRelu:
    case kTfLiteBuiltinRelu6:
    case kTfLiteBuiltinReluN1To1:
    case kTfLiteBuiltinRelu0To1:
    case kTfLiteBuiltinLeakyRelu:
    case kTfLiteBuiltinElu:
    case kTfLiteBuiltinHardSwish:
    case kTfLiteBuiltinAbs:
    case kTfLiteBuiltinNeg:
    case kTfLiteBuiltinSquare:
    case kTfLiteBuiltinSqrt:
    case kTfLiteBuiltinRsqrt:
    case kTfLiteBuiltinExp:
    case kTfLiteBuiltinLog:
    case kTfLiteBuiltinSin:
    case kTfLiteBuiltinCos:
    case kTfLiteBuiltinFloor:
    case kTfLiteBuiltinCeil:
      return VisitUnary(c, node, reg);
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinSub:
    case kTfLiteBuiltinMul:
    case kTfLiteBuiltinDiv:
    case kTfLiteBuiltinMaximum:
    case kTfLiteBuiltinMinimum:
    case kTfLiteBuiltinSquaredDifference:
    case kTfLiteBuiltinPrelu:
    case kTfLiteBuiltinPow:
      return VisitBinary(c, node, reg);
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinSqueeze:
    case kTfLiteBuiltinExpandDims:
      return VisitReshape(c, node, reg);
    case kTfLiteBuiltinConcatenation:
      return VisitConcatenation(c, node, reg);
    case kTfLiteBuiltinSlice:
    case kTfLiteBuiltinStridedSlice:
    case kTfLiteBuiltinSplit:
    case kTfLiteBuiltinSplitV:
      return VisitSliceLike(c, node, reg);
    case kTfLiteBuiltinTranspose:
      return VisitTranspose(c, node, reg);
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinPadv2:
      return VisitPad(c, node, reg);
    case kTfLiteBuiltinResizeBilinear:
    case kTfLiteBuiltinResizeNearestNeighbor:
      return VisitResize(c, node, reg);
    case kTfLiteBuiltinDepthToSpace:
    case kTfLiteBuiltinSpaceToDepth:
      return VisitSpaceDepth(c, node, reg);
    case kTfLiteBuiltinDequantize:
      return VisitDequantize(c, node, reg);
    case kTfLiteBuiltinDensify:
      return VisitDensify(c, node);
    case kTfLiteBuiltinQuantize:
      return VisitQuantize(c, node, reg);
    case kTfLiteBuiltinCustom:
      if (reg.custom_name != nullptr) {
        const std::string name = reg.custom_name;
        if (name == "Convolution2DTransposeBias") return VisitTransposeConvBias(c, node, reg);
        if (name == "Landmarks2TransformMatrix") return VisitLandmarksToMatrix(c, node, reg);
        if (name == "TransformLandmarks") return VisitTransformLandmarks(c, node, reg);
        if (name == "TransformTensorBilinear") return VisitTransformTensorBilinear(c, node, reg);
      }
      return c.Refuse("Operation is not supported.");
    default:
      return c.Refuse("Operation is not supported.");
  }
}

}  // namespace gpu
}  // namespace tflite_inspect
