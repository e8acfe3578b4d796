#include "kernels/internal/depthwise_integer.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "kernels/internal/gemm.h"
#include "tensorflow/lite/kernels/internal/common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_DWCONV_X86 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define TFI_DWCONV_NEON 1
#endif

namespace tflite {
namespace dwconv {
namespace {

constexpr int kBlock = 16;  // channels per packed block: two AVX2 vectors of int32 sums

// Index in the packed filter of tap (2 * pair + h), channel c.
inline size_t PackedIndex(int pairs, int pair, int c, int h) {
  const int block = c / kBlock, lane = c % kBlock;
  return (static_cast<size_t>(block) * pairs + pair) * 2 * kBlock + (lane / 8) * 16 +
         (lane % 8) * 2 + h;
}

// ptr[t] for every tap (padded to an even count) of output pixel (oy, ox): its input pixel,
// or the zero row outside the image.
template <typename In>
inline void TapPointers(const Window& w, const In* image, const In* zero_row, int oy, int ox,
                        int taps_even, const In** ptr) {
  int t = 0;
  for (int fy = 0; fy < w.f_h; ++fy) {
    const int iy = oy * w.stride_h - w.pad_h + fy * w.dil_h;
    const bool y_in = iy >= 0 && iy < w.in_h;
    const In* row = image + static_cast<size_t>(y_in ? iy : 0) * w.in_w * w.channels;
    for (int fx = 0; fx < w.f_w; ++fx, ++t) {
      const int ix = ox * w.stride_w - w.pad_w + fx * w.dil_w;
      ptr[t] = y_in && ix >= 0 && ix < w.in_w ? row + static_cast<size_t>(ix) * w.channels
                                              : zero_row;
    }
  }
  for (; t < taps_even; ++t) ptr[t] = zero_row;
}

// One channel's sum, in wrapping int32 arithmetic.
template <typename In>
inline int32_t ChannelSum(const Int8Sums::Layout& l, const In* const* ptr, int32_t input_offset,
                          int c) {
  uint32_t s = static_cast<uint32_t>(input_offset) * static_cast<uint32_t>(l.tap_sums[c]);
  for (int p = 0; p < l.pairs; ++p) {
    const int16_t* f = l.pairs_data + PackedIndex(l.pairs, p, c, 0);
    s += static_cast<uint32_t>(f[0] * static_cast<int32_t>(ptr[2 * p][c]));
    s += static_cast<uint32_t>(f[1] * static_cast<int32_t>(ptr[2 * p + 1][c]));
  }
  return static_cast<int32_t>(s);
}

// The scalar requantization of one sum that already holds the bias.
template <typename Out>
inline Out Requantize(const RowStage& st, int c, int32_t acc) {
  int32_t v = MultiplyByQuantizedMultiplier(acc, st.multiplier[c], st.shift[c]);
  v = WrappingAdd(v, st.output_offset);
  return static_cast<Out>(std::min(std::max(v, st.act_min), st.act_max));
}

// Sums (stage == nullptr: raw, into acc) or 8-bit outputs (into out) of output pixels
// [ox0, ox1) of row oy.
template <typename In>
void RowPortable(const Int8Sums::Layout& l, const Window& w, const In* image, int oy, int ox0,
                 int ox1, int32_t input_offset, const In* zero_row, int32_t* acc,
                 const RowStage* stage, In* out) {
  std::vector<const In*> ptr(static_cast<size_t>(l.pairs) * 2);
  for (int ox = ox0; ox < ox1; ++ox) {
    TapPointers(w, image, zero_row, oy, ox, l.pairs * 2, ptr.data());
    const size_t at = static_cast<size_t>(ox - ox0) * l.channels;
    for (int c = 0; c < l.channels; ++c) {
      if (stage == nullptr) {
        acc[at + c] = ChannelSum(l, ptr.data(), input_offset, c);
      } else {
        // init holds input_offset * tap sum + bias: ChannelSum with offset 0 adds the rest.
        const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(stage->init[c]) +
                                                 static_cast<uint32_t>(ChannelSum(l, ptr.data(), 0, c)));
        out[at + c] = Requantize<In>(*stage, c, sum);
      }
    }
  }
}

#if defined(TFI_DWCONV_X86)
__attribute__((target("avx2"))) inline __m256i Widen(__m128i v, const int8_t*) {
  return _mm256_cvtepi8_epi16(v);
}
__attribute__((target("avx2"))) inline __m256i Widen(__m128i v, const uint8_t*) {
  return _mm256_cvtepu8_epi16(v);
}

// The start of 8 channels' sums (a lambda would not inherit the AVX2 target).
template <bool kQuantize>
__attribute__((target("avx2"))) inline __m256i SumStart(const Int8Sums::Layout& l,
                                                       const RowStage* stage, __m256i offset,
                                                       int c) {
  if constexpr (kQuantize) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(stage->init.data() + c));
  } else {
    return _mm256_mullo_epi32(
        offset, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(l.tap_sums + c)));
  }
}

