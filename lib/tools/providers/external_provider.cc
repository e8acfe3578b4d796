#include "tools/providers/external_provider.h"

#include <utility>

#include <fmt/format.h>

namespace tflite_inspect {
namespace {

class ExternalProvider : public DelegateProvider {
 public:
  explicit ExternalProvider(ExternalDelegateLog log) : log_(std::move(log)) {}

  std::string name() const override { return "external"; }

  void AddFlags(CLI::App& app) override {
    app.add_option("--external_delegate_path", paths_,
                   "Shared library exporting tflite_plugin_create_delegate / "
                   "tflite_plugin_destroy_delegate; repeat for several delegates, applied in "
                   "command-line order (docs/delegates.md)")
        ->allow_extra_args(false);
    app.add_option("--external_delegate_options", options_,
                   "Options of the external delegate, 'key1:value1;key2:value2'; one per "
                   "--external_delegate_path, in the same order")
        ->allow_extra_args(false);
  }

  std::vector<std::string> flag_names() const override {
    return {"external_delegate_path", "external_delegate_options"};
  }

  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    if (verbose && paths_.empty()) {
      lines->push_back("External delegate path: []");
      lines->push_back("External delegate options: []");
    }
    for (size_t i = 0; i < paths_.size(); ++i) {
      lines->push_back(fmt::format("External delegate path: [{}]", paths_[i]));
      if (verbose || i < options_.size()) {
        lines->push_back(fmt::format("External delegate options: [{}]",
                                     i < options_.size() ? options_[i] : ""));
      }
    }
  }

  Result<std::vector<DelegateInstance>> CreateDelegates(const DelegateCommonParams&) override {
    std::vector<DelegateInstance> out;
    if (paths_.empty() && options_.empty()) return out;
    if (!options_.empty() && options_.size() != paths_.size()) {
      return InvalidArgument(fmt::format(
          "{} --external_delegate_path and {} --external_delegate_options: give "
          "--external_delegate_options once per --external_delegate_path (the n-th options "
          "go to the n-th path; use '' for a plugin without options), or not at all",
          paths_.size(), options_.size()));
    }
    // Every option string is checked before any plugin is loaded.
    std::vector<std::vector<ExternalDelegateOption>> parsed(paths_.size());
    for (size_t i = 0; i < options_.size(); ++i) {
      auto p = ParseExternalDelegateOptions(options_[i]);
      if (!p.ok()) {
        return InvalidArgument(fmt::format("--external_delegate_options #{} (for '{}'): {}", i + 1,
                                           paths_[i], p.status().message()));
      }
      parsed[i] = std::move(p.value());
    }
    for (size_t i = 0; i < paths_.size(); ++i) {
      auto loaded = LoadExternalDelegate(paths_[i], parsed[i], log_);
      if (!loaded.ok()) return loaded.status();
      DelegateInstance d;
      d.provider = "external";
      d.label = fmt::format("external({})", paths_[i]);
      d.delegate = std::move(loaded->delegate);
      d.keepalive = std::move(loaded->library);
      d.flag_occurrence = static_cast<int>(i);
      out.push_back(std::move(d));
    }
    return out;
  }

 private:
  ExternalDelegateLog log_;
  std::vector<std::string> paths_;
  std::vector<std::string> options_;
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateExternalDelegateProvider(ExternalDelegateLog log) {
  return std::make_unique<ExternalProvider>(std::move(log));
}

}  // namespace tflite_inspect
