// ADD_N: out = in[0] + in[1] + ... + in[n-1], n >= 2 inputs of one shape and
// type, as TFLite's add_n.cc. v1: float32 and int32 (int32 wraps on overflow).
// Sums are taken in input order, as TFLite's default kernel does on one thread;
// on several threads TFLite adds per-thread partial sums of input pairs, which
// can move a float sum by an ulp, while this kernel's result does not depend on
// the thread count.
#include <cstdint>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace add_n {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const int num_inputs = NumInputs(node);
  TF_LITE_ENSURE(context, num_inputs >= 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input1;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input1));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input1->type != kTfLiteFloat32 && input1->type != kTfLiteInt32) {
    TF_LITE_KERNEL_LOG(context, "AddN only supports FLOAT32|INT32 now, got %s.",
                       TfLiteTypeGetName(input1->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input1->type);
  for (int i = 1; i < num_inputs; ++i) {
    const TfLiteTensor* input;
    TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, i, &input));
    TF_LITE_ENSURE(context, HaveSameShapes(input1, input));
    TF_LITE_ENSURE_TYPES_EQ(context, input1->type, input->type);
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input1->dims));
}

template <typename T>
TfLiteStatus EvalTyped(TfLiteContext* context, TfLiteNode* node) {
  const int num_inputs = NumInputs(node);
  std::vector<const T*> inputs(num_inputs);
  for (int i = 0; i < num_inputs; ++i) inputs[i] = GetTensorData<T>(GetInput(context, node, i));
  TfLiteTensor* output = GetOutput(context, node, 0);
  T* out = GetTensorData<T>(output);
  const int64_t n = NumElements(output);
  for (int64_t e = 0; e < n; ++e) {
    T sum = WrappingAdd(inputs[0][e], inputs[1][e]);
    for (int i = 2; i < num_inputs; ++i) sum = WrappingAdd(sum, inputs[i][e]);
    out[e] = sum;
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (GetOutput(context, node, 0)->type == kTfLiteInt32) return EvalTyped<int32_t>(context, node);
  return EvalTyped<float>(context, node);
}

}  // namespace
}  // namespace add_n

TfLiteRegistration* Register_ADD_N() {
  static TfLiteRegistration r = {nullptr, nullptr, add_n::Prepare, add_n::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
