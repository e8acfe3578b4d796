// LOG_SOFTMAX over the last dimension: out = x - max - log(sum(exp(x - max))), float32
// only (TFLite's v1 also takes uint8 and v2 int8; those fail Prepare with the type
// message). Rows are split over the interpreter's thread pool.
#include <algorithm>
#include <cmath>

#include "kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace log_softmax {
namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                       input->type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  TF_LITE_ENSURE(context, NumDimensions(input) >= 1);
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int depth = input->dims->data[NumDimensions(input) - 1];
  if (depth == 0 || NumElements(input) == 0) return kTfLiteOk;
  const size_t rows = static_cast<size_t>(NumElements(input) / depth);
  const float* in = input->data.f;
  float* out = output->data.f;
  parallel::ParallelFor(parallel::ThreadPool(context), rows, static_cast<double>(rows) * depth * 8,
                        [&](size_t r) {
                          const float* x = in + r * depth;
                          float* y = out + r * depth;
                          const float max = *std::max_element(x, x + depth);
                          float sum = 0;
                          for (int c = 0; c < depth; ++c) sum += std::exp(x[c] - max);
                          const float log_sum = std::log(sum);
                          for (int c = 0; c < depth; ++c) y[c] = x[c] - max - log_sum;
                        });
  return kTfLiteOk;
}

}  // namespace
}  // namespace log_softmax

TfLiteRegistration* Register_LOG_SOFTMAX() {
  static TfLiteRegistration r = {nullptr, nullptr, log_softmax::Prepare, log_softmax::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
