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
// AVX2 (8 lanes, picked at run time by the callers) and, on AArch64 (where NEON is
// baseline), NEON (4 lanes): vqrdmulhq_s32 + a rounding shift with gemmlowp's fix-up.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REQUANTIZE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REQUANTIZE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <cstring>

#include "kernels/internal/gemm.h"
#include "tensorflow/lite/kernels/internal/common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_REQUANTIZE_AVX2 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define TFI_REQUANTIZE_NEON 1
#endif

namespace tflite {
namespace requant {

// One output of a quantized GEMM stage, column col (the stage's arrays indexed from 0):
// acc + bias (wrapping), then the stage's requantization (double rounding, single
// rounding saturated to int32, or XNNPACK's fp32 with its clamp in float), + output
// offset, clamped. The scalar form every vector stage gives the bits of.
inline int32_t StageValue(int32_t acc, int col, const gemm::QuantizedOutputStage& s) {
  int32_t v = acc;
  if (s.bias != nullptr) v = WrappingAdd(v, s.bias[col]);  // wraps as upstream's
  if (s.float_scale != nullptr) {
    float f = static_cast<float>(v) * s.float_scale[col];
    f = std::min(std::max(f, static_cast<float>(s.act_min - s.output_offset)),
                 static_cast<float>(s.act_max - s.output_offset));
    return static_cast<int32_t>(std::nearbyint(f)) + s.output_offset;  // nearest even
  }
  if (s.single_rounding) {
    const int64_t r = gemm::SingleRoundingMultiply(v, s.multiplier[col], s.shift[col]);
    v = static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX));
  } else {
    v = MultiplyByQuantizedMultiplier(v, s.multiplier[col], s.shift[col]);
  }
  v = WrappingAdd(v, s.output_offset);
  return std::min(std::max(v, s.act_min), s.act_max);
}

// out[j] = clamp(MultiplyByQuantizedMultiplier(acc[j] + bias[j], multiplier[j], shift[j]) +
// output_offset, act_min, act_max) for j < n, with the stage's arrays indexed from 0 (bias
// may be null; additions wrap as the reference's); AVX2 when the CPU has it (NEON on
// AArch64), unless `portable`. single_rounding stages are not taken (the scalar GEMM stage does those).
void OutputStageRow(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, int8_t* out,
                    bool portable = false);
void OutputStageRow(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, uint8_t* out,
                    bool portable = false);

// What the vector arithmetic needs of 8 channels' multipliers and shifts, computed once
// (PackChannels) or per use (LoadChannels8): 6 x 8 int32 lanes per 8 channels.
constexpr int kPackedChannelInts = 6 * 8;

// Packs channels [0, n) (n padded up to a multiple of 8 with multiplier 0, shift 0) into
// dst, RoundUp8(n) / 8 * kPackedChannelInts values. Flags say which arithmetic the lanes
// need: any left shift, any INT32_MIN multiplier (the one saturating case).
struct ChannelFlags {
  bool left_shifts = false;
  bool saturate = false;
};
ChannelFlags PackChannels(const int32_t* multiplier, const int32_t* shift, int n, int32_t* dst);
inline int PackedChannelsSize(int n) { return (n + 7) / 8 * kPackedChannelInts; }

#if defined(TFI_REQUANTIZE_AVX2)

// Per-lane multipliers and shifts, split once into what the arithmetic needs.
struct Avx2Channels {
  __m256i multiplier;
  __m256i multiplier_odd;  // the odd lanes' multipliers in the even lanes (for vpmuldq)
  __m256i left;            // max(shift, 0)
  __m256i right;           // max(-shift, 0)
  __m256i mask;            // 2^right - 1
  __m256i half;            // mask >> 1
};

__attribute__((target("avx2"))) inline Avx2Channels MakeChannels(__m256i multiplier,
                                                                __m256i shift) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi32(1);
  Avx2Channels ch;
  ch.multiplier = multiplier;
  ch.multiplier_odd = _mm256_srli_epi64(multiplier, 32);
  ch.left = _mm256_max_epi32(shift, zero);
  ch.right = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
  ch.mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, ch.right), one);
  ch.half = _mm256_srli_epi32(ch.mask, 1);
  return ch;
}

__attribute__((target("avx2"))) inline Avx2Channels LoadChannels8(const int32_t* multiplier,
                                                                 const int32_t* shift) {
  return MakeChannels(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(multiplier)),
                      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shift)));
}

