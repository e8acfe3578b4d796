// The text form of a DelegateReport, and the helpers every formatter shares.
#include <fmt/format.h>

#include <algorithm>

#include "report/delegate_report_format.h"
#include "util/strings.h"

namespace tflite_inspect {
namespace {

// "#3 CONV_2D v1"
std::string NodeLabel(const SubgraphReport& sr, int node) {
  const NodeEntry* e = sr.FindNode(node);
  return e == nullptr ? fmt::format("#{}", node)
                      : fmt::format("#{} {} v{}", e->node, e->op, e->version);
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

// Items joined by ", " and wrapped at about 100 columns, each line indented.
void AppendWrapped(const std::vector<std::string>& items, const std::string& indent,
                   std::string* out) {
  std::string line = indent;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() > indent.size() && line.size() + 1 + item.size() > 100) {
      *out += line + "\n";
      line = indent;
    }
    if (line.size() > indent.size()) line += " ";
    line += item;
  }
  if (line.size() > indent.size()) *out += line + "\n";
}

void AppendDelegate(const DelegateReport& r, const SubgraphReport& sr, const DelegateInSubgraph& d,
                    std::string* out) {
  const std::string& name = r.delegates[d.delegate].name;
  if (!d.live) {
    *out += fmt::format("  {}: {}\n", name,
                        d.status == kTfLiteApplicationError ? "not applied" : "failed to apply");
    for (const std::string& line : SplitLines(d.error)) *out += "    " + line + "\n";
    *out += "    running on the CPU\n";
    return;
  }
  *out += fmt::format(
      "  {}: {} claimed in {}\n", name,
      d.claimed.size() == 1 ? "1 node" : fmt::format("{} nodes", d.claimed.size()),
      d.partitions.size() == 1 ? "1 partition" : fmt::format("{} partitions", d.partitions.size()));
  if (!d.limits.empty()) *out += "    limits: " + d.limits + "\n";
  for (const std::string& line : d.log) *out += "    log: " + line + "\n";
  for (int pi : d.partitions) {
    const PartitionEntry& p = sr.partitions[pi];
    *out +=
        fmt::format("    partition {} -> DELEGATE node {}: {} node(s), {} bytes in, {} bytes out\n",
                    p.ordinal, p.kernel_node, p.nodes.size(), p.bytes_in, p.bytes_out);
    std::vector<std::string> items;
    for (int n : p.nodes) items.push_back(NodeLabel(sr, n));
    AppendWrapped(items, "      ", out);
  }
  if (!d.dropped.empty()) {
    *out += fmt::format("    dropped by the limits ({}):\n", d.dropped.size());
    for (const auto& dp : d.dropped) {
      std::vector<std::string> items;
      std::string line = "      " + dp.reason + ":";
      for (int n : dp.nodes) {
        items.push_back(NodeLabel(sr, n));
        line += (n == dp.nodes.front() ? " " : ", ") + items.back();
      }
      if (line.size() <= 100) {
        *out += line + "\n";
      } else {
        *out += "      " + dp.reason + ":\n";
        AppendWrapped(items, "        ", out);
      }
    }
  }
  // Grouped by reason, in the order each reason first appears.
  *out += fmt::format("    not taken ({}):\n", d.left.size());
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const NodeLeft& l : d.left) {
    // Dropped partitions each have their own reason, listed above.
    const std::string key = l.kind == LeftReason::kDropped
                                ? "in a partition dropped by limits (listed above)"
                                : l.reason;
    auto g =
        std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == key; });
    if (g == groups.end()) g = groups.insert(groups.end(), {key, {}});
    g->second.push_back(NodeLabel(sr, l.node));
  }
  for (const auto& [reason, nodes] : groups) {
    *out += fmt::format("      {} ({}):\n", reason, nodes.size());
    AppendWrapped(nodes, "        ", out);
  }
}

void AppendSubgraph(const DelegateReport& r, const SubgraphReport& sr, std::string* out) {
  *out += fmt::format("\nsubgraph {}{}: {}\n", sr.index,
                      sr.name.empty() ? "" : " (" + sr.name + ")", sr.summary);
  for (const DelegateInSubgraph& d : sr.delegates) AppendDelegate(r, sr, d, out);
  if (sr.cpu_nodes == 0) {
    *out += "  CPU nodes: none\n";
  } else {
    const bool any_folded =
        std::any_of(sr.nodes.begin(), sr.nodes.end(), [](const NodeEntry& e) { return e.folded; });
    *out +=
        fmt::format("  CPU nodes ({}){}:\n", sr.cpu_nodes,
                    any_folded ? "; (folded): constant inputs, runs once in AllocateTensors" : "");
  }
  std::vector<std::string> items;
  for (const NodeEntry& e : sr.nodes) {
    if (e.partition < 0) items.push_back(NodeLabel(sr, e.node) + (e.folded ? " (folded)" : ""));
  }
  AppendWrapped(items, "    ", out);
  *out +=
      fmt::format("  boundary tensors, copied on every inference ({}, {} bytes):\n",
                  sr.boundary.size() == 1 ? "1 copy" : fmt::format("{} copies", sr.boundary.size()),
                  sr.boundary_bytes);
  int last = -1;
  for (const BoundaryTensor& b : sr.boundary) {
    const PartitionEntry& p = sr.partitions[b.partition];
    if (b.partition != last) {
      *out += fmt::format("    {} partition {} (DELEGATE node {}):\n", r.delegates[p.delegate].name,
                          p.ordinal, p.kernel_node);
      last = b.partition;
    }
    std::string peers;
    for (const Endpoint& e : b.peers) {
      peers += (peers.empty() ? "" : ", ") + DescribeEndpoint(r, sr, e);
    }
    *out +=
        fmt::format("      {} tensor {} '{}' {}: {} bytes{}, {} {}\n",
                    b.into ? "in: " : "out:", b.tensor, b.name, DescribeTensorType(b), b.bytes,
                    b.dynamic ? " (dynamic: size at run time)" : "", b.into ? "from" : "to", peers);
  }
}

}  // namespace

