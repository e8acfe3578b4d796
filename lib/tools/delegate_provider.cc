#include "tools/delegate_provider.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "runtime/delegation_record.h"

namespace tflite_inspect {
namespace {

// Position of the first argv entry that is --name or --name=...; INT_MAX when absent.
int FlagPosition(int argc, const char* const* argv, const std::vector<std::string>& names) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    while (*arg == '-') ++arg;
    for (const auto& n : names) {
      if (std::strncmp(arg, n.c_str(), n.size()) == 0 &&
          (arg[n.size()] == '\0' || arg[n.size()] == '=')) {
        return i;
      }
    }
  }
  return std::numeric_limits<int>::max();
}

// Position of the n-th (0-based) argv entry that is --name or --name=...; INT_MAX when absent.
int NthFlagPosition(int argc, const char* const* argv, const std::string& name, int n) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    while (*arg == '-') ++arg;
    if (std::strncmp(arg, name.c_str(), name.size()) == 0 &&
        (arg[name.size()] == '\0' || arg[name.size()] == '=') && n-- == 0) {
      return i;
    }
  }
  return std::numeric_limits<int>::max();
}

}  // namespace

void DelegateRegistry::AddFlags(CLI::App& app) {
  app.add_option("--max_delegated_partitions", common_.max_delegated_partitions,
                 "Keep at most this many partitions per delegate, the largest (<= 0: no "
                 "limit; the GPU delegate takes <= 0 as 1)");
  app.add_option("--min_nodes_per_partition", common_.min_nodes_per_partition,
                 "Leave partitions with fewer nodes on the CPU (<= 0: no minimum)");
  app.add_flag("--delegate_strict", common_.strict,
               "Fail when a delegate cannot be applied (default: warn and run on the CPU)");
  for (auto& p : providers_) p->AddFlags(app);
}

std::vector<std::string> DelegateRegistry::LogParams(bool verbose) const {
  std::vector<std::string> lines;
  for (const auto& p : providers_) p->LogParams(verbose, &lines);
  if (verbose || common_.max_delegated_partitions != 0) {
    lines.push_back(fmt::format("Max number of delegated partitions: [{}]",
                                common_.max_delegated_partitions));
  }
  if (verbose || common_.min_nodes_per_partition != 0) {
    lines.push_back(fmt::format("Min nodes per partition: [{}]", common_.min_nodes_per_partition));
  }
  return lines;
}

Result<std::vector<DelegateInstance>> DelegateRegistry::CreateDelegates(int argc,
                                                                        const char* const* argv) {
  std::vector<DelegateInstance> all;
  for (auto& p : providers_) {
    auto made = p->CreateDelegates(common_);
    if (!made.ok()) return made.status();
    const int rank = FlagPosition(argc, argv, p->flag_names());
    for (auto& d : made.value()) {
      d.rank = rank;
      if (d.flag_occurrence >= 0 && !p->flag_names().empty()) {
        d.rank = NthFlagPosition(argc, argv, p->flag_names()[0], d.flag_occurrence);
      }
      all.push_back(std::move(d));
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const DelegateInstance& a, const DelegateInstance& b) { return a.rank < b.rank; });
  return all;
}

Result<std::vector<AppliedDelegate>> ApplyDelegates(tflite::Interpreter* interpreter,
                                                    std::vector<DelegateInstance>& delegates,
                                                    bool strict) {
  std::vector<AppliedDelegate> results;
  std::vector<TfLiteDelegate*> applied;
  for (size_t i = 0; i < delegates.size(); ++i) {
    auto& d = delegates[i];
    if (d.applies && !d.applies(*interpreter)) {
      delegates.erase(delegates.begin() + static_cast<long>(i--));
      continue;
    }
    AppliedDelegate r;
    r.label = d.label;
    const auto start = std::chrono::steady_clock::now();
    r.status = interpreter->ModifyGraphWithDelegate(d.delegate.get());
    r.apply_us = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    if (r.status != kTfLiteOk) {
      // The runtime's record holds what the delegate and the runtime reported.
      const auto& records = interpreter->primary_subgraph().delegation_records();
      std::string why;
      for (size_t s = 0; s < interpreter->subgraphs_size(); ++s) {
        const auto& recs = interpreter->subgraph(static_cast<int>(s))->delegation_records();
        if (!recs.empty() && recs.back()->delegate == d.delegate.get() &&
            recs.back()->status != kTfLiteOk) {
          why = recs.back()->error;
          break;
        }
      }
      (void)records;
      if (why.empty()) why = "the delegate reported no reason";
      r.message = why;
      if (strict || d.strict) {
        return Status(StatusCode::kUnsupported,
                      fmt::format("failed to apply delegate {}: {}", d.label, why));
      }
      if (r.status == kTfLiteDelegateError) {
        // TFLite removed every delegate; the ones that worked go back on.
        for (TfLiteDelegate* earlier : applied) {
          if (interpreter->ModifyGraphWithDelegate(earlier) != kTfLiteOk) {
            return Status(StatusCode::kInternal,
                          fmt::format("re-applying a delegate after {} failed", d.label));
          }
        }
      }
    } else {
      applied.push_back(d.delegate.get());
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace tflite_inspect
