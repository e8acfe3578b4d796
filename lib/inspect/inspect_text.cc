// Plain-text rendering of an inspect_ops report, for terminals and logs.
#include <algorithm>
#include <map>
#include <set>

#include "fmt/format.h"
#include "fmt/ranges.h"
#include "inspect/inspect_report.h"
#include "inspect/node_attributes.h"
#include "resolver/runtime_versions.h"

namespace tflite_inspect {
namespace {

std::string TensorRef(const SubgraphInfo& sg, int32_t id) {
  if (id < 0) return "-";  // optional input left out
  const TensorInfo& t = sg.tensors[id];
  return fmt::format("{}:{}{}", id, t.dtype, ShapeString(t.shape));
}

std::string TensorRefs(const SubgraphInfo& sg, const std::vector<int32_t>& ids) {
  std::vector<std::string> parts;
  for (int32_t id : ids) parts.push_back(TensorRef(sg, id));
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string NodeList(const OpCodeUsage& u, size_t num_subgraphs) {
  if (num_subgraphs == 1) {
    std::vector<int> ids;
    for (const auto& n : u.nodes) ids.push_back(n.node);
    return CompressIds(ids);
  }
  std::string out;
  for (size_t s = 0; s < num_subgraphs; ++s) {
    std::vector<int> ids;
    for (const auto& n : u.nodes) {
      if (n.subgraph == static_cast<int>(s)) ids.push_back(n.node);
    }
    if (ids.empty()) continue;
    if (!out.empty()) out += "; ";
    out += fmt::format("sg{}: {}", s, CompressIds(ids));
  }
  return out;
}

std::string Quantization(const TensorInfo& t) {
  if (t.quant_kind == "per-tensor") {
    return fmt::format("scale={:.6g} zp={}", t.scales[0],
                       t.zero_points.empty() ? 0 : t.zero_points[0]);
  }
  if (t.quant_kind == "per-channel") {
    auto [lo, hi] = std::minmax_element(t.scales.begin(), t.scales.end());
    return fmt::format("{} scales on dim {} [{:.3g}..{:.3g}]", t.scales.size(),
                       t.quantized_dimension, *lo, *hi);
  }
  return "-";
}

void AppendSummary(const ModelReport& r, std::string* out) {
  auto line = [&](const char* key, const std::string& value) {
    *out += fmt::format("  {:<18}{}\n", key, value);
  };
  *out += fmt::format("Model {}\n", r.path);
  line("file size", fmt::format("{} bytes", r.file_size));
  line("schema version", std::to_string(r.schema_version));
  line("description", r.description.empty() ? "-" : r.description);
  line("subgraphs", std::to_string(r.subgraphs.size()));
  line("buffers", std::to_string(r.num_buffers));
  if (r.signatures.empty()) line("signature defs", "-");
  for (const auto& s : r.signatures) {
    std::vector<std::string> ins, outs;
    for (const auto& [name, t] : s.inputs) ins.push_back(fmt::format("{}={}", name, t));
    for (const auto& [name, t] : s.outputs) outs.push_back(fmt::format("{}={}", name, t));
    line("signature def", fmt::format("'{}' on subgraph {}: inputs {}; outputs {}", s.key,
                                      s.subgraph, fmt::join(ins, ", "), fmt::join(outs, ", ")));
  }
  line("metadata", r.metadata_names.empty() ? "-" : fmt::format("{}", fmt::join(r.metadata_names, ", ")));
  line("min runtime", r.min_runtime_version ? *r.min_runtime_version + " (metadata)" : "- (no metadata)");
}

// The model's inputs and outputs (the first subgraph's), as a user feeds and reads them.
void AppendModelIo(const ModelReport& r, std::string* out) {
  if (r.subgraphs.empty()) return;
  const SubgraphInfo& sg = r.subgraphs[0];
  for (const auto* ids : {&sg.inputs, &sg.outputs}) {
    *out += ids == &sg.inputs ? "\nInputs\n" : "Outputs\n";
    for (int32_t id : *ids) {
      if (id < 0 || static_cast<size_t>(id) >= sg.tensors.size()) continue;
      const TensorInfo& t = sg.tensors[id];
      std::string shape = t.dtype + ShapeString(t.shape);
      if (t.shape_signature && *t.shape_signature != t.shape) {
        shape += " (signature " + ShapeString(*t.shape_signature) + ")";
      }
      const std::string quant = Quantization(t);
      *out += fmt::format("  {:>5}  {:<32} {}{}\n", id, t.name, shape,
                          quant == "-" ? "" : "  " + quant);
    }
  }
}

// "stride 2x2, padding SAME, activation RELU6; 1.2M MACs, 3.5 kB parameters" or "".
std::string NodeDetails(const OperatorInfo& op) {
  std::vector<std::string> attrs, cost;
  for (const auto& [key, value] : op.attributes) attrs.push_back(key + " " + value);
  if (op.macs > 0) cost.push_back(HumanCount(op.macs) + " MACs");
  if (op.macs < 0) cost.push_back("MACs unknown (dynamic shape)");
  if (op.param_bytes > 0) cost.push_back(HumanBytes(op.param_bytes) + " parameters");
  std::string text = fmt::format("{}", fmt::join(attrs, ", "));
  if (!cost.empty()) text += (text.empty() ? "" : "; ") + fmt::format("{}", fmt::join(cost, ", "));
  return text;
}

void AppendOpCodes(const ModelReport& r, std::string* out) {
  *out += fmt::format("\nOperator codes ({})\n", r.op_codes.size());
  *out += fmt::format("  {:>4}  {:<32} {:>7} {:>6}  {}\n", "idx", "op", "version", "uses",
                      r.subgraphs.size() > 1 ? "per subgraph / nodes" : "nodes");
  for (const auto& u : r.op_codes) {
    std::string name = u.code.name() + (u.code.is_custom() ? " (custom)" : "");
    std::string per = r.subgraphs.size() > 1
                          ? fmt::format("[{}] ", fmt::join(u.uses_per_subgraph, ","))
                          : "";
    *out += fmt::format("  {:>4}  {:<32} {:>7} {:>6}  {}{}\n", u.index, name, u.code.version,
                        u.total_uses, per, NodeList(u, r.subgraphs.size()));
  }
}

void AppendSubgraph(const SubgraphInfo& sg, const TextOptions& options, std::string* out) {
  *out += fmt::format("\nSubgraph {}{}: {} tensors, {} operators; inputs [{}], outputs [{}]; "
                      "{} MACs, {} of parameters\n",
                      sg.index, sg.name.empty() ? "" : " '" + sg.name + "'", sg.tensors.size(),
                      sg.operators.size(), fmt::join(sg.inputs, ","), fmt::join(sg.outputs, ","),
                      HumanCount(sg.macs), HumanBytes(sg.param_bytes));
  for (const auto& op : sg.operators) {
    *out += fmt::format("  {:>5}  {:<28} in: {}  out: {}\n", op.index,
                        fmt::format("{} v{}", op.op, op.version), TensorRefs(sg, op.inputs),
                        TensorRefs(sg, op.outputs));
    const std::string details = NodeDetails(op);
    if (!details.empty()) *out += fmt::format("  {:>5}  {:<28} {}\n", "", "", details);
  }
  if (!options.tensors) return;
  *out += fmt::format("\n  Tensors of subgraph {}\n", sg.index);
  // The name goes last: converter names are long and would break the columns.
  *out += fmt::format("  {:>5}  {:<18} {:<18} {:<8} {:<32} {:>10}  {:<18} {}\n", "id", "shape",
                      "shape_signature", "dtype", "quantization", "bytes", "flags", "name");
  for (const auto& t : sg.tensors) {
    std::string flags;
    if (t.is_variable) flags += "variable ";
    if (t.is_sparse) flags += "sparse ";
    if (t.buffer_bytes > 0) flags += "constant";
    while (!flags.empty() && flags.back() == ' ') flags.pop_back();
    *out += fmt::format("  {:>5}  {:<18} {:<18} {:<8} {:<32} {:>10}  {:<18} {}\n", t.id,
                        ShapeString(t.shape),
                        t.shape_signature ? ShapeString(*t.shape_signature) : "-", t.dtype,
                        Quantization(t), t.buffer_bytes, flags.empty() ? "-" : flags, t.name);
  }
}

}  // namespace

std::string FormatReportText(const ModelReport& r, const TextOptions& options) {
  std::string out;
  AppendSummary(r, &out);
  AppendModelIo(r, &out);
  AppendOpCodes(r, &out);
  for (const auto& sg : r.subgraphs) AppendSubgraph(sg, options, &out);
  if (!r.refusals.empty()) {
    out += fmt::format("\nTFLite would refuse to load this model ({} problem{}):\n",
                       r.refusals.size(), r.refusals.size() == 1 ? "" : "s");
    for (const auto& p : r.refusals) out += "  " + p + "\n";
  }
  return out;
}

std::string FormatResolverCheckText(const ResolverCheckResult& check) {
  std::string out = fmt::format("\nResolver check (TFLite {} op versions): {} of {} operator "
                                "codes resolve\n", kTfLiteCompatibleVersion,
                                check.rows.size() - check.misses, check.rows.size());
  out += fmt::format("  {:>4}  {:<32} {:>7}  {:<22} {:<12} {}\n", "idx", "op", "version",
                     "status", "registered", "nodes");
  for (const auto& row : check.rows) {
    std::vector<int> ids;
    for (const auto& n : row.nodes) ids.push_back(n.node);
    out += fmt::format("  {:>4}  {:<32} {:>7}  {:<22} {:<12} {}\n", row.opcode_index,
                       row.code.name(), row.code.version, OpResolveStatusName(row.status),
                       row.registered.empty() ? "-" : row.registered, CompressIds(ids));
  }
  for (const auto& row : check.rows) {
    if (row.status == OpResolveStatus::kOk) continue;
    out += fmt::format("\n  [{}] {}: {}\n    TFLite: {}\n    hint: {}\n", row.opcode_index,
                       row.code.display(), OpResolveStatusName(row.status), row.tflite_message,
                       row.hint);
  }
  if (check.runtime_warning) out += "\n  warning: " + *check.runtime_warning + "\n";
  return out;
}

std::string FormatOpCatalogText(const OpCatalog& catalog) {
  // Next to each op: what TFLite's BuiltinOpResolver of the newest known release
  // registers, and the versions this resolver lacks with the reason.
  const TfLiteRelease release = KnownReleases().back();
  const OpCatalog tflite = TfLiteBuiltinResolverCatalog(release);
  std::set<int32_t> ops;
  for (const auto& [op, v] : catalog.builtins()) ops.insert(op);
  for (const auto& [op, v] : tflite.builtins()) ops.insert(op);
  std::map<std::string, std::string> by_name;  // alphabetical, for people
  int missing = 0;
  for (int32_t op : ops) {
    const std::set<int> ours = catalog.BuiltinVersions(op), theirs = tflite.BuiltinVersions(op);
    std::set<int> gap;
    for (int v : theirs) {
      if (!ours.count(v)) gap.insert(v);
    }
    std::string line = fmt::format("  {:<32} {:<14} {:<14}", BuiltinOpName(op),
                                   ours.empty() ? "-" : VersionRangeString(ours),
                                   theirs.empty() ? "-" : VersionRangeString(theirs));
    if (!gap.empty()) {
      ++missing;
      const std::string why = CoverageGapReason(op);
      line += fmt::format(" lacks {}: {}", VersionRangeString(gap),
                          why.empty() ? "not implemented" : why);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    by_name[BuiltinOpName(op)] = line;
  }
  std::string out = fmt::format(
      "Builtin ops: {} here, {} in TFLite {}'s BuiltinOpResolver; {} with versions missing here\n",
      catalog.builtins().size(), tflite.builtins().size(), release.Name(), missing);
  out += fmt::format("  {:<32} {:<14} {}\n", "op", "here", "TFLite " + release.Name());
  for (const auto& [name, line] : by_name) out += line + "\n";
  std::set<std::string> customs;
  for (const auto& name : catalog.CustomNames()) customs.insert(name);
  for (const auto& name : tflite.CustomNames()) customs.insert(name);
  if (!customs.empty()) {
    out += fmt::format("Custom ops\n");
    for (const auto& name : customs) {
      const std::set<int> ours = catalog.CustomVersions(name), theirs = tflite.CustomVersions(name);
      std::string line = fmt::format("  {:<32} {:<14} {:<14}", name,
                                     ours.empty() ? "-" : VersionRangeString(ours),
                                     theirs.empty() ? "-" : VersionRangeString(theirs));
      if (!theirs.empty() && ours.empty()) {
        const std::string why = CoverageGapReason(-1, name);
        line += " lacks v1: " + (why.empty() ? std::string("not implemented") : why);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace tflite_inspect
