// Prepare-time pieces shared by RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: both take an
// NHWC input and an int32 [height, width] `size`, and size their output from it (now when
// `size` is constant, at Eval otherwise).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_RESIZE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_RESIZE_H_

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace resize {

// Output shape [batch, size[0], size[1], channels]; sizes must be positive.
inline TfLiteStatus ResizeOutput(TfLiteContext* context, const char* op,
                                 const TfLiteTensor* input, const TfLiteTensor* size,
                                 TfLiteTensor* output) {
  TF_LITE_ENSURE_EQ(context, NumElements(size), 2);
  const int32_t* size_data = size->data.i32;
  if (size_data[0] <= 0 || size_data[1] <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: output size [%d, %d] must be positive.", op, size_data[0],
                       size_data[1]);
    return kTfLiteError;
  }
  TfLiteIntArray* out = TfLiteIntArrayCreate(4);
  out->data[0] = input->dims->data[0];
  out->data[1] = size_data[0];
  out->data[2] = size_data[1];
  out->data[3] = input->dims->data[3];
  return context->ResizeTensor(context, output, out);
}

// Checks the node's tensors: 2 inputs, 1 output, a float32/uint8/int8/int16 4-D input with
// an output of the same type, and a 1-D int32 size.
inline TfLiteStatus GetResizeTensors(TfLiteContext* context, TfLiteNode* node,
                                     const TfLiteTensor** input, const TfLiteTensor** size,
                                     TfLiteTensor** output) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, size));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, output));
  const TfLiteType t = (*input)->type;
  if (t != kTfLiteFloat32 && t != kTfLiteUInt8 && t != kTfLiteInt8 && t != kTfLiteInt16) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(t), t);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, (*output)->type, t);
  TF_LITE_ENSURE_EQ(context, NumDimensions(*input), 4);
  TF_LITE_ENSURE_EQ(context, NumDimensions(*size), 1);
  TF_LITE_ENSURE_TYPES_EQ(context, (*size)->type, kTfLiteInt32);
  return kTfLiteOk;
}

}  // namespace resize
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_RESIZE_H_
