#include "benchmark/op_profiler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include <fmt/format.h>

#include "inspect/inspect_report.h"

#include "runtime/delegation_record.h"
#include "util/proto_writer.h"

namespace tflite_inspect {
namespace {

std::ostream& Field(std::ostream& s, int width) {
  s << "\t" << std::right << std::setw(width) << std::fixed << std::setprecision(3);
  return s;
}

}  // namespace

uint32_t OpProfiler::BeginEvent(const char*, EventType event_type, int64_t node,
                                int64_t subgraph) {
  if (!in_run_ || event_type != EventType::OPERATOR_INVOKE_EVENT) return 0;
  open_.push_back({static_cast<int>(subgraph), static_cast<int>(node), Clock::now()});
  return static_cast<uint32_t>(open_.size());
}

void OpProfiler::EndEvent(uint32_t handle) {
  if (handle == 0 || handle > open_.size()) return;
  const auto end = Clock::now();
  const Open o = open_[handle - 1];
  open_.resize(handle - 1);
  auto us = [](Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  };
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
  const int64_t elapsed = us(end - o.begin);
  it->second.start_us.UpdateStat(us(o.begin - run_start_));
  it->second.elapsed_us.UpdateStat(elapsed);
  ++it->second.times_called;
  // Nested events (a WHILE's body) are inside their parent's time already.
  if (open_.empty()) run_sum_us_ += elapsed;
}

void OpProfiler::StartRun() {
  in_run_ = true;
  open_.clear();
  run_sum_us_ = 0;
  run_start_ = Clock::now();
}

void OpProfiler::EndRun() {
  if (!in_run_) return;
  in_run_ = false;
  ++num_runs_;
  run_total_us_.UpdateStat(run_sum_us_);
}

void OpProfiler::Reset() {
  details_.clear();
  run_total_us_ = Stat<int64_t>();
  num_runs_ = 0;
  next_run_order_ = 0;
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

std::string OpProfiler::StatsByMetric(const std::string& title, bool by_time, int limit,
                                      bool csv) const {
  std::vector<const Detail*> order;
  for (const auto& [key, d] : details_) order.push_back(&d);
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
  const double total = run_total_us_.sum();
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
    const int64_t times = num_runs_ > 0 ? d->times_called / num_runs_ : 0;
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

std::string OpProfiler::StatsByNodeType(bool csv) const {
  struct TypeStats {
    int64_t count = 0, us = 0, times_called = 0;
  };
  std::map<std::string, TypeStats> by_type;
  int64_t accumulated = 0;
  const int64_t runs = std::max<int64_t>(1, num_runs_);
  for (const auto& [key, d] : details_) {
    const int64_t us = static_cast<int64_t>(d.elapsed_us.sum() / static_cast<double>(runs));
    accumulated += us;
    TypeStats& t = by_type[d.type];
    ++t.count;
    t.us += us;
    t.times_called += d.times_called / runs;
  }
  std::vector<std::pair<std::string, TypeStats>> sorted(by_type.begin(), by_type.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.us > b.second.us;
  });
  std::ostringstream s;
  s << "Number of nodes executed: " << details_.size() << "\n";
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

// Protobuf's text format for a float (SimpleFtoa): %.6g when it reads back as the same
// float, else %.9g.
std::string ProtoFloat(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(v));
  if (std::strtof(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

// C-escaped, as protobuf's text format writes strings.
std::string ProtoString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          out += fmt::format("\\{:03o}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// One OpProfilingStat (profiling_info.proto) from a series of microseconds, as TFLite's
// ProfileSummaryProtoFormatter fills it (the average truncated to an integer).
struct ProtoStat {
  int64_t first = 0, last = 0, avg = 0, min = 0, max = 0, sum = 0, count = 0;
  float stddev = 0, variance = 0;
  static ProtoStat Of(const Stat<int64_t>& s) {
    ProtoStat p;
    if (s.empty()) return p;
    p.first = s.first();
    p.last = s.newest();
    p.avg = static_cast<int64_t>(s.avg());
    p.stddev = static_cast<float>(s.std_deviation());
    p.variance = static_cast<float>(s.variance());
    p.min = s.min();
    p.max = s.max();
    p.sum = static_cast<int64_t>(s.sum());
    p.count = s.count();
    return p;
  }
  ProtoWriter Wire() const {
    ProtoWriter w;
    w.Int(1, first).Int(2, last).Int(3, avg).Float(4, stddev).Float(5, variance);
    w.Int(6, min).Int(7, max).Int(8, sum).Int(9, count);
    return w;
  }
  void Text(const std::string& indent, std::ostringstream& s) const {
    s << indent << "first: " << first << "\n" << indent << "last: " << last << "\n"
      << indent << "avg: " << avg << "\n" << indent << "stddev: " << ProtoFloat(stddev) << "\n"
      << indent << "variance: " << ProtoFloat(variance) << "\n" << indent << "min: " << min
      << "\n" << indent << "max: " << max << "\n" << indent << "sum: " << sum << "\n"
      << indent << "count: " << count << "\n";
  }
};

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

std::string OpProfiler::SummaryProto() const {
  const int64_t runs = std::max<int64_t>(1, num_runs_);
  ProtoWriter model;  // ModelProfilingData
  for (const auto& [index, list] : BySubgraph()) {
    const tflite::Subgraph* sg = interpreter_->subgraph(index);
    ProtoWriter subgraph;  // SubGraphProfilingData
    subgraph.Bytes(1, sg != nullptr ? sg->name() : "").Int(2, index);
    for (const Detail* d : list) {
      ProtoStat zeros;
      zeros.count = d->elapsed_us.count();
      ProtoWriter op;  // OpProfileData
      op.Bytes(1, d->type)
          .Message(2, ProtoStat::Of(d->elapsed_us).Wire())
          .Message(3, zeros.Wire())
          .Int(4, d->times_called / runs)
          .Bytes(5, d->name)
          .Int(6, d->run_order);
      subgraph.Message(3, op);
    }
    model.Message(1, subgraph);
  }
  ProtoWriter data;  // BenchmarkProfilingData: runtime_profile only (no init events here)
  data.Message(3, model);
  return data.bytes();
}

std::string OpProfiler::SummaryProtoText() const {
  const int64_t runs = std::max<int64_t>(1, num_runs_);
  std::ostringstream s;
  s << "runtime_profile {\n";
  for (const auto& [index, list] : BySubgraph()) {
    const tflite::Subgraph* sg = interpreter_->subgraph(index);
    s << "  subgraph_profiles {\n"
      << "    subgraph_name: " << ProtoString(sg != nullptr ? sg->name() : "") << "\n"
      << "    subgraph_index: " << index << "\n";
    for (const Detail* d : list) {
      ProtoStat zeros;
      zeros.count = d->elapsed_us.count();
      s << "    per_op_profiles {\n"
        << "      node_type: " << ProtoString(d->type) << "\n"
        << "      inference_microseconds {\n";
      ProtoStat::Of(d->elapsed_us).Text("        ", s);
      s << "      }\n      mem_kb {\n";
      zeros.Text("        ", s);
      s << "      }\n"
        << "      times_called: " << d->times_called / runs << "\n"
        << "      name: " << ProtoString(d->name) << "\n"
        << "      run_order: " << d->run_order << "\n"
        << "    }\n";
    }
    s << "  }\n";
  }
  s << "}\n";
  return s.str();
}

std::string OpProfiler::Summary(bool csv) const {
  std::ostringstream s;
  s << StatsByMetric("Run Order", /*by_time=*/false, 0, csv);
  s << StatsByMetric("Top by Computation Time", /*by_time=*/true, 10, csv);
  s << StatsByNodeType(csv);
  s << "Timings (microseconds): " << run_total_us_.ToString() << "\n";
  s << "Memory (bytes): count=0\n";
  s << details_.size() << " nodes observed\n\n";
  return s.str();
}

}  // namespace tflite_inspect
