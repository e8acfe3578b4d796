// The one list of built-in delegate providers. Order here is only the order of the
// flags in --help; delegates apply in command-line order.
#include "tools/providers/external_provider.h"
#include "tools/providers/gpu_provider.h"
#include "tools/providers/sample_provider.h"
#include "tools/providers/stable_delegate_provider.h"
#include "tools/delegate_provider.h"
#include "tools/providers/xnnpack_provider.h"

namespace tflite_inspect {

DelegateRegistry DelegateRegistry::Default() {
  DelegateRegistry r;
  r.Add(CreateXnnpackDelegateProvider());
  r.Add(CreateGpuDelegateProvider());
  r.Add(CreateSampleDelegateProvider());
  r.Add(CreateTestDelegateProvider());
  r.Add(CreateExternalDelegateProvider());
  r.Add(CreateStableDelegateProvider());
  return r;
}

}  // namespace tflite_inspect
