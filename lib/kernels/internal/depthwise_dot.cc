#include "kernels/internal/depthwise_dot.h"

#include <algorithm>
#include <cstring>

#include "kernels/internal/parallel.h"
#include "kernels/internal/requantize.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define TFI_DWDOT_X86 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define TFI_DWDOT_ARM 1
#endif

namespace tflite {
namespace dwconv {
namespace {

constexpr int kLanes = 16;
constexpr size_t kAlign = 64;

// Taps per int32 lane of a row entry and of the weights: two int16 (x86 vpdpwssd), or four
// int8 (AArch64 sdot, which multiplies the input bytes as they are).
#if defined(TFI_DWDOT_ARM)
constexpr int kGroupTaps = 4;
#else
constexpr int kGroupTaps = 2;
#endif

size_t AlignUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// kGroupTaps values in one int32 lane, the first in the low bits, as the dot products read
// them: x86, two int16; AArch64, four int8.
inline int32_t GroupLane(const int32_t* v) {
  uint32_t lane = 0;
  constexpr int kBits = 32 / kGroupTaps;
  for (int t = 0; t < kGroupTaps; ++t) {
    lane |= (static_cast<uint32_t>(v[t]) & ((1u << kBits) - 1u)) << (kBits * t);
  }
  return static_cast<int32_t>(lane);
}

// Tap t of a GroupLane.
inline int32_t GroupTap(int32_t lane, int t) {
  const uint32_t u = static_cast<uint32_t>(lane) >> ((32 / kGroupTaps) * t);
  return kGroupTaps == 4 ? static_cast<int32_t>(static_cast<int8_t>(u & 0xFFu))
                         : static_cast<int32_t>(static_cast<int16_t>(u & 0xFFFFu));
}

}  // namespace

bool DotDepthwise::Available() {
#if defined(TFI_DWDOT_X86)
  return gemm::CpuHasAvx512Vnni() || gemm::CpuHasAvx2();
#elif defined(TFI_DWDOT_ARM)
  return gemm::CpuHasNeonDot();
#else
  return false;
#endif
}

bool DotDepthwise::Supports(const Geometry& g, std::string* why) {
  auto no = [&](const char* reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  if (g.depth_multiplier != 1 || g.out_c != g.in_c) return no("depth multiplier other than 1");
  if (g.stride_h < 1 || g.stride_w < 1 || g.dil_h < 1 || g.dil_w < 1) return no("stride or dilation below 1");
  if (g.f_h < 1 || g.f_w < 1 || g.in_c < 1 || g.batches < 1 || g.out_h < 1 || g.out_w < 1 ||
      g.in_h < 1 || g.in_w < 1) {
    return no("empty tensor or filter");
  }
  if (g.pad_h < 0 || g.pad_w < 0) return no("negative padding");
  // The pair rows index with int, and one thread's ring of them is allocated at the first
  // run: keep both well bounded (a crafted geometry is refused here, not at Invoke).
  const int64_t cols = static_cast<int64_t>(g.out_w - 1) * g.stride_w +
                       static_cast<int64_t>(g.f_w + kGroupTaps) * g.dil_w + g.pad_w + g.in_w;
  const int64_t rows = static_cast<int64_t>(g.f_h - 1) * g.dil_h + 1;
  const int64_t blocks = (g.in_c + kLanes - 1) / kLanes;
  const int64_t ring_bytes = rows * blocks * cols * kLanes * static_cast<int64_t>(sizeof(int32_t));
  if (cols * (g.in_c + kLanes) > (int64_t{1} << 28) || rows > 4096 ||
      static_cast<int64_t>(g.f_h) * g.f_w > 4096 || ring_bytes > (int64_t{64} << 20)) {
    return no("too large for the pair rows");
  }
  return true;
}

DotDepthwise::DotDepthwise(const Geometry& g, const int8_t* filter, int32_t input_zero_point,
                           const gemm::QuantizedOutputStage& stage)
    : g_(g), input_zero_point_(input_zero_point) {
  const int channels = g.in_c;
  s_.blocks = (channels + kLanes - 1) / kLanes;
  s_.groups = (g.f_w + kGroupTaps - 1) / kGroupTaps;
  // Row entry m holds input column col_step * m; with (kGroupTaps * dil_w) % stride_w == 0
  // every entry read is such a column (stride 1 and 2 always), else every column is kept.
  s_.col_step = (kGroupTaps * g.dil_w) % g.stride_w == 0 ? g.stride_w : 1;
  s_.ox_step = g.stride_w / s_.col_step;
  s_.group_step = kGroupTaps * g.dil_w / s_.col_step;
  s_.entries = (g.out_w - 1) * s_.ox_step + (s_.groups - 1) * s_.group_step + 1;
  s_.padded_w = (s_.entries - 1) * s_.col_step + (kGroupTaps - 1) * g.dil_w + 1;
  s_.ring = (g.f_h - 1) * g.dil_h + 1;

  const int padded_c = s_.blocks * kLanes;
  weights_.assign(static_cast<size_t>(s_.blocks) * g.f_h * s_.groups * kLanes, 0);
  init_.assign(padded_c, 0);
  for (int c = 0; c < channels; ++c) {
    uint32_t tap_sum = 0;
    for (int t = 0; t < g.f_h * g.f_w; ++t) tap_sum += static_cast<uint32_t>(filter[static_cast<size_t>(t) * channels + c]);
    const uint32_t bias = stage.bias != nullptr ? static_cast<uint32_t>(stage.bias[c]) : 0u;
    init_[c] = static_cast<int32_t>(bias - static_cast<uint32_t>(input_zero_point) * tap_sum);
    const int block = c / kLanes, lane = c % kLanes;
    for (int fy = 0; fy < g.f_h; ++fy) {
      for (int q = 0; q < s_.groups; ++q) {
        int32_t taps[kGroupTaps];  // a short last group multiplies zero weights
        for (int t = 0; t < kGroupTaps; ++t) {
          const int fx = kGroupTaps * q + t;
          taps[t] = fx < g.f_w ? filter[static_cast<size_t>(fy * g.f_w + fx) * channels + c] : 0;
        }
        weights_[((static_cast<size_t>(block) * g.f_h + fy) * s_.groups + q) * kLanes + lane] = GroupLane(taps);
      }
    }
  }
  fp32_ = stage.float_scale != nullptr;
  output_offset_ = stage.output_offset;
  act_min_ = stage.act_min;
  act_max_ = stage.act_max;
  if (fp32_) {
    scale_.assign(stage.float_scale, stage.float_scale + channels);
    scale_.resize(padded_c, 0.0f);
  } else {
    multiplier_.assign(stage.multiplier, stage.multiplier + channels);
    shift_.assign(stage.shift, stage.shift + channels);
    multiplier_.resize(padded_c, 0);
    shift_.resize(padded_c, 0);
  }
  int32_t zps[kGroupTaps];
  std::fill(zps, zps + kGroupTaps, input_zero_point);
  zero_row_.assign(static_cast<size_t>(s_.blocks) * s_.entries * kLanes, GroupLane(zps));
}

size_t DotDepthwise::ScratchBytes() const {
  const size_t row = static_cast<size_t>(s_.blocks) * s_.entries * kLanes * sizeof(int32_t);
  const size_t padded = static_cast<size_t>(s_.padded_w) * s_.blocks * kLanes;
  return AlignUp(row) * s_.ring + AlignUp(padded) + AlignUp(s_.ring * sizeof(int64_t));
}

void DotDepthwise::RunPortable(const int8_t* input, int8_t* output) const {
  const Geometry& g = g_;
  gemm::QuantizedOutputStage st;
  st.output_offset = output_offset_;
  st.act_min = act_min_;
  st.act_max = act_max_;
  if (fp32_) {
    st.float_scale = scale_.data();
  } else {
    st.multiplier = multiplier_.data();
    st.shift = shift_.data();
  }
  for (int b = 0; b < g.batches; ++b) {
    for (int oy = 0; oy < g.out_h; ++oy) {
      for (int ox = 0; ox < g.out_w; ++ox) {
        for (int c = 0; c < g.in_c; ++c) {
          // init_ holds bias - zp * (all taps): the taps outside the image add zp * w back.
          uint32_t acc = static_cast<uint32_t>(init_[c]);
          for (int fy = 0; fy < g.f_h; ++fy) {
            const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
            for (int fx = 0; fx < g.f_w; ++fx) {
              const int ix = ox * g.stride_w - g.pad_w + fx * g.dil_w;
              const bool inside = iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w;
              const int32_t x = inside ? input[((static_cast<size_t>(b) * g.in_h + iy) * g.in_w + ix) * g.in_c + c]
                                       : input_zero_point_;
              const int32_t lane = weights_[((static_cast<size_t>(c / kLanes) * g.f_h + fy) * s_.groups + fx / kGroupTaps) * kLanes + c % kLanes];
              const int32_t w = GroupTap(lane, fx % kGroupTaps);
              acc += static_cast<uint32_t>(x * w);
            }
          }
          output[((static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox) * g.in_c + c] =
              static_cast<int8_t>(requant::StageValue(static_cast<int32_t>(acc), c, st));
        }
      }
    }
  }
}

// One output row of the vector kernels: rows (the filter's rows' entries), the weights,
// init, and the stage's scale or multiplier / shift, output offset and range.
using RowFn = void (*)(const DotDepthwise::Shape&, const Geometry&, const int32_t* const*,
                       const int32_t*, const int32_t*, const float*, const int32_t*,
                       const int32_t*, int32_t, int32_t, int32_t, int8_t*);

#if defined(TFI_DWDOT_X86)
#define TFI_DWDOT_TARGET "avx512f,avx512bw,avx512vl,avx512vnni"

// Pair row of input row iy of image b: entry m of block k holds, per channel, the int16 pair
// (x[col_step * m][c], x[col_step * m + dil_w][c]) of the zero-point-padded row.
__attribute__((target(TFI_DWDOT_TARGET))) void BuildPairs(const DotDepthwise::Shape& s, int dil_w,
                                                           const int8_t* padded, int32_t* row) {
  const int padded_c = s.blocks * kLanes;
  alignas(64) static const int16_t kInterleave[32] = {0, 16, 1, 17, 2,  18, 3,  19, 4,  20, 5,
                                                      21, 6, 22, 7, 23, 8,  24, 9,  25, 10, 26,
                                                      11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
  const __m512i order = _mm512_load_si512(kInterleave);
  for (int k = 0; k < s.blocks; ++k) {
    int32_t* out = row + static_cast<size_t>(k) * s.entries * kLanes;
    const int8_t* col = padded + k * kLanes;
    for (int m = 0; m < s.entries; ++m, out += kLanes) {
      const int8_t* a = col + static_cast<size_t>(m) * s.col_step * padded_c;
      const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
      const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + static_cast<size_t>(dil_w) * padded_c));
      const __m512i wide = _mm512_cvtepi8_epi16(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
      _mm512_storeu_si512(out, _mm512_permutexvar_epi16(order, wide));
    }
  }
}

// The output stage of 16 channels: fp32 (XNNPACK) or TFLite's double rounding.
struct Stage16 {
  __m512 scale, flo, fhi;
  requant::Avx512Channels ch;
  __m512i offset, lo, hi, zero;
};

template <bool kFp32>
__attribute__((target(TFI_DWDOT_TARGET), always_inline)) inline void Store16(const Stage16& st,
                                                                            __mmask16 mask,
                                                                            __m512i acc,
                                                                            int8_t* dst) {
  __m512i v;
  if constexpr (kFp32) {  // vcvtps2dq rounds to nearest even (the default MXCSR mode)
    const __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), st.scale);
    v = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f, st.flo), st.fhi)),
                         st.offset);
  } else {
    v = requant::OutputStage16(acc, st.zero, st.ch, st.offset, st.lo, st.hi);
  }
  _mm512_mask_cvtsepi32_storeu_epi8(dst, mask, v);
}

