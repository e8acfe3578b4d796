// The float sum of a contiguous run of values as TFLite's builtin kernels take it on x86:
// Eigen's vectorized redux for 4-float (SSE) packets. Two packet accumulators over the
// 8-value steps from the run's first 16-byte-aligned value, one more packet if 4 values
// are left, the packet reduced as (l0 + l2) + (l1 + l3), then the values before the
// aligned start and after the last packet, one by one; a run too short for a packet sums
// in order. Used where TFLite's kernels call Eigen's sum() on a row (SOFTMAX's
// normalization, MEAN over the innermost axes), whose results dynamic-range layers
// quantize. TFLite's arena aligns every tensor to 16 bytes or more, so a run's alignment
// is its offset in the tensor modulo 4 values.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_EIGEN_SUM_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_EIGEN_SUM_H_

#include <algorithm>
#include <cstdint>

namespace tflite {

// row[0, n), whose first value is `offset` values into its (aligned) tensor.
__attribute__((optimize("fp-contract=off"))) inline float EigenSum(const float* row, int64_t n,
                                                                    int64_t offset) {
  if (n <= 0) return 0.0f;
  const int64_t start = std::min<int64_t>(n, (4 - offset % 4) % 4);
  const int64_t size = ((n - start) / 4) * 4;
  const int64_t size2 = ((n - start) / 8) * 8;
  if (size == 0) {
    float sum = row[0];
    for (int64_t i = 1; i < n; ++i) sum += row[i];
    return sum;
  }
  float p0[4], p1[4];
  for (int l = 0; l < 4; ++l) p0[l] = row[start + l];
  if (size > 4) {
    for (int l = 0; l < 4; ++l) p1[l] = row[start + 4 + l];
    for (int64_t i = start + 8; i < start + size2; i += 8) {
      for (int l = 0; l < 4; ++l) {
        p0[l] += row[i + l];
        p1[l] += row[i + 4 + l];
      }
    }
    for (int l = 0; l < 4; ++l) p0[l] += p1[l];
    if (size > size2) {
      for (int l = 0; l < 4; ++l) p0[l] += row[start + size2 + l];
    }
  }
  const float even = p0[0] + p0[2];
  const float odd = p0[1] + p0[3];
  float sum = even + odd;
  for (int64_t i = 0; i < start; ++i) sum += row[i];
  for (int64_t i = start + size; i < n; ++i) sum += row[i];
  return sum;
}

}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_EIGEN_SUM_H_