std::string DescribeEndpoint(const DelegateReport& report, const SubgraphReport& sr,
                             const Endpoint& e) {
  switch (e.kind) {
    case Endpoint::kGraphInput:
      return "graph input";
    case Endpoint::kGraphOutput:
      return "graph output";
    case Endpoint::kCpuNode: {
      const NodeEntry* n = sr.FindNode(e.id);
      return fmt::format("CPU #{}{}", e.id, n != nullptr ? " " + n->op : "");
    }
    case Endpoint::kPartition: {
      const PartitionEntry& p = sr.partitions[e.id];
      return fmt::format("{} partition {}", report.delegates[p.delegate].name, p.ordinal);
    }
  }
  return "?";
}

std::string DescribeTensorType(const BoundaryTensor& t) {
  std::string shape;
  for (size_t i = 0; i < t.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(t.shape[i]);
  return ToLower(TfLiteTypeGetName(t.type)) + "[" + shape + "]";
}

bool DrawnOnReaders(const SubgraphReport& sr, const NodeEntry& e) {
  if (!e.constant_only) return false;
  for (int t : e.outputs) {
    if (std::find(sr.outputs.begin(), sr.outputs.end(), t) != sr.outputs.end()) return false;
  }
  return true;
}

std::map<int, std::vector<const NodeEntry*>> ConstantInputsByReader(const SubgraphReport& sr) {
  std::map<int, const NodeEntry*> folded_producer;  // tensor -> constant-only node writing it
  for (const NodeEntry& e : sr.nodes) {
    if (!DrawnOnReaders(sr, e)) continue;
    for (int t : e.outputs) folded_producer[t] = &e;
  }
  std::map<int, std::vector<const NodeEntry*>> by_reader;
  for (const NodeEntry& e : sr.nodes) {
    if (DrawnOnReaders(sr, e)) continue;
    for (int t : e.inputs) {
      auto p = folded_producer.find(t);
      if (p == folded_producer.end()) continue;
      auto& list = by_reader[e.node];
      if (std::find(list.begin(), list.end(), p->second) == list.end()) list.push_back(p->second);
    }
  }
  return by_reader;
}

std::string ConstantSummary(const std::vector<const NodeEntry*>& folded) {
  if (folded.empty()) return "";
  std::vector<std::string> ops;
  for (const NodeEntry* e : folded) {
    if (std::find(ops.begin(), ops.end(), e->op) == ops.end()) ops.push_back(e->op);
  }
  std::string names;
  for (const auto& op : ops) names += (names.empty() ? "" : ", ") + op;
  return fmt::format("{} constant{} ({})", folded.size(), folded.size() == 1 ? "" : "s", names);
}

long long EdgeCrossingBytes(const SubgraphReport& sr, int tensor, int from, int to) {
  if (from == to) return -1;
  for (const BoundaryTensor& b : sr.boundary) {
    if (b.tensor != tensor) continue;
    if ((to >= 0 && b.into && b.partition == to) || (to < 0 && !b.into && b.partition == from)) {
      return static_cast<long long>(b.bytes);
    }
  }
  return -1;
}

const char* OwnerColour(int index) {
  static const char* kPalette[] = {"#8ecae6", "#ffb703", "#90be6d", "#f28482",
                                   "#b39ddb", "#f6bd60", "#4cc9f0", "#e5989b"};
  if (index < 0) return "#e0e0e0";
  return kPalette[index % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string DescribeDelegateStatus(const DelegateEntry& d) {
  if (d.status == kTfLiteOk) return "applied";
  const std::string what = d.status == kTfLiteApplicationError ? "not applied" : "failed to apply";
  return what + ", running on the CPU: " + d.error;
}

std::string FormatDelegateReportText(const DelegateReport& r) {
  std::string out = fmt::format("model: {}\n", r.model);
  if (r.delegates.empty()) {
    out += "delegates: none (give delegate flags, e.g. --test_delegate_ops=CONV_2D)\n";
  } else {
    out += "delegates, in the order applied:\n";
    for (const DelegateEntry& d : r.delegates) {
      std::string status = DescribeDelegateStatus(d);
      for (char& c : status) {
        if (c == '\n') c = ' ';
      }
      out += fmt::format("  {}{}: {}\n", d.name, d.label != d.name ? " [" + d.label + "]" : "",
                         status);
    }
  }
  out += "summary: " + r.summary + "\n";
  for (const SubgraphReport& sr : r.subgraphs) AppendSubgraph(r, sr, &out);
  return out;
}

}  // namespace tflite_inspect