// One output row: kH x kW filter (0: the geometry's, read from memory), kFp32 stage.
template <int kH, int kW, bool kFp32>
__attribute__((target(TFI_DWDOT_TARGET))) void RowKernel(
    const DotDepthwise::Shape& s, const Geometry& g, const int32_t* const* rows,
    const int32_t* weights, const int32_t* init, const float* scale, const int32_t* multiplier,
    const int32_t* shift, int32_t output_offset, int32_t act_min, int32_t act_max, int8_t* out) {
  constexpr int kPairs = (kW + 1) / 2;
  const int f_h = kH > 0 ? kH : g.f_h, pairs = kW > 0 ? kPairs : s.groups;
  const int channels = g.in_c, out_w = g.out_w;
  // In size_t: with one output column the stride is never stepped and may be anything
  // (a crafted 335,544,319 overflowed int here).
  const size_t ox_step = static_cast<size_t>(s.ox_step) * kLanes;
  const size_t pair_step = static_cast<size_t>(s.group_step) * kLanes;
  Stage16 st;
  st.offset = _mm512_set1_epi32(output_offset);
  st.lo = _mm512_set1_epi32(act_min);
  st.hi = _mm512_set1_epi32(act_max);
  st.zero = _mm512_setzero_si512();
  st.flo = _mm512_set1_ps(static_cast<float>(act_min - output_offset));
  st.fhi = _mm512_set1_ps(static_cast<float>(act_max - output_offset));
  for (int k = 0; k < s.blocks; ++k) {
    const int valid = std::min(kLanes, channels - k * kLanes);
    const __mmask16 mask = valid == kLanes ? 0xFFFF : static_cast<__mmask16>((1u << valid) - 1);
    const int32_t* wk = weights + static_cast<size_t>(k) * f_h * pairs * kLanes;
    __m512i w[kH > 0 ? kH * kPairs : 1];
    if constexpr (kH > 0) {
      for (int i = 0; i < kH * kPairs; ++i) w[i] = _mm512_loadu_si512(wk + i * kLanes);
    }
    const __m512i start = _mm512_loadu_si512(init + k * kLanes);
    if constexpr (kFp32) {
      st.scale = _mm512_loadu_ps(scale + k * kLanes);
    } else {
      st.ch = requant::MakeChannels16(_mm512_loadu_si512(multiplier + k * kLanes),
                                      _mm512_loadu_si512(shift + k * kLanes));
    }
    const int32_t* r[kH > 0 ? kH : 1];
    const int32_t* const* rk = rows;
    const size_t block_offset = static_cast<size_t>(k) * s.entries * kLanes;
    if constexpr (kH > 0) {
      for (int fy = 0; fy < kH; ++fy) r[fy] = rk[fy] + block_offset;
    }
    int8_t* o = out + k * kLanes;
    int ox = 0;
    for (; ox + 4 <= out_w; ox += 4) {
      __m512i a0 = start, a1 = start, a2 = start, a3 = start;
      const size_t e = static_cast<size_t>(ox) * ox_step;
      for (int fy = 0; fy < f_h; ++fy) {
        const int32_t* base = (kH > 0 ? r[fy] : rk[fy] + block_offset) + e;
        for (int p = 0; p < pairs; ++p) {
          const __m512i wv = kH > 0 ? w[fy * kPairs + p] : _mm512_loadu_si512(wk + (fy * pairs + p) * kLanes);
          const int32_t* at = base + p * pair_step;
          a0 = _mm512_dpwssd_epi32(a0, _mm512_loadu_si512(at), wv);
          a1 = _mm512_dpwssd_epi32(a1, _mm512_loadu_si512(at + ox_step), wv);
          a2 = _mm512_dpwssd_epi32(a2, _mm512_loadu_si512(at + 2 * ox_step), wv);
          a3 = _mm512_dpwssd_epi32(a3, _mm512_loadu_si512(at + 3 * ox_step), wv);
        }
      }
      Store16<kFp32>(st, mask, a0, o + static_cast<size_t>(ox) * channels);
      Store16<kFp32>(st, mask, a1, o + static_cast<size_t>(ox + 1) * channels);
      Store16<kFp32>(st, mask, a2, o + static_cast<size_t>(ox + 2) * channels);
      Store16<kFp32>(st, mask, a3, o + static_cast<size_t>(ox + 3) * channels);
    }
    for (; ox < out_w; ++ox) {
      __m512i a0 = start;
      const size_t e = static_cast<size_t>(ox) * ox_step;
      for (int fy = 0; fy < f_h; ++fy) {
        const int32_t* base = (kH > 0 ? r[fy] : rk[fy] + block_offset) + e;
        for (int p = 0; p < pairs; ++p) {
          const __m512i wv = kH > 0 ? w[fy * kPairs + p] : _mm512_loadu_si512(wk + (fy * pairs + p) * kLanes);
          a0 = _mm512_dpwssd_epi32(a0, _mm512_loadu_si512(base + p * pair_step), wv);
        }
      }
      Store16<kFp32>(st, mask, a0, o + static_cast<size_t>(ox) * channels);
    }
  }
}

