#include "xnnpack/node_visitor.h"

#include <algorithm>

#include <string>
#include <utility>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "delegate/fused_activation.h"
#include "delegate/partition_helper.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {
namespace xnnpack {

namespace {

bool InRange(const VisitContext& v, int index) {
  return index >= 0 && static_cast<size_t>(index) < v.context->tensors_size;
}

}  // namespace

// Visitors look at a graph before any prepare has checked it: an index out of range (an
// optional -1 where the op needs a tensor) reads as an absent tensor of no type and no
// elements, which every check refuses.
const TfLiteTensor& Tensor(const VisitContext& v, int index) {
  if (InRange(v, index)) return v.context->tensors[index];
  static TfLiteIntArray* const kNoDims = TfLiteIntArrayCreate(0);
  static TfLiteTensor absent = [] {
    TfLiteTensor t{};
    t.type = kTfLiteNoType;
    t.dims = kNoDims;
    t.allocation_type = kTfLiteMemNone;
    return t;
  }();
  return absent;
}

bool IsStatic(const VisitContext& v, int index) {
  if (!InRange(v, index)) return false;
  if (v.static_data != nullptr && (*v.static_data)[index] != nullptr) return true;
  const TfLiteTensor& t = Tensor(v, index);
  return (t.allocation_type == kTfLiteMmapRo || t.allocation_type == kTfLitePersistentRo) &&
         t.data.raw != nullptr;
}

bool SameShapeOrChannelVector(const VisitContext& v, int out, bool commutes, int* a, int* b,
                              size_t* period) {
  const TfLiteIntArray* dout = Tensor(v, out).dims;
  auto vector_of = [&](int t) {
    const TfLiteIntArray* d = Tensor(v, t).dims;
    if (d->size == 0 || dout->size == 0 || d->size > dout->size ||
        d->data[d->size - 1] != dout->data[dout->size - 1]) {
      return false;
    }
    for (int i = 0; i + 1 < d->size; ++i) {
      if (d->data[i] != 1) return false;
    }
    return true;
  };
  const bool a_full = TfLiteIntArrayEqual(Tensor(v, *a).dims, dout);
  const bool b_full = TfLiteIntArrayEqual(Tensor(v, *b).dims, dout);
  if (a_full && b_full) {
    *period = 0;
  } else if (a_full && vector_of(*b)) {
    *period = static_cast<size_t>(dout->data[dout->size - 1]);
  } else if (commutes && b_full && vector_of(*a)) {
    std::swap(*a, *b);
    *period = static_cast<size_t>(dout->data[dout->size - 1]);
  } else {
    return false;
  }
  return true;
}

bool IsModelConstant(const VisitContext& v, int index) {
  if (!InRange(v, index)) return false;
  const TfLiteTensor& t = Tensor(v, index);
  return t.allocation_type == kTfLiteMmapRo && t.data.raw != nullptr;
}

const void* StaticData(const VisitContext& v, int index) {
  if (!InRange(v, index)) return nullptr;
  if (v.static_data != nullptr && (*v.static_data)[index] != nullptr) return (*v.static_data)[index];
  return Tensor(v, index).data.raw;
}

bool CheckFloat(VisitContext& v, int index, const char* what) {
  if (index < 0) return v.Refuse(fmt::format("{} is missing", what));
  const TfLiteTensor& t = Tensor(v, index);
  if (t.type != kTfLiteFloat32 && !(v.static_data && InRange(v, index) && (*v.static_data)[index])) {
    return v.Refuse(fmt::format("{} is {}; this XNNPACK delegate runs FLOAT32 only", what,
                                TfLiteTypeGetName(t.type)));
  }
  if (t.allocation_type == kTfLiteDynamic && !v.dynamic_ok) {
    return v.Refuse(fmt::format("{} has a shape known only at run time", what));
  }
  if (t.dims == nullptr) return v.Refuse(fmt::format("{} has no shape", what));
  for (int i = 0; i < t.dims->size; ++i) {
    if (t.dims->data[i] <= 0) {
      return v.Refuse(fmt::format("{} has an empty or unknown dimension", what));
    }
  }
  if (t.sparsity != nullptr) return v.Refuse(fmt::format("{} is sparse", what));
  return true;
}

bool CheckRank(VisitContext& v, int index, int min_rank, int max_rank, const char* what) {
  const int rank = Tensor(v, index).dims->size;
  if (rank < min_rank || rank > max_rank) {
    return v.Refuse(min_rank == max_rank
                        ? fmt::format("{} has rank {}, expected {}", what, rank, min_rank)
                        : fmt::format("{} has rank {}, expected {} to {}", what, rank, min_rank,
                                      max_rank));
  }
  return true;
}

bool IsQuantized8(const TfLiteTensor& t) {
  return (t.type == kTfLiteInt8 || t.type == kTfLiteUInt8) &&
         t.quantization.type == kTfLiteAffineQuantization && t.quantization.params != nullptr;
}

bool IsPerChannel(const TfLiteTensor& t) {
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  return q != nullptr && q->scale != nullptr && q->scale->size > 1;
}

float ScaleOf(const TfLiteTensor& t) {
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  return q != nullptr && q->scale != nullptr && q->scale->size > 0 ? q->scale->data[0] : t.params.scale;
}

int ZeroPointOf(const TfLiteTensor& t) {
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  return q != nullptr && q->zero_point != nullptr && q->zero_point->size > 0 ? q->zero_point->data[0]
                                                                             : t.params.zero_point;
}

bool CheckQuantized(VisitContext& v, int index, const char* what, int channel_dim) {
  if (index < 0) return v.Refuse(fmt::format("{} is missing", what));
  const TfLiteTensor& t = Tensor(v, index);
  if (!IsQuantized8(t)) {
    return v.Refuse(fmt::format("{} is {} without affine quantization", what, TfLiteTypeGetName(t.type)));
  }
  if ((t.allocation_type == kTfLiteDynamic && !v.dynamic_ok) || t.dims == nullptr) {
    return v.Refuse(fmt::format("{} has a shape known only at run time", what));
  }
  if (IsPerChannel(t)) {
    const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
    if (channel_dim < 0) return v.Refuse(fmt::format("{} is quantized per channel", what));
    if (t.type != kTfLiteInt8 || q->quantized_dimension != channel_dim) {
      return v.Refuse(fmt::format("{} is quantized per channel along dimension {}, expected {}",
                                  what, q->quantized_dimension, channel_dim));
    }
    for (int i = 0; i < q->zero_point->size; ++i) {
      if (q->zero_point->data[i] != 0) return v.Refuse(fmt::format("{} has non-zero per-channel zero points", what));
    }
  }
  return true;
}

bool CheckFloatOrSameQuantized(VisitContext& v, int input, int output) {
  if (input < 0 || !IsQuantized8(Tensor(v, input))) {
    return CheckFloat(v, input, "input") && CheckFloat(v, output, "output");
  }
  if (!CheckQuantized(v, input, "input") || !CheckQuantized(v, output, "output")) return false;
  const TfLiteTensor& i = Tensor(v, input);
  const TfLiteTensor& o = Tensor(v, output);
  if (i.type != o.type) return v.Refuse("input and output types differ");
  if (ScaleOf(i) != ScaleOf(o) || ZeroPointOf(i) != ZeroPointOf(o)) {
    return v.Refuse(fmt::format("input and output quantization differ (scale {} vs {}, zero point {} vs {})",
                                ScaleOf(i), ScaleOf(o), ZeroPointOf(i), ZeroPointOf(o)));
  }
  return true;
}

bool ActivationRange(VisitContext& v, TfLiteFusedActivation act, float* min, float* max) {
  if (tflite_inspect::FusedActivationClamp(act, min, max)) {
    *min = std::max(*min, v.clamp_min);
    *max = std::min(*max, v.clamp_max);
    return true;
  }
  return v.Refuse(fmt::format("fused activation {} is not supported",
                              tflite_inspect::FusedActivationName(act)));
}

TfLiteFusedActivation BinaryActivation(const TfLiteNode& node, int builtin_code) {
  switch (builtin_code) {
    case kTfLiteBuiltinAdd: return static_cast<const TfLiteAddParams*>(node.builtin_data)->activation;
    case kTfLiteBuiltinSub: return static_cast<const TfLiteSubParams*>(node.builtin_data)->activation;
    case kTfLiteBuiltinMul: return static_cast<const TfLiteMulParams*>(node.builtin_data)->activation;
    case kTfLiteBuiltinDiv: return static_cast<const TfLiteDivParams*>(node.builtin_data)->activation;
    default: return kTfLiteActNone;
  }
}

bool Defined(VisitContext& v, xnn_status status, const char* what) {
  if (status == xnn_status_success) return true;
  return v.Refuse(fmt::format("XNNPACK refused to define {} (xnn_status {})", what,
                              static_cast<int>(status)));
}

// XnnpackDelegateOptions::float_only (TFLite's delegate without its QS8 / QU8 flags).
constexpr char kFloatOnly[] = "quantized: this delegate was created for float32 ops only";

bool BuiltinBitsNode(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  // The delegate's own float steps (BATCH_MATMUL, MEAN, SOFTMAX, TANH, RSQRT, GELU, EXP, ...)
  // compute in such graphs what the builtin kernels compute (their orders of summation,
  // libm's EXP and LOG), or, as LOGISTIC, no worse than the builtin kernel's Eigen form.
  if (IsOwnFloatNode(v, node, reg)) return true;
  switch (reg.builtin_code) {
    // One IEEE operation per value (or none), as TFLite's builtin kernels compute them.
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinSub:
    case kTfLiteBuiltinMul:
    case kTfLiteBuiltinDiv:
    case kTfLiteBuiltinMinimum:
    case kTfLiteBuiltinMaximum:
    case kTfLiteBuiltinSquaredDifference:
    case kTfLiteBuiltinAbs:
    case kTfLiteBuiltinNeg:
    case kTfLiteBuiltinSquare:
    case kTfLiteBuiltinFloor:
    case kTfLiteBuiltinCeil:
    case kTfLiteBuiltinRound:
    case kTfLiteBuiltinRelu:
    case kTfLiteBuiltinRelu6:
    case kTfLiteBuiltinReluN1To1:
    case kTfLiteBuiltinRelu0To1:
    case kTfLiteBuiltinLeakyRelu:
    case kTfLiteBuiltinPrelu:
    case kTfLiteBuiltinMaxPool2d:
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinSqueeze:
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinPadv2:
    case kTfLiteBuiltinDepthToSpace:
    case kTfLiteBuiltinSpaceToDepth:
    case kTfLiteBuiltinConcatenation:
    case kTfLiteBuiltinSlice:
    case kTfLiteBuiltinStridedSlice:
    case kTfLiteBuiltinSplit:
    case kTfLiteBuiltinTranspose:
    case kTfLiteBuiltinDequantize:
      return true;
    // The delegate's own layers, where they sum in TFLite's orders (CONV_2D and
    // FULLY_CONNECTED as its Eigen GEMM, DEPTHWISE_CONV_2D as the builtin code).
    case kTfLiteBuiltinConv2d:
      if (PlanOwnConv(v, node, reg, nullptr)) return true;
      return v.Refuse("a dynamic-range model: the delegate's own convolution, which sums as "
                      "TFLite's builtin kernel, does not take this one" +
                      (v.reason.empty() ? std::string() : ": " + v.reason));
    case kTfLiteBuiltinFullyConnected:
      if (PlanOwnFullyConnected(v, node, reg, nullptr)) return true;
      return v.Refuse("a dynamic-range model: the delegate's own fully connected layer, which "
                      "sums as TFLite's builtin kernel, does not take this one" +
                      (v.reason.empty() ? std::string() : ": " + v.reason));
    case kTfLiteBuiltinDepthwiseConv2d:
      if (PlanOwnDepthwise(v, node, reg, nullptr)) return true;
      return v.Refuse(
          "a dynamic-range model: the builtin depthwise code, which sums as TFLite's "
          "builtin kernel, does not take this one" +
          (v.reason.empty() ? std::string() : ": " + v.reason));
    // Float kernels whose CPU version does not give TFLite's bits either (transcendental
    // functions as Eigen approximates them, interpolation, transposed convolution): where
    // they run changes nothing for the hybrid layers, so the faster place.
    case kTfLiteBuiltinLogistic:
    case kTfLiteBuiltinHardSwish:
    case kTfLiteBuiltinElu:
    case kTfLiteBuiltinSqrt:
    case kTfLiteBuiltinResizeBilinear:
    case kTfLiteBuiltinTransposeConv:
    case kTfLiteBuiltinCustom:
      return true;
    default:
      // AVERAGE_POOL_2D (and what is not listed): the builtin kernel sums as TFLite's.
      return v.Refuse(fmt::format(
          "a dynamic-range model: the CPU kernel computes TFLite's builtin {} bit for bit and "
          "XNNPACK does not; the hybrid layers' input quantization would turn a last-bit "
          "difference into a whole step",
          OpNameOf(reg)));
  }
}

// The op-specific checks (and definitions) of VisitNode, after its common checks.
bool VisitNodeOps(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg);

bool VisitNode(VisitContext& v, int /*node_index*/, const TfLiteNode& node,
               const TfLiteRegistration& reg) {
  // No op has an optional first input or an optional output.
  if (node.inputs->size > 0 && !InRange(v, node.inputs->data[0])) {
    return v.Refuse("its first input is missing");
  }
  for (int i = 0; i < node.outputs->size; ++i) {
    if (!InRange(v, node.outputs->data[i])) return v.Refuse("an output is missing");
  }
  // XNNPACK reads weights dense: a sparse tensor's buffer holds only its nonzeros. Only
  // DENSIFY (folded by the runtime before delegation) decodes one.
  if (reg.builtin_code != kTfLiteBuiltinDensify) {
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (InRange(v, t) && Tensor(v, t).sparsity != nullptr) {
        return v.Refuse(fmt::format("input {} (tensor {}) is sparse", i, t));
      }
    }
  }
  if (v.float_only && node.inputs->size > 0 && node.inputs->data[0] >= 0 &&
      IsQuantized8(Tensor(v, node.inputs->data[0]))) {
    return v.Refuse(kFloatOnly);
  }
  const bool quantized = node.inputs->size > 0 && node.inputs->data[0] >= 0 &&
                         IsQuantized8(Tensor(v, node.inputs->data[0]));
  // XNNPACK (2022) has no buffer for an empty tensor and asserts in setup; the CPU
  // kernels handle (or refuse) empty shapes themselves.
  for (const TfLiteIntArray* list : {node.inputs, node.outputs}) {
    for (int i = 0; i < list->size; ++i) {
      const int t = list->data[i];
      if (t < 0 || Tensor(v, t).dims == nullptr) continue;
      const TfLiteIntArray* dims = Tensor(v, t).dims;
      for (int d = 0; d < dims->size; ++d) {
        if (dims->data[d] == 0) {
          return v.Refuse("a tensor with no elements (tensor " + std::to_string(t) + ")");
        }
      }
    }
  }
  // A node the delegate could take, in a graph whose hybrid layers need TFLite's builtin
  // bits: taken only where it computes them (decided when nodes are checked).
  if (v.builtin_bits && v.subgraph == nullptr && !quantized) {
    if (!VisitNodeOps(v, node, reg)) return false;
    return BuiltinBitsNode(v, node, reg);
  }
  return VisitNodeOps(v, node, reg);
}

