// The clamp a fused activation (or a RELU-family operator) amounts to, for delegates that
// run it as a min/max after the op (XNNPACK's output_min/output_max, the GPU kernels' clamp). One answer for every
// delegate: NONE and RELU are unbounded above (infinity), RELU6 and RELU_N1_TO_1 are
// clamps, the rest (TANH, SIGN_BIT, SIGMOID) are not clamps at all.
#ifndef TFLITE_INSPECT_LIB_DELEGATE_FUSED_ACTIVATION_H_
#define TFLITE_INSPECT_LIB_DELEGATE_FUSED_ACTIVATION_H_

#include <limits>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_inspect {

// True with the clamp in *lo / *hi; false for an activation that is not a clamp.
inline bool FusedActivationClamp(TfLiteFusedActivation act, float* lo, float* hi) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (act) {
    case kTfLiteActNone: *lo = -kInf, *hi = kInf; return true;
    case kTfLiteActRelu: *lo = 0.0f, *hi = kInf; return true;
    case kTfLiteActReluN1To1: *lo = -1.0f, *hi = 1.0f; return true;
    case kTfLiteActRelu6: *lo = 0.0f, *hi = 6.0f; return true;
    default: return false;
  }
}

// True with the clamp a RELU-family operator applies (RELU, RELU6, RELU_N1_TO_1,
// RELU_0_TO_1, by builtin code) in *lo / *hi; false for any other operator.
inline bool ReluOpClamp(int builtin_code, float* lo, float* hi) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (builtin_code) {
    case kTfLiteBuiltinRelu: *lo = 0.0f, *hi = kInf; return true;
    case kTfLiteBuiltinRelu6: *lo = 0.0f, *hi = 6.0f; return true;
    case kTfLiteBuiltinReluN1To1: *lo = -1.0f, *hi = 1.0f; return true;
    case kTfLiteBuiltinRelu0To1: *lo = 0.0f, *hi = 1.0f; return true;
    default: return false;
  }
}

// The schema's name of a fused activation, for refusal reasons ("TANH").
inline const char* FusedActivationName(TfLiteFusedActivation act) {
  switch (act) {
    case kTfLiteActNone: return "NONE";
    case kTfLiteActRelu: return "RELU";
    case kTfLiteActReluN1To1: return "RELU_N1_TO_1";
    case kTfLiteActRelu6: return "RELU6";
    case kTfLiteActTanh: return "TANH";
    case kTfLiteActSignBit: return "SIGN_BIT";
    case kTfLiteActSigmoid: return "SIGMOID";
  }
  return "unknown";
}

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_DELEGATE_FUSED_ACTIVATION_H_