template <bool kFp32>
RowFn PickRow(const Geometry& g) {
  if (g.f_h == 3 && g.f_w == 3) return RowKernel<3, 3, kFp32>;
  if (g.f_h == 5 && g.f_w == 5) return RowKernel<5, 5, kFp32>;
  return RowKernel<0, 0, kFp32>;
}

// --- AVX2 (no VNNI): the same pair rows and weights, each vpdpwssd as vpmaddwd + vpaddd
// (the same int32 sums), a 16-channel block as two ymm halves. ---

__attribute__((target("avx2"))) void BuildPairsAvx2(const DotDepthwise::Shape& s, int dil_w,
                                                    const int8_t* padded, int32_t* row) {
  const int padded_c = s.blocks * kLanes;
  for (int k = 0; k < s.blocks; ++k) {
    int32_t* out = row + static_cast<size_t>(k) * s.entries * kLanes;
    const int8_t* col = padded + k * kLanes;
    for (int m = 0; m < s.entries; ++m, out += kLanes) {
      const int8_t* a = col + static_cast<size_t>(m) * s.col_step * padded_c;
      const __m256i lo = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)));
      const __m256i hi = _mm256_cvtepi8_epi16(_mm_loadu_si128(
          reinterpret_cast<const __m128i*>(a + static_cast<size_t>(dil_w) * padded_c)));
      // unpacklo: channels 0-3 | 8-11, unpackhi: 4-7 | 12-15 (per 128-bit lane).
      const __m256i l = _mm256_unpacklo_epi16(lo, hi), h = _mm256_unpackhi_epi16(lo, hi);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permute2x128_si256(l, h, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8),
                          _mm256_permute2x128_si256(l, h, 0x31));
    }
  }
}