// 8 channels packed by PackChannels.
__attribute__((target("avx2"))) inline Avx2Channels LoadPackedChannels8(const int32_t* p) {
  const __m256i* v = reinterpret_cast<const __m256i*>(p);
  return {_mm256_loadu_si256(v),     _mm256_loadu_si256(v + 1), _mm256_loadu_si256(v + 2),
          _mm256_loadu_si256(v + 3), _mm256_loadu_si256(v + 4), _mm256_loadu_si256(v + 5)};
}

// One multiplier and shift in every lane (ADD / MUL's per-tensor rescales).
__attribute__((target("avx2"))) inline Avx2Channels UniformChannels(int32_t multiplier,
                                                                   int32_t shift) {
  return MakeChannels(_mm256_set1_epi32(multiplier), _mm256_set1_epi32(shift));
}

// MultiplyByQuantizedMultiplier(x, multiplier, shift) on 8 lanes. left_shifts = false and
// saturate = false skip the steps that lanes without left shifts / without an INT32_MIN
// multiplier do not need (ChannelFlags); the defaults are right for any lanes.
__attribute__((target("avx2"), always_inline)) inline __m256i MultiplyByQuantizedMultiplier8(
    __m256i x, const Avx2Channels& ch, bool left_shifts = true, bool saturate = true) {
  // x * 2^left, wrapping as the scalar WrappingMul does.
  if (left_shifts) x = _mm256_sllv_epi32(x, ch.left);
  // 64-bit products of the even lanes, then of the odd lanes (moved down).
  const __m256i round = _mm256_set1_epi64x(int64_t{1} << 30);
  const __m256i even = _mm256_add_epi64(_mm256_mul_epi32(x, ch.multiplier), round);
  const __m256i odd =
      _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), ch.multiplier_odd), round);
  // Bits 31..62 of each product: the even ones into the low halves (a logical shift:
  // only those bits are kept), the odd ones into the high halves.
  __m256i high = _mm256_blend_epi32(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), 0xAA);
  if (saturate) {
    // INT32_MIN * INT32_MIN gives INT32_MIN above; the scalar form saturates to INT32_MAX.
    const __m256i min = _mm256_set1_epi32(INT32_MIN);
    const __m256i both_min =
        _mm256_and_si256(_mm256_cmpeq_epi32(x, min), _mm256_cmpeq_epi32(ch.multiplier, min));
    high = _mm256_xor_si256(high, both_min);
  }
  // RoundingDivideByPOT(high, right): ties away from zero.
  const __m256i remainder = _mm256_and_si256(high, ch.mask);
  const __m256i negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), high);  // -1 or 0
  const __m256i threshold = _mm256_sub_epi32(ch.half, negative);
  const __m256i round_up = _mm256_cmpgt_epi32(remainder, threshold);  // -1 or 0
  return _mm256_sub_epi32(_mm256_srav_epi32(high, ch.right), round_up);
}

// The whole 8-bit output stage on 8 lanes: acc (+ bias, wrapping) -> multiply ->
// + output_offset (wrapping) -> clamp to [act_min, act_max].
__attribute__((target("avx2"), always_inline)) inline __m256i OutputStage8(
    __m256i acc, __m256i bias, const Avx2Channels& ch, __m256i output_offset, __m256i act_min,
    __m256i act_max, ChannelFlags flags = {true, true}) {
  __m256i v = MultiplyByQuantizedMultiplier8(_mm256_add_epi32(acc, bias), ch, flags.left_shifts,
                                             flags.saturate);
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


// --- AVX-512 (16 lanes): the same arithmetic, for the dot-product GEMM's tile ---------
#define TFI_REQUANTIZE_AVX512_TARGET "avx512f,avx512bw,avx512vl"

struct Avx512Channels {
  __m512i multiplier;
  __m512i multiplier_odd;  // the odd lanes' multipliers in the even lanes (for vpmuldq)
  __m512i left;            // max(shift, 0)
  __m512i right;           // max(-shift, 0)
  __m512i mask;            // 2^right - 1
  __m512i half;            // mask >> 1
};

__attribute__((target(TFI_REQUANTIZE_AVX512_TARGET))) inline Avx512Channels MakeChannels16(
    __m512i multiplier, __m512i shift) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi32(1);
  Avx512Channels ch;
  ch.multiplier = multiplier;
  ch.multiplier_odd = _mm512_srli_epi64(multiplier, 32);
  ch.left = _mm512_max_epi32(shift, zero);
  ch.right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  ch.mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, ch.right), one);
  ch.half = _mm512_srli_epi32(ch.mask, 1);
  return ch;
}

