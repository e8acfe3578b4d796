// The one list of builtin kernels and the versions each supports. A version is listed
// only when the kernel implements everything TFLite's kernel does at that version.
#include "tensorflow/lite/kernels/register.h"

#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {

BuiltinOpResolver::BuiltinOpResolver() {
  // (kernels: one AddBuiltin line per op, sorted by op name)
  AddBuiltin(BuiltinOperator_ABS, Register_ABS(), 1, 5);
  AddBuiltin(BuiltinOperator_ADD, Register_ADD(), 1, 5);
  AddBuiltin(BuiltinOperator_ADD_N, Register_ADD_N(), 1, 1);
  AddBuiltin(BuiltinOperator_ARG_MAX, Register_ARG_MAX(), 1, 3);
  AddBuiltin(BuiltinOperator_ARG_MIN, Register_ARG_MIN(), 1, 3);
  AddBuiltin(BuiltinOperator_ASSIGN_VARIABLE, Register_ASSIGN_VARIABLE(), 1, 1);
  AddBuiltin(BuiltinOperator_ATAN2, Register_ATAN2(), 1, 1);
  AddBuiltin(BuiltinOperator_AVERAGE_POOL_2D, Register_AVERAGE_POOL_2D(), 1, 3);
  // BROADCAST_TO: v2-3 (v1 was withdrawn upstream).
  // BATCH_MATMUL: v1 float and hybrid (float x int8), v2 int8, v3 int16, v4 hybrid with
  // asymmetric_quantize_inputs.
  AddBuiltin(BuiltinOperator_BATCH_MATMUL, Register_BATCH_MATMUL(), 1, 4);
  AddBuiltin(BuiltinOperator_BATCH_TO_SPACE_ND, Register_BATCH_TO_SPACE_ND(), 1, 4);
  AddBuiltin(BuiltinOperator_BITWISE_XOR, Register_BITWISE_XOR(), 1, 1);
  AddBuiltin(BuiltinOperator_BROADCAST_ARGS, Register_BROADCAST_ARGS(), 1, 1);
  AddBuiltin(BuiltinOperator_BROADCAST_TO, Register_BROADCAST_TO(), 2, 3);
  AddBuiltin(BuiltinOperator_CALL_ONCE, Register_CALL_ONCE(), 1, 1);
  // CAST: v1-5 without complex64 (not v6 int4, v7 bfloat16).
  AddBuiltin(BuiltinOperator_CAST, Register_CAST(), 1, 5);
  AddBuiltin(BuiltinOperator_CEIL, Register_CEIL(), 1, 1);
  AddBuiltin(BuiltinOperator_COMPLEX_ABS, Register_COMPLEX_ABS(), 1, 1);
  AddBuiltin(BuiltinOperator_CONCATENATION, Register_CONCATENATION(), 1, 4);
  // CONV_2D: v1 float/uint8, v2 hybrid per-tensor, v3 int8 per-channel, v4 int16 (16x8),
  // v5 hybrid per-channel, v6 grouped, v7 int4 weights, v8 quantized_bias_type. The kernel
  // dispatches on types: an int16 model that declares v1 or v3 (TFLite's converter writes
  // v3 for some) runs too.
  AddBuiltin(BuiltinOperator_CONV_2D, Register_CONV_2D(), 1, 8);
  AddBuiltin(BuiltinOperator_CONV_3D, Register_CONV_3D(), 1, 1);
  AddBuiltin(BuiltinOperator_CONV_3D_TRANSPOSE, Register_CONV_3D_TRANSPOSE(), 1, 1);
  AddBuiltin(BuiltinOperator_COS, Register_COS(), 1, 1);
  AddBuiltin(BuiltinOperator_CUMSUM, Register_CUMSUM(), 1, 1);
  AddBuiltin(BuiltinOperator_DENSIFY, Register_DENSIFY(), 1, 1);
  // DEPTHWISE_CONV_2D: v1-3, v5 int16 (16x8), v6 hybrid per-channel, v7 int4 filter; v4
  // (hybrid with a per-tensor scale) resolves and is refused at Prepare, as TFLite's kernel
  // refuses it.
  AddBuiltin(BuiltinOperator_DEPTHWISE_CONV_2D, Register_DEPTHWISE_CONV_2D(), 1, 7);
  AddBuiltin(BuiltinOperator_DEPTH_TO_SPACE, Register_DEPTH_TO_SPACE(), 1, 2);
  // DEQUANTIZE: v1-3 (uint8, int8, int16, float16), v5 per-channel int8 (not v4 sparse).
  AddBuiltin(BuiltinOperator_DEQUANTIZE, Register_DEQUANTIZE(), 1, 3);
  AddBuiltin(BuiltinOperator_DEQUANTIZE, Register_DEQUANTIZE(), 5, 5);
  AddBuiltin(BuiltinOperator_DIV, Register_DIV(), 1, 2);
  // DYNAMIC_UPDATE_SLICE: v1 int32 start indices, v2 int64, v3-5 wider element types (the
  // kernel moves bytes of any size; int4 has no read-write tensors here).
  AddBuiltin(BuiltinOperator_DYNAMIC_UPDATE_SLICE, Register_DYNAMIC_UPDATE_SLICE(), 1, 5);
  AddBuiltin(BuiltinOperator_ELU, Register_ELU(), 1, 1);
  // EMBEDDING_LOOKUP: v1-3 float32 and int8/uint8 tables (copied, or hybrid to float32); not v4-5 (int4 / int2 tables).
  AddBuiltin(BuiltinOperator_EMBEDDING_LOOKUP, Register_EMBEDDING_LOOKUP(), 1, 3);
  AddBuiltin(BuiltinOperator_EQUAL, Register_EQUAL(), 1, 4);
  AddBuiltin(BuiltinOperator_EXP, Register_EXP(), 1, 1);
  AddBuiltin(BuiltinOperator_EXPAND_DIMS, Register_EXPAND_DIMS(), 1, 1);
  AddBuiltin(BuiltinOperator_FILL, Register_FILL(), 1, 4);
  AddBuiltin(BuiltinOperator_FLOOR, Register_FLOOR(), 1, 1);
  AddBuiltin(BuiltinOperator_FLOOR_DIV, Register_FLOOR_DIV(), 1, 2);
  AddBuiltin(BuiltinOperator_FLOOR_MOD, Register_FLOOR_MOD(), 1, 1);
  // FULLY_CONNECTED: v1, v2 shuffled 4x16 uint8 weights, v3 hybrid, v4-6, v7 int16 (16x8),
  // v8 sparse weights (float any format; int8 and hybrid 1x16 blocks), v9 hybrid with
  // asymmetric inputs, v10 int4 weights, v11 quantized_bias_type, v12 hybrid per-channel.
  AddBuiltin(BuiltinOperator_FULLY_CONNECTED, Register_FULLY_CONNECTED(), 1, 12);
  // GATHER: v1-6 (not v7 int4).
  AddBuiltin(BuiltinOperator_GATHER, Register_GATHER(), 1, 6);
  AddBuiltin(BuiltinOperator_GATHER_ND, Register_GATHER_ND(), 1, 5);
  // GELU: v1 float32, v2 int8 / uint8 (table).
  AddBuiltin(BuiltinOperator_GELU, Register_GELU(), 1, 2);
  AddBuiltin(BuiltinOperator_GREATER, Register_GREATER(), 1, 2);
  AddBuiltin(BuiltinOperator_GREATER_EQUAL, Register_GREATER_EQUAL(), 1, 3);
  AddBuiltin(BuiltinOperator_HARD_SWISH, Register_HARD_SWISH(), 1, 1);
  AddBuiltin(BuiltinOperator_IF, Register_IF(), 1, 1);
  AddBuiltin(BuiltinOperator_IMAG, Register_IMAG(), 1, 1);
  AddBuiltin(BuiltinOperator_L2_NORMALIZATION, Register_L2_NORMALIZATION(), 1, 2);
  AddBuiltin(BuiltinOperator_L2_POOL_2D, Register_L2_POOL_2D(), 1, 1);
  AddBuiltin(BuiltinOperator_LEAKY_RELU, Register_LEAKY_RELU(), 1, 2);
  AddBuiltin(BuiltinOperator_LESS, Register_LESS(), 1, 3);
  AddBuiltin(BuiltinOperator_LESS_EQUAL, Register_LESS_EQUAL(), 1, 2);
  AddBuiltin(BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, Register_LOCAL_RESPONSE_NORMALIZATION(), 1, 1);
  AddBuiltin(BuiltinOperator_LOG, Register_LOG(), 1, 1);
  AddBuiltin(BuiltinOperator_LOGICAL_AND, Register_LOGICAL_AND(), 1, 1);
  AddBuiltin(BuiltinOperator_LOGICAL_NOT, Register_LOGICAL_NOT(), 1, 1);
  AddBuiltin(BuiltinOperator_LOGICAL_OR, Register_LOGICAL_OR(), 1, 1);
  AddBuiltin(BuiltinOperator_LOGISTIC, Register_LOGISTIC(), 1, 3);
  // LOG_SOFTMAX: v1 float32 and uint8, v2 int8.
  AddBuiltin(BuiltinOperator_LOG_SOFTMAX, Register_LOG_SOFTMAX(), 1, 2);
  AddBuiltin(BuiltinOperator_MAXIMUM, Register_MAXIMUM(), 1, 4);
  AddBuiltin(BuiltinOperator_MAX_POOL_2D, Register_MAX_POOL_2D(), 1, 3);
  AddBuiltin(BuiltinOperator_MEAN, Register_MEAN(), 1, 3);
  AddBuiltin(BuiltinOperator_MINIMUM, Register_MINIMUM(), 1, 4);
  AddBuiltin(BuiltinOperator_MIRROR_PAD, Register_MIRROR_PAD(), 1, 3);
  AddBuiltin(BuiltinOperator_MUL, Register_MUL(), 1, 5);
  AddBuiltin(BuiltinOperator_NEG, Register_NEG(), 1, 1);
  AddBuiltin(BuiltinOperator_NON_MAX_SUPPRESSION_V4, Register_NON_MAX_SUPPRESSION_V4(), 1, 1);
  AddBuiltin(BuiltinOperator_NON_MAX_SUPPRESSION_V5, Register_NON_MAX_SUPPRESSION_V5(), 1, 1);
  AddBuiltin(BuiltinOperator_NOT_EQUAL, Register_NOT_EQUAL(), 1, 3);
  AddBuiltin(BuiltinOperator_ONE_HOT, Register_ONE_HOT(), 1, 1);
  AddBuiltin(BuiltinOperator_PACK, Register_PACK(), 1, 4);
  AddBuiltin(BuiltinOperator_PAD, Register_PAD(), 1, 4);
  AddBuiltin(BuiltinOperator_PADV2, Register_PADV2(), 1, 4);
  AddBuiltin(BuiltinOperator_POW, Register_POW(), 1, 1);
  AddBuiltin(BuiltinOperator_PRELU, Register_PRELU(), 1, 1);
  // QUANTIZE: v1-2, v3 per-channel (not v4 int4).
  AddBuiltin(BuiltinOperator_QUANTIZE, Register_QUANTIZE(), 1, 3);
  AddBuiltin(BuiltinOperator_RANGE, Register_RANGE(), 1, 2);
  AddBuiltin(BuiltinOperator_RANK, Register_RANK(), 1, 1);
  AddBuiltin(BuiltinOperator_READ_VARIABLE, Register_READ_VARIABLE(), 1, 1);
  AddBuiltin(BuiltinOperator_REAL, Register_REAL(), 1, 1);
  AddBuiltin(BuiltinOperator_REDUCE_ALL, Register_REDUCE_ALL(), 1, 1);
  AddBuiltin(BuiltinOperator_REDUCE_ANY, Register_REDUCE_ANY(), 1, 1);
  AddBuiltin(BuiltinOperator_REDUCE_MAX, Register_REDUCE_MAX(), 1, 3);
  AddBuiltin(BuiltinOperator_REDUCE_MIN, Register_REDUCE_MIN(), 1, 3);
  // REDUCE_PROD: v1 (not v2 quantized).
  AddBuiltin(BuiltinOperator_REDUCE_PROD, Register_REDUCE_PROD(), 1, 1);
  AddBuiltin(BuiltinOperator_RELU, Register_RELU(), 1, 3);
  AddBuiltin(BuiltinOperator_RELU6, Register_RELU6(), 1, 3);
  AddBuiltin(BuiltinOperator_RELU_0_TO_1, Register_RELU_0_TO_1(), 1, 1);
  AddBuiltin(BuiltinOperator_RELU_N1_TO_1, Register_RELU_N1_TO_1(), 1, 1);
  AddBuiltin(BuiltinOperator_RESHAPE, Register_RESHAPE(), 1, 1);
  AddBuiltin(BuiltinOperator_RESIZE_BILINEAR, Register_RESIZE_BILINEAR(), 1, 4);
  AddBuiltin(BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, Register_RESIZE_NEAREST_NEIGHBOR(), 1, 4);
  // REVERSE_V2: v1, v2 int8, v3 several axes.
  AddBuiltin(BuiltinOperator_REVERSE_V2, Register_REVERSE_V2(), 1, 3);
  AddBuiltin(BuiltinOperator_RFFT2D, Register_RFFT2D(), 1, 1);
  AddBuiltin(BuiltinOperator_RIGHT_SHIFT, Register_RIGHT_SHIFT(), 1, 1);
  AddBuiltin(BuiltinOperator_ROUND, Register_ROUND(), 1, 1);
  AddBuiltin(BuiltinOperator_RSQRT, Register_RSQRT(), 1, 2);
  AddBuiltin(BuiltinOperator_SCATTER_ND, Register_SCATTER_ND(), 1, 1);
  AddBuiltin(BuiltinOperator_SEGMENT_SUM, Register_SEGMENT_SUM(), 1, 1);
  AddBuiltin(BuiltinOperator_SELECT, Register_SELECT(), 1, 4);
  AddBuiltin(BuiltinOperator_SELECT_V2, Register_SELECT_V2(), 1, 2);
  AddBuiltin(BuiltinOperator_SHAPE, Register_SHAPE(), 1, 1);
  // SIGN: v1 float32/float64, v2 int32.
  AddBuiltin(BuiltinOperator_SIGN, Register_SIGN(), 1, 2);
  AddBuiltin(BuiltinOperator_SIN, Register_SIN(), 1, 1);
  AddBuiltin(BuiltinOperator_SLICE, Register_SLICE(), 1, 6);
  // SOFTMAX: v1-2 (float, uint8, int8 -> int8/int16), v3 int16 -> int16.
  AddBuiltin(BuiltinOperator_SOFTMAX, Register_SOFTMAX(), 1, 3);
  AddBuiltin(BuiltinOperator_SPACE_TO_BATCH_ND, Register_SPACE_TO_BATCH_ND(), 1, 4);
  AddBuiltin(BuiltinOperator_SPACE_TO_DEPTH, Register_SPACE_TO_DEPTH(), 1, 2);
  AddBuiltin(BuiltinOperator_SPLIT, Register_SPLIT(), 1, 4);
  AddBuiltin(BuiltinOperator_SPLIT_V, Register_SPLIT_V(), 1, 2);
  AddBuiltin(BuiltinOperator_SQRT, Register_SQRT(), 1, 1);
  AddBuiltin(BuiltinOperator_SQUARE, Register_SQUARE(), 1, 1);
  AddBuiltin(BuiltinOperator_SQUARED_DIFFERENCE, Register_SQUARED_DIFFERENCE(), 1, 2);
  AddBuiltin(BuiltinOperator_SQUEEZE, Register_SQUEEZE(), 1, 2);
  AddBuiltin(BuiltinOperator_STRIDED_SLICE, Register_STRIDED_SLICE(), 1, 8);
  AddBuiltin(BuiltinOperator_SUB, Register_SUB(), 1, 5);
  AddBuiltin(BuiltinOperator_SUM, Register_SUM(), 1, 2);
  // SVDF: v1 float, v3 full integer int8 (not v2/v4 hybrid).
  AddBuiltin(BuiltinOperator_SVDF, Register_SVDF(), 1, 1);
  AddBuiltin(BuiltinOperator_SVDF, Register_SVDF(), 3, 3);
  AddBuiltin(BuiltinOperator_TANH, Register_TANH(), 1, 3);
  AddBuiltin(BuiltinOperator_TILE, Register_TILE(), 1, 3);
  AddBuiltin(BuiltinOperator_TOPK_V2, Register_TOPK_V2(), 1, 3);
  AddBuiltin(BuiltinOperator_TRANSPOSE, Register_TRANSPOSE(), 1, 6);
  // TRANSPOSE_CONV: v1 float32 / uint8, v2 int8 weights (int8 and 16x8 activations; TFLite
  // has no hybrid TRANSPOSE_CONV), v3 bias, v4 fused activation, v5 quantized_bias_type
  // (16x8 with an int32 bias, int32 sums).
  AddBuiltin(BuiltinOperator_TRANSPOSE_CONV, Register_TRANSPOSE_CONV(), 1, 5);
  // UNIDIRECTIONAL_SEQUENCE_LSTM: v1 float and int8 8x8_16, v2 hybrid (float activations,
  // int8 weights), v3 hybrid with asymmetric_quantize_inputs, v4 diagonal (rank-1) recurrent
  // weights; not v5 int16 activations (TFLite's resolvers stop at v4 too).
  AddBuiltin(BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), 1,
             4);
  AddBuiltin(BuiltinOperator_UNPACK, Register_UNPACK(), 1, 4);
  AddBuiltin(BuiltinOperator_UNSORTED_SEGMENT_MAX, Register_UNSORTED_SEGMENT_MAX(), 1, 1);
  AddBuiltin(BuiltinOperator_UNSORTED_SEGMENT_MIN, Register_UNSORTED_SEGMENT_MIN(), 1, 1);
  AddBuiltin(BuiltinOperator_UNSORTED_SEGMENT_PROD, Register_UNSORTED_SEGMENT_PROD(), 1, 1);
  AddBuiltin(BuiltinOperator_UNSORTED_SEGMENT_SUM, Register_UNSORTED_SEGMENT_SUM(), 1, 1);
  AddBuiltin(BuiltinOperator_VAR_HANDLE, Register_VAR_HANDLE(), 1, 1);
  // WHERE: v1 bool, v2 float32/int32/int64/int8/uint8/uint32 conditions.
  AddBuiltin(BuiltinOperator_WHERE, Register_WHERE(), 1, 2);
  AddBuiltin(BuiltinOperator_WHILE, Register_WHILE(), 1, 1);
  AddBuiltin(BuiltinOperator_ZEROS_LIKE, Register_ZEROS_LIKE(), 1, 1);
  // TFLite's BuiltinOpResolver also registers custom ops; this one of its three is here
  // (Mfcc and AudioSpectrogram are not: inspect_ops --list_ops).
  AddCustom("TFLite_Detection_PostProcess", tflite::ops::custom::Register_DETECTION_POSTPROCESS());
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
