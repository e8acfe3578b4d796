// TFLite_Detection_PostProcess (custom op in TFLite's BuiltinOpResolver): the output
// stage of TensorFlow's object-detection SSD exports. Inputs: box encodings [1, boxes,
// >= 4] (y, x, h, w relative to the anchor), class scores [1, boxes, classes (+1 with a
// background column)], anchors [boxes, 4] (y, x, h, w); float32, or uint8 / int8 with
// their quantization (dequantized first, as TFLite does). Options are a flexbuffer map
// (max_detections, max_classes_per_detection, detections_per_class, use_regular_nms,
// nms_score_threshold, nms_iou_threshold, num_classes, y/x/h/w_scale). Outputs (float32):
// boxes [1, D, 4] (ymin, xmin, ymax, xmax), classes [1, D], scores [1, D], count [1],
// D = max_detections * max_classes_per_detection.
//
// As TFLite's kernel: boxes decoded in double (center += encoding / scale * anchor size,
// half size = 0.5 * exp(encoding / scale) * anchor size); "fast" NMS keeps each anchor's
// top classes and suppresses on its best score; "regular" NMS runs per class and merges
// by score. Candidates at or above the score threshold are stably sorted by score, a box
// is dropped when its IoU with a kept one exceeds the threshold (boxes of area <= 0 have
// IoU 0). Ties follow TFLite's order: the first maximum for one class per anchor, the
// standard library's partial sort otherwise, stable merges across classes. TFLite splits
// regular NMS over threads by class; this kernel runs TFLite's one-thread order always.
// TFLite's fast NMS leaves the output slots after the last detection unwritten (whatever
// the arena held); they are zeros here, as its regular NMS writes them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "kernels/internal/flex_options.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace custom {
namespace detection_postprocess {
namespace {

constexpr int kBoxes = 0, kScores = 1, kAnchors = 2;
constexpr int kOutBoxes = 0, kOutClasses = 1, kOutScores = 2, kOutCount = 3;

struct Box {
  float ymin, xmin, ymax, xmax;
};

struct OpData {
  int max_detections = 0;
  int max_classes_per_detection = 1;
  int detections_per_class = 100;
  bool use_regular_nms = false;
  float score_threshold = 0.f;
  float iou_threshold = 0.f;
  int num_classes = 0;
  float y_scale = 0.f, x_scale = 0.f, h_scale = 0.f, w_scale = 0.f;
  bool options_ok = false;
  const char* bad_option = nullptr;  // the first int option that is no int32
  // Scratch, reused across invocations.
  std::vector<Box> decoded;
  std::vector<float> scores;
};

void* Init(TfLiteContext*, const char* buffer, size_t length) {
  auto* d = new OpData;
  if (buffer == nullptr || length == 0) return d;
  const auto* bytes = reinterpret_cast<const uint8_t*>(buffer);
  // flexbuffers reads inside [bytes, bytes + length) only after this check.
  if (!flexbuffers::VerifyBuffer(bytes, length)) return d;
  const flexbuffers::Reference root = flexbuffers::GetRoot(bytes, length);
  if (!root.IsMap()) return d;
  const flexbuffers::Map m = root.AsMap();
  // flex_options: flexbuffers' own conversions are undefined for floats out of range. An
  // int option that is present but no int32 is refused at Prepare, by name.
  auto int_option = [&](const char* key, int* out) {
    const flexbuffers::Reference r = m[key];
    *out = 0;  // a missing key reads as 0, as flexbuffers reads null
    if (!r.IsNull() && !flex_options::ToInt32(r, out) && d->bad_option == nullptr) d->bad_option = key;
  };
  int_option("max_detections", &d->max_detections);
  int_option("max_classes_per_detection", &d->max_classes_per_detection);
  if (!m["detections_per_class"].IsNull()) int_option("detections_per_class", &d->detections_per_class);
  d->use_regular_nms = flex_options::BoolOr(m["use_regular_nms"], d->use_regular_nms);
  d->score_threshold = flex_options::FloatOr(m["nms_score_threshold"], 0.0f);
  d->iou_threshold = flex_options::FloatOr(m["nms_iou_threshold"], 0.0f);
  int_option("num_classes", &d->num_classes);
  d->y_scale = flex_options::FloatOr(m["y_scale"], 0.0f);
  d->x_scale = flex_options::FloatOr(m["x_scale"], 0.0f);
  d->h_scale = flex_options::FloatOr(m["h_scale"], 0.0f);
  d->w_scale = flex_options::FloatOr(m["w_scale"], 0.0f);
  d->options_ok = true;
  return d;
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Resize(TfLiteContext* context, TfLiteTensor* t, std::initializer_list<int> dims) {
  t->type = kTfLiteFloat32;
  TfLiteIntArray* size = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  int i = 0;
  for (int v : dims) size->data[i++] = v;
  return context->ResizeTensor(context, t, size);
}

bool SupportedType(TfLiteType t) {
  return t == kTfLiteFloat32 || t == kTfLiteUInt8 || t == kTfLiteInt8;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  if (!d->options_ok) {
    TF_LITE_KERNEL_LOG(context,
                       "TFLite_Detection_PostProcess: custom options are not a flexbuffer map.");
    return kTfLiteError;
  }
  if (d->bad_option != nullptr) {
    TF_LITE_KERNEL_LOG(context,
                       "TFLite_Detection_PostProcess: custom option '%s' is not a 32-bit integer.",
                       d->bad_option);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 4);
  const TfLiteTensor *boxes, *scores, *anchors;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kBoxes, &boxes));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kScores, &scores));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, kAnchors, &anchors));
  TF_LITE_ENSURE_EQ(context, NumDimensions(boxes), 3);
  TF_LITE_ENSURE_EQ(context, NumDimensions(scores), 3);
  TF_LITE_ENSURE_EQ(context, NumDimensions(anchors), 2);
  TF_LITE_ENSURE(context, SupportedType(boxes->type) && SupportedType(scores->type) &&
                              SupportedType(anchors->type));
  // One batch, as TFLite's kernel.
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(boxes, 0), 1);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(scores, 0), 1);
  const int num_boxes = SizeOfDimension(boxes, 1);
  TF_LITE_ENSURE(context, SizeOfDimension(boxes, 2) >= 4);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(scores, 1), num_boxes);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(anchors, 0), num_boxes);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(anchors, 1), 4);
  const int with_background = SizeOfDimension(scores, 2);
  TF_LITE_ENSURE(context, d->num_classes > 0 && with_background >= d->num_classes &&
                              with_background - d->num_classes <= 1);
  TF_LITE_ENSURE(context, d->max_detections >= 0 && d->max_classes_per_detection > 0);
  TF_LITE_ENSURE(context, d->iou_threshold > 0.0f && d->iou_threshold <= 1.0f);
  // Guard the output size against crafted options (it is max_detections * classes).
  const int64_t detected = static_cast<int64_t>(d->max_detections) * d->max_classes_per_detection;
  TF_LITE_ENSURE(context, detected <= (int64_t{1} << 24));
  const int n = static_cast<int>(detected);
  TfLiteTensor *out_boxes, *out_classes, *out_scores, *out_count;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutBoxes, &out_boxes));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutClasses, &out_classes));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutScores, &out_scores));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, kOutCount, &out_count));
  TF_LITE_ENSURE_OK(context, Resize(context, out_boxes, {1, n, 4}));
  TF_LITE_ENSURE_OK(context, Resize(context, out_classes, {1, n}));
  TF_LITE_ENSURE_OK(context, Resize(context, out_scores, {1, n}));
  TF_LITE_ENSURE_OK(context, Resize(context, out_count, {1}));
  d->decoded.resize(num_boxes);
  d->scores.resize(static_cast<size_t>(num_boxes) * with_background);
  return kTfLiteOk;
}

