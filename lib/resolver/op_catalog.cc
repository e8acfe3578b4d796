#include "resolver/op_catalog.h"

#include <string>

namespace tflite_inspect {

void OpCatalog::AddBuiltin(int32_t op, int min_version, int max_version) {
  // int64: a max_version of INT_MAX (a crafted model) must end the loop.
  for (int64_t v = min_version; v <= max_version; ++v) builtins_[op].insert(static_cast<int>(v));
}

void OpCatalog::AddCustom(const std::string& name, int min_version, int max_version) {
  for (int64_t v = min_version; v <= max_version; ++v) customs_[name].insert(static_cast<int>(v));
}

bool OpCatalog::HasBuiltin(int32_t op, int version) const {
  auto it = builtins_.find(op);
  return it != builtins_.end() && it->second.count(version) > 0;
}

bool OpCatalog::HasCustom(const std::string& name, int version) const {
  auto it = customs_.find(name);
  return it != customs_.end() && it->second.count(version) > 0;
}

std::set<int> OpCatalog::BuiltinVersions(int32_t op) const {
  auto it = builtins_.find(op);
  return it == builtins_.end() ? std::set<int>() : it->second;
}

std::set<int> OpCatalog::CustomVersions(const std::string& name) const {
  auto it = customs_.find(name);
  return it == customs_.end() ? std::set<int>() : it->second;
}

std::vector<std::string> OpCatalog::CustomNames() const {
  std::vector<std::string> names;
  for (const auto& [name, versions] : customs_) names.push_back(name);
  return names;
}

std::string VersionRangeString(const std::set<int>& versions) {
  std::string out;
  auto it = versions.begin();
  while (it != versions.end()) {
    int lo = *it, hi = lo;
    for (++it; it != versions.end() && *it == hi + 1; ++it) hi = *it;
    if (!out.empty()) out += ", ";
    out += "v" + std::to_string(lo);
    if (hi != lo) out += "-" + std::to_string(hi);
  }
  return out;
}

}  // namespace tflite_inspect
