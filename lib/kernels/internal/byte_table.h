// 8-bit unary ops as 256-entry tables: entry b is the output byte for input byte b (an
// int8 value reinterpreted as uint8). LOGISTIC, TANH, GELU and ELU build TFLite's table
// (LUTPopulate of upstream's float expression); HARD_SWISH evaluates TFLite's reference
// fixed-point arithmetic once per byte. The builtin kernels run these tables, and a
// delegate that runs such an op inside its partition (the XNNPACK delegate: this XNNPACK
// has no quantized version of them) builds the same table here, so both give the same
// bytes.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_BYTE_TABLE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_BYTE_TABLE_H_

#include <string>

#include "kernels/internal/elementwise.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace byte_table {

// Whether 8-bit inputs of this builtin op run as a table.
bool HasTable(int builtin_code);

// The table for these tensors (input and output of one 8-bit type) and the node's
// builtin_data; false, with the reason, where the builtin kernel refuses them.
bool Build(int builtin_code, const TfLiteTensor& input, const TfLiteTensor& output,
           const void* builtin_data, elementwise::ByteLut* lut, std::string* why);

// A builtin kernel's Prepare: Build, and on failure the reason as a kernel error.
TfLiteStatus Prepare(TfLiteContext* context, const TfLiteNode* node, int builtin_code,
                     const TfLiteTensor& input, const TfLiteTensor& output,
                     elementwise::ByteLut* lut);

}  // namespace byte_table
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_BYTE_TABLE_H_