// Element i of a float / uint8 / int8 tensor as float. uint8 / int8 as TFLite's
// box dequantizer: (float(q) - zero_point) * scale, in float.
float ValueAt(const TfLiteTensor* t, int64_t i) {
  switch (t->type) {
    case kTfLiteUInt8:
      return (static_cast<float>(t->data.uint8[i]) - static_cast<float>(t->params.zero_point)) *
             t->params.scale;
    case kTfLiteInt8:
      return (static_cast<float>(t->data.int8[i]) - static_cast<float>(t->params.zero_point)) *
             t->params.scale;
    default:
      return t->data.f[i];
  }
}

void DecodeBoxes(const OpData& d, const TfLiteTensor* boxes, const TfLiteTensor* anchors,
                 std::vector<Box>* decoded) {
  const int stride = SizeOfDimension(boxes, 2);
  for (size_t i = 0; i < decoded->size(); ++i) {
    const int64_t b = static_cast<int64_t>(i) * stride, a = static_cast<int64_t>(i) * 4;
    const double ey = ValueAt(boxes, b), ex = ValueAt(boxes, b + 1);
    const double eh = ValueAt(boxes, b + 2), ew = ValueAt(boxes, b + 3);
    const double ay = ValueAt(anchors, a), ax = ValueAt(anchors, a + 1);
    const double ah = ValueAt(anchors, a + 2), aw = ValueAt(anchors, a + 3);
    const float yc = static_cast<float>(ey / d.y_scale * ah + ay);
    const float xc = static_cast<float>(ex / d.x_scale * aw + ax);
    const float half_h = static_cast<float>(0.5 * std::exp(eh / d.h_scale) * ah);
    const float half_w = static_cast<float>(0.5 * std::exp(ew / d.w_scale) * aw);
    (*decoded)[i] = {yc - half_h, xc - half_w, yc + half_h, xc + half_w};
  }
}

