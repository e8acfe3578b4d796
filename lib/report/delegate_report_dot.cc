// The Graphviz form of a DelegateReport: one box per op of the model, filled with the
// colour of the delegate that runs it (grey: the CPU), each partition a dashed cluster,
// graph inputs and outputs as ellipses. Edges that cross a CPU<->delegate boundary are
// red and labelled with the tensor and its bytes. Constant-only nodes (fp16 DEQUANTIZE,
// DENSIFY of weights) are not drawn: their readers' labels and tooltips name them.
#include <fmt/format.h>

#include <map>
#include <set>

#include "report/delegate_report_format.h"

namespace tflite_inspect {
namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// The partition that runs a node; -1: the CPU.
int Owner(const NodeEntry& e) { return e.partition; }

void AppendSubgraph(const DelegateReport& r, const SubgraphReport& sr, std::string* out) {
  const std::string id = fmt::format("s{}", sr.index);
  *out += fmt::format("  subgraph cluster_{} {{\n    label=\"subgraph {}{}: {}\";\n", id, sr.index,
                      sr.name.empty() ? "" : " (" + Escape(sr.name) + ")", Escape(sr.summary));
  // Partitions as clusters.
  for (size_t pi = 0; pi < sr.partitions.size(); ++pi) {
    const PartitionEntry& p = sr.partitions[pi];
    *out += fmt::format(
        "    subgraph cluster_{}_p{} {{\n      label=\"{} partition {} (DELEGATE node {}): {} "
        "bytes in, {} bytes out\"; style=dashed; color=\"{}\";\n",
        id, pi, Escape(r.delegates[p.delegate].name), p.ordinal, p.kernel_node, p.bytes_in,
        p.bytes_out, OwnerColour(p.delegate));
    for (int n : p.nodes) {
      const NodeEntry* e = sr.FindNode(n);
      if (e == nullptr || !DrawnOnReaders(sr, *e)) *out += fmt::format("      {}_n{};\n", id, n);
    }
    *out += "    }\n";
  }
  const auto folded_inputs = ConstantInputsByReader(sr);
  for (const NodeEntry& e : sr.nodes) {
    if (DrawnOnReaders(sr, e)) continue;
    std::string tip =
        e.partition >= 0
            ? fmt::format("{} partition {}", r.delegates[sr.partitions[e.partition].delegate].name,
                          sr.partitions[e.partition].ordinal)
            : std::string("CPU") + (e.folded ? " (folded)" : "");
    for (const NodeLeft& l : e.reasons)
      tip += "\n" + r.delegates[l.delegate].name + ": " + l.reason;
    std::string label = fmt::format("#{} {} v{}", e.node, e.op, e.version);
    if (auto f = folded_inputs.find(e.node); f != folded_inputs.end()) {
      label += "\n+ " + ConstantSummary(f->second);
      for (const NodeEntry* c : f->second) tip += fmt::format("\nreads #{} {} (constant)", c->node, c->op);
    }
    const int owner = e.partition >= 0 ? sr.partitions[e.partition].delegate : -1;
    *out += fmt::format("    {}_n{} [label=\"{}\", fillcolor=\"{}\", tooltip=\"{}\"];\n", id,
                        e.node, Escape(label), OwnerColour(owner), Escape(tip));
  }
  std::map<int, const NodeEntry*> producer;
  for (const NodeEntry& e : sr.nodes) {
    for (int t : e.outputs) producer[t] = &e;
  }
  // Red with the bytes where the edge crosses a boundary.
  auto edge = [&](const std::string& from, int from_owner, const std::string& to, int to_owner,
                  int t) {
    const long long bytes = EdgeCrossingBytes(sr, t, from_owner, to_owner);
    if (bytes >= 0) {
      *out += fmt::format(
          "    {} -> {} [label=\"t{}: {} B\", color=\"#d62828\", "
          "fontcolor=\"#d62828\", penwidth=2];\n",
          from, to, t, bytes);
    } else {
      *out += fmt::format("    {} -> {};\n", from, to);
    }
  };
  const std::set<int> graph_inputs(sr.inputs.begin(), sr.inputs.end());
  for (int t : sr.inputs) {
    *out +=
        fmt::format("    {}_in{} [shape=ellipse, style=solid, label=\"input t{}\"];\n", id, t, t);
  }
  for (int t : sr.outputs) {
    *out +=
        fmt::format("    {}_out{} [shape=ellipse, style=solid, label=\"output t{}\"];\n", id, t, t);
  }
  for (const NodeEntry& e : sr.nodes) {
    std::set<int> seen;
    const std::string to = fmt::format("{}_n{}", id, e.node);
    for (int t : e.inputs) {
      if (t < 0 || !seen.insert(t).second) continue;
      if (auto p = producer.find(t); p != producer.end()) {
        if (DrawnOnReaders(sr, *p->second)) continue;  // shown in the reader's label
        edge(fmt::format("{}_n{}", id, p->second->node), Owner(*p->second), to, Owner(e), t);
      } else if (graph_inputs.count(t)) {
        edge(fmt::format("{}_in{}", id, t), -1, to, Owner(e), t);
      }
    }
  }
  for (int t : sr.outputs) {
    auto p = producer.find(t);
    const std::string to = fmt::format("{}_out{}", id, t);
    if (p != producer.end() && !DrawnOnReaders(sr, *p->second)) {
      edge(fmt::format("{}_n{}", id, p->second->node), Owner(*p->second), to, -1, t);
    } else if (graph_inputs.count(t)) {
      edge(fmt::format("{}_in{}", id, t), -1, to, -1, t);
    }
  }
  *out += "  }\n";
}

}  // namespace

std::string FormatDelegateReportDot(const DelegateReport& r) {
  std::string out = "digraph delegate_report {\n";
  out += fmt::format("  label=\"{}\\n{}\"; labelloc=t; fontname=\"Helvetica\";\n", Escape(r.model),
                     Escape(r.summary));
  out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#757575\"];\n";
  // Legend: one swatch per delegate, and the CPU.
  out += "  subgraph cluster_legend {\n    label=\"legend\";\n";
  out += fmt::format("    legend_cpu [label=\"CPU\", fillcolor=\"{}\"];\n", OwnerColour(-1));
  for (size_t i = 0; i < r.delegates.size(); ++i) {
    out += fmt::format("    legend_d{} [label=\"{}\", fillcolor=\"{}\"];\n", i,
                       Escape(r.delegates[i].name), OwnerColour(static_cast<int>(i)));
  }
  // Invisible edges keep the swatches in order: CPU, then the delegates as applied.
  if (!r.delegates.empty()) {
    out += "    { rank=same; legend_cpu";
    for (size_t i = 0; i < r.delegates.size(); ++i) out += fmt::format(" -> legend_d{}", i);
    out += " [style=invis]; }\n";
  }
  out += "  }\n";
  for (const SubgraphReport& sr : r.subgraphs) AppendSubgraph(r, sr, &out);
  out += "}\n";
  return out;
}

}  // namespace tflite_inspect