// 16 channels' sums (two halves) through the stage, the first `valid` stored.
template <bool kFp32>
__attribute__((target("avx2"), always_inline)) inline void Store16Avx2(
    __m256i acc0, __m256i acc1, const float* scale, const gemm::QuantizedOutputStage& stage,
    __m256 flo, __m256 fhi, __m256i offset, int valid, int8_t* dst) {
  int8_t bytes[kLanes];
  if constexpr (kFp32) {  // vcvtps2dq rounds to nearest even (the default MXCSR mode)
    const __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc0), _mm256_loadu_ps(scale));
    const __m256 f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc1), _mm256_loadu_ps(scale + 8));
    const __m256i v0 =
        _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f0, flo), fhi)), offset);
    const __m256i v1 =
        _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f1, flo), fhi)), offset);
    const __m128i packed = requant::Narrow16(v0, v1, static_cast<int8_t*>(nullptr));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes), packed);
  } else {
    int32_t sums[kLanes];
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums), acc0);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums + 8), acc1);
    requant::OutputStageRow(sums, valid, stage, bytes);
  }
  std::memcpy(dst, bytes, static_cast<size_t>(valid));
}

__attribute__((target("avx2"), always_inline)) inline __m256i Load8(const int32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

template <int kH, int kW, bool kFp32>
__attribute__((target("avx2"))) void RowKernelAvx2(const DotDepthwise::Shape& s, const Geometry& g,
                                                   const int32_t* const* rows,
                                                   const int32_t* weights, const int32_t* init,
                                                   const float* scale, const int32_t* multiplier,
                                                   const int32_t* shift, int32_t output_offset,
                                                   int32_t act_min, int32_t act_max, int8_t* out) {
  constexpr int kPairs = (kW + 1) / 2;
  const int f_h = kH > 0 ? kH : g.f_h, pairs = kW > 0 ? kPairs : s.groups;
  const int channels = g.in_c, out_w = g.out_w;
  const size_t ox_step = static_cast<size_t>(s.ox_step) * kLanes;
  const size_t pair_step = static_cast<size_t>(s.group_step) * kLanes;
  const __m256i offset = _mm256_set1_epi32(output_offset);
  const __m256 flo = _mm256_set1_ps(static_cast<float>(act_min - output_offset));
  const __m256 fhi = _mm256_set1_ps(static_cast<float>(act_max - output_offset));
  gemm::QuantizedOutputStage stage;
  stage.output_offset = output_offset;
  stage.act_min = act_min;
  stage.act_max = act_max;
  for (int k = 0; k < s.blocks; ++k) {
    const int valid = std::min(kLanes, channels - k * kLanes);
    const int32_t* wk = weights + static_cast<size_t>(k) * f_h * pairs * kLanes;
    const __m256i start0 = Load8(init + k * kLanes), start1 = Load8(init + k * kLanes + 8);
    const float* sk = kFp32 ? scale + k * kLanes : nullptr;
    if constexpr (!kFp32) {
      stage.multiplier = multiplier + k * kLanes;
      stage.shift = shift + k * kLanes;
    }
    const size_t block_offset = static_cast<size_t>(k) * s.entries * kLanes;
    int8_t* o = out + k * kLanes;
    int ox = 0;
    for (; ox + 4 <= out_w; ox += 4) {
      __m256i a00 = start0, a01 = start1, a10 = start0, a11 = start1;
      __m256i a20 = start0, a21 = start1, a30 = start0, a31 = start1;
      const size_t e = static_cast<size_t>(ox) * ox_step;
      for (int fy = 0; fy < f_h; ++fy) {
        const int32_t* base = rows[fy] + block_offset + e;
        for (int p = 0; p < pairs; ++p) {
          const int32_t* wp = wk + (fy * pairs + p) * kLanes;
          const __m256i w0 = Load8(wp), w1 = Load8(wp + 8);
          const int32_t* at = base + p * pair_step;
          a00 = _mm256_add_epi32(a00, _mm256_madd_epi16(Load8(at), w0));
          a01 = _mm256_add_epi32(a01, _mm256_madd_epi16(Load8(at + 8), w1));
          a10 = _mm256_add_epi32(a10, _mm256_madd_epi16(Load8(at + ox_step), w0));
          a11 = _mm256_add_epi32(a11, _mm256_madd_epi16(Load8(at + ox_step + 8), w1));
          a20 = _mm256_add_epi32(a20, _mm256_madd_epi16(Load8(at + 2 * ox_step), w0));
          a21 = _mm256_add_epi32(a21, _mm256_madd_epi16(Load8(at + 2 * ox_step + 8), w1));
          a30 = _mm256_add_epi32(a30, _mm256_madd_epi16(Load8(at + 3 * ox_step), w0));
          a31 = _mm256_add_epi32(a31, _mm256_madd_epi16(Load8(at + 3 * ox_step + 8), w1));
        }
      }
      Store16Avx2<kFp32>(a00, a01, sk, stage, flo, fhi, offset, valid,
                         o + static_cast<size_t>(ox) * channels);
      Store16Avx2<kFp32>(a10, a11, sk, stage, flo, fhi, offset, valid,
                         o + static_cast<size_t>(ox + 1) * channels);
      Store16Avx2<kFp32>(a20, a21, sk, stage, flo, fhi, offset, valid,
                         o + static_cast<size_t>(ox + 2) * channels);
      Store16Avx2<kFp32>(a30, a31, sk, stage, flo, fhi, offset, valid,
                         o + static_cast<size_t>(ox + 3) * channels);
    }
    for (; ox < out_w; ++ox) {
      __m256i a0 = start0, a1 = start1;
      const size_t e = static_cast<size_t>(ox) * ox_step;
      for (int fy = 0; fy < f_h; ++fy) {
        const int32_t* base = rows[fy] + block_offset + e;
        for (int p = 0; p < pairs; ++p) {
          const int32_t* wp = wk + (fy * pairs + p) * kLanes;
          const int32_t* at = base + p * pair_step;
          a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(Load8(at), Load8(wp)));
          a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(Load8(at + 8), Load8(wp + 8)));
        }
      }
      Store16Avx2<kFp32>(a0, a1, sk, stage, flo, fhi, offset, valid,
                         o + static_cast<size_t>(ox) * channels);
    }
  }
}

