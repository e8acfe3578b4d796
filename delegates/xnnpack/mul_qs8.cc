#include "xnnpack/mul_qs8.h"

#include <algorithm>
#include <cmath>

#include "kernels/internal/gemm.h"
#include "xnnpack/conv_f32.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_MUL_QS8_X86 1
#endif

namespace tflite_inspect {
namespace xnnpack {
namespace {

int8_t MulOne(const MulQs8Params& p, int8_t a, int8_t b) {
  const int32_t product = (a - p.a_zero_point) * (b - p.b_zero_point);
  const int32_t v = static_cast<int32_t>(std::nearbyint(static_cast<float>(product) * p.scale));
  return static_cast<int8_t>(std::min(std::max(v + p.output_zero_point, p.output_min), p.output_max));
}

struct Job {
  const MulQs8Params* p;
  const int8_t *a, *b;
  size_t period;
  int8_t* out;
  size_t n;
};

#ifdef TFI_MUL_QS8_X86
// [begin, end) with 16 lanes; b's index wraps at the period (whole rows of it: callers
// split at multiples of the period, or period is 0).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void RangeAvx512(const Job& j, size_t begin,
                                                                     size_t end) {
  const MulQs8Params& p = *j.p;
  const __m512i az = _mm512_set1_epi32(p.a_zero_point), bz = _mm512_set1_epi32(p.b_zero_point);
  const __m512i oz = _mm512_set1_epi32(p.output_zero_point);
  const __m512i lo = _mm512_set1_epi32(p.output_min), hi = _mm512_set1_epi32(p.output_max);
  const __m512 scale = _mm512_set1_ps(p.scale);
  const size_t row = j.period == 0 ? end - begin : j.period;
  for (size_t r0 = begin; r0 < end; r0 += row) {
    const size_t r1 = std::min(end, r0 + row);
    const int8_t* b = j.period == 0 ? j.b + r0 : j.b;
    for (size_t i = r0; i < r1; i += 16) {
      const size_t left = r1 - i;
      const __mmask16 m = left >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << left) - 1);
      const __m512i a32 = _mm512_sub_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, j.a + i)), az);
      const __m512i b32 =
          _mm512_sub_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, b + (i - r0))), bz);
      const __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_mullo_epi32(a32, b32)), scale);
      __m512i v = _mm512_add_epi32(_mm512_cvtps_epi32(f), oz);  // nearest even (MXCSR default)
      v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
      _mm512_mask_cvtsepi32_storeu_epi8(j.out + i, m, v);
    }
  }
}
#endif

void Range(const Job& j, size_t begin, size_t end) {
#ifdef TFI_MUL_QS8_X86
  if (tflite::gemm::CpuHasAvx512Vnni()) {  // (AVX-512BW comes with it)
    RangeAvx512(j, begin, end);
    return;
  }
#endif
  for (size_t i = begin; i < end; ++i) {
    j.out[i] = MulOne(*j.p, j.a[i], j.b[j.period == 0 ? i : i % j.period]);
  }
}

}  // namespace

bool OwnMulQs8Wanted() { return OwnStepWanted(tflite::gemm::CpuHasAvx512Vnni()); }

void RunMulQs8(const MulQs8Params& p, const int8_t* a, const int8_t* b, size_t period,
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
