#include "xnnpack/xnnpack_provider.h"

#include <fmt/format.h>

#include "cli/flags.h"
#include "xnnpack/xnnpack_delegate.h"

namespace tflite_inspect {
namespace {

class XnnpackProvider : public DelegateProvider {
 public:
  std::string name() const override { return "xnnpack"; }
  void AddFlags(CLI::App& app) override {
    AddBoolFlag(app, "--use_xnnpack", &use_, "Apply the XNNPACK delegate (float32 partitions)");
    AddBoolFlag(app, "--xnnpack_force_fp16", &force_fp16_,
                "Run the XNNPACK partitions in fp16 (fails where this XNNPACK cannot)");
  }
  std::vector<std::string> flag_names() const override { return {"use_xnnpack"}; }
  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    if (verbose || use_) lines->push_back(fmt::format("Use xnnpack: [{}]", use_ ? 1 : 0));
    if (verbose || force_fp16_) {
      lines->push_back(fmt::format("xnnpack force fp16: [{}]", force_fp16_ ? 1 : 0));
    }
  }
  Result<std::vector<DelegateInstance>> CreateDelegates(const DelegateCommonParams& common) override {
    std::vector<DelegateInstance> out;
    if (!use_) {
      if (force_fp16_) return InvalidArgument("--xnnpack_force_fp16 needs --use_xnnpack");
      return out;
    }
    XnnpackDelegateOptions options;
    options.max_delegated_partitions = common.max_delegated_partitions;
    options.min_nodes_per_partition = common.min_nodes_per_partition;
    options.force_fp16 = force_fp16_;
    auto created = CreateXnnpackDelegate(options);
    if (!created.ok()) return created.status();
    DelegateInstance d;
    d.provider = "xnnpack";
    d.label = "XNNPACK";
    auto deleter = created.value().get_deleter();
    d.delegate = {created.value().release(), deleter};
    out.push_back(std::move(d));
    return out;
  }

 private:
  bool use_ = false;
  bool force_fp16_ = false;
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateXnnpackDelegateProvider() {
  return std::make_unique<XnnpackProvider>();
}

}  // namespace tflite_inspect
