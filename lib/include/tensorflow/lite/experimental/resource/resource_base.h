// Resources an interpreter shares between its subgraphs (resource variables), under
// TFLite's names: a kernel written against TFLite's headers finds them with the same
// #include and the same Subgraph::resources() / resource_ids() calls.
#ifndef TENSORFLOW_LITE_EXPERIMENTAL_RESOURCE_RESOURCE_BASE_H_
#define TENSORFLOW_LITE_EXPERIMENTAL_RESOURCE_RESOURCE_BASE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

namespace tflite {
namespace resource {

class ResourceBase {
 public:
  enum class ResourceType { kResourceVariable, kHashtable, kOther };
  explicit ResourceBase(ResourceType type = ResourceType::kOther) : type_(type) {}
  virtual ~ResourceBase() = default;
  virtual bool IsInitialized() = 0;
  // Bytes the resource holds.
  virtual size_t GetMemoryUsage() = 0;
  ResourceType type() const { return type_; }

 private:
  ResourceType type_;
};

// Resource id -> resource, shared by every subgraph of an interpreter.
using ResourceMap = std::unordered_map<std::int32_t, std::unique_ptr<ResourceBase>>;
// (container, shared_name) of a VAR_HANDLE -> its resource id, in order of first use.
using ResourceIDMap = std::map<std::pair<std::string, std::string>, int>;

}  // namespace resource
}  // namespace tflite

#endif  // TENSORFLOW_LITE_EXPERIMENTAL_RESOURCE_RESOURCE_BASE_H_
