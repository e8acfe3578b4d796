#include "sample/test_delegate.h"

#include <algorithm>
#include <memory>
#include <sstream>

#include "delegate/partition_helper.h"
#include "sample/partition_tensors.h"

namespace tflite_inspect {
namespace {

// Runs the replaced nodes, in order, with their own registrations.
class ReplayKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  ReplayKernel(const std::string& name, float output_error)
      : name_(name), output_error_(output_error) {}

  TfLiteStatus Init(TfLiteContext*, const TfLiteDelegateParams* params) override {
    nodes_.assign(params->nodes_to_replace->data,
                  params->nodes_to_replace->data + params->nodes_to_replace->size);
    outputs_.assign(params->output_tensors->data,
                    params->output_tensors->data + params->output_tensors->size);
    tensors_ = std::make_unique<PartitionTensors>(params);
    return kTfLiteOk;
  }

  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*) override {
    for (int n : nodes_) {
      TfLiteNode* node = nullptr;
      TfLiteRegistration* reg = nullptr;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      if (reg->prepare != nullptr && reg->prepare(context, node) != kTfLiteOk) {
        TF_LITE_KERNEL_LOG(context, "%s: node %d (%s) failed to prepare", name_.c_str(), n,
                           OpNameOf(*reg).c_str());
        return kTfLiteError;
      }
      TF_LITE_ENSURE_STATUS(tensors_->AllocateFor(context, *node));
    }
    return kTfLiteOk;
  }

  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode*) override {
    for (int n : nodes_) {
      TfLiteNode* node = nullptr;
      TfLiteRegistration* reg = nullptr;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, n, &node, &reg));
      if (reg->invoke != nullptr && reg->invoke(context, node) != kTfLiteOk) {
        TF_LITE_KERNEL_LOG(context, "%s: node %d (%s) failed to invoke", name_.c_str(), n,
                           OpNameOf(*reg).c_str());
        return kTfLiteError;
      }
    }
    if (output_error_ != 0.0f) {
      for (int t : outputs_) {
        TfLiteTensor& tensor = context->tensors[t];
        if (tensor.type != kTfLiteFloat32 || tensor.data.f == nullptr) continue;
        for (size_t i = 0; i < tensor.bytes / sizeof(float); ++i) tensor.data.f[i] += output_error_;
      }
    }
    return kTfLiteOk;
  }

 private:
  std::string name_;
  float output_error_;
  std::vector<int> nodes_;
  std::vector<int> outputs_;
  std::unique_ptr<PartitionTensors> tensors_;
};

class TestDelegate : public tflite::SimpleDelegateInterface {
 public:
  explicit TestDelegate(TestDelegateOptions options) : options_(std::move(options)) {}

  bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration, const TfLiteNode* node,
                                 TfLiteContext* context) const override {
    return IsNodeSupportedWithReason(registration, node, context, nullptr);
  }
  bool IsNodeSupportedWithReason(const TfLiteRegistration* registration, const TfLiteNode*,
                                 TfLiteContext*, std::string* reason) const override {
    const std::string op = OpNameOf(*registration);
    if (std::find(options_.ops.begin(), options_.ops.end(), op) != options_.ops.end()) {
      return true;
    }
    if (reason != nullptr) *reason = op + " is not in options.ops";
    return false;
  }
  TfLiteStatus Initialize(TfLiteContext*) override { return kTfLiteOk; }
  const char* Name() const override { return options_.name.c_str(); }
  std::unique_ptr<tflite::SimpleDelegateKernelInterface> CreateDelegateKernelInterface()
      override {
    return std::make_unique<ReplayKernel>(options_.name, options_.output_error);
  }
  Options DelegateOptions() const override {
    Options o;
    o.max_delegated_partitions = options_.max_delegated_partitions;
    o.min_nodes_per_partition = options_.min_nodes_per_partition;
    o.first_delegate_node_index = options_.first_delegate_node_index;
    o.last_delegate_node_index = options_.last_delegate_node_index;
    return o;
  }

 private:
  TestDelegateOptions options_;
};

}  // namespace

std::vector<std::string> ParseOpList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

tflite::TfLiteDelegateUniquePtr CreateTestDelegate(const TestDelegateOptions& options) {
  // It runs CPU kernels, so shapes known only at run time are fine.
  return tflite::TfLiteDelegateUniquePtr(
      tflite::TfLiteDelegateFactory::CreateSimpleDelegate(
          std::make_unique<TestDelegate>(options), kTfLiteDelegateFlagsAllowDynamicTensors),
      tflite::TfLiteDelegateFactory::DeleteSimpleDelegate);
}

}  // namespace tflite_inspect
