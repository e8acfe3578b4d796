// Flag handling shared by every tool: TFLite-style `--flag=value` and `--flag value`,
// `--graph` as the model flag, and unknown flags answered with a "did you mean".
#ifndef TFLITE_INSPECT_LIB_CLI_FLAGS_H_
#define TFLITE_INSPECT_LIB_CLI_FLAGS_H_

#include <functional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace tflite_inspect {

// Exit codes shared by the tools.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalidModel = 1;
inline constexpr int kExitUsage = 2;

// Parses argv into `app`. Returns -1 when the tool should go on, otherwise the exit
// code to return (0 after --help, kExitUsage after a usage error, which is printed to
// stderr with a suggestion for a misspelt flag).
int ParseFlags(CLI::App& app, int argc, const char* const* argv);

// For the tools TFLite also ships (benchmark_model), parsing as TFLite's tool does:
// flags `app` does not know are kept in *unknown (in command-line order) instead of failing
// the parse, as TFLite warns "Unconsumed cmdline flags: ..." and goes on; so is a repeated
// `--flag=value` of a single-valued flag (TFLite's parser takes the first); a flag value
// that cannot be parsed (`--num_runs=abc`) is TFLite's "Failed to parse flag 'num_runs'
// against argv '--num_runs=abc'" and exit 1 (scripts look for that line):
// `tflite_failure(line, our_reason)` is called and its result returned. Other usage
// errors are printed and return kExitUsage, as ParseFlags.
int ParseFlagsAsTflite(CLI::App& app, int argc, const char* const* argv,
                       std::vector<std::string>* unknown,
                       const std::function<int(const std::string& tflite_line,
                                               const std::string& reason)>& tflite_failure);

// The lines for flags nobody knows: "  unknown flag '--x'; did you mean '--y'?" (the
// suggestion only when one is close); for a repeat of a known flag, "  repeated flag
// '--x=v': the first value given is used, as in TFLite".
std::vector<std::string> UnknownFlagLines(const CLI::App& app,
                                          const std::vector<std::string>& unknown);

// What a tool parsed with ParseFlagsAsTflite says of the flags it left (none: nothing):
// TFLite's warning, "Unconsumed cmdline flags: a b" (scripts parse it), then ours for each
// that looks like a misspelt flag or repeats one (UnknownFlagLines without the indent).
std::vector<std::string> UnconsumedFlagWarnings(const CLI::App& app,
                                                const std::vector<std::string>& unknown);

// --strict_flags (not in TFLite): unknown flags are an error, not TFLite's warning.
CLI::Option* AddStrictFlagsFlag(CLI::App& app, bool* strict);

// Under --strict_flags (`strict`): prints the unknown flags (UnknownFlagLines) and returns
// kExitUsage; -1 when there are none or `strict` is false.
int RefuseUnknownFlags(const CLI::App& app, const std::vector<std::string>& unknown, bool strict);

// A usage error as every tool prints it: "<tool>: <reason>", `lines`, then
// "Run with --help for the list of flags.".
void PrintUsageError(const CLI::App& app, const std::string& reason,
                     const std::vector<std::string>& lines = {});

// A boolean flag TFLite-style: `--name`, `--name=true|false|1|0`, or `--name true`.
CLI::Option* AddBoolFlag(CLI::App& app, const std::string& name, bool* value,
                         const std::string& description);

// A thread count with TFLite's meanings: N >= 1 threads, 0 the same as 1, -1 the
// runtime's choice. Anything else is refused in one line naming the flag and the value.
CLI::Option* AddNumThreadsFlag(CLI::App& app, const std::string& name, int* value,
                               const std::string& description);

// --version (every tool; ParseFlags and ParseFlagsAsTflite add it): the project's version,
// the build, and the versions of the libraries it was built with.
std::string VersionText(const std::string& tool);

// The model, as every tool takes it: `--graph=M` (or TFLite's other name for the tool,
// e.g. inference_diff's --model_file) or a plain argument.
struct ModelFlag {
  std::string graph, alias, positional;
};
void AddModelFlag(CLI::App& app, ModelFlag* model, const std::string& alias = "");
// After parsing: the path; "" with `error` set when it is given twice differently, or
// not at all (then `error` says how to give it).
std::string ModelPath(const ModelFlag& model, const std::string& tool, std::string* error);

// "--tensors" for an unknown "--tensor", or "" when nothing is close.
std::string SuggestFlag(const CLI::App& app, const std::string& unknown);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_CLI_FLAGS_H_