template <bool kFp32>
RowFn PickRowAvx2(const Geometry& g) {
  if (g.f_h == 3 && g.f_w == 3) return RowKernelAvx2<3, 3, kFp32>;
  if (g.f_h == 5 && g.f_w == 5) return RowKernelAvx2<5, 5, kFp32>;
  return RowKernelAvx2<0, 0, kFp32>;
}
#endif  // TFI_DWDOT_X86

#if defined(TFI_DWDOT_ARM)
#define TFI_DWDOT_TARGET "arch=armv8.2-a+dotprod"

// Quad row of the padded row: entry m of block k holds, per channel, the four bytes
// (x[j][c], x[j + dil_w][c], x[j + 2 dil_w][c], x[j + 3 dil_w][c]), j = col_step * m: one
// vst4q interleaves four 16-channel loads.
void BuildQuads(const DotDepthwise::Shape& s, int dil_w, const int8_t* padded, int32_t* row) {
  const size_t padded_c = static_cast<size_t>(s.blocks) * kLanes;
  const size_t d = static_cast<size_t>(dil_w) * padded_c;
  for (int k = 0; k < s.blocks; ++k) {
    int8_t* out = reinterpret_cast<int8_t*>(row + static_cast<size_t>(k) * s.entries * kLanes);
    const int8_t* col = padded + k * kLanes;
    for (int m = 0; m < s.entries; ++m, out += 4 * kLanes) {
      const int8_t* a = col + static_cast<size_t>(m) * s.col_step * padded_c;
      int8x16x4_t v;
      v.val[0] = vld1q_s8(a);
      v.val[1] = vld1q_s8(a + d);
      v.val[2] = vld1q_s8(a + 2 * d);
      v.val[3] = vld1q_s8(a + 3 * d);
      vst4q_s8(out, v);
    }
  }
}

