#include "cli/flags.h"

#include <cctype>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "CLI/Version.hpp"
#include "flatbuffers/base.h"
#include "resolver/runtime_versions.h"
#include "util/strings.h"

namespace tflite_inspect {

std::string SuggestFlag(const CLI::App& app, const std::string& unknown) {
  std::string name = unknown.substr(0, unknown.find('='));
  while (!name.empty() && name[0] == '-') name.erase(0, 1);
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& n : opt->get_lnames()) names.push_back(n);
  }
  // A flag name is short; allow up to a third of it to differ.
  std::string best;
  int best_d = static_cast<int>(name.size()) / 3 + 1;
  for (const auto& n : names) {
    int d = EditDistance(ToLower(name), ToLower(n));
    if (d < best_d || (d == best_d && best.empty() && d <= 2)) {
      best = n;
      best_d = d;
    }
  }
  return best.empty() ? "" : "--" + best;
}

CLI::Option* AddNumThreadsFlag(CLI::App& app, const std::string& name, int* value,
                               const std::string& description) {
  CLI::Validator threads(
      [](std::string& text) -> std::string {
        // Digits only (CLI11's own message for "abc" or "1e3" names the type, not the rule).
        size_t i = text.size() > 1 && text[0] == '-' ? 1 : 0;
        bool digits = i < text.size() && text.size() - i <= 9;
        for (size_t k = i; digits && k < text.size(); ++k) digits = text[k] >= '0' && text[k] <= '9';
        if (digits && std::stoi(text) >= -1) return "";
        return "'" + text + "' is not a thread count: N >= 1, 0 (one thread) or -1 (the "
               "runtime's choice), as in TFLite";
      },
      "THREADS");
  return app.add_option(name, *value, description)->check(threads);
}

CLI::Option* AddBoolFlag(CLI::App& app, const std::string& name, bool* value,
                         const std::string& description) {
  // A flag that may take one value: bare means true, and the value may follow a space.
  return app.add_flag(name, *value, description)->expected(0, 1)->take_last();
}

std::vector<std::string> UnknownFlagLines(const CLI::App& app,
                                          const std::vector<std::string>& unknown) {
  std::vector<std::string> lines;
  for (const auto& extra : unknown) {
    if (extra.rfind("-", 0) != 0) continue;
    if (app.get_option_no_throw(extra.substr(0, extra.find('='))) != nullptr) {
      // A repeat of a flag the tool knows (ParseFlagsAsTflite).
      lines.push_back("  repeated flag '" + extra +
                      "': the first value given is used, as in TFLite");
      continue;
    }
    std::string s = SuggestFlag(app, extra);
    lines.push_back("  unknown flag '" + extra.substr(0, extra.find('=')) + "'" +
                    (s.empty() ? "" : "; did you mean '" + s + "'?"));
  }
  return lines;
}

namespace {

// The long flag name (without "--") that a CLI11 conversion or validation error is
// about: the longest option name the message mentions; "" if none.
std::string FlagOfError(const CLI::App& app, const std::string& what) {
  std::string best;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& n : o->get_lnames()) {
      const std::string flag = "--" + n;
      const size_t at = what.find(flag);
      if (at == std::string::npos || n.size() <= best.size()) continue;
      const size_t end = at + flag.size();
      // Not a prefix of a longer flag's name in the message.
      if (end < what.size() && (std::isalnum(static_cast<unsigned char>(what[end])) ||
                                what[end] == '_')) {
        continue;
      }
      best = n;
    }
  }
  return best;
}

// What a value a flag cannot take is, in words: "--num_runs: 'abc' is not an integer"
// (CLI11 says "Could not convert: --num_runs = abc"). Other errors: CLI11's text.
std::string ValueErrorText(const CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ConversionError*>(&e) == nullptr) return what;
  const std::string flag = FlagOfError(app, what);
  const size_t eq = what.find(" = ");
  if (flag.empty() || eq == std::string::npos) return what;
  const std::string value = what.substr(eq + 3);
  const CLI::Option* opt = app.get_option_no_throw("--" + flag);
  const std::string type = opt != nullptr ? opt->get_type_name() : "";
  std::string want = "a valid value";
  if (type.rfind("UINT", 0) == 0) {
    want = "an integer >= 0";
  } else if (type.rfind("INT", 0) == 0) {
    want = "an integer";
  } else if (type.rfind("FLOAT", 0) == 0) {
    want = "a number";
  } else if (type.rfind("BOOLEAN", 0) == 0 || opt != nullptr && opt->get_expected_min() == 0) {
    want = "true or false";
  }
  return "--" + flag + ": '" + value + "' is not " + want;
}

// --help: the help text and 0; an unknown flag: its "did you mean" lines; any other
// usage error: CLI11's text. All but --help return kExitUsage.
int ReportParseError(CLI::App& app, const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::CallForHelp*>(&e) != nullptr ||
      dynamic_cast<const CLI::CallForAllHelp*>(&e) != nullptr ||
      dynamic_cast<const CLI::CallForVersion*>(&e) != nullptr) {
    return app.exit(e);
  }
  PrintUsageError(app, ValueErrorText(app, e),
                  dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr
                      ? UnknownFlagLines(app, app.remaining())
                      : std::vector<std::string>{});
  return kExitUsage;
}

