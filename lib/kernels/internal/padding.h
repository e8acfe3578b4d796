// Output size and implicit padding of windowed ops (convolutions, pooling), with TFLite's
// rounding (source-compatible with upstream tensorflow/lite/kernels/padding.h).
//
// SAME: out = ceil(in / stride); the total padding is split with the odd pixel at the
// far side (*_offset). VALID: out = floor((in - effective_filter) / stride) + 1, which
// is <= 0 when the (dilated) filter is larger than the input: callers must reject that.
// The arithmetic is in 64 bits and the results are clamped to int's range: a crafted
// stride, dilation or size must not overflow (the fuzzers' inputs reach here before any
// kernel can refuse them); FitsConvWindow lets a kernel refuse such a window first.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_PADDING_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_PADDING_H_

#include <cstdint>

#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite {

namespace padding_internal {
inline int64_t EffectiveFilter(int filter_size, int dilation_rate) {
  return (int64_t{filter_size} - 1) * dilation_rate + 1;
}
inline int ClampToInt(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : static_cast<int>(v);
}
}  // namespace padding_internal

// Whether a filter of filter_size taps dilated by dilation_rate spans at most int's range.
inline bool FitsConvWindow(int filter_size, int dilation_rate) {
  return padding_internal::EffectiveFilter(filter_size, dilation_rate) <= INT32_MAX;
}

inline int ComputePadding(int stride, int dilation_rate, int in_size, int filter_size,
                          int out_size) {
  const int64_t padding = ((int64_t{out_size} - 1) * stride +
                           padding_internal::EffectiveFilter(filter_size, dilation_rate) - in_size) /
                          2;
  return padding > 0 ? padding_internal::ClampToInt(padding) : 0;
}

inline int ComputePaddingWithOffset(int stride, int dilation_rate, int in_size, int filter_size,
                                    int out_size, int* offset) {
  int64_t total_padding = (int64_t{out_size} - 1) * stride +
                          padding_internal::EffectiveFilter(filter_size, dilation_rate) - in_size;
  total_padding = total_padding > 0 ? total_padding : 0;
  *offset = static_cast<int>(total_padding % 2);
  return padding_internal::ClampToInt(total_padding / 2);
}

// 0 for a zero stride or an unknown padding.
inline int ComputeOutSize(TfLitePadding padding, int image_size, int filter_size, int stride,
                          int dilation_rate = 1) {
  const int64_t effective_filter_size = padding_internal::EffectiveFilter(filter_size, dilation_rate);
  if (stride == 0) return 0;
  switch (padding) {
    case kTfLitePaddingSame:
      return padding_internal::ClampToInt((int64_t{image_size} + stride - 1) / stride);
    case kTfLitePaddingValid:
      return padding_internal::ClampToInt((int64_t{image_size} + stride - effective_filter_size) /
                                          stride);
    default:
      return 0;
  }
}

// One dimension's output size and leading padding (the offset dropped), as TFLite's
// ComputePadding3DValues computes each of a 3-D convolution's.
inline void ComputeOutSizeAndPadding(TfLitePadding padding, int in_size, int filter_size,
                                     int stride, int dilation_rate, int* out_size, int* pad) {
  *out_size = ComputeOutSize(padding, in_size, filter_size, stride, dilation_rate);
  int offset = 0;
  *pad = ComputePaddingWithOffset(stride, dilation_rate, in_size, filter_size, *out_size, &offset);
}

inline TfLitePaddingValues ComputePaddingHeightWidth(int stride_height, int stride_width,
                                                     int dilation_rate_height,
                                                     int dilation_rate_width, int in_height,
                                                     int in_width, int filter_height,
                                                     int filter_width, TfLitePadding padding,
                                                     int* out_height, int* out_width) {
  *out_width = ComputeOutSize(padding, in_width, filter_width, stride_width, dilation_rate_width);
  *out_height =
      ComputeOutSize(padding, in_height, filter_height, stride_height, dilation_rate_height);
  TfLitePaddingValues values;
  int offset = 0;
  values.height = ComputePaddingWithOffset(stride_height, dilation_rate_height, in_height,
                                           filter_height, *out_height, &offset);
  values.height_offset = offset;
  values.width = ComputePaddingWithOffset(stride_width, dilation_rate_width, in_width, filter_width,
                                          *out_width, &offset);
  values.width_offset = offset;
  return values;
}

}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_PADDING_H_
