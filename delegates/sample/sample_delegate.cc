#include "sample/sample_delegate.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "sample/partition_tensors.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace {

constexpr char kName[] = "SampleDelegate";

float Activate(TfLiteFusedActivation act, float v) {
  switch (act) {
    case kTfLiteActRelu: return std::max(0.0f, v);
    case kTfLiteActReluN1To1: return std::min(1.0f, std::max(-1.0f, v));
    case kTfLiteActRelu6: return std::min(6.0f, std::max(0.0f, v));
    default: return v;
  }
}

TfLiteFusedActivation ActivationOf(const TfLiteRegistration& reg, const TfLiteNode& node) {
  if (reg.builtin_code == kTfLiteBuiltinAdd) {
    return static_cast<const TfLiteAddParams*>(node.builtin_data)->activation;
  }
  return static_cast<const TfLiteSubParams*>(node.builtin_data)->activation;
}

class SampleKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override {
    tensors_ = std::make_unique<PartitionTensors>(params);
    for (int i = 0; i < params->nodes_to_replace->size; ++i) {
      TfLiteNode* node = nullptr;
      TfLiteRegistration* reg = nullptr;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(
          context, params->nodes_to_replace->data[i], &node, &reg));
      ops_.push_back({reg->builtin_code == kTfLiteBuiltinAdd, ActivationOf(*reg, *node),
                      node->inputs->data[0], node->inputs->data[1], node->outputs->data[0]});
    }
    return kTfLiteOk;
  }

  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*) override {
    for (const Op& op : ops_) {
      const TfLiteTensor& a = context->tensors[op.a];
      TfLiteTensor& out = context->tensors[op.out];
      TF_LITE_ENSURE_STATUS(context->ResizeTensor(context, &out, TfLiteIntArrayCopy(a.dims)));
      // Only tensor indices are kept from Init: TFLite forbids GetNodeAndRegistration
      // outside the delegate's Prepare, so this kernel also runs as a plugin in TFLite.
      TF_LITE_ENSURE_STATUS(tensors_->AllocateTensor(context, op.out));
    }
    return kTfLiteOk;
  }

  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode*) override {
    for (const Op& op : ops_) {
      const float* a = context->tensors[op.a].data.f;
      const float* b = context->tensors[op.b].data.f;
      float* out = context->tensors[op.out].data.f;
      const size_t n = context->tensors[op.out].bytes / sizeof(float);
      for (size_t i = 0; i < n; ++i) {
        out[i] = Activate(op.activation, op.add ? a[i] + b[i] : a[i] - b[i]);
      }
    }
    return kTfLiteOk;
  }

 private:
  struct Op {
    bool add;
    TfLiteFusedActivation activation;
    int a, b, out;
  };
  std::vector<Op> ops_;
  std::unique_ptr<PartitionTensors> tensors_;
};

class SampleDelegate : public tflite::SimpleDelegateInterface {
 public:
  explicit SampleDelegate(const SampleDelegateOptions& options) : options_(options) {}

  bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration, const TfLiteNode* node,
                                 TfLiteContext* context) const override {
    return IsNodeSupportedWithReason(registration, node, context, nullptr);
  }

  bool IsNodeSupportedWithReason(const TfLiteRegistration* registration, const TfLiteNode* node,
                                 TfLiteContext* context, std::string* reason) const override {
    auto refuse = [reason](std::string why) {
      if (reason != nullptr) *reason = std::move(why);
      return false;
    };
    if (registration->builtin_code != kTfLiteBuiltinAdd &&
        registration->builtin_code != kTfLiteBuiltinSub) {
      return refuse("only ADD and SUB are supported");
    }
    if (node->inputs->size != 2 || node->outputs->size != 1) {
      return refuse("expects 2 inputs and 1 output");
    }
    for (int i = 0; i < node->inputs->size; ++i) {
      const TfLiteTensor& t = context->tensors[node->inputs->data[i]];
      if (t.type != kTfLiteFloat32) {
        return refuse(std::string("input ") + std::to_string(i) + " is " +
                      TfLiteTypeGetName(t.type) + ", only FLOAT32 is supported");
      }
    }
    const TfLiteTensor& a = context->tensors[node->inputs->data[0]];
    const TfLiteTensor& b = context->tensors[node->inputs->data[1]];
    if (!TfLiteIntArrayEqual(a.dims, b.dims)) {
      return refuse("inputs differ in shape (broadcasting is not supported)");
    }
    const TfLiteFusedActivation act = ActivationOf(*registration, *node);
    if (act != kTfLiteActNone && act != kTfLiteActRelu && act != kTfLiteActReluN1To1 &&
        act != kTfLiteActRelu6) {
      return refuse("fused activation " + std::to_string(act) + " is not supported");
    }
    return true;
  }

  TfLiteStatus Initialize(TfLiteContext*) override { return kTfLiteOk; }
  const char* Name() const override { return kName; }
  std::unique_ptr<tflite::SimpleDelegateKernelInterface> CreateDelegateKernelInterface()
      override {
    return std::make_unique<SampleKernel>();
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
  SampleDelegateOptions options_;
};

}  // namespace

tflite::TfLiteDelegateUniquePtr CreateSampleDelegate(const SampleDelegateOptions& options) {
  return tflite::TfLiteDelegateFactory::Create(std::make_unique<SampleDelegate>(options));
}

}  // namespace tflite_inspect
