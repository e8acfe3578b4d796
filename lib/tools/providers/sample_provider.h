// Delegate providers of the sample delegates: --use_sample_delegate (the ADD/SUB
// SimpleDelegate example) and --test_delegate_ops=OP,OP (the test delegate).
#ifndef TFLITE_INSPECT_DELEGATES_SAMPLE_SAMPLE_PROVIDER_H_
#define TFLITE_INSPECT_DELEGATES_SAMPLE_SAMPLE_PROVIDER_H_

#include <memory>

#include "tools/delegate_provider.h"

namespace tflite_inspect {

std::unique_ptr<DelegateProvider> CreateSampleDelegateProvider();
std::unique_ptr<DelegateProvider> CreateTestDelegateProvider();

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_SAMPLE_SAMPLE_PROVIDER_H_
