#include "model/tensor_type.h"

#include "fmt/format.h"
#include "fmt/ranges.h"

namespace tflite_inspect {

size_t TensorTypeSize(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType_FLOAT32: return 4;
    case tflite::TensorType_FLOAT16: return 2;
    case tflite::TensorType_BFLOAT16: return 2;
    case tflite::TensorType_FLOAT64: return 8;
    case tflite::TensorType_INT32: return 4;
    case tflite::TensorType_UINT32: return 4;
    case tflite::TensorType_UINT8: return 1;
    case tflite::TensorType_INT8: return 1;
    case tflite::TensorType_INT16: return 2;
    case tflite::TensorType_UINT16: return 2;
    case tflite::TensorType_INT64: return 8;
    case tflite::TensorType_UINT64: return 8;
    case tflite::TensorType_BOOL: return 1;
    case tflite::TensorType_COMPLEX64: return 8;
    case tflite::TensorType_COMPLEX128: return 16;
    default: return 0;
  }
}

std::string TensorTypeName(int type) {
  if (type >= tflite::TensorType_MIN && type <= tflite::TensorType_MAX) {
    const char* n = tflite::EnumNameTensorType(static_cast<tflite::TensorType>(type));
    if (n != nullptr && n[0] != '\0') return n;
  }
  return "UNKNOWN_TYPE(" + std::to_string(type) + ")";
}

std::string ShapeString(const flatbuffers::Vector<int32_t>* shape) {
  if (shape == nullptr) return "[]";
  return fmt::format("[{}]", fmt::join(shape->begin(), shape->end(), ","));
}

std::string ShapeString(const std::vector<int32_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ","));
}

}  // namespace tflite_inspect
