#include "report/delegate_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "delegate/partition_helper.h"
#include "runtime/delegation_record.h"
#include "tools/session.h"
#include "tensorflow/lite/core/subgraph.h"

namespace tflite_inspect {
namespace {

using Record = DelegationRecord;

std::string Plural(size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

bool IsConstant(const TfLiteTensor& t) {
  return t.allocation_type == kTfLiteMmapRo || t.allocation_type == kTfLitePersistentRo;
}

std::vector<int> ToVector(const TfLiteIntArray* a) {
  return a == nullptr ? std::vector<int>{} : std::vector<int>(a->data, a->data + a->size);
}

// The delegate index of `record`, adding an entry for a delegate nobody told us about
// (e.g. one given to InterpreterBuilder::AddDelegate).
int DelegateIndex(const Record& record, const std::vector<ReportedDelegate>& given,
                  DelegateReport* report) {
  for (size_t i = 0; i < given.size(); ++i) {
    if (given[i].delegate == record.delegate) return static_cast<int>(i);
  }
  for (size_t i = given.size(); i < report->delegates.size(); ++i) {
    if (report->delegates[i].name == record.name) return static_cast<int>(i);
  }
  DelegateEntry e;
  e.label = record.name.empty() ? "unknown delegate" : record.name;
  e.name = e.label;
  report->delegates.push_back(e);
  return static_cast<int>(report->delegates.size()) - 1;
}

// Records whose partitions are in the final plan: for each delegate the subgraph holds
// now, its last successful record (a failure elsewhere may have undone earlier ones).
std::set<const Record*> LiveRecords(const tflite::Subgraph& sg) {
  std::set<const Record*> live;
  for (const TfLiteDelegate* d : sg.delegates_applied()) {
    const Record* last = nullptr;
    for (const auto& r : sg.delegation_records()) {
      if (r->delegate == d && r->status == kTfLiteOk) last = r.get();
    }
    if (last != nullptr) live.insert(last);
  }
  return live;
}

struct Builder {
  tflite::Subgraph& sg;
  const std::vector<ReportedDelegate>& given;
  DelegateReport* report;
  SubgraphReport out;
  std::map<int, size_t> node_pos;  // node -> position in out.nodes
  // Live records with their delegate index, in the order applied.
  std::vector<std::pair<const Record*, int>> live;

  Status Build();
  void AddNodes();
  Status AddPartitions();
  void AddDelegates();
  void AddCpuReasons();
  NodeLeft ReasonFor(const Record& r, int di, size_t live_rank, int node) const;
  void AddBoundary();
  std::string Summary() const;
};

void Builder::AddNodes() {
  const std::vector<int>& plan = sg.pre_delegation_execution_plan().empty()
                                     ? sg.execution_plan()
                                     : sg.pre_delegation_execution_plan();
  for (int n : plan) {
    const auto* nr = sg.node_and_registration(n);
    NodeEntry e;
    e.node = n;
    if (nr != nullptr) {
      e.op = OpNameOf(nr->second);
      e.version = nr->second.version;
      e.inputs = ToVector(nr->first.inputs);
      e.outputs = ToVector(nr->first.outputs);
    }
    node_pos[n] = out.nodes.size();
    out.nodes.push_back(std::move(e));
  }
  // Constant-only nodes: every input read-only model data or written by an earlier
  // constant-only node (fp16 DEQUANTIZE, DENSIFY of weights), whoever runs them.
  std::set<int> constant_tensors;
  for (NodeEntry& e : out.nodes) {
    bool constant = false;
    for (int t : e.inputs) {
      if (t < 0) continue;
      const TfLiteTensor* tensor = sg.tensor(t);
      constant = tensor != nullptr && (tensor->allocation_type == kTfLiteMmapRo ||
                                        constant_tensors.count(t) > 0);
      if (!constant) break;
    }
    e.constant_only = constant;
    if (constant) constant_tensors.insert(e.outputs.begin(), e.outputs.end());
  }
}

Status Builder::AddPartitions() {
  std::map<int, std::pair<const DelegatedPartition*, int>> by_kernel;
  for (const auto& [r, di] : live) {
    for (const DelegatedPartition& p : r->partitions) by_kernel[p.kernel_node] = {&p, di};
  }
  std::map<int, int> ordinals;
  for (int n : out.execution_plan) {
    const auto* nr = sg.node_and_registration(n);
    const bool is_kernel = nr != nullptr && nr->first.delegate != nullptr;
    auto it = by_kernel.find(n);
    if (!is_kernel) {
      if (it != by_kernel.end() || node_pos.count(n) == 0) {
        return Status(StatusCode::kInternal,
                      fmt::format("failed to report subgraph {}: node {} in the execution plan "
                                  "is neither a model node nor a delegate kernel",
                                  out.index, n));
      }
      continue;
    }
    if (it == by_kernel.end()) {
      return Status(StatusCode::kInternal,
                    fmt::format("failed to report subgraph {}: DELEGATE node {} ({}) has no "
                                "delegation record",
                                out.index, n, OpNameOf(nr->second)));
    }
    const auto& [p, di] = it->second;
    PartitionEntry e;
    e.delegate = di;
    e.ordinal = ordinals[di]++;
    e.kernel_node = n;
    e.nodes = p->nodes;
    e.input_tensors = p->input_tensors;
    e.output_tensors = p->output_tensors;
    for (int m : e.nodes) {
      auto pos = node_pos.find(m);
      if (pos == node_pos.end()) {
        return Status(StatusCode::kInternal,
                      fmt::format("failed to report subgraph {}: partition of DELEGATE node {} "
                                  "holds node {}, which is not a model node",
                                  out.index, n, m));
      }
      out.nodes[pos->second].partition = static_cast<int>(out.partitions.size());
    }
    out.partitions.push_back(std::move(e));
  }
  return Status::Ok();
}

NodeLeft Builder::ReasonFor(const Record& r, int di, size_t live_rank, int node) const {
  NodeLeft left;
  left.node = node;
  left.delegate = di;
  const std::string& name = report->delegates[di].name;
  const NodeEntry& e = out.nodes[node_pos.at(node)];
  if (e.partition >= 0) {
    const int owner = out.partitions[e.partition].delegate;
    for (size_t k = 0; k < live_rank; ++k) {
      if (live[k].second == owner) {
        left.kind = LeftReason::kEarlierDelegate;
        left.reason = "taken by earlier delegate " + report->delegates[owner].name;
        return left;
      }
    }
  }
  if (!r.has_reasons) {
    left.kind = LeftReason::kNoReasons;
    left.reason = "not claimed by " + name + " (it gives no reasons)";
    return left;
  }
  if (auto it = r.unsupported.find(node); it != r.unsupported.end()) {
    left.kind = LeftReason::kUnsupported;
    left.reason = it->second;
    return left;
  }
  for (const DroppedPartition& d : r.dropped) {
    if (std::find(d.nodes.begin(), d.nodes.end(), node) != d.nodes.end()) {
      left.kind = LeftReason::kDropped;
      left.reason = "in a partition dropped by limits: " + d.reason;
      return left;
    }
  }
  left.kind = LeftReason::kUnsupported;
  left.reason = "supported, but " + name + " did not claim it";
  return left;
}

void Builder::AddDelegates() {
  const std::set<const Record*> live_set = [&] {
    std::set<const Record*> s;
    for (const auto& [r, di] : live) s.insert(r);
    return s;
  }();
  std::set<int> seen;
  for (const auto& rp : sg.delegation_records()) {
    const Record& r = *rp;
    const bool is_live = live_set.count(&r) > 0;
    if (!is_live && r.status == kTfLiteOk) continue;  // undone and applied again later
    DelegateInSubgraph d;
    d.delegate = DelegateIndex(r, given, report);
    seen.insert(d.delegate);
    d.status = r.status;
    d.live = is_live;
    d.error = r.error;
    d.has_reasons = r.has_reasons;
    d.limits = r.limits;
    d.log = r.log;
    for (const DroppedPartition& p : r.dropped) d.dropped.push_back({p.nodes, p.reason});
    if (is_live) {
      size_t rank = 0;
      while (live[rank].first != &r) ++rank;
      for (size_t i = 0; i < out.partitions.size(); ++i) {
        if (out.partitions[i].delegate == d.delegate) d.partitions.push_back(static_cast<int>(i));
      }
      for (const NodeEntry& e : out.nodes) {
        if (e.partition >= 0 && out.partitions[e.partition].delegate == d.delegate) {
          d.claimed.push_back(e.node);
        } else {
          d.left.push_back(ReasonFor(r, d.delegate, rank, e.node));
        }
      }
    } else if (d.error.empty()) {
      d.error = "the delegate reported no reason";
    }
    out.delegates.push_back(std::move(d));
  }
  // Delegates that failed before reaching this subgraph.
  for (size_t i = 0; i < given.size(); ++i) {
    if (seen.count(static_cast<int>(i)) || given[i].status == kTfLiteOk) continue;
    DelegateInSubgraph d;
    d.delegate = static_cast<int>(i);
    d.status = given[i].status;
    d.live = false;
    d.error = "not applied to this subgraph: " + given[i].error;
    out.delegates.push_back(std::move(d));
  }
  // In command-line order (a delegate applied again after a later one failed has its
  // live record after the failed one).
  std::stable_sort(out.delegates.begin(), out.delegates.end(),
                   [](const DelegateInSubgraph& a, const DelegateInSubgraph& b) {
                     return a.delegate < b.delegate;
                   });
}

// CPU nodes: what each delegate said about them.
void Builder::AddCpuReasons() {
  std::vector<std::map<int, const NodeLeft*>> left_by_node(out.delegates.size());
  for (size_t i = 0; i < out.delegates.size(); ++i) {
    for (const NodeLeft& l : out.delegates[i].left) left_by_node[i][l.node] = &l;
  }
  for (NodeEntry& e : out.nodes) {
    if (e.partition >= 0) continue;
    ++out.cpu_nodes;
    e.folded = sg.is_folded(e.node);
    for (size_t i = 0; i < out.delegates.size(); ++i) {
      const DelegateInSubgraph& d = out.delegates[i];
      if (!d.live) {
        NodeLeft left;
        left.node = e.node;
        left.delegate = d.delegate;
        left.kind = LeftReason::kNotApplied;
        left.reason = report->delegates[d.delegate].name +
                      (d.status == kTfLiteApplicationError ? " not applied" : " failed to apply") +
                      ", running on the CPU";
        e.reasons.push_back(std::move(left));
        continue;
      }
      if (auto l = left_by_node[i].find(e.node); l != left_by_node[i].end()) {
        e.reasons.push_back(*l->second);
      }
    }
  }
}

void Builder::AddBoundary() {
  // Who writes and who reads each tensor in the final plan.
  std::map<int, Endpoint> writer;
  std::map<int, std::vector<Endpoint>> readers;
  std::map<int, int> kernel_to_partition;
  for (size_t i = 0; i < out.partitions.size(); ++i) {
    kernel_to_partition[out.partitions[i].kernel_node] = static_cast<int>(i);
  }
  for (int t : out.inputs) writer[t] = {Endpoint::kGraphInput, -1};
  for (int n : out.execution_plan) {
    const auto* nr = sg.node_and_registration(n);
    auto kp = kernel_to_partition.find(n);
    const Endpoint self = kp != kernel_to_partition.end()
                              ? Endpoint{Endpoint::kPartition, kp->second}
                              : Endpoint{Endpoint::kCpuNode, n};
    std::set<int> ins;
    for (int t : ToVector(nr->first.inputs)) {
      if (t >= 0 && ins.insert(t).second) readers[t].push_back(self);
    }
    for (int t : ToVector(nr->first.outputs)) {
      if (t >= 0) writer[t] = self;
    }
  }
  for (int t : out.outputs) readers[t].push_back({Endpoint::kGraphOutput, -1});

  auto describe = [&](int t, bool into, int partition, std::vector<Endpoint> peers) {
    const TfLiteTensor& tensor = *sg.tensor(t);
    BoundaryTensor b;
    b.tensor = t;
    b.name = tensor.name != nullptr ? tensor.name : "";
    b.type = tensor.type;
    b.shape = ToVector(tensor.dims);
    b.bytes = tensor.bytes;
    b.dynamic = tensor.allocation_type == kTfLiteDynamic;
    b.into = into;
    b.partition = partition;
    b.peers = std::move(peers);
    (into ? out.partitions[partition].bytes_in : out.partitions[partition].bytes_out) += b.bytes;
    out.boundary_bytes += b.bytes;
    out.boundary.push_back(std::move(b));
  };
  for (size_t pi = 0; pi < out.partitions.size(); ++pi) {
    const int p = static_cast<int>(pi);
    const auto* kernel = sg.node_and_registration(out.partitions[pi].kernel_node);
    std::set<int> done;
    for (int t : ToVector(kernel->first.inputs)) {
      if (t < 0 || !done.insert(t).second || IsConstant(*sg.tensor(t))) continue;
      auto w = writer.find(t);
      // No writer: a variable (state the partition keeps) or an unused tensor.
      if (w == writer.end()) continue;
      // Another partition of the same delegate: the tensor stays in the delegate.
      if (w->second.kind == Endpoint::kPartition &&
          out.partitions[w->second.id].delegate == out.partitions[pi].delegate) {
        continue;
      }
      describe(t, /*into=*/true, p, {w->second});
    }
    for (int t : ToVector(kernel->first.outputs)) {
      if (t < 0 || !done.insert(t).second) continue;
      // Copied out once for the CPU and the graph's outputs; another delegate's partition
      // that reads it counts the copy into itself.
      std::vector<Endpoint> peers;
      for (const Endpoint& ep : readers[t]) {
        if (ep.kind == Endpoint::kCpuNode || ep.kind == Endpoint::kGraphOutput) {
          peers.push_back(ep);
        }
      }
      if (!peers.empty()) describe(t, /*into=*/false, p, std::move(peers));
    }
  }
}

// "29 of 31 nodes in 1 partition on TestDelegate; 2 nodes on CPU; 4096 bytes cross
// boundaries per inference".
std::string Summarize(int total, const std::vector<std::tuple<std::string, int, int>>& per_delegate,
                      int cpu, size_t bytes) {
  std::string s;
  for (const auto& [name, nodes, partitions] : per_delegate) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{} of {} in {} on {}", nodes, Plural(total, "node"),
                     Plural(partitions, "partition"), name);
  }
  if (s.empty()) s = fmt::format("0 of {} delegated", Plural(total, "node"));
  return s + fmt::format("; {} on CPU; {} cross boundaries per inference", Plural(cpu, "node"),
                         Plural(bytes, "byte"));
}

std::string Builder::Summary() const {
  std::vector<std::tuple<std::string, int, int>> per;
  for (const DelegateInSubgraph& d : out.delegates) {
    if (!d.live || d.partitions.empty()) continue;
    per.emplace_back(report->delegates[d.delegate].name, static_cast<int>(d.claimed.size()),
                     static_cast<int>(d.partitions.size()));
  }
  return Summarize(static_cast<int>(out.nodes.size()), per, out.cpu_nodes, out.boundary_bytes);
}

Status Builder::Build() {
  out.name = sg.name();
  out.inputs = sg.inputs();
  out.outputs = sg.outputs();
  out.execution_plan = sg.execution_plan();
  const std::set<const Record*> live_set = LiveRecords(sg);
  for (const auto& r : sg.delegation_records()) {
    if (live_set.count(r.get())) live.emplace_back(r.get(), DelegateIndex(*r, given, report));
  }
  AddNodes();
  TFI_RETURN_IF_ERROR(AddPartitions());
  AddDelegates();
  AddCpuReasons();
  AddBoundary();
  out.summary = Summary();
  return Status::Ok();
}

}  // namespace

