// ParseBuiltinOptions: dispatch to the op-family parsers, the ops without params, and
// the conversions they share. Mirrors upstream ParseOpDataTfLite
// (tflite/core/api/flatbuffer_conversions.cc, google-ai-edge/LiteRT).
#include "runtime/tensor_type_map.h"
#include "runtime/builtin_options.h"

#include <fmt/format.h>

#include <optional>

#include "model/op_code.h"
#include "runtime/builtin_options_internal.h"

namespace tflite_inspect {
namespace builtin_options_internal {

TfLiteStatus OptionsContext::Fail(const std::string& reason) const {
  if (error != nullptr) *error = BuiltinOpName(code) + ": " + reason;
  return kTfLiteError;
}

TfLiteStatus ConvertTypeField(const OptionsContext& ctx, const char* field, tflite::TensorType in,
                              TfLiteType* out) {
  std::string why;
  if (ConvertTensorType(in, out, &why) == kTfLiteOk) return kTfLiteOk;
  return ctx.Fail(std::string(field) + ": " + why);
}

TfLiteFusedActivation ConvertActivation(tflite::ActivationFunctionType activation) {
  switch (activation) {
    case tflite::ActivationFunctionType_NONE:
      return kTfLiteActNone;
    case tflite::ActivationFunctionType_RELU:
      return kTfLiteActRelu;
    case tflite::ActivationFunctionType_RELU_N1_TO_1:
      return kTfLiteActReluN1To1;
    case tflite::ActivationFunctionType_RELU6:
      return kTfLiteActRelu6;
    case tflite::ActivationFunctionType_TANH:
      return kTfLiteActTanh;
    case tflite::ActivationFunctionType_SIGN_BIT:
      return kTfLiteActSignBit;
  }
  return kTfLiteActNone;
}

TfLitePadding ConvertPadding(tflite::Padding padding) {
  switch (padding) {
    case tflite::Padding_SAME:
      return kTfLitePaddingSame;
    case tflite::Padding_VALID:
      return kTfLitePaddingValid;
  }
  return kTfLitePaddingUnknown;
}

namespace {

// Ops whose kernels take no builtin_data: upstream leaves it nullptr and succeeds,
// even for the few (PAD, PADV2, TRANSPOSE, ...) that have an empty placeholder struct
// in builtin_op_data.h, and for the StableHLO ops it does not parse yet.
bool HasNoParams(tflite::BuiltinOperator code) {
  using namespace tflite;  // NOLINT: a list of enumerators
  switch (code) {
    case BuiltinOperator_ABS:
    case BuiltinOperator_ADD_N:
    case BuiltinOperator_ASSIGN_VARIABLE:
    case BuiltinOperator_ATAN2:
    case BuiltinOperator_BATCH_TO_SPACE_ND:
    case BuiltinOperator_BITCAST:
    case BuiltinOperator_BITWISE_XOR:
    case BuiltinOperator_BROADCAST_ARGS:
    case BuiltinOperator_BROADCAST_TO:
    case BuiltinOperator_CALL:
    case BuiltinOperator_CEIL:
    case BuiltinOperator_COMPLEX_ABS:
    case BuiltinOperator_CONCAT_EMBEDDINGS:
    case BuiltinOperator_COS:
    case BuiltinOperator_CUSTOM:
    case BuiltinOperator_DENSIFY:
    case BuiltinOperator_DEQUANTIZE:
    case BuiltinOperator_DILATE:
    case BuiltinOperator_DYNAMIC_UPDATE_SLICE:
    case BuiltinOperator_ELU:
    case BuiltinOperator_EMBEDDING_LOOKUP:
    case BuiltinOperator_EQUAL:
    case BuiltinOperator_EXP:
    case BuiltinOperator_EXPAND_DIMS:
    case BuiltinOperator_FILL:
    case BuiltinOperator_FLOOR:
    case BuiltinOperator_FLOOR_DIV:
    case BuiltinOperator_FLOOR_MOD:
    case BuiltinOperator_GATHER_ND:
    case BuiltinOperator_GREATER:
    case BuiltinOperator_GREATER_EQUAL:
    case BuiltinOperator_HARD_SWISH:
    case BuiltinOperator_HASHTABLE_FIND:
    case BuiltinOperator_HASHTABLE_IMPORT:
    case BuiltinOperator_HASHTABLE_LOOKUP:
    case BuiltinOperator_HASHTABLE_SIZE:
    case BuiltinOperator_IMAG:
    case BuiltinOperator_LESS:
    case BuiltinOperator_LESS_EQUAL:
    case BuiltinOperator_LOG:
    case BuiltinOperator_LOGICAL_AND:
    case BuiltinOperator_LOGICAL_NOT:
    case BuiltinOperator_LOGICAL_OR:
    case BuiltinOperator_LOGISTIC:
    case BuiltinOperator_LOG_SOFTMAX:
    case BuiltinOperator_MATRIX_DIAG:
    case BuiltinOperator_MATRIX_SET_DIAG:
    case BuiltinOperator_MAXIMUM:
    case BuiltinOperator_MINIMUM:
    case BuiltinOperator_NEG:
    case BuiltinOperator_NON_MAX_SUPPRESSION_V4:
    case BuiltinOperator_NON_MAX_SUPPRESSION_V5:
    case BuiltinOperator_NOT_EQUAL:
    case BuiltinOperator_PAD:
    case BuiltinOperator_PADV2:
    case BuiltinOperator_POW:
    case BuiltinOperator_PRELU:
    case BuiltinOperator_QUANTIZE:
    case BuiltinOperator_RANGE:
    case BuiltinOperator_RANK:
    case BuiltinOperator_READ_VARIABLE:
    case BuiltinOperator_REAL:
    case BuiltinOperator_RELU:
    case BuiltinOperator_RELU6:
    case BuiltinOperator_RELU_0_TO_1:
    case BuiltinOperator_RELU_N1_TO_1:
    case BuiltinOperator_REVERSE_V2:
    case BuiltinOperator_RFFT2D:
    case BuiltinOperator_RIGHT_SHIFT:
    case BuiltinOperator_ROUND:
    case BuiltinOperator_RSQRT:
    case BuiltinOperator_SCATTER_ND:
    case BuiltinOperator_SEGMENT_SUM:
    case BuiltinOperator_SELECT:
    case BuiltinOperator_SELECT_V2:
    case BuiltinOperator_SIGN:
    case BuiltinOperator_SIN:
    case BuiltinOperator_SLICE:
    case BuiltinOperator_SPACE_TO_BATCH_ND:
    case BuiltinOperator_SQRT:
    case BuiltinOperator_SQUARE:
    case BuiltinOperator_SQUARED_DIFFERENCE:
    case BuiltinOperator_TANH:
    case BuiltinOperator_TILE:
    case BuiltinOperator_TOPK_V2:
    case BuiltinOperator_TRANSPOSE:
    case BuiltinOperator_UNSORTED_SEGMENT_MAX:
    case BuiltinOperator_UNSORTED_SEGMENT_MIN:
    case BuiltinOperator_UNSORTED_SEGMENT_PROD:
    case BuiltinOperator_UNSORTED_SEGMENT_SUM:
    case BuiltinOperator_WHERE:
    case BuiltinOperator_ZEROS_LIKE:
    // StableHLO ops upstream does not parse ("ops below don't have kernels").
    case BuiltinOperator_STABLEHLO_ABS:
    case BuiltinOperator_STABLEHLO_ADD:
    case BuiltinOperator_STABLEHLO_AND:
    case BuiltinOperator_STABLEHLO_BROADCAST_IN_DIM:
    case BuiltinOperator_STABLEHLO_CBRT:
    case BuiltinOperator_STABLEHLO_CLAMP:
    case BuiltinOperator_STABLEHLO_COMPARE:
    case BuiltinOperator_STABLEHLO_CONCATENATE:
    case BuiltinOperator_STABLEHLO_CONVERT:
    case BuiltinOperator_STABLEHLO_CONVOLUTION:
    case BuiltinOperator_STABLEHLO_COSINE:
    case BuiltinOperator_STABLEHLO_CUSTOM_CALL:
    case BuiltinOperator_STABLEHLO_DIVIDE:
    case BuiltinOperator_STABLEHLO_DOT_GENERAL:
    case BuiltinOperator_STABLEHLO_DYNAMIC_SLICE:
    case BuiltinOperator_STABLEHLO_DYNAMIC_UPDATE_SLICE:
    case BuiltinOperator_STABLEHLO_EXPONENTIAL:
    case BuiltinOperator_STABLEHLO_FLOOR:
    case BuiltinOperator_STABLEHLO_IOTA:
    case BuiltinOperator_STABLEHLO_LOG:
    case BuiltinOperator_STABLEHLO_LOGISTIC:
    case BuiltinOperator_STABLEHLO_MAXIMUM:
    case BuiltinOperator_STABLEHLO_MINIMUM:
    case BuiltinOperator_STABLEHLO_MULTIPLY:
    case BuiltinOperator_STABLEHLO_NEGATE:
    case BuiltinOperator_STABLEHLO_OR:
    case BuiltinOperator_STABLEHLO_POWER:
    case BuiltinOperator_STABLEHLO_REDUCE:
    case BuiltinOperator_STABLEHLO_REMAINDER:
    case BuiltinOperator_STABLEHLO_RESHAPE:
    case BuiltinOperator_STABLEHLO_RSQRT:
    case BuiltinOperator_STABLEHLO_SELECT:
    case BuiltinOperator_STABLEHLO_SHIFT_LEFT:
    case BuiltinOperator_STABLEHLO_SLICE:
    case BuiltinOperator_STABLEHLO_SORT:
    case BuiltinOperator_STABLEHLO_SUBTRACT:
    case BuiltinOperator_STABLEHLO_TANH:
    case BuiltinOperator_STABLEHLO_TRANSPOSE:
    case BuiltinOperator_STABLEHLO_WHILE:
      return true;
    default:
      return false;
  }
}

}  // namespace
}  // namespace builtin_options_internal

TfLiteStatus ConvertTensorType(tflite::TensorType tensor_type, TfLiteType* type,
                               std::string* error) {
  *type = TfLiteTypeFromSchema(tensor_type);
  if (*type != kTfLiteNoType) return kTfLiteOk;
  if (error != nullptr) {
    *error = fmt::format("unsupported tensor type {} (this schema knows 0..{})",
                         static_cast<int>(tensor_type), static_cast<int>(tflite::TensorType_MAX));
  }
  return kTfLiteError;
}

TfLiteStatus ParseBuiltinOptions(const tflite::Operator* op, tflite::BuiltinOperator code,
                                 void** builtin_data, std::string* error, std::string* note) {
  using namespace builtin_options_internal;  // NOLINT
  *builtin_data = nullptr;
  const OptionsContext ctx{op, code, error, note};
  if (op == nullptr) return ctx.Fail("no operator to parse options of");
  for (auto* family :
       {ParseNnOptions, ParseTensorOptions, ParseMiscOptions, ParseStablehloOptions}) {
    if (std::optional<TfLiteStatus> status = family(ctx, builtin_data)) return *status;
  }
  if (HasNoParams(code)) return kTfLiteOk;
  switch (code) {
    case tflite::BuiltinOperator_DELEGATE:
      return ctx.Fail("a DELEGATE operator must not appear in a model");
    case tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES:
      return ctx.Fail(
          "placeholder code 127 is not an operator (the real code belongs in "
          "OperatorCode.builtin_code)");
    default:
      return ctx.Fail("unknown builtin operator code " + std::to_string(code));
  }
}

}  // namespace tflite_inspect
