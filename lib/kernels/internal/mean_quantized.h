// MEAN of 8- and 16-bit values as TFLite's reference QuantizedMeanOrSum, on raw pointers:
// shared by the builtin kernel (kernels/mean.cc) and the XNNPACK delegate's own 8-bit MEAN
// step, so both give the reference kernels' bytes. The int64 sum per output (a row-major
// walk of the input, as upstream's ReduceSumImpl) minus zero_point * count is requantized
// with QuantizeMultiplier(input_scale / output_scale) folded with 1 / count.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MEAN_QUANTIZED_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MEAN_QUANTIZED_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tensorflow/lite/kernels/internal/common.h"

namespace tflite {
namespace mean_quantized {

constexpr int kMaxDims = 8;

template <typename T, typename Acc>
int64_t SumInto(const T* in, const int* dims, int rank, const bool* reduced,
                std::vector<Acc>* sums);

// Where the outermost dimensions (after dropping those of 1 and merging neighbours of the
// same kind) are reduced: the block of the inner dimensions added up over them, a
// contiguous row at a time in int32 lanes the compiler vectorizes, then the block reduced
// by SumInto. Integer sums in any order are the same (the caller wraps them as the
// reference's int32 at the end): a group norm's MEAN over [1, 64, 64, 8, 4] keeping the 8
// groups walked its dimensions 4 values at a time, 64 us; now 4096 rows of 32 values.
template <typename T, typename Acc>
bool SumOuterReduced(const T* in, const int* dims, int rank, const bool* reduced,
                     std::vector<Acc>* sums, int64_t* count) {
  int merged[kMaxDims];
  bool kind[kMaxDims];
  int m = 0;
  for (int d = 0; d < rank; ++d) {
    if (dims[d] == 1) continue;
    if (m > 0 && kind[m - 1] == reduced[d]) {
      const int64_t product = int64_t{merged[m - 1]} * dims[d];
      if (product > std::numeric_limits<int>::max()) return false;
      merged[m - 1] = static_cast<int>(product);
    } else {
      merged[m] = dims[d];
      kind[m++] = reduced[d];
    }
  }
  if (m < 2 || !kind[0]) return false;
  int64_t block = 1;
  for (int d = 1; d < m; ++d) block *= merged[d];
  if (block > (1 << 16)) return false;
  const int64_t rows = merged[0];
  // int32 lanes hold 2^31 / 2^bits rows of values before they could wrap.
  const int64_t chunk = int64_t{1} << (30 - 8 * static_cast<int>(sizeof(T)));
  std::vector<int64_t> total(static_cast<size_t>(block), 0);
  std::vector<int32_t> lanes(static_cast<size_t>(block));
  for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
    std::fill(lanes.begin(), lanes.end(), 0);
    for (int64_t r = r0; r < std::min(rows, r0 + chunk); ++r) {
      const T* row = in + r * block;
      for (int64_t j = 0; j < block; ++j) lanes[j] += static_cast<int32_t>(row[j]);
    }
    for (int64_t j = 0; j < block; ++j) total[j] += lanes[j];
  }
  const int64_t inner = SumInto<int64_t, Acc>(total.data(), merged + 1, m - 1, kind + 1, sums);
  *count = inner * rows;
  return true;
}

// Sums in[] (shape dims[0, rank)) into one accumulator per output element (the input
// without its reduced dimensions, row-major); returns the number of inputs per output.
template <typename T, typename Acc>
int64_t SumInto(const T* in, const int* dims, int rank, const bool* reduced, std::vector<Acc>* sums) {
  if constexpr (sizeof(T) <= 2) {
    int64_t count = 0;
    if (SumOuterReduced<T, Acc>(in, dims, rank, reduced, sums, &count)) return count;
  }
  // Output stride of each input dimension (0 where reduced).
  int64_t out_stride[kMaxDims];
  int64_t stride = 1, count = 1, n = 1;
  for (int d = rank - 1; d >= 0; --d) {
    n *= dims[d];
    if (reduced[d]) {
      out_stride[d] = 0;
      count *= dims[d];
    } else {
      out_stride[d] = stride;
      stride *= dims[d];
    }
  }
  sums->assign(static_cast<size_t>(stride), Acc(0));
  if (n == 0) return count;
  if (rank == 0) {
    (*sums)[0] = WrappingAdd((*sums)[0], static_cast<Acc>(in[0]));
    return count;
  }
  int idx[kMaxDims] = {0};
  int64_t out_off = 0;
  const int last = rank - 1;
  for (int64_t i = 0; i < n;) {
    if (out_stride[last] == 0) {
      // The last axis is reduced: its run adds into one sum, kept in a register (the same
      // additions in the same order).
      Acc acc = (*sums)[out_off];
      for (int k = 0; k < dims[last]; ++k, ++i) acc = WrappingAdd(acc, static_cast<Acc>(in[i]));
      (*sums)[out_off] = acc;
    } else {
      for (int k = 0; k < dims[last]; ++k, ++i) {
        Acc& sum = (*sums)[out_off + k * out_stride[last]];
        sum = WrappingAdd(sum, static_cast<Acc>(in[i]));
      }
    }
    int d = last - 1;
    for (; d >= 0; --d) {
      out_off += out_stride[d];
      if (++idx[d] < dims[d]) break;
      out_off -= out_stride[d] * dims[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  return count;
}

// The requantization of one MEAN: QuantizeMultiplier(input_scale / output_scale) and the
// zero points.
struct Params {
  int32_t multiplier = 0;
  int shift = 0;
  int32_t input_zero_point = 0, output_zero_point = 0;
};

// out[] (the input without its reduced dimensions) = the reference kernels' quantized mean;
// `sums` is scratch.
template <typename T>
void Mean(const T* in, const int* dims, int rank, const bool* reduced, const Params& p, T* out,
          std::vector<int64_t>* sums) {
  const int64_t count = SumInto<T, int64_t>(in, dims, rank, reduced, sums);
  if (count == 0) {
    std::fill(out, out + sums->size(), T());
    return;
  }
  // Fold 1/count into the multiplier, as upstream (shift clamped to keep
  // MultiplyByQuantizedMultiplier's preconditions).
  int shift = 63 - CountLeadingZeros(static_cast<uint64_t>(count));
  shift = std::min(shift, 32);
  shift = std::min(shift, 31 + p.shift);
  const int32_t multiplier = static_cast<int32_t>((static_cast<int64_t>(p.multiplier) << shift) / count);
  const int output_shift = p.shift - shift;
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  for (size_t i = 0; i < sums->size(); ++i) {
    // Upstream keeps the sum in int32; the cast reproduces its wrap-around.
    const int32_t shifted_sum = static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<uint64_t>((*sums)[i] - p.input_zero_point * count)));
    int32_t v = MultiplyByQuantizedMultiplier(shifted_sum, multiplier, output_shift) + p.output_zero_point;
    v = std::min(std::max(v, kMin), kMax);
    out[i] = static_cast<T>(v);
  }
}

}  // namespace mean_quantized
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MEAN_QUANTIZED_H_
