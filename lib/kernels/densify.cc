// DENSIFY v1: expands a constant sparse tensor to its dense form, for float32, float16 and
// int8. The walk (TFLite's FormatConverter::SparseToDense semantics) lives in
// kernels/internal/sparse_to_dense.h, shared with FULLY_CONNECTED's sparse weights (v8).
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/internal/sparse_to_dense.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace densify {
namespace {

size_t ElementSize(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
      return 4;
    case kTfLiteFloat16:
      return 2;
    case kTfLiteInt8:
      return 1;
    default:
      return 0;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (ElementSize(input->type) == 0) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_MSG(context, IsConstantTensor(input), "DENSIFY: the input must be constant");
  TF_LITE_ENSURE_MSG(context, input->sparsity != nullptr,
                     "DENSIFY: the input has no sparsity parameters");
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE_OK(context,
                    sparsity::SparseToDense(input, ElementSize(input->type)).Validate(context));
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const size_t elem = ElementSize(input->type);
  sparsity::SparseToDense converter(input, elem);
  return converter.Run(context, input->data.raw_const, output->data.raw,
                       static_cast<size_t>(NumElements(output)));
}

}  // namespace
}  // namespace densify

TfLiteRegistration* Register_DENSIFY() {
  static TfLiteRegistration r = {nullptr, nullptr, densify::Prepare, densify::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
