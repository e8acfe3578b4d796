// CONCATENATION along any axis (negative counts from the end). Every type is a byte
// copy, except uint8 inputs whose quantization differs from the output's: those are
// requantized as TFLite's reference ConcatenationWithScaling does (float scale and
// bias, round half away from zero, clamp to [0, 255]). int8 and int16 inputs must
// share the output's quantization, as upstream's Prepare requires.
#include <algorithm>
#include <cstring>
#include <limits>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/cppmath.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace concatenation {
namespace {

bool TypeSupported(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat32:
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteUInt32:
    case kTfLiteBool:
      return true;
    default:
      return false;
  }
}

bool SameQuantization(const TfLiteTensor* a, const TfLiteTensor* b) {
  return a->params.scale == b->params.scale && a->params.zero_point == b->params.zero_point;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = reinterpret_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE(context, NumInputs(node) >= 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* t0;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &t0));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteType input_type = t0->type;
  if (!TypeSupported(input_type)) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input_type),
                       input_type);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input_type);
  TF_LITE_ENSURE_MSG(context, params->activation == kTfLiteActNone,
                     "CONCATENATION: fused activations are not supported.");
  const int rank = t0->dims->size;
  int axis = params->axis;
  if (axis < 0) axis += rank;
  if (axis < 0 || (axis >= rank && !(rank == 0 && axis == 0))) {
    TF_LITE_KERNEL_LOG(context, "CONCATENATION: axis %d out of range for %d-D inputs.",
                       params->axis, rank);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_MSG(context, rank > 0, "CONCATENATION: inputs must have rank >= 1.");
  int sum_axis = t0->dims->data[axis];
  for (int i = 1; i < NumInputs(node); ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, i, &t));
    TF_LITE_ENSURE_EQ(context, t->dims->size, rank);
    TF_LITE_ENSURE_TYPES_EQ(context, t->type, input_type);
    for (int d = 0; d < rank; ++d) {
      if (d == axis) {
        TF_LITE_ENSURE(context, t->dims->data[axis] >= 0);
        TF_LITE_ENSURE(context, t->dims->data[axis] <= std::numeric_limits<int>::max() - sum_axis);
        sum_axis += t->dims->data[axis];
      } else {
        TF_LITE_ENSURE_EQ(context, t->dims->data[d], t0->dims->data[d]);
      }
    }
  }
  if (input_type == kTfLiteInt8) {
    for (int i = 0; i < NumInputs(node); ++i) {
      const TfLiteTensor* t = GetInput(context, node, i);
      TF_LITE_ENSURE_EQ(context, t->params.scale, output->params.scale);
      TF_LITE_ENSURE_EQ(context, t->params.zero_point, output->params.zero_point);
    }
  }
  if (input_type == kTfLiteInt16) {
    for (int i = 0; i < NumInputs(node); ++i) {
      TF_LITE_ENSURE_EQ(context, GetInput(context, node, i)->params.zero_point, 0);
    }
    TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
  }
  if (input_type == kTfLiteUInt8) {
    for (int i = 0; i < NumInputs(node); ++i) {
      if (!SameQuantization(GetInput(context, node, i), output)) {
        TF_LITE_ENSURE_MSG(context, output->params.scale > 0.f,
                           "CONCATENATION: requantizing needs a positive output scale.");
      }
    }
  }
  TfLiteIntArray* output_size = TfLiteIntArrayCopy(t0->dims);
  output_size->data[axis] = sum_axis;
  return context->ResizeTensor(context, output, output_size);
}

// reference_ops::ConcatenationWithScaling for one input block.
void RequantizeUInt8(const uint8_t* in, int count, const TfLiteTensor* input,
                     const TfLiteTensor* output, uint8_t* out) {
  const float inverse_output_scale = 1.f / output->params.scale;
  const float scale = input->params.scale * inverse_output_scale;
  const float bias = -input->params.zero_point * scale;
  for (int j = 0; j < count; ++j) {
    const int32_t value =
        static_cast<int32_t>(TfLiteRound(in[j] * scale + bias)) + output->params.zero_point;
    out[j] = static_cast<uint8_t>(std::max<int32_t>(std::min<int32_t>(255, value), 0));
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = reinterpret_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const int rank = output->dims->size;
  const int axis = params->axis < 0 ? params->axis + rank : params->axis;
  const size_t elem = TfLiteTypeGetSize(output->type);
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= output->dims->data[d];
  int64_t inner = 1;
  for (int d = axis + 1; d < rank; ++d) inner *= output->dims->data[d];
  const bool requantize = output->type == kTfLiteUInt8;
  char* out = output->data.raw;
  for (int64_t k = 0; k < outer; ++k) {
    for (int i = 0; i < NumInputs(node); ++i) {
      const TfLiteTensor* t = GetInput(context, node, i);
      const int64_t count = t->dims->data[axis] * inner;
      const char* in = t->data.raw + k * count * elem;
      if (count == 0) continue;
      if (requantize && !SameQuantization(t, output)) {
        RequantizeUInt8(reinterpret_cast<const uint8_t*>(in), static_cast<int>(count), t, output,
                        reinterpret_cast<uint8_t*>(out));
      } else {
        std::memcpy(out, in, count * elem);
      }
      out += count * elem;
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace concatenation

TfLiteRegistration* Register_CONCATENATION() {
  static TfLiteRegistration r = {nullptr, nullptr, concatenation::Prepare, concatenation::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
