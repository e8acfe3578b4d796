// ONE_HOT: out[..., j, ...] = (indices[...] == j) ? on_value : off_value, the
// depth axis inserted at OneHotOptions.axis (-1: last), as TFLite's one_hot.cc.
// v1: int32 or int64 indices; on/off values (scalars of one type, which the
// output has) float32, int32, int64, int8, uint8 or bool. Indices outside [0,
// depth) give a row of off_value. TFLite also takes int16 values at Prepare and
// then fails Eval; that is refused at Prepare here. Depth is an int32 scalar;
// when it is not a constant the output is sized in Eval.
#include <cstdint>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace one_hot {
namespace {

struct OneHot {
  const TfLiteTensor* indices;
  const TfLiteTensor* depth;
  const TfLiteTensor* on_value;
  const TfLiteTensor* off_value;
  TfLiteTensor* output;
  int axis;  // in [0, rank(indices)]
};

TfLiteStatus GetOneHot(TfLiteContext* context, TfLiteNode* node, OneHot* op) {
  const auto* params = static_cast<const TfLiteOneHotParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &op->indices));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &op->depth));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, &op->on_value));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 3, &op->off_value));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &op->output));
  const int rank = NumDimensions(op->indices);
  op->axis = params->axis == -1 ? rank : params->axis;
  if (op->axis < 0 || op->axis > rank) {
    TF_LITE_KERNEL_LOG(context, "ONE_HOT: axis %d is out of range for indices of rank %d",
                       params->axis, rank);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const OneHot& op) {
  const int depth = *GetTensorData<int32_t>(op.depth);
  if (depth < 0) {
    TF_LITE_KERNEL_LOG(context, "ONE_HOT: depth must be >= 0, got %d", depth);
    return kTfLiteError;
  }
  const int rank = NumDimensions(op.indices);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(rank + 1);
  for (int i = 0; i <= rank; ++i) {
    if (i < op.axis) {
      shape->data[i] = op.indices->dims->data[i];
    } else if (i == op.axis) {
      shape->data[i] = depth;
    } else {
      shape->data[i] = op.indices->dims->data[i - 1];
    }
  }
  return context->ResizeTensor(context, op.output, shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 4);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  OneHot op;
  TF_LITE_ENSURE_OK(context, GetOneHot(context, node, &op));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, op.on_value->type,
                                                   {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64,
                                                    kTfLiteInt8, kTfLiteUInt8, kTfLiteBool}));
  TF_LITE_ENSURE_TYPES_EQ(context, op.output->type, op.on_value->type);
  TF_LITE_ENSURE(context, op.indices->type == kTfLiteInt32 || op.indices->type == kTfLiteInt64);
  TF_LITE_ENSURE_TYPES_EQ(context, op.depth->type, kTfLiteInt32);
  TF_LITE_ENSURE_EQ(context, NumElements(op.depth), 1);
  TF_LITE_ENSURE_EQ(context, NumElements(op.on_value), 1);
  TF_LITE_ENSURE_EQ(context, NumElements(op.off_value), 1);
  TF_LITE_ENSURE_TYPES_EQ(context, op.off_value->type, op.on_value->type);
  if (!IsConstantOrPersistentTensor(op.depth)) {
    SetTensorToDynamic(op.output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, op);
}

// Indices as a [prefix, suffix] matrix (split at the axis), the output as
// [prefix, depth, suffix].
template <typename T, typename I>
void Compute(const OneHot& op) {
  const int64_t prefix = shape_util::Product(op.indices->dims, 0, op.axis);
  if (prefix == 0) return;
  const int64_t suffix = NumElements(op.indices) / prefix;
  const int depth = *GetTensorData<int32_t>(op.depth);
  const T on = *GetTensorData<T>(op.on_value);
  const T off = *GetTensorData<T>(op.off_value);
  const I* indices = GetTensorData<I>(op.indices);
  T* out = GetTensorData<T>(op.output);
  for (int64_t i = 0; i < prefix; ++i) {
    for (int j = 0; j < depth; ++j) {
      for (int64_t k = 0; k < suffix; ++k) {
        // TFLite compares static_cast<int>(index): an int64 index is truncated
        // first.
        *out++ = static_cast<int>(indices[i * suffix + k]) == j ? on : off;
      }
    }
  }
}

template <typename T>
void ComputeTyped(const OneHot& op) {
  if (op.indices->type == kTfLiteInt64) {
    Compute<T, int64_t>(op);
  } else {
    Compute<T, int32_t>(op);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  OneHot op;
  TF_LITE_ENSURE_OK(context, GetOneHot(context, node, &op));
  if (IsDynamicTensor(op.output)) TF_LITE_ENSURE_OK(context, ResizeOutput(context, op));
  switch (op.output->type) {
    case kTfLiteFloat32:
      ComputeTyped<float>(op);
      break;
    case kTfLiteInt32:
      ComputeTyped<int32_t>(op);
      break;
    case kTfLiteInt64:
      ComputeTyped<int64_t>(op);
      break;
    case kTfLiteInt8:
      ComputeTyped<int8_t>(op);
      break;
    case kTfLiteUInt8:
      ComputeTyped<uint8_t>(op);
      break;
    default:
      ComputeTyped<bool>(op);
      break;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace one_hot

TfLiteRegistration* Register_ONE_HOT() {
  static TfLiteRegistration r = {nullptr, nullptr, one_hot::Prepare, one_hot::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
