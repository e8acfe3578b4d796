// Public include path for the builtin op parameter structs (see
// core/c/builtin_op_data.h).
#ifndef TENSORFLOW_LITE_C_BUILTIN_OP_DATA_H_
#define TENSORFLOW_LITE_C_BUILTIN_OP_DATA_H_

#include "tensorflow/lite/core/c/builtin_op_data.h"

#endif  // TENSORFLOW_LITE_C_BUILTIN_OP_DATA_H_
