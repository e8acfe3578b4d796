#include "tools/providers/xnnpack_provider.h"

#include <fmt/format.h>

#include "cli/flags.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/interpreter.h"
#include "xnnpack/xnnpack_delegate.h"

namespace tflite_inspect {
namespace {

class XnnpackProvider : public DelegateProvider {
 public:
  std::string name() const override { return "xnnpack"; }
  void AddFlags(CLI::App& app) override {
    use_option_ = AddBoolFlag(
        app, "--use_xnnpack", &use_,
        "XNNPACK delegate. Not given: applied by default, after the delegates given, to models "
        "with ops it can run (float32 and 8-bit quantized), as TFLite; =true: applied at this "
        "flag's position; =false: not applied");
    AddBoolFlag(app, "--xnnpack_force_fp16", &force_fp16_,
                "Run the XNNPACK partitions in fp16 (fails where this XNNPACK cannot)");
  }
  std::vector<std::string> flag_names() const override { return {"use_xnnpack"}; }
  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    // As TFLite: a parameter given on the command line is echoed, even =false.
    const bool given = use_option_ != nullptr && use_option_->count() > 0;
    if (verbose || given) lines->push_back(fmt::format("Use xnnpack: [{}]", use_ ? 1 : 0));
    if (verbose || force_fp16_) {
      lines->push_back(fmt::format("xnnpack force fp16: [{}]", force_fp16_ ? 1 : 0));
    }
  }
  Result<std::vector<DelegateInstance>> CreateDelegates(const DelegateCommonParams& common) override {
    std::vector<DelegateInstance> out;
    const bool given = use_option_ != nullptr && use_option_->count() > 0;
    if (given && !use_) {
      if (force_fp16_) return InvalidArgument("--xnnpack_force_fp16 needs XNNPACK, but --use_xnnpack=false");
      return out;
    }
    XnnpackDelegateOptions options;
    options.max_delegated_partitions = common.max_delegated_partitions;
    options.min_nodes_per_partition = common.min_nodes_per_partition;
    options.first_delegate_node_index = common.first_delegate_node_index;
    options.last_delegate_node_index = common.last_delegate_node_index;
    options.force_fp16 = force_fp16_;
    auto created = CreateXnnpackDelegate(options);
    if (!created.ok() && given) return created.status();
    DelegateInstance d;
    d.provider = "xnnpack";
    d.label = "XNNPACK";
    if (!given) {
      d.by_default = true;
      d.applies = [options](tflite::Interpreter& interpreter) {
        for (size_t i = 0; i < interpreter.subgraphs_size(); ++i) {
          if (XnnpackTakesAnyNode(interpreter.subgraph(static_cast<int>(i))->context(), options)) return true;
        }
        return false;
      };
    }
    if (!created.ok()) {
      // By default, a CPU XNNPACK cannot serve is not an error: the CPU kernels run, and
      // the tools say so (a restricted shell without /sys hides the CPU from cpuinfo).
      d.unavailable = created.status().message();
      out.push_back(std::move(d));
      return out;
    }
    auto deleter = created.value().get_deleter();
    d.delegate = {created.value().release(), deleter};
    out.push_back(std::move(d));
    return out;
  }

 private:
  bool use_ = false;
  CLI::Option* use_option_ = nullptr;  // count() tells whether --use_xnnpack was given
  bool force_fp16_ = false;
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateXnnpackDelegateProvider() {
  return std::make_unique<XnnpackProvider>();
}

}  // namespace tflite_inspect