// Class scores as float: quantized ones as TFLite's Dequantize (double scale).
void DequantizeScores(const TfLiteTensor* scores, std::vector<float>* out) {
  const double scale = scores->params.scale;
  const int32_t zp = scores->params.zero_point;
  for (size_t i = 0; i < out->size(); ++i) {
    int32_t q = 0;
    if (scores->type == kTfLiteFloat32) {
      (*out)[i] = scores->data.f[i];
      continue;
    }
    q = scores->type == kTfLiteUInt8 ? scores->data.uint8[i] : scores->data.int8[i];
    (*out)[i] = static_cast<float>(scale * (q - zp));
  }
}

float IoU(const Box& a, const Box& b) {
  const float area_a = (a.ymax - a.ymin) * (a.xmax - a.xmin);
  const float area_b = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float ymin = std::max(a.ymin, b.ymin), xmin = std::max(a.xmin, b.xmin);
  const float ymax = std::min(a.ymax, b.ymax), xmax = std::min(a.xmax, b.xmax);
  const float inter = std::max(ymax - ymin, 0.0f) * std::max(xmax - xmin, 0.0f);
  return inter / (area_a + area_b - inter);
}

// Indices (into `scores`) of the boxes one-class NMS keeps, best first.
TfLiteStatus SingleClassNms(TfLiteContext* context, const OpData& d,
                            const std::vector<Box>& boxes, const std::vector<float>& scores,
                            int max_detections, std::vector<int>* selected) {
  selected->clear();
  for (const Box& b : boxes) {
    if (b.ymin > b.ymax || b.xmin > b.xmax) {
      TF_LITE_KERNEL_LOG(context,
                         "TFLite_Detection_PostProcess: a decoded box has min > max (ymin %g, "
                         "ymax %g, xmin %g, xmax %g).",
                         b.ymin, b.ymax, b.xmin, b.xmax);
      return kTfLiteError;
    }
  }
  std::vector<int> keep;
  std::vector<float> keep_scores;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] >= d.score_threshold) {
      keep.push_back(static_cast<int>(i));
      keep_scores.push_back(scores[i]);
    }
  }
  std::vector<int> order(keep.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int i, int j) { return keep_scores[i] > keep_scores[j]; });
  const size_t limit = std::min(keep.size(), static_cast<size_t>(std::max(max_detections, 0)));
  std::vector<uint8_t> active(keep.size(), 1);
  size_t num_active = keep.size();
  for (size_t i = 0; i < keep.size(); ++i) {
    if (num_active == 0 || selected->size() >= limit) break;
    if (!active[i]) continue;
    const int bi = keep[order[i]];
    selected->push_back(bi);
    active[i] = 0;
    --num_active;
    for (size_t j = i + 1; j < keep.size(); ++j) {
      if (active[j] && IoU(boxes[bi], boxes[keep[order[j]]]) > d.iou_threshold) {
        active[j] = 0;
        --num_active;
      }
    }
  }
  return kTfLiteOk;
}

struct Outputs {
  float* boxes;
  float* classes;
  float* scores;
  float* count;
};

void Emit(const Outputs& o, int slot, const Box& box, int cls, float score) {
  o.boxes[slot * 4 + 0] = box.ymin;
  o.boxes[slot * 4 + 1] = box.xmin;
  o.boxes[slot * 4 + 2] = box.ymax;
  o.boxes[slot * 4 + 3] = box.xmax;
  o.classes[slot] = static_cast<float>(cls);
  o.scores[slot] = score;
}

