// inspect_ops: what a .tflite model contains and whether our resolver can load it.
#include "inspect_ops/inspect_ops_main.h"

#include <iostream>

#include "cli/flags.h"
#include "inspect/inspect_report.h"
#include "model/model.h"
#include "resolver/resolver_check.h"
#include "tensorflow/lite/kernels/register.h"
#include "tools/custom_ops.h"

namespace tflite_inspect {

int InspectOpsMain(int argc, const char* const* argv) {
  CLI::App app{"inspect_ops: summary, operator codes, operators and tensors of a .tflite model",
               "inspect_ops"};
  std::string positional, graph;
  bool tensors = false, json = false, check_resolver = false, emit_resolver = false,
       list_ops = false;
  app.add_option("model", positional, "Model file (same as --graph)");
  app.add_option("--graph", graph, "Model file (.tflite)");
  app.add_flag("--tensors", tensors, "Also print every tensor");
  app.add_flag("--json", json, "Print one JSON document (docs/inspect_ops.md)");
  app.add_flag("--check_resolver", check_resolver,
               "Report, per operator code, whether this runtime's resolver resolves it");
  app.add_flag("--emit_resolver", emit_resolver,
               "Print C++ for a MutableOpResolver registering exactly the model's ops");
  app.add_flag("--list_ops", list_ops,
               "List the ops and versions this runtime's resolver registers (no model needed)");
  CustomOpFlags custom_ops;
  AddCustomOpFlags(app, &custom_ops);
  if (int rc = ParseFlags(app, argc, argv); rc >= 0) return rc;
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
  if (!positional.empty() && !graph.empty() && positional != graph) {
    std::cerr << "inspect_ops: give the model once, either as --graph or as an argument\n";
    return kExitUsage;
  }
  const std::string path = graph.empty() ? positional : graph;
  if (path.empty()) {
    std::cerr << "inspect_ops: no model given; usage: inspect_ops --graph=M.tflite [flags]\n";
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
  if (json) {
    nlohmann::json j = ReportToJson(report, options);
    if (check) j["resolver_check"] = ResolverCheckToJson(*check);
    std::cout << DumpJson(j) << "\n";
  } else {
    std::cout << FormatReportText(report, options);
    if (check) std::cout << FormatResolverCheckText(*check);
  }
  if (!report.refusals.empty()) {
    for (const auto& r : report.refusals) std::cerr << "inspect_ops: error: " << r << "\n";
    return kExitInvalidModel;
  }
  return kExitOk;
}

}  // namespace tflite_inspect
