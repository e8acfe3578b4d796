#include "inspect/runtime_report.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"
#include "inspect/inspect_report.h"

namespace tflite_inspect {
namespace {

using nlohmann::json;

// "0, 2-4" for one subgraph; "sg0: 0-1; sg2: 5" when the nodes span several.
std::string NodesText(const std::vector<NodeRef>& nodes) {
  if (nodes.empty()) return "none (unused entry)";
  std::set<int> subgraphs;
  for (const auto& n : nodes) subgraphs.insert(n.subgraph);
  std::string out;
  for (int s : subgraphs) {
    std::vector<int> ids;
    for (const auto& n : nodes) {
      if (n.subgraph == s) ids.push_back(n.node);
    }
    if (!out.empty()) out += "; ";
    if (subgraphs.size() > 1 || s != 0) out += fmt::format("sg{}: ", s);
    out += CompressIds(ids);
  }
  return out;
}

// Breaks `text` at spaces into lines of at most 100 columns, indenting continuation lines.
std::string Wrap(const std::string& text, size_t indent) {
  const size_t width = 100 - indent;
  std::string out, line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(pos, end - pos);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    pos = end + 1;
  }
  return out + line;
}

json NodesJson(const std::vector<NodeRef>& nodes) {
  json arr = json::array();
  for (const auto& n : nodes) arr.push_back({{"subgraph", n.subgraph}, {"node", n.node}});
  return arr;
}

json ReleaseOrNull(const std::optional<TfLiteRelease>& r) {
  return r ? json(r->Name()) : json(nullptr);
}

json RequirementJson(const OpRequirement& q) {
  json j = {{"opcode_index", q.opcode_index},
            {"op", q.code.name()},
            {"version", q.code.version},
            {"custom", q.code.is_custom()},
            {"nodes", NodesJson(q.nodes)}};
  if (!q.code.is_custom()) {
    j["since"] = q.pair.upstream;
    j["first_release"] = ReleaseOrNull(q.pair.first_release);
    j["note"] = q.pair.note;
  }
  return j;
}

std::string ForcingLine(const OpRequirement& q) {
  std::string line = fmt::format("[{}] {} v{} (TFLite's map: {}), nodes {}", q.opcode_index,
                                 q.code.name(), q.code.version, q.pair.upstream,
                                 NodesText(q.nodes));
  if (!q.pair.note.empty()) line += "\n" + std::string(23, ' ') + "note: " + q.pair.note;
  return line;
}

std::string BlockerReason(const OpRequirement& q) {
  if (!q.pair.note.empty()) return q.pair.note;
  return IsKnownBuiltinOp(q.code.builtin)
             ? "not in TFLite's op_version_map: no release registers this version"
             : "builtin code unknown to TFLite's schema";
}

}  // namespace

std::string FormatMinRuntimeText(const MinRuntimeResult& r) {
  const auto& releases = KnownReleases();
  std::string out = fmt::format("\nMinimum TFLite runtime (stock BuiltinOpResolver, releases "
                                "{} ... {})\n", releases.front().Name(),
                                releases.back().Name());
  auto line = [&](const char* key, const std::string& value) {
    out += fmt::format("  {:<21}{}\n", key, value);
  };
  if (r.min_release) {
    std::string value = r.min_release->Name();
    if (r.or_older) {
      value += fmt::format(" or older (the table starts at {}; newest map entry over the ops: "
                           "{})", releases.front().Name(),
                           r.newest_upstream.empty() ? "none" : r.newest_upstream);
    }
    line("oldest release", value);
    for (size_t i = 0; i < r.forcing.size(); ++i) {
      line(i == 0 ? "forced by" : "", ForcingLine(r.forcing[i]));
    }
  } else {
    line("oldest release", "none: no release in the table resolves every builtin op");
    for (size_t i = 0; i < r.blockers.size(); ++i) {
      const auto& q = r.blockers[i];
      line(i == 0 ? "blocked by" : "",
           fmt::format("[{}] {} v{}: {}; nodes {}", q.opcode_index, q.code.name(),
                       q.code.version, BlockerReason(q), NodesText(q.nodes)));
    }
  }
  line("metadata", r.metadata ? (r.metadata->empty() ? "\"\"" : *r.metadata) +
                                    (r.metadata_release ? " (release " +
                                                              r.metadata_release->Name() + ")"
                                                        : "")
                              : "-");
  line("comparison", Wrap(r.explanation, 23));
  if (!r.app_ops.empty()) {
    std::string names;
    for (const auto& q : r.app_ops) names += (names.empty() ? "" : ", ") + q.code.display();
    line("not decided here", Wrap(names + ": custom/Flex ops that no stock release registers; "
                                          "the app must provide them on any release", 23));
  }
  return out;
}

