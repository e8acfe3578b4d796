// JSON rendering of an inspect_ops report. Field meanings: docs/inspect_ops.md.
#include <set>

#include "inspect/inspect_report.h"
#include "resolver/runtime_versions.h"

namespace tflite_inspect {
namespace {

using nlohmann::json;

json NodesJson(const std::vector<NodeRef>& nodes) {
  json arr = json::array();
  for (const auto& n : nodes) arr.push_back({{"subgraph", n.subgraph}, {"node", n.node}});
  return arr;
}

json TensorJson(const TensorInfo& t) {
  json j = {{"id", t.id},
            {"name", t.name},
            {"shape", t.shape},
            {"shape_signature", t.shape_signature ? json(*t.shape_signature) : json(nullptr)},
            {"dtype", t.dtype},
            {"buffer", t.buffer},
            {"buffer_bytes", t.buffer_bytes},
            {"is_variable", t.is_variable},
            {"is_sparse", t.is_sparse},
            {"has_rank", t.has_rank}};
  json q = {{"kind", t.quant_kind}};
  if (t.quant_kind != "none") {
    q["scale"] = t.scales;
    q["zero_point"] = t.zero_points;
    q["quantized_dimension"] = t.quantized_dimension;
  }
  j["quantization"] = q;
  return j;
}

}  // namespace

std::string DumpJson(const json& j) {
  // Names in a model are arbitrary bytes; invalid UTF-8 becomes U+FFFD instead of
  // making dump() throw.
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

json ReportToJson(const ModelReport& r, const TextOptions& options) {
  json j;
  j["model"] = {{"path", r.path},
                {"file_size", r.file_size},
                {"schema_version", r.schema_version},
                {"description", r.description},
                {"num_subgraphs", r.subgraphs.size()},
                {"num_buffers", r.num_buffers},
                {"metadata", r.metadata_names},
                {"min_runtime_version",
                 r.min_runtime_version ? json(*r.min_runtime_version) : json(nullptr)}};
  json sigs = json::array();
  for (const auto& s : r.signatures) {
    json ins = json::object(), outs = json::object();
    for (const auto& [name, t] : s.inputs) ins[name] = t;
    for (const auto& [name, t] : s.outputs) outs[name] = t;
    sigs.push_back({{"key", s.key}, {"subgraph", s.subgraph}, {"inputs", ins}, {"outputs", outs}});
  }
  j["model"]["signature_defs"] = sigs;
  // The model's inputs and outputs (the first subgraph's), in full.
  for (const char* key : {"inputs", "outputs"}) {
    json tensors = json::array();
    if (!r.subgraphs.empty()) {
      const SubgraphInfo& sg = r.subgraphs[0];
      for (int32_t id : key == std::string("inputs") ? sg.inputs : sg.outputs) {
        if (id >= 0 && static_cast<size_t>(id) < sg.tensors.size()) tensors.push_back(TensorJson(sg.tensors[id]));
      }
    }
    j["model"][key] = tensors;
  }
  json codes = json::array();
  for (const auto& u : r.op_codes) {
    codes.push_back({{"index", u.index},
                     {"op", u.code.name()},
                     {"builtin_code", u.code.builtin},
                     {"custom", u.code.is_custom()},
                     {"version", u.code.version},
                     {"uses", u.total_uses},
                     {"uses_per_subgraph", u.uses_per_subgraph},
                     {"nodes", NodesJson(u.nodes)}});
  }
  j["operator_codes"] = codes;
  json sgs = json::array();
  for (const auto& sg : r.subgraphs) {
    json ops = json::array();
    for (const auto& op : sg.operators) {
      ops.push_back({{"index", op.index},
                     {"opcode_index", op.opcode_index},
                     {"op", op.op},
                     {"version", op.version},
                     {"custom", op.custom},
                     {"inputs", op.inputs},
                     {"outputs", op.outputs}});
      json attributes = json::object();
      for (const auto& [key, value] : op.attributes) attributes[key] = value;
      ops.back()["attributes"] = attributes;
      ops.back()["macs"] = op.macs >= 0 ? json(op.macs) : json(nullptr);
      ops.back()["param_bytes"] = op.param_bytes;
    }
    json s = {{"index", sg.index},
              {"name", sg.name},
              {"inputs", sg.inputs},
              {"outputs", sg.outputs},
              {"num_tensors", sg.tensors.size()},
              {"macs", sg.macs},
              {"param_bytes", sg.param_bytes},
              {"operators", ops}};
    // Operators name tensors by id; shapes and dtypes of the tensors they touch are
    // always included so that consumers need not ask for --tensors.
    json tensors = json::array();
    for (const auto& t : sg.tensors) {
      if (options.tensors) {
        tensors.push_back(TensorJson(t));
      } else {
        tensors.push_back({{"id", t.id}, {"shape", t.shape}, {"dtype", t.dtype}});
      }
    }
    s["tensors"] = tensors;
    sgs.push_back(s);
  }
  j["subgraphs"] = sgs;
  j["refusals"] = r.refusals;
  return j;
}

json ResolverCheckToJson(const ResolverCheckResult& check) {
  json rows = json::array();
  for (const auto& row : check.rows) {
    rows.push_back({{"opcode_index", row.opcode_index},
                    {"op", row.code.name()},
                    {"version", row.code.version},
                    {"custom", row.code.is_custom()},
                    {"status", OpResolveStatusName(row.status)},
                    {"registered", row.registered},
                    {"tflite_message", row.tflite_message},
                    {"suggestions", row.suggestions},
                    {"hint", row.hint},
                    {"nodes", NodesJson(row.nodes)}});
  }
  return {{"tflite_version", kTfLiteCompatibleVersion},
          {"misses", check.misses},
          {"ops", rows},
          {"runtime_warning",
           check.runtime_warning ? json(*check.runtime_warning) : json(nullptr)}};
}

json OpCatalogToJson(const OpCatalog& catalog) {
  // Each op with the versions here and in TFLite's BuiltinOpResolver (newest known
  // release), and the versions missing here with the reason (as --list_ops prints them).
  const TfLiteRelease release = KnownReleases().back();
  const OpCatalog tflite = TfLiteBuiltinResolverCatalog(release);
  auto row = [](const std::set<int>& ours, const std::set<int>& theirs, const std::string& why) {
    std::set<int> missing;
    for (int v : theirs) {
      if (!ours.count(v)) missing.insert(v);
    }
    json j = {{"versions", ours}, {"tflite_versions", theirs}, {"missing", missing}};
    if (!missing.empty()) j["reason"] = why.empty() ? "not implemented" : why;
    return j;
  };
  std::set<int32_t> ops;
  for (const auto& [op, v] : catalog.builtins()) ops.insert(op);
  for (const auto& [op, v] : tflite.builtins()) ops.insert(op);
  json builtin = json::array(), custom = json::array();
  for (int32_t op : ops) {
    json j = row(catalog.BuiltinVersions(op), tflite.BuiltinVersions(op), CoverageGapReason(op));
    j["op"] = BuiltinOpName(op);
    j["builtin_code"] = op;
    builtin.push_back(j);
  }
  std::set<std::string> names;
  for (const auto& name : catalog.CustomNames()) names.insert(name);
  for (const auto& name : tflite.CustomNames()) names.insert(name);
  for (const auto& name : names) {
    json j = row(catalog.CustomVersions(name), tflite.CustomVersions(name),
                 CoverageGapReason(-1, name));
    j["op"] = name;
    custom.push_back(j);
  }
  return {{"tflite_version", kTfLiteCompatibleVersion},
          {"tflite_resolver_release", release.Name()},
          {"builtin", builtin},
          {"custom", custom}};
}

}  // namespace tflite_inspect