// kQuantize: the sums start from stage->init and leave through the output stage into
// out; else they start from input_offset * tap sum and are stored raw into acc.
// kPairs > 0: the filter's tap pairs as a constant (3x3: 5), so the pair loop unrolls.
template <bool kQuantize, int kPairs, typename In>
__attribute__((target("avx2"))) void RowAvx2(const Int8Sums::Layout& l, const Window& w,
                                             const In* image, int oy, int ox0, int ox1,
                                             int32_t input_offset, const In* zero_row,
                                             int32_t* acc, const RowStage* stage, In* out) {
  const int channels = l.channels, pairs = kPairs > 0 ? kPairs : l.pairs;
  // With a constant pair count the tap pointers live in a local array (registers once
  // unrolled): the 8-bit output stores may alias any memory, so pointers kept in a
  // vector would be reloaded after every store.
  std::vector<const In*> ptr_heap(kPairs > 0 ? 0 : static_cast<size_t>(pairs) * 2);
  const In* ptr_local[kPairs > 0 ? 2 * kPairs : 1];
  const In** ptr = kPairs > 0 ? ptr_local : ptr_heap.data();
  const int16_t* const pairs_data = l.pairs_data;
  const int32_t* const stage_channels = kQuantize ? stage->channels.data() : nullptr;
  const __m256i offset = _mm256_set1_epi32(input_offset);
  const In* tag = nullptr;
  __m256i out_offset = _mm256_setzero_si256(), lo = out_offset, hi = out_offset;
  requant::ChannelFlags flags;
  if constexpr (kQuantize) {
    out_offset = _mm256_set1_epi32(stage->output_offset);
    lo = _mm256_set1_epi32(stage->act_min);
    hi = _mm256_set1_epi32(stage->act_max);
    flags = stage->flags;
  }
  const __m256i zero = _mm256_setzero_si256();
  for (int ox = ox0; ox < ox1; ++ox) {
    TapPointers(w, image, zero_row, oy, ox, pairs * 2, ptr);
    const size_t at = static_cast<size_t>(ox - ox0) * channels;
    int c = 0;
    for (; c + kBlock <= channels; c += kBlock) {
      const int16_t* f = pairs_data + static_cast<size_t>(c / kBlock) * pairs * 2 * kBlock;
      __m256i acc0 = SumStart<kQuantize>(l, stage, offset, c);
      __m256i acc1 = SumStart<kQuantize>(l, stage, offset, c + 8);
      for (int p = 0; p < pairs; ++p, f += 2 * kBlock) {
        const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ptr[2 * p] + c));
        const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ptr[2 * p + 1] + c));
        const __m256i lo16 = Widen(_mm_unpacklo_epi8(x0, x1), tag);
        const __m256i hi16 = Widen(_mm_unpackhi_epi8(x0, x1), tag);
        acc0 = _mm256_add_epi32(
            acc0,
            _mm256_madd_epi16(lo16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(f))));
        acc1 = _mm256_add_epi32(
            acc1,
            _mm256_madd_epi16(hi16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(f + 16))));
      }
      if constexpr (kQuantize) {
        const int32_t* ch = stage_channels + static_cast<size_t>(c / 8) *
                                                 requant::kPackedChannelInts;
        const __m256i v0 = requant::OutputStage8(acc0, zero, requant::LoadPackedChannels8(ch),
                                                 out_offset, lo, hi, flags);
        const __m256i v1 = requant::OutputStage8(
            acc1, zero, requant::LoadPackedChannels8(ch + requant::kPackedChannelInts),
            out_offset, lo, hi, flags);
        const __m128i packed = requant::Narrow16(v0, v1, static_cast<In*>(nullptr));
        std::memcpy(out + at + c, &packed, 16);
      } else {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + at + c), acc0);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + at + c + 8), acc1);
      }
    }
    if (c + 8 <= channels) {  // the first half of the last (padded) block
      const int16_t* f = pairs_data + static_cast<size_t>(c / kBlock) * pairs * 2 * kBlock;
      __m256i acc0 = SumStart<kQuantize>(l, stage, offset, c);
      for (int p = 0; p < pairs; ++p, f += 2 * kBlock) {
        const __m128i x0 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(ptr[2 * p] + c));
        const __m128i x1 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(ptr[2 * p + 1] + c));
        const __m256i lo16 = Widen(_mm_unpacklo_epi8(x0, x1), tag);
        acc0 = _mm256_add_epi32(
            acc0,
            _mm256_madd_epi16(lo16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(f))));
      }
      if constexpr (kQuantize) {
        const int32_t* ch = stage_channels + static_cast<size_t>(c / 8) *
                                                 requant::kPackedChannelInts;
        const __m256i v0 = requant::OutputStage8(acc0, zero, requant::LoadPackedChannels8(ch),
                                                 out_offset, lo, hi, flags);
        const __m128i packed = requant::Narrow16(v0, v0, static_cast<In*>(nullptr));
        std::memcpy(out + at + c, &packed, 8);
      } else {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + at + c), acc0);
      }
      c += 8;
    }
    for (; c < channels; ++c) {
      if constexpr (kQuantize) {
        const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(stage->init[c]) +
                                                 static_cast<uint32_t>(ChannelSum(l, ptr, 0, c)));
        out[at + c] = Requantize<In>(*stage, c, sum);
      } else {
        acc[at + c] = ChannelSum(l, ptr, input_offset, c);
      }
    }
  }
}
#endif

