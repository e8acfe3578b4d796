// Model-level questions answered from the release table (runtime_versions.h):
//  - MinRuntime: the oldest TFLite release whose BuiltinOpResolver resolves every builtin
//    operator code of the model, the pair(s) that force it, and how that compares with the
//    model's own "min_runtime_version" metadata;
//  - CheckTargetRuntime: what one release cannot resolve, with the message that release
//    prints on the device, the first release that can, and the nodes affected;
//  - TargetRuntimeWarning: a one-line summary for tools that take --target_runtime
//    (benchmark_model, delegate_report, run).
// Only stock BuiltinOpResolver releases are modelled: custom ops (other than the few that
// BuiltinOpResolver registers itself) and Flex ops are listed as needing the application,
// and never decide the release. All functions are pure; the model must outlive no result.
#ifndef TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_CHECK_H_
#define TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_CHECK_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "resolver/resolver_check.h"
#include "resolver/runtime_versions.h"
#include "util/status.h"

namespace tflite_inspect {

// One operator_codes entry with what the table says about it.
struct OpRequirement {
  int opcode_index = 0;
  OpCode code;
  PairInfo pair;                // builtin ops only
  std::vector<NodeRef> nodes;   // operators that use this entry
};

enum class MetadataComparison {
  kNoMetadata,        // the model has no min_runtime_version metadata
  kUnparseable,       // the metadata is not a dotted version
  kAgree,             // both give the same minor release
  kOpsStricter,       // the ops need a newer release than the metadata says
  kMetadataStricter,  // the metadata asks for a newer release than the ops need
};
const char* MetadataComparisonName(MetadataComparison c);  // "agree", "ops_stricter", ...

struct MinRuntimeResult {
  // The oldest known release that resolves every builtin operator code; nullopt when no
  // known release does (see `blockers`).
  std::optional<TfLiteRelease> min_release;
  // True when min_release is the oldest release in the table and the ops would also run
  // on older releases (their newest map entry predates it).
  bool or_older = false;
  std::string newest_upstream;            // the largest map entry over the ops ("2.3.0")
  std::vector<OpRequirement> forcing;     // the pairs whose first release is min_release
  std::vector<OpRequirement> blockers;    // pairs no known release registers
  std::vector<OpRequirement> app_ops;     // custom and Flex ops: the application provides
  std::vector<OpRequirement> all;         // every operator_codes entry, in model order

  std::optional<std::string> metadata;               // min_runtime_version, as written
  std::optional<TfLiteRelease> metadata_release;     // its first minor release
  MetadataComparison comparison = MetadataComparison::kNoMetadata;
  std::string explanation;  // one or two sentences: which is stricter and why
};

MinRuntimeResult MinRuntime(const Model& model);

enum class TargetStatus {
  kOk,
  kVersionNotRegistered,  // the release registers the op, not this version
  kOpNotRegistered,       // the release's schema knows the code; no kernel registered
  kOutOfRange,            // the code is beyond the release's schema
  kAppProvided,           // custom op the application must register (not checked)
  kFlex,                  // Select TF op: needs the Flex delegate (not checked)
};
const char* TargetStatusName(TargetStatus s);  // "ok", "version not registered", ...

struct TargetRow {
  int opcode_index = 0;
  OpCode code;
  TargetStatus status = TargetStatus::kOk;
  int32_t code_read = 0;          // the builtin code as the release reads it
  std::string registered;         // versions the release registers for the op ("v1-4")
  std::string tflite_message;     // what the release prints; "" when it resolves
  PairInfo pair;                  // first release that can, upstream string
  std::vector<NodeRef> nodes;
};

struct TargetRuntimeResult {
  TfLiteRelease release;
  std::vector<TargetRow> rows;  // every operator_codes entry, in model order
  int misses = 0;               // builtin codes the release cannot resolve
  bool loads() const { return misses == 0; }
};

TargetRuntimeResult CheckTargetRuntime(const Model& model, TfLiteRelease release);

// For tools that take --target_runtime: "" when the model's builtin ops all resolve on
// `target`, otherwise one line such as
//   "model needs TFLite 2.9 or newer (CONV_2D v6); on 2.8 2 operator codes do not resolve:
//    CONV_2D v6, CAST v4 (inspect_ops --target_runtime=2.8 explains)".
// Fails (kInvalidArgument, listing the known releases) for a release not in the table.
Result<std::string> TargetRuntimeWarning(const Model& model, std::string_view target);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_CHECK_H_
