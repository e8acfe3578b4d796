// What `inspect_ops --check_resolver` checks against: the registrations of our
// BuiltinOpResolver, so the report predicts exactly what InterpreterBuilder resolves.
#include "resolver/op_catalog.h"
#include "tensorflow/lite/kernels/register.h"

namespace tflite_inspect {

OpCatalog BuiltinOpCatalog() { return tflite::ops::builtin::BuiltinOpResolver().Catalog(); }

}  // namespace tflite_inspect
