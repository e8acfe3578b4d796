#include "tools/providers/xnnpack_provider.h"

#include <cstdint>

#include <fmt/format.h>

#include "cli/flags.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/interpreter.h"
#include "xnnpack/xnnpack_delegate.h"

namespace tflite_inspect {
namespace {

// xnn_create_runtime_v2's flags in Debian's XNNPACK (xnnpack.h): XNN_FLAG_HINT_SPARSE_INFERENCE,
// XNN_FLAG_HINT_FP16_INFERENCE, XNN_FLAG_FORCE_FP16_INFERENCE, XNN_FLAG_YIELD_WORKERS.
constexpr uint32_t kForceFp16RuntimeFlag = 0x4;
constexpr uint32_t kKnownRuntimeFlags = 0x1 | 0x2 | kForceFp16RuntimeFlag | 0x10;

bool Given(const CLI::Option* o) { return o != nullptr && o->count() > 0; }

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
    weight_cache_option_ = app.add_option(
        "--xnnpack_weight_cache_file_path", weight_cache_file_path_,
        "TFLite: enable file-backed weight caching. Accepted, no effect: this XNNPACK "
        "(2022-02) has no file-backed weight cache; weights are packed in memory once, when "
        "each partition is created");
    runtime_flags_option_ = app.add_option(
        "--xnnpack_runtime_flags", runtime_flags_,
        "Extra flags to pass to XNNPACK runtime: ORed into the flags of every "
        "xnn_create_runtime_v2 call (this XNNPACK knows 0x1 sparse hint, 0x2 fp16 hint, "
        "0x4 force fp16 = --xnnpack_force_fp16, 0x10 yield workers)");
    slinky_option_ = AddBoolFlag(
        app, "--xnnpack_slinky", &slinky_,
        "TFLite: enable the Slinky optimizer. Accepted, no effect: this XNNPACK (2022-02) is "
        "built without Slinky");
  }
  std::vector<std::string> flag_names() const override { return {"use_xnnpack"}; }
  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    // As TFLite: a parameter given on the command line is echoed, even =false.
    const bool given = use_option_ != nullptr && use_option_->count() > 0;
    if (verbose || given) lines->push_back(fmt::format("Use xnnpack: [{}]", use_ ? 1 : 0));
    if (verbose || force_fp16_) {
      lines->push_back(fmt::format("xnnpack force fp16: [{}]", force_fp16_ ? 1 : 0));
    }
    // TFLite's labels (LiteRT's xnnpack_delegate_provider.cc), echoed when given.
    if (verbose || Given(weight_cache_option_)) {
      lines->push_back(fmt::format("xnnpack_weight_cache_file_path: [{}]", weight_cache_file_path_));
    }
    if (verbose || Given(slinky_option_)) lines->push_back(fmt::format("Use Slinky: [{}]", slinky_ ? 1 : 0));
    if (verbose || Given(runtime_flags_option_)) {
      lines->push_back(fmt::format("Extra flags for XNNPACK runtime: [{}]", runtime_flags_));
    }
  }
  std::vector<std::string> FlagNotes() const override {
    std::vector<std::string> notes;
    if (!weight_cache_file_path_.empty()) {
      notes.push_back(fmt::format(
          "--xnnpack_weight_cache_file_path={}: no effect: this XNNPACK (2022-02) has no "
          "file-backed weight cache; weights are packed in memory once per partition, in every "
          "run, and no file is read or written",
          weight_cache_file_path_));
    }
    if (slinky_) {
      notes.push_back(
          "--xnnpack_slinky: no effect: this XNNPACK (2022-02) is built without the Slinky "
          "optimizer (TFLite ignores the flag too where XNNPACK lacks Slinky)");
    }
    const uint32_t unknown = static_cast<uint32_t>(runtime_flags_) & ~kKnownRuntimeFlags;
    if (unknown != 0) {
      notes.push_back(fmt::format(
          "--xnnpack_runtime_flags={}: bits {:#x} mean nothing to this XNNPACK (2022-02 knows "
          "0x1 sparse hint, 0x2 fp16 hint, 0x4 force fp16, 0x10 yield workers); they are "
          "passed on and change nothing",
          runtime_flags_, unknown));
    }
    return notes;
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
    // XNN_FLAG_FORCE_FP16_INFERENCE among the runtime flags is --xnnpack_force_fp16, so the
    // delegate does what that flag makes it do (every node to XNNPACK, no own steps).
    options.force_fp16 = force_fp16_ || (runtime_flags_ & kForceFp16RuntimeFlag) != 0;
    options.runtime_flags = static_cast<uint32_t>(runtime_flags_) & ~kForceFp16RuntimeFlag;
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
  std::string weight_cache_file_path_;
  int runtime_flags_ = 0;
  bool slinky_ = false;
  CLI::Option* weight_cache_option_ = nullptr;
  CLI::Option* runtime_flags_option_ = nullptr;
  CLI::Option* slinky_option_ = nullptr;
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateXnnpackDelegateProvider() {
  return std::make_unique<XnnpackProvider>();
}

}  // namespace tflite_inspect
