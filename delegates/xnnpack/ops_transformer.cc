// Float TANH, RSQRT, GELU, EXP, LOG, SIN, COS, MEAN (other than the spatial mean XNNPACK's
// pooling takes), SUM, REDUCE_MAX, REDUCE_MIN and BATCH_MATMUL: TFLite's XNNPACK delegate
// takes them; this XNNPACK (2022-02) has no such operators, so the delegate runs them with
// its own steps (transformer_f32.h), under the conditions TFLite's delegate states (float
// tensors; the reductions' axes a non-empty int32 constant; BATCH_MATMUL of ranks >= 2,
// rhs constant or not).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/kernel_util.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {
namespace {

bool FloatInput(const VisitContext& v, const TfLiteNode& node) {
  return node.inputs->size >= 1 && node.inputs->data[0] >= 0 &&
         Tensor(v, node.inputs->data[0]).type == kTfLiteFloat32;
}

bool OneOutput(VisitContext& v, const TfLiteNode& node, int inputs) {
  if (node.inputs->size != inputs || node.outputs->size != 1) {
    return v.Refuse(fmt::format("expects {} input{}, 1 output", inputs, inputs == 1 ? "" : "s"));
  }
  return true;
}

}  // namespace

bool IsOwnFloatNode(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (!FloatInput(v, node)) return false;
  switch (reg.builtin_code) {
    case kTfLiteBuiltinTanh:
    case kTfLiteBuiltinRsqrt:
    case kTfLiteBuiltinGelu:
    case kTfLiteBuiltinBatchMatmul:
    case kTfLiteBuiltinSoftmax:
    case kTfLiteBuiltinExp:
    case kTfLiteBuiltinLog:
    case kTfLiteBuiltinSin:
    case kTfLiteBuiltinCos:
    case kTfLiteBuiltinSum:
    case kTfLiteBuiltinReduceMax:
    case kTfLiteBuiltinReduceMin:
      return true;
    case kTfLiteBuiltinLogistic:
      return v.builtin_bits;
    case kTfLiteBuiltinMean: {
      if (v.builtin_bits) return true;  // XNNPACK's pooling sums in another order
      VisitContext probe = v;  // XNNPACK's global average pooling first
      probe.subgraph = nullptr;
      return !VisitMean(probe, node, reg);
    }
    default:
      return false;
  }
}

bool PlanUnaryF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                  UnaryF32Step* step) {
  if (!OneOutput(v, node, 1)) return false;
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckFloat(v, in, "input") || !CheckFloat(v, out, "output")) return false;
  const size_t elements = static_cast<size_t>(tflite::NumElements(&Tensor(v, in)));
  if (static_cast<size_t>(tflite::NumElements(&Tensor(v, out))) != elements) {
    return v.Refuse("input and output differ in size");
  }
  UnaryF32 op;
  switch (reg.builtin_code) {
    case kTfLiteBuiltinTanh: op = UnaryF32::kTanh; break;
    case kTfLiteBuiltinRsqrt: op = UnaryF32::kRsqrt; break;
    case kTfLiteBuiltinExp:
      op = v.builtin_bits ? UnaryF32::kExpBuiltin : UnaryF32::kExp;
      break;
    case kTfLiteBuiltinLog:
      op = v.builtin_bits ? UnaryF32::kLogBuiltin : UnaryF32::kLog;
      break;
    case kTfLiteBuiltinSin:
      op = UnaryF32::kSin;
      break;
    case kTfLiteBuiltinCos:
      op = UnaryF32::kCos;
      break;
    case kTfLiteBuiltinLogistic:
      op = UnaryF32::kLogistic;
      break;
    case kTfLiteBuiltinGelu: {
      const auto* p = static_cast<const TfLiteGeluParams*>(node.builtin_data);
      const bool approximate = p != nullptr && p->approximate;
      if (v.builtin_bits) {
        op = approximate ? UnaryF32::kGeluApproximateBuiltin : UnaryF32::kGeluBuiltin;
      } else {
        op = approximate ? UnaryF32::kGeluApproximate : UnaryF32::kGelu;
      }
      break;
    }
    case kTfLiteBuiltinSoftmax: {
      const auto* p = static_cast<const TfLiteSoftmaxParams*>(node.builtin_data);
      const TfLiteTensor& x = Tensor(v, in);
      if (p == nullptr || x.dims->size < 1 || x.dims->data[x.dims->size - 1] <= 0) {
        return v.Refuse("SOFTMAX without parameters or over an empty last dimension");
      }
      // Outside graphs with builtin bits the step stands in for XNNPACK's softmax, and takes
      // what TFLite's XNNPACK takes (beta 1, ranks): the same partitions.
      if (!v.builtin_bits) {
        VisitContext probe = v;
        probe.subgraph = nullptr;
        if (!VisitUnary(probe, node, reg)) return v.Refuse(probe.reason);
      }
      if (step != nullptr) {
        *step = UnaryF32Step{v.builtin_bits ? UnaryF32::kSoftmaxBuiltin : UnaryF32::kSoftmax,
                             in,
                             out,
                             elements,
                             x.dims->data[x.dims->size - 1],
                             p->beta};
      }
      return true;
    }
    default: return v.Refuse("not an elementwise op of the delegate's own");
  }
  if (step != nullptr) *step = UnaryF32Step{op, in, out, elements};
  return true;
}

bool SmallFloatLogistic(const VisitContext& v, const TfLiteNode& node,
                        const TfLiteRegistration& reg) {
  if (reg.builtin_code != kTfLiteBuiltinLogistic) return false;
  VisitContext probe = v;  // (a refusal's reason stays out of the caller's context)
  UnaryF32Step step;
  return PlanUnaryF32(probe, node, reg, &step) && step.elements <= kSmallLogisticElements;
}

