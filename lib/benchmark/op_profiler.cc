#include "benchmark/op_profiler.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include <fmt/format.h>

#include "inspect/inspect_report.h"

#include "runtime/delegation_record.h"

namespace tflite_inspect {
namespace {

std::ostream& Field(std::ostream& s, int width) {
  s << "\t" << std::right << std::setw(width) << std::fixed << std::setprecision(3);
  return s;
}

}  // namespace

uint32_t OpProfiler::BeginEvent(const char* tag, EventType event_type, int64_t metadata1,
                                int64_t metadata2) {
  const bool delegate = event_type == EventType::DELEGATE_OPERATOR_INVOKE_EVENT;
  if (!in_run_ || (event_type != EventType::OPERATOR_INVOKE_EVENT && !delegate)) return 0;
  // OPERATOR_INVOKE_EVENT: (node, subgraph); a delegate's: (node, unused).
  Open o{delegate ? 0 : static_cast<int>(metadata2), static_cast<int>(metadata1), Clock::now()};
  if (delegate) {
    o.delegate = true;
    o.tag = tag != nullptr ? tag : "";
  }
  open_.push_back(std::move(o));
  return static_cast<uint32_t>(open_.size());
}

void OpProfiler::EndEvent(uint32_t handle) {
  if (handle == 0 || handle > open_.size()) return;
  const auto end = Clock::now();
  Open o = std::move(open_[handle - 1]);
  open_.resize(handle - 1);
  auto us = [](Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  };
  const int64_t elapsed = us(end - o.begin);
  Detail* detail;
  if (o.delegate) {
    // TFLite names a delegate's operator "tag:node" (its stats key) and types it by tag.
    const std::string name = fmt::format("{}:{}", o.tag, o.node);
    auto it = delegate_details_.find(name);
    if (it == delegate_details_.end()) {
      Detail d;
      d.type = o.tag;
      d.name = name;
      d.run_order = next_delegate_order_++;
      it = delegate_details_.emplace(name, std::move(d)).first;
    }
    detail = &it->second;
    delegate_run_sum_us_ += elapsed;
  } else {
    const auto key = std::make_pair(o.subgraph, o.node);
    auto it = details_.find(key);
    if (it == details_.end()) {
      Detail d;
      tflite::Subgraph* sg = interpreter_->subgraph(o.subgraph);
      d.type = sg != nullptr ? sg->OpName(o.node) : "?";
      d.name = NodeName(o.subgraph, o.node);
      d.run_order = next_run_order_++;
      it = details_.emplace(key, std::move(d)).first;
    }
    detail = &it->second;
    // Nested events (a WHILE's body, a delegate's operators) are inside their parent's
    // time already.
    bool nested = false;
    for (const Open& parent : open_) nested = nested || !parent.delegate;
    if (!nested) run_sum_us_ += elapsed;
  }
  detail->start_us.UpdateStat(us(o.begin - run_start_));
  detail->elapsed_us.UpdateStat(elapsed);
  ++detail->times_called;
}

void OpProfiler::StartRun() {
  in_run_ = true;
  open_.clear();
  run_sum_us_ = 0;
  delegate_run_sum_us_ = 0;
  run_start_ = Clock::now();
}

void OpProfiler::EndRun() {
  if (!in_run_) return;
  in_run_ = false;
  ++num_runs_;
  run_total_us_.UpdateStat(run_sum_us_);
  if (delegate_run_sum_us_ > 0) {
    ++delegate_runs_;
    delegate_total_us_.UpdateStat(delegate_run_sum_us_);
  }
}

void OpProfiler::Reset() {
  details_.clear();
  run_total_us_ = Stat<int64_t>();
  num_runs_ = 0;
  next_run_order_ = 0;
  delegate_details_.clear();
  delegate_total_us_ = Stat<int64_t>();
  delegate_runs_ = 0;
  next_delegate_order_ = 0;
}

OpProfiler::Table OpProfiler::NodeTable() const {
  Table t{{}, &run_total_us_, num_runs_};
  for (const auto& [key, d] : details_) t.details.push_back(&d);
  return t;
}

OpProfiler::Table OpProfiler::DelegateTable() const {
  Table t{{}, &delegate_total_us_, delegate_runs_};
  for (const auto& [key, d] : delegate_details_) t.details.push_back(&d);
  return t;
}

std::string OpProfiler::NodeName(int subgraph, int node) const {
  tflite::Subgraph* sg = interpreter_->subgraph(subgraph);
  const auto* nr = sg != nullptr ? sg->node_and_registration(node) : nullptr;
  if (nr == nullptr) return fmt::format("?:{}", node);
  std::string outs;
  for (int i = 0; i < nr->first.outputs->size; ++i) {
    const TfLiteTensor* t = sg->tensor(nr->first.outputs->data[i]);
    if (!outs.empty()) outs += ",";
    outs += t != nullptr && t->name != nullptr ? t->name : "";
  }
  std::string name = fmt::format("[{}]:{}", outs, node);
  if (subgraph != 0) name = fmt::format("subgraph {}: {}", subgraph, name);
  if (nr->first.delegate != nullptr) {
    for (const auto& r : sg->delegation_records()) {
      for (const auto& p : r->partitions) {
        if (p.kernel_node == node) {
          name += fmt::format(" ({} partition of nodes {})", r->name, CompressIds(p.nodes));
        }
      }
    }
  }
  return name;
}

std::string OpProfiler::StatsByMetric(const Table& table, const std::string& title, bool by_time,
                                      int limit, bool csv) {
  std::vector<const Detail*> order = table.details;
  std::stable_sort(order.begin(), order.end(), [by_time](const Detail* a, const Detail* b) {
    if (by_time && a->elapsed_us.avg() != b->elapsed_us.avg()) {
      return a->elapsed_us.avg() > b->elapsed_us.avg();
    }
    return a->run_order < b->run_order;
  });
  std::ostringstream s;
  s << "============================== " << title << " ==============================\n";
  if (csv) {
    s << "node type, start, first, avg_ms, %, cdf%, mem KB, times called, name\n";
  } else {
    Field(s, 24) << "[node type]";
    Field(s, 17) << "[start]";
    Field(s, 9) << "[first]";
    Field(s, 9) << "[avg ms]";
    Field(s, 8) << "[%]";
    Field(s, 8) << "[cdf%]";
    Field(s, 10) << "[mem KB]";
    Field(s, 9) << "[times called]";
    s << "\t[Name]\n";
  }
  const double total = table.run_total_us->sum();
  double cumulative = 0;
  int n = 0;
  for (const Detail* d : order) {
    if (limit > 0 && ++n > limit) break;
    cumulative += d->elapsed_us.sum();
    const double start_ms = d->start_us.avg() / 1000.0;
    const double first_ms = static_cast<double>(d->elapsed_us.first()) / 1000.0;
    const double avg_ms = d->elapsed_us.avg() / 1000.0;
    const double pct = total > 0 ? d->elapsed_us.sum() * 100.0 / total : 0.0;
    const double cdf = total > 0 ? cumulative * 100.0 / total : 0.0;
    const int64_t times = table.runs > 0 ? d->times_called / table.runs : 0;
    if (csv) {
      s << d->type << ", " << start_ms << ", " << first_ms << ", " << avg_ms << ", " << pct
        << "%, " << cdf << "%, " << 0.0 << ", " << times << ", " << d->name << "\n";
    } else {
      Field(s, 24) << d->type;
      Field(s, 17) << start_ms;
      Field(s, 9) << first_ms;
      Field(s, 9) << avg_ms;
      Field(s, 7) << pct << "%";
      Field(s, 7) << cdf << "%";
      Field(s, 10) << 0.0;
      Field(s, 9) << times;
      s << "\t" << d->name << "\n";
    }
  }
  s << "\n";
  return s.str();
}

std::string OpProfiler::StatsByNodeType(const Table& table, bool csv) {
  struct TypeStats {
    int64_t count = 0, us = 0, times_called = 0;
  };
  std::map<std::string, TypeStats> by_type;
  int64_t accumulated = 0;
  const int64_t runs = std::max<int64_t>(1, table.runs);
  for (const Detail* d : table.details) {
    const int64_t us = static_cast<int64_t>(d->elapsed_us.sum() / static_cast<double>(runs));
    accumulated += us;
    TypeStats& t = by_type[d->type];
    ++t.count;
    t.us += us;
    t.times_called += d->times_called / runs;
  }
  std::vector<std::pair<std::string, TypeStats>> sorted(by_type.begin(), by_type.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.us > b.second.us;
  });
  std::ostringstream s;
  s << "Number of nodes executed: " << table.details.size() << "\n";
  s << "============================== Summary by node type ==============================\n";
  if (csv) {
    s << "node type, count, avg_ms, avg %, cdf %, mem KB, times called\n";
  } else {
    Field(s, 24) << "[Node type]";
    Field(s, 9) << "[count]";
    Field(s, 10) << "[avg ms]";
    Field(s, 11) << "[avg %]";
    Field(s, 11) << "[cdf %]";
    Field(s, 10) << "[mem KB]";
    Field(s, 10) << "[times called]";
    s << "\n";
  }
  float cdf = 0.0f;
  for (const auto& [type, t] : sorted) {
    const float ms = static_cast<float>(t.us) / 1000.0f;
    const float pct = accumulated > 0 ? static_cast<float>(t.us) / static_cast<float>(accumulated) * 100.0f : 0.0f;
    cdf += pct;
    if (csv) {
      s << type << ", " << t.count << ", " << ms << ", " << pct << "%, " << cdf << "%, " << 0.0f
        << ", " << t.times_called << "\n";
    } else {
      Field(s, 24) << type;
      Field(s, 9) << t.count;
      Field(s, 10) << ms;
      Field(s, 10) << pct << "%";
      Field(s, 10) << cdf << "%";
      Field(s, 10) << 0.0f;
      Field(s, 9) << t.times_called;
      s << "\n";
    }
  }
  s << "\n";
  return s.str();
}