bool VisitNodeOps(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  const bool quantized = node.inputs->size > 0 && node.inputs->data[0] >= 0 &&
                         IsQuantized8(Tensor(v, node.inputs->data[0]));
  // 8-bit LOGISTIC, TANH, GELU, ELU, HARD_SWISH: the delegate's own tables.
  if (IsByteTableNode(v, node, reg)) return PlanByteTable(v, node, reg, nullptr);
  // 8-bit MEANs its global average pooling does not take: the delegate's step.
  if (IsOwnQuantizedMean(v, node, reg)) return PlanMeanQs8(v, node, reg, nullptr);
  // Float TANH, RSQRT, GELU, EXP, LOG, SIN, COS, MEAN, SUM, REDUCE_MAX, REDUCE_MIN,
  // BATCH_MATMUL this XNNPACK lacks: the delegate's steps.
  if (IsOwnFloatNode(v, node, reg)) {
    switch (reg.builtin_code) {
      case kTfLiteBuiltinMean: return PlanMeanF32(v, node, reg, nullptr);
      case kTfLiteBuiltinSum:
      case kTfLiteBuiltinReduceMax:
      case kTfLiteBuiltinReduceMin:
        return PlanReduceF32(v, node, reg, nullptr);
      case kTfLiteBuiltinBatchMatmul: return PlanBatchMatMulF32(v, node, reg, nullptr);
      default: return PlanUnaryF32(v, node, reg, nullptr);
    }
  }
  switch (reg.builtin_code) {
    case kTfLiteBuiltinConv2d:
    case kTfLiteBuiltinDepthwiseConv2d:
      if (node.inputs->size > 0 && IsQuantized8(Tensor(v, node.inputs->data[0]))) {
        return VisitQuantizedConv(v, node, reg);
      }
      return reg.builtin_code == kTfLiteBuiltinConv2d ? VisitConv2D(v, node, reg)
                                                      : VisitDepthwiseConv2D(v, node, reg);
    case kTfLiteBuiltinTransposeConv:
      if (node.inputs->size > 2 && IsQuantized8(Tensor(v, node.inputs->data[2]))) {
        return VisitQuantizedTransposeConv(v, node, reg);
      }
      return VisitTransposeConv(v, node, reg);
    case kTfLiteBuiltinFullyConnected:
      if (node.inputs->size > 0 && IsQuantized8(Tensor(v, node.inputs->data[0]))) {
        return VisitQuantizedFullyConnected(v, node, reg);
      }
      return VisitFullyConnected(v, node, reg);
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinSub:
      if (node.inputs->size > 0 && IsQuantized8(Tensor(v, node.inputs->data[0]))) {
        return VisitQuantizedAdd(v, node, reg);
      }
      return VisitBinary(v, node, reg);
    case kTfLiteBuiltinMul:
      return quantized ? VisitQuantizedMul(v, node, reg) : VisitBinary(v, node, reg);
    case kTfLiteBuiltinDiv:
    case kTfLiteBuiltinMinimum:
    case kTfLiteBuiltinMaximum:
    case kTfLiteBuiltinSquaredDifference:
      return VisitBinary(v, node, reg);
    case kTfLiteBuiltinAbs:
    case kTfLiteBuiltinNeg:
    case kTfLiteBuiltinSquare:
    case kTfLiteBuiltinSqrt:
    case kTfLiteBuiltinFloor:
    case kTfLiteBuiltinCeil:
    case kTfLiteBuiltinRound:
    case kTfLiteBuiltinRelu:
    case kTfLiteBuiltinRelu6:
    case kTfLiteBuiltinReluN1To1:
    case kTfLiteBuiltinRelu0To1:
    case kTfLiteBuiltinLogistic:
    case kTfLiteBuiltinHardSwish:
    case kTfLiteBuiltinElu:
    case kTfLiteBuiltinLeakyRelu:
    case kTfLiteBuiltinPrelu:
    case kTfLiteBuiltinSoftmax:
      return VisitUnary(v, node, reg);
    case kTfLiteBuiltinMaxPool2d:
    case kTfLiteBuiltinAveragePool2d:
      return VisitPooling(v, node, reg);
    case kTfLiteBuiltinMean: return VisitMean(v, node, reg);
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinSqueeze:
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinPadv2:
    case kTfLiteBuiltinResizeBilinear:
    case kTfLiteBuiltinDepthToSpace:
      return VisitShape(v, node, reg);
    case kTfLiteBuiltinSpaceToDepth:
      return SpaceToDepthCopy(v, node, reg, nullptr);
    case kTfLiteBuiltinDequantize: return VisitDequantize(v, node, reg);
    case kTfLiteBuiltinQuantize: return VisitQuantize(v, node, reg);
    case kTfLiteBuiltinDensify: return VisitDensify(v, node, reg);
    case kTfLiteBuiltinConcatenation:
    case kTfLiteBuiltinSlice:
    case kTfLiteBuiltinStridedSlice:
    case kTfLiteBuiltinSplit:
    case kTfLiteBuiltinTranspose:
      return VisitGlue(v, node, reg, nullptr);
    case kTfLiteBuiltinCustom: {
      const std::string name = reg.custom_name != nullptr ? reg.custom_name : "";
      if (name == "Convolution2DTransposeBias") return VisitMediaPipeTransposeConvBias(v, node);
      if (name == "MaxPoolingWithArgmax2D" || name == "MaxUnpooling2D") {
        // TFLite's delegate takes these as XNNPACK argmax pooling / unpooling, whose index
        // encoding (position in the window) is not MediaPipe's: an index tensor crossing
        // to the CPU kernel would be read wrongly, so they stay on the CPU here.
        return v.Refuse("XNNPACK's argmax indices are not MediaPipe's; kept on the CPU");
      }
      return v.Refuse("op not supported by the XNNPACK delegate");
    }
    default:
      return v.Refuse("op not supported by the XNNPACK delegate");
  }
}

}  // namespace xnnpack
}  // namespace tflite_inspect
