// The one mapping from the schema's TensorType to the C API's TfLiteType (the two
// numberings differ).
#ifndef TFLITE_INSPECT_LIB_RUNTIME_TENSOR_TYPE_MAP_H_
#define TFLITE_INSPECT_LIB_RUNTIME_TENSOR_TYPE_MAP_H_

#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {

// kTfLiteNoType for a value outside the schema.
constexpr TfLiteType TfLiteTypeFromSchema(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType_FLOAT32: return kTfLiteFloat32;
    case tflite::TensorType_FLOAT16: return kTfLiteFloat16;
    case tflite::TensorType_INT32: return kTfLiteInt32;
    case tflite::TensorType_UINT8: return kTfLiteUInt8;
    case tflite::TensorType_INT64: return kTfLiteInt64;
    case tflite::TensorType_STRING: return kTfLiteString;
    case tflite::TensorType_BOOL: return kTfLiteBool;
    case tflite::TensorType_INT16: return kTfLiteInt16;
    case tflite::TensorType_COMPLEX64: return kTfLiteComplex64;
    case tflite::TensorType_INT8: return kTfLiteInt8;
    case tflite::TensorType_FLOAT64: return kTfLiteFloat64;
    case tflite::TensorType_COMPLEX128: return kTfLiteComplex128;
    case tflite::TensorType_UINT64: return kTfLiteUInt64;
    case tflite::TensorType_RESOURCE: return kTfLiteResource;
    case tflite::TensorType_VARIANT: return kTfLiteVariant;
    case tflite::TensorType_UINT32: return kTfLiteUInt32;
    case tflite::TensorType_UINT16: return kTfLiteUInt16;
    case tflite::TensorType_INT4: return kTfLiteInt4;
    case tflite::TensorType_BFLOAT16: return kTfLiteBFloat16;
    case tflite::TensorType_INT2: return kTfLiteInt2;
  }
  return kTfLiteNoType;
}

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_TENSOR_TYPE_MAP_H_
