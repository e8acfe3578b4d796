#include "resolver/resolver_check.h"
#include "resolver/runtime_versions.h"

#include "fmt/format.h"
#include "util/strings.h"

namespace tflite_inspect {

const char* OpResolveStatusName(OpResolveStatus s) {
  switch (s) {
    case OpResolveStatus::kOk: return "ok";
    case OpResolveStatus::kVersionNotSupported: return "version not supported";
    case OpResolveStatus::kNotImplemented: return "op not implemented";
    case OpResolveStatus::kCustomUnresolved: return "custom op unresolved";
    case OpResolveStatus::kFlexOp: return "Flex op";
  }
  return "?";
}

std::string BuiltinMissMessage(int32_t op, int version) {
  if (!IsKnownBuiltinOp(op)) {
    return fmt::format("Op builtin_code out of range: {}. Are you using old TFLite binary with "
                       "newer model?", op);
  }
  return fmt::format("Didn't find op for builtin opcode '{}' version '{}'. An older version of "
                     "this builtin might be supported. Are you using an old TFLite binary with "
                     "a newer model?", BuiltinOpName(op), version);
}

namespace {

// TFLite treats every custom op whose name starts with "Flex" as a Select TF op.
bool IsFlexOp(const std::string& name) { return name.rfind("Flex", 0) == 0; }

void Classify(const OpCatalog& catalog, OpResolveRow* row) {
  const OpCode& c = row->code;
  if (!c.is_custom()) {
    std::set<int> versions = catalog.BuiltinVersions(c.builtin);
    row->registered = VersionRangeString(versions);
    if (versions.count(c.version)) {
      row->status = OpResolveStatus::kOk;
      return;
    }
    row->tflite_message = BuiltinMissMessage(c.builtin, c.version);
    if (versions.empty()) {
      row->status = OpResolveStatus::kNotImplemented;
      row->hint = IsKnownBuiltinOp(c.builtin)
                      ? "this runtime has no kernel for the op at any version"
                      : "the op code is newer than this runtime's schema";
    } else {
      row->status = OpResolveStatus::kVersionNotSupported;
      row->hint = fmt::format("registered {}; the model needs v{}: convert with an older "
                              "TensorFlow or use a newer runtime", row->registered, c.version);
    }
    // The coverage table of `inspect_ops --list_ops`: does TFLite's resolver have it?
    static const OpCatalog tflite = TfLiteBuiltinResolverCatalog(KnownReleases().back());
    if (tflite.HasBuiltin(c.builtin, c.version)) {
      const std::string why = CoverageGapReason(c.builtin);
      row->hint += fmt::format(" (TFLite {}'s BuiltinOpResolver has v{}; here: {})",
                               KnownReleases().back().Name(), c.version,
                               why.empty() ? "not implemented yet" : why);
    }
    return;
  }
  std::set<int> versions = catalog.CustomVersions(c.custom_name);
  row->registered = VersionRangeString(versions);
  if (versions.count(c.version)) {
    row->status = OpResolveStatus::kOk;
    return;
  }
  if (IsFlexOp(c.custom_name)) {
    row->status = OpResolveStatus::kFlexOp;
    row->tflite_message =
        "Select TensorFlow op(s), included in the given model, is(are) not supported by this "
        "interpreter. Make sure you apply/link the Flex delegate before inference. For the "
        "Android, it can be resolved by adding \"org.tensorflow:tensorflow-lite-select-tf-ops\" "
        "dependency. See instructions: https://www.tensorflow.org/lite/guide/ops_select";
    row->hint = fmt::format("'{}' is a TensorFlow op run by the Flex (Select TF ops) delegate; "
                            "this runtime has no Flex delegate",
                            c.custom_name.substr(4));
    return;
  }
  row->status = OpResolveStatus::kCustomUnresolved;
  row->tflite_message = fmt::format("Encountered unresolved custom op: {}.", c.custom_name);
  if (!versions.empty()) {
    row->hint = fmt::format("'{}' is registered as {}, but the model needs v{}", c.custom_name,
                            row->registered, c.version);
    return;
  }
  row->suggestions = NearMatches(c.custom_name, catalog.CustomNames());
  row->hint = row->suggestions.empty()
                  ? "register it with MutableOpResolver::AddCustom(\"" + c.custom_name +
                        "\", ...) or load a custom op library"
                  : "no op of that name; did you mean '" + row->suggestions.front() + "'?";
}

}  // namespace

ResolverCheckResult CheckResolver(const Model& model, const OpCatalog& catalog) {
  ResolverCheckResult result;
  const auto& codes = model.op_codes();
  for (size_t i = 0; i < codes.size(); ++i) {
    OpResolveRow row{static_cast<int>(i), codes[i], OpResolveStatus::kOk, "", "", {}, "", {}};
    Classify(catalog, &row);
    result.rows.push_back(std::move(row));
  }
  const auto* subgraphs = model.fb()->subgraphs();
  for (size_t s = 0; s < subgraphs->size(); ++s) {
    const auto* ops = subgraphs->Get(s)->operators();
    if (ops == nullptr) continue;
    for (size_t o = 0; o < ops->size(); ++o) {
      result.rows[ops->Get(o)->opcode_index()].nodes.push_back(
          {static_cast<int>(s), static_cast<int>(o)});
    }
  }
  for (const auto& r : result.rows) result.misses += r.status != OpResolveStatus::kOk;
  const auto& min_rt = model.min_runtime_version();
  if (min_rt && CompareVersions(*min_rt, kTfLiteCompatibleVersion) > 0) {
    result.runtime_warning = fmt::format(
        "the model's metadata says it needs TFLite {} or newer; this runtime follows TFLite {}",
        *min_rt, kTfLiteCompatibleVersion);
  }
  return result;
}

}  // namespace tflite_inspect
