#include "xnnpack/binary_qs8.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/internal/gemm.h"
#include "xnnpack/conv_f32.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_BINARY_QS8_X86 1
#endif

namespace tflite_inspect {
namespace xnnpack {
namespace {

struct Job {
  const BinaryQs8Params* p;
  const int8_t *a, *b;
  size_t period;
  int8_t* out;
  size_t n;
};

#ifdef TFI_BINARY_QS8_X86
#define TFI_BINARY_QS8_TARGET "avx512f,avx512bw,avx512vl"

// 16 products of a and b (int8 -> int32, zero points off) requantized, not yet clamped.
struct MulLanes {
  __m512i az, bz, oz;
  __m512 scale;
  __attribute__((target(TFI_BINARY_QS8_TARGET))) explicit MulLanes(const BinaryQs8Params& p)
      : az(_mm512_set1_epi32(p.a_zero_point)), bz(_mm512_set1_epi32(p.b_zero_point)),
        oz(_mm512_set1_epi32(p.output_zero_point)), scale(_mm512_set1_ps(p.scale)) {}
  __attribute__((target(TFI_BINARY_QS8_TARGET), always_inline)) __m512i operator()(__m128i a,
                                                                                   __m128i b) const {
    const __m512i a32 = _mm512_sub_epi32(_mm512_cvtepi8_epi32(a), az);
    const __m512i b32 = _mm512_sub_epi32(_mm512_cvtepi8_epi32(b), bz);
    const __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_mullo_epi32(a32, b32)), scale);
    return _mm512_add_epi32(_mm512_cvtps_epi32(f), oz);  // nearest even (MXCSR default)
  }
};

// 16 sums (bias + a * a_mult + b * b_mult) >> shift + output zero point, not yet clamped.
struct AddLanes {
  __m512i am, bm, bias, oz;
  __m128i shift;
  __attribute__((target(TFI_BINARY_QS8_TARGET))) explicit AddLanes(const BinaryQs8Params& p)
      : am(_mm512_set1_epi32(p.a_multiplier)), bm(_mm512_set1_epi32(p.b_multiplier)),
        bias(_mm512_set1_epi32(p.bias)), oz(_mm512_set1_epi32(p.output_zero_point)),
        shift(_mm_cvtsi32_si128(static_cast<int>(p.shift))) {}
  __attribute__((target(TFI_BINARY_QS8_TARGET), always_inline)) __m512i operator()(__m128i a,
                                                                                   __m128i b) const {
    __m512i acc = _mm512_add_epi32(bias, _mm512_mullo_epi32(_mm512_cvtepi8_epi32(a), am));
    acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(_mm512_cvtepi8_epi32(b), bm));
    return _mm512_add_epi32(_mm512_sra_epi32(acc, shift), oz);
  }
};

