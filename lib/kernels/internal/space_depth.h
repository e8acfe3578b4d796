// Shared pieces of DEPTH_TO_SPACE and SPACE_TO_DEPTH (NHWC, block_size x block_size
// spatial blocks <-> channels). Both kernels only move elements, so they work on raw
// bytes; the element types allowed are TFLite's: float32, uint8, int8, int32, int64.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPACE_DEPTH_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPACE_DEPTH_H_

#include <cstdint>
#include <cstring>

#include "kernels/internal/fixed_copy.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace space_depth {

// One input and one output of the same supported type, input of rank 4, block >= 1.
inline TfLiteStatus CheckCommon(TfLiteContext* context, TfLiteNode* node, int block_size,
                                const TfLiteTensor** input, TfLiteTensor** output) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, output));
  TF_LITE_ENSURE_EQ(context, NumDimensions(*input), 4);
  switch ((*input)->type) {
    case kTfLiteFloat32:
    case kTfLiteUInt8:
    case kTfLiteInt8:
    case kTfLiteInt32:
    case kTfLiteInt64:
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName((*input)->type),
                         (*input)->type);
      return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, (*input)->type, (*output)->type);
  TF_LITE_ENSURE_MSG(context, block_size >= 1, "block_size must be at least 1");
  return kTfLiteOk;
}

// Moves the elements between the "space" tensor [b, h * bs, w * bs, d] and the "depth"
// tensor [b, h, w, d * bs * bs]: space(b, y, x, c) = depth(b, y / bs, x / bs,
// ((y % bs) * bs + x % bs) * d + c). `to_space` picks the direction. A space row's bs pixels
// over one depth pixel are bs * d contiguous values on both sides: one copy each, of a
// known size where it is short (ESPCN's 3 x 3 blocks of one channel: a copy an element
// with the index arithmetic per element took 4 ns an element).
inline void Shuffle(const char* in, char* out, int batch, int height, int width, int depth, int bs,
                    size_t elem, bool to_space) {
  const size_t run = static_cast<size_t>(bs) * depth * elem;  // bytes a depth pixel gives a row
  const size_t depth_pixel = run * bs;
  const size_t space_row = run * width;
  auto rows = [&](auto copy) {
    for (int64_t r = 0; r < static_cast<int64_t>(batch) * height; ++r) {
      for (int dy = 0; dy < bs; ++dy) {
        const size_t space_off = (static_cast<size_t>(r) * bs + dy) * space_row;
        const size_t depth_off = static_cast<size_t>(r) * width * depth_pixel + dy * run;
        for (int x = 0; x < width; ++x) {
          const size_t s = space_off + x * run, d = depth_off + x * depth_pixel;
          if (to_space) {
            copy(out + s, in + d);
          } else {
            copy(out + d, in + s);
          }
        }
      }
    }
  };
  fixed_copy::WithCopy(
      run, [&](auto copy) { rows([&copy](char* to, const char* from) { copy(to, from); }); });
}

}  // namespace space_depth
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPACE_DEPTH_H_
