// Builtin operator options -> the TfLite*Params structs that kernels read as
// TfLiteNode::builtin_data. The equivalent of TFLite's ParseOpData
// (tensorflow/lite/core/api/flatbuffer_conversions.cc): same ops, same structs, same
// defaults when a model leaves the options out, same rejections.
//
// Thread-safe (no state). Pointer members of the returned structs (VAR_HANDLE names,
// BUCKETIZE boundaries, STABLEHLO_COMPOSITE name and attributes) point into the model
// buffer that holds `op`, which must outlive the params.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_BUILTIN_OPTIONS_H_
#define TFLITE_INSPECT_LIB_RUNTIME_BUILTIN_OPTIONS_H_

#include <string>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {

// Fills the TfLite*Params struct that TFLite's interpreter hands to `op`'s kernel as
// node->builtin_data, allocated with calloc (the interpreter releases it with free()).
// Sets *builtin_data = nullptr for ops without params. On bad options returns
// kTfLiteError and a message in *error (e.g. "RESHAPE: new_shape has 9 dimensions, at
// most 8 are supported"); *builtin_data is then nullptr and nothing is leaked.
// As upstream, options of the wrong union type count as absent, and absent options
// give a zeroed struct (not the schema's defaults) except where upstream fills others.
// `error` may be nullptr. `note` (may be nullptr) gets a sentence when the options are
// of another union type than the op reads (kept apart: it is not an error).
TfLiteStatus ParseBuiltinOptions(const tflite::Operator* op, tflite::BuiltinOperator code,
                                 void** builtin_data, std::string* error,
                                 std::string* note = nullptr);

// Maps a schema TensorType to the runtime's TfLiteType (the numbering differs:
// TensorType_FLOAT32 is 0, kTfLiteFloat32 is 1). For a value outside the schema sets
// *type = kTfLiteNoType, writes a message to *error (if not nullptr) and returns
// kTfLiteError.
TfLiteStatus ConvertTensorType(tflite::TensorType tensor_type, TfLiteType* type,
                               std::string* error);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RUNTIME_BUILTIN_OPTIONS_H_