#if defined(TFI_DWCONV_NEON)
// 8 input values widened to int16 (uint8 values 0..255 fit).
inline int16x8_t WidenLow(int8x16_t v) { return vmovl_s8(vget_low_s8(v)); }
inline int16x8_t WidenHigh(int8x16_t v) { return vmovl_high_s8(v); }
inline int16x8_t WidenLow(uint8x16_t v) { return vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v))); }
inline int16x8_t WidenHigh(uint8x16_t v) { return vreinterpretq_s16_u16(vmovl_high_u8(v)); }
inline int8x16_t Load16(const int8_t* p) { return vld1q_s8(p); }
inline uint8x16_t Load16(const uint8_t* p) { return vld1q_u8(p); }
inline int8x16_t Load8(const int8_t* p) { return vcombine_s8(vld1_s8(p), vdup_n_s8(0)); }
inline uint8x16_t Load8(const uint8_t* p) { return vcombine_u8(vld1_u8(p), vdup_n_u8(0)); }

// acc[0..1] (channels 0-7 of a half block) += both taps of a pair: vld2q_s16 splits the
// packed (tap 2p, tap 2p + 1) pairs of 8 channels into one vector per tap; the products
// are exact in int32 and the additions wrap as the reference's.
inline void MulAddPair(int16x8_t x0, int16x8_t x1, const int16_t* f, int32x4_t* acc) {
  const int16x8x2_t taps = vld2q_s16(f);
  acc[0] = vmlal_s16(acc[0], vget_low_s16(x0), vget_low_s16(taps.val[0]));
  acc[0] = vmlal_s16(acc[0], vget_low_s16(x1), vget_low_s16(taps.val[1]));
  acc[1] = vmlal_high_s16(acc[1], x0, taps.val[0]);
  acc[1] = vmlal_high_s16(acc[1], x1, taps.val[1]);
}

