// Facts about TFLite tensor types and shapes used across the library.
#ifndef TFLITE_INSPECT_LIB_MODEL_TENSOR_TYPE_H_
#define TFLITE_INSPECT_LIB_MODEL_TENSOR_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {

// Size in bytes of one element of `type`, or 0 for types without a fixed size
// (STRING, RESOURCE, VARIANT, and INT4/INT2 which pack several values per byte).
size_t TensorTypeSize(tflite::TensorType type);
// Upper-case schema name of `type` ("FLOAT32"); "UNKNOWN_TYPE(n)" outside the enum.
std::string TensorTypeName(int type);
// "[1,224,224,3]"; "[]" for a scalar or an absent shape.
std::string ShapeString(const flatbuffers::Vector<int32_t>* shape);
std::string ShapeString(const std::vector<int32_t>& shape);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_MODEL_TENSOR_TYPE_H_