bool ReducedAxes(VisitContext& v, int axes, int rank, std::vector<bool>* reduced) {
  if (axes < 0 || !IsModelConstant(v, axes) || Tensor(v, axes).type != kTfLiteInt32) {
    return v.Refuse("the axes are not an int32 constant of the model");
  }
  const TfLiteTensor& a = Tensor(v, axes);
  if (a.dims == nullptr || a.dims->size > 1) return v.Refuse("the axes are not a 1-D tensor");
  const size_t count = a.bytes / sizeof(int32_t);
  if (count == 0) return v.Refuse("an empty reduction (no axes)");
  reduced->assign(rank, false);
  const auto* data = static_cast<const int32_t*>(StaticData(v, axes));
  for (size_t i = 0; i < count; ++i) {
    if (data[i] < -rank || data[i] >= rank) {
      return v.Refuse(fmt::format("axis {} is out of range for rank {}", data[i], rank));
    }
    (*reduced)[data[i] < 0 ? data[i] + rank : data[i]] = true;
  }
  return true;
}

namespace {

// A float reduction's tensors (input, output) and its reduced axes, where the output has
// the input's size without them; false, with the reason, otherwise.
bool FloatReduction(VisitContext& v, const TfLiteNode& node, int* in, int* out,
                    std::vector<bool>* reduced) {
  if (!OneOutput(v, node, 2)) return false;
  *in = node.inputs->data[0];
  *out = node.outputs->data[0];
  if (!CheckFloat(v, *in, "input") || !CheckFloat(v, *out, "output") ||
      !CheckRank(v, *in, 1, XNN_MAX_TENSOR_DIMS, "input")) {
    return false;
  }
  const TfLiteTensor& x = Tensor(v, *in);
  if (!ReducedAxes(v, node.inputs->data[1], x.dims->size, reduced)) return false;
  int64_t out_count = 1;
  for (int d = 0; d < x.dims->size; ++d) out_count *= (*reduced)[d] ? 1 : x.dims->data[d];
  if (tflite::NumElements(&Tensor(v, *out)) != out_count) {
    return v.Refuse("the output's size is not the input's without the reduced axes");
  }
  return true;
}

}  // namespace

bool PlanMeanF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&,
                 MeanF32Step* step) {
  int in, out;
  std::vector<bool> reduced;
  if (!FloatReduction(v, node, &in, &out, &reduced)) return false;
  if (step == nullptr) return true;
  const TfLiteTensor& x = Tensor(v, in);
  std::vector<int> dims(x.dims->data, x.dims->data + x.dims->size);
  *step = MeanF32Step{in, out, std::make_shared<const MeanF32>(dims, reduced)};
  return true;
}

bool PlanReduceF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                   ReduceF32Step* step) {
  int in, out;
  std::vector<bool> reduced;
  if (!FloatReduction(v, node, &in, &out, &reduced)) return false;
  if (step == nullptr) return true;
  ReduceF32 op = ReduceF32::kSum;
  if (reg.builtin_code == kTfLiteBuiltinReduceMax) op = ReduceF32::kMax;
  if (reg.builtin_code == kTfLiteBuiltinReduceMin) op = ReduceF32::kMin;
  const TfLiteTensor& x = Tensor(v, in);
  *step = ReduceF32Step{in,
                        out,
                        op,
                        std::vector<int>(x.dims->data, x.dims->data + x.dims->size),
                        std::move(reduced),
                        tflite::NumElements(&Tensor(v, out))};
  return true;
}

bool PlanBatchMatMulF32(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&,
                        BatchMatMulStep* step) {
  if (!OneOutput(v, node, 2)) return false;
  const int lhs = node.inputs->data[0], rhs = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckFloat(v, lhs, "lhs") || !CheckFloat(v, rhs, "rhs") || !CheckFloat(v, out, "output")) {
    return false;
  }
  const auto* p = static_cast<const TfLiteBatchMatMulParams*>(node.builtin_data);
  if (p == nullptr) return v.Refuse("no BATCH_MATMUL parameters");
  tflite::matmul::Geometry g;
  if (tflite::matmul::ComputeGeometry(nullptr, *p, &Tensor(v, lhs), &Tensor(v, rhs), &g) != kTfLiteOk) {
    return v.Refuse("shapes BATCH_MATMUL cannot multiply (ranks 2 to 5, broadcastable batches, "
                    "equal contraction sizes)");
  }
  const TfLiteTensor& o = Tensor(v, out);
  if (o.dims->size != g.rank || !std::equal(g.out_dims, g.out_dims + g.rank, o.dims->data)) {
    return v.Refuse("the output's shape is not the product's");
  }
  if (step == nullptr) return true;
  // In a dynamic-range model the products feed hybrid layers' input quantization on the CPU,
  // where one ulp can move an input a whole step: there the builtin kernel's sums, bit for
  // bit (kTfliteMatMulOrder, no FMA); elsewhere the GEMM's fastest tile.
  const auto kernel = v.builtin_bits ? tflite::gemm::GemmKernel::kTfliteMatMulOrder
                                     : tflite::gemm::GemmKernel::kAuto;
  auto op = std::make_shared<BatchMatMulF32>(g, p->adj_x, p->adj_y, kernel);
  if (IsStatic(v, rhs)) op->PackConstantRhs(static_cast<const float*>(StaticData(v, rhs)));
  *step = BatchMatMulStep{lhs, rhs, out, std::move(op)};
  return true;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
