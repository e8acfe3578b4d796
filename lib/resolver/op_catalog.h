// OpCatalog: which (builtin op, version) and (custom name, version) pairs a resolver
// offers (MutableOpResolver::Catalog()). Reports such as `inspect_ops --check_resolver`
// and the InterpreterBuilder's list of misses read it.
#ifndef TFLITE_INSPECT_LIB_RESOLVER_OP_CATALOG_H_
#define TFLITE_INSPECT_LIB_RESOLVER_OP_CATALOG_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tflite_inspect {

// The TFLite release whose schema, op versions and messages this runtime follows.
inline constexpr const char kTfLiteCompatibleVersion[] = "2.21.0";

class OpCatalog {
 public:
  void AddBuiltin(int32_t op, int min_version, int max_version);
  void AddCustom(const std::string& name, int min_version, int max_version);

  bool HasBuiltin(int32_t op, int version) const;
  bool HasCustom(const std::string& name, int version) const;
  // Versions registered for an op; empty when the op is not registered at all.
  std::set<int> BuiltinVersions(int32_t op) const;
  std::set<int> CustomVersions(const std::string& name) const;
  std::vector<std::string> CustomNames() const;
  const std::map<int32_t, std::set<int>>& builtins() const { return builtins_; }

 private:
  std::map<int32_t, std::set<int>> builtins_;
  std::map<std::string, std::set<int>> customs_;
};

// "v1-3", "v1, v3-4"; "" for an empty set.
std::string VersionRangeString(const std::set<int>& versions);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RESOLVER_OP_CATALOG_H_
