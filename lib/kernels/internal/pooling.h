// Shared parts of MAX_POOL_2D and AVERAGE_POOL_2D (NHWC): option checks and output
// sizing as TFLite's pooling.cc Prepare does, and the reference pooling loops.
//
// Quantized average pooling rounds half away from zero, (sum +- count/2) / count,
// as upstream reference_integer_ops::AveragePool; uint8 sums are never negative, so
// this is also reference_ops::AveragePool's (sum + count/2) / count there.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_POOLING_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_POOLING_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/internal/padding.h"
#include "kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace pooling {

// What Prepare works out once for Eval (lives in node->user_data).
struct PoolData {
  int pad_height = 0;
  int pad_width = 0;
  int32_t act_min = 0;  // quantized clamp range
  int32_t act_max = 0;
  float float_min = 0.f;
  float float_max = 0.f;
};

inline void* Init(TfLiteContext*, const char*, size_t) { return new PoolData; }
inline void Free(TfLiteContext*, void* buffer) { delete static_cast<PoolData*>(buffer); }

// Output size and leading padding, with the conv family's helpers (padding.h).
inline bool OutSizeAndPadding(TfLitePadding padding, int in, int filter, int stride, int* out,
                              int* pad) {
  if (padding != kTfLitePaddingSame && padding != kTfLitePaddingValid) return false;
  *out = ComputeOutSize(padding, in, filter, stride);
  *pad = ComputePadding(stride, 1, in, filter, *out);
  return true;
}

// Checks shapes, types and options; sizes the output; fills PoolData. `op_name`
// is for messages.
inline TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const char* op_name) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 1);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const auto* params = static_cast<const TfLitePoolParams*>(node->builtin_data);
  TF_LITE_ENSURE(context, params != nullptr);
  auto* data = static_cast<PoolData*>(node->user_data);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  const TfLiteType t = input->type;
  if (t != kTfLiteFloat32 && t != kTfLiteUInt8 && t != kTfLiteInt8 && t != kTfLiteInt16) {
    TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(t), t);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_TYPES_EQ(context, t, output->type);
  TF_LITE_ENSURE_EQ(context, NumDimensions(input), 4);
  TF_LITE_ENSURE(context, params->stride_height > 0 && params->stride_width > 0);
  TF_LITE_ENSURE(context, params->filter_height > 0 && params->filter_width > 0);
  const int batches = input->dims->data[0];
  const int height = input->dims->data[1];
  const int width = input->dims->data[2];
  const int channels = input->dims->data[3];
  int out_height, out_width;
  if (!OutSizeAndPadding(params->padding, height, params->filter_height, params->stride_height,
                         &out_height, &data->pad_height) ||
      !OutSizeAndPadding(params->padding, width, params->filter_width, params->stride_width,
                         &out_width, &data->pad_width)) {
    TF_LITE_KERNEL_LOG(context, "%s: unknown padding %d.", op_name, params->padding);
    return kTfLiteError;
  }
  if (out_height <= 0 || out_width <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: filter %dx%d larger than input %dx%d with VALID padding.",
                       op_name, params->filter_height, params->filter_width, height, width);
    return kTfLiteError;
  }
  if (t == kTfLiteFloat32) {
    CalculateActivationRange(params->activation, &data->float_min, &data->float_max);
  } else {
    if (t == kTfLiteInt16) {
      TF_LITE_ENSURE_EQ(context, input->params.zero_point, 0);
      TF_LITE_ENSURE_EQ(context, output->params.zero_point, 0);
    }
    TF_LITE_ENSURE_OK(context,
                      CalculateActivationRangeQuantized(context, params->activation, output,
                                                        &data->act_min, &data->act_max));
  }
  TfLiteIntArray* out = TfLiteIntArrayCreate(4);
  out->data[0] = batches;
  out->data[1] = out_height;
  out->data[2] = out_width;
  out->data[3] = channels;
  return context->ResizeTensor(context, output, out);
}

// The quantized average as the reference kernels compute it, (acc +- count / 2) / count
// in integers, rounding half away from zero. In double the quotient is exact after
// truncation while count <= 2^21 (|acc| < 2^31: the quotient's error, at most 2^-21, is
// below 1 / count, the least distance of a non-integer quotient from an integer); the
// division then vectorizes, where an integer division per element was most of an int8
// AVERAGE_POOL_2D's time. Larger counts divide in integers.
constexpr int kMaxDoubleAverageCount = 1 << 21;
__attribute__((always_inline, optimize("no-trapping-math"))) inline int32_t RoundedAverageInDouble(
    int32_t acc, int32_t half, double count) {
  const double n = static_cast<double>(acc) + (acc > 0 ? half : -half);
  return static_cast<int32_t>(n / count);
}
inline int32_t RoundedAverage(int32_t acc, int count) {
  const int32_t half = count / 2;
  if (count > kMaxDoubleAverageCount) return acc > 0 ? (acc + half) / count : (acc - half) / count;
  return RoundedAverageInDouble(acc, half, static_cast<double>(count));
}

