// BuiltinOpResolver: every builtin kernel this runtime implements, each with exactly the
// version range it supports (lib/kernels/register.cc is the one list).
#ifndef TENSORFLOW_LITE_KERNELS_REGISTER_H_
#define TENSORFLOW_LITE_KERNELS_REGISTER_H_

#include "tensorflow/lite/mutable_op_resolver.h"

namespace tflite {
namespace ops {
namespace builtin {

class BuiltinOpResolver : public MutableOpResolver {
 public:
  BuiltinOpResolver();
};

// TFLite's name for the same resolver (XNNPACK is not applied by the resolver here).
using BuiltinOpResolverWithoutDefaultDelegates = BuiltinOpResolver;

}  // namespace builtin
}  // namespace ops
}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_REGISTER_H_