// [begin, end) 64 bytes a step (four independent 16-lane chains, packed with saturation
// into one store), then 16 with masks; b's index wraps at the period (whole rows of it:
// callers split at multiples of the period, or period is 0). Saturating to int8 before the
// clamp gives the clamp's result, as output_min / output_max lie in int8.
template <typename Lanes>
__attribute__((target(TFI_BINARY_QS8_TARGET))) void RangeAvx512(const Job& j, size_t begin,
                                                                size_t end) {
  const BinaryQs8Params& p = *j.p;
  const Lanes lanes(p);
  const __m512i lo = _mm512_set1_epi32(p.output_min), hi = _mm512_set1_epi32(p.output_max);
  const __m512i lo8 = _mm512_set1_epi8(static_cast<char>(p.output_min));
  const __m512i hi8 = _mm512_set1_epi8(static_cast<char>(p.output_max));
  // packs work within 128-bit lanes: dword 4i+k of the packed vector holds chain k's
  // elements 4i..4i+3; this puts them back in order.
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  // Locals, not j's fields: stores through int8_t* could alias them.
  const int8_t* const a_all = j.a;
  const int8_t* const b_all = j.b;
  int8_t* const out = j.out;
  const size_t row = j.period == 0 ? end - begin : j.period;
  for (size_t r0 = begin; r0 < end; r0 += row) {
    const size_t r1 = std::min(end, r0 + row);
    const int8_t* b = j.period == 0 ? b_all + r0 : b_all;
    size_t i = r0;
    for (; i + 64 <= r1; i += 64) {
      const __m512i a = _mm512_loadu_si512(a_all + i);
      const __m512i bv = _mm512_loadu_si512(b + (i - r0));
      const __m512i v0 = lanes(_mm512_extracti32x4_epi32(a, 0), _mm512_extracti32x4_epi32(bv, 0));
      const __m512i v1 = lanes(_mm512_extracti32x4_epi32(a, 1), _mm512_extracti32x4_epi32(bv, 1));
      const __m512i v2 = lanes(_mm512_extracti32x4_epi32(a, 2), _mm512_extracti32x4_epi32(bv, 2));
      const __m512i v3 = lanes(_mm512_extracti32x4_epi32(a, 3), _mm512_extracti32x4_epi32(bv, 3));
      const __m512i packed =
          _mm512_packs_epi16(_mm512_packs_epi32(v0, v1), _mm512_packs_epi32(v2, v3));
      const __m512i clamped = _mm512_min_epi8(_mm512_max_epi8(packed, lo8), hi8);
      _mm512_storeu_si512(out + i, _mm512_permutexvar_epi32(order, clamped));
    }
    for (; i < r1; i += 16) {
      const size_t left = r1 - i;
      const __mmask16 m = left >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << left) - 1);
      __m512i v = lanes(_mm_maskz_loadu_epi8(m, a_all + i), _mm_maskz_loadu_epi8(m, b + (i - r0)));
      v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
      _mm512_mask_cvtsepi32_storeu_epi8(out + i, m, v);
    }
  }
}

#define TFI_BINARY_QS8_AVX2 "avx2"

// 8 products of a and b's low 8 bytes, requantized, not yet clamped (MulLanes on 8 lanes).
struct MulLanes8 {
  __m256i az, bz, oz;
  __m256 scale;
  __attribute__((target(TFI_BINARY_QS8_AVX2))) explicit MulLanes8(const BinaryQs8Params& p)
      : az(_mm256_set1_epi32(p.a_zero_point)),
        bz(_mm256_set1_epi32(p.b_zero_point)),
        oz(_mm256_set1_epi32(p.output_zero_point)),
        scale(_mm256_set1_ps(p.scale)) {}
  __attribute__((target(TFI_BINARY_QS8_AVX2), always_inline)) __m256i operator()(__m128i a,
                                                                                 __m128i b) const {
    const __m256i a32 = _mm256_sub_epi32(_mm256_cvtepi8_epi32(a), az);
    const __m256i b32 = _mm256_sub_epi32(_mm256_cvtepi8_epi32(b), bz);
    const __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_mullo_epi32(a32, b32)), scale);
    return _mm256_add_epi32(_mm256_cvtps_epi32(f), oz);  // nearest even (MXCSR default)
  }
};

// 8 sums of a and b's low 8 bytes (AddLanes on 8 lanes).
struct AddLanes8 {
  __m256i am, bm, bias, oz;
  __m128i shift;
  __attribute__((target(TFI_BINARY_QS8_AVX2))) explicit AddLanes8(const BinaryQs8Params& p)
      : am(_mm256_set1_epi32(p.a_multiplier)),
        bm(_mm256_set1_epi32(p.b_multiplier)),
        bias(_mm256_set1_epi32(p.bias)),
        oz(_mm256_set1_epi32(p.output_zero_point)),
        shift(_mm_cvtsi32_si128(static_cast<int>(p.shift))) {}
  __attribute__((target(TFI_BINARY_QS8_AVX2), always_inline)) __m256i operator()(__m128i a,
                                                                                 __m128i b) const {
    __m256i acc = _mm256_add_epi32(bias, _mm256_mullo_epi32(_mm256_cvtepi8_epi32(a), am));
    acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(_mm256_cvtepi8_epi32(b), bm));
    return _mm256_add_epi32(_mm256_sra_epi32(acc, shift), oz);
  }
};

