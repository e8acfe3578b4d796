// libFuzzer target: bytes -> Model::LoadBuffer -> everything `inspect_ops` does with a
// model that loads. Run it with scripts/fuzz.sh (ASan + UBSan, bounded time).
//
// Any crash, sanitizer report, leak or uncaught exception is a bug: the library's
// contract is that bad bytes are refused with a Status and that a model which loads
// may be walked, printed and serialised without further checks.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "inspect/inspect_report.h"
#include "model/model.h"
#include "resolver/op_catalog.h"
#include "resolver/resolver_check.h"
#include "tensorflow/lite/kernels/register.h"

namespace {

// Real loads are mmapped (page-aligned) or come from aligned allocations, and the
// flatbuffer verifier checks alignment relative to the buffer start; copy the input
// to a 16-byte-aligned buffer so that alignment findings are about the bytes, not
// about where libFuzzer happened to put them. The buffer is exactly `size` bytes so
// ASan still catches reads past the end.
struct AlignedFree {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(16)); }
};

// Keep results observable so that the optimiser cannot drop the work.
volatile size_t g_sink = 0;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tflite_inspect;
  std::unique_ptr<uint8_t[], AlignedFree> buf(
      static_cast<uint8_t*>(::operator new[](size == 0 ? 1 : size, std::align_val_t(16))));
  if (size != 0) std::memcpy(buf.get(), data, size);

  auto loaded = Model::LoadBuffer(buf.get(), size);
  if (!loaded.ok()) {
    g_sink = g_sink + loaded.status().message().size();
    return 0;
  }
  const Model& model = *loaded.value();

  ModelReport report = BuildReport(model);
  TextOptions options;
  options.tensors = true;
  std::string text = FormatReportText(report, options);
  nlohmann::json j = ReportToJson(report, options);

  static const OpCatalog catalog = tflite::ops::builtin::BuiltinOpResolver().Catalog();
  ResolverCheckResult check = CheckResolver(model, catalog);
  text += FormatResolverCheckText(check);
  j["resolver_check"] = ResolverCheckToJson(check);
  // What inspect_ops --json prints; must not throw on any model bytes.
  std::string json_text = DumpJson(j);

  std::string source = EmitResolverSource(model);
  g_sink = g_sink + text.size() + json_text.size() + source.size();
  return 0;
}
