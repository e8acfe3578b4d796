// VAR_HANDLE (v1): the resource id of the variable its (container, shared_name) names, one
// id per distinct pair in the interpreter, given in order of first use (at Init, as
// TFLite's kernels/var_handle.cc), shared by every subgraph.
#include <cstring>
#include <string>
#include <utility>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace var_handle {
namespace {

struct OpData {
  int resource_id = -1;
};

void* Init(TfLiteContext* context, const char* buffer, size_t) {
  auto* data = new OpData;
  const auto* params = reinterpret_cast<const TfLiteVarHandleParams*>(buffer);
  if (params == nullptr) return data;  // refused at Prepare
  auto& ids = static_cast<Subgraph*>(context->impl_)->resource_ids();
  const auto key = std::make_pair(std::string(params->container ? params->container : ""),
                                  std::string(params->shared_name ? params->shared_name : ""));
  data->resource_id = ids.emplace(key, static_cast<int>(ids.size())).first->second;
  return data;
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE(context, static_cast<const OpData*>(node->user_data)->resource_id >= 0);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  // The id lives in a heap buffer of its own (resource tensors are sized by content here);
  // any other output would be written past its arena bytes.
  TF_LITE_ENSURE_MSG(context,
                     output->type == kTfLiteResource && output->allocation_type == kTfLiteDynamic,
                     "VAR_HANDLE: the output must be a RESOURCE tensor");
  TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(sizeof(int32_t), output));
  output->bytes = sizeof(int32_t);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const int id = static_cast<const OpData*>(node->user_data)->resource_id;
  TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, output->data.raw != nullptr && output->bytes >= sizeof(int32_t));
  std::memcpy(output->data.raw, &id, sizeof(id));
  return kTfLiteOk;
}

}  // namespace
}  // namespace var_handle

TfLiteRegistration* Register_VAR_HANDLE() {
  static TfLiteRegistration r = {var_handle::Init, var_handle::Free, var_handle::Prepare,
                                 var_handle::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