void AddVersionFlag(CLI::App& app) {
  if (app.get_option_no_throw("--version") == nullptr) {
    app.set_version_flag("--version", VersionText(app.get_name()),
                         "Print the version, the build and the libraries', then exit");
  }
}

}  // namespace

std::string VersionText(const std::string& tool) {
  return fmt::format(
      "{} (tflite-inspect) {}\n"
      "build: {}, {} {}, {}\n"
      "TFLite: schema and builtin op versions of releases {} to {}\n"
      "libraries: FlatBuffers {}.{}.{}, XNNPACK {} (Debian), CLI11 {}, fmt {}.{}.{}, "
      "nlohmann_json {}.{}.{}; OpenCL loaded at run time",
      tool.empty() ? "tflite-inspect" : tool, TFI_VERSION, TFI_BUILD_TYPE,
#if defined(__clang__)
      "clang", __clang_version__,
#else
      "GCC", __VERSION__,
#endif
#if defined(__aarch64__)
      "aarch64",
#elif defined(__arm__)
      "arm",
#elif defined(__x86_64__)
      "x86_64",
#else
      "unknown architecture",
#endif
      KnownReleases().front().Name(), KnownReleases().back().Name(), FLATBUFFERS_VERSION_MAJOR,
      FLATBUFFERS_VERSION_MINOR, FLATBUFFERS_VERSION_REVISION, TFI_XNNPACK_VERSION, CLI11_VERSION,
      FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100,
      NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH);
}

void AddModelFlag(CLI::App& app, ModelFlag* model, const std::string& alias) {
  app.add_option("model", model->positional, "Model file (same as --graph)");
  app.add_option("--graph", model->graph, "Model file (.tflite)");
  if (!alias.empty()) app.add_option(alias, model->alias, "Same as --graph");
}

std::string ModelPath(const ModelFlag& model, const std::string& tool, std::string* error) {
  std::string path;
  for (const std::string* given : {&model.graph, &model.alias, &model.positional}) {
    if (given->empty()) continue;
    if (!path.empty() && *given != path) {
      *error = tool + ": the model is given twice, as '" + path + "' and '" + *given +
               "'; give it once (--graph=M or as an argument)";
      return "";
    }
    path = *given;
  }
  if (path.empty()) {
    *error = tool + ": no model given; usage: " + tool + " --graph=M.tflite [flags] (or " +
             tool + " M.tflite [flags])";
  }
  return path;
}

namespace {

// The option of the app that `arg` names as `--name=`, with nothing after the `=`; null
// for any other argument.
const CLI::Option* EmptyValueOption(const CLI::App& app, const std::string& arg) {
  if (arg.size() <= 3 || arg.rfind("--", 0) != 0 || arg.back() != '=') return nullptr;
  return app.get_option_no_throw(arg.substr(0, arg.size() - 1));
}

// A text option (type name "TEXT", with a validator's description after it if any).
bool IsText(const CLI::Option& opt) { return opt.get_type_name().rfind("TEXT", 0) == 0; }

// `--name=` with nothing after it: TFLite's parser gives a string flag the empty value;
// CLI11 takes the missing text for an error. A text option of the app so written becomes
// `--name ""`; other types fail, as in TFLite (ParseFlagsAsTflite).
std::vector<std::string> ExpandEmptyValues(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    const CLI::Option* opt = i > 0 ? EmptyValueOption(app, a) : nullptr;
    if (opt != nullptr && IsText(*opt)) {
      out.push_back(a.substr(0, a.size() - 1));
      out.emplace_back();
      continue;
    }
    out.push_back(a);
  }
  return out;
}

// The first `--name=` with nothing after it for a number or a boolean (TFLite's parser
// cannot read those from nothing; CLI11 would take the next argument as the value, or a
// bare boolean for true); "" when there is none.
std::string EmptyNonTextValue(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const CLI::Option* opt = EmptyValueOption(app, argv[i]);
    if (opt != nullptr && !IsText(*opt)) return argv[i];
  }
  return "";
}

// Parses `argv` after ExpandEmptyValues.
void ParseExpanded(CLI::App& app, int argc, const char* const* argv) {
  const std::vector<std::string> args = ExpandEmptyValues(app, argc, argv);
  std::vector<const char*> ptrs;
  for (const auto& a : args) ptrs.push_back(a.c_str());
  app.parse(static_cast<int>(ptrs.size()), ptrs.data());
}

// Whether `opt` takes one value (a repeat replaces it), not a list.
bool SingleValued(const CLI::Option& opt) {
  const auto policy = opt.get_multi_option_policy();
  return opt.get_items_expected_max() <= 1 &&
         (policy == CLI::MultiOptionPolicy::Throw || policy == CLI::MultiOptionPolicy::TakeLast);
}

