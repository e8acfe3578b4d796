// The builtin ops this runtime implements, with the exact version range each kernel
// supports. Kept as one explicit list (no static self-registration) so that
// `inspect_ops --check_resolver` predicts what our BuiltinOpResolver will resolve.
//
// The CPU kernels land with the runtime (see docs/); until a kernel exists its op is
// absent here, and the resolver check honestly reports it as not implemented.
#include "resolver/op_catalog.h"

namespace tflite_inspect {

OpCatalog BuiltinOpCatalog() {
  OpCatalog catalog;
  return catalog;
}

}  // namespace tflite_inspect
