#include "resolver/runtime_check.h"

#include <algorithm>

#include "fmt/format.h"
#include "resolver/op_catalog.h"
#include "util/strings.h"

namespace tflite_inspect {
namespace {

bool IsDottedVersion(const std::string& s) {
  bool digit = false, dot = false;
  for (char c : s) {
    if (c == '.') {
      if (!digit) return false;
      dot = true;
      digit = false;
    } else if (c >= '0' && c <= '9') {
      digit = true;
    } else {
      return false;
    }
  }
  return dot && digit;
}

// TFLite treats every custom op whose name starts with "Flex" as a Select TF op.
bool IsFlex(const OpCode& c) { return c.is_custom() && c.custom_name.rfind("Flex", 0) == 0; }

// Every operator_codes entry with its pair facts and the operators using it. TFLite's
// InterpreterBuilder resolves every entry, used or not, so unused entries count too.
std::vector<OpRequirement> Requirements(const Model& model) {
  std::vector<OpRequirement> reqs;
  const auto& codes = model.op_codes();
  for (size_t i = 0; i < codes.size(); ++i) {
    OpRequirement r;
    r.opcode_index = static_cast<int>(i);
    r.code = codes[i];
    if (!r.code.is_custom()) r.pair = LookupPair(r.code.builtin, r.code.version);
    reqs.push_back(std::move(r));
  }
  const auto* subgraphs = model.fb()->subgraphs();
  for (size_t s = 0; s < subgraphs->size(); ++s) {
    const auto* ops = subgraphs->Get(s)->operators();
    if (ops == nullptr) continue;
    for (size_t o = 0; o < ops->size(); ++o) {
      reqs[ops->Get(o)->opcode_index()].nodes.push_back(
          {static_cast<int>(s), static_cast<int>(o)});
    }
  }
  return reqs;
}

std::string PairList(const std::vector<OpRequirement>& reqs) {
  std::string out;
  for (const auto& r : reqs) {
    out += (out.empty() ? "" : ", ") + fmt::format("{} v{}", r.code.name(), r.code.version);
  }
  return out;
}

std::string WithUpstream(const std::vector<OpRequirement>& reqs) {
  std::string out;
  for (const auto& r : reqs) {
    out += (out.empty() ? "" : ", ") +
           fmt::format("{} v{} ({})", r.code.name(), r.code.version, r.pair.upstream);
  }
  return out;
}

// Builtin pairs dated later than `upstream` in the map ("" = the newest entry only).
std::vector<OpRequirement> DatedAfter(const MinRuntimeResult& r, const std::string& upstream) {
  std::vector<OpRequirement> out;
  for (const auto& q : r.all) {
    if (q.code.is_custom() || q.pair.status != PairStatus::kReleased) continue;
    if (upstream.empty() ? q.pair.upstream == r.newest_upstream
                         : CompareVersions(q.pair.upstream, upstream) > 0) {
      out.push_back(q);
    }
  }
  return out;
}

void CompareWithMetadata(MinRuntimeResult* r) {
  if (!r->metadata) {
    r->comparison = MetadataComparison::kNoMetadata;
    r->explanation = "the model has no min_runtime_version metadata to compare with";
    return;
  }
  r->metadata_release = FirstReleaseAtLeast(*r->metadata);
  if (r->metadata->empty()) {
    r->comparison = MetadataComparison::kUnparseable;
    r->explanation = "the metadata is empty: the converter found none of the model's ops in "
                     "its map";
    return;
  }
  if (!IsDottedVersion(*r->metadata)) {
    r->comparison = MetadataComparison::kUnparseable;
    r->explanation = fmt::format("the metadata '{}' is not a TFLite version", *r->metadata);
    return;
  }
  const std::string meta_name =
      r->metadata_release ? r->metadata_release->Name() : "newer than " +
                                                             KnownReleases().back().Name();
  if (!r->min_release) {
    r->comparison = MetadataComparison::kOpsStricter;
    r->explanation = fmt::format(
        "the ops are stricter: the metadata says {} ({}), but no release in the table "
        "registers {}", *r->metadata, meta_name, PairList(r->blockers));
    return;
  }
  // Exact comparison of the two version strings; releases are named at minor granularity.
  const int cmp = CompareVersions(r->newest_upstream.empty() ? "0" : r->newest_upstream,
                                  *r->metadata);
  const bool same_minor = r->metadata_release && *r->metadata_release == *r->min_release;
  const std::string resolution =
      same_minor ? fmt::format(" (both fall in {} at the table's minor-release resolution)",
                               r->min_release->Name())
                 : "";
  if (cmp == 0) {
    r->comparison = MetadataComparison::kAgree;
    r->explanation = fmt::format("they agree: the metadata {} is the newest map entry over the "
                                 "ops ({})", *r->metadata, WithUpstream(DatedAfter(*r, "")));
    return;
  }
  if (cmp > 0) {
    r->comparison = MetadataComparison::kOpsStricter;
    r->explanation = fmt::format(
        "the ops are stricter: the metadata says {} ({}), but {} {} dated later in TFLite's "
        "map, so the model needs {}{}. The converter writes the newest map entry over the "
        "operators and skips pairs missing from its own map: an older converter, or a tool "
        "that edited the model, wrote the metadata",
        *r->metadata, meta_name, WithUpstream(DatedAfter(*r, *r->metadata)),
        DatedAfter(*r, *r->metadata).size() == 1 ? "is" : "are", r->min_release->Name(),
        resolution);
    return;
  }
  r->comparison = MetadataComparison::kMetadataStricter;
  r->explanation = fmt::format(
      "the metadata is stricter: it asks for {} ({}), while every builtin op of the model is "
      "registered from {} on (newest map entry over the ops: {}){}. The converter writes the "
      "newest map entry over the model's operators, so the metadata came from a different "
      "graph (ops removed or rewritten after conversion) or from a converter whose map dated "
      "these ops differently",
      *r->metadata, meta_name, r->min_release->Name(),
      r->newest_upstream.empty() ? "none" : r->newest_upstream, resolution);
}

}  // namespace

const char* MetadataComparisonName(MetadataComparison c) {
  switch (c) {
    case MetadataComparison::kNoMetadata: return "no_metadata";
    case MetadataComparison::kUnparseable: return "unparseable";
    case MetadataComparison::kAgree: return "agree";
    case MetadataComparison::kOpsStricter: return "ops_stricter";
    case MetadataComparison::kMetadataStricter: return "metadata_stricter";
  }
  return "?";
}

const char* TargetStatusName(TargetStatus s) {
  switch (s) {
    case TargetStatus::kOk: return "ok";
    case TargetStatus::kVersionNotRegistered: return "version not registered";
    case TargetStatus::kOpNotRegistered: return "op not registered";
    case TargetStatus::kOutOfRange: return "op code out of range";
    case TargetStatus::kAppProvided: return "custom op (app provides)";
    case TargetStatus::kFlex: return "Flex op (needs Flex delegate)";
  }
  return "?";
}

MinRuntimeResult MinRuntime(const Model& model) {
  MinRuntimeResult r;
  r.all = Requirements(model);
  r.metadata = model.min_runtime_version();
  const TfLiteRelease oldest = KnownReleases().front();
  TfLiteRelease needed = oldest;
  for (const auto& q : r.all) {
    if (q.code.is_custom()) {
      if (!IsBuiltinResolverCustomOp(q.code.custom_name)) r.app_ops.push_back(q);
      continue;
    }
    if (q.pair.status != PairStatus::kReleased) {
      r.blockers.push_back(q);
      continue;
    }
    needed = std::max(needed, *q.pair.first_release);
    if (r.newest_upstream.empty() || CompareVersions(q.pair.upstream, r.newest_upstream) > 0) {
      r.newest_upstream = q.pair.upstream;
    }
  }
  if (r.blockers.empty()) {
    r.min_release = needed;
    r.or_older = needed == oldest &&
                 (r.newest_upstream.empty() || CompareVersions(r.newest_upstream, "1.14.0") < 0);
    for (const auto& q : r.all) {
      if (q.code.is_custom() || *q.pair.first_release != needed) continue;
      // At the oldest release every pair qualifies; name only the newest ones.
      if (needed == oldest && q.pair.upstream != r.newest_upstream) continue;
      r.forcing.push_back(q);
    }
  }
  CompareWithMetadata(&r);
  return r;
}

TargetRuntimeResult CheckTargetRuntime(const Model& model, TfLiteRelease release) {
  TargetRuntimeResult result;
  result.release = release;
  const auto* fb_codes = model.fb()->operator_codes();
  for (auto& q : Requirements(model)) {
    TargetRow row;
    row.opcode_index = q.opcode_index;
    row.code = q.code;
    row.pair = q.pair;
    row.nodes = std::move(q.nodes);
    if (row.code.is_custom()) {
      if (IsFlex(row.code)) {
        row.status = TargetStatus::kFlex;
      } else if (!IsBuiltinResolverCustomOp(row.code.custom_name)) {
        row.status = TargetStatus::kAppProvided;
      }
      result.rows.push_back(std::move(row));
      continue;
    }
    const auto* raw = fb_codes->Get(row.opcode_index);
    row.code_read = EffectiveBuiltinCode(release, raw->deprecated_builtin_code(),
                                         raw->builtin_code());
    std::set<int> versions = row.code_read > SchemaMaxCode(release)
                                 ? std::set<int>()
                                 : RegisteredVersions(row.code_read, release);
    row.registered = VersionRangeString(versions);
    if (row.code_read == row.code.builtin && versions.count(row.code.version)) {
      result.rows.push_back(std::move(row));
      continue;
    }
    row.tflite_message = ReleaseMissMessage(release, row.code_read, row.code.version);
    if (row.code_read > SchemaMaxCode(release) || row.code_read < 0) {
      row.status = TargetStatus::kOutOfRange;
    } else {
      row.status = versions.empty() ? TargetStatus::kOpNotRegistered
                                    : TargetStatus::kVersionNotRegistered;
    }
    ++result.misses;
    result.rows.push_back(std::move(row));
  }
  return result;
}

Result<std::string> TargetRuntimeWarning(const Model& model, std::string_view target) {
  Result<TfLiteRelease> release = ParseRelease(target);
  if (!release.ok()) return release.status();
  TargetRuntimeResult check = CheckTargetRuntime(model, *release);
  if (check.loads()) return std::string();
  std::string list;
  for (const auto& row : check.rows) {
    if (row.status == TargetStatus::kOk || row.status == TargetStatus::kAppProvided ||
        row.status == TargetStatus::kFlex) {
      continue;
    }
    list += (list.empty() ? "" : ", ") + fmt::format("{} v{}", row.code.name(), row.code.version);
  }
  MinRuntimeResult min = MinRuntime(model);
  std::string needs =
      min.min_release
          ? fmt::format("model needs TFLite {} or newer ({})", min.min_release->Name(),
                        PairList(min.forcing))
          : fmt::format("no TFLite release in the table runs this model ({})",
                        PairList(min.blockers));
  return fmt::format("{}; on {} {} operator code{} {} not resolve: {} (inspect_ops "
                     "--target_runtime={} explains)",
                     needs, release->Name(), check.misses, check.misses == 1 ? "" : "s",
                     check.misses == 1 ? "does" : "do", list, release->Name());
}

}  // namespace tflite_inspect
