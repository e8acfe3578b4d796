// GATHER: output = input.dims[:axis] + positions.dims[batch_dims:] + input.dims[axis+1:],
// as TFLite's gather.cc / reference_ops::Gather. Positions are int16, int32 or int64; an
// index outside [0, input.dims[axis]) fails Eval with a message (never reads out of
// bounds). v1 float32/uint8/int32/int64, v2 int8, v3 bool, v4 int16, v5 batch_dims,
// v6 int16 positions; string inputs too. Not supported: int4 (v7).
#include <cstring>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace gather {
namespace {

struct Axes {
  int axis;
  int batch_dims;
};

TfLiteStatus GetAxes(TfLiteContext* context, const TfLiteGatherParams* params,
                     const TfLiteTensor* input, const TfLiteTensor* positions, Axes* axes) {
  TF_LITE_ENSURE_OK(
      context, shape_util::NormalizeAxis(context, params->axis, NumDimensions(input), &axes->axis));
  int batch_dims = params->batch_dims;
  if (batch_dims < 0) batch_dims += NumDimensions(positions);
  TF_LITE_ENSURE_MSG(context, batch_dims >= 0 && batch_dims <= axes->axis,
                     "GATHER: batch_dims must be in [0, axis]");
  TF_LITE_ENSURE(context, batch_dims <= NumDimensions(positions));
  for (int i = 0; i < batch_dims; ++i) {
    TF_LITE_ENSURE_EQ(context, SizeOfDimension(input, i), SizeOfDimension(positions, i));
  }
  axes->batch_dims = batch_dims;
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteGatherParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor* input;
  const TfLiteTensor* positions;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &positions));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, positions->type,
                                                   {kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_OK(
      context, shape_util::CheckType(context, input->type,
                                     {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64, kTfLiteBool, kTfLiteString}));
  TF_LITE_ENSURE_TYPES_EQ(context, output->type, input->type);
  Axes axes;
  TF_LITE_ENSURE_OK(context, GetAxes(context, params, input, positions, &axes));
  const int rank = NumDimensions(input) + NumDimensions(positions) - 1 - axes.batch_dims;
  TfLiteIntArray* shape = TfLiteIntArrayCreate(rank);
  int k = 0;
  for (int i = 0; i < axes.axis; ++i) shape->data[k++] = input->dims->data[i];
  for (int i = axes.batch_dims; i < NumDimensions(positions); ++i) {
    shape->data[k++] = positions->dims->data[i];
  }
  for (int i = axes.axis + 1; i < NumDimensions(input); ++i) {
    shape->data[k++] = input->dims->data[i];
  }
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteGatherParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* positions = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  Axes axes;
  TF_LITE_ENSURE_OK(context, GetAxes(context, params, input, positions, &axes));
  const int64_t batch = shape_util::Product(input->dims, 0, axes.batch_dims);
  const int64_t outer = shape_util::Product(input->dims, axes.batch_dims, axes.axis);
  const int64_t axis_size = SizeOfDimension(input, axes.axis);
  const int64_t inner = shape_util::Product(input->dims, axes.axis + 1, NumDimensions(input));
  const int64_t coords =
      shape_util::Product(positions->dims, axes.batch_dims, NumDimensions(positions));
  for (int64_t p = 0; p < batch * coords; ++p) {
    const int64_t index = shape_util::IndexAt(positions, p);
    if (index < 0 || index >= axis_size) {
      TF_LITE_KERNEL_LOG(context, "GATHER: index %lld is out of bounds [0, %lld)",
                         static_cast<long long>(index), static_cast<long long>(axis_size));
      return kTfLiteError;
    }
  }
  if (input->type == kTfLiteString) {
    // Output element j = ((b * outer + o) * coords + i) * inner + k.
    return shape_util::GatherStrings(context, input, output, NumElements(output), [&](int64_t j) {
      const int64_t k = j % inner, row = j / inner;
      const int64_t i = row % coords, bo = row / coords, b = bo / outer;
      return (bo * axis_size + shape_util::IndexAt(positions, b * coords + i)) * inner + k;
    });
  }
  const size_t bytes = static_cast<size_t>(inner) * shape_util::ElementBytes(input->type);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const char* in = input->data.raw_const + (b * outer + o) * axis_size * bytes;
      char* out = output->data.raw + (b * outer + o) * coords * bytes;
      for (int64_t i = 0; i < coords; ++i) {
        const int64_t index = shape_util::IndexAt(positions, b * coords + i);
        std::memcpy(out + i * bytes, in + index * bytes, bytes);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace gather

TfLiteRegistration* Register_GATHER() {
  static TfLiteRegistration r = {nullptr, nullptr, gather::Prepare, gather::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
