#include "resolver/runtime_versions.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <utility>

#include "fmt/format.h"
#include "model/op_code.h"
#include "resolver/runtime_versions_table.h"

namespace tflite_inspect {
namespace {

using runtime_table::kOpVersions;

struct Version3 {
  int major = 0, minor = 0, patch = 0;
};

// "2.14.4" -> {2, 14, 4}; "v2.8" -> {2, 8, 0}. False for anything else.
bool ParseDotted(std::string_view text, Version3* out) {
  if (!text.empty() && (text[0] == 'v' || text[0] == 'V')) text.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  int n = 0;
  size_t i = 0;
  while (n < 3) {
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    long value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      value = value * 10 + (text[i] - '0');
      if (value > 100000) return false;
      ++i;
    }
    parts[n++] = static_cast<int>(value);
    if (i == text.size()) break;
    if (text[i] != '.') return false;
    ++i;
  }
  if (i != text.size() || n < 2) return false;
  *out = {parts[0], parts[1], parts[2]};
  return true;
}

using PairKey = std::pair<int32_t, int>;

// The table indexed once; built on first use (function-local static: thread-safe).
struct Index {
  std::map<PairKey, const char*> since;
  std::map<PairKey, const char*> not_in_resolver;
};

const Index& GetIndex() {
  static const Index* index = [] {
    auto* idx = new Index;
    for (size_t i = 0; i < runtime_table::kNumOpVersions; ++i) {
      idx->since[{kOpVersions[i].op, kOpVersions[i].version}] = kOpVersions[i].since;
    }
    for (size_t i = 0; i < runtime_table::kNumNotInBuiltinResolver; ++i) {
      const auto& e = runtime_table::kNotInBuiltinResolver[i];
      idx->not_in_resolver[{e.op, e.version}] = e.why;
    }
    return idx;
  }();
  return *index;
}

}  // namespace

std::string TfLiteRelease::Name() const { return fmt::format("{}.{}", major, minor); }

const std::vector<TfLiteRelease>& KnownReleases() {
  static const std::vector<TfLiteRelease> releases(
      runtime_table::kReleases, runtime_table::kReleases + runtime_table::kNumReleases);
  return releases;
}

std::string KnownReleaseList() {
  std::string out;
  for (const auto& r : KnownReleases()) out += (out.empty() ? "" : ", ") + r.Name();
  return out;
}

Result<TfLiteRelease> ParseRelease(std::string_view text) {
  Version3 v;
  if (!ParseDotted(text, &v)) {
    return InvalidArgument(fmt::format("'{}' is not a TFLite release (expected e.g. 2.8 or "
                                       "2.8.0); known releases: {}",
                                       text, KnownReleaseList()));
  }
  TfLiteRelease r{v.major, v.minor};
  for (const auto& known : KnownReleases()) {
    if (known == r) return r;
  }
  return InvalidArgument(fmt::format("unknown TFLite release '{}'; known releases: {}", text,
                                     KnownReleaseList()));
}

std::optional<TfLiteRelease> FirstReleaseAtLeast(std::string_view upstream) {
  Version3 v;
  if (!ParseDotted(upstream, &v)) return std::nullopt;
  for (const auto& r : KnownReleases()) {
    // r stands for r.0: it includes x.y.z only when (r.major, r.minor, 0) >= (x, y, z).
    if (r.major != v.major ? r.major > v.major
                           : (r.minor != v.minor ? r.minor > v.minor : v.patch == 0)) {
      return r;
    }
  }
  return std::nullopt;
}

PairInfo LookupPair(int32_t builtin_op, int version) {
  const Index& idx = GetIndex();
  PairInfo info;
  auto it = idx.since.find({builtin_op, version});
  if (it == idx.since.end()) return info;
  info.upstream = it->second;
  if (auto ex = idx.not_in_resolver.find({builtin_op, version}); ex != idx.not_in_resolver.end()) {
    info.status = PairStatus::kNotInResolver;
    info.note = ex->second;
    return info;
  }
  info.first_release = FirstReleaseAtLeast(info.upstream);
  if (!info.first_release) {
    info.status = PairStatus::kUnreleased;
    info.note = fmt::format("TFLite's map dates it {}, after the newest release in the "
                            "table ({})", info.upstream, KnownReleases().back().Name());
    return info;
  }
  info.status = PairStatus::kReleased;
  Version3 v;
  if (ParseDotted(info.upstream, &v) && v.patch != 0 &&
      !(info.first_release->major == v.major && info.first_release->minor == v.minor)) {
    info.note = fmt::format("TFLite's map says {}, a patch release; {}.{}.0 does not have it, "
                            "so the first minor release that does is {}",
                            info.upstream, v.major, v.minor, info.first_release->Name());
  }
  return info;
}

