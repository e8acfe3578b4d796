// inspect_ops: what a .tflite model contains and whether our resolver can load it.
#include "inspect_ops/inspect_ops_main.h"

#include <iostream>

#include "cli/flags.h"
#include "inspect/inspect_report.h"
#include "inspect/runtime_report.h"
#include "model/model.h"
#include "resolver/resolver_check.h"
#include "resolver/runtime_check.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"

namespace tflite_inspect {

// --target_runtime: the model will not load on the named release (so CI can gate on it).
constexpr int kExitTargetRuntimeMiss = 3;

int InspectOpsMain(int argc, const char* const* argv) {
  CLI::App app{"inspect_ops: summary, operator codes, operators and tensors of a .tflite model",
               "inspect_ops"};
  ModelFlag model_arg;
  bool tensors = false, json = false, check_resolver = false, emit_resolver = false,
       list_ops = false;
  AddModelFlag(app, &model_arg);
  app.add_flag("--tensors", tensors, "Also print every tensor");
  app.add_flag("--json", json, "Print one JSON document (docs/inspect_ops.md)");
  app.add_flag("--check_resolver", check_resolver,
               "Report, per operator code, whether this runtime's resolver resolves it");
  app.add_flag("--emit_resolver", emit_resolver,
               "Print C++ for a MutableOpResolver registering exactly the model's ops");
  app.add_flag("--list_ops", list_ops,
               "List the ops and versions this runtime's resolver registers (no model needed)");
  bool min_runtime = false;
  std::string target_runtime;
  app.add_flag("--min_runtime", min_runtime,
               "Print the oldest TFLite release whose BuiltinOpResolver loads the model, and "
               "compare with its min_runtime_version metadata (docs/runtime_versions.md)");
  app.add_option("--target_runtime", target_runtime,
                 "TFLite release to check against (e.g. 2.8): list what it cannot resolve; "
                 "exit 3 when the model will not load there");
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  if (int rc = ParseFlags(app, argc, argv); rc >= 0) return rc;
  std::optional<TfLiteRelease> target;
  if (!target_runtime.empty()) {
    Result<TfLiteRelease> parsed = ParseRelease(target_runtime);
    if (!parsed.ok()) {
      std::cerr << "inspect_ops: error: --target_runtime: " << parsed.status().message() << "\n";
      return kExitUsage;
    }
    target = parsed.value();
  }
  // The resolver --check_resolver checks against: builtins plus any custom ops.
  CustomOpLibraryHandles plugins;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (Status st = AddCustomOpLibraries(custom_ops.custom_ops, custom_ops.custom_op_library,
                                       &resolver, &plugins);
      !st.ok()) {
    std::cerr << "inspect_ops: error: " << st.message() << "\n";
    return kExitUsage;
  }
  if (list_ops) {
    const OpCatalog catalog = resolver.Catalog();
    if (json) {
      std::cout << DumpJson(OpCatalogToJson(catalog)) << "\n";
    } else {
      std::cout << FormatOpCatalogText(catalog);
    }
    return kExitOk;
  }
  std::string model_error;
  const std::string path = ModelPath(model_arg, "inspect_ops", &model_error);
  if (path.empty()) {
    std::cerr << model_error << "\n";
    return kExitUsage;
  }

  auto model = Model::LoadFile(path);
  if (!model.ok()) {
    std::cerr << "inspect_ops: error: " << model.status().message() << "\n";
    return kExitInvalidModel;
  }
  const Model& m = *model.value();
  if (emit_resolver) {
    std::cout << EmitResolverSource(m);
    return kExitOk;
  }
  ModelReport report = BuildReport(m);
  TextOptions options{tensors};
  std::optional<ResolverCheckResult> check;
  if (check_resolver) {
    check = CheckResolver(m, resolver.Catalog());
    AddBundledCustomOpHints(&*check);
  }
  std::optional<MinRuntimeResult> min;
  if (min_runtime) min = MinRuntime(m);
  std::optional<TargetRuntimeResult> on_target;
  if (target) on_target = CheckTargetRuntime(m, *target);
  if (json) {
    nlohmann::json j = ReportToJson(report, options);
    if (check) j["resolver_check"] = ResolverCheckToJson(*check);
    if (min) j["min_runtime"] = MinRuntimeToJson(*min);
    if (on_target) j["target_runtime"] = TargetRuntimeToJson(*on_target);
    std::cout << DumpJson(j) << "\n";
  } else {
    std::cout << FormatReportText(report, options);
    if (check) std::cout << FormatResolverCheckText(*check);
    if (min) std::cout << FormatMinRuntimeText(*min);
    if (on_target) std::cout << FormatTargetRuntimeText(*on_target);
  }
  if (!report.refusals.empty()) {
    for (const auto& r : report.refusals) std::cerr << "inspect_ops: error: " << r << "\n";
    return kExitInvalidModel;
  }
  if (on_target && !on_target->loads()) {
    std::cerr << "inspect_ops: error: the model will not load on TFLite " << target->Name()
              << ": " << on_target->misses << " operator code"
              << (on_target->misses == 1 ? " does" : "s do") << " not resolve\n";
    return kExitTargetRuntimeMiss;
  }
  if (check && check->misses > 0) {
    // A CI check must fail on a miss; the report above says which and why.
    std::cerr << "inspect_ops: error: " << check->misses << " operator code"
              << (check->misses == 1 ? " does" : "s do") << " not resolve (--check_resolver)\n";
    return kExitInvalidModel;
  }
  return kExitOk;
}

}  // namespace tflite_inspect