// TFLite's parser gives each flag its first `--name=value` and leaves a later one
// unconsumed (warned about, the run goes on): a script that appends an override to a
// base flag line runs with the base value in TFLite. For a single-valued option of `app`,
// each `--name=value` after the first is marked in `repeat` (by argv index).
std::vector<bool> RepeatedFlags(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<bool> repeat(argc, false);
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) != 0 || eq == std::string::npos || eq <= 2) continue;
    const std::string name = a.substr(0, eq);
    const CLI::Option* opt = app.get_option_no_throw(name);
    if (opt != nullptr && SingleValued(*opt) && !seen.insert(name).second) repeat[i] = true;
  }
  return repeat;
}

}  // namespace

std::vector<std::string> UnconsumedFlagWarnings(const CLI::App& app,
                                                const std::vector<std::string>& unknown) {
  if (unknown.empty()) return {};
  std::string joined;
  for (const auto& u : unknown) joined += (joined.empty() ? "" : " ") + u;
  std::vector<std::string> lines = {"Unconsumed cmdline flags: " + joined};
  for (const auto& line : UnknownFlagLines(app, unknown)) {
    if (line.find("did you mean") != std::string::npos || line.rfind("  repeated flag", 0) == 0) {
      lines.push_back(line.substr(2));
    }
  }
  return lines;
}

CLI::Option* AddStrictFlagsFlag(CLI::App& app, bool* strict) {
  return AddBoolFlag(app, "--strict_flags", strict,
                     "(not in TFLite) unknown flags are an error (exit 2) instead of TFLite's "
                     "\"Unconsumed cmdline flags\" warning");
}

int RefuseUnknownFlags(const CLI::App& app, const std::vector<std::string>& unknown, bool strict) {
  if (!strict || unknown.empty()) return -1;
  PrintUsageError(app, "unknown flags under --strict_flags:", UnknownFlagLines(app, unknown));
  return kExitUsage;
}

void PrintUsageError(const CLI::App& app, const std::string& reason,
                     const std::vector<std::string>& lines) {
  std::cerr << app.get_name() << ": " << reason << "\n";
  for (const auto& line : lines) std::cerr << line << "\n";
  std::cerr << "Run with --help for the list of flags.\n";
}

int ParseFlagsAsTflite(CLI::App& app, int argc, const char* const* argv,
                       std::vector<std::string>* unknown,
                       const std::function<int(const std::string&, const std::string&)>&
                           tflite_failure) {
  AddVersionFlag(app);
  app.allow_extras();
  const std::string empty = EmptyNonTextValue(app, argc, argv);
  if (!empty.empty()) {
    const std::string name = empty.substr(0, empty.size() - 1);
    return tflite_failure(
        "Failed to parse flag '" + name.substr(2) + "' against argv '" + empty + "'",
        name + ": an empty value");
  }
  const std::vector<bool> repeat = RepeatedFlags(app, argc, argv);
  std::vector<const char*> kept;
  for (int i = 0; i < argc; ++i) {
    if (!repeat[i]) kept.push_back(argv[i]);
  }
  try {
    ParseExpanded(app, static_cast<int>(kept.size()), kept.data());
  } catch (const CLI::ParseError& e) {
    const bool value_error = dynamic_cast<const CLI::ConversionError*>(&e) != nullptr ||
                             dynamic_cast<const CLI::ValidationError*>(&e) != nullptr;
    const std::string flag = value_error ? FlagOfError(app, e.what()) : "";
    if (flag.empty()) return ReportParseError(app, e);
    // The argument as TFLite saw it: its first `--flag=value` (or `--flag value`).
    std::string arg = "--" + flag;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a.rfind("--" + flag + "=", 0) == 0) {
        arg = a;
        break;
      }
      if (a == "--" + flag) {
        arg = i + 1 < argc ? a + "=" + argv[i + 1] : a;
        break;
      }
    }
    return tflite_failure("Failed to parse flag '" + flag + "' against argv '" + arg + "'",
                          ValueErrorText(app, e));
  }
  // The unconsumed arguments in command-line order: the repeats among what CLI11 left.
  const std::vector<std::string> left = app.remaining();
  unknown->clear();
  size_t j = 0;
  for (int i = 1; i < argc; ++i) {
    if (repeat[i]) {
      unknown->push_back(argv[i]);
    } else if (j < left.size() && left[j] == argv[i]) {
      unknown->push_back(left[j++]);
    }
  }
  unknown->insert(unknown->end(), left.begin() + static_cast<std::ptrdiff_t>(j), left.end());
  return -1;
}

int ParseFlags(CLI::App& app, int argc, const char* const* argv) {
  AddVersionFlag(app);
  const std::string empty = EmptyNonTextValue(app, argc, argv);
  if (!empty.empty()) {
    PrintUsageError(app, empty.substr(0, empty.size() - 1) + ": an empty value");
    return kExitUsage;
  }
  try {
    ParseExpanded(app, argc, argv);
  } catch (const CLI::ParseError& e) {
    return ReportParseError(app, e);
  }
  return -1;
}

}  // namespace tflite_inspect
