// A resource variable: the tensor value ASSIGN_VARIABLE stores and READ_VARIABLE reads,
// kept by the interpreter across invocations and subgraphs (TFLite's ResourceVariable).
#ifndef TENSORFLOW_LITE_EXPERIMENTAL_RESOURCE_RESOURCE_VARIABLE_H_
#define TENSORFLOW_LITE_EXPERIMENTAL_RESOURCE_RESOURCE_VARIABLE_H_

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/experimental/resource/resource_base.h"

namespace tflite {
namespace resource {

class ResourceVariable : public ResourceBase {
 public:
  ResourceVariable();
  ResourceVariable(ResourceVariable&& other);
  ResourceVariable(const ResourceVariable&) = delete;
  ResourceVariable& operator=(const ResourceVariable&) = delete;
  ~ResourceVariable() override;

  // Copies `tensor`'s type, quantization parameters, shape and bytes into the variable
  // (its buffer reused where the size is unchanged). kTfLiteError where memory runs out.
  TfLiteStatus AssignFrom(const TfLiteTensor* tensor);
  // The value; null before the first assignment.
  TfLiteTensor* GetTensor() { return is_initialized_ ? &tensor_ : nullptr; }
  bool IsInitialized() override { return is_initialized_; }
  size_t GetMemoryUsage() override { return is_initialized_ ? tensor_.bytes : 0; }

 private:
  TfLiteTensor tensor_;
  bool is_initialized_ = false;
};

// Creates an empty variable under `resource_id` unless a resource is there already.
TfLiteStatus CreateResourceVariableIfNotAvailable(ResourceMap* resources, int resource_id);
// The variable under `resource_id`; null where there is none or the resource is another kind.
ResourceVariable* GetResourceVariable(ResourceMap* resources, int resource_id);
// A resource tensor the runtime (not a delegate) holds.
bool IsBuiltinResource(const TfLiteTensor* tensor);

}  // namespace resource
}  // namespace tflite

#endif  // TENSORFLOW_LITE_EXPERIMENTAL_RESOURCE_RESOURCE_VARIABLE_H_