// out[c] = clamp(RoundedAverage(acc[c], count), lo, hi) for c < depth. Without trapping
// math (the quotients are in range, nothing traps) GCC vectorizes the conversions.
template <typename T>
__attribute__((optimize("no-trapping-math"))) void RoundedAverageRow(
    const int32_t* __restrict acc, int depth, int count, int32_t lo, int32_t hi, T* __restrict out) {
  if (count == 0) {  // no position in the window: only a bad model gets here
    std::fill(out, out + depth, static_cast<T>(0));
    return;
  }
  if (count > kMaxDoubleAverageCount) {
    for (int c = 0; c < depth; ++c) out[c] = static_cast<T>(std::min(std::max(RoundedAverage(acc[c], count), lo), hi));
    return;
  }
  const int32_t half = count / 2;
  const double n = static_cast<double>(count);
  for (int c = 0; c < depth; ++c) {
    int32_t v = RoundedAverageInDouble(acc[c], half, n);
    v = v < lo ? lo : v;
    out[c] = static_cast<T>(v > hi ? hi : v);
  }
}

// Calls reduce(acc, value) over the window of every output element of output row `row`
// (b * out_h + oy), then finish(acc, depth, count, out) to produce an output pixel's depth
// values from their accumulators (a row at a time, so that the loop over the channels has
// no per-element branch and vectorizes). Acc and T are the accumulator and element types.
// Inlined into PoolLoop, or into a caller compiled for a wider vector unit.
template <typename T, typename Acc, typename Reduce, typename Finish>
inline __attribute__((always_inline)) void PoolRow(const TfLitePoolParams& params,
                                                   const PoolData& data,
                                                   const TfLiteTensor* input, TfLiteTensor* output,
                                                   Acc init, const Reduce& reduce,
                                                   const Finish& finish, size_t row) {
  const int in_h = input->dims->data[1];
  const int in_w = input->dims->data[2];
  // A local, not a reference into the tensor: a store to the accumulators could alias it
  // (int8 pointers alias anything), which kept the loops below scalar.
  const int depth = input->dims->data[3];
  const int out_h = output->dims->data[1];
  const int out_w = output->dims->data[2];
  const T* in = reinterpret_cast<const T*>(input->data.raw);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int b = static_cast<int>(row / out_h);
  const int oy = static_cast<int>(row % out_h);
  const int y0 = oy * params.stride_height - data.pad_height;
  const int fy_start = std::max(0, -y0);
  const int fy_end = std::min(params.filter_height, in_h - y0);
  // Channels innermost (contiguous, vectorized): each element still reduces its window
  // in (fy, fx) order, so the results are those of the per-element loop.
  std::vector<Acc> acc(static_cast<size_t>(depth));
  for (int ox = 0; ox < out_w; ++ox) {
    const int x0 = ox * params.stride_width - data.pad_width;
    const int fx_start = std::max(0, -x0);
    const int fx_end = std::min(params.filter_width, in_w - x0);
    std::fill(acc.begin(), acc.end(), init);
    // Restrict: int8 pointers may alias anything, which kept these loops scalar.
    Acc* __restrict a = acc.data();
    int count = 0;
    for (int fy = fy_start; fy < fy_end; ++fy) {
      for (int fx = fx_start; fx < fx_end; ++fx) {
        const T* __restrict px =
            in + ((static_cast<int64_t>(b) * in_h + y0 + fy) * in_w + x0 + fx) * depth;
        for (int c = 0; c < depth; ++c) a[c] = reduce(a[c], px[c]);
        ++count;
      }
    }
    T* __restrict o = out + ((static_cast<int64_t>(b) * out_h + oy) * out_w + ox) * depth;
    finish(a, depth, count, o);
  }
}

// The work and the number of output rows PoolLoop splits over the pool.
inline double PoolWork(const TfLitePoolParams& params, const TfLiteTensor* output) {
  return static_cast<double>(NumElements(output)) * params.filter_height * params.filter_width;
}
inline size_t PoolRows(const TfLiteTensor* input, const TfLiteTensor* output) {
  return static_cast<size_t>(input->dims->data[0]) * output->dims->data[1];
}

// PoolRow over every output row, split over `pool` (nullptr: inline); each row is
// computed the same way whatever the split, so results do not depend on the thread count.
template <typename T, typename Acc, typename Reduce, typename Finish>
void PoolLoop(pthreadpool* pool, const TfLitePoolParams& params, const PoolData& data,
              const TfLiteTensor* input, TfLiteTensor* output, Acc init, Reduce reduce,
              Finish finish) {
  parallel::ParallelFor(pool, PoolRows(input, output), PoolWork(params, output), [&](size_t row) {
    PoolRow<T, Acc>(params, data, input, output, init, reduce, finish, row);
  });
}

// Eval of a pooling op: the node's tensors and thread pool, then Kernel::Run<T> for the
// input type (float32, uint8, int8, int16; Prepare has checked the output matches).
template <typename Kernel>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLitePoolParams*>(node->builtin_data);
  const auto& data = *static_cast<const PoolData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  pthreadpool* pool = parallel::ThreadPool(context);
  switch (input->type) {
    case kTfLiteFloat32:
      Kernel::template Run<float>(pool, params, data, input, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      Kernel::template Run<uint8_t>(pool, params, data, input, output);
      return kTfLiteOk;
    case kTfLiteInt8:
      Kernel::template Run<int8_t>(pool, params, data, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      Kernel::template Run<int16_t>(pool, params, data, input, output);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "Type %s (%d) not supported.", TfLiteTypeGetName(input->type),
                         input->type);
      return kTfLiteError;
  }
}

}  // namespace pooling
}  // namespace builtin
}  // namespace ops
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_POOLING_H_