json MinRuntimeToJson(const MinRuntimeResult& r) {
  json releases = json::array();
  for (const auto& rel : KnownReleases()) releases.push_back(rel.Name());
  json forcing = json::array(), blockers = json::array(), app = json::array();
  for (const auto& q : r.forcing) forcing.push_back(RequirementJson(q));
  for (const auto& q : r.blockers) {
    json j = RequirementJson(q);
    j["reason"] = BlockerReason(q);
    blockers.push_back(j);
  }
  for (const auto& q : r.app_ops) {
    json j = RequirementJson(q);
    j["flex"] = q.code.custom_name.rfind("Flex", 0) == 0;
    app.push_back(j);
  }
  return {{"releases", releases},
          {"min_release", ReleaseOrNull(r.min_release)},
          {"or_older", r.or_older},
          {"newest_map_entry", r.newest_upstream},
          {"forcing", forcing},
          {"blockers", blockers},
          {"app_provided", app},
          {"metadata", r.metadata ? json(*r.metadata) : json(nullptr)},
          {"metadata_release", ReleaseOrNull(r.metadata_release)},
          {"comparison", MetadataComparisonName(r.comparison)},
          {"explanation", r.explanation}};
}

std::string FormatTargetRuntimeText(const TargetRuntimeResult& r) {
  const std::string rel = r.release.Name();
  std::string out = fmt::format(
      "\nTarget TFLite {}: {} of {} operator codes {}{}\n", rel, r.misses, r.rows.size(),
      r.misses == 1 ? "does not resolve" : "do not resolve",
      r.loads() ? "; the builtin ops load" : "; the model will not load there");
  size_t name_width = 32;
  for (const auto& row : r.rows) name_width = std::max(name_width, row.code.name().size());
  out += fmt::format("  {:>4}  {:<{}} {:>7}  {:<30} {:<10} {:<8} {}\n", "idx", "op", name_width,
                     "version", "status", rel + " has", "first", "nodes");
  for (const auto& row : r.rows) {
    std::string first = row.code.is_custom() ? "-"
                        : row.pair.first_release ? row.pair.first_release->Name()
                                                 : "none";
    out += fmt::format("  {:>4}  {:<{}} {:>7}  {:<30} {:<10} {:<8} {}\n", row.opcode_index,
                       row.code.name(), name_width, row.code.version, TargetStatusName(row.status),
                       row.code.is_custom() ? "-" : (row.registered.empty() ? "-" : row.registered),
                       first, NodesText(row.nodes));
  }
  for (const auto& row : r.rows) {
    if (row.tflite_message.empty()) continue;
    std::string first =
        row.pair.first_release
            ? fmt::format("{} (TFLite's map: {})", row.pair.first_release->Name(),
                          row.pair.upstream)
            : fmt::format("none in the table{}",
                          row.pair.note.empty() ? "" : " (" + row.pair.note + ")");
    out += fmt::format("\n  [{}] {}: {}\n    TFLite {} prints: {}\n    first release that "
                       "registers it: {}\n    nodes: {}\n",
                       row.opcode_index, row.code.display(), TargetStatusName(row.status), rel,
                       row.tflite_message, first, NodesText(row.nodes));
    if (row.pair.first_release && !row.pair.note.empty()) {
      out += "    note: " + row.pair.note + "\n";
    }
  }
  std::string app;
  for (const auto& row : r.rows) {
    if (row.status == TargetStatus::kAppProvided || row.status == TargetStatus::kFlex) {
      app += (app.empty() ? "" : ", ") + row.code.display();
    }
  }
  if (!app.empty()) {
    out += "\n  " + Wrap(fmt::format("not checked: {}: no stock release registers them; the app "
                                     "must (see --check_resolver)", app), 4) + "\n";
  }
  return out;
}

json TargetRuntimeToJson(const TargetRuntimeResult& r) {
  json ops = json::array();
  for (const auto& row : r.rows) {
    json j = {{"opcode_index", row.opcode_index},
              {"op", row.code.name()},
              {"version", row.code.version},
              {"custom", row.code.is_custom()},
              {"status", TargetStatusName(row.status)},
              {"tflite_message", row.tflite_message},
              {"nodes", NodesJson(row.nodes)}};
    if (!row.code.is_custom()) {
      j["code_read"] = row.code_read;
      j["registered"] = row.registered;
      j["first_release"] = ReleaseOrNull(row.pair.first_release);
      j["since"] = row.pair.upstream;
      j["note"] = row.pair.note;
    }
    ops.push_back(j);
  }
  return {{"release", r.release.Name()},
          {"loads", r.loads()},
          {"misses", r.misses},
          {"ops", ops}};
}

}  // namespace tflite_inspect
