// MutableOpResolver: an OpResolver filled by explicit AddBuiltin / AddCustom calls.
#ifndef TENSORFLOW_LITE_MUTABLE_OP_RESOLVER_H_
#define TENSORFLOW_LITE_MUTABLE_OP_RESOLVER_H_

#include <map>
#include <string>
#include <utility>

#include "tensorflow/lite/core/api/op_resolver.h"

namespace tflite_inspect {
class OpCatalog;
}

namespace tflite {

class MutableOpResolver : public OpResolver {
 public:
  const TfLiteRegistration* FindOp(tflite::BuiltinOperator op, int version) const override;
  const TfLiteRegistration* FindOp(const char* op, int version) const override;

  // Registers `registration` for every version in [min_version, max_version]. A later
  // registration of the same (op, version) replaces the earlier one, as in TFLite.
  void AddBuiltin(tflite::BuiltinOperator op, const TfLiteRegistration* registration,
                  int min_version = 1, int max_version = 1);
  void AddCustom(const char* name, const TfLiteRegistration* registration, int version = 1);
  void AddCustom(const char* name, const TfLiteRegistration* registration, int min_version,
                 int max_version);
  // Adds every registration of `other`, replacing same-key entries.
  void AddAll(const MutableOpResolver& other);

  // What this resolver offers, for reports (`inspect_ops --check_resolver`).
  tflite_inspect::OpCatalog Catalog() const;

 private:
  std::map<std::pair<int, int>, TfLiteRegistration> builtins_;
  std::map<std::pair<std::string, int>, TfLiteRegistration> customs_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_MUTABLE_OP_RESOLVER_H_
