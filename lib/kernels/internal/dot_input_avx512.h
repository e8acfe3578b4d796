// gemm::DotInput's AVX-512 loop (int8 -> the dot GEMM's uint8: v ^ 0x80), inline for the
// callers that convert many short spans (im2col rows) and cannot afford a call per span.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DOT_INPUT_AVX512_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DOT_INPUT_AVX512_H_

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace tflite {
namespace gemm {

// n bytes of src + 128 at dst, 64 a step, the tail under a mask.
__attribute__((target("avx512f,avx512bw"), always_inline)) inline void DotInputSpanAvx512(
    const int8_t* src, size_t n, uint8_t* dst) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(src + i), flip));
  }
  if (i < n) {
    const __mmask64 m = (uint64_t{1} << (n - i)) - 1;  // n - i < 64
    _mm512_mask_storeu_epi8(dst + i, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, src + i), flip));
  }
}

}  // namespace gemm
}  // namespace tflite

#endif  // x86
#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DOT_INPUT_AVX512_H_
