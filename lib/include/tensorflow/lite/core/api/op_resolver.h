// OpResolver: maps (builtin op, version) and (custom name, version) to kernels.
#ifndef TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_
#define TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite {

class OpResolver {
 public:
  virtual ~OpResolver() = default;
  // nullptr when the op is not registered at exactly this version.
  virtual const TfLiteRegistration* FindOp(tflite::BuiltinOperator op, int version) const = 0;
  virtual const TfLiteRegistration* FindOp(const char* op, int version) const = 0;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_
