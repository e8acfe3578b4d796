// gemm::DotInput's AVX-512 and AVX2 loops (int8 -> the dot GEMM's uint8: v ^ 0x80), inline
// for the callers that convert many short spans (im2col rows) and cannot afford a call per
// span.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DOT_INPUT_SPAN_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DOT_INPUT_SPAN_H_

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/internal/gemm.h"

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
    _mm512_mask_storeu_epi8(dst + i, m,
                            _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, src + i), flip));
  }
}

// The same on AVX2: 32 bytes a step, then 8, then bytes (a grouped convolution's spans are
// a group's few channels).
__attribute__((target("avx2"), always_inline)) inline void DotInputSpanAvx2(const int8_t* src,
                                                                            size_t n,
                                                                            uint8_t* dst) {
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_xor_si256(v, flip));
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, src + i, sizeof v);
    v ^= 0x8080808080808080ull;
    std::memcpy(dst + i, &v, sizeof v);
  }
  for (; i < n; ++i) dst[i] = DotByte(src[i]);
}

}  // namespace gemm
}  // namespace tflite

#endif  // x86
#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_DOT_INPUT_SPAN_H_
