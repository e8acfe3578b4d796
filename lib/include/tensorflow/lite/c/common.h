// Public include path for the TFLite C kernel/delegate API (see core/c/common.h).
#ifndef TENSORFLOW_LITE_C_COMMON_H_
#define TENSORFLOW_LITE_C_COMMON_H_

#include "tensorflow/lite/core/c/common.h"

#endif  // TENSORFLOW_LITE_C_COMMON_H_