// One output row, P output pixels at a time (4, then 1): per 16 channels four int32x4 sums
// per pixel, each filter row's groups one sdot per 4 channels; then the output stage,
// fp32 (XNNPACK's: float product, clamp, round to nearest even) or TFLite's double
// rounding (requant::OutputStage4, StageValue's bits).
template <int P, bool kFp32>
__attribute__((target(TFI_DWDOT_TARGET), always_inline)) inline void NeonPixels(
    const DotDepthwise::Shape& s, const Geometry& g, const int32_t* const* rows,
    size_t block_offset, const int8_t* wk, const int32x4_t* start, const float32x4_t* scale,
    const requant::NeonChannels* ch, int32_t output_offset, int32_t act_min, int32_t act_max,
    int valid, int ox, int8_t* o) {
  const size_t ox_step = static_cast<size_t>(s.ox_step) * kLanes;
  const size_t group_step = static_cast<size_t>(s.group_step) * kLanes;
  int32x4_t acc[P][4];
  for (int p = 0; p < P; ++p) {
    for (int q = 0; q < 4; ++q) acc[p][q] = start[q];
  }
  const size_t e = static_cast<size_t>(ox) * ox_step;
  for (int fy = 0; fy < g.f_h; ++fy) {
    const int32_t* base = rows[fy] + block_offset + e;
    for (int gi = 0; gi < s.groups; ++gi) {
      const int8_t* w = wk + static_cast<size_t>(fy * s.groups + gi) * kLanes * 4;
      const int8x16_t w0 = vld1q_s8(w), w1 = vld1q_s8(w + 16), w2 = vld1q_s8(w + 32), w3 = vld1q_s8(w + 48);
      const int32_t* at = base + gi * group_step;
      for (int p = 0; p < P; ++p) {
        const int8_t* x = reinterpret_cast<const int8_t*>(at + p * ox_step);
        acc[p][0] = vdotq_s32(acc[p][0], vld1q_s8(x), w0);
        acc[p][1] = vdotq_s32(acc[p][1], vld1q_s8(x + 16), w1);
        acc[p][2] = vdotq_s32(acc[p][2], vld1q_s8(x + 32), w2);
        acc[p][3] = vdotq_s32(acc[p][3], vld1q_s8(x + 48), w3);
      }
    }
  }
  const int32x4_t offset = vdupq_n_s32(output_offset);
  for (int p = 0; p < P; ++p) {
    int32x4_t v[4];
    for (int q = 0; q < 4; ++q) {
      if constexpr (kFp32) {
        const float32x4_t lo = vdupq_n_f32(static_cast<float>(act_min - output_offset));
        const float32x4_t hi = vdupq_n_f32(static_cast<float>(act_max - output_offset));
        const float32x4_t f = vmulq_f32(vcvtq_f32_s32(acc[p][q]), scale[q]);
        v[q] = vaddq_s32(vcvtnq_s32_f32(vminq_f32(vmaxq_f32(f, lo), hi)), offset);
      } else {
        v[q] = requant::OutputStage4(acc[p][q], vdupq_n_s32(0), ch[q], offset,
                                     vdupq_n_s32(act_min), vdupq_n_s32(act_max));
      }
    }
    int8_t* dst = o + static_cast<size_t>(ox + p) * g.in_c;
    if (valid == kLanes) {
      requant::Store16(v[0], v[1], v[2], v[3], dst);
    } else {
      int8_t tmp[kLanes];
      requant::Store16(v[0], v[1], v[2], v[3], tmp);
      std::memcpy(dst, tmp, static_cast<size_t>(valid));
    }
  }
}

