#include "kernels/internal/requantize.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "tensorflow/lite/kernels/internal/common.h"

namespace tflite {
namespace requant {
namespace {

template <typename OutT>
void RowPortable(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, int from,
                 OutT* out) {
  for (int j = from; j < n; ++j) {
    int32_t v = acc[j];
    if (s.bias != nullptr) v = WrappingAdd(v, s.bias[j]);
    v = MultiplyByQuantizedMultiplier(v, s.multiplier[j], s.shift[j]);
    v = WrappingAdd(v, s.output_offset);
    out[j] = static_cast<OutT>(std::min(std::max(v, s.act_min), s.act_max));
  }
}

#if defined(TFI_REQUANTIZE_AVX2)
// 16 values at a time; the rest (< 16) by the portable loop.
template <typename OutT>
__attribute__((target("avx2"))) int RowAvx2(const int32_t* acc, int n,
                                            const gemm::QuantizedOutputStage& s, OutT* out) {
  const __m256i offset = _mm256_set1_epi32(s.output_offset);
  const __m256i lo = _mm256_set1_epi32(s.act_min), hi = _mm256_set1_epi32(s.act_max);
  const __m256i zero = _mm256_setzero_si256();
  int j = 0;
  for (; j + 16 <= n; j += 16) {
    const Avx2Channels ch0 = LoadChannels8(s.multiplier + j, s.shift + j);
    const Avx2Channels ch1 = LoadChannels8(s.multiplier + j + 8, s.shift + j + 8);
    const __m256i b0 = s.bias != nullptr
                           ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.bias + j))
                           : zero;
    const __m256i b1 = s.bias != nullptr
                           ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.bias + j + 8))
                           : zero;
    const __m256i v0 = OutputStage8(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j)), b0, ch0, offset, lo, hi);
    const __m256i v1 = OutputStage8(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j + 8)), b1, ch1, offset, lo, hi);
    const __m128i packed = Narrow16(v0, v1, static_cast<OutT*>(nullptr));
    std::memcpy(out + j, &packed, 16);
  }
  return j;
}
#endif

#if defined(TFI_REQUANTIZE_NEON)
// 16 values at a time; the rest (< 16) by the portable loop.
template <typename OutT>
int RowNeon(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, OutT* out) {
  const int32x4_t offset = vdupq_n_s32(s.output_offset);
  const int32x4_t lo = vdupq_n_s32(s.act_min), hi = vdupq_n_s32(s.act_max);
  const int32x4_t zero = vdupq_n_s32(0);
  int j = 0;
  for (; j + 16 <= n; j += 16) {
    int32x4_t v[4];
    for (int q = 0; q < 4; ++q) {
      const int c = j + 4 * q;
      const NeonChannels ch = LoadNeonChannels4(s.multiplier + c, s.shift + c);
      const int32x4_t bias = s.bias != nullptr ? vld1q_s32(s.bias + c) : zero;
      v[q] = OutputStage4(vld1q_s32(acc + c), bias, ch, offset, lo, hi);
    }
    Store16(v[0], v[1], v[2], v[3], out + j);
  }
  return j;
}
#endif

template <typename OutT>
void Row(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, OutT* out,
         bool portable) {
  int from = 0;
#if defined(TFI_REQUANTIZE_AVX2)
  if (!portable && gemm::CpuHasAvx2()) from = RowAvx2(acc, n, s, out);
#elif defined(TFI_REQUANTIZE_NEON)
  if (!portable) from = RowNeon(acc, n, s, out);
#endif
  (void)portable;
  RowPortable(acc, n, s, from, out);
}

}  // namespace

ChannelFlags PackChannels(const int32_t* multiplier, const int32_t* shift, int n, int32_t* dst) {
  ChannelFlags flags;
  for (int g = 0; g * 8 < n; ++g) {
    int32_t* p = dst + g * kPackedChannelInts;
    for (int l = 0; l < 8; ++l) {
      const int c = g * 8 + l;
      const int32_t m = c < n ? multiplier[c] : 0;
      const int32_t sh = c < n ? shift[c] : 0;
      const int32_t right = sh > 0 ? 0 : -sh;
      flags.left_shifts |= sh > 0;
      flags.saturate |= m == INT32_MIN;
      p[l] = m;
      p[16 + l] = sh > 0 ? sh : 0;
      p[24 + l] = right;
      p[32 + l] = static_cast<int32_t>((int64_t{1} << right) - 1);
      p[40 + l] = p[32 + l] >> 1;
    }
    for (int l = 0; l < 8; ++l) p[8 + l] = p[(l | 1)];  // odd lanes' multipliers, twice
  }
  return flags;
}

void OutputStageRow(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, int8_t* out,
                    bool portable) {
  Row(acc, n, s, out, portable);
}
void OutputStageRow(const int32_t* acc, int n, const gemm::QuantizedOutputStage& s, uint8_t* out,
                    bool portable) {
  Row(acc, n, s, out, portable);
}

}  // namespace requant
}  // namespace tflite
