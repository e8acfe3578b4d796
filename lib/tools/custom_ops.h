// Custom ops for the tools: bundled libraries (`--custom_ops=mediapipe`) and plugins
// loaded from shared objects (`--custom_op_library=path.so`), added to a resolver that
// already holds the builtins. The plugin contract is in docs/custom_ops.md:
//
//   extern "C" TfLiteStatus TfliteInspectRegisterCustomOps(tflite::MutableOpResolver*);
//
// A plugin calls resolver->AddCustom(...), which it resolves from the loading process,
// so executables that load plugins are linked with exported symbols (ENABLE_EXPORTS).
// Not thread-safe (dlopen/dlerror); call from the tool's main thread.
#ifndef TFLITE_INSPECT_LIB_TOOLS_CUSTOM_OPS_H_
#define TFLITE_INSPECT_LIB_TOOLS_CUSTOM_OPS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "resolver/resolver_check.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "util/status.h"

namespace tflite_inspect {

// The name of the registration function a plugin exports.
inline constexpr char kCustomOpRegistrationSymbol[] = "TfliteInspectRegisterCustomOps";

// Keeps loaded plugins mapped: the registrations added to a resolver point into them, so
// this must outlive the resolver and every interpreter built with it. Closes them (in
// reverse order) when destroyed. Move-only.
class CustomOpLibraryHandles {
 public:
  CustomOpLibraryHandles() = default;
  ~CustomOpLibraryHandles();
  CustomOpLibraryHandles(CustomOpLibraryHandles&& other) noexcept;
  CustomOpLibraryHandles& operator=(CustomOpLibraryHandles&& other) noexcept;
  CustomOpLibraryHandles(const CustomOpLibraryHandles&) = delete;
  CustomOpLibraryHandles& operator=(const CustomOpLibraryHandles&) = delete;

  void Add(void* handle) { handles_.push_back(handle); }
  size_t size() const { return handles_.size(); }

 private:
  void Close();
  std::vector<void*> handles_;
};

// Names accepted by --custom_ops ("mediapipe").
std::vector<std::string> BundledCustomOpLibraries();

// For each unresolved custom op in `check` that a bundled library provides, points the
// hint at the flag that adds it ("--custom_ops=mediapipe").
void AddBundledCustomOpHints(ResolverCheckResult* check);

// A hint for TFLite's "Encountered unresolved custom op: NAME." in `error` (a runtime
// error text): the flag that would register NAME here, "--custom_ops=<bundled>" when a
// bundled library has it, else "--custom_op_library=". Empty when `error` names none.
std::string UnresolvedCustomOpHint(const std::string& error);

// Adds each bundled library in `bundled` and then each plugin in `so_paths` to
// `resolver` (later registrations of the same op and version replace earlier ones).
// Errors name the library or path: an unknown bundled name (listing the known ones), a
// missing file, a dlopen failure (with dlerror's text), a missing registration symbol,
// or a registration function that returns an error. Plugins loaded before an error stay
// in `handles`.
Status AddCustomOpLibraries(const std::vector<std::string>& bundled,
                            const std::vector<std::string>& so_paths,
                            tflite::MutableOpResolver* resolver, CustomOpLibraryHandles* handles);

// The two flags, shared by the tools. Values may repeat the flag or be comma-separated.
struct CustomOpFlags {
  std::vector<std::string> custom_ops;
  std::vector<std::string> custom_op_library;
};
void AddCustomOpFlags(CLI::App& app, CustomOpFlags* flags);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_CUSTOM_OPS_H_