std::set<int> RegisteredVersions(int32_t builtin_op, TfLiteRelease release) {
  std::set<int> versions;
  for (size_t i = 0; i < runtime_table::kNumOpVersions; ++i) {
    const auto& row = kOpVersions[i];
    if (row.op != builtin_op) continue;
    PairInfo info = LookupPair(row.op, row.version);
    if (info.status == PairStatus::kReleased && *info.first_release <= release) {
      versions.insert(row.version);
    }
  }
  return versions;
}

int32_t SchemaMaxCode(TfLiteRelease release) {
  int32_t max_code = 0;
  for (size_t i = 0; i < runtime_table::kNumOpVersions; ++i) {
    const auto& row = kOpVersions[i];
    if (row.op <= max_code) continue;
    PairInfo info = LookupPair(row.op, row.version);
    if (info.status == PairStatus::kReleased && *info.first_release <= release) {
      max_code = row.op;
    }
  }
  return max_code;
}

bool IsBuiltinResolverCustomOp(const std::string& name) {
  for (size_t i = 0; i < runtime_table::kNumBuiltinResolverCustomOps; ++i) {
    if (name == runtime_table::kBuiltinResolverCustomOps[i]) return true;
  }
  return false;
}

OpCatalog TfLiteBuiltinResolverCatalog(TfLiteRelease release) {
  OpCatalog catalog;
  std::set<int32_t> ops;
  for (size_t i = 0; i < runtime_table::kNumOpVersions; ++i) ops.insert(kOpVersions[i].op);
  for (int32_t op : ops) {
    for (int v : RegisteredVersions(op, release)) catalog.AddBuiltin(op, v, v);
  }
  for (size_t i = 0; i < runtime_table::kNumBuiltinResolverCustomOps; ++i) {
    catalog.AddCustom(runtime_table::kBuiltinResolverCustomOps[i], 1, 1);
  }
  return catalog;
}

std::string CoverageGapReason(int32_t builtin_op, const std::string& custom_name) {
  for (size_t i = 0; i < runtime_table::kNumCoverageGaps; ++i) {
    const auto& g = runtime_table::kCoverageGaps[i];
    if (custom_name.empty() ? g.custom == nullptr && g.op == builtin_op
                            : g.custom != nullptr && custom_name == g.custom) {
      return g.why;
    }
  }
  return "";
}

int32_t EffectiveBuiltinCode(TfLiteRelease release, int32_t deprecated_builtin_code,
                             int32_t builtin_code) {
  // The int32 builtin_code field arrived with schema 3a in TFLite 2.4.
  if (release < TfLiteRelease{2, 4}) return deprecated_builtin_code;
  return std::max(deprecated_builtin_code, builtin_code);
}

std::string ReleaseMissMessage(TfLiteRelease release, int32_t code, int version) {
  if (code > SchemaMaxCode(release) || code < 0) {
    return fmt::format("Op builtin_code out of range: {}. Are you using old TFLite binary "
                       "with newer model?", code);
  }
  // tensorflow/lite/core/api/op_resolver.cc (GetRegistrationFromOpCode): the hint about
  // older versions arrived in 2.5; 2.4.1 still printed the bare line.
  if (release < TfLiteRelease{2, 5}) {
    return fmt::format("Didn't find op for builtin opcode '{}' version '{}'",
                       BuiltinOpName(code), version);
  }
  return fmt::format("Didn't find op for builtin opcode '{}' version '{}'. An older version of "
                     "this builtin might be supported. Are you using an old TFLite binary with "
                     "a newer model?", BuiltinOpName(code), version);
}

const std::vector<OpVersionFact>& OpVersionFacts() {
  static const std::vector<OpVersionFact> facts = [] {
    std::vector<OpVersionFact> out;
    for (size_t i = 0; i < runtime_table::kNumOpVersions; ++i) {
      out.push_back({kOpVersions[i].op, kOpVersions[i].version, kOpVersions[i].since});
    }
    return out;
  }();
  return facts;
}

}  // namespace tflite_inspect
