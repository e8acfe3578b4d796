#include "tensorflow/lite/mutable_op_resolver.h"

#include "resolver/op_catalog.h"

namespace tflite {

const TfLiteRegistration* MutableOpResolver::FindOp(tflite::BuiltinOperator op,
                                                    int version) const {
  auto it = builtins_.find({static_cast<int>(op), version});
  return it == builtins_.end() ? nullptr : &it->second;
}

const TfLiteRegistration* MutableOpResolver::FindOp(const char* op, int version) const {
  auto it = customs_.find({op, version});
  return it == customs_.end() ? nullptr : &it->second;
}

void MutableOpResolver::AddBuiltin(tflite::BuiltinOperator op,
                                   const TfLiteRegistration* registration, int min_version,
                                   int max_version) {
  if (registration == nullptr) return;
  for (int v = min_version; v <= max_version; ++v) {
    TfLiteRegistration r = *registration;
    r.builtin_code = op;
    r.custom_name = nullptr;
    r.version = v;
    builtins_[{static_cast<int>(op), v}] = r;
  }
}

void MutableOpResolver::AddCustom(const char* name, const TfLiteRegistration* registration,
                                  int version) {
  AddCustom(name, registration, version, version);
}

void MutableOpResolver::AddCustom(const char* name, const TfLiteRegistration* registration,
                                  int min_version, int max_version) {
  if (registration == nullptr || name == nullptr) return;
  for (int v = min_version; v <= max_version; ++v) {
    auto key = std::make_pair(std::string(name), v);
    TfLiteRegistration r = *registration;
    r.builtin_code = BuiltinOperator_CUSTOM;
    r.version = v;
    auto& slot = customs_[key];
    slot = r;
    // The name must outlive the caller's string: point into our own key.
    slot.custom_name = customs_.find(key)->first.first.c_str();
  }
}

void MutableOpResolver::AddAll(const MutableOpResolver& other) {
  for (const auto& [key, reg] : other.builtins_) builtins_[key] = reg;
  for (const auto& [key, reg] : other.customs_) {
    auto& slot = customs_[key];
    slot = reg;
    slot.custom_name = customs_.find(key)->first.first.c_str();
  }
}

tflite_inspect::OpCatalog MutableOpResolver::Catalog() const {
  tflite_inspect::OpCatalog catalog;
  for (const auto& [key, reg] : builtins_) catalog.AddBuiltin(key.first, key.second, key.second);
  for (const auto& [key, reg] : customs_) catalog.AddCustom(key.first, key.second, key.second);
  return catalog;
}

}  // namespace tflite
