#include "xnnpack/depthwise_f32.h"

#include <algorithm>
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "kernels/internal/avx2_lanes.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/parallel.h"
#include "kernels/internal/vector_math.h"
#include "xnnpack/conv_f32.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFI_DW_X86 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define TFI_DW_NEON 1
#endif
#include <cstring>

namespace tflite_inspect {
namespace xnnpack {

// Each instruction set's code is compiled for it by a target region around its namespace
// (GCC's target pragma, or clang's attribute pragma, which also reaches templates).
#ifdef TFI_DW_X86
namespace avx512 {
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif
using V = __m512;
using M = __mmask16;
constexpr int kLanes = 16;
constexpr int kBlock3 = 8;  // 9 weights + 8 sums in the 32 zmm registers
constexpr int kBlock5 = 4;  // 25 weights + 4 sums
constexpr int kBlock7 = 8;  // 8 sums; of the 49 weights some are reloaded
inline M MaskFor(int n) { return n >= 16 ? M(0xffff) : M((1u << n) - 1u); }
template <bool kFull>
inline __attribute__((always_inline)) V Load(M m, const float* p) {
  if constexpr (kFull) return _mm512_loadu_ps(p);
  return _mm512_maskz_loadu_ps(m, p);
}
template <bool kFull>
inline __attribute__((always_inline)) void Store(float* p, M m, V v) {
  if constexpr (kFull) _mm512_storeu_ps(p, v);
  else _mm512_mask_storeu_ps(p, m, v);
}
inline __attribute__((always_inline)) V Fma(V a, V b, V acc) { return _mm512_fmadd_ps(a, b, acc); }
inline __attribute__((always_inline)) V Splat(float x) { return _mm512_set1_ps(x); }
inline __attribute__((always_inline)) V Add(V a, V b) { return _mm512_add_ps(a, b); }
constexpr bool kTwoSums5x5 = false;  // XNNPACK's x86 kernels: one sum
inline __attribute__((always_inline)) V Clamp(V v, V lo, V hi) {
  return _mm512_min_ps(_mm512_max_ps(v, lo), hi);
}
#include "xnnpack/depthwise_f32_body.inc"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
}  // namespace avx512

namespace avx2 {
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
using V = __m256;
using M = __m256i;
constexpr int kLanes = 8;
constexpr int kBlock3 = 4;  // 9 weights + 4 sums in the 16 ymm registers
constexpr int kBlock5 = 4;  // the 25 weights do not fit: some are reloaded
constexpr int kBlock7 = 4;
inline M MaskFor(int n) { return tflite::FirstLanesAvx2(n); }
template <bool kFull>
inline __attribute__((always_inline)) V Load(M m, const float* p) {
  if constexpr (kFull) return _mm256_loadu_ps(p);
  return _mm256_maskload_ps(p, m);
}
template <bool kFull>
inline __attribute__((always_inline)) void Store(float* p, M m, V v) {
  if constexpr (kFull) _mm256_storeu_ps(p, v);
  else _mm256_maskstore_ps(p, m, v);
}
inline __attribute__((always_inline)) V Fma(V a, V b, V acc) { return _mm256_fmadd_ps(a, b, acc); }
inline __attribute__((always_inline)) V Splat(float x) { return _mm256_set1_ps(x); }
inline __attribute__((always_inline)) V Add(V a, V b) { return _mm256_add_ps(a, b); }
constexpr bool kTwoSums5x5 = false;
inline __attribute__((always_inline)) V Clamp(V v, V lo, V hi) {
  return _mm256_min_ps(_mm256_max_ps(v, lo), hi);
}
#include "xnnpack/depthwise_f32_body.inc"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
}  // namespace avx2
#endif

#ifdef TFI_DW_NEON
// AArch64: NEON (with FMA) is in every arm64 CPU, so no target region. 4 lanes; the 32
// vector registers hold 9 weights + 8 sums (3x3) or 25 weights + 2 x 2 sums (5x5, with
// the bias and the clamp bounds). vfmaq_f32 is one fused multiply-add per tap, as the
// x86 FMA and XNNPACK's neonfma kernels.
namespace neon {
using V = float32x4_t;
using M = int;  // lanes in use
constexpr int kLanes = 4;
constexpr int kBlock3 = 8;
constexpr int kBlock5 = 2;
constexpr int kBlock7 = 2;
inline M MaskFor(int n) { return n >= kLanes ? kLanes : n; }
template <bool kFull>
inline __attribute__((always_inline)) V Load(M m, const float* p) {
  if constexpr (kFull) return vld1q_f32(p);
  float lanes[kLanes] = {};
  std::memcpy(lanes, p, sizeof(float) * static_cast<size_t>(m));
  return vld1q_f32(lanes);
}
template <bool kFull>
inline __attribute__((always_inline)) void Store(float* p, M m, V v) {
  if constexpr (kFull) {
    vst1q_f32(p, v);
  } else {
    float lanes[kLanes];
    vst1q_f32(lanes, v);
    std::memcpy(p, lanes, sizeof(float) * static_cast<size_t>(m));
  }
}
inline __attribute__((always_inline)) V Fma(V a, V b, V acc) { return vfmaq_f32(acc, a, b); }
inline __attribute__((always_inline)) V Splat(float x) { return vdupq_n_f32(x); }
inline __attribute__((always_inline)) V Add(V a, V b) { return vaddq_f32(a, b); }
// This XNNPACK's arm64 kernel for 25 taps keeps two sums (up4x25 "acc2"): the same bits.
constexpr bool kTwoSums5x5 = true;
inline __attribute__((always_inline)) V Clamp(V v, V lo, V hi) { return vminq_f32(vmaxq_f32(v, lo), hi); }
#include "xnnpack/depthwise_f32_body.inc"
}  // namespace neon
#endif

namespace {

using RowsFn = void (*)(const DepthwiseF32Params&, const float*, const float*, const float*,
                        size_t, float*);

struct Isa {
  RowsFn rows = nullptr;
  const char* name = "none";
};

const Isa& SelectIsa() {
  static const Isa isa = [] {
    Isa i;
#ifdef TFI_DW_X86
    if (tflite::gemm::CpuHasAvx512F()) {
      i.rows = avx512::Rows;
      i.name = "avx512f";
    } else if (tflite::gemm::CpuHasAvx2Fma()) {
      i.rows = avx2::Rows;
      i.name = "avx2_fma";
    }
#elif defined(TFI_DW_NEON)
    i.rows = neon::Rows;
    i.name = "neon_fma";
#endif
    return i;
  }();
  return isa;
}

}  // namespace

const char* DepthwiseF32Isa() { return SelectIsa().name; }

bool OwnDepthwiseF32Wanted() {
#ifdef TFI_DW_NEON
  return OwnStepWanted(false);
#else
  return SelectIsa().rows != nullptr;
#endif
}

bool DepthwiseF32Supported(const DepthwiseF32Params& p, std::string* why) {
  auto no = [&](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return false;
  };
  if (SelectIsa().rows == nullptr) return no("the CPU has neither AVX-512F nor AVX2+FMA");
  if (p.kernel != 3 && p.kernel != 5 && p.kernel != 7) {
    return no(fmt::format("{}x{} filter (3x3, 5x5 or 7x7 only)", p.kernel, p.kernel));
  }
  if (p.stride != 1 && p.stride != 2) return no(fmt::format("stride {} (1 or 2 only)", p.stride));
  if (p.batches < 1 || p.in_h < 1 || p.in_w < 1 || p.channels < 1 || p.out_h < 1 || p.out_w < 1) {
    return no("an empty tensor");
  }
  if (p.pad_top < 0 || p.pad_left < 0 || p.pad_top >= p.kernel || p.pad_left >= p.kernel) {
    return no("padding outside [0, kernel)");
  }
  // Every output pixel must see at least its window's in-image part: the output must
  // not extend past the padded input.
  if ((p.out_h - 1) * p.stride - p.pad_top >= p.in_h || (p.out_w - 1) * p.stride - p.pad_left >= p.in_w) {
    return no("the output is larger than the padded input");
  }
  return true;
}

namespace {

void Run(RowsFn rows, const DepthwiseF32Params& p, const float* input, const float* filter,
         const float* bias, float* output, pthreadpool_t pool) {
  const size_t n = static_cast<size_t>(p.batches) * p.out_h;
  const double macs = static_cast<double>(n) * p.out_w * p.channels * p.kernel * p.kernel;
  const auto row_size = static_cast<int64_t>(p.out_w) * p.channels;
  tflite::parallel::ParallelFor(pool, n, macs, [&](size_t r) {
    rows(p, input, filter, bias, r, output);
    if (p.swish) {
      float* row = output + r * static_cast<size_t>(row_size);
      tflite::vector_math::Apply(tflite::vector_math::Function::kSwish, row, row_size, row);
    }
  });
}

}  // namespace

void RunDepthwiseF32(const DepthwiseF32Params& p, const float* input, const float* filter,
                     const float* bias, float* output, pthreadpool_t pool) {
  Run(SelectIsa().rows, p, input, filter, bias, output, pool);
}

bool RunDepthwiseF32With(const char* isa, const DepthwiseF32Params& p, const float* input,
                         const float* filter, const float* bias, float* output, pthreadpool_t pool) {
  RowsFn rows = nullptr;
#ifdef TFI_DW_X86
  const std::string name = isa;
  if (name == "avx512f" && tflite::gemm::CpuHasAvx512F()) rows = avx512::Rows;
  if (name == "avx2_fma" && tflite::gemm::CpuHasAvx2Fma()) rows = avx2::Rows;
#elif defined(TFI_DW_NEON)
  if (std::string(isa) == "neon_fma") rows = neon::Rows;
#else
  (void)isa;
#endif
  if (rows == nullptr) return false;
  Run(rows, p, input, filter, bias, output, pool);
  return true;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
