// SQUEEZE: drops size-1 dimensions (all of them, or those in squeeze_dims). Any
// element type, strings too.
#include <cstring>

#include "kernels/internal/string_tensor.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace squeeze {
namespace {

constexpr int kMaxDims = 8;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const auto* params = reinterpret_cast<const TfLiteSqueezeParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteString && TfLiteTypeGetSize(input->type) == 0) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, input->type, output->type);
  const int input_num_dims = NumDimensions(input);
  TF_LITE_ENSURE_MSG(context, input_num_dims <= kMaxDims,
                     "SQUEEZE supports inputs of at most 8 dimensions.");
  TF_LITE_ENSURE(context, params->num_squeeze_dims >= 0 && params->num_squeeze_dims <= 8);
  const TfLiteIntArray* input_dims = input->dims;
  bool should_squeeze[kMaxDims] = {false};
  int num_squeezed = 0;
  if (params->num_squeeze_dims == 0) {
    for (int i = 0; i < input_num_dims; ++i) {
      if (input_dims->data[i] == 1) {
        should_squeeze[i] = true;
        ++num_squeezed;
      }
    }
  } else {
    for (int i = 0; i < params->num_squeeze_dims; ++i) {
      const int d = params->squeeze_dims[i];
      const int current = d < 0 ? d + input_num_dims : d;
      if (current < 0 || current >= input_num_dims || input_dims->data[current] != 1) {
        TF_LITE_KERNEL_LOG(context,
                           "SQUEEZE: cannot squeeze dimension %d of shape %s "
                           "(it must exist and have size 1).",
                           d, GetShapeDebugString(input_dims).c_str());
        return kTfLiteError;
      }
      if (!should_squeeze[current]) ++num_squeezed;
      should_squeeze[current] = true;
    }
  }
  TfLiteIntArray* output_dims = TfLiteIntArrayCreate(input_num_dims - num_squeezed);
  for (int in = 0, out = 0; in < input_num_dims; ++in) {
    if (!should_squeeze[in]) output_dims->data[out++] = input_dims->data[in];
  }
  return context->ResizeTensor(context, output, output_dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type == kTfLiteString) return string_tensor::Copy(context, input, output);
  TF_LITE_ENSURE_EQ(context, input->bytes, output->bytes);
  if (output->data.raw != input->data.raw && input->bytes > 0) {
    std::memcpy(output->data.raw, input->data.raw, input->bytes);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace squeeze

TfLiteRegistration* Register_SQUEEZE() {
  static TfLiteRegistration r = {nullptr, nullptr, squeeze::Prepare, squeeze::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