namespace {

// One OpProfilingStat (profiling_info.proto) from a series of microseconds, as TFLite's
// ProfileSummaryProtoFormatter fills it (the average truncated to an integer); `count`
// alone for the memory stat, which is not profiled (zeros, as TFLite without memory
// profiling).
ProtoWriter OpProfilingStat(const Stat<int64_t>& s, bool zeros) {
  const bool none = zeros || s.empty();
  ProtoWriter w;
  w.Int(1, "first", none ? 0 : s.first())
      .Int(2, "last", none ? 0 : s.newest())
      .Int(3, "avg", none ? 0 : static_cast<int64_t>(s.avg()))
      .Float(4, "stddev", none ? 0.0f : static_cast<float>(s.std_deviation()))
      .Float(5, "variance", none ? 0.0f : static_cast<float>(s.variance()))
      .Int(6, "min", none ? 0 : s.min())
      .Int(7, "max", none ? 0 : s.max())
      .Int(8, "sum", none ? 0 : static_cast<int64_t>(s.sum()))
      .Int(9, "count", s.count());
  return w;
}

}  // namespace

// The details of each subgraph that ran, in run order (TFLite sorts by run_order too).
std::map<int, std::vector<const OpProfiler::Detail*>> OpProfiler::BySubgraph() const {
  std::map<int, std::vector<const Detail*>> out;
  for (const auto& [key, d] : details_) out[key.first].push_back(&d);
  for (auto& [sg, list] : out) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Detail* a, const Detail* b) { return a->run_order < b->run_order; });
  }
  return out;
}

