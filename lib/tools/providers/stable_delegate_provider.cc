#include "tools/providers/stable_delegate_provider.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tflite_inspect {

Result<StableDelegateSettings> ReadStableDelegateSettings(const std::string& path) {
  // The first sentence of each error is TFLite's (tflite_settings_json_parser.cc,
  // stable_delegate_provider.cc); what follows is ours.
  std::ifstream f(path);
  if (!f) {
    return IoError(fmt::format("Failed to load the delegate settings file ({}): {}", path,
                               std::strerror(errno)));
  }
  std::stringstream text;
  text << f.rdbuf();
  nlohmann::json j;
  try {
    // TFLite reads the file with flatbuffers' JSON parser, which takes // comments (its own
    // sample settings files have them).
    j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/true,
                              /*ignore_comments=*/true);
  } catch (const nlohmann::json::exception& e) {
    return IoError(fmt::format("Failed to parse the delegate settings file ({}): {}", path, e.what()));
  }
  auto invalid = [&](const std::string& why) {
    return IoError(fmt::format("Invalid TFLiteSettings for the stable delegate ({}): {}", path, why));
  };
  if (!j.is_object()) return invalid("the file is not a JSON object (TFLite's TFLiteSettings)");
  const auto loader = j.find("stable_delegate_loader_settings");
  if (loader == j.end()) return invalid("no stable_delegate_loader_settings");
  if (!loader->is_object()) return invalid("stable_delegate_loader_settings is not an object");
  StableDelegateSettings s;
  for (const auto& [key, field] : {std::pair{"delegate_path", &s.delegate_path},
                                   std::pair{"delegate_name", &s.delegate_name}}) {
    const auto v = loader->find(key);
    if (v == loader->end()) continue;
    if (!v->is_string()) {
      return invalid(fmt::format("stable_delegate_loader_settings.{} is not a string", key));
    }
    *field = v->get<std::string>();
  }
  if (s.delegate_path.empty()) return invalid("no stable_delegate_loader_settings.delegate_path");
  return s;
}

namespace {

class StableDelegateProvider : public DelegateProvider {
 public:
  std::string name() const override { return "stable_delegate"; }
  void AddFlags(CLI::App& app) override {
    app.add_option("--stable_delegate_settings_file", settings_file_,
                   "The path to the delegate settings JSON file (TFLite's TFLiteSettings, "
                   "stable_delegate_loader_settings.delegate_path naming the delegate). Read "
                   "and checked, then refused: stable delegates (TfLiteStableDelegate ABI) "
                   "are not supported by this build (an error, as a delegate that cannot be "
                   "created)");
  }
  std::vector<std::string> flag_names() const override { return {"stable_delegate_settings_file"}; }
  void LogParams(bool, std::vector<std::string>* lines) const override {
    // As TFLite: only when a file is given, even with --verbose.
    if (settings_file_.empty()) return;
    lines->push_back(fmt::format("Delegate settings file path: [{}]", settings_file_));
  }
  Result<std::vector<DelegateInstance>> CreateDelegates(const DelegateCommonParams&) override {
    if (settings_file_.empty()) return std::vector<DelegateInstance>{};
    auto settings = ReadStableDelegateSettings(settings_file_);
    if (!settings.ok()) return settings.status();
    const std::string name =
        settings->delegate_name.empty() ? "" : fmt::format(" '{}'", settings->delegate_name);
    return Status(
        StatusCode::kUnsupported,
        fmt::format("stable delegates (TfLiteStableDelegate ABI) are not supported by this "
                    "build: the delegate{} in {} (named by {}) makes a TfLiteOpaqueDelegate, "
                    "TFLite's opaque delegate API, which this runtime does not run; a delegate "
                    "library with TFLite's external delegate ABI "
                    "(tflite_plugin_create_delegate) loads with --external_delegate_path",
                    name, settings->delegate_path, settings_file_));
  }

 private:
  std::string settings_file_;
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateStableDelegateProvider() {
  return std::make_unique<StableDelegateProvider>();
}

}  // namespace tflite_inspect