template <bool kFp32>
__attribute__((target(TFI_DWDOT_TARGET))) void RowKernelNeon(
    const DotDepthwise::Shape& s, const Geometry& g, const int32_t* const* rows,
    const int32_t* weights, const int32_t* init, const float* scale, const int32_t* multiplier,
    const int32_t* shift, int32_t output_offset, int32_t act_min, int32_t act_max, int8_t* out) {
  for (int k = 0; k < s.blocks; ++k) {
    const int valid = std::min(kLanes, g.in_c - k * kLanes);
    const int8_t* wk = reinterpret_cast<const int8_t*>(weights + static_cast<size_t>(k) * g.f_h * s.groups * kLanes);
    int32x4_t start[4];
    float32x4_t sc[4];
    requant::NeonChannels ch[4];
    for (int q = 0; q < 4; ++q) {
      const int at = k * kLanes + 4 * q;
      start[q] = vld1q_s32(init + at);
      if constexpr (kFp32) {
        sc[q] = vld1q_f32(scale + at);
      } else {
        ch[q] = requant::LoadNeonChannels4(multiplier + at, shift + at);
      }
    }
    const size_t block_offset = static_cast<size_t>(k) * s.entries * kLanes;
    int8_t* o = out + k * kLanes;
    int ox = 0;
    for (; ox + 4 <= g.out_w; ox += 4) {
      NeonPixels<4, kFp32>(s, g, rows, block_offset, wk, start, sc, ch, output_offset, act_min,
                           act_max, valid, ox, o);
    }
    for (; ox < g.out_w; ++ox) {
      NeonPixels<1, kFp32>(s, g, rows, block_offset, wk, start, sc, ch, output_offset, act_min,
                           act_max, valid, ox, o);
    }
  }
}

template <bool kFp32>
RowFn PickRow(const Geometry&) {
  return RowKernelNeon<kFp32>;
}
#endif  // TFI_DWDOT_ARM