const char* LeftReasonName(LeftReason kind) {
  switch (kind) {
    case LeftReason::kUnsupported:
      return "unsupported";
    case LeftReason::kEarlierDelegate:
      return "earlier_delegate";
    case LeftReason::kDropped:
      return "dropped";
    case LeftReason::kNoReasons:
      return "no_reasons";
    case LeftReason::kNotApplied:
      return "not_applied";
  }
  return "unknown";
}

const NodeEntry* SubgraphReport::FindNode(int node) const {
  for (const NodeEntry& e : nodes) {
    if (e.node == node) return &e;
  }
  return nullptr;
}

Result<DelegateReport> BuildDelegateReport(tflite::Interpreter& interpreter,
                                           const std::vector<ReportedDelegate>& delegates) {
  DelegateReport report;
  for (const ReportedDelegate& d : delegates) {
    report.delegates.push_back({d.label, d.label, d.status, d.error});
  }
  // A delegate's kernels carry its own name; prefer it to the provider's label.
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    for (const auto& r : interpreter.subgraph(static_cast<int>(s))->delegation_records()) {
      for (size_t i = 0; i < delegates.size(); ++i) {
        if (delegates[i].delegate == r->delegate && !r->name.empty()) {
          report.delegates[i].name = r->name;
        }
      }
    }
  }
  for (size_t s = 0; s < interpreter.subgraphs_size(); ++s) {
    Builder b{*interpreter.subgraph(static_cast<int>(s)), delegates, &report, {}, {}, {}};
    b.out.index = static_cast<int>(s);
    TFI_RETURN_IF_ERROR(b.Build());
    report.total_nodes += static_cast<int>(b.out.nodes.size());
    report.cpu_nodes += b.out.cpu_nodes;
    report.boundary_bytes += b.out.boundary_bytes;
    report.subgraphs.push_back(std::move(b.out));
  }
  // Totals over every subgraph, per delegate in the order applied.
  std::vector<std::tuple<std::string, int, int>> per(report.delegates.size());
  for (const SubgraphReport& sr : report.subgraphs) {
    for (const DelegateInSubgraph& d : sr.delegates) {
      if (!d.live) continue;
      std::get<1>(per[d.delegate]) += static_cast<int>(d.claimed.size());
      std::get<2>(per[d.delegate]) += static_cast<int>(d.partitions.size());
    }
  }
  std::vector<std::tuple<std::string, int, int>> used;
  for (size_t i = 0; i < per.size(); ++i) {
    if (std::get<2>(per[i]) == 0) continue;
    used.emplace_back(report.delegates[i].name, std::get<1>(per[i]), std::get<2>(per[i]));
  }
  report.summary = Summarize(report.total_nodes, used, report.cpu_nodes, report.boundary_bytes);
  return report;
}

Result<DelegateReport> ReportDelegation(const DelegateReportOptions& options,
                                        const tflite::OpResolver& resolver) {
  SessionOptions so;
  so.graph = options.graph;
  so.num_threads = options.num_threads;
  so.limits = options.limits;
  so.target_runtime = options.target_runtime;
  so.warn = options.warn;
  SessionStage failed_at = SessionStage::kOpen;
  auto session = Session::Open(so, resolver, options.delegates, &failed_at);
  if (!session.ok()) {
    return SessionError(failed_at, session.status(),
                        {"cannot load the model " + options.graph + ":\n",
                         "cannot build an interpreter for " + options.graph + ":\n",
                         "AllocateTensors failed for " + options.graph + ":\n"});
  }
  Session& s = *session.value();
  std::vector<ReportedDelegate> reported;
  for (size_t i = 0; i < s.delegates().size(); ++i) {
    const DelegateInstance& d = s.delegates()[i];
    reported.push_back({d.label, d.delegate.get(), s.applied()[i].status, s.applied()[i].message});
  }
  auto report = BuildDelegateReport(s.interpreter(), reported);
  if (report.ok()) report->model = options.graph;
  return report;
}

}  // namespace tflite_inspect
