// Registration functions of the builtin kernels (one per op, in lib/kernels/<op>.cc).
#ifndef TENSORFLOW_LITE_KERNELS_BUILTIN_OP_KERNELS_H_
#define TENSORFLOW_LITE_KERNELS_BUILTIN_OP_KERNELS_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace ops {
namespace builtin {

// Keep in the order of lib/kernels/register.cc.
// (kernels: add a declaration here when you add a kernel)
// conv family (lib/kernels/internal/gemm.h, conv_util.h):
TfLiteRegistration* Register_CONV_2D();
TfLiteRegistration* Register_CONV_3D();
TfLiteRegistration* Register_CONV_3D_TRANSPOSE();
TfLiteRegistration* Register_DEPTHWISE_CONV_2D();
TfLiteRegistration* Register_DEQUANTIZE();
TfLiteRegistration* Register_FULLY_CONNECTED();
// elementwise family (lib/kernels/internal/elementwise.h):
TfLiteRegistration* Register_ADD();
TfLiteRegistration* Register_DIV();
TfLiteRegistration* Register_ELU();
TfLiteRegistration* Register_GELU();
TfLiteRegistration* Register_HARD_SWISH();
TfLiteRegistration* Register_LEAKY_RELU();
TfLiteRegistration* Register_LOGISTIC();
TfLiteRegistration* Register_MAXIMUM();
TfLiteRegistration* Register_MINIMUM();
TfLiteRegistration* Register_MUL();
TfLiteRegistration* Register_PRELU();
TfLiteRegistration* Register_RELU();
TfLiteRegistration* Register_RELU6();
TfLiteRegistration* Register_RELU_0_TO_1();
TfLiteRegistration* Register_RELU_N1_TO_1();
TfLiteRegistration* Register_SQUARED_DIFFERENCE();
TfLiteRegistration* Register_SUB();
TfLiteRegistration* Register_TANH();

// tensor family (lib/kernels/internal/pooling.h, softmax_fixedpoint.h, string_tensor.h):
TfLiteRegistration* Register_AVERAGE_POOL_2D();
TfLiteRegistration* Register_CONCATENATION();
TfLiteRegistration* Register_EXPAND_DIMS();
TfLiteRegistration* Register_MAX_POOL_2D();
TfLiteRegistration* Register_MEAN();
TfLiteRegistration* Register_PAD();
TfLiteRegistration* Register_PADV2();
TfLiteRegistration* Register_QUANTIZE();
TfLiteRegistration* Register_RESHAPE();
TfLiteRegistration* Register_RESIZE_BILINEAR();
TfLiteRegistration* Register_TRANSPOSE_CONV();
TfLiteRegistration* Register_BATCH_MATMUL();
TfLiteRegistration* Register_TOPK_V2();
TfLiteRegistration* Register_BATCH_TO_SPACE_ND();
TfLiteRegistration* Register_SPACE_TO_BATCH_ND();
TfLiteRegistration* Register_L2_NORMALIZATION();
TfLiteRegistration* Register_LOG_SOFTMAX();
TfLiteRegistration* Register_MIRROR_PAD();
TfLiteRegistration* Register_RESIZE_NEAREST_NEIGHBOR();
TfLiteRegistration* Register_SOFTMAX();
TfLiteRegistration* Register_SQUEEZE();
TfLiteRegistration* Register_STRIDED_SLICE();
TfLiteRegistration* Register_TRANSPOSE();

// shape2 family (lib/kernels/internal/shape_util.h, space_depth.h, fp16.h):
TfLiteRegistration* Register_DENSIFY();
TfLiteRegistration* Register_DEPTH_TO_SPACE();
TfLiteRegistration* Register_SPACE_TO_DEPTH();
TfLiteRegistration* Register_GATHER_ND();
TfLiteRegistration* Register_TILE();
TfLiteRegistration* Register_SLICE();
TfLiteRegistration* Register_CAST();
TfLiteRegistration* Register_SHAPE();
TfLiteRegistration* Register_FILL();
TfLiteRegistration* Register_REVERSE_V2();
TfLiteRegistration* Register_ZEROS_LIKE();
TfLiteRegistration* Register_SPLIT();
TfLiteRegistration* Register_SPLIT_V();
TfLiteRegistration* Register_PACK();
TfLiteRegistration* Register_UNPACK();
TfLiteRegistration* Register_GATHER();
TfLiteRegistration* Register_RANGE();
TfLiteRegistration* Register_BROADCAST_TO();
TfLiteRegistration* Register_SELECT();
TfLiteRegistration* Register_SELECT_V2();
TfLiteRegistration* Register_LESS();
TfLiteRegistration* Register_LESS_EQUAL();
TfLiteRegistration* Register_GREATER();
TfLiteRegistration* Register_GREATER_EQUAL();
TfLiteRegistration* Register_EQUAL();
TfLiteRegistration* Register_NOT_EQUAL();
TfLiteRegistration* Register_LOGICAL_AND();
TfLiteRegistration* Register_LOGICAL_OR();
TfLiteRegistration* Register_LOGICAL_NOT();
TfLiteRegistration* Register_ARG_MAX();
TfLiteRegistration* Register_ARG_MIN();
TfLiteRegistration* Register_CUMSUM();
TfLiteRegistration* Register_REDUCE_MAX();
TfLiteRegistration* Register_REDUCE_MIN();
TfLiteRegistration* Register_REDUCE_PROD();
TfLiteRegistration* Register_SUM();
TfLiteRegistration* Register_ABS();
TfLiteRegistration* Register_NEG();
TfLiteRegistration* Register_EXP();
TfLiteRegistration* Register_LOG();
TfLiteRegistration* Register_SQRT();
TfLiteRegistration* Register_RSQRT();
TfLiteRegistration* Register_SQUARE();
TfLiteRegistration* Register_SIN();
TfLiteRegistration* Register_COS();
TfLiteRegistration* Register_FLOOR();
TfLiteRegistration* Register_CEIL();
TfLiteRegistration* Register_ROUND();
TfLiteRegistration* Register_FLOOR_DIV();
TfLiteRegistration* Register_FLOOR_MOD();
TfLiteRegistration* Register_POW();

// more ops of TFLite's BuiltinOpResolver (lib/kernels/<op>.cc):
TfLiteRegistration* Register_ADD_N();
TfLiteRegistration* Register_ONE_HOT();
TfLiteRegistration* Register_WHERE();
TfLiteRegistration* Register_RANK();
TfLiteRegistration* Register_SIGN();
TfLiteRegistration* Register_ATAN2();
TfLiteRegistration* Register_ASSIGN_VARIABLE();
TfLiteRegistration* Register_DYNAMIC_UPDATE_SLICE();
TfLiteRegistration* Register_READ_VARIABLE();
TfLiteRegistration* Register_VAR_HANDLE();
TfLiteRegistration* Register_BITWISE_XOR();
TfLiteRegistration* Register_RIGHT_SHIFT();
TfLiteRegistration* Register_RFFT2D();
TfLiteRegistration* Register_BROADCAST_ARGS();
TfLiteRegistration* Register_SCATTER_ND();
TfLiteRegistration* Register_SEGMENT_SUM();
TfLiteRegistration* Register_UNSORTED_SEGMENT_MAX();
TfLiteRegistration* Register_UNSORTED_SEGMENT_MIN();
TfLiteRegistration* Register_UNSORTED_SEGMENT_PROD();
TfLiteRegistration* Register_UNSORTED_SEGMENT_SUM();
TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V4();
TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5();
TfLiteRegistration* Register_COMPLEX_ABS();
TfLiteRegistration* Register_REAL();
TfLiteRegistration* Register_IMAG();
TfLiteRegistration* Register_REDUCE_ANY();
TfLiteRegistration* Register_REDUCE_ALL();
TfLiteRegistration* Register_L2_POOL_2D();
TfLiteRegistration* Register_LOCAL_RESPONSE_NORMALIZATION();
TfLiteRegistration* Register_EMBEDDING_LOOKUP();

// stateful family (lib/kernels/internal/lstm_eval.h):
TfLiteRegistration* Register_SVDF();
TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM();
// control flow (lib/kernels/internal/control_flow.h):
TfLiteRegistration* Register_CALL_ONCE();
TfLiteRegistration* Register_IF();
TfLiteRegistration* Register_WHILE();

}  // namespace builtin

namespace custom {
// TFLite_Detection_PostProcess, registered by BuiltinOpResolver as TFLite's is.
TfLiteRegistration* Register_DETECTION_POSTPROCESS();
}  // namespace custom
}  // namespace ops
}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_BUILTIN_OP_KERNELS_H_
