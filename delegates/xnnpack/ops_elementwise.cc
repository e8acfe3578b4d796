// Elementwise ops: ADD SUB MUL DIV MINIMUM MAXIMUM SQUARED_DIFFERENCE (broadcasting up
// to 6-D, fused activations where TFLite has them) and the unary ops and activations.
#include <fmt/format.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "xnnpack/node_visitor.h"

#include "delegate/fused_activation.h"
#include "delegate/partition_helper.h"
#include "kernels/internal/byte_table.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace xnnpack {

bool VisitBinary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 2 || node.outputs->size != 1) return v.Refuse("expects 2 inputs, 1 output");
  const int a = node.inputs->data[0], b = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckFloat(v, a, "input 0") || !CheckFloat(v, b, "input 1") || !CheckFloat(v, out, "output")) {
    return false;
  }
  for (int t : {a, b, out}) {
    if (!CheckRank(v, t, 0, XNN_MAX_TENSOR_DIMS, "a tensor")) return false;
  }
  float min, max;
  if (!ActivationRange(v, BinaryActivation(node, reg.builtin_code), &min, &max)) return false;
  if (v.subgraph == nullptr) return true;
  const uint32_t ia = v.id(a), ib = v.id(b), io = v.id(out);
  switch (reg.builtin_code) {
    case kTfLiteBuiltinAdd: return Defined(v, xnn_define_add2(v.subgraph, min, max, ia, ib, io, 0), "ADD");
    case kTfLiteBuiltinSub: return Defined(v, xnn_define_subtract(v.subgraph, min, max, ia, ib, io, 0), "SUB");
    case kTfLiteBuiltinMul: return Defined(v, xnn_define_multiply2(v.subgraph, min, max, ia, ib, io, 0), "MUL");
    case kTfLiteBuiltinDiv: return Defined(v, xnn_define_divide(v.subgraph, min, max, ia, ib, io, 0), "DIV");
    case kTfLiteBuiltinMinimum: return Defined(v, xnn_define_minimum2(v.subgraph, ia, ib, io, 0), "MINIMUM");
    case kTfLiteBuiltinMaximum: return Defined(v, xnn_define_maximum2(v.subgraph, ia, ib, io, 0), "MAXIMUM");
    default:
      return Defined(v, xnn_define_squared_difference(v.subgraph, ia, ib, io, 0), "SQUARED_DIFFERENCE");
  }
}

namespace {

// One operand of the output's shape, the other (b; a too where the op commutes: then they
// are swapped) of the output's dimensions over one run [j0, j1) with j1 below the rank and
// 1 elsewhere (right-aligned, as broadcasting aligns them): b's values repeat with a period
// of their count, each over `inner` = the elements of dimensions j1.. (more than 1).
bool BlockBroadcast(const VisitContext& v, int out, bool commutes, int* a, int* b, size_t* period,
                    size_t* inner) {
  const TfLiteIntArray* dout = Tensor(v, out).dims;
  auto block_of = [&](int t, size_t* p, size_t* in) {
    const TfLiteIntArray* d = Tensor(v, t).dims;
    const int rank = dout->size, off = rank - d->size;
    if (d->size == 0 || off < 0) return false;
    int j0 = -1, j1 = -1;
    for (int j = 0; j < rank; ++j) {
      const int size = j < off ? 1 : d->data[j - off];
      if (size == dout->data[j] && size != 1) {
        if (j1 >= 0) return false;  // a second run
        if (j0 < 0) j0 = j;
      } else if (size == 1) {
        if (j0 >= 0 && j1 < 0) j1 = j;
      } else {
        return false;
      }
    }
    if (j0 < 0 || j1 < 0) return false;
    size_t count = 1, rest = 1;
    for (int j = j0; j < j1; ++j) count *= static_cast<size_t>(dout->data[j]);
    for (int j = j1; j < rank; ++j) rest *= static_cast<size_t>(dout->data[j]);
    if (rest <= 1) return false;  // a vector along the last dimension: the channel path
    *p = count;
    *in = rest;
    return true;
  };
  if (TfLiteIntArrayEqual(Tensor(v, *a).dims, dout) && block_of(*b, period, inner)) return true;
  if (commutes && TfLiteIntArrayEqual(Tensor(v, *b).dims, dout) && block_of(*a, period, inner)) {
    std::swap(*a, *b);
    return true;
  }
  return false;
}

}  // namespace

