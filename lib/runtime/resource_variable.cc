// Resource variables (tensorflow/lite/experimental/resource/resource_variable.h).
#include "tensorflow/lite/experimental/resource/resource_variable.h"

#include <cstdlib>
#include <cstring>
#include <memory>

namespace tflite {
namespace resource {

ResourceVariable::ResourceVariable() : ResourceBase(ResourceType::kResourceVariable) {
  std::memset(&tensor_, 0, sizeof(tensor_));
}

ResourceVariable::ResourceVariable(ResourceVariable&& other)
    : ResourceBase(ResourceType::kResourceVariable),
      tensor_(other.tensor_),
      is_initialized_(other.is_initialized_) {
  std::memset(&other.tensor_, 0, sizeof(other.tensor_));
  other.is_initialized_ = false;
}

ResourceVariable::~ResourceVariable() {
  std::free(tensor_.data.raw);
  if (tensor_.dims != nullptr) TfLiteIntArrayFree(tensor_.dims);
}

TfLiteStatus ResourceVariable::AssignFrom(const TfLiteTensor* tensor) {
  if (tensor == nullptr || tensor->dims == nullptr) return kTfLiteError;
  if (!TfLiteIntArrayEqual(tensor_.dims, tensor->dims)) {
    TfLiteIntArray* dims = TfLiteIntArrayCopy(tensor->dims);
    if (dims == nullptr) return kTfLiteError;
    if (tensor_.dims != nullptr) TfLiteIntArrayFree(tensor_.dims);
    tensor_.dims = dims;
  }
  tensor_.name = "ResourceVariable";
  tensor_.allocation_type = kTfLiteDynamic;
  tensor_.type = tensor->type;
  // The scale and zero point only: the source's per-channel arrays belong to its subgraph.
  tensor_.params = tensor->params;
  tensor_.quantization = {kTfLiteNoQuantization, nullptr};
  if (tensor_.data.raw == nullptr || tensor_.bytes != tensor->bytes) {
    if (TfLiteTensorRealloc(tensor->bytes, &tensor_) != kTfLiteOk) return kTfLiteError;
  }
  tensor_.bytes = tensor->bytes;
  if (tensor->bytes > 0 && tensor->data.raw_const != nullptr) {
    std::memcpy(tensor_.data.raw, tensor->data.raw_const, tensor->bytes);
  }
  is_initialized_ = true;
  return kTfLiteOk;
}

TfLiteStatus CreateResourceVariableIfNotAvailable(ResourceMap* resources, int resource_id) {
  if (resources == nullptr) return kTfLiteError;
  if (resources->count(resource_id) != 0) return kTfLiteOk;
  resources->emplace(resource_id, std::make_unique<ResourceVariable>());
  return kTfLiteOk;
}

ResourceVariable* GetResourceVariable(ResourceMap* resources, int resource_id) {
  if (resources == nullptr) return nullptr;
  auto it = resources->find(resource_id);
  if (it == resources->end() || it->second == nullptr ||
      it->second->type() != ResourceBase::ResourceType::kResourceVariable) {
    return nullptr;
  }
  return static_cast<ResourceVariable*>(it->second.get());
}

bool IsBuiltinResource(const TfLiteTensor* tensor) {
  return tensor != nullptr && tensor->type == kTfLiteResource && tensor->delegate == nullptr;
}

}  // namespace resource
}  // namespace tflite
