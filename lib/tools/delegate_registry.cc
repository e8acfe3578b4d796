// The one list of built-in delegate providers. Order here is only the order of the
// flags in --help; delegates apply in command-line order.
#include "external/external_provider.h"
#include "gpu/gpu_provider.h"
#include "sample/sample_provider.h"
#include "tools/delegate_provider.h"
#include "xnnpack/xnnpack_provider.h"

namespace tflite_inspect {

DelegateRegistry DelegateRegistry::Default() {
  DelegateRegistry r;
  r.Add(CreateXnnpackDelegateProvider());
  r.Add(CreateGpuDelegateProvider());
  r.Add(CreateSampleDelegateProvider());
  r.Add(CreateTestDelegateProvider());
  r.Add(CreateExternalDelegateProvider());
  return r;
}

}  // namespace tflite_inspect
