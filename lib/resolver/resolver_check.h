// Resolver check: for every operator code a model uses, would a resolver with the given
// catalog resolve it, and if not, what TFLite would print on the device.
#ifndef TFLITE_INSPECT_LIB_RESOLVER_RESOLVER_CHECK_H_
#define TFLITE_INSPECT_LIB_RESOLVER_RESOLVER_CHECK_H_

#include <optional>
#include <string>
#include <vector>

#include "model/model.h"
#include "resolver/op_catalog.h"

namespace tflite_inspect {

enum class OpResolveStatus {
  kOk,
  kVersionNotSupported,  // the builtin op is registered, but not this version
  kNotImplemented,       // the builtin op is not registered at any version
  kCustomUnresolved,     // no custom op of that name and version
  kFlexOp,               // a TensorFlow (Select TF ops) op: needs the Flex delegate
};

const char* OpResolveStatusName(OpResolveStatus s);

struct NodeRef {
  int subgraph;
  int node;
};

struct OpResolveRow {
  int opcode_index;
  OpCode code;
  OpResolveStatus status;
  std::string registered;        // versions the resolver has for this op ("v1-3")
  std::string tflite_message;    // what TFLite prints for this miss; "" when ok
  std::vector<std::string> suggestions;  // near-miss custom op names
  std::string hint;              // what to do about it
  std::vector<NodeRef> nodes;    // operators that use this opcode
};

struct ResolverCheckResult {
  std::vector<OpResolveRow> rows;  // one per operator_codes entry, in model order
  int misses = 0;
  // Set when the model's min_runtime_version metadata is newer than the TFLite release
  // this runtime follows.
  std::optional<std::string> runtime_warning;
};

ResolverCheckResult CheckResolver(const Model& model, const OpCatalog& catalog);

// TFLite's error text for a builtin op the resolver lacks at `version`.
std::string BuiltinMissMessage(int32_t op, int version);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RESOLVER_RESOLVER_CHECK_H_
