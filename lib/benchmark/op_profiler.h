// Op profiling for benchmark_model (--enable_op_profiling): a tflite::Profiler that
// times every node of every Invoke, and TFLite's summary tables over those timings
// (tensorflow/core/util/stats_calculator.cc: "Run Order", "Top by Computation Time",
// "Summary by node type", the short summary), as text with TFLite's columns or as CSV,
// or (--op_profiling_output_mode=proto) as TFLite's BenchmarkProfilingData message
// (tensorflow/lite/profiling/proto/profiling_info.proto), binary or in text format.
// Delegate kernel nodes are one row each, named with the delegate and the nodes they
// replaced; a delegate that reports its own operators (DELEGATE_OPERATOR_INVOKE_EVENT:
// the XNNPACK delegate's steps and runtimes) gets TFLite's "Delegate internal:" tables
// after them, one row per tag and node ("tag:node"). The proto output has the nodes only.
#ifndef TFLITE_INSPECT_LIB_BENCHMARK_OP_PROFILER_H_
#define TFLITE_INSPECT_LIB_BENCHMARK_OP_PROFILER_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/stat.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/interpreter.h"
#include "util/proto_writer.h"

namespace tflite_inspect {

class OpProfiler : public tflite::Profiler {
 public:
  explicit OpProfiler(tflite::Interpreter* interpreter) : interpreter_(interpreter) {}

  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle) override;

  // Brackets one Invoke; events outside a run are ignored.
  void StartRun();
  void EndRun();
  void Reset();

  struct Detail {
    std::string type;  // op name, or the delegate's name for its kernels
    std::string name;  // "[output tensor names]:node" (+ what a delegate node replaced)
    int run_order = 0;
    Stat<int64_t> start_us;    // from the start of the run
    Stat<int64_t> elapsed_us;  // duration of the node
    int64_t times_called = 0;
  };
  // Keyed by (subgraph, node).
  const std::map<std::pair<int, int>, Detail>& details() const { return details_; }
  const Stat<int64_t>& run_total_us() const { return run_total_us_; }
  // A delegate's own operators, keyed by "tag:node".
  const std::map<std::string, Detail>& delegate_details() const { return delegate_details_; }

  // TFLite's tables: run order (all nodes), top 10 by time, by node type, summary.
  std::string Summary(bool csv) const;
  // TFLite's BenchmarkProfilingData with the runs as runtime_profile: one
  // SubGraphProfilingData per subgraph that ran (index, name), its nodes in run order
  // (node_type, inference_microseconds, mem_kb (zeros: memory is not profiled, as in
  // TFLite without memory profiling), times_called per run, name, run_order): the wire
  // bytes, and protobuf's text format (what TFLite logs when it has no file).
  ProtoWriter SummaryProto() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Open {
    int subgraph, node;
    Clock::time_point begin;
    bool delegate = false;  // a DELEGATE_OPERATOR_INVOKE_EVENT, with its tag
    std::string tag;
  };
  // One set of TFLite's tables: the rows, the runs and each run's total.
  struct Table {
    std::vector<const Detail*> details;
    const Stat<int64_t>* run_total_us;
    int64_t runs;
  };
  Table NodeTable() const;
  Table DelegateTable() const;
  std::string NodeName(int subgraph, int node) const;
  std::map<int, std::vector<const Detail*>> BySubgraph() const;
  static std::string StatsByMetric(const Table& table, const std::string& title, bool by_time,
                                   int limit, bool csv);
  static std::string StatsByNodeType(const Table& table, bool csv);
  static std::string Tables(const Table& table, bool csv);

  tflite::Interpreter* interpreter_;
  std::map<std::pair<int, int>, Detail> details_;
  std::vector<Open> open_;
  bool in_run_ = false;
  Clock::time_point run_start_;
  int64_t run_sum_us_ = 0;
  int next_run_order_ = 0;
  int64_t num_runs_ = 0;
  Stat<int64_t> run_total_us_;
  // Delegate operators: as above, the runs counted where a run had any (as TFLite's
  // delegate stats calculator).
  std::map<std::string, Detail> delegate_details_;
  int64_t delegate_run_sum_us_ = 0;
  int next_delegate_order_ = 0;
  int64_t delegate_runs_ = 0;
  Stat<int64_t> delegate_total_us_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_BENCHMARK_OP_PROFILER_H_