bool PlanOwnBinary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                   int threads, BinaryStep* step, bool whole_runtime) {
  BinaryOp op;
  switch (reg.builtin_code) {
    case kTfLiteBuiltinAdd: op = BinaryOp::kAdd; break;
    case kTfLiteBuiltinSub: op = BinaryOp::kSub; break;
    case kTfLiteBuiltinMul: op = BinaryOp::kMul; break;
    case kTfLiteBuiltinSquaredDifference:
      op = BinaryOp::kSquaredDifference;
      break;
    default: return false;
  }
  if (!VisitBinary(v, node, reg)) return false;
  int a = node.inputs->data[0], b = node.inputs->data[1];
  const int out = node.outputs->data[0];
  const TfLiteIntArray* dout = Tensor(v, out).dims;
  size_t period = 0, inner = 1;
  // a + b, a * b and (a - b)^2 are b + a, b * a and (b - a)^2, bit for bit.
  const bool commutes = op != BinaryOp::kSub;
  if (BlockBroadcast(v, out, commutes, &a, &b, &period, &inner)) {
    // (inner > 1: a block broadcast, at any size and thread count.)
  } else if (op == BinaryOp::kSquaredDifference ||
             !SameShapeOrChannelVector(v, out, commutes, &a, &b, &period) ||
             (period == 0 && threads <= 1 && !whole_runtime)) {
    return false;
  }
  size_t elements = 1;
  for (int i = 0; i < dout->size; ++i) elements *= static_cast<size_t>(dout->data[i]);
  if ((elements < kOwnBinaryMinElements && !whole_runtime) ||
      (period != 0 && elements % (period * inner) != 0)) {
    return false;
  }
  float min, max;
  if (!ActivationRange(v, BinaryActivation(node, reg.builtin_code), &min, &max)) return false;
  if (step != nullptr) *step = BinaryStep{op, a, b, out, elements, min, max, period, inner};
  return true;
}

bool IsBlockBroadcastBinary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                            int threads) {
  BinaryStep step;
  return PlanOwnBinary(v, node, reg, threads, &step) && step.inner > 1;
}

bool VisitUnary(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  const bool prelu = reg.builtin_code == kTfLiteBuiltinPrelu;
  if (node.inputs->size != (prelu ? 2 : 1) || node.outputs->size != 1) {
    return v.Refuse("unexpected number of inputs or outputs");
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckFloat(v, in, "input") || !CheckFloat(v, out, "output")) return false;
  if (!CheckRank(v, in, 0, XNN_MAX_TENSOR_DIMS, "input")) return false;
  if (reg.builtin_code == kTfLiteBuiltinSoftmax) {
    const auto* p = static_cast<const TfLiteSoftmaxParams*>(node.builtin_data);
    if (p->beta != 1.0f) return v.Refuse(fmt::format("beta {} (XNNPACK's softmax has beta 1)", p->beta));
    if (Tensor(v, in).dims->size < 1) return v.Refuse("a scalar input");
  }
  // This XNNPACK's rounding asserts on a scalar (bankers-rounding.c: num_input_dims >= 1).
  if (reg.builtin_code == kTfLiteBuiltinRound && Tensor(v, in).dims->size < 1) {
    return v.Refuse("a scalar input (this XNNPACK's ROUND needs rank >= 1)");
  }
  if (prelu) {
    const int slope = node.inputs->data[1];
    if (!CheckFloat(v, slope, "slope")) return false;
    if (!IsStatic(v, slope)) return v.Refuse("the slope is not a constant");
    // XNNPACK's PReLU takes one slope per channel (the last dimension).
    const TfLiteTensor& s = Tensor(v, slope);
    const TfLiteTensor& x = Tensor(v, in);
    const int channels = x.dims->data[x.dims->size - 1];
    for (int i = 0; i + 1 < s.dims->size; ++i) {
      if (s.dims->data[i] != 1) return v.Refuse("the slope varies along more than the channels");
    }
    if (s.dims->size == 0 || s.dims->data[s.dims->size - 1] != channels) {
      return v.Refuse("the slope is not one value per channel");
    }
  }
  if (v.subgraph == nullptr) return true;
  const uint32_t i = v.id(in), o = v.id(out);
  switch (reg.builtin_code) {
    case kTfLiteBuiltinAbs: return Defined(v, xnn_define_abs(v.subgraph, i, o, 0), "ABS");
    case kTfLiteBuiltinNeg: return Defined(v, xnn_define_negate(v.subgraph, i, o, 0), "NEG");
    case kTfLiteBuiltinSquare: return Defined(v, xnn_define_square(v.subgraph, i, o, 0), "SQUARE");
    case kTfLiteBuiltinSqrt: return Defined(v, xnn_define_square_root(v.subgraph, i, o, 0), "SQRT");
    case kTfLiteBuiltinFloor: return Defined(v, xnn_define_floor(v.subgraph, i, o, 0), "FLOOR");
    case kTfLiteBuiltinCeil: return Defined(v, xnn_define_ceiling(v.subgraph, i, o, 0), "CEIL");
    // TFLite's ROUND rounds half to even, as XNNPACK's bankers rounding.
    case kTfLiteBuiltinRound: return Defined(v, xnn_define_bankers_rounding(v.subgraph, i, o, 0), "ROUND");
    case kTfLiteBuiltinRelu:
    case kTfLiteBuiltinRelu6:
    case kTfLiteBuiltinReluN1To1:
    case kTfLiteBuiltinRelu0To1: {
      float lo, hi;
      tflite_inspect::ReluOpClamp(reg.builtin_code, &lo, &hi);
      return Defined(v, xnn_define_clamp(v.subgraph, lo, hi, i, o, 0), OpNameOf(reg).c_str());
    }
    case kTfLiteBuiltinLogistic: return Defined(v, xnn_define_sigmoid(v.subgraph, i, o, 0), "LOGISTIC");
    case kTfLiteBuiltinHardSwish: return Defined(v, xnn_define_hardswish(v.subgraph, i, o, 0), "HARD_SWISH");
    case kTfLiteBuiltinElu: return Defined(v, xnn_define_elu(v.subgraph, 1.0f, i, o, 0), "ELU");
    case kTfLiteBuiltinLeakyRelu: {
      const auto* p = static_cast<const TfLiteLeakyReluParams*>(node.builtin_data);
      return Defined(v, xnn_define_leaky_relu(v.subgraph, p->alpha, i, o, 0), "LEAKY_RELU");
    }
    case kTfLiteBuiltinPrelu:
      return Defined(v, xnn_define_prelu(v.subgraph, i, v.id(node.inputs->data[1]), o, 0), "PRELU");
    default: return Defined(v, xnn_define_softmax(v.subgraph, i, o, 0), "SOFTMAX");
  }
}