// RangeAvx512's loop on AVX2: 32 bytes a step (four 8-lane chains packed with saturation
// into one store), then 8, then the last few one by one.
template <typename Lanes>
__attribute__((target(TFI_BINARY_QS8_AVX2))) void RangeAvx2(const Job& j, size_t begin,
                                                            size_t end) {
  const BinaryQs8Params& p = *j.p;
  const Lanes lanes(p);
  const __m256i lo8 = _mm256_set1_epi8(static_cast<char>(p.output_min));
  const __m256i hi8 = _mm256_set1_epi8(static_cast<char>(p.output_max));
  // packs work within 128-bit lanes: dword k of the packed vector holds chain k % 4's
  // elements 4 (k / 4) .. +3 (chain c: elements 8c..8c+7); this puts them back in order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const int8_t* const a_all = j.a;
  const int8_t* const b_all = j.b;
  int8_t* const out = j.out;
  const size_t row = j.period == 0 ? end - begin : j.period;
  for (size_t r0 = begin; r0 < end; r0 += row) {
    const size_t r1 = std::min(end, r0 + row);
    const int8_t* b = j.period == 0 ? b_all + r0 : b_all;
    size_t i = r0;
    for (; i + 32 <= r1; i += 32) {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a_all + i));
      const __m256i bv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + (i - r0)));
      const __m128i a0 = _mm256_castsi256_si128(a), a1 = _mm256_extracti128_si256(a, 1);
      const __m128i b0 = _mm256_castsi256_si128(bv), b1 = _mm256_extracti128_si256(bv, 1);
      const __m256i v0 = lanes(a0, b0);
      const __m256i v1 = lanes(_mm_srli_si128(a0, 8), _mm_srli_si128(b0, 8));
      const __m256i v2 = lanes(a1, b1);
      const __m256i v3 = lanes(_mm_srli_si128(a1, 8), _mm_srli_si128(b1, 8));
      const __m256i packed =
          _mm256_packs_epi16(_mm256_packs_epi32(v0, v1), _mm256_packs_epi32(v2, v3));
      const __m256i clamped = _mm256_min_epi8(_mm256_max_epi8(packed, lo8), hi8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                          _mm256_permutevar8x32_epi32(clamped, order));
    }
    for (; i + 8 <= r1; i += 8) {
      const __m256i v = lanes(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a_all + i)),
                              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + (i - r0))));
      // Dwords 0-3 and 4-7 in the two 128-bit halves: pack them side by side.
      const __m128i v16 =
          _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
      const __m128i v8 = _mm_packs_epi16(v16, v16);
      const __m128i c =
          _mm_min_epi8(_mm_max_epi8(v8, _mm256_castsi256_si128(lo8)), _mm256_castsi256_si128(hi8));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), c);
    }
    for (; i < r1; ++i) out[i] = BinaryQs8One(p, a_all[i], b[i - r0]);
  }
}
#endif

// The main loop this CPU gets: the one place that asks the CPU checks.
enum class Path { kAvx512, kAvx2, kScalar };

Path PathOnCpu() {
#ifdef TFI_BINARY_QS8_X86
  if (tflite::gemm::CpuHasAvx512Vnni()) return Path::kAvx512;  // (AVX-512BW comes with it)
  if (tflite::gemm::CpuHasAvx2()) return Path::kAvx2;
#endif
  return Path::kScalar;
}

void Range(const Job& j, size_t begin, size_t end) {
  const bool add = j.p->op == BinaryQs8Op::kAdd;
  switch (PathOnCpu()) {
#ifdef TFI_BINARY_QS8_X86
    case Path::kAvx512:
      add ? RangeAvx512<AddLanes>(j, begin, end) : RangeAvx512<MulLanes>(j, begin, end);
      return;
    case Path::kAvx2:
      add ? RangeAvx2<AddLanes8>(j, begin, end) : RangeAvx2<MulLanes8>(j, begin, end);
      return;
#endif
    default:
      for (size_t i = begin; i < end; ++i) {
        j.out[i] = BinaryQs8One(*j.p, j.a[i], j.b[j.period == 0 ? i : i % j.period]);
      }
  }
}

}  // namespace