// The NEON form of RowAvx2 (same packed filter, same sums): 16 channels, then 8, then
// the scalar tail.
template <bool kQuantize, typename In>
void RowNeon(const Int8Sums::Layout& l, const Window& w, const In* image, int oy, int ox0,
             int ox1, int32_t input_offset, const In* zero_row, int32_t* acc,
             const RowStage* stage, In* out) {
  const int channels = l.channels, pairs = l.pairs;
  std::vector<const In*> ptr(static_cast<size_t>(pairs) * 2);
  const int32x4_t offset = vdupq_n_s32(input_offset);
  int32x4_t out_offset = vdupq_n_s32(0), lo = out_offset, hi = out_offset;
  if constexpr (kQuantize) {
    out_offset = vdupq_n_s32(stage->output_offset);
    lo = vdupq_n_s32(stage->act_min);
    hi = vdupq_n_s32(stage->act_max);
  }
  // Sums of `lanes` (16 or 8) channels from c; stored raw or through the output stage.
  auto block = [&](const In* const* p, size_t at, int c, int lanes) {
    const int16_t* f = l.pairs_data + static_cast<size_t>(c / kBlock) * pairs * 2 * kBlock;
    int32x4_t sum[4];
    for (int q = 0; q < lanes / 4; ++q) {
      sum[q] = kQuantize ? vld1q_s32(stage->init.data() + c + 4 * q)
                         : vmulq_s32(offset, vld1q_s32(l.tap_sums + c + 4 * q));
    }
    for (int pr = 0; pr < pairs; ++pr, f += 2 * kBlock) {
      const auto x0 = lanes == 16 ? Load16(p[2 * pr] + c) : Load8(p[2 * pr] + c);
      const auto x1 = lanes == 16 ? Load16(p[2 * pr + 1] + c) : Load8(p[2 * pr + 1] + c);
      MulAddPair(WidenLow(x0), WidenLow(x1), f, sum);
      if (lanes == 16) MulAddPair(WidenHigh(x0), WidenHigh(x1), f + 16, sum + 2);
    }
    if constexpr (kQuantize) {
      const int32x4_t zero = vdupq_n_s32(0);
      for (int q = 0; q < lanes / 4; ++q) {
        const int k = c + 4 * q;
        sum[q] = requant::OutputStage4(sum[q], zero,
                                       requant::LoadNeonChannels4(stage->multiplier + k, stage->shift + k),
                                       out_offset, lo, hi);
      }
      if (lanes == 8) sum[2] = sum[3] = sum[0];
      In packed[16];
      requant::Store16(sum[0], sum[1], sum[2], sum[3], packed);
      std::memcpy(out + at + c, packed, static_cast<size_t>(lanes));
    } else {
      for (int q = 0; q < lanes / 4; ++q) vst1q_s32(acc + at + c + 4 * q, sum[q]);
    }
  };
  for (int ox = ox0; ox < ox1; ++ox) {
    TapPointers(w, image, zero_row, oy, ox, pairs * 2, ptr.data());
    const size_t at = static_cast<size_t>(ox - ox0) * channels;
    int c = 0;
    for (; c + kBlock <= channels; c += kBlock) block(ptr.data(), at, c, 16);
    if (c + 8 <= channels) {  // the first half of the last (padded) block
      block(ptr.data(), at, c, 8);
      c += 8;
    }
    for (; c < channels; ++c) {
      if constexpr (kQuantize) {
        const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(stage->init[c]) +
                                                 static_cast<uint32_t>(ChannelSum(l, ptr.data(), 0, c)));
        out[at + c] = Requantize<In>(*stage, c, sum);
      } else {
        acc[at + c] = ChannelSum(l, ptr.data(), input_offset, c);
      }
    }
  }
}
#endif

template <typename In>
void RowDispatch(const Int8Sums::Layout& l, const Window& w, const In* image, int oy, int ox0,
                 int ox1, int32_t input_offset, const In* zero_row, int32_t* acc,
                 const RowStage* stage, In* out, bool portable) {
#if defined(TFI_DWCONV_X86)
  if (!portable && gemm::CpuHasAvx2()) {
    // 3x3 (5 pairs) and 5x5 (13) filters with the pair count a constant, raw sums (the
    // hybrid kernel's) as well as 8-bit outputs.
    auto row = [&](auto quantize, auto pairs) {
      RowAvx2<decltype(quantize)::value, decltype(pairs)::value>(
          l, w, image, oy, ox0, ox1, input_offset, zero_row, acc, stage, out);
    };
    using Yes = std::true_type;
    using No = std::false_type;
    using P0 = std::integral_constant<int, 0>;
    using P5 = std::integral_constant<int, 5>;
    using P13 = std::integral_constant<int, 13>;
    if (stage != nullptr) {
      if (l.pairs == 5) row(Yes{}, P5{});
      else if (l.pairs == 13) row(Yes{}, P13{});
      else row(Yes{}, P0{});
    } else {
      if (l.pairs == 5) row(No{}, P5{});
      else if (l.pairs == 13) row(No{}, P13{});
      else row(No{}, P0{});
    }
    return;
  }
#elif defined(TFI_DWCONV_NEON)
  if (!portable) {
    if (stage != nullptr) {
      RowNeon<true>(l, w, image, oy, ox0, ox1, input_offset, zero_row, acc, stage, out);
    } else {
      RowNeon<false>(l, w, image, oy, ox0, ox1, input_offset, zero_row, acc, stage, out);
    }
    return;
  }
#endif
  (void)portable;
  RowPortable(l, w, image, oy, ox0, ox1, input_offset, zero_row, acc, stage, out);
}

}  // namespace

