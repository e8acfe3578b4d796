#ifndef TENSORFLOW_LITE_OP_RESOLVER_H_
#define TENSORFLOW_LITE_OP_RESOLVER_H_
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#endif  // TENSORFLOW_LITE_OP_RESOLVER_H_
