#include "tensorflow/lite/delegates/utils/simple_delegate.h"

#include <memory>
#include <vector>

#include "delegate/partition_helper.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite {
namespace {

SimpleDelegateInterface* Simple(TfLiteDelegate* delegate) {
  return static_cast<SimpleDelegateInterface*>(delegate->data_);
}

TfLiteRegistration KernelRegistration(SimpleDelegateInterface* delegate) {
  TfLiteRegistration r{};
  r.builtin_code = kTfLiteBuiltinDelegate;
  r.custom_name = delegate->Name();
  r.version = 1;
  r.init = [](TfLiteContext* context, const char* buffer, size_t) -> void* {
    const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
    if (params == nullptr) {
      TF_LITE_KERNEL_LOG(context, "NULL TfLiteDelegateParams passed.");
      return nullptr;
    }
    std::unique_ptr<SimpleDelegateKernelInterface> kernel =
        Simple(params->delegate)->CreateDelegateKernelInterface();
    if (kernel == nullptr || kernel->Init(context, params) != kTfLiteOk) return nullptr;
    return kernel.release();
  };
  r.free = [](TfLiteContext*, void* buffer) {
    delete static_cast<SimpleDelegateKernelInterface*>(buffer);
  };
  r.prepare = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    if (node->user_data == nullptr) {
      TF_LITE_KERNEL_LOG(context, "Delegate kernel was not initialized");
      return kTfLiteError;
    }
    return static_cast<SimpleDelegateKernelInterface*>(node->user_data)->Prepare(context, node);
  };
  r.invoke = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    auto* kernel = static_cast<SimpleDelegateKernelInterface*>(node->user_data);
    if (kernel == nullptr) {
      TF_LITE_KERNEL_LOG(context, "Delegate kernel was not initialized");
      return kTfLiteError;
    }
    return kernel->Eval(context, node);
  };
  return r;
}

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* base) {
  SimpleDelegateInterface* delegate = Simple(base);
  const SimpleDelegateInterface::Options options = delegate->DelegateOptions();
  TF_LITE_ENSURE_STATUS(delegate->Initialize(context));
  auto supported = [delegate](TfLiteContext* ctx, TfLiteNode* node, TfLiteRegistration* reg,
                              std::string* details) {
    return delegate->IsNodeSupportedWithReason(reg, node, ctx, details);
  };
  tflite_inspect::PartitionLimits limits;
  limits.max_delegated_partitions = options.max_delegated_partitions;
  limits.min_nodes_per_partition = options.min_nodes_per_partition;
  limits.first_delegate_node_index = options.first_delegate_node_index;
  limits.last_delegate_node_index = options.last_delegate_node_index;
  tflite_inspect::NodeSelection selection;
  TF_LITE_ENSURE_STATUS(tflite_inspect::SelectNodesToDelegate(context, supported, limits, &selection));
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(selection.nodes.size()));
  std::copy(selection.nodes.begin(), selection.nodes.end(), nodes->data);
  const TfLiteStatus status = context->ReplaceNodeSubsetsWithDelegateKernels(
      context, KernelRegistration(delegate), nodes, base);
  TfLiteIntArrayFree(nodes);
  return status;
}

}  // namespace

TfLiteDelegate* TfLiteDelegateFactory::CreateSimpleDelegate(
    std::unique_ptr<SimpleDelegateInterface> simple_delegate, int64_t flags) {
  if (simple_delegate == nullptr) return nullptr;
  auto* delegate = new TfLiteDelegate(TfLiteDelegateCreate());
  delegate->Prepare = DelegatePrepare;
  delegate->flags = flags;
  delegate->data_ = simple_delegate.release();
  return delegate;
}

void TfLiteDelegateFactory::DeleteSimpleDelegate(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  delete Simple(delegate);
  delete delegate;
}

}  // namespace tflite