// Fast NMS: each anchor's top classes, suppression on its best one.
TfLiteStatus FastNms(TfLiteContext* context, const OpData& d, int with_background,
                     const Outputs& o) {
  const int num_boxes = static_cast<int>(d.decoded.size());
  const int label_offset = with_background - d.num_classes;
  const int per_anchor = std::min(d.max_classes_per_detection, d.num_classes);
  const int slots = d.max_detections * d.max_classes_per_detection;
  for (int i = 0; i < slots; ++i) Emit(o, i, Box{0, 0, 0, 0}, 0, 0.0f);
  std::vector<float> max_scores(num_boxes);
  std::vector<int> classes(static_cast<size_t>(num_boxes) * d.num_classes);
  for (int row = 0; row < num_boxes; ++row) {
    const float* s = d.scores.data() + static_cast<size_t>(row) * with_background + label_offset;
    int* idx = classes.data() + static_cast<size_t>(row) * d.num_classes;
    if (per_anchor == 1) {
      idx[0] = static_cast<int>(std::max_element(s, s + d.num_classes) - s);  // first maximum
    } else {
      std::iota(idx, idx + d.num_classes, 0);
      std::partial_sort(idx, idx + per_anchor, idx + d.num_classes,
                        [s](int i, int j) { return s[i] > s[j]; });
    }
    max_scores[row] = s[idx[0]];
  }
  std::vector<int> selected;
  TF_LITE_ENSURE_OK(context, SingleClassNms(context, d, d.decoded, max_scores, d.max_detections,
                                            &selected));
  int emitted = 0;
  for (int anchor : selected) {
    const float* s = d.scores.data() + static_cast<size_t>(anchor) * with_background + label_offset;
    const int* idx = classes.data() + static_cast<size_t>(anchor) * d.num_classes;
    for (int c = 0; c < per_anchor; ++c) {
      Emit(o, d.max_classes_per_detection * emitted + c, d.decoded[anchor], idx[c], s[idx[c]]);
    }
    ++emitted;
  }
  *o.count = static_cast<float>(emitted);
  return kTfLiteOk;
}

struct Scored {
  int index;  // anchor * with_background + column
  float score;
};

// Regular NMS: per class, then the best max_detections over all classes.
TfLiteStatus RegularNms(TfLiteContext* context, const OpData& d, int with_background,
                        const Outputs& o) {
  const int num_boxes = static_cast<int>(d.decoded.size());
  const int label_offset = with_background - d.num_classes;
  const int per_class = std::min(d.detections_per_class, d.max_detections);
  TF_LITE_ENSURE(context, per_class > 0);
  std::vector<Scored> merged(static_cast<size_t>(d.max_detections) + per_class);
  int kept = 0;
  std::vector<float> class_scores(num_boxes);
  std::vector<int> selected;
  for (int col = 0; col < d.num_classes; ++col) {
    for (int row = 0; row < num_boxes; ++row) {
      class_scores[row] = d.scores[static_cast<size_t>(row) * with_background + col + label_offset];
    }
    TF_LITE_ENSURE_OK(context,
                      SingleClassNms(context, d, d.decoded, class_scores, per_class, &selected));
    if (selected.empty()) continue;
    for (size_t i = 0; i < selected.size(); ++i) {
      merged[kept + i] = {selected[i] * with_background + col + label_offset,
                          class_scores[selected[i]]};
    }
    // Earlier classes first among equal scores: what TFLite's build does with its
    // `a.score >= b.score` merge (checked on testdata/kernels: the uint8 regular case
    // has such a tie); a strict comparator says it portably.
    std::inplace_merge(merged.begin(), merged.begin() + kept,
                       merged.begin() + kept + static_cast<int>(selected.size()),
                       [](const Scored& a, const Scored& b) { return a.score > b.score; });
    kept = std::min(kept + static_cast<int>(selected.size()), d.max_detections);
  }
  for (int i = 0; i < d.max_detections; ++i) {
    if (i < kept) {
      const int anchor = merged[i].index / with_background;
      const int cls = merged[i].index - anchor * with_background - label_offset;
      Emit(o, i, d.decoded[anchor], cls, merged[i].score);
    } else {
      Emit(o, i, Box{0, 0, 0, 0}, 0, 0.0f);
    }
  }
  *o.count = static_cast<float>(kept);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* boxes = GetInput(context, node, kBoxes);
  const TfLiteTensor* scores = GetInput(context, node, kScores);
  const TfLiteTensor* anchors = GetInput(context, node, kAnchors);
  DecodeBoxes(*d, boxes, anchors, &d->decoded);
  DequantizeScores(scores, &d->scores);
  Outputs o{GetOutput(context, node, kOutBoxes)->data.f, GetOutput(context, node, kOutClasses)->data.f,
            GetOutput(context, node, kOutScores)->data.f, GetOutput(context, node, kOutCount)->data.f};
  const int with_background = SizeOfDimension(scores, 2);
  return d->use_regular_nms ? RegularNms(context, *d, with_background, o)
                            : FastNms(context, *d, with_background, o);
}

}  // namespace
}  // namespace detection_postprocess

TfLiteRegistration* Register_DETECTION_POSTPROCESS() {
  static TfLiteRegistration r = {detection_postprocess::Init, detection_postprocess::Free,
                                 detection_postprocess::Prepare, detection_postprocess::Eval};
  return &r;
}

}  // namespace custom
}  // namespace ops
}  // namespace tflite
