// Shared by SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND: validation of the input,
// block_shape and paddings/crops tensors, and the 3-D -> 4-D view TFLite uses (a 3-D
// [b, h, c] input is [b, h, 1, c] with block width 1 and no width padding). Header-only;
// errors go through the TfLiteContext.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPACE_BATCH_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPACE_BATCH_H_

#include <cstdint>

#include "kernels/internal/shape_util.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace space_batch {

// Block sizes and paddings (SPACE_TO_BATCH_ND) or crops (BATCH_TO_SPACE_ND) in the
// 4-D view.
struct Spatial {
  int batch, height, width, depth;
  int block_h, block_w;
  int top, bottom, left, right;
};

// Checks node inputs [input, block_shape, paddings] and the types; `op` names the op
// in messages.
inline TfLiteStatus CheckInputs(TfLiteContext* context, TfLiteNode* node, const char* op,
                                const TfLiteTensor** input, const TfLiteTensor** block,
                                const TfLiteTensor** pads, TfLiteTensor** output) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 3);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, block));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 2, pads));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, output));
  TF_LITE_ENSURE_OK(context, shape_util::CheckType(context, (*input)->type,
                                                   {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                                    kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_TYPES_EQ(context, (*output)->type, (*input)->type);
  TF_LITE_ENSURE_TYPES_EQ(context, (*block)->type, kTfLiteInt32);
  TF_LITE_ENSURE_TYPES_EQ(context, (*pads)->type, kTfLiteInt32);
  const int rank = NumDimensions(*input);
  if (rank != 3 && rank != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: input must be 3-D or 4-D, got rank %d.", op, rank);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumDimensions(*block), 1);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(*block, 0), rank - 2);
  TF_LITE_ENSURE_EQ(context, NumDimensions(*pads), 2);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(*pads, 0), rank - 2);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(*pads, 1), 2);
  return kTfLiteOk;
}

// Reads the (constant or now-known) block_shape and paddings/crops; all must be
// valid: blocks >= 1, paddings >= 0.
inline TfLiteStatus Read(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                         const TfLiteTensor* block, const TfLiteTensor* pads, Spatial* s) {
  const int rank = NumDimensions(input);
  const int32_t* b = block->data.i32;
  const int32_t* p = pads->data.i32;
  s->batch = input->dims->data[0];
  s->height = input->dims->data[1];
  s->width = rank == 4 ? input->dims->data[2] : 1;
  s->depth = input->dims->data[rank - 1];
  s->block_h = b[0];
  s->block_w = rank == 4 ? b[1] : 1;
  s->top = p[0];
  s->bottom = p[1];
  s->left = rank == 4 ? p[2] : 0;
  s->right = rank == 4 ? p[3] : 0;
  if (s->block_h < 1 || s->block_w < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: block_shape must be positive.", op);
    return kTfLiteError;
  }
  if (s->top < 0 || s->bottom < 0 || s->left < 0 || s->right < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: paddings/crops must be non-negative.", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Output dims in the input's rank from the 4-D [b, h, w, c].
inline TfLiteIntArray* OutputDims(int rank, int64_t b, int64_t h, int64_t w, int64_t c) {
  TfLiteIntArray* out = TfLiteIntArrayCreate(rank);
  out->data[0] = static_cast<int>(b);
  out->data[1] = static_cast<int>(h);
  if (rank == 4) out->data[2] = static_cast<int>(w);
  out->data[rank - 1] = static_cast<int>(c);
  return out;
}

// Sizes the output from the (now-known) block_shape and paddings/crops: each op's rule.
using ResizeFn = TfLiteStatus (*)(TfLiteContext* context, const TfLiteTensor* input,
                                  const TfLiteTensor* block, const TfLiteTensor* pads,
                                  TfLiteTensor* output);

// Prepare of both ops: inputs checked, 8-bit quantization equal in and out, the output
// sized now (constant block_shape and paddings/crops) or made dynamic.
inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const char* op,
                            ResizeFn resize) {
  const TfLiteTensor *input, *block, *pads;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, CheckInputs(context, node, op, &input, &block, &pads, &output));
  if (input->type == kTfLiteUInt8 || input->type == kTfLiteInt8) {
    TF_LITE_ENSURE_EQ(context, input->params.scale, output->params.scale);
    TF_LITE_ENSURE_EQ(context, input->params.zero_point, output->params.zero_point);
  }
  if (!IsConstantOrPersistentTensor(block) || !IsConstantOrPersistentTensor(pads)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return resize(context, input, block, pads, output);
}

// What Eval of both ops starts from: the tensors, the spatial parameters, the output's
// 4-D view and the bytes of one pixel (depth elements).
struct EvalView {
  const TfLiteTensor* input = nullptr;
  TfLiteTensor* output = nullptr;
  Spatial sp;
  int out_batch = 0, out_h = 0, out_w = 0;
  size_t pixel = 0;
};

// Resizes a dynamic output first, then reads the parameters into *view.
inline TfLiteStatus BeginEval(TfLiteContext* context, TfLiteNode* node, const char* op,
                              ResizeFn resize, EvalView* view) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* block = GetInput(context, node, 1);
  const TfLiteTensor* pads = GetInput(context, node, 2);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output))
    TF_LITE_ENSURE_OK(context, resize(context, input, block, pads, output));
  TF_LITE_ENSURE_OK(context, Read(context, op, input, block, pads, &view->sp));
  view->input = input;
  view->output = output;
  const int rank = NumDimensions(output);
  view->out_batch = output->dims->data[0];
  view->out_h = output->dims->data[1];
  view->out_w = rank == 4 ? output->dims->data[2] : 1;
  view->pixel = TfLiteTypeGetSize(input->type) * static_cast<size_t>(view->sp.depth);
  return kTfLiteOk;
}

}  // namespace space_batch
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPACE_BATCH_H_
