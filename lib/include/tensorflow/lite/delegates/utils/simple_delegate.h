// SimpleDelegate (TFLite's tensorflow/lite/delegates/utils/simple_delegate.h): write a
// delegate as two small classes, one saying which nodes it supports and one kernel per
// partition, and let TfLiteDelegateFactory turn it into a TfLiteDelegate. Partitions
// are chosen by the shared GraphPartitionHelper with the delegate's Options.
//
// Ownership: the TfLiteDelegate owns the SimpleDelegateInterface; delete it with
// DeleteSimpleDelegate (or use Create's unique_ptr) after the interpreter is gone.
#ifndef TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_DELEGATE_H_
#define TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_DELEGATE_H_

#include <limits>
#include <cstdint>
#include <memory>
#include <string>

#include "tensorflow/lite/core/c/common.h"

namespace tflite {

using TfLiteDelegateUniquePtr = std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>;

// One instance per delegated partition (the DELEGATE node's user_data).
class SimpleDelegateKernelInterface {
 public:
  virtual ~SimpleDelegateKernelInterface() = default;
  // Once, when the partition is created; params->nodes_to_replace are its nodes.
  virtual TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) = 0;
  // At every AllocateTensors (shapes may have changed).
  virtual TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) = 0;
  virtual TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) = 0;
};

class SimpleDelegateInterface {
 public:
  struct Options {
    // Keep at most this many partitions, the largest; <= 0 keeps them all.
    int max_delegated_partitions = 0;
    // Leave smaller partitions on the CPU; <= 0 keeps them all.
    int min_nodes_per_partition = 0;
    // Only nodes with an index in [first, last] may be delegated (TFLite has these in its
    // TFLITE_DEBUG_DELEGATE builds; here always).
    int first_delegate_node_index = 0;
    int last_delegate_node_index = std::numeric_limits<int>::max();
  };

  virtual ~SimpleDelegateInterface() = default;
  virtual bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration,
                                         const TfLiteNode* node, TfLiteContext* context) const = 0;
  // tflite-inspect extension: the same question with a reason for a refusal, shown by
  // delegate_report. The default asks IsNodeSupportedByDelegate and gives no detail.
  virtual bool IsNodeSupportedWithReason(const TfLiteRegistration* registration,
                                         const TfLiteNode* node, TfLiteContext* context,
                                         std::string* reason) const {
    const bool ok = IsNodeSupportedByDelegate(registration, node, context);
    if (!ok && reason != nullptr) *reason = std::string("not supported by ") + Name();
    return ok;
  }
  // Called at the start of every Prepare of the delegate.
  virtual TfLiteStatus Initialize(TfLiteContext* context) = 0;
  // Also the delegate kernels' custom_name (what logs and profiles show).
  virtual const char* Name() const = 0;
  virtual std::unique_ptr<SimpleDelegateKernelInterface> CreateDelegateKernelInterface() = 0;
  virtual Options DelegateOptions() const = 0;
};

class TfLiteDelegateFactory {
 public:
  // Returns nullptr when simple_delegate is null.
  static TfLiteDelegate* CreateSimpleDelegate(
      std::unique_ptr<SimpleDelegateInterface> simple_delegate,
      int64_t flags = kTfLiteDelegateFlagsNone);
  static void DeleteSimpleDelegate(TfLiteDelegate* delegate);
  static TfLiteDelegateUniquePtr Create(std::unique_ptr<SimpleDelegateInterface> simple_delegate) {
    return TfLiteDelegateUniquePtr(CreateSimpleDelegate(std::move(simple_delegate)),
                                   DeleteSimpleDelegate);
  }
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_DELEGATE_H_
