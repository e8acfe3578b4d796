// The mask of an AVX2 vector's first n lanes (lane i set where i < n), for the masked loads,
// stores and blends of the AVX2 loops that end on a partial vector: one definition for them.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_AVX2_LANES_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_AVX2_LANES_H_

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace tflite {

__attribute__((target("avx2"), always_inline)) inline __m256i FirstLanesAvx2(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

}  // namespace tflite

#endif  // x86
#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_AVX2_LANES_H_
