#include "kernels/internal/quantized_rows.h"

#include <cstring>

#include "kernels/internal/elementwise.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/requantize.h"

namespace tflite {
namespace elementwise {
namespace {

#if defined(TFI_REQUANTIZE_AVX2)
__attribute__((target("avx2"))) inline __m256i Load8(const int8_t* p) {
  return _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
__attribute__((target("avx2"))) inline __m256i Load8(const uint8_t* p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
__attribute__((target("avx2"))) inline __m256i Load8(const int16_t* p) {
  return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Lanes [i, i + 8) of an operand with stride 0 or 1, plus its offset; `splat` holds a
// stride-0 operand's value.
template <typename T>
__attribute__((target("avx2"))) inline __m256i Operand8(const T* p, int stride, int64_t i,
                                                        __m256i splat, __m256i offset) {
  return stride == 0 ? splat : _mm256_add_epi32(Load8(p + i), offset);
}

template <typename T>
__attribute__((target("avx2"))) inline void Store16(__m256i v0, __m256i v1, T* out) {
  const __m128i packed = requant::Narrow16(v0, v1, static_cast<T*>(nullptr));
  std::memcpy(out, &packed, 16);
}
__attribute__((target("avx2"))) inline void Store16(__m256i v0, __m256i v1, int16_t* out) {
  const __m256i packed = requant::Narrow16(v0, v1, out);
  std::memcpy(out, &packed, 32);
}

// The constants of a row (lambdas would not inherit the AVX2 target).
struct AddSubConsts {
  requant::Avx2Channels c1, c2, co;
  __m256i off1, off2, out_offset, lo, hi, splat1, splat2;
  __m128i left;
};

__attribute__((target("avx2"))) inline __m256i Rescaled(__m256i x, __m128i left,
                                                       const requant::Avx2Channels& c) {
  return requant::MultiplyByQuantizedMultiplier8(_mm256_sll_epi32(x, left), c);
}

enum class AddSubOp { kAdd, kSub, kSquaredDifference };

template <typename T>
__attribute__((target("avx2"))) inline __m256i AddSubLanes(const AddSubConsts& k, AddSubOp op,
                                                          const T* a, int sa, const T* b, int sb,
                                                          int64_t i) {
  const __m256i x = sa == 0 ? k.splat1 : Rescaled(Operand8(a, sa, i, k.splat1, k.off1), k.left, k.c1);
  const __m256i y = sb == 0 ? k.splat2 : Rescaled(Operand8(b, sb, i, k.splat2, k.off2), k.left, k.c2);
  __m256i raw = op == AddSubOp::kAdd ? _mm256_add_epi32(x, y) : _mm256_sub_epi32(x, y);
  if (op == AddSubOp::kSquaredDifference) raw = _mm256_mullo_epi32(raw, raw);
  const __m256i v =
      _mm256_add_epi32(requant::MultiplyByQuantizedMultiplier8(raw, k.co), k.out_offset);
  return _mm256_min_epi32(_mm256_max_epi32(v, k.lo), k.hi);
}

// Returns how many values it did (a multiple of 16).
template <typename T>
__attribute__((target("avx2"))) int64_t AddSubAvx2(const ArithmeticParams& p, AddSubOp op,
                                                   const T* a, int sa, const T* b, int sb, T* out,
                                                   int64_t n) {
  AddSubConsts k;
  k.c1 = requant::UniformChannels(p.input1_multiplier, p.input1_shift);
  k.c2 = requant::UniformChannels(p.input2_multiplier, p.input2_shift);
  k.co = requant::UniformChannels(p.output_multiplier, p.output_shift);
  k.off1 = _mm256_set1_epi32(p.input1_offset);
  k.off2 = _mm256_set1_epi32(p.input2_offset);
  k.left = _mm_cvtsi32_si128(p.left_shift);
  k.out_offset = _mm256_set1_epi32(p.output_offset);
  k.lo = _mm256_set1_epi32(p.quantized_activation_min);
  k.hi = _mm256_set1_epi32(p.quantized_activation_max);
  // A broadcast operand is rescaled once.
  k.splat1 = Rescaled(_mm256_set1_epi32(p.input1_offset + a[0]), k.left, k.c1);
  k.splat2 = Rescaled(_mm256_set1_epi32(p.input2_offset + b[0]), k.left, k.c2);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    Store16(AddSubLanes(k, op, a, sa, b, sb, i), AddSubLanes(k, op, a, sa, b, sb, i + 8), out + i);
  }
  return i;
}

struct MulConsts {
  requant::Avx2Channels co;
  __m256i off1, off2, out_offset, lo, hi, splat1, splat2;
};

template <typename T>
__attribute__((target("avx2"))) inline __m256i MulLanes(const MulConsts& k, const T* a, int sa,
                                                       const T* b, int sb, int64_t i) {
  const __m256i prod = _mm256_mullo_epi32(Operand8(a, sa, i, k.splat1, k.off1),
                                          Operand8(b, sb, i, k.splat2, k.off2));
  const __m256i v =
      _mm256_add_epi32(requant::MultiplyByQuantizedMultiplier8(prod, k.co), k.out_offset);
  return _mm256_min_epi32(_mm256_max_epi32(v, k.lo), k.hi);
}

template <typename T>
__attribute__((target("avx2"))) int64_t MulAvx2(const ArithmeticParams& p, const T* a, int sa,
                                                const T* b, int sb, T* out, int64_t n) {
  MulConsts k;
  k.co = requant::UniformChannels(p.output_multiplier, p.output_shift);
  k.off1 = _mm256_set1_epi32(p.input1_offset);
  k.off2 = _mm256_set1_epi32(p.input2_offset);
  k.out_offset = _mm256_set1_epi32(p.output_offset);
  k.lo = _mm256_set1_epi32(p.quantized_activation_min);
  k.hi = _mm256_set1_epi32(p.quantized_activation_max);
  k.splat1 = _mm256_set1_epi32(p.input1_offset + a[0]);
  k.splat2 = _mm256_set1_epi32(p.input2_offset + b[0]);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    Store16(MulLanes(k, a, sa, b, sb, i), MulLanes(k, a, sa, b, sb, i + 8), out + i);
  }
  return i;
}
#endif

inline bool VectorStrides(int sa, int sb) {
  return (sa == 1 || sa == 0) && (sb == 1 || sb == 0) && (sa | sb) != 0;
}

template <typename T>
void AddSubRow(const ArithmeticParams& p, bool subtract, const T* a, int sa, const T* b, int sb,
               T* out, int64_t n) {
  int64_t i = 0;
#if defined(TFI_REQUANTIZE_AVX2)
  if (n >= 16 && VectorStrides(sa, sb) && gemm::CpuHasAvx2()) {
    i = AddSubAvx2(p, subtract ? AddSubOp::kSub : AddSubOp::kAdd, a, sa, b, sb, out, n);
  }
#endif
  for (; i < n; ++i) out[i] = QuantizedAddSub(p, a[i * sa], b[i * sb], subtract);
}

template <typename T>
void MulRow(const ArithmeticParams& p, const T* a, int sa, const T* b, int sb, T* out, int64_t n) {
  int64_t i = 0;
#if defined(TFI_REQUANTIZE_AVX2)
  if (n >= 16 && VectorStrides(sa, sb) && gemm::CpuHasAvx2()) {
    i = MulAvx2(p, a, sa, b, sb, out, n);
  }
#endif
  for (; i < n; ++i) out[i] = QuantizedMul(p, a[i * sa], b[i * sb]);
}

}  // namespace

void QuantizedAddSubRow(const ArithmeticParams& p, bool subtract, const int8_t* a, int sa,
                        const int8_t* b, int sb, int8_t* out, int64_t n) {
  AddSubRow(p, subtract, a, sa, b, sb, out, n);
}
void QuantizedAddSubRow(const ArithmeticParams& p, bool subtract, const uint8_t* a, int sa,
                        const uint8_t* b, int sb, uint8_t* out, int64_t n) {
  AddSubRow(p, subtract, a, sa, b, sb, out, n);
}
void QuantizedAddSubRow(const ArithmeticParams& p, bool subtract, const int16_t* a, int sa,
                        const int16_t* b, int sb, int16_t* out, int64_t n) {
  AddSubRow(p, subtract, a, sa, b, sb, out, n);
}
void QuantizedSquaredDifferenceRow(const ArithmeticParams& p, const int8_t* a, int sa,
                                   const int8_t* b, int sb, int8_t* out, int64_t n) {
  int64_t i = 0;
#if defined(TFI_REQUANTIZE_AVX2)
  if (n >= 16 && VectorStrides(sa, sb) && gemm::CpuHasAvx2()) {
    i = AddSubAvx2(p, AddSubOp::kSquaredDifference, a, sa, b, sb, out, n);
  }
#endif
  for (; i < n; ++i) out[i] = QuantizedSquaredDifference(p, a[i * sa], b[i * sb]);
}
void QuantizedMulRow(const ArithmeticParams& p, const int8_t* a, int sa, const int8_t* b, int sb,
                     int8_t* out, int64_t n) {
  MulRow(p, a, sa, b, sb, out, n);
}
void QuantizedMulRow(const ArithmeticParams& p, const uint8_t* a, int sa, const uint8_t* b, int sb,
                     uint8_t* out, int64_t n) {
  MulRow(p, a, sa, b, sb, out, n);
}

}  // namespace elementwise
}  // namespace tflite