bool IsByteTableNode(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  return tflite::byte_table::HasTable(reg.builtin_code) && node.inputs->size >= 1 &&
         node.inputs->data[0] >= 0 && IsQuantized8(Tensor(v, node.inputs->data[0]));
}

bool PlanByteTable(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg,
                   ByteTableStep* step) {
  if (!IsByteTableNode(v, node, reg)) return false;
  // TFLite's delegate takes 8-bit LOGISTIC and TANH, ELU on INT8 only, HARD_SWISH and GELU
  // on float only: those stay on the CPU (the builtin kernel's same table), as there.
  const TfLiteType type = Tensor(v, node.inputs->data[0]).type;
  if (reg.builtin_code == kTfLiteBuiltinHardSwish || reg.builtin_code == kTfLiteBuiltinGelu ||
      (reg.builtin_code == kTfLiteBuiltinElu && type != kTfLiteInt8)) {
    return v.Refuse(fmt::format("{} {}: TFLite's XNNPACK delegate takes it on float only{}",
                                TfLiteTypeGetName(type), OpNameOf(reg),
                                reg.builtin_code == kTfLiteBuiltinElu ? " and INT8" : ""));
  }
  if (node.inputs->size != 1 || node.outputs->size != 1) {
    return v.Refuse("unexpected number of inputs or outputs");
  }
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckQuantized(v, in, "input") || !CheckQuantized(v, out, "output")) return false;
  const TfLiteTensor& x = Tensor(v, in);
  const TfLiteTensor& y = Tensor(v, out);
  const size_t elements = static_cast<size_t>(tflite::NumElements(&x));
  if (static_cast<size_t>(tflite::NumElements(&y)) != elements) {
    return v.Refuse("input and output differ in size");
  }
  ByteTableStep planned;
  if (!tflite::byte_table::Build(reg.builtin_code, x, y, node.builtin_data, &planned.lut,
                                 &v.reason)) {
    return false;
  }
  if (step != nullptr) {
    planned.input = in;
    planned.output = out;
    planned.elements = elements;
    *step = planned;
  }
  return true;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
