// Single-class (soft) non-maximum suppression on float boxes, as TFLite's
// reference_ops::NonMaxSuppression (and TensorFlow's NonMaxSuppressionV4 / V5): candidates
// above score_threshold in a max-heap of scores (std::priority_queue, so that equal scores
// leave it in the same order as there); each popped candidate is compared with the boxes
// already selected, newest first, from where its last comparison stopped: an IoU at or
// above iou_threshold drops it, otherwise with soft_nms_sigma > 0 its score decays by
// exp(-0.5 / sigma * iou^2) and it goes back into the heap while above the threshold.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_NON_MAX_SUPPRESSION_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_NON_MAX_SUPPRESSION_H_

#include <algorithm>
#include <cmath>
#include <deque>
#include <initializer_list>
#include <queue>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace nms {

// Intersection over union of boxes i and j ([y1, x1, y2, x2], corners in any order); 0
// where either box is empty or the union is.
inline float Iou(const float* boxes, int i, int j) {
  const float* a = boxes + 4 * static_cast<size_t>(i);
  const float* b = boxes + 4 * static_cast<size_t>(j);
  const float a_y0 = std::min(a[0], a[2]), a_y1 = std::max(a[0], a[2]);
  const float a_x0 = std::min(a[1], a[3]), a_x1 = std::max(a[1], a[3]);
  const float b_y0 = std::min(b[0], b[2]), b_y1 = std::max(b[0], b[2]);
  const float b_x0 = std::min(b[1], b[3]), b_x1 = std::max(b[1], b[3]);
  const float area_a = (a_y1 - a_y0) * (a_x1 - a_x0);
  const float area_b = (b_y1 - b_y0) * (b_x1 - b_x0);
  if (area_a <= 0.0f || area_b <= 0.0f) return 0.0f;
  const float inter = std::max(std::min(a_y1, b_y1) - std::max(a_y0, b_y0), 0.0f) *
                      std::max(std::min(a_x1, b_x1) - std::max(a_x0, b_x0), 0.0f);
  const float uni = area_a + area_b - inter;
  return uni == 0.0f ? 0.0f : inter / uni;
}

struct Candidate {
  int index;
  float score;
  int suppress_begin_index;
  bool operator<(const Candidate& that) const { return score < that.score; }
};

// Writes up to max_output_size indices (and their possibly decayed scores, if `scores_out`)
// and returns how many.
inline int Select(const float* boxes, int num_boxes, const float* scores, int max_output_size,
                  float iou_threshold, float score_threshold, float soft_nms_sigma, int* selected,
                  float* scores_out) {
  std::priority_queue<Candidate, std::deque<Candidate>> queue;
  for (int i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) queue.emplace(Candidate{i, scores[i], 0});
  }
  int count = 0;
  const int outputs = std::min(static_cast<int>(queue.size()), max_output_size);
  const float scale = soft_nms_sigma > 0.0f ? (-0.5f / soft_nms_sigma) : 0.0f;
  while (count < outputs && !queue.empty()) {
    Candidate next = queue.top();
    const float original = next.score;
    queue.pop();
    bool hard = false;
    for (int j = count - 1; j >= next.suppress_begin_index; --j) {
      const float iou = Iou(boxes, next.index, selected[j]);
      if (iou >= iou_threshold) {
        hard = true;
        break;
      }
      if (soft_nms_sigma > 0.0f) next.score = next.score * std::exp(scale * iou * iou);
      if (next.score <= score_threshold) break;
    }
    next.suppress_begin_index = count;
    if (hard) continue;
    if (next.score == original) {
      selected[count] = next.index;
      if (scores_out != nullptr) scores_out[count] = next.score;
      ++count;
    }
    if (next.score > score_threshold) queue.push(next);
  }
  return count;
}

// The ops (TFLite's non_max_suppression.cc): float32 boxes and scores only; a
// max_output_size that is no constant makes the index outputs dynamic.

inline TfLiteStatus SetSize(TfLiteContext* context, TfLiteTensor* t,
                            std::initializer_list<int> dims) {
  TfLiteIntArray* size = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  int i = 0;
  for (int d : dims) size->data[i++] = d;
  return context->ResizeTensor(context, t, size);
}

inline TfLiteStatus CheckScalar(TfLiteContext* context, const TfLiteTensor* t) {
  TF_LITE_ENSURE_TYPES_EQ(context, t->type, kTfLiteFloat32);
  TF_LITE_ENSURE_EQ(context, NumDimensions(t), 0);
  return kTfLiteOk;
}

// V4 (kSoft false: 5 inputs, 2 outputs) and V5 (6 inputs; the scores output too).
template <bool kSoft>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr int kInputs = kSoft ? 6 : 5, kOutputs = kSoft ? 3 : 2;
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
                       "NON_MAX_SUPPRESSION_V%d: %s boxes and %s scores: only float32 is "
                       "implemented here.",
                       kSoft ? 5 : 4, TfLiteTypeGetName(boxes->type),
                       TfLiteTypeGetName(scores->type));
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

template <bool kSoft>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  constexpr int kInputs = kSoft ? 6 : 5, kOutputs = kSoft ? 3 : 2;
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

}  // namespace nms
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_NON_MAX_SUPPRESSION_H_