bool Int8Sums::Vectorized() {
#if defined(TFI_DWCONV_X86)
  return gemm::CpuHasAvx2();
#elif defined(TFI_DWCONV_NEON)
  return true;
#else
  return false;
#endif
}

template <typename F>
bool Int8Sums::PackImpl(const F* filter, int taps, int channels, int32_t filter_offset) {
  pairs_.clear();
  if (taps <= 0 || channels <= 0 || filter_offset < -32767 + 128 || filter_offset > 32767 - 255) {
    return false;
  }
  taps_ = taps;
  channels_ = channels;
  const int pairs = (taps + 1) / 2;
  const int blocks = (channels + kBlock - 1) / kBlock;
  pairs_.assign(static_cast<size_t>(blocks) * pairs * 2 * kBlock, 0);
  tap_sums_.assign(static_cast<size_t>(channels), 0);
  for (int t = 0; t < taps; ++t) {
    for (int c = 0; c < channels; ++c) {
      const int32_t v = static_cast<int32_t>(filter[static_cast<size_t>(t) * channels + c]) +
                        filter_offset;
      pairs_[PackedIndex(pairs, t / 2, c, t % 2)] = static_cast<int16_t>(v);
      tap_sums_[c] = static_cast<int32_t>(static_cast<uint32_t>(tap_sums_[c]) +
                                          static_cast<uint32_t>(v));
    }
  }
  return true;
}

bool Int8Sums::Pack(const int8_t* filter, int taps, int channels, int32_t filter_offset) {
  return PackImpl(filter, taps, channels, filter_offset);
}
bool Int8Sums::Pack(const uint8_t* filter, int taps, int channels, int32_t filter_offset) {
  return PackImpl(filter, taps, channels, filter_offset);
}

Int8Sums::Layout Int8Sums::layout() const {
  Layout l;
  l.taps = taps_;
  l.pairs = (taps_ + 1) / 2;
  l.channels = channels_;
  l.pairs_data = pairs_.data();
  l.tap_sums = tap_sums_.data();
  return l;
}

void Int8Sums::Row(const Window& w, const int8_t* image, int oy, int ox0, int ox1,
                   int32_t input_offset, const int8_t* zero_row, int32_t* acc,
                   bool portable) const {
  RowDispatch<int8_t>(layout(), w, image, oy, ox0, ox1, input_offset, zero_row, acc, nullptr,
                      nullptr, portable);
}
void Int8Sums::Row(const Window& w, const uint8_t* image, int oy, int ox0, int ox1,
                   int32_t input_offset, const uint8_t* zero_row, int32_t* acc,
                   bool portable) const {
  RowDispatch<uint8_t>(layout(), w, image, oy, ox0, ox1, input_offset, zero_row, acc, nullptr,
                       nullptr, portable);
}

void Int8Sums::PrepareStage(int32_t input_offset, const gemm::QuantizedOutputStage& s,
                            RowStage* out) const {
  const int padded = (channels_ + kBlock - 1) / kBlock * kBlock;
  out->init.assign(static_cast<size_t>(padded), 0);
  for (int c = 0; c < channels_; ++c) {
    uint32_t v = static_cast<uint32_t>(input_offset) * static_cast<uint32_t>(tap_sums_[c]);
    if (s.bias != nullptr) v += static_cast<uint32_t>(s.bias[c]);
    out->init[c] = static_cast<int32_t>(v);
  }
  out->channels.assign(static_cast<size_t>(requant::PackedChannelsSize(padded)), 0);
  out->flags = requant::PackChannels(s.multiplier, s.shift, channels_, out->channels.data());
  out->multiplier = s.multiplier;
  out->shift = s.shift;
  out->output_offset = s.output_offset;
  out->act_min = s.act_min;
  out->act_max = s.act_max;
}

void Int8Sums::RowQuantized(const Window& w, const int8_t* image, int oy, int ox0, int ox1,
                            const int8_t* zero_row, const RowStage& stage, int8_t* out,
                            bool portable) const {
  RowDispatch<int8_t>(layout(), w, image, oy, ox0, ox1, 0, zero_row, nullptr, &stage, out,
                      portable);
}
void Int8Sums::RowQuantized(const Window& w, const uint8_t* image, int oy, int ox0, int ox1,
                            const uint8_t* zero_row, const RowStage& stage, uint8_t* out,
                            bool portable) const {
  RowDispatch<uint8_t>(layout(), w, image, oy, ox0, ox1, 0, zero_row, nullptr, &stage, out,
                       portable);
}

}  // namespace dwconv
}  // namespace tflite
