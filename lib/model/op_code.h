// Operator codes resolved as TFLite resolves them.
#ifndef TFLITE_INSPECT_LIB_MODEL_OP_CODE_H_
#define TFLITE_INSPECT_LIB_MODEL_OP_CODE_H_

#include <cstdint>
#include <string>

#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {

struct OpCode {
  // max(deprecated_builtin_code, builtin_code), exactly as TFLite's GetBuiltinCode:
  // old converters only write the int8 field, new ones write both.
  int32_t builtin = 0;
  std::string custom_name;  // set for CUSTOM only
  int version = 1;

  bool is_custom() const { return builtin == tflite::BuiltinOperator_CUSTOM; }
  // Builtin name ("CONV_2D") or the custom op's name.
  std::string name() const;
  // "CONV_2D v1" / "MyOp v2 (custom)".
  std::string display() const;
};

// Resolves one operator_codes entry.
OpCode ResolveOpCode(const tflite::OperatorCode* code);

// Schema name of a builtin operator; "UNKNOWN_BUILTIN_OP(n)" for codes this schema does
// not know (a model from a newer converter).
std::string BuiltinOpName(int32_t code);
// True when `code` names an operator of our schema.
bool IsKnownBuiltinOp(int32_t code);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_MODEL_OP_CODE_H_
