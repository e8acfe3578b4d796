#include "tools/delegate_provider.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "runtime/delegation_record.h"

namespace tflite_inspect {
namespace {

// Where each option was parsed: CLI11 lists an option once per occurrence, in order.
// The rank of the n-th occurrence of any of `options`; INT_MAX when there is none.
int Rank(const std::vector<CLI::Option*>& order, const std::vector<const CLI::Option*>& options,
         int n = 0) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (std::find(options.begin(), options.end(), order[i]) != options.end() && n-- == 0) {
      return static_cast<int>(i);
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
  app.add_option("--first_delegate_node_index", common_.first_delegate_node_index,
                 "The index of the first node that may be delegated (TFLite's debug flag; "
                 "with --last_delegate_node_index, for finding the node a delegate gets "
                 "wrong)");
  app.add_option("--last_delegate_node_index", common_.last_delegate_node_index,
                 "The index of the last node that may be delegated");
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
  if (verbose || common_.first_delegate_node_index != 0) {
    lines.push_back(fmt::format("Index of the first node that could be delegated: [{}]",
                                common_.first_delegate_node_index));
  }
  if (verbose || common_.last_delegate_node_index != std::numeric_limits<int>::max()) {
    lines.push_back(fmt::format("Index of the last node that could be delegated: [{}]",
                                common_.last_delegate_node_index));
  }
  return lines;
}

std::vector<std::string> DelegateRegistry::FlagNotes() const {
  std::vector<std::string> notes;
  for (const auto& p : providers_) {
    for (auto& n : p->FlagNotes()) notes.push_back(std::move(n));
  }
  return notes;
}

DelegatePlan DelegatePlan::Of(std::vector<DelegateInstance> made, bool strict) {
  auto shared = std::make_shared<std::vector<DelegateInstance>>(std::move(made));
  DelegatePlan plan;
  plan.strict = strict;
  plan.create = [shared](int) -> Result<std::vector<DelegateInstance>> {
    return std::move(*shared);
  };
  return plan;
}

DelegatePlan DelegateRegistry::Plan(const CLI::App& app) {
  // Ranks are taken now, from the parse; the delegates are made later, by the session.
  const std::vector<CLI::Option*> order = app.parse_order();
  struct Ranked {
    DelegateProvider* provider;
    int rank;
    std::vector<const CLI::Option*> first_flag;  // for one delegate per occurrence
  };
  std::vector<Ranked> ranked;
  for (auto& p : providers_) {
    std::vector<const CLI::Option*> options;
    for (const auto& name : p->flag_names()) {
      if (const CLI::Option* o = app.get_option_no_throw("--" + name)) options.push_back(o);
    }
    std::vector<const CLI::Option*> first;
    if (!options.empty()) first.push_back(options.front());
    ranked.push_back({p.get(), Rank(order, options), first});
  }
  DelegatePlan plan;
  plan.strict = common_.strict;
  plan.create = [this, ranked, order](int num_threads) -> Result<std::vector<DelegateInstance>> {
    common_.num_threads = num_threads;
    std::vector<DelegateInstance> all;
    for (const Ranked& r : ranked) {
      auto made = r.provider->CreateDelegates(common_);
      OptionFlags flags = CommonOptionFlags();
      for (auto& f : r.provider->option_flags()) flags.push_back(std::move(f));
      if (!made.ok()) {
        return Status(made.status().code(), OptionsAsFlags(made.status().message(), flags));
      }
      for (auto& d : made.value()) {
        d.option_flags = flags;
        d.unavailable = OptionsAsFlags(std::move(d.unavailable), flags);
        d.rank = d.flag_occurrence >= 0 ? Rank(order, r.first_flag, d.flag_occurrence) : r.rank;
        all.push_back(std::move(d));
      }
    }
    std::stable_sort(all.begin(), all.end(), [](const DelegateInstance& a,
                                                const DelegateInstance& b) { return a.rank < b.rank; });
    return all;
  };
  return plan;
}

std::string OptionsAsFlags(std::string text, const OptionFlags& flags) {
  for (const auto& [option, flag] : flags) {
    size_t at = 0;
    while ((at = text.find(option, at)) != std::string::npos) {
      // Whole names only: options.ops is not the start of options.ops_limit.
      const size_t end = at + option.size();
      if (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        at = end;
        continue;
      }
      text.replace(at, option.size(), flag);
      at += flag.size();
    }
  }
  return text;
}

const OptionFlags& CommonOptionFlags() {
  static const OptionFlags flags = {
      {"options.max_delegated_partitions", "--max_delegated_partitions"},
      {"options.min_nodes_per_partition", "--min_nodes_per_partition"},
      {"options.first_delegate_node_index", "--first_delegate_node_index"},
      {"options.last_delegate_node_index", "--last_delegate_node_index"},
  };
  return flags;
}

namespace {

void NameFlagsInRecords(tflite::Interpreter* interpreter, const DelegateInstance& d) {
  if (d.option_flags.empty() || d.delegate == nullptr) return;
  auto map = [&](std::string& text) { text = OptionsAsFlags(std::move(text), d.option_flags); };
  for (size_t s = 0; s < interpreter->subgraphs_size(); ++s) {
    for (const auto& record : interpreter->subgraph(static_cast<int>(s))->delegation_records()) {
      if (record->delegate != d.delegate.get()) continue;
      for (auto& [node, reason] : record->unsupported) map(reason);
      for (auto& dropped : record->dropped) map(dropped.reason);
      for (auto* lines : {&record->log, &record->reported}) {
        for (auto& line : *lines) map(line);
      }
      map(record->limits);
      map(record->error);
    }
  }
}

}  // namespace

void NameFlagsInRecords(tflite::Interpreter* interpreter, const std::vector<DelegateInstance>& delegates) {
  for (const DelegateInstance& d : delegates) NameFlagsInRecords(interpreter, d);
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
    if (d.delegate == nullptr) {
      r.status = kTfLiteApplicationError;  // nothing was applied; the graph is as it was
      r.message = d.unavailable.empty() ? "the delegate could not be created" : d.unavailable;
      results.push_back(std::move(r));
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    r.status = interpreter->ModifyGraphWithDelegate(d.delegate.get());
    r.apply_us = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    NameFlagsInRecords(interpreter, d);
    if (r.status != kTfLiteOk) {
      // The runtime's record holds what the delegate and the runtime reported.
      std::string why;
      for (size_t s = 0; s < interpreter->subgraphs_size(); ++s) {
        const auto& recs = interpreter->subgraph(static_cast<int>(s))->delegation_records();
        if (!recs.empty() && recs.back()->delegate == d.delegate.get() &&
            recs.back()->status != kTfLiteOk) {
          why = recs.back()->error;
          break;
        }
      }
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
  // Delegates re-applied after a failure made new records.
  NameFlagsInRecords(interpreter, delegates);
  return results;
}

}  // namespace tflite_inspect
