// NON_MAX_SUPPRESSION_V5 (v1): soft non-maximum suppression (Gaussian, TFLite's non_max_suppression.cc and Bodla et al.) of float boxes [N, 4] by their scores [N]: V4's inputs and a soft_nms_sigma (float scalar; 0: hard suppression); outputs the selected indices (int32 [max_output_size]), their scores (float, decayed where soft suppression touched them), zero past the count, and the count.
// A max_output_size that is no constant makes the index outputs dynamic. Quantized (int8 /
// int16) boxes are refused: not implemented here.
#include <algorithm>
#include <initializer_list>

#include "kernels/internal/non_max_suppression.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace non_max_suppression_v5 {
namespace {

constexpr int kInputs = 6, kOutputs = 3;

TfLiteStatus SetSize(TfLiteContext* context, TfLiteTensor* t, std::initializer_list<int> dims) {
  TfLiteIntArray* size = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  int i = 0;
  for (int d : dims) size->data[i++] = d;
  return context->ResizeTensor(context, t, size);
}

TfLiteStatus CheckScalar(TfLiteContext* context, const TfLiteTensor* t) {
  TF_LITE_ENSURE_TYPES_EQ(context, t->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, NumDimensions(t), 0);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  if (NumInputs(node) != kInputs) {
    TF_LITE_KERNEL_LOG(context, "Found NMS op with invalid num inputs: %d", NumInputs(node));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), kOutputs);
  const TfLiteTensor *boxes, *scores, *max_size;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &boxes));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &scores));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &max_size));
  if (boxes->type != kTfLiteFloat32 || scores->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context,
                       "NON_MAX_SUPPRESSION_V5: %s boxes and %s scores: only float32 is "
                       "implemented here.",
                       TfLiteTypeGetName(boxes->type), TfLiteTypeGetName(scores->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumDimensions(boxes), 2);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(boxes, 1), 4);
  TF_LITE_ENSURE_EQ(context, NumDimensions(scores), 1);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(boxes, 0), SizeOfDimension(scores, 0));
  TF_LITE_ENSURE_EQ(context, max_size->type, kTfLiteInt32);
  TF_LITE_ENSURE_EQ(context, NumDimensions(max_size), 0);
  for (int i = 3; i < kInputs; ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, i, &t));
    TF_LITE_ENSURE_OK(context, CheckScalar(context, t));
  }
  for (int o = 0; o < kOutputs; ++o) {
    TfLiteTensor* out;
    TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, o, &out));
    out->type = o == 1 && kOutputs == 3 ? kTfLiteFloat32 : kTfLiteInt32;
    if (o == kOutputs - 1) {
      TF_LITE_ENSURE_OK(context, SetSize(context, out, {}));
    } else if (IsConstantOrPersistentTensor(max_size)) {
      const int n = max_size->data.i32[0];
      TF_LITE_ENSURE(context, (n >= 0));
      TF_LITE_ENSURE_OK(context, SetSize(context, out, {n}));
    } else {
      SetTensorToDynamic(out);
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* boxes = GetInput(context, node, 0);
  const TfLiteTensor* scores = GetInput(context, node, 1);
  const int max_size = GetInput(context, node, 2)->data.i32[0];
  TF_LITE_ENSURE(context, (max_size >= 0));
  const float iou_threshold = GetInput(context, node, 3)->data.f[0];
  const float score_threshold = GetInput(context, node, 4)->data.f[0];
  const float sigma = kInputs == 6 ? GetInput(context, node, 5)->data.f[0] : 0.0f;
  TfLiteTensor* indices = GetOutput(context, node, 0);
  TfLiteTensor* selected_scores = kOutputs == 3 ? GetOutput(context, node, 1) : nullptr;
  TfLiteTensor* count = GetOutput(context, node, kOutputs - 1);
  if (IsDynamicTensor(indices)) {
    TF_LITE_ENSURE_OK(context, SetSize(context, indices, {max_size}));
    if (selected_scores != nullptr) {
      TF_LITE_ENSURE_OK(context, SetSize(context, selected_scores, {max_size}));
    }
  }
  if (sigma < 0.0f) {
    TF_LITE_KERNEL_LOG(context, "Invalid sigma value for Soft-NMS: %f", sigma);
    return kTfLiteError;
  }
  const int n = nms::Select(boxes->data.f, SizeOfDimension(boxes, 0), scores->data.f, max_size,
                            iou_threshold, score_threshold, sigma, indices->data.i32,
                            selected_scores != nullptr ? selected_scores->data.f : nullptr);
  // Past the count: zeros (the indices feed a GATHER).
  std::fill(indices->data.i32 + n, indices->data.i32 + max_size, 0);
  if (selected_scores != nullptr) {
    std::fill(selected_scores->data.f + n, selected_scores->data.f + max_size, 0.0f);
  }
  count->data.i32[0] = n;
  return kTfLiteOk;
}

}  // namespace
}  // namespace non_max_suppression_v5

TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5() {
  static TfLiteRegistration r = {nullptr, nullptr, non_max_suppression_v5::Prepare,
                                 non_max_suppression_v5::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