// MultiplyByQuantizedMultiplier8 on 16 lanes (every step of it, always).
__attribute__((target(TFI_REQUANTIZE_AVX512_TARGET), always_inline)) inline __m512i
MultiplyByQuantizedMultiplier16(__m512i x, const Avx512Channels& ch) {
  x = _mm512_sllv_epi32(x, ch.left);
  const __m512i round = _mm512_set1_epi64(int64_t{1} << 30);
  const __m512i even = _mm512_add_epi64(_mm512_mul_epi32(x, ch.multiplier), round);
  const __m512i odd =
      _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), ch.multiplier_odd), round);
  __m512i high = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 31),
                                         _mm512_slli_epi64(odd, 1));
  const __m512i min = _mm512_set1_epi32(INT32_MIN);
  const __mmask16 both_min =
      _mm512_cmpeq_epi32_mask(x, min) & _mm512_cmpeq_epi32_mask(ch.multiplier, min);
  high = _mm512_mask_mov_epi32(high, both_min, _mm512_set1_epi32(INT32_MAX));
  // RoundingDivideByPOT(high, right): ties away from zero.
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i remainder = _mm512_and_si512(high, ch.mask);
  const __mmask16 negative = _mm512_cmplt_epi32_mask(high, _mm512_setzero_si512());
  const __m512i threshold = _mm512_mask_add_epi32(ch.half, negative, ch.half, one);
  const __mmask16 round_up = _mm512_cmpgt_epi32_mask(remainder, threshold);
  const __m512i shifted = _mm512_srav_epi32(high, ch.right);
  return _mm512_mask_add_epi32(shifted, round_up, shifted, one);
}

// gemm::SingleRoundingMultiply on 16 lanes, saturated to int32 (QuantizedGemm's single
// rounding stage): acc * multiplier / 2^(31 - shift), halves up, from the exact 64-bit
// product (|acc * multiplier| < 2^62; shift in [-31, 30], so the shift is 1..62).
// The even lanes' part: 64-bit results, saturated to int32 (t: 64-bit shifts).
__attribute__((target(TFI_REQUANTIZE_AVX512_TARGET), always_inline)) inline __m512i
SingleRoundingEven(__m512i a, __m512i m, __m512i t) {
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i product = _mm512_mul_epi32(a, m);
  const __m512i round = _mm512_sllv_epi64(one, _mm512_sub_epi64(t, one));
  const __m512i r = _mm512_srav_epi64(_mm512_add_epi64(product, round), t);
  return _mm512_min_epi64(_mm512_max_epi64(r, _mm512_set1_epi64(INT32_MIN)),
                          _mm512_set1_epi64(INT32_MAX));
}

