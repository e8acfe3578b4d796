#include "external/external_delegate.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <iostream>
#include <utility>

#include <fmt/format.h>

namespace tflite_inspect {
namespace {

// report_error carries no user data, so the messages of the create call in progress go
// to the capture installed for its duration (one thread, see the header).
struct CreateCapture {
  const std::string* path;
  const ExternalDelegateLog* log;
  std::vector<std::string>* messages;
};
thread_local CreateCapture* current_capture = nullptr;

void ReportError(const char* message) {
  const std::string text = message != nullptr ? message : "(null message)";
  CreateCapture* capture = current_capture;
  if (capture == nullptr) {
    // A plugin that kept report_error past create: still reaches the log.
    std::cerr << "external delegate: " << text << "\n";
    return;
  }
  capture->messages->push_back(text);
  const std::string line = fmt::format("external delegate {}: {}", *capture->path, text);
  if (*capture->log) {
    (*capture->log)(line);
  } else {
    std::cerr << line << "\n";
  }
}

Status LoadFailure(const std::string& path, const std::string& reason) {
  return InvalidArgument(fmt::format("failed to load external delegate '{}': {}", path, reason));
}

Result<std::shared_ptr<void>> OpenLibrary(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return LoadFailure(path, "file not found");
  if (!S_ISREG(st.st_mode)) return LoadFailure(path, "not a regular file");
  // dlopen searches the library path for a name without '/': make it a file path.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  dlerror();
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    return LoadFailure(path, std::string("dlopen failed: ") + (err ? err : "unknown error"));
  }
  return std::shared_ptr<void>(handle, [](void* h) { dlclose(h); });
}

Result<void*> FindSymbol(const std::shared_ptr<void>& library, const std::string& path,
                         const char* name) {
  dlerror();
  void* sym = dlsym(library.get(), name);
  if (sym == nullptr) {
    return LoadFailure(path, fmt::format("it does not export {} (declare it extern \"C\" with "
                                         "default visibility; see docs/delegates.md)",
                                         name));
  }
  return sym;
}

std::string JoinMessages(const std::vector<std::string>& messages) {
  std::string s;
  for (const auto& m : messages) s += (s.empty() ? "" : "; ") + m;
  return s;
}

}  // namespace

Result<std::vector<ExternalDelegateOption>> ParseExternalDelegateOptions(const std::string& text) {
  std::vector<ExternalDelegateOption> options;
  size_t start = 0;
  for (int position = 1; start <= text.size(); ++position) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    const std::string pair = text.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const size_t colon = pair.find(':');
    if (colon == std::string::npos) {
      return InvalidArgument(fmt::format(
          "option pair {} '{}' in '{}' has no ':' (expected key:value pairs separated by ';')",
          position, pair, text));
    }
    if (colon == 0) {
      return InvalidArgument(fmt::format(
          "option pair {} '{}' in '{}' has an empty key (expected key:value)", position, pair,
          text));
    }
    options.push_back({pair.substr(0, colon), pair.substr(colon + 1)});
  }
  return options;
}

Result<ExternalDelegate> LoadExternalDelegate(const std::string& path,
                                              const std::vector<ExternalDelegateOption>& options,
                                              const ExternalDelegateLog& log) {
  ExternalDelegate out;
  out.path = path;
  auto library = OpenLibrary(path);
  if (!library.ok()) return library.status();
  out.library = std::move(library.value());
  auto create_sym = FindSymbol(out.library, path, kExternalDelegateCreateSymbol);
  if (!create_sym.ok()) return create_sym.status();
  auto destroy_sym = FindSymbol(out.library, path, kExternalDelegateDestroySymbol);
  if (!destroy_sym.ok()) return destroy_sym.status();
  auto create = reinterpret_cast<ExternalDelegateCreateFn>(create_sym.value());
  auto destroy = reinterpret_cast<ExternalDelegateDestroyFn>(destroy_sym.value());

  // The plugin gets C strings that live through the call, in the given order.
  std::vector<char*> keys, values;
  for (const auto& o : options) {
    keys.push_back(const_cast<char*>(o.key.c_str()));
    values.push_back(const_cast<char*>(o.value.c_str()));
  }
  CreateCapture capture{&path, &log, &out.messages};
  CreateCapture* outer = current_capture;
  current_capture = &capture;
  TfLiteDelegate* delegate = create(keys.data(), values.data(), keys.size(), ReportError);
  current_capture = outer;
  if (delegate == nullptr) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("failed to create external delegate '{}': {} returned NULL; {}",
                              path, kExternalDelegateCreateSymbol,
                              out.messages.empty()
                                  ? std::string("the plugin reported no reason")
                                  : "the plugin reported: " + JoinMessages(out.messages)));
  }
  std::shared_ptr<void> keep = out.library;
  out.delegate = {delegate, [destroy, keep](TfLiteDelegate* d) {
                    // The library stays mapped (keep) until its destroy has run.
                    if (d != nullptr) destroy(d);
                  }};
  return out;
}

}  // namespace tflite_inspect