void DotDepthwise::BuildRow(const int8_t* input, int b, int iy, int8_t* padded,
                                int32_t* row) const {
#if defined(TFI_DWDOT_X86) || defined(TFI_DWDOT_ARM)
  const Geometry& g = g_;
  const int padded_c = s_.blocks * kLanes;
  // Columns outside the image and the channels past in_c keep the zero point written once
  // per run (RunRows); the image's columns are copied in.
  const int8_t* src = input + (static_cast<size_t>(b) * g.in_h + iy) * g.in_w * g.in_c;
  const int first = g.pad_w, last = std::min(g.pad_w + g.in_w, s_.padded_w);
  if (padded_c == g.in_c) {
    if (last > first) std::memcpy(padded + static_cast<size_t>(first) * padded_c, src, static_cast<size_t>(last - first) * g.in_c);
  } else {
    for (int j = first; j < last; ++j) {
      std::memcpy(padded + static_cast<size_t>(j) * padded_c, src + static_cast<size_t>(j - first) * g.in_c, g.in_c);
    }
  }
#if defined(TFI_DWDOT_X86)
  if (gemm::CpuHasAvx512Vnni()) {
    BuildPairs(s_, g.dil_w, padded, row);
  } else {
    BuildPairsAvx2(s_, g.dil_w, padded, row);
  }
#else
  BuildQuads(s_, g.dil_w, padded, row);
#endif
#else
  (void)input, (void)b, (void)iy, (void)padded, (void)row;
#endif
}

void DotDepthwise::RunRows(const int8_t* input, int8_t* output, size_t first, size_t last,
                           uint8_t* scratch) const {
#if defined(TFI_DWDOT_X86) || defined(TFI_DWDOT_ARM)
  const Geometry& g = g_;
  const size_t row_bytes = AlignUp(static_cast<size_t>(s_.blocks) * s_.entries * kLanes * sizeof(int32_t));
  int32_t* ring = reinterpret_cast<int32_t*>(scratch);
  int8_t* padded = reinterpret_cast<int8_t*>(scratch + row_bytes * s_.ring);
  int64_t* tags = reinterpret_cast<int64_t*>(
      scratch + row_bytes * s_.ring + AlignUp(static_cast<size_t>(s_.padded_w) * s_.blocks * kLanes));
  std::memset(padded, static_cast<uint8_t>(input_zero_point_), static_cast<size_t>(s_.padded_w) * s_.blocks * kLanes);
  std::fill(tags, tags + s_.ring, int64_t{-1});
#if defined(TFI_DWDOT_X86)
  const bool vnni = gemm::CpuHasAvx512Vnni();
  const RowFn row_fn = vnni ? (fp32_ ? PickRow<true>(g) : PickRow<false>(g))
                            : (fp32_ ? PickRowAvx2<true>(g) : PickRowAvx2<false>(g));
#else
  const RowFn row_fn = fp32_ ? PickRow<true>(g) : PickRow<false>(g);
#endif
  std::vector<const int32_t*> rows(g.f_h);
  for (size_t i = first; i < last; ++i) {
    const int b = static_cast<int>(i / g.out_h), oy = static_cast<int>(i % g.out_h);
    for (int fy = 0; fy < g.f_h; ++fy) {
      const int iy = oy * g.stride_h - g.pad_h + fy * g.dil_h;
      if (iy < 0 || iy >= g.in_h) {
        rows[fy] = zero_row_.data();
        continue;
      }
      const int slot = iy % s_.ring;
      int32_t* row = reinterpret_cast<int32_t*>(reinterpret_cast<uint8_t*>(ring) + row_bytes * slot);
      const int64_t tag = static_cast<int64_t>(b) * g.in_h + iy;
      if (tags[slot] != tag) {
        BuildRow(input, b, iy, padded, row);
        tags[slot] = tag;
      }
      rows[fy] = row;
    }
    row_fn(s_, g, rows.data(), weights_.data(), init_.data(), scale_.data(), multiplier_.data(),
           shift_.data(), output_offset_, act_min_, act_max_,
           output + (static_cast<size_t>(b) * g.out_h + oy) * g.out_w * g.in_c);
  }
#else
  (void)input, (void)output, (void)first, (void)last, (void)scratch;
#endif
}

void DotDepthwise::Run(const int8_t* input, int8_t* output, pthreadpool* pool) const {
  if (!Available()) {
    RunPortable(input, output);
    return;
  }
  const size_t rows = static_cast<size_t>(g_.batches) * g_.out_h;
  const double work = static_cast<double>(rows) * g_.out_w * g_.in_c * g_.f_h * g_.f_w;
  // One contiguous run of output rows per thread: each keeps its own pair-row ring.
  size_t chunks = std::min(rows, parallel::NumThreads(pool));
  if (work < parallel::kMinParallelWork) chunks = 1;
  const size_t per_chunk = AlignUp(ScratchBytes());
  if (scratch_.size() < per_chunk * chunks + kAlign) scratch_.resize(per_chunk * chunks + kAlign);
  uint8_t* base = scratch_.data();
  base += (kAlign - reinterpret_cast<uintptr_t>(base) % kAlign) % kAlign;
  parallel::ParallelFor(pool, chunks, work, [&](size_t c) {
    RunRows(input, output, rows * c / chunks, rows * (c + 1) / chunks, base + per_chunk * c);
  });
}

}  // namespace dwconv
}  // namespace tflite