__attribute__((target(TFI_REQUANTIZE_AVX512_TARGET), always_inline)) inline __m512i
SingleRoundingMultiply16(__m512i acc, __m512i multiplier, __m512i shift) {
  const __m512i total = _mm512_sub_epi32(_mm512_set1_epi32(31), shift);
  const __m512i even = SingleRoundingEven(acc, multiplier,
                                          _mm512_and_si512(total, _mm512_set1_epi64(0xFFFFFFFF)));
  const __m512i odd = SingleRoundingEven(_mm512_srli_epi64(acc, 32),
                                         _mm512_srli_epi64(multiplier, 32),
                                         _mm512_srli_epi64(total, 32));
  return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

// OutputStage8 on 16 lanes.
__attribute__((target(TFI_REQUANTIZE_AVX512_TARGET), always_inline)) inline __m512i
OutputStage16(__m512i acc, __m512i bias, const Avx512Channels& ch, __m512i output_offset,
              __m512i act_min, __m512i act_max) {
  __m512i v = MultiplyByQuantizedMultiplier16(_mm512_add_epi32(acc, bias), ch);
  v = _mm512_add_epi32(v, output_offset);
  return _mm512_min_epi32(_mm512_max_epi32(v, act_min), act_max);
}

#endif  // TFI_REQUANTIZE_AVX2

#if defined(TFI_REQUANTIZE_NEON)

// Per-lane multipliers and shifts for 4 lanes.
struct NeonChannels {
  int32x4_t multiplier;
  int32x4_t left;       // max(shift, 0)
  int32x4_t neg_right;  // min(shift, 0) = -(right shift)
};

inline NeonChannels LoadNeonChannels4(const int32_t* multiplier, const int32_t* shift) {
  const int32x4_t sh = vld1q_s32(shift);
  const int32x4_t zero = vdupq_n_s32(0);
  return {vld1q_s32(multiplier), vmaxq_s32(sh, zero), vminq_s32(sh, zero)};
}

// MultiplyByQuantizedMultiplier(x, multiplier, shift) on 4 lanes. vqrdmulhq_s32 is
// SaturatingRoundingDoublingHighMul lane for lane (INT32_MIN * INT32_MIN saturates to
// INT32_MAX alike). RoundingDivideByPOT rounds halves away from zero; vrshlq_s32 by a
// negative amount rounds them up, so negative lanes first take 1 off (gemmlowp's fix-up;
// saturating, so INT32_MIN, whose remainder is 0, stays exact).
inline int32x4_t MultiplyByQuantizedMultiplier4(int32x4_t x, const NeonChannels& ch) {
  x = vshlq_s32(x, ch.left);  // x * 2^left, wrapping as the scalar WrappingMul does
  const int32x4_t high = vqrdmulhq_s32(x, ch.multiplier);
  const int32x4_t fixup = vshrq_n_s32(vandq_s32(high, ch.neg_right), 31);
  return vrshlq_s32(vqaddq_s32(high, fixup), ch.neg_right);
}

// The whole 8-bit output stage on 4 lanes (see OutputStage8).
inline int32x4_t OutputStage4(int32x4_t acc, int32x4_t bias, const NeonChannels& ch,
                              int32x4_t output_offset, int32x4_t act_min, int32x4_t act_max) {
  int32x4_t v = MultiplyByQuantizedMultiplier4(vaddq_s32(acc, bias), ch);
  v = vaddq_s32(v, output_offset);
  return vminq_s32(vmaxq_s32(v, act_min), act_max);
}

// 16 clamped int32 lanes as 16 values of the output type, in order.
inline void Store16(int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3, int8_t* out) {
  const int16x8_t lo = vcombine_s16(vqmovn_s32(v0), vqmovn_s32(v1));
  const int16x8_t hi = vcombine_s16(vqmovn_s32(v2), vqmovn_s32(v3));
  vst1q_s8(out, vcombine_s8(vqmovn_s16(lo), vqmovn_s16(hi)));
}
inline void Store16(int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3, uint8_t* out) {
  const int16x8_t lo = vcombine_s16(vqmovn_s32(v0), vqmovn_s32(v1));
  const int16x8_t hi = vcombine_s16(vqmovn_s32(v2), vqmovn_s32(v3));
  vst1q_u8(out, vcombine_u8(vqmovun_s16(lo), vqmovun_s16(hi)));
}
inline void Store16(int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3, int16_t* out) {
  vst1q_s16(out, vcombine_s16(vqmovn_s32(v0), vqmovn_s32(v1)));
  vst1q_s16(out + 8, vcombine_s16(vqmovn_s32(v2), vqmovn_s32(v3)));
}

// The 8-bit output stage of an R x 16 tile of sums (a GEMM's row block x one panel), 4
// lanes at a time: columns [col0, col0 + cols) of the stage, cols <= 16, row i of the
// output at c + i * ldc. A short last panel reads its channels from zero-padded copies and
// stores through a buffer.
template <int R, typename OutT>
inline void NeonStoreTile16(const int32_t (&acc)[R][16], OutT* c, size_t ldc, int cols,
                            const gemm::QuantizedOutputStage& s, int col0) {
  int32_t multiplier[16] = {}, shift[16] = {}, bias[16] = {};
  std::memcpy(multiplier, s.multiplier + col0, sizeof(int32_t) * cols);
  std::memcpy(shift, s.shift + col0, sizeof(int32_t) * cols);
  if (s.bias != nullptr) std::memcpy(bias, s.bias + col0, sizeof(int32_t) * cols);
  NeonChannels ch[4];
  int32x4_t b[4];
  for (int q = 0; q < 4; ++q) {
    ch[q] = LoadNeonChannels4(multiplier + 4 * q, shift + 4 * q);
    b[q] = vld1q_s32(bias + 4 * q);
  }
  const int32x4_t offset = vdupq_n_s32(s.output_offset);
  const int32x4_t lo = vdupq_n_s32(s.act_min), hi = vdupq_n_s32(s.act_max);
  for (int i = 0; i < R; ++i) {
    int32x4_t v[4];
    for (int q = 0; q < 4; ++q) {
      v[q] = OutputStage4(vld1q_s32(&acc[i][4 * q]), b[q], ch[q], offset, lo, hi);
    }
    OutT* crow = c + static_cast<size_t>(i) * ldc;
    if (cols == 16) {
      Store16(v[0], v[1], v[2], v[3], crow);
    } else {
      OutT tmp[16];
      Store16(v[0], v[1], v[2], v[3], tmp);
      std::memcpy(crow, tmp, sizeof(OutT) * cols);
    }
  }
}

#endif  // TFI_REQUANTIZE_NEON

}  // namespace requant
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_REQUANTIZE_H_
