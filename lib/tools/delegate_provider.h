// Delegate registrar for the tools: each delegate contributes a DelegateProvider (its
// flags, how it logs them, how it makes the delegate), and DelegateRegistry holds the
// explicit list of built-in providers (delegate_registry.cc; no static
// self-registration). Every tool gets the same delegate flags from the registry, plus
// --max_delegated_partitions, --min_nodes_per_partition and --delegate_strict.
//
// Delegates apply in the order their flags first appear on the command line, as in
// TFLite's tools: the registry reads that order from the parser (CLI11's parse order)
// into a DelegatePlan, so no library code sees argv. A delegate that fails is removed, the delegates applied before it are
// applied again, and the model runs on without it (a warning), unless --delegate_strict.
#ifndef TFLITE_INSPECT_LIB_TOOLS_DELEGATE_PROVIDER_H_
#define TFLITE_INSPECT_LIB_TOOLS_DELEGATE_PROVIDER_H_

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/interpreter.h"
#include "util/status.h"

namespace tflite_inspect {

// Flags every provider may use.
struct DelegateCommonParams {
  int max_delegated_partitions = 0;  // <= 0: no limit (the GPU delegate maps it to 1)
  int min_nodes_per_partition = 0;   // <= 0: no minimum
  // Only nodes with an index in [first, last] may be delegated (TFLite's debug flags).
  int first_delegate_node_index = 0;
  int last_delegate_node_index = std::numeric_limits<int>::max();
  int num_threads = 1;               // the interpreter's (set when the plan is made)
  bool strict = false;               // --delegate_strict: a failing delegate is an error
};

// Delegates name their options in messages as `options.<field>` (e.g. "quantized nodes
// need options.enable_quant=true"); the tools print the flag that sets the option
// instead. Pairs of (option as written, flag), applied in order by OptionsAsFlags.
using OptionFlags = std::vector<std::pair<std::string, std::string>>;
std::string OptionsAsFlags(std::string text, const OptionFlags& flags);
// The options every provider passes from the common flags (DelegateCommonParams).
const OptionFlags& CommonOptionFlags();

// A delegate made by a provider, with whatever must outlive the interpreter.
struct DelegateInstance {
  std::string provider;  // "sample", "external", ...
  std::string label;     // for logs: "sample", "external(/path/libfoo.so)"
  std::unique_ptr<TfLiteDelegate, std::function<void(TfLiteDelegate*)>> delegate;
  std::shared_ptr<void> keepalive;  // e.g. the plugin's dlopen handle (released last)
  int rank = 0;                     // position of its flag on the command line
  // >= 0: a provider that makes one delegate per occurrence of its first flag (e.g.
  // repeated --external_delegate_path) ranks this one by that occurrence, not the first.
  int flag_occurrence = -1;
  // A delegate the tools apply by default (XNNPACK without --use_xnnpack, as TFLite):
  // ranked after the delegates given, and applied only where `applies` says it would
  // take something of the model (otherwise dropped without a trace).
  bool by_default = false;
  std::function<bool(tflite::Interpreter&)> applies;
  // A default delegate that could not be made (`delegate` is null): why. Applying it
  // records the failure, so every tool says the model runs without it.
  std::string unavailable;
  bool strict = false;  // a failure to apply it is an error even without --delegate_strict
  // Optional: named counters (e.g. bytes copied to the device) and a one-line
  // description (device, precision), for benchmark_model's report.
  std::function<std::vector<std::pair<std::string, double>>()> counters;
  std::function<std::string()> description;
  // Its options as its messages name them -> the flags (set by the registry from the
  // provider's option_flags() and the common ones); ApplyDelegates rewrites the
  // delegate's records and failure with them.
  OptionFlags option_flags;
};

// What the parsed delegate flags ask for, its order fixed while parsing: the delegates
// are made when a session opens (TFLite times that step) and applied in that order.
struct DelegatePlan {
  // The delegates, in application order, for an interpreter with `num_threads` threads
  // (the providers' DelegateCommonParams::num_threads); empty function: none.
  std::function<Result<std::vector<DelegateInstance>>(int num_threads)> create;
  bool strict = false;  // --delegate_strict: a delegate that fails to apply is an error
  // Delegates made already (tests, library users), applied in the given order.
  static DelegatePlan Of(std::vector<DelegateInstance> made, bool strict = false);
};

class DelegateProvider {
 public:
  virtual ~DelegateProvider() = default;
  virtual std::string name() const = 0;
  // Adds this provider's flags; parsed values land in the provider.
  virtual void AddFlags(CLI::App& app) = 0;
  // The flags (without "--") whose first appearance sets this delegate's rank.
  virtual std::vector<std::string> flag_names() const = 0;
  // "Use sample delegate: [1]" lines, as TFLite's LogParams (all of them when verbose).
  virtual void LogParams(bool verbose, std::vector<std::string>* lines) const = 0;
  // The delegates the parsed flags ask for (none when not enabled), or why not.
  virtual Result<std::vector<DelegateInstance>> CreateDelegates(
      const DelegateCommonParams& common) = 0;
  // The delegate's options that its messages may name, with the flag that sets each
  // (the common flags' options are added by the registry).
  virtual OptionFlags option_flags() const { return {}; }
  // After parsing: one line for each flag given that changes nothing here (TFLite's flags
  // accepted for compatibility, e.g. "--xnnpack_slinky: no effect: ..."). The tools print
  // them as warnings.
  virtual std::vector<std::string> FlagNotes() const { return {}; }
};

// What happened to one delegate when it was applied.
struct AppliedDelegate {
  std::string label;
  TfLiteStatus status = kTfLiteOk;  // kTfLiteOk, or why it is not in the graph
  std::string message;              // the failure, or "" when applied
  int64_t apply_us = 0;             // time spent in ModifyGraphWithDelegate
};

class DelegateRegistry {
 public:
  // The built-in providers, in a fixed order (delegate_registry.cc).
  static DelegateRegistry Default();
  void Add(std::unique_ptr<DelegateProvider> provider) { providers_.push_back(std::move(provider)); }
  const std::vector<std::unique_ptr<DelegateProvider>>& providers() const { return providers_; }

