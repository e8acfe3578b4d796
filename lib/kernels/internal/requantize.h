// Vector forms of TFLite's MultiplyByQuantizedMultiplier (the double-rounding one the
// integer kernels use: SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT), for
// the epilogues of the 8-bit GEMM and depthwise kernels. Each lane gives the scalar
// function's bits for every int32 x, multiplier (of either sign, INT32_MIN included) and
// shift in [-31, 30] (QuantizeMultiplier's range):
//
//   SaturatingRoundingDoublingHighMul(a, b) = floor((a * b + 2^30) / 2^31), saturated to
//   INT32_MAX for a = b = INT32_MIN. (The scalar form adds a sign-dependent nudge and
//   truncates toward zero; for a negative product, trunc((p + 1 - 2^30) / 2^31) =
//   floor((p + 2^30) / 2^31), so one floor division covers both signs.)
//
// AVX2 here (8 lanes, picked at run time by the callers); a NEON variant is
// vqrdmulhq_s32 + a rounding shift with gemmlowp's fix-up, and fits beside it.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REQUANTIZE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REQUANTIZE_H_

#include <cstdint>

#include "kernels/internal/gemm.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_REQUANTIZE_AVX2 1
#endif

namespace tflite {
namespace requant {

// out[j] = clamp(MultiplyByQuantizedMultiplier(acc[j] + bias[j], multiplier[j], shift[j]) +
// output_offset, act_min, act_max) for j < n, with the stage's arrays indexed from 0 (bias
// may be null; additions wrap as the reference's); AVX2 when the CPU has it, unless
// `portable`. single_rounding stages are not taken (the scalar GEMM stage does those).
void OutputStageRow(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, int8_t* out,
                    bool portable = false);
void OutputStageRow(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, uint8_t* out,
                    bool portable = false);

#if defined(TFI_REQUANTIZE_AVX2)

// Per-lane multipliers and shifts, split once into what the arithmetic needs.
struct Avx2Channels {
  __m256i multiplier;
  __m256i left;   // max(shift, 0)
  __m256i right;  // max(-shift, 0)
};

__attribute__((target("avx2"))) inline Avx2Channels LoadChannels8(const int32_t* multiplier,
                                                                 const int32_t* shift) {
  const __m256i s = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shift));
  const __m256i zero = _mm256_setzero_si256();
  return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(multiplier)),
          _mm256_max_epi32(s, zero), _mm256_max_epi32(_mm256_sub_epi32(zero, s), zero)};
}

// One multiplier and shift in every lane (ADD / MUL's per-tensor rescales).
__attribute__((target("avx2"))) inline Avx2Channels UniformChannels(int32_t multiplier,
                                                                   int32_t shift) {
  return {_mm256_set1_epi32(multiplier), _mm256_set1_epi32(shift > 0 ? shift : 0),
          _mm256_set1_epi32(shift > 0 ? 0 : -shift)};
}

// MultiplyByQuantizedMultiplier(x, multiplier, shift) on 8 lanes.
__attribute__((target("avx2"))) inline __m256i MultiplyByQuantizedMultiplier8(
    __m256i x, const Avx2Channels& ch) {
  // x * 2^left, wrapping as the scalar WrappingMul does.
  x = _mm256_sllv_epi32(x, ch.left);
  const __m256i m = ch.multiplier;
  // 64-bit products of the even lanes, then of the odd lanes (moved down).
  const __m256i round = _mm256_set1_epi64x(int64_t{1} << 30);
  const __m256i even = _mm256_add_epi64(_mm256_mul_epi32(x, m), round);
  const __m256i odd = _mm256_add_epi64(
      _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(m, 32)), round);
  // Bits 31..62 of each product: the even ones into the low halves (a logical shift:
  // only those bits are kept), the odd ones into the high halves.
  __m256i high = _mm256_blend_epi32(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), 0xAA);
  // INT32_MIN * INT32_MIN gives INT32_MIN above; the scalar form saturates to INT32_MAX.
  const __m256i min = _mm256_set1_epi32(INT32_MIN);
  const __m256i both_min =
      _mm256_and_si256(_mm256_cmpeq_epi32(x, min), _mm256_cmpeq_epi32(m, min));
  high = _mm256_xor_si256(high, both_min);
  // RoundingDivideByPOT(high, right): ties away from zero.
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, ch.right), one);
  const __m256i remainder = _mm256_and_si256(high, mask);
  const __m256i negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), high);  // -1 or 0
  const __m256i threshold = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), negative);
  const __m256i round_up = _mm256_cmpgt_epi32(remainder, threshold);  // -1 or 0
  return _mm256_sub_epi32(_mm256_srav_epi32(high, ch.right), round_up);
}

// The whole 8-bit output stage on 8 lanes: acc (+ bias, wrapping) -> multiply ->
// + output_offset (wrapping) -> clamp to [act_min, act_max].
__attribute__((target("avx2"))) inline __m256i OutputStage8(__m256i acc, __m256i bias,
                                                           const Avx2Channels& ch,
                                                           __m256i output_offset, __m256i act_min,
                                                           __m256i act_max) {
  __m256i v = MultiplyByQuantizedMultiplier8(_mm256_add_epi32(acc, bias), ch);
  v = _mm256_add_epi32(v, output_offset);
  return _mm256_min_epi32(_mm256_max_epi32(v, act_min), act_max);
}

// 16 int32 lanes already inside [-128, 127] / [0, 255] / [-32768, 32767] (clamped) as 16
// values of the output type, in order (the packs only narrow).
__attribute__((target("avx2"))) inline __m128i Narrow16(__m256i v0, __m256i v1, int8_t*) {
  const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(v0, v1), 0xD8);
  return _mm_packs_epi16(_mm256_castsi256_si128(p16), _mm256_extracti128_si256(p16, 1));
}
__attribute__((target("avx2"))) inline __m128i Narrow16(__m256i v0, __m256i v1, uint8_t*) {
  const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(v0, v1), 0xD8);
  return _mm_packus_epi16(_mm256_castsi256_si128(p16), _mm256_extracti128_si256(p16, 1));
}
__attribute__((target("avx2"))) inline __m256i Narrow16(__m256i v0, __m256i v1, int16_t*) {
  return _mm256_permute4x64_epi64(_mm256_packs_epi32(v0, v1), 0xD8);
}

#endif  // TFI_REQUANTIZE_AVX2

}  // namespace requant
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REQUANTIZE_H_
