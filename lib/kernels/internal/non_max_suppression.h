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
#include <queue>

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

}  // namespace nms
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_NON_MAX_SUPPRESSION_H_
