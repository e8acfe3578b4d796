#include "model/op_code.h"

#include <algorithm>

namespace tflite_inspect {

bool IsKnownBuiltinOp(int32_t code) {
  if (code < tflite::BuiltinOperator_MIN || code > tflite::BuiltinOperator_MAX) return false;
  const char* name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
  return name != nullptr && name[0] != '\0';
}

std::string BuiltinOpName(int32_t code) {
  if (!IsKnownBuiltinOp(code)) return "UNKNOWN_BUILTIN_OP(" + std::to_string(code) + ")";
  return tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
}

OpCode ResolveOpCode(const tflite::OperatorCode* code) {
  OpCode out;
  out.builtin = std::max<int32_t>(code->builtin_code(), code->deprecated_builtin_code());
  out.version = code->version();
  if (out.is_custom() && code->custom_code() != nullptr) out.custom_name = code->custom_code()->str();
  return out;
}

std::string OpCode::name() const { return is_custom() ? custom_name : BuiltinOpName(builtin); }

std::string OpCode::display() const {
  return name() + " v" + std::to_string(version) + (is_custom() ? " (custom)" : "");
}

}  // namespace tflite_inspect