int8_t BinaryQs8One(const BinaryQs8Params& p, int8_t a, int8_t b) {
  int32_t v;
  if (p.op == BinaryQs8Op::kAdd) {
    v = (p.bias + a * p.a_multiplier + b * p.b_multiplier) >> p.shift;  // arithmetic
  } else {
    const int32_t product = (a - p.a_zero_point) * (b - p.b_zero_point);
    v = static_cast<int32_t>(std::nearbyint(static_cast<float>(product) * p.scale));
  }
  return static_cast<int8_t>(std::min(std::max(v + p.output_zero_point, p.output_min), p.output_max));
}

bool AddQs8Params(float a_scale, int32_t a_zero_point, float b_scale, int32_t b_zero_point,
                  float out_scale, int32_t out_zero_point, bool subtract, BinaryQs8Params* p) {
  const float a_ratio = a_scale / out_scale;
  const float b_ratio = (subtract ? -b_scale : b_scale) / out_scale;
  const float abs_a = std::fabs(a_ratio), abs_b = std::fabs(b_ratio);
  const float lo = std::ldexp(1.0f, -10), hi = 256.0f;
  if (!(abs_a >= lo && abs_a < hi && abs_b >= lo && abs_b < hi)) return false;
  // The larger ratio's binary exponent sets the shift (12..30) that makes its multiplier
  // 21 bits; both ratios scaled by 2^shift exactly (an exponent add) and rounded to even.
  int exponent;
  std::frexp(std::max(abs_a, abs_b), &exponent);  // value = m * 2^exponent, m in [0.5, 1)
  const int shift = 20 - (exponent - 1);
  const int32_t am = static_cast<int32_t>(std::lrintf(std::ldexp(abs_a, shift)));
  const int32_t bm = static_cast<int32_t>(std::lrintf(std::ldexp(abs_b, shift)));
  p->op = BinaryQs8Op::kAdd;
  p->a_zero_point = a_zero_point;
  p->b_zero_point = b_zero_point;
  p->output_zero_point = out_zero_point;
  p->a_multiplier = std::signbit(a_ratio) ? -am : am;
  p->b_multiplier = std::signbit(b_ratio) ? -bm : bm;
  p->shift = static_cast<uint32_t>(shift);
  p->bias = (int32_t{1} << (shift - 1)) - p->a_multiplier * a_zero_point - p->b_multiplier * b_zero_point;
  return true;
}

int32_t XnnpackQuantize(float value, float scale, int32_t zero_point) {
  const float v = std::min(std::max(value / scale + static_cast<float>(zero_point), -128.0f), 127.0f);
  return static_cast<int32_t>(std::lrintf(v));
}

bool OwnBinaryQs8Wanted() { return OwnStepWanted(PathOnCpu() != Path::kScalar); }

BinaryQs8Isa BinaryQs8IsaOnCpu() {
  switch (PathOnCpu()) {
    case Path::kAvx512:
      return {"AVX-512", 64};
    case Path::kAvx2:
      return {"AVX2", 32};
    default:
      return {"scalar code", 1};
  }
}

void RunBinaryQs8(const BinaryQs8Params& p, const int8_t* a, const int8_t* b, size_t period,
               int8_t* out, size_t n, pthreadpool_t pool) {
  const Job job{&p, a, b, period, out, n};
  // Tasks of whole rows of the period (or 16 KiB when there is none).
  const size_t unit = period == 0 ? 16384 : period * std::max<size_t>(1, 16384 / period);
  const size_t tasks = (n + unit - 1) / unit;
  if (pool == nullptr || pthreadpool_get_threads_count(pool) <= 1 || tasks <= 1) {
    Range(job, 0, n);
    return;
  }
  struct Ctx {
    const Job* job;
    size_t unit;
  } ctx{&job, unit};
  pthreadpool_parallelize_1d(
      pool,
      [](void* c, size_t t) {
        const Ctx& x = *static_cast<const Ctx*>(c);
        const size_t begin = t * x.unit;
        Range(*x.job, begin, std::min(x.job->n, begin + x.unit));
      },
      &ctx, tasks, /*flags=*/0);
}

}  // namespace xnnpack
}  // namespace tflite_inspect