ProtoWriter OpProfiler::SummaryProto() const {
  const int64_t runs = std::max<int64_t>(1, num_runs_);
  ProtoWriter model;  // ModelProfilingData
  for (const auto& [index, list] : BySubgraph()) {
    const tflite::Subgraph* sg = interpreter_->subgraph(index);
    ProtoWriter subgraph;  // SubGraphProfilingData
    subgraph.String(1, "subgraph_name", sg != nullptr ? sg->name() : "")
        .Int(2, "subgraph_index", index);
    for (const Detail* d : list) {
      ProtoWriter op;  // OpProfileData
      op.String(1, "node_type", d->type)
          .Message(2, "inference_microseconds", OpProfilingStat(d->elapsed_us, false))
          .Message(3, "mem_kb", OpProfilingStat(d->elapsed_us, true))
          .Int(4, "times_called", d->times_called / runs)
          .String(5, "name", d->name)
          .Int(6, "run_order", d->run_order);
      subgraph.Message(3, "per_op_profiles", op);
    }
    model.Message(1, "subgraph_profiles", subgraph);
  }
  ProtoWriter data;  // BenchmarkProfilingData: runtime_profile only (no init events here)
  data.Message(3, "runtime_profile", model);
  return data;
}

std::string OpProfiler::Tables(const Table& table, bool csv) {
  std::ostringstream s;
  s << StatsByMetric(table, "Run Order", /*by_time=*/false, 0, csv);
  s << StatsByMetric(table, "Top by Computation Time", /*by_time=*/true, 10, csv);
  s << StatsByNodeType(table, csv);
  s << "Timings (microseconds): " << table.run_total_us->ToString() << "\n";
  s << "Memory (bytes): count=0\n";
  s << table.details.size() << " nodes observed\n\n";
  return s.str();
}

std::string OpProfiler::Summary(bool csv) const {
  std::string s = Tables(NodeTable(), csv);
  if (delegate_runs_ > 0) s += "Delegate internal: \n" + Tables(DelegateTable(), csv);
  return s;
}

}  // namespace tflite_inspect
