#include "tools/providers/sample_provider.h"

#include <fmt/format.h>

#include "sample/sample_delegate.h"
#include "sample/test_delegate.h"

namespace tflite_inspect {
namespace {

DelegateInstance Wrap(std::string provider, std::string label,
                      tflite::TfLiteDelegateUniquePtr delegate) {
  DelegateInstance d;
  d.provider = std::move(provider);
  d.label = std::move(label);
  auto deleter = delegate.get_deleter();
  d.delegate = {delegate.release(), deleter};
  return d;
}

class SampleProvider : public DelegateProvider {
 public:
  std::string name() const override { return "sample"; }
  void AddFlags(CLI::App& app) override {
    app.add_flag("--use_sample_delegate", use_, "Apply the ADD/SUB float32 sample delegate");
  }
  std::vector<std::string> flag_names() const override { return {"use_sample_delegate"}; }
  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    if (verbose || use_) lines->push_back(fmt::format("Use sample delegate: [{}]", use_ ? 1 : 0));
  }
  Result<std::vector<DelegateInstance>> CreateDelegates(
      const DelegateCommonParams& common) override {
    std::vector<DelegateInstance> out;
    if (!use_) return out;
    out.push_back(Wrap("sample", "SampleDelegate",
                       CreateSampleDelegate({common.max_delegated_partitions,
                                             common.min_nodes_per_partition,
                                             common.first_delegate_node_index,
                                             common.last_delegate_node_index})));
    return out;
  }

 private:
  bool use_ = false;
};

class TestProvider : public DelegateProvider {
 public:
  std::string name() const override { return "test"; }
  void AddFlags(CLI::App& app) override {
    app.add_option("--test_delegate_ops", ops_,
                   "Apply the test delegate, claiming these ops (comma-separated builtin or "
                   "custom op names); it runs the CPU kernels it replaced");
    app.add_option("--test_delegate_error", error_,
                   "Add this to every float output of the test delegate's partitions: a "
                   "deliberately wrong delegate, to try inference_diff (default 0)");
  }
  std::vector<std::string> flag_names() const override { return {"test_delegate_ops"}; }
  OptionFlags option_flags() const override { return {{"options.ops", "--test_delegate_ops"}}; }
  void LogParams(bool verbose, std::vector<std::string>* lines) const override {
    if (verbose || !ops_.empty()) lines->push_back(fmt::format("Test delegate ops: [{}]", ops_));
    if (verbose || error_ != 0.0f) lines->push_back(fmt::format("Test delegate error: [{}]", error_));
  }
  Result<std::vector<DelegateInstance>> CreateDelegates(
      const DelegateCommonParams& common) override {
    std::vector<DelegateInstance> out;
    if (ops_.empty()) return out;
    TestDelegateOptions options;
    options.ops = ParseOpList(ops_);
    if (options.ops.empty()) {
      return InvalidArgument("--test_delegate_ops: no op names in '" + ops_ + "'");
    }
    options.max_delegated_partitions = common.max_delegated_partitions;
    options.min_nodes_per_partition = common.min_nodes_per_partition;
    options.first_delegate_node_index = common.first_delegate_node_index;
    options.last_delegate_node_index = common.last_delegate_node_index;
    options.output_error = error_;
    out.push_back(Wrap("test", "TestDelegate", CreateTestDelegate(options)));
    return out;
  }

 private:
  std::string ops_;
  float error_ = 0.0f;
};

}  // namespace

std::unique_ptr<DelegateProvider> CreateSampleDelegateProvider() {
  return std::make_unique<SampleProvider>();
}
std::unique_ptr<DelegateProvider> CreateTestDelegateProvider() {
  return std::make_unique<TestProvider>();
}

}  // namespace tflite_inspect
