// The JSON form of a DelegateReport; docs/delegate_report.md documents the schema
// (bump kSchemaVersion when a field changes meaning or goes away).
#include "report/delegate_report_format.h"

namespace tflite_inspect {
namespace {

using nlohmann::json;

constexpr int kSchemaVersion = 1;

const char* StatusName(TfLiteStatus s) {
  switch (s) {
    case kTfLiteOk:
      return "applied";
    case kTfLiteDelegateError:
      return "failed";
    case kTfLiteApplicationError:
      return "not_applied";
    default:
      return "error";
  }
}

json EndpointJson(const Endpoint& e) {
  switch (e.kind) {
    case Endpoint::kGraphInput:
      return {{"kind", "graph_input"}};
    case Endpoint::kGraphOutput:
      return {{"kind", "graph_output"}};
    case Endpoint::kCpuNode:
      return {{"kind", "cpu"}, {"node", e.id}};
    case Endpoint::kPartition:
      return {{"kind", "partition"}, {"partition", e.id}};
  }
  return {{"kind", "unknown"}};
}

json LeftJson(const NodeLeft& l) {
  return {{"node", l.node},
          {"delegate", l.delegate},
          {"kind", LeftReasonName(l.kind)},
          {"reason", l.reason}};
}

json SubgraphJson(const DelegateReport& r, const SubgraphReport& sr) {
  json nodes = json::array();
  for (const NodeEntry& e : sr.nodes) {
    json n = {{"node", e.node},
              {"op", e.op},
              {"version", e.version},
              {"inputs", e.inputs},
              {"outputs", e.outputs}};
    if (e.partition >= 0) {
      n["owner"] = r.delegates[sr.partitions[e.partition].delegate].name;
      n["delegate"] = sr.partitions[e.partition].delegate;
      n["partition"] = e.partition;
    } else {
      n["owner"] = "cpu";
      n["delegate"] = nullptr;
      n["partition"] = nullptr;
      n["folded"] = e.folded;
      json reasons = json::array();
      for (const NodeLeft& l : e.reasons) reasons.push_back(LeftJson(l));
      n["cpu_reasons"] = reasons;
    }
    nodes.push_back(n);
  }
  json partitions = json::array();
  for (size_t i = 0; i < sr.partitions.size(); ++i) {
    const PartitionEntry& p = sr.partitions[i];
    partitions.push_back({{"index", i},
                          {"delegate", p.delegate},
                          {"delegate_name", r.delegates[p.delegate].name},
                          {"ordinal", p.ordinal},
                          {"kernel_node", p.kernel_node},
                          {"size", p.nodes.size()},
                          {"nodes", p.nodes},
                          {"input_tensors", p.input_tensors},
                          {"output_tensors", p.output_tensors},
                          {"bytes_in", p.bytes_in},
                          {"bytes_out", p.bytes_out}});
  }
  json delegates = json::array();
  for (const DelegateInSubgraph& d : sr.delegates) {
    json left = json::array();
    for (const NodeLeft& l : d.left) left.push_back(LeftJson(l));
    json dropped = json::array();
    for (const auto& dp : d.dropped)
      dropped.push_back({{"nodes", dp.nodes}, {"reason", dp.reason}});
    delegates.push_back({{"delegate", d.delegate},
                         {"name", r.delegates[d.delegate].name},
                         {"status", StatusName(d.status)},
                         {"live", d.live},
                         {"error", d.error},
                         {"has_reasons", d.has_reasons},
                         {"limits", d.limits},
                         {"partitions", d.partitions},
                         {"claimed", d.claimed},
                         {"left", left},
                         {"dropped", dropped},
                         {"log", d.log}});
  }
  json tensors = json::array();
  for (const BoundaryTensor& b : sr.boundary) {
    json peers = json::array();
    for (const Endpoint& e : b.peers) peers.push_back(EndpointJson(e));
    tensors.push_back({{"tensor", b.tensor},
                       {"name", b.name},
                       {"dtype", TfLiteTypeGetName(b.type)},
                       {"shape", b.shape},
                       {"bytes", b.bytes},
                       {"dynamic", b.dynamic},
                       {"direction", b.into ? "in" : "out"},
                       {"partition", b.partition},
                       {"peers", peers}});
  }
  return {{"index", sr.index},
          {"name", sr.name},
          {"summary", sr.summary},
          {"num_nodes", sr.nodes.size()},
          {"cpu_nodes", sr.cpu_nodes},
          {"inputs", sr.inputs},
          {"outputs", sr.outputs},
          {"execution_plan", sr.execution_plan},
          {"nodes", nodes},
          {"partitions", partitions},
          {"delegates", delegates},
          {"boundary", {{"bytes", sr.boundary_bytes}, {"tensors", tensors}}}};
}

}  // namespace

nlohmann::json DelegateReportToJson(const DelegateReport& r) {
  json delegates = json::array();
  for (size_t i = 0; i < r.delegates.size(); ++i) {
    const DelegateEntry& d = r.delegates[i];
    delegates.push_back({{"index", i},
                         {"label", d.label},
                         {"name", d.name},
                         {"status", StatusName(d.status)},
                         {"error", d.error}});
  }
  json subgraphs = json::array();
  for (const SubgraphReport& sr : r.subgraphs) subgraphs.push_back(SubgraphJson(r, sr));
  return {{"schema_version", kSchemaVersion},
          {"model", r.model},
          {"summary", r.summary},
          {"total_nodes", r.total_nodes},
          {"cpu_nodes", r.cpu_nodes},
          {"boundary_bytes", r.boundary_bytes},
          {"delegates", delegates},
          {"subgraphs", subgraphs}};
}

}  // namespace tflite_inspect