  // Adds the common delegate flags and every provider's flags to `app`.
  void AddFlags(CLI::App& app);
  const DelegateCommonParams& common() const { return common_; }
  DelegateCommonParams& common() { return common_; }
  // The parameter echo lines of every provider plus the common flags.
  std::vector<std::string> LogParams(bool verbose) const;
  // Every provider's FlagNotes, in provider order.
  std::vector<std::string> FlagNotes() const;

  // After `app` parsed the command line: the requested delegates, ranked by where their
  // flags first appear in it. The plan reads the providers' parsed values when it makes
  // the delegates, so the registry must outlive its use.
  DelegatePlan Plan(const CLI::App& app);

 private:
  std::vector<std::unique_ptr<DelegateProvider>> providers_;
  DelegateCommonParams common_;
};

// Applies `delegates` in order, first removing default ones whose `applies` says no
// (so `delegates` and the result stay index-aligned). A delegate that fails
// (kTfLiteDelegateError) makes the runtime drop every delegate; the ones before it are
// applied again and the failure is reported in its AppliedDelegate (an error Status
// instead when `strict`). A delegate that does not apply (kTfLiteApplicationError, e.g.
// dynamic tensors) is skipped.
Result<std::vector<AppliedDelegate>> ApplyDelegates(tflite::Interpreter* interpreter,
                                                    std::vector<DelegateInstance>& delegates,
                                                    bool strict);
// Rewrites the delegates' records (every subgraph) with their options named as flags
// (DelegateInstance::option_flags). ApplyDelegates does it; call it again after anything
// that re-applies delegates (AllocateTensors after a resize makes new records).
void NameFlagsInRecords(tflite::Interpreter* interpreter, const std::vector<DelegateInstance>& delegates);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_DELEGATE_PROVIDER_H_
