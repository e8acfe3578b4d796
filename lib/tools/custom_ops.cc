#include "tools/custom_ops.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <utility>

#include "custom_ops/mediapipe/mediapipe_ops.h"

namespace tflite_inspect {
namespace {

using RegisterFn = TfLiteStatus (*)(tflite::MutableOpResolver*);

struct BundledLibrary {
  const char* name;
  void (*add)(tflite::MutableOpResolver*);
};

// The one list of custom-op libraries built into the tools.
constexpr BundledLibrary kBundled[] = {
    {"mediapipe", RegisterMediaPipeOps},
};

std::string KnownNames() {
  std::string s;
  for (const auto& b : kBundled) s += (s.empty() ? "" : ", ") + std::string(b.name);
  return s;
}

Status LoadFailure(const std::string& path, const std::string& reason) {
  return InvalidArgument("failed to load custom op library '" + path + "': " + reason);
}

Status LoadPlugin(const std::string& path, tflite::MutableOpResolver* resolver,
                  CustomOpLibraryHandles* handles) {
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
  handles->Add(handle);
  dlerror();
  void* sym = dlsym(handle, kCustomOpRegistrationSymbol);
  if (sym == nullptr) {
    return LoadFailure(path, std::string("it does not export ") + kCustomOpRegistrationSymbol +
                                 " (declare it extern \"C\"; see docs/custom_ops.md)");
  }
  auto fn = reinterpret_cast<RegisterFn>(sym);
  if (fn(resolver) != kTfLiteOk) {
    return LoadFailure(path, std::string(kCustomOpRegistrationSymbol) + " returned an error");
  }
  return Status::Ok();
}

}  // namespace

CustomOpLibraryHandles::~CustomOpLibraryHandles() { Close(); }

CustomOpLibraryHandles::CustomOpLibraryHandles(CustomOpLibraryHandles&& other) noexcept
    : handles_(std::move(other.handles_)) {
  other.handles_.clear();
}

CustomOpLibraryHandles& CustomOpLibraryHandles::operator=(CustomOpLibraryHandles&& other) noexcept {
  if (this != &other) {
    Close();
    handles_ = std::move(other.handles_);
    other.handles_.clear();
  }
  return *this;
}

void CustomOpLibraryHandles::Close() {
  for (auto it = handles_.rbegin(); it != handles_.rend(); ++it) dlclose(*it);
  handles_.clear();
}

void AddBundledCustomOpHints(ResolverCheckResult* check) {
  for (const auto& b : kBundled) {
    tflite::MutableOpResolver resolver;
    b.add(&resolver);
    const OpCatalog catalog = resolver.Catalog();
    for (auto& row : check->rows) {
      if (row.status != OpResolveStatus::kCustomUnresolved) continue;
      if (catalog.HasCustom(row.code.custom_name, row.code.version)) {
        row.hint = "provided by the bundled '" + std::string(b.name) +
                   "' custom ops: add --custom_ops=" + b.name;
      }
    }
  }
}

std::string UnresolvedCustomOpHint(const std::string& error) {
  static constexpr char kPrefix[] = "Encountered unresolved custom op: ";
  const size_t at = error.find(kPrefix);
  if (at == std::string::npos) return "";
  const size_t begin = at + sizeof(kPrefix) - 1;
  const size_t end = error.find_first_of(".\n", begin);
  const std::string name = error.substr(begin, end == std::string::npos ? end : end - begin);
  if (name.empty()) return "";
  for (const auto& b : kBundled) {
    tflite::MutableOpResolver resolver;
    b.add(&resolver);
    for (int v = 1; v <= 16; ++v) {
      if (resolver.FindOp(name.c_str(), v) != nullptr) {
        return "hint: " + name + " is in the bundled '" + b.name +
               "' custom ops: add --custom_ops=" + b.name;
      }
    }
  }
  return "hint: " + name +
         " is not bundled here: register it with --custom_op_library=LIB.so "
         "(docs/custom_ops.md)";
}

std::vector<std::string> BundledCustomOpLibraries() {
  std::vector<std::string> names;
  for (const auto& b : kBundled) names.push_back(b.name);
  return names;
}

Status AddCustomOpLibraries(const std::vector<std::string>& bundled,
                            const std::vector<std::string>& so_paths,
                            tflite::MutableOpResolver* resolver, CustomOpLibraryHandles* handles) {
  if (resolver == nullptr || handles == nullptr) {
    return Status(StatusCode::kInternal, "AddCustomOpLibraries: null resolver or handles");
  }
  for (const std::string& name : bundled) {
    const BundledLibrary* found = nullptr;
    for (const auto& b : kBundled) {
      if (name == b.name) found = &b;
    }
    if (found == nullptr) {
      return InvalidArgument("unknown custom op library '" + name +
                             "' in --custom_ops (known: " + KnownNames() + ")");
    }
    found->add(resolver);
  }
  for (const std::string& path : so_paths) {
    TFI_RETURN_IF_ERROR(LoadPlugin(path, resolver, handles));
  }
  return Status::Ok();
}

void AddCustomOpFlags(CLI::App& app, CustomOpFlags* flags) {
  app.add_option("--custom_ops", flags->custom_ops,
                 "Bundled custom-op libraries to add, comma-separated (" + KnownNames() + ")")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--custom_op_library", flags->custom_op_library,
                 "Shared object exporting TfliteInspectRegisterCustomOps (repeatable or "
                 "comma-separated; docs/custom_ops.md)")
      ->delimiter(',')
      ->allow_extra_args(false);
}

}  // namespace tflite_inspect
