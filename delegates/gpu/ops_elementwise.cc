// Unary activations and math, and binary ops with broadcasting (constants allowed on
// either side: they are uploaded once at prepare).
#include <fmt/format.h>

#include <limits>

#include "delegate/fused_activation.h"
#include "gpu/ops.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_inspect {
namespace gpu {
namespace {

// Codes of elementwise.cl.
int UnaryCode(int builtin) {
  switch (builtin) {
    case kTfLiteBuiltinLogistic: return 1;
    case kTfLiteBuiltinTanh: return 2;
    case kTfLiteBuiltinLeakyRelu: return 3;
    case kTfLiteBuiltinElu: return 4;
    case kTfLiteBuiltinHardSwish: return 5;
    case kTfLiteBuiltinAbs: return 6;
    case kTfLiteBuiltinNeg: return 7;
    case kTfLiteBuiltinSquare: return 8;
    case kTfLiteBuiltinSqrt: return 9;
    case kTfLiteBuiltinRsqrt: return 10;
    case kTfLiteBuiltinExp: return 11;
    case kTfLiteBuiltinLog: return 12;
    case kTfLiteBuiltinSin: return 13;
    case kTfLiteBuiltinCos: return 14;
    case kTfLiteBuiltinFloor: return 15;
    case kTfLiteBuiltinCeil: return 16;
    default: return 0;  // the RELU family: a clamp
  }
}

int BinaryCode(int builtin) {
  switch (builtin) {
    case kTfLiteBuiltinAdd: return 100;
    case kTfLiteBuiltinSub: return 101;
    case kTfLiteBuiltinMul: return 102;
    case kTfLiteBuiltinDiv: return 103;
    case kTfLiteBuiltinMaximum: return 104;
    case kTfLiteBuiltinMinimum: return 105;
    case kTfLiteBuiltinSquaredDifference: return 106;
    case kTfLiteBuiltinPrelu: return 107;
    case kTfLiteBuiltinPow: return 108;
    default: return -1;
  }
}

// Element strides of `in` broadcast to `out` (both right-aligned 4-D): 0 along
// broadcast axes.
cl_int4 BroadcastStrides(const cl_int4& in, const cl_int4& out) {
  cl_int4 s;
  int step = 1;
  for (int k = 3; k >= 0; --k) {
    s.s[k] = (in.s[k] == 1 && out.s[k] != 1) ? 0 : step;
    step *= in.s[k];
  }
  return s;
}

// An operand: a runtime FLOAT32 activation or a FLOAT32/FLOAT16 constant of rank <= 4.
bool CheckOperand(OpContext& c, int t, const char* what) {
  if (t >= 0 && t < static_cast<int>(c.context->tensors_size) && IsConstant(c.T(t))) {
    if (!CheckConstFloat(c, t, what)) return false;
    if (c.T(t).dims->size > 4) return c.Refuse(fmt::format("{} has rank > 4", what));
    return true;
  }
  return CheckActivation(c, t, what);
}

}  // namespace

bool VisitUnary(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 1) return c.Refuse("expects 1 input");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (!CheckActivation(c, in, "input") || !CheckActivation(c, out, "output")) return false;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float lo = -kInf, hi = kInf, alpha = 0.0f;
  if (reg.builtin_code == kTfLiteBuiltinLeakyRelu) {
    const auto* p = static_cast<const TfLiteLeakyReluParams*>(node.builtin_data);
    if (p == nullptr) return c.Refuse("no parameters");
    alpha = p->alpha;
  } else {
    tflite_inspect::ReluOpClamp(reg.builtin_code, &lo, &hi);  // other ops: no clamp
  }
  if (c.build == nullptr) return true;
  const int n = NumElements(c.T(in));
  return c.build->Launch("unary",
                         {Arg(c.build->Tensor(in)), Arg(c.build->Tensor(out)), Arg(n),
                          Arg(UnaryCode(reg.builtin_code)), Arg(alpha), Arg(lo), Arg(hi)},
                         {static_cast<size_t>((n + 3) / 4)});
}

bool VisitBinary(OpContext& c, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size != 2) return c.Refuse("expects 2 inputs");
  const int a = node.inputs->data[0], b = node.inputs->data[1], out = node.outputs->data[0];
  if (!CheckOperand(c, a, "first input") || !CheckOperand(c, b, "second input") ||
      !CheckActivation(c, out, "output")) {
    return false;
  }
  if (IsConstant(c.T(a)) && IsConstant(c.T(b))) return c.Refuse("both inputs are constant");
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float lo = -kInf, hi = kInf;
  TfLiteFusedActivation act = kTfLiteActNone;
  if (node.builtin_data != nullptr) {
    switch (reg.builtin_code) {
      case kTfLiteBuiltinAdd: act = static_cast<const TfLiteAddParams*>(node.builtin_data)->activation; break;
      case kTfLiteBuiltinSub: act = static_cast<const TfLiteSubParams*>(node.builtin_data)->activation; break;
      case kTfLiteBuiltinMul: act = static_cast<const TfLiteMulParams*>(node.builtin_data)->activation; break;
      case kTfLiteBuiltinDiv: act = static_cast<const TfLiteDivParams*>(node.builtin_data)->activation; break;
      default: break;
    }
  }
  if (!ActivationRange(c, act, &lo, &hi)) return false;
  const cl_int4 sa = Shape4(c.T(a)), sb = Shape4(c.T(b)), so = Shape4(c.T(out));
  for (int k = 0; k < 4; ++k) {
    if ((sa.s[k] != so.s[k] && sa.s[k] != 1) || (sb.s[k] != so.s[k] && sb.s[k] != 1)) {
      return c.Refuse("input shapes do not broadcast to the output shape");
    }
  }
  if (c.build == nullptr) return true;
  const int code = BinaryCode(reg.builtin_code);
  const int n = NumElements(c.T(out));
  if (NumElements(c.T(a)) == n && NumElements(c.T(b)) == n) {
    return c.build->Launch("binary_same",
                           {Arg(c.build->Tensor(a)), Arg(c.build->Tensor(b)), Arg(c.build->Tensor(out)),
                            Arg(n), Arg(code), Arg(lo), Arg(hi)},
                           {static_cast<size_t>((n + 3) / 4)});
  }
  return c.build->Launch("binary_broadcast",
                         {Arg(c.build->Tensor(a)), Arg(c.build->Tensor(b)), Arg(c.build->Tensor(out)),
                          Arg(so), Arg(BroadcastStrides(sa, so)), Arg(BroadcastStrides(sb, so)), Arg(code),
                          Arg(lo), Arg(hi)},
                         RowWork(so, 4));
}

}  // namespace gpu
}  // namespace tflite_inspect
